// cuzk — decimal strings ↔ fixed-width integers (snarkjs JSON writes every
// field element as the decimal string of its canonical value).
//
// to_decimal: repeated division of the limb vector by 10^19 (the largest power
// of ten below 2^64), each step a top-down long division with 128-bit
// dividends; ⌈digits/19⌉ steps of N divisions each.
// from_decimal: Horner in chunks of up to 19 digits, v = v·10^k + chunk,
// detecting overflow from the carry out of the top limb.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "cuzk/ff/bigint.hpp"

namespace cuzk::io {

template <size_t N>
std::string to_decimal(bigint<N> v)
{
    constexpr uint64_t base = 10000000000000000000ull;   // 10^19
    if (v.is_zero()) return "0";
    std::string out;
    while (!v.is_zero()) {
        u128 rem = 0;
        for (size_t i = N; i-- > 0;) {
            const u128 cur = (rem << 64) | v.l[i];
            v.l[i] = uint64_t(cur / base);
            rem = cur % base;
        }
        uint64_t r = uint64_t(rem);
        // 19 digits per step, least significant first; trimmed at the end.
        for (int k = 0; k < 19; ++k) {
            out.push_back(char('0' + r % 10));
            r /= 10;
        }
    }
    while (out.size() > 1 && out.back() == '0') out.pop_back();
    std::reverse(out.begin(), out.end());
    return out;
}

// Parses a non-empty string of ASCII digits (leading zeros allowed, no sign,
// no spaces). Returns false for any other character or when the value does
// not fit in N limbs; `out` is then unspecified.
template <size_t N>
bool from_decimal(std::string_view s, bigint<N>& out)
{
    if (s.empty()) return false;
    bigint<N> v = bigint<N>::zero();
    size_t i = 0;
    while (i < s.size()) {
        const size_t k = std::min<size_t>(19, s.size() - i);
        uint64_t chunk = 0, mul = 1;
        for (size_t j = 0; j < k; ++j) {
            const char c = s[i + j];
            if (c < '0' || c > '9') return false;
            chunk = chunk * 10 + uint64_t(c - '0');
            mul *= 10;
        }
        // v = v·mul + chunk
        uint64_t carry = chunk;
        for (size_t l = 0; l < N; ++l) {
            const u128 t = u128(v.l[l]) * mul + carry;
            v.l[l] = uint64_t(t);
            carry = uint64_t(t >> 64);
        }
        if (carry) return false;
        i += k;
    }
    out = v;
    return true;
}

} // namespace cuzk::io
