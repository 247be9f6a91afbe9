// cuzk kernels — Montgomery multiplication on the FP64 units.
//
// dfield's multiply (ff_device.cuh) runs on the integer multiply-add pipe
// alone: 648 IMADs for an Fp product, 304 for Fr, and that pipe is the limit
// of every MSM and NTT. The FP64 pipe of a data-centre GPU (sm_80, sm_90) has
// the same issue rate and sits idle. This file computes the same kind of
// product with the partial products on the FP64 pipe and only their column
// sums on the integer ALUs.
//
// Representation: L limbs of 52 bits, L = ceil(bits / 52) (5 for 255-bit Fr,
// 8 for 381-bit Fp), each an integer in [0, 2^52) held exactly in a double.
// The Montgomery radix is R' = 2^(52·L) (2^260, 2^416), not dfield's
// R = 2^(64·limbs), so
//     mul(x, y) = x·y / R'  (mod p).
// With x in dfield's form (a·R) and y in the "R' form" (b·R'), the product is
// a·b·R: dfield's form again. A caller keeps its constant operand (an NTT
// twiddle, say) in the R' form: y_R' = y_R · R'/R, i.e. y·2^(52L − 64·limbs).
//
// One partial product x_i·y_j < 2^104 splits into two exact doubles with two
// fused multiply-adds (the technique of Emmart, Zheng and Weems, "Faster
// modular exponentiation using double precision floating point arithmetic on
// the GPU", ARITH 2018):
//     h = fma_rz(x_i, y_j, 2^104)          = 2^104 + hi·2^52   (hi = ⌊x_i·y_j / 2^52⌋)
//     l = fma(x_i, y_j, (2^104 + 2^52) − h) = 2^52 + lo         (lo = x_i·y_j mod 2^52)
// Both results sit in a binade whose unit in the last place is 2^52
// (resp. 1), so their bit patterns are a constant plus hi (resp. lo): the
// column sums are plain 64-bit integer additions of the bit patterns, and the
// constants (a known count of them per column) are subtracted up front.
// The 52-bit radix leaves 11 bits of room, so a column of 2·L terms never
// overflows.
//
// Montgomery reduction is word by word in radix 2^52: m_i = c_i·(−p⁻¹) mod
// 2^52 on the integer pipe, then m_i·p added by the same split products. For
// inputs below 2p the result is below (4p² + R'p)/R' < 2p (4p < R' for every
// field here), left in [0, 2p): `mul` returns normalised limbs in that range
// and `to_words` makes them canonical.
//
// Cost per product: 2·L² partial products, each 2 DFMA + 1 DADD and two
// 64-bit integer additions; L conversions of m_i. Fr: 150 FP64 operations,
// Fp: 384 (against 304 and 648 IMADs).
//
// Every routine is __host__ __device__. On the host, fma_rz is emulated
// exactly in 128-bit integers (every operand here is an integer below 2^106),
// so that tests without a GPU check the arithmetic the device runs.
#pragma once

#include <cstdint>
#include <cstring>

#include "ff_device.cuh"

