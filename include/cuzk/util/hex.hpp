// cuzk — bytes as lowercase hexadecimal, two digits a byte in order (the one
// hex encoder; readers of hex text keep their own checks and messages).
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace cuzk {

inline std::string to_hex(std::span<const uint8_t> bytes)
{
    static constexpr char digits[] = "0123456789abcdef";
    std::string s(2 * bytes.size(), '0');
    for (size_t i = 0; i < bytes.size(); ++i) {
        s[2 * i] = digits[bytes[i] >> 4];
        s[2 * i + 1] = digits[bytes[i] & 15];
    }
    return s;
}

} // namespace cuzk
