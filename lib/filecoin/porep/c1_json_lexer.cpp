// cuzk — the strict JSON token reader behind the C1 JSON reader.
#include "c1_json_lexer.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cstring>

#include "cuzk/error.hpp"

namespace cuzk::filecoin::c1json {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// A printable rendering of one input byte.
std::string show_char(char c)
{
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f && c != '\'') return fmt::format("'{}'", c);
    return fmt::format("byte 0x{:02x}", u);
}

} // namespace

lexer::lexer(std::string_view text, const std::string& source)
    : begin_(text.data()), p_(text.data()), end_(text.data() + text.size()), source_(source)
{
    path_.reserve(256);
}

lexer::scope lexer::at_key(std::string_view key)
{
    const size_t len = path_.size();
    if (!path_.empty()) path_ += '.';
    path_ += key;
    return scope(*this, len);
}

lexer::scope lexer::at_index(size_t i)
{
    const size_t len = path_.size();
    char buf[24];
    buf[0] = '[';
    char* e = std::to_chars(buf + 1, buf + sizeof buf - 1, i).ptr;
    *e++ = ']';
    path_.append(buf, e);
    return scope(*this, len);
}

void lexer::fail_msg(const std::string& msg, std::string_view suffix) const
{
    const std::string where = path_.empty() && suffix.empty() ? "top level" : path_ + std::string(suffix);
    throw error(errc::bad_format, fmt::format("{}: {}: {} (byte {})", source_, where, msg, p_ - begin_));
}

void lexer::fail(std::string_view expected, std::string_view suffix) const
{
    fail_msg(fmt::format("expected {}, found {}", expected, describe()), suffix);
}

// The token at the cursor, shortened, for "found ..." in messages.
std::string lexer::describe() const
{
    if (p_ >= end_) return "end of input";
    const char* q = p_;
    const char* limit = p_ + std::min<ptrdiff_t>(end_ - p_, 32);
    if (*q == '"') {
        ++q;
        while (q < limit && *q != '"' && static_cast<unsigned char>(*q) >= 0x20) ++q;
        if (q < limit && *q == '"') return std::string(p_, q + 1);
        return fmt::format("an unterminated or long string {}", std::string_view(p_, size_t(q - p_)));
    }
    if (is_digit(*q) || *q == '-') {
        while (q < limit && (is_digit(*q) || *q == '-' || *q == '+' || *q == '.' || *q == 'e' || *q == 'E')) ++q;
        return std::string(p_, q);
    }
    if ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z')) {
        while (q < limit && ((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z'))) ++q;
        return fmt::format("'{}'", std::string_view(p_, size_t(q - p_)));
    }
    return show_char(*q);
}

void lexer::ws()
{
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
}

bool lexer::peek(char c)
{
    ws();
    return p_ < end_ && *p_ == c;
}

void lexer::expect(char c)
{
    if (!peek(c)) fail(show_char(c));
    ++p_;
}

void lexer::fail_short(size_t n, size_t got, std::string_view what) const
{
    fail_msg(fmt::format("expected {} {}, the array ends after {}", n, what, got));
}

void lexer::fail_long(size_t n, std::string_view what) const
{
    fail_msg(fmt::format("expected {} {}, the array has more", n, what));
}

lexer::scope lexer::member(std::string_view name, bool first)
{
    if (peek('}')) fail_msg(fmt::format("missing key \"{}\"", name));
    if (!first) expect(',');
    ws();
    const std::string_view key = string(64, "a key");
    if (key != name) fail_msg(fmt::format("expected key \"{}\", found key \"{}\"", name, key));
    expect(':');
    return at_key(name);
}

void lexer::close_object()
{
    if (peek(',')) {
        ++p_;
        ws();
        const std::string_view key = string(64, "a key");
        fail_msg(fmt::format("unexpected extra key \"{}\"", key));
    }
    expect('}');
}

std::string_view lexer::string(size_t max_len, std::string_view what)
{
    if (!peek('"')) fail(what);
    const char* start = p_ + 1;
    const char* q = start;
    while (q < end_ && *q != '"') {
        if (*q == '\\') fail(fmt::format("{} without escape sequences", what));
        if (static_cast<unsigned char>(*q) < 0x20) fail(fmt::format("{} without control characters", what));
        if (size_t(q - start) >= max_len) fail(fmt::format("{} of at most {} characters", what, max_len));
        ++q;
    }
    if (q >= end_) fail(fmt::format("{} (the string is not terminated)", what));
    p_ = q + 1;
    return std::string_view(start, size_t(q - start));
}

void lexer::null()
{
    ws();
    if (end_ - p_ < 4 || std::memcmp(p_, "null", 4) != 0) fail("null");
    p_ += 4;
}

void lexer::fail_uint(uint64_t min, uint64_t max, std::string_view noun, std::string_view extra,
                      long index) const
{
    const std::string suffix = index >= 0 ? fmt::format("[{}]", index) : std::string();
    fail(fmt::format("{} in {}..{}{}", noun, min, max, extra), suffix);
}

uint64_t lexer::uint_in(uint64_t min, uint64_t max, std::string_view noun)
{
    ws();
    const char* start = p_;
    const uint64_t v = uint(max, noun, -1, min);
    if (v < min) {
        p_ = start;
        fail_uint(min, max, noun, "", -1);
    }
    return v;
}

uint64_t lexer::uint(uint64_t max, std::string_view noun, long index, uint64_t shown_min)
{
    ws();
    if (p_ >= end_ || !is_digit(*p_)) fail_uint(shown_min, max, noun, "", index);
    if (*p_ == '0' && p_ + 1 < end_ && is_digit(p_[1]))
        fail_uint(shown_min, max, noun, " without leading zeros", index);
    const char* start = p_;
    uint64_t v = 0;
    bool over = false;
    for (; p_ < end_ && is_digit(*p_); ++p_) {
        const unsigned d = unsigned(*p_ - '0');
        if (over || d > max || v > (max - d) / 10) over = true;
        else v = v * 10 + d;
    }
    const bool fraction = p_ < end_ && (*p_ == '.' || *p_ == 'e' || *p_ == 'E');
    if (fraction || over) {
        p_ = start;
        fail_uint(shown_min, max, noun, fraction ? " (an integer)" : "", index);
    }
    return v;
}

void lexer::bytes32(domain& out)
{
    expect('[');
    for (size_t j = 0; j < 32; ++j) {
        if (peek(']')) fail_short(32, j, "bytes");
        if (j > 0) expect(',');
        out[j] = uint8_t(uint(255, "a byte", long(j)));
    }
    if (peek(',')) fail_long(32, "bytes");
    expect(']');
}

void lexer::end()
{
    ws();
    if (p_ != end_) fail("the end of input after the top-level object");
}

} // namespace cuzk::filecoin::c1json