namespace cuzk::dev {

namespace fp64_detail {

CUZK_INLINE uint64_t bits_of(double x)
{
#if defined(__CUDA_ARCH__)
    return uint64_t(__double_as_longlong(x));
#else
    uint64_t b;
    std::memcpy(&b, &x, 8);
    return b;
#endif
}
CUZK_INLINE double double_of(uint64_t b)
{
#if defined(__CUDA_ARCH__)
    return __longlong_as_double(static_cast<long long>(b));
#else
    double x;
    std::memcpy(&x, &b, 8);
    return x;
#endif
}

#if !defined(__CUDA_ARCH__)
// An integer-valued double (|x| < 2^126) as a 128-bit integer.
inline __int128 to_i128(double x)
{
    const uint64_t b = bits_of(x);
    const int e = int((b >> 52) & 0x7ff);
    if (e == 0) return 0;   // zero (no subnormal integer exists)
    const unsigned __int128 m = (b & ((uint64_t{1} << 52) - 1)) | (uint64_t{1} << 52);
    const int sh = e - 1075;
    const unsigned __int128 u = sh >= 0 ? m << sh : m >> -sh;
    return (b >> 63) ? -__int128(u) : __int128(u);
}
// v rounded toward zero to a double.
inline double from_i128_rz(__int128 v)
{
    const bool neg = v < 0;
    unsigned __int128 u = neg ? (unsigned __int128)(-v) : (unsigned __int128)v;
    int sh = 0;
    while ((u >> sh) >> 53) ++sh;
    const double d = __builtin_ldexp(double(uint64_t(u >> sh)), sh);
    return neg ? -d : d;
}
#endif

// a·b + c rounded toward zero. The host form holds for integer operands only.
CUZK_INLINE double fma_rz(double a, double b, double c)
{
#if defined(__CUDA_ARCH__)
    return __fma_rz(a, b, c);
#else
    return from_i128_rz(to_i128(a) * to_i128(b) + to_i128(c));
#endif
}

constexpr uint64_t mask52 = (uint64_t{1} << 52) - 1;
constexpr uint64_t bias_lo = uint64_t{0x433} << 52;   // bit pattern of 2^52 (l = 2^52 + lo)
constexpr uint64_t bias_hi = uint64_t{0x467} << 52;   // bit pattern of 2^104 (h = 2^104 + hi·2^52)

// x < 2^52 as an exact double: its bits under the exponent of 2^52, minus 2^52.
CUZK_INLINE double u52(uint64_t x) { return double_of(x | bias_lo) - 0x1p52; }

} // namespace fp64_detail

template <class P>
struct fp64_mont {
    using dfe = dfield<P>;
    static constexpr int L = int((P::bits + 51) / 52);
    static constexpr int words64 = int(P::limbs);
    static_assert(P::bits + 2 <= 52 * L, "the result bound needs 4p < 2^(52L)");

    // −p⁻¹ mod 2^52 (P::inv is −p⁻¹ mod 2^64).
    static constexpr uint64_t pinv = P::inv & fp64_detail::mask52;

    // Limb k of a 64-bit-word integer (k·52 < 64·words64).
    CUZK_HD static constexpr uint64_t limb_of(const uint64_t* w, int k)
    {
        const int q = 52 * k / 64, s = 52 * k % 64;
        uint64_t v = w[q] >> s;
        if (s > 12 && q + 1 < words64) v |= w[q + 1] << (64 - s);
        return v & fp64_detail::mask52;
    }
    CUZK_HD static constexpr uint64_t p_limb(int k)
    {
        constexpr bigint<P::limbs> p = P::modulus;
        return limb_of(p.l, k);
    }

    // Bias of column k's sum: every product adds bias_lo to its low column
    // and bias_hi to the next, once for x·y and once for m·p.
    CUZK_HD static constexpr uint64_t column_bias(int k)
    {
        auto count = [](int c) { return (c < 0 || c > 2 * L - 2) ? 0 : (c < L ? c + 1 : 2 * L - 1 - c); };
        return 2 * (uint64_t(count(k)) * fp64_detail::bias_lo + uint64_t(count(k - 1)) * fp64_detail::bias_hi);
    }

    struct limbs {
        double d[L];
    };

