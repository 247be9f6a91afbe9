// cuzk — sizes in words for messages and reports.
#pragma once

#include <cstdint>
#include <iterator>
#include <string>

#include <fmt/format.h>

namespace cuzk {

// "512 B", "1.00 KiB", "1.5 MiB", "2.00 GiB": the unit that keeps the number
// small, so that no size prints as 0.0 of a larger unit.
inline std::string human_size(uint64_t bytes)
{
    const char* const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (bytes < 1024) return fmt::format("{} B", bytes);
    double x = double(bytes) / 1024;
    size_t u = 0;
    while (x >= 1024 && u + 1 < std::size(units)) {
        x /= 1024;
        ++u;
    }
    return fmt::format("{:.{}f} {}", x, x < 10 ? 2 : 1, units[u]);
}

} // namespace cuzk
