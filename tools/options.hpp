// A small, strict command-line option parser for the cuzk program.
//
// A command declares its flags (name, whether it takes a value, help text)
// and how many positional arguments it takes. Parsing rejects unknown flags,
// missing values and wrong positional counts with a message that names the
// argument; `--help` / `-h` anywhere asks for the usage. Numeric getters name
// the flag and the expected form ("--nodes: expected an integer 1 … 2^40,
// got 'abc'").
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace cuzk::cli {

struct flag_spec {
    const char* name;        // "--nodes"
    const char* value;       // the value's placeholder ("N"), or nullptr for a switch
    const char* help;
};

// Thrown for a malformed command line; the program prints it with the usage
// and exits 2.
class usage_error : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class options {
public:
    // Parses `argv` against `flags`; positional arguments must number
    // min_pos … max_pos. Sets help() instead of checking anything else when
    // --help or -h is present.
    options(std::span<char* const> argv, std::span<const flag_spec> flags, size_t min_pos, size_t max_pos);

    bool help() const { return help_; }
    const std::vector<std::string>& positional() const { return pos_; }
    bool has(const std::string& flag) const { return values_.count(flag) != 0; }
    // The flag's value; usage_error naming the flag when it is absent.
    const std::string& get(const std::string& flag) const;
    std::string get_or(const std::string& flag, const std::string& fallback) const;
    // An unsigned integer (decimal, or 0x-hex) within [lo, hi].
    uint64_t get_u64(const std::string& flag, uint64_t lo, uint64_t hi) const;
    uint64_t get_u64_or(const std::string& flag, uint64_t lo, uint64_t hi, uint64_t fallback) const;

private:
    bool help_ = false;
    std::vector<std::string> pos_;
    std::map<std::string, std::string> values_;
};

// Parses an unsigned integer (decimal, or 0x-hex) within [lo, hi]; `what`
// names the argument in the usage_error.
uint64_t parse_u64(const std::string& what, const std::string& text, uint64_t lo, uint64_t hi);

// The flags' help lines, one per flag, for a usage text.
std::string describe_flags(std::span<const flag_spec> flags);

} // namespace cuzk::cli
