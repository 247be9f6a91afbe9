// JSON value, parser and writer (see include/cuzk/io/json.hpp).
#include "cuzk/io/json.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "cuzk/error.hpp"

namespace cuzk::io {

namespace {

[[noreturn]] void type_fail(const char* want)
{
    throw error(errc::invalid_argument, fmt::format("json: value is not {}", want));
}

// Validates the RFC 8259 number grammar
//   -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
// starting at s[i]; returns the end position, or npos if not a number.
size_t scan_number(std::string_view s, size_t i)
{
    const size_t npos = std::string_view::npos;
    auto digit = [&](size_t k) { return k < s.size() && s[k] >= '0' && s[k] <= '9'; };
    if (i < s.size() && s[i] == '-') ++i;
    if (!digit(i)) return npos;
    if (s[i] == '0') ++i;
    else
        while (digit(i)) ++i;
    if (i < s.size() && s[i] == '.') {
        ++i;
        if (!digit(i)) return npos;
        while (digit(i)) ++i;
    }
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
        if (!digit(i)) return npos;
        while (digit(i)) ++i;
    }
    return i;
}

void put_utf8(std::string& out, uint32_t cp)
{
    if (cp < 0x80) {
        out.push_back(char(cp));
    } else if (cp < 0x800) {
        out.push_back(char(0xc0 | (cp >> 6)));
        out.push_back(char(0x80 | (cp & 0x3f)));
    } else if (cp < 0x10000) {
        out.push_back(char(0xe0 | (cp >> 12)));
        out.push_back(char(0x80 | ((cp >> 6) & 0x3f)));
        out.push_back(char(0x80 | (cp & 0x3f)));
    } else {
        out.push_back(char(0xf0 | (cp >> 18)));
        out.push_back(char(0x80 | ((cp >> 12) & 0x3f)));
        out.push_back(char(0x80 | ((cp >> 6) & 0x3f)));
        out.push_back(char(0x80 | (cp & 0x3f)));
    }
}

class parser {
public:
    parser(std::string_view text, const std::string& name) : s_(text), name_(name) {}

    json run()
    {
        ws();
        json v = value(0);
        ws();
        if (i_ != s_.size()) fail("unexpected text after the JSON value");
        return v;
    }

private:
    static constexpr int max_depth = 256;

    [[noreturn]] void fail(const std::string& msg) const { fail_at(i_, msg); }
    [[noreturn]] void fail_at(size_t pos, const std::string& msg) const
    {
        size_t line = 1, col = 1;
        for (size_t k = 0; k < pos && k < s_.size(); ++k) {
            if (s_[k] == '\n') {
                ++line;
                col = 1;
            } else {
                ++col;
            }
        }
        throw error(errc::bad_format, fmt::format("{}: line {}, column {}: {}", name_, line, col, msg));
    }

    void ws()
    {
        while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
    }

    std::string describe_here() const
    {
        if (i_ >= s_.size()) return "end of input";
        const unsigned char c = static_cast<unsigned char>(s_[i_]);
        if (c >= 0x20 && c < 0x7f) return fmt::format("'{}'", char(c));
        return fmt::format("byte 0x{:02x}", c);
    }

    void expect_literal(std::string_view lit)
    {
        if (s_.substr(i_, lit.size()) != lit) fail(fmt::format("invalid literal, expected '{}'", lit));
        i_ += lit.size();
    }

    json value(int depth)
    {
        if (i_ >= s_.size()) fail("unexpected end of input, expected a value");
        const char c = s_[i_];
        switch (c) {
        case '{': return object(depth);
        case '[': return array(depth);
        case '"': return json::string(string());
        case 't': expect_literal("true"); return json::boolean(true);
        case 'f': expect_literal("false"); return json::boolean(false);
        case 'n': expect_literal("null"); return json();
        default: break;
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            const size_t end = scan_number(s_, i_);
            if (end == std::string_view::npos) fail("malformed number");
            json v = json::number(s_.substr(i_, end - i_));
            i_ = end;
            return v;
        }
        fail(fmt::format("unexpected {}, expected a value", describe_here()));
    }

    json array(int depth)
    {
        if (depth >= max_depth) fail(fmt::format("nesting deeper than {} levels", max_depth));
        ++i_;   // '['
        json a = json::array();
        ws();
        if (i_ < s_.size() && s_[i_] == ']') {
            ++i_;
            return a;
        }
        for (;;) {
            ws();
            a.push_back(value(depth + 1));
            ws();
            if (i_ < s_.size() && s_[i_] == ',') {
                ++i_;
                continue;
            }
            if (i_ < s_.size() && s_[i_] == ']') {
                ++i_;
                return a;
            }
            fail(fmt::format("unexpected {}, expected ',' or ']'", describe_here()));
        }
    }