    // ---- conversions ----------------------------------------------------------------------
    CUZK_INLINE static limbs from_words(const uint32_t* w32)
    {
        uint64_t w[words64];
CUZK_UNROLL
        for (int i = 0; i < words64; ++i) w[i] = uint64_t(w32[2 * i]) | (uint64_t(w32[2 * i + 1]) << 32);
        limbs r;
CUZK_UNROLL
        for (int k = 0; k < L; ++k) r.d[k] = fp64_detail::u52(limb_of(w, k));
        return r;
    }
    CUZK_INLINE static limbs from_field(const dfe& x) { return from_words(x.w); }
    // Normalised limbs (each < 2^52) as doubles.
    CUZK_INLINE static limbs from_u52(const uint64_t* v)
    {
        limbs r;
CUZK_UNROLL
        for (int k = 0; k < L; ++k) r.d[k] = fp64_detail::u52(v[k]);
        return r;
    }
    // Normalised limbs of a value below 2p to dfield's words, made canonical.
    CUZK_INLINE static dfe to_field(const uint64_t* v)
    {
        uint64_t w[words64];
CUZK_UNROLL
        for (int i = 0; i < words64; ++i) {
            uint64_t x = 0;
CUZK_UNROLL
            for (int k = 0; k < L; ++k) {
                const int sh = 52 * k - 64 * i;
                if (sh >= 0 && sh < 64) x |= v[k] << sh;
                else if (sh < 0 && sh > -52) x |= v[k] >> -sh;
            }
            w[i] = x;
        }
        dfe r;
CUZK_UNROLL
        for (int i = 0; i < words64; ++i) {
            r.w[2 * i] = uint32_t(w[i]);
            r.w[2 * i + 1] = uint32_t(w[i] >> 32);
        }
        dfe::reduce_words(r.w);
        return r;
    }

    // ---- the product ------------------------------------------------------------------------
    // c[k] += lo(x·y), c[k + 1] += hi(x·y), both biased (see column_bias).
    CUZK_INLINE static void split_add(double x, double y, uint64_t& lo_col, uint64_t& hi_col)
    {
        using namespace fp64_detail;
        const double h = fma_rz(x, y, 0x1p104);
        const double l = fma_rz(x, y, (0x1p104 + 0x1p52) - h);
        hi_col += bits_of(h);
        lo_col += bits_of(l);
    }

    // out = x·y / R' mod p, in [0, 2p), as normalised limbs; x, y < 2p.
    CUZK_INLINE static void mul(uint64_t* out, const limbs& x, const limbs& y)
    {
        using namespace fp64_detail;
        uint64_t c[2 * L];   // columns 0 … 2L−1 (the top product's high part lands in 2L−1)
CUZK_UNROLL
        for (int k = 0; k < 2 * L; ++k) c[k] = uint64_t(0) - column_bias(k);
CUZK_UNROLL
        for (int i = 0; i < L; ++i) {
CUZK_UNROLL
            for (int j = 0; j < L; ++j) split_add(x.d[i], y.d[j], c[i + j], c[i + j + 1]);
        }
CUZK_UNROLL
        for (int i = 0; i < L; ++i) {
            // c_i lacks only the bias-free low part of m_i·p_0 here, and its
            // missing bias is a multiple of 2^52: m_i is right mod 2^52.
            const double m = u52((c[i] * pinv) & mask52);
CUZK_UNROLL
            for (int j = 0; j < L; ++j) split_add(m, double(p_limb(j)), c[i + j], c[i + j + 1]);
            c[i + 1] += c[i] >> 52;   // c_i is now a multiple of 2^52
        }
CUZK_UNROLL
        for (int k = 0; k < L - 1; ++k) {
            out[k] = c[L + k] & mask52;
            c[L + k + 1] += c[L + k] >> 52;
        }
        out[L - 1] = c[2 * L - 1];   // < 2^52: the value is below 2p < 2^(52L)
    }

    // x (dfield's form a·R) times y (R' form b·R'): a·b in dfield's form, canonical.
    CUZK_INLINE static dfe mul_field(const dfe& x, const limbs& y)
    {
        uint64_t v[L];
        mul(v, from_field(x), y);
        return to_field(v);
    }

    // 2^(52L − 64·limbs) mod p in dfield's form: multiplying a dfield value by
    // it (dfield's product) turns its form a·R into the R' form a·R'.
    CUZK_HD static dfe r_prime_factor()
    {
        dfe two = dfe::one() + dfe::one();
        return two.pow_u64(uint64_t(52 * L - 64 * words64));
    }
};

using fp64_fr = fp64_mont<fr_params>;
using fp64_fp = fp64_mont<fp_params>;

} // namespace cuzk::dev
