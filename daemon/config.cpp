// cuzk serve — settings and the TOML subset reader (config.hpp).
#include "config.hpp"

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <map>
#include <variant>

#include <fmt/format.h>

#include "cuzk/error.hpp"

namespace cuzk::daemon {

namespace {

// One TOML value of the subset: a string, an integer, a boolean, or an
// array of those (kept as their texts with their kinds).
struct value {
    enum kind_t { string, integer, boolean, array } kind = string;
    std::string text;              // string: unescaped; integer / boolean: the literal
    std::vector<value> items;      // array
};

struct line_error {
    std::string why;
};

std::string trim(std::string_view s)
{
    size_t a = 0, b = s.size();
    while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
    while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
    return std::string(s.substr(a, b - a));
}

// Reads one value at s[i…], advancing i.
value read_value(std::string_view s, size_t& i);

void skip_space(std::string_view s, size_t& i)
{
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
}

value read_string(std::string_view s, size_t& i)
{
    value v;
    ++i;   // the opening quote
    while (i < s.size() && s[i] != '"') {
        if (s[i] == '\\') {
            if (++i >= s.size()) break;
            const char c = s[i];
            if (c == 'n') v.text += '\n';
            else if (c == 't') v.text += '\t';
            else if (c == '"' || c == '\\') v.text += c;
            else throw line_error{fmt::format("unsupported escape \\{}", c)};
        } else {
            v.text += s[i];
        }
        ++i;
    }
    if (i >= s.size()) throw line_error{"unterminated string"};
    ++i;
    return v;
}

value read_array(std::string_view s, size_t& i)
{
    value v;
    v.kind = value::array;
    ++i;   // [
    for (;;) {
        skip_space(s, i);
        if (i < s.size() && s[i] == ']') {
            ++i;
            return v;
        }
        v.items.push_back(read_value(s, i));
        if (v.items.back().kind == value::array) throw line_error{"nested arrays are not supported"};
        skip_space(s, i);
        if (i < s.size() && s[i] == ',') ++i;
        else if (i >= s.size() || s[i] != ']') throw line_error{"expected , or ] in the array (arrays stay on one line)"};
    }
}

value read_value(std::string_view s, size_t& i)
{
    skip_space(s, i);
    if (i >= s.size()) throw line_error{"missing value"};
    if (s[i] == '"') return read_string(s, i);
    if (s[i] == '[') return read_array(s, i);
    const size_t start = i;
    while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_' || s[i] == '-' || s[i] == '+'))
        ++i;
    value v;
    v.text = std::string(s.substr(start, i - start));
    if (v.text == "true" || v.text == "false") {
        v.kind = value::boolean;
        return v;
    }
    std::string digits;
    for (char c : v.text)
        if (c != '_') digits += c;
    if (digits.empty() || digits.find_first_not_of("0123456789", digits[0] == '-' || digits[0] == '+' ? 1 : 0) !=
                              std::string::npos)
        throw line_error{fmt::format("unsupported value '{}' (strings need quotes)", std::string(s.substr(start)))};
    v.kind = value::integer;
    v.text = digits;
    return v;
}

// Strips a # comment that is not inside a string.
std::string strip_comment(const std::string& line)
{
    bool in_string = false;
    for (size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '\\' && in_string) ++i;
        else if (line[i] == '"') in_string = !in_string;
        else if (line[i] == '#' && !in_string) return line.substr(0, i);
    }
    return line;
}

uint64_t as_u64(const value& v, const std::string& key, uint64_t max)
{
    if (v.kind != value::integer || v.text[0] == '-') throw line_error{key + ": expected a non-negative integer"};
    errno = 0;
    char* end = nullptr;
    const unsigned long long n = std::strtoull(v.text.c_str(), &end, 10);
    if (errno || *end || n > max) throw line_error{fmt::format("{}: {} is out of range (at most {})", key, v.text, max)};
    return n;
}

std::string as_string(const value& v, const std::string& key)
{
    if (v.kind != value::string) throw line_error{key + ": expected a string in quotes"};
    return v.text;
}

bool as_bool(const value& v, const std::string& key)
{
    if (v.kind != value::boolean) throw line_error{key + ": expected true or false"};
    return v.text == "true";
}

uint64_t as_bytes(const value& v, const std::string& key)
{
    if (v.kind == value::integer) return as_u64(v, key, UINT64_MAX);
    try {
        return parse_bytes(as_string(v, key), key);
    } catch (const error& e) {
        throw line_error{e.what()};
    }
}

using setter = std::function<void(config&, const value&, const std::string&)>;

// Every key the daemon reads, by its dotted name.
const std::map<std::string, setter>& known_keys()
{
    static const std::map<std::string, setter> keys = {
        {"daemon.listen", [](config& c, const value& v, const std::string& k) { c.listen = as_string(v, k); }},
        {"daemon.status_listen", [](config& c, const value& v, const std::string& k) { c.status_listen = as_string(v, k); }},
        {"daemon.backend",
         [](config& c, const value& v, const std::string& k) {
             c.backend = as_string(v, k);
             if (c.backend != "auto" && c.backend != "cpu" && c.backend != "cuda")
                 throw line_error{k + ": expected \"auto\", \"cpu\" or \"cuda\""};
         }},
        {"daemon.shutdown_grace_s",
         [](config& c, const value& v, const std::string& k) { c.shutdown_grace_s = unsigned(as_u64(v, k, 86400)); }},
        {"daemon.timeline", [](config& c, const value& v, const std::string& k) { c.timeline = as_bool(v, k); }},
        {"jobs.keep_results_s",
         [](config& c, const value& v, const std::string& k) { c.keep_results_s = unsigned(as_u64(v, k, 7 * 86400)); }},
        {"jobs.cancel_on_disconnect",
         [](config& c, const value& v, const std::string& k) { c.cancel_on_disconnect = as_bool(v, k); }},
        {"gpus.devices",
         [](config& c, const value& v, const std::string& k) {
             if (v.kind != value::array) throw line_error{k + ": expected an array of device numbers, e.g. [0, 1]"};
             c.devices.clear();
             for (const value& d : v.items) c.devices.push_back(int(as_u64(d, k, 63)));
         }},
        {"gpus.gpu_workers_per_device",
         [](config& c, const value& v, const std::string& k) { c.workers_per_device = unsigned(as_u64(v, k, 64)); }},
        {"gpus.device_memory_budget",
         [](config& c, const value& v, const std::string& k) { c.device_memory_budget = as_bytes(v, k); }},
        {"gpus.cpu_devices", [](config& c, const value& v, const std::string& k) { c.cpu_devices = unsigned(as_u64(v, k, 64)); }},
        {"memory.total_budget", [](config& c, const value& v, const std::string& k) { c.total_budget = as_bytes(v, k); }},
        {"memory.safety_margin", [](config& c, const value& v, const std::string& k) { c.safety_margin = as_bytes(v, k); }},
        {"srs.param_cache", [](config& c, const value& v, const std::string& k) { c.param_cache = as_string(v, k); }},
        {"srs.parameters_json", [](config& c, const value& v, const std::string& k) { c.parameters_json = as_string(v, k); }},
        {"synthesis.threads",
         [](config& c, const value& v, const std::string& k) { c.synthesis_threads = unsigned(as_u64(v, k, 4096)); }},
        {"synthesis.workers",
         [](config& c, const value& v, const std::string& k) { c.synthesis_workers = unsigned(as_u64(v, k, 256)); }},
        {"pipeline.synthesis_lookahead",
         [](config& c, const value& v, const std::string& k) { c.lookahead = unsigned(as_u64(v, k, 1024)); }},
    };
    return keys;
}

// Keys of curio's daemon that have no meaning here: accepted, named in a warning.
bool upstream_only(const std::string& key)
{
    static const char* const names[] = {"srs.preload", "memory.eviction_min_idle", "memory.pinned_budget",
                                        "memory.working_memory_budget", "gpus.gpu_threads", "scheduler.max_batch_size",
                                        "scheduler.max_batch_wait_ms", "scheduler.sort_by_type", "pipeline.enabled",
                                        "synthesis.partition_workers", "logging.level"};
    for (const char* n : names)
        if (key == n) return true;
    return false;
}

void apply_line(config& c, const std::string& table, const std::string& line)
{
    const size_t eq = line.find('=');
    if (eq == std::string::npos) throw line_error{"expected key = value or [table]"};
    const std::string name = trim(std::string_view(line).substr(0, eq));
    if (name.empty() || name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_-.") != std::string::npos)
        throw line_error{fmt::format("unsupported key '{}'", name)};
    const std::string key = table.empty() ? name : table + "." + name;
    size_t i = eq + 1;
    const value v = read_value(line, i);
    skip_space(line, i);
    if (i != line.size()) throw line_error{fmt::format("{}: unexpected text after the value", key)};
    const auto& keys = known_keys();
    if (auto it = keys.find(key); it != keys.end()) it->second(c, v, key);
    else if (upstream_only(key)) c.warnings.push_back(fmt::format("{}: curio's daemon setting, no meaning here: ignored", key));
    else c.warnings.push_back(fmt::format("{}: unknown key, ignored", key));
}

} // namespace

uint64_t parse_bytes(const std::string& text, const std::string& what)
{
    if (text == "auto") return 0;
    size_t i = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    const std::string unit = trim(std::string_view(text).substr(i));
    static const std::pair<const char*, unsigned> units[] = {{"", 0},    {"B", 0},    {"KiB", 10}, {"MiB", 20},
                                                             {"GiB", 30}, {"TiB", 40}, {"K", 10},   {"M", 20},
                                                             {"G", 30},   {"T", 40}};
    if (i > 0 && i <= 12)
        for (const auto& [name, shift] : units)
            if (unit == name) {
                const uint64_t n = std::strtoull(text.substr(0, i).c_str(), nullptr, 10);
                if (shift == 0 || n <= (UINT64_MAX >> shift)) return n << shift;
            }
    throw error(errc::bad_format, fmt::format("{}: expected a size such as \"64GiB\" or \"auto\", got \"{}\"", what, text));
}

config default_config()
{
    config c;
    const char* cache = std::getenv("FIL_PROOFS_PARAMETER_CACHE");
    c.param_cache = cache && *cache ? cache : "/data/zk/params";
    return c;
}

void apply_toml(config& c, const std::string& text, const std::string& source)
{
    std::string table;
    size_t pos = 0;
    for (unsigned n = 1; pos <= text.size(); ++n) {
        const size_t nl = std::min(text.find('\n', pos), text.size());
        const std::string line = trim(strip_comment(text.substr(pos, nl - pos)));
        pos = nl + 1;
        if (line.empty()) continue;
        try {
            if (line.front() == '[') {
                if (line.back() != ']' || line.size() < 3 || line[1] == '[')
                    throw line_error{"expected a [table] header (arrays of tables are not supported)"};
                table = trim(std::string_view(line).substr(1, line.size() - 2));
                continue;
            }
            apply_line(c, table, line);
        } catch (const line_error& e) {
            throw error(errc::bad_format, fmt::format("{}: line {}: {}", source, n, e.why));
        }
    }
}

std::string read_file(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) throw error(errc::io, fmt::format("{}: cannot read", path));
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace cuzk::daemon
