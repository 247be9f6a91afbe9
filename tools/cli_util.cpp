#include "cli_util.hpp"

#include <cstdint>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include <sys/resource.h>
#include <unistd.h>

#include "cuzk/backend/cuda.hpp"

namespace cuzk::cli {

uint64_t host_memory_limit()
{
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    uint64_t limit = pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : UINT64_MAX;
    rlimit as{};
    if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) limit = std::min<uint64_t>(limit, as.rlim_cur);
    return limit;
}

void require_host_memory(const std::string& flag, uint64_t bytes, const std::string& what)
{
    const uint64_t limit = host_memory_limit();
    if (bytes > limit)
        throw usage_error(fmt::format("{}: {} needs about {:.1f} GiB of host memory; this process can get {:.1f} GiB "
                                      "(physical memory or ulimit -v)",
                                      flag, what, double(bytes) / (1 << 30), double(limit) / (1 << 30)));
}

uint64_t host_memory_budget(const options& o)
{
    if (o.has(host_budget_flag.name)) return parse_size(host_budget_flag.name, o.get(host_budget_flag.name));
    const uint64_t limit = host_memory_limit();
    return limit == UINT64_MAX ? 0 : limit / 10 * 9;
}

uint64_t parse_size(const std::string& flag, const std::string& text)
{
    auto refuse = [&](const char* why) -> uint64_t {
        throw usage_error(fmt::format("{}: expected a whole size such as 4096, 512MiB or 2G, got '{}' ({})", flag,
                                      text, why));
    };
    size_t i = 0;
    uint64_t x = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
        if (x > (UINT64_MAX - 9) / 10) return refuse("too large");
        x = x * 10 + uint64_t(text[i] - '0');
    }
    if (i == 0) return refuse(!text.empty() && text[0] == '-' ? "negative" : "no digits");
    if (i < text.size() && text[i] == '.') return refuse("a fraction");
    std::string unit = text.substr(i);
    for (auto& ch : unit) ch = char(std::toupper(static_cast<unsigned char>(ch)));
    if (unit.size() == 3 && unit.substr(1) == "IB") unit.resize(1);
    if (unit.size() == 2 && unit[1] == 'B') unit.resize(1);
    unsigned shift = 0;
    if (unit.empty() || unit == "B") shift = 0;
    else if (unit == "K") shift = 10;
    else if (unit == "M") shift = 20;
    else if (unit == "G") shift = 30;
    else if (unit == "T") shift = 40;
    else return refuse("unknown unit");
    if (shift && x > (UINT64_MAX >> shift)) return refuse("too large");
    return x << shift;
}

std::string no_gpu_reason()
{
    std::string why;
    if (cuda_available(&why)) return "a GPU is usable";
    if (why.rfind("built without CUDA", 0) == 0)
        return "this cuzk was built without the CUDA backend (CUZK_CUDA=OFF, or no nvcc when it was configured)";
    return "no usable GPU: the CUDA runtime reports: " + why;
}

bool choose_gpu(const options& o)
{
    const std::string b = o.get_or("--backend", "auto");
    if (b == "cpu") return false;
    if (b != "auto" && b != "cuda") throw usage_error(fmt::format("--backend: expected auto, cpu or cuda, got '{}'", b));
    const bool have = cuda_available();
    if (b == "cuda" && !have) throw error(errc::unsupported, "--backend cuda: " + no_gpu_reason());
    return have;
}

device_choice parse_devices(const options& o, bool gpu)
{
    device_choice d;
    if (o.has("--cpu-devices")) {
        if (gpu) throw usage_error("--cpu-devices is for the CPU prover (--backend cpu); on the GPU use --devices");
        d.cpu = unsigned(o.get_u64_or("--cpu-devices", 1, 1024, 1));
    }
    if (!o.has("--devices")) return d;
    if (!gpu) throw usage_error("--devices names CUDA devices and needs the GPU prover; for the CPU use --cpu-devices");
    const std::string list = o.get("--devices");
    for (const std::string& item : split_list(list)) {
        char* end = nullptr;
        const unsigned long v = std::strtoul(item.c_str(), &end, 10);
        if (item.empty() || !std::isdigit(static_cast<unsigned char>(item[0])) || *end != '\0' || v > 4095)
            throw usage_error(fmt::format("--devices: expected CUDA device numbers such as 0,2, got '{}'", list));
        d.cuda.push_back(int(v));
    }
    return d;
}

std::vector<std::string> split_list(const std::string& list)
{
    std::vector<std::string> items;
    for (size_t pos = 0; pos <= list.size();) {
        size_t comma = list.find(',', pos);
        if (comma == std::string::npos) comma = list.size();
        items.push_back(list.substr(pos, comma - pos));
        pos = comma + 1;
    }
    return items;
}

int show_help(const char* usage, const char* about, std::span<const flag_spec> flags)
{
    std::string text = usage, out;
    for (size_t pos = 0, n = 0; pos < text.size(); pos = n + 1, out += "\n") {
        n = text.find('\n', pos);
        if (n == std::string::npos) n = text.size();
        out += (pos ? "       cuzk " : "usage: cuzk ") + text.substr(pos, n - pos);
    }
    std::string wrapped, line;   // `about` word-wrapped to 100 columns
    for (size_t pos = 0; pos < std::strlen(about);) {
        size_t sp = std::string_view(about).find(' ', pos);
        if (sp == std::string_view::npos) sp = std::strlen(about);
        const std::string word(about + pos, sp - pos);
        if (!line.empty() && line.size() + 1 + word.size() > 100) {
            wrapped += line + "\n";
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
        pos = sp + 1;
    }
    std::printf("%s\n%s%s\n", out.c_str(), wrapped.c_str(), line.c_str());
    if (!flags.empty()) std::printf("\nflags:\n%s", describe_flags(flags).c_str());
    return 0;
}

std::string count_of(uint64_t n, const char* noun)
{
    return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s");
}

namespace {

int group_usage(const char* group, std::span<const subcommand> table, FILE* out)
{
    std::fprintf(out, "usage: cuzk %s <command> [options]   (cuzk %s <command> --help for its options)\n\ncommands:\n",
                 group, group);
    for (const auto& s : table) std::fprintf(out, "  %s\n", s.synopsis);
    return out == stdout ? 0 : 2;
}

} // namespace

int run_subcommand(const char* group, std::span<const subcommand> table, std::span<char* const> a)
{
    if (a.empty()) return group_usage(group, table, stderr);
    if (!std::strcmp(a[0], "--help") || !std::strcmp(a[0], "-h")) return group_usage(group, table, stdout);
    for (const auto& s : table) {
        if (std::strcmp(a[0], s.name) != 0) continue;
        try {
            const options o(a.subspan(1), s.flags, s.min_pos, s.max_pos);
            if (o.help()) {
                std::printf("usage: cuzk %s %s\n\n%s", group, s.synopsis, describe_flags(s.flags).c_str());
                return 0;
            }
            return s.run(o);
        } catch (const usage_error& e) {
            std::fprintf(stderr, "cuzk %s %s: %s\nusage: cuzk %s %s\n", group, s.name, e.what(), group, s.synopsis);
            return 2;
        }
    }
    std::fprintf(stderr, "cuzk %s: unknown command '%s'\n", group, a[0]);
    return group_usage(group, table, stderr);
}

} // namespace cuzk::cli