    json object(int depth)
    {
        if (depth >= max_depth) fail(fmt::format("nesting deeper than {} levels", max_depth));
        ++i_;   // '{'
        json o = json::object();
        ws();
        if (i_ < s_.size() && s_[i_] == '}') {
            ++i_;
            return o;
        }
        for (;;) {
            ws();
            if (i_ >= s_.size() || s_[i_] != '"')
                fail(fmt::format("unexpected {}, expected a string key", describe_here()));
            const size_t key_pos = i_;
            std::string key = string();
            if (o.find(key)) fail_at(key_pos, fmt::format("duplicate key \"{}\"", key));
            ws();
            if (i_ >= s_.size() || s_[i_] != ':') fail(fmt::format("unexpected {}, expected ':'", describe_here()));
            ++i_;
            ws();
            json v = value(depth + 1);
            o.as_object().emplace_back(std::move(key), std::move(v));
            ws();
            if (i_ < s_.size() && s_[i_] == ',') {
                ++i_;
                continue;
            }
            if (i_ < s_.size() && s_[i_] == '}') {
                ++i_;
                return o;
            }
            fail(fmt::format("unexpected {}, expected ',' or '}}'", describe_here()));
        }
    }

    uint32_t hex4()
    {
        if (s_.size() - i_ < 4) fail("truncated \\u escape");
        uint32_t v = 0;
        for (int k = 0; k < 4; ++k) {
            const char c = s_[i_ + size_t(k)];
            uint32_t d;
            if (c >= '0' && c <= '9') d = uint32_t(c - '0');
            else if (c >= 'a' && c <= 'f') d = uint32_t(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F') d = uint32_t(c - 'A' + 10);
            else fail("invalid hex digit in \\u escape");
            v = v << 4 | d;
        }
        i_ += 4;
        return v;
    }

    // One UTF-8 sequence starting at s_[i_] (first byte >= 0x80), validated
    // (no overlongs, no surrogates, <= U+10FFFF) and copied.
    void utf8(std::string& out)
    {
        const auto b = [&](size_t k) { return static_cast<unsigned char>(s_[i_ + k]); };
        const unsigned char c = b(0);
        size_t len;
        uint32_t cp;
        if (c >= 0xc2 && c <= 0xdf) len = 2, cp = c & 0x1f;
        else if (c >= 0xe0 && c <= 0xef) len = 3, cp = c & 0x0f;
        else if (c >= 0xf0 && c <= 0xf4) len = 4, cp = c & 0x07;
        else fail("invalid UTF-8 in string");
        if (s_.size() - i_ < len) fail("truncated UTF-8 sequence in string");
        for (size_t k = 1; k < len; ++k) {
            if ((b(k) & 0xc0) != 0x80) fail("invalid UTF-8 in string");
            cp = cp << 6 | (b(k) & 0x3f);
        }
        if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
            fail("invalid UTF-8 in string");
        out.append(s_.substr(i_, len));
        i_ += len;
    }

    std::string string()
    {
        const size_t start = i_;
        ++i_;   // opening quote
        std::string out;
        for (;;) {
            if (i_ >= s_.size()) fail_at(start, "unterminated string");
            const unsigned char c = static_cast<unsigned char>(s_[i_]);
            if (c == '"') {
                ++i_;
                return out;
            }
            if (c < 0x20) fail("control character in string (must be escaped)");
            if (c >= 0x80) {
                utf8(out);
                continue;
            }
            if (c != '\\') {
                out.push_back(char(c));
                ++i_;
                continue;
            }
            ++i_;
            if (i_ >= s_.size()) fail_at(start, "unterminated string");
            const char e = s_[i_++];
            switch (e) {
            case '"': out.push_back('"'); break;
            case '\\': out.push_back('\\'); break;
            case '/': out.push_back('/'); break;
            case 'b': out.push_back('\b'); break;
            case 'f': out.push_back('\f'); break;
            case 'n': out.push_back('\n'); break;
            case 'r': out.push_back('\r'); break;
            case 't': out.push_back('\t'); break;
            case 'u': {
                uint32_t cp = hex4();
                if (cp >= 0xdc00 && cp <= 0xdfff) fail("unpaired low surrogate in \\u escape");
                if (cp >= 0xd800 && cp <= 0xdbff) {
                    if (s_.substr(i_, 2) != "\\u") fail("high surrogate not followed by a \\u low surrogate");
                    i_ += 2;
                    const uint32_t lo = hex4();
                    if (lo < 0xdc00 || lo > 0xdfff) fail("high surrogate not followed by a low surrogate");
                    cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                }
                put_utf8(out, cp);
                break;
            }
            default: i_ -= 2; fail(fmt::format("invalid escape '\\{}'", e));
            }
        }
    }

    std::string_view s_;
    const std::string& name_;
    size_t i_ = 0;
};

void dump_string(std::string& out, const std::string& s)
{
    out.push_back('"');
    for (const char ch : s) {
        const unsigned char c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c < 0x20) out += fmt::format("\\u{:04x}", c);
            else out.push_back(ch);
        }
    }
    out.push_back('"');
}

