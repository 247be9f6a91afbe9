// cuzk — fixed-width unsigned integers of N 64-bit limbs, little-endian limb
// order. Used for moduli, canonical field values, exponents and scalars.
// Everything here is constexpr and host+device.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/config.hpp"

namespace cuzk {

using u128 = unsigned __int128;

template <size_t N>
struct bigint {
    uint64_t l[N];

    static constexpr size_t limbs = N;

    CUZK_HD static constexpr bigint zero()
    {
        bigint r{};
        for (size_t i = 0; i < N; ++i) r.l[i] = 0;
        return r;
    }
    CUZK_HD static constexpr bigint from_u64(uint64_t v)
    {
        bigint r = zero();
        r.l[0] = v;
        return r;
    }

    CUZK_HD constexpr bool is_zero() const
    {
        uint64_t acc = 0;
        for (size_t i = 0; i < N; ++i) acc |= l[i];
        return acc == 0;
    }
    CUZK_HD constexpr bool bit(size_t i) const
    {
        return i < 64 * N && ((l[i / 64] >> (i % 64)) & 1u);
    }
    // Number of significant bits (0 for zero).
    CUZK_HD constexpr size_t num_bits() const
    {
        for (size_t i = N; i-- > 0;)
            if (l[i]) return 64 * i + 64 - static_cast<size_t>(__builtin_clzll(l[i]));
        return 0;
    }
    // Bits [pos, pos+width) as an integer, width <= 32; bits past the top read as 0.
    CUZK_HD constexpr uint32_t bits(size_t pos, size_t width) const
    {
        if (pos >= 64 * N) return 0;
        const size_t w = pos / 64, s = pos % 64;
        uint64_t v = l[w] >> s;
        if (s + width > 64 && w + 1 < N) v |= l[w + 1] << (64 - s);
        return static_cast<uint32_t>(v & ((uint64_t{1} << width) - 1));
    }

    // In-place a += b, returns the carry out.
    CUZK_HD constexpr uint64_t add_assign(const bigint& b)
    {
        uint64_t c = 0;
        for (size_t i = 0; i < N; ++i) {
            u128 t = u128(l[i]) + b.l[i] + c;
            l[i] = uint64_t(t);
            c = uint64_t(t >> 64);
        }
        return c;
    }
    // In-place a -= b, returns the borrow out (1 if b > a).
    CUZK_HD constexpr uint64_t sub_assign(const bigint& b)
    {
        uint64_t br = 0;
        for (size_t i = 0; i < N; ++i) {
            u128 t = u128(l[i]) - b.l[i] - br;
            l[i] = uint64_t(t);
            br = uint64_t(t >> 64) & 1;
        }
        return br;
    }
    CUZK_HD constexpr void shr1()
    {
        for (size_t i = 0; i + 1 < N; ++i) l[i] = (l[i] >> 1) | (l[i + 1] << 63);
        l[N - 1] >>= 1;
    }

    CUZK_HD friend constexpr bool operator==(const bigint& a, const bigint& b)
    {
        uint64_t acc = 0;
        for (size_t i = 0; i < N; ++i) acc |= a.l[i] ^ b.l[i];
        return acc == 0;
    }
    CUZK_HD friend constexpr bool operator!=(const bigint& a, const bigint& b) { return !(a == b); }
    CUZK_HD friend constexpr bool operator<(const bigint& a, const bigint& b)
    {
        for (size_t i = N; i-- > 0;)
            if (a.l[i] != b.l[i]) return a.l[i] < b.l[i];
        return false;
    }
    CUZK_HD friend constexpr bool operator>=(const bigint& a, const bigint& b) { return !(a < b); }
};

// Helpers for deriving exponents from a modulus at compile time.
template <size_t N>
CUZK_HD constexpr bigint<N> sub_small(bigint<N> a, uint64_t v)
{
    a.sub_assign(bigint<N>::from_u64(v));
    return a;
}
template <size_t N>
CUZK_HD constexpr bigint<N> add_small(bigint<N> a, uint64_t v)
{
    a.add_assign(bigint<N>::from_u64(v));
    return a;
}
template <size_t N>
CUZK_HD constexpr bigint<N> shr(bigint<N> a, size_t k)
{
    for (size_t i = 0; i < k; ++i) a.shr1();
    return a;
}

} // namespace cuzk
