#include "cli_util.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "cuzk/backend/cuda.hpp"

namespace cuzk::cli {

std::string human_size(uint64_t bytes)
{
    const char* const units[] = {"KiB", "MiB", "GiB", "TiB"};
    if (bytes < 1024) return fmt::format("{} B", bytes);
    double x = double(bytes) / 1024;
    size_t u = 0;
    while (x >= 1024 && u + 1 < std::size(units)) {
        x /= 1024;
        ++u;
    }
    return fmt::format("{:.{}f} {}", x, x < 10 ? 2 : 1, units[u]);
}

uint64_t parse_size(const std::string& flag, const std::string& text)
{
    char* end = nullptr;
    const double x = std::strtod(text.c_str(), &end);
    std::string unit(end ? end : "");
    for (auto& ch : unit) ch = char(std::toupper(static_cast<unsigned char>(ch)));
    if (unit.size() == 3 && unit.substr(1) == "IB") unit.resize(1);
    if (unit.size() == 2 && unit[1] == 'B') unit.resize(1);
    double mul = -1;
    if (unit.empty() || unit == "B") mul = 1;
    else if (unit == "K") mul = 1024.0;
    else if (unit == "M") mul = 1024.0 * 1024;
    else if (unit == "G") mul = 1024.0 * 1024 * 1024;
    else if (unit == "T") mul = 1024.0 * 1024 * 1024 * 1024;
    if (text.empty() || end == text.c_str() || mul < 0 || !(x >= 0) || x * mul > 1.8e19)
        throw usage_error(fmt::format("{}: expected a size such as 4096, 512MiB or 2G, got '{}'", flag, text));
    return uint64_t(std::llround(x * mul));
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

} // namespace cuzk::cli