void dump_value(std::string& out, const json& v, int indent, int level)
{
    auto newline = [&](int lvl) {
        if (indent < 0) return;
        out.push_back('\n');
        out.append(size_t(indent) * size_t(lvl), ' ');
    };
    switch (v.kind()) {
    case json::type::null: out += "null"; break;
    case json::type::boolean: out += v.as_bool() ? "true" : "false"; break;
    case json::type::number: out += v.number_text(); break;
    case json::type::string: dump_string(out, v.as_string()); break;
    case json::type::array: {
        const auto& a = v.as_array();
        if (a.empty()) {
            out += "[]";
            break;
        }
        out.push_back('[');
        for (size_t i = 0; i < a.size(); ++i) {
            if (i) out.push_back(',');
            newline(level + 1);
            dump_value(out, a[i], indent, level + 1);
        }
        newline(level);
        out.push_back(']');
        break;
    }
    case json::type::object: {
        const auto& o = v.as_object();
        if (o.empty()) {
            out += "{}";
            break;
        }
        out.push_back('{');
        for (size_t i = 0; i < o.size(); ++i) {
            if (i) out.push_back(',');
            newline(level + 1);
            dump_string(out, o[i].first);
            out += indent < 0 ? ":" : ": ";
            dump_value(out, o[i].second, indent, level + 1);
        }
        newline(level);
        out.push_back('}');
        break;
    }
    }
}

} // namespace

json json::boolean(bool b)
{
    json j;
    j.type_ = type::boolean;
    j.bool_ = b;
    return j;
}
json json::number(std::string_view literal)
{
    if (literal.empty() || scan_number(literal, 0) != literal.size())
        throw error(errc::invalid_argument, fmt::format("json: '{}' is not a JSON number", literal));
    json j;
    j.type_ = type::number;
    j.text_ = std::string(literal);
    return j;
}
json json::number(uint64_t v)
{
    json j;
    j.type_ = type::number;
    j.text_ = std::to_string(v);
    return j;
}
json json::string(std::string s)
{
    json j;
    j.type_ = type::string;
    j.text_ = std::move(s);
    return j;
}
json json::array(array_t items)
{
    json j;
    j.type_ = type::array;
    j.arr_ = std::move(items);
    return j;
}
json json::object(object_t members)
{
    json j;
    j.type_ = type::object;
    j.obj_ = std::move(members);
    return j;
}

bool json::as_bool() const
{
    if (type_ != type::boolean) type_fail("a boolean");
    return bool_;
}
const std::string& json::as_string() const
{
    if (type_ != type::string) type_fail("a string");
    return text_;
}
const std::string& json::number_text() const
{
    if (type_ != type::number) type_fail("a number");
    return text_;
}
const json::array_t& json::as_array() const
{
    if (type_ != type::array) type_fail("an array");
    return arr_;
}
json::array_t& json::as_array()
{
    if (type_ != type::array) type_fail("an array");
    return arr_;
}
const json::object_t& json::as_object() const
{
    if (type_ != type::object) type_fail("an object");
    return obj_;
}
json::object_t& json::as_object()
{
    if (type_ != type::object) type_fail("an object");
    return obj_;
}

std::optional<uint64_t> json::as_u64() const
{
    if (type_ != type::number) return std::nullopt;
    uint64_t v = 0;
    for (const char c : text_) {
        if (c < '0' || c > '9') return std::nullopt;   // sign, fraction or exponent
        const uint64_t d = uint64_t(c - '0');
        if (v > (UINT64_MAX - d) / 10) return std::nullopt;
        v = v * 10 + d;
    }
    return v;
}

const json* json::find(std::string_view key) const
{
    if (type_ != type::object) return nullptr;
    for (const auto& m : obj_)
        if (m.first == key) return &m.second;
    return nullptr;
}

json& json::push_back(json v)
{
    as_array().push_back(std::move(v));
    return arr_.back();
}

json& json::set(std::string key, json v)
{
    auto& o = as_object();
    for (auto& m : o)
        if (m.first == key) return m.second = std::move(v);
    o.emplace_back(std::move(key), std::move(v));
    return o.back().second;
}

size_t json::size() const noexcept
{
    if (type_ == type::array) return arr_.size();
    if (type_ == type::object) return obj_.size();
    return 0;
}

json json::parse(std::string_view text, const std::string& name) { return parser(text, name).run(); }

std::string json::dump(int indent) const
{
    std::string out;
    dump_value(out, *this, indent, 0);
    return out;
}

bool operator==(const json& a, const json& b)
{
    if (a.type_ != b.type_) return false;
    switch (a.type_) {
    case json::type::null: return true;
    case json::type::boolean: return a.bool_ == b.bool_;
    case json::type::number:
    case json::type::string: return a.text_ == b.text_;
    case json::type::array: return a.arr_ == b.arr_;
    case json::type::object: return a.obj_ == b.obj_;
    }
    return false;
}

} // namespace cuzk::io
