#include "options.hpp"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

namespace cuzk::cli {

namespace {

const flag_spec* find_flag(std::span<const flag_spec> flags, const std::string& name)
{
    for (const auto& f : flags)
        if (name == f.name) return &f;
    return nullptr;
}

} // namespace

options::options(std::span<char* const> argv, std::span<const flag_spec> flags, size_t min_pos, size_t max_pos)
{
    for (char* const a : argv)
        if (!std::strcmp(a, "--help") || !std::strcmp(a, "-h")) {
            help_ = true;
            return;
        }
    for (size_t i = 0; i < argv.size(); ++i) {
        const std::string s = argv[i];
        if (s.size() < 2 || s[0] != '-' || (s[1] >= '0' && s[1] <= '9')) {
            pos_.push_back(s);
            continue;
        }
        const flag_spec* f = find_flag(flags, s);
        if (!f) throw usage_error(fmt::format("unknown option '{}'", s));
        if (values_.count(s)) throw usage_error(fmt::format("option '{}' given twice", s));
        if (!f->value) {
            values_[s] = "";
            continue;
        }
        if (i + 1 >= argv.size()) throw usage_error(fmt::format("option '{}' needs a value ({})", s, f->value));
        values_[s] = argv[++i];
    }
    if (pos_.size() < min_pos || pos_.size() > max_pos) {
        const std::string want = min_pos == max_pos ? fmt::format("{}", min_pos) : fmt::format("{} to {}", min_pos, max_pos);
        throw usage_error(fmt::format("expected {} positional argument{}, got {}", want, max_pos == 1 ? "" : "s",
                                      pos_.size()));
    }
}

const std::string& options::get(const std::string& flag) const
{
    const auto it = values_.find(flag);
    if (it == values_.end()) throw usage_error(fmt::format("option '{}' is required", flag));
    return it->second;
}

std::string options::get_or(const std::string& flag, const std::string& fallback) const
{
    const auto it = values_.find(flag);
    return it == values_.end() ? fallback : it->second;
}

uint64_t options::get_u64(const std::string& flag, uint64_t lo, uint64_t hi) const
{
    return parse_u64(flag, get(flag), lo, hi);
}

uint64_t options::get_u64_or(const std::string& flag, uint64_t lo, uint64_t hi, uint64_t fallback) const
{
    return has(flag) ? get_u64(flag, lo, hi) : fallback;
}

uint64_t parse_u64(const std::string& what, const std::string& text, uint64_t lo, uint64_t hi)
{
    const bool hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
    const std::string digits = hex ? text.substr(2) : text;
    bool ok = !digits.empty();
    for (char c : digits) ok = ok && (hex ? std::isxdigit(static_cast<unsigned char>(c)) : (c >= '0' && c <= '9'));
    uint64_t v = 0;
    if (ok) {
        errno = 0;
        char* end = nullptr;
        v = std::strtoull(digits.c_str(), &end, hex ? 16 : 10);
        ok = errno == 0 && end && *end == '\0';
    }
    if (!ok || v < lo || v > hi)
        throw usage_error(fmt::format("{}: expected an integer in {} … {}, got '{}'", what, lo, hi, text));
    return v;
}

std::string describe_flags(std::span<const flag_spec> flags)
{
    std::string out;
    for (const auto& f : flags) {
        const std::string lhs = f.value ? fmt::format("{} {}", f.name, f.value) : std::string(f.name);
        out += fmt::format("  {:<24} {}\n", lhs, f.help);
    }
    return out;
}

} // namespace cuzk::cli
