// cuzk kernels — Montgomery field arithmetic for the device, with 32-bit limbs
// and PTX carry chains: BLS12-381's Fp (381 bits), Fr (255 bits) and Fp2, and
// the same for BN254 (Fp and Fr of 254 bits, Fp2).
//
// dfield<P> is bitwise identical to cuzk::field<P>: the same Montgomery form
// (a·R mod p, R = 2^(64·limbs): 2^384 for Fp, 2^256 for Fr), fully reduced,
// the 64-bit limbs of field<P> stored as pairs of 32-bit words in little-endian
// order. A host buffer of fp / fr / g1_affine / … copies to the device as is and
// is reinterpreted there; static_asserts below pin the sizes.
//
// Every routine is __host__ __device__. On the device the carry chains are
// inline PTX (add.cc, madc.hi.cc, …); on the host the same routine runs on an
// emulation of the PTX carry flag (struct cc below). The host form exists so
// that the exact instruction sequence the device runs can be checked on a
// machine without a GPU; host code proper keeps using cuzk::field<P>.
//
// This header is device-only in the sense of docs/ARCHITECTURE.md, "Layers
// and folders" (kernels/, not installed); it includes no CUDA header and
// compiles with a plain C++20 compiler as well.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/ff/bn254.hpp"

namespace cuzk::dev {

// Out-of-line on the device (see dfp2), inline on the host.
#if defined(__CUDACC__)
#define CUZK_OUTLINE_HD __host__ __device__ __noinline__
#else
#define CUZK_OUTLINE_HD inline
#endif

// ---- PTX carry-chain primitives --------------------------------------------------
// `cf` is the host emulation's carry flag (PTX CC.CF). On the device it is an
// unused member: the hardware flag carries between the asm statements. The
// statements are volatile so that the compiler neither merges two identical
// ones nor moves them across each other (it does not know about CC.CF).
struct cc {
    uint32_t cf = 0;

#if defined(__CUDA_ARCH__)
#define CUZK_PTX3(op)                                                       \
    uint32_t r;                                                             \
    asm volatile(op " %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));           \
    return r;
#define CUZK_PTX4(op)                                                       \
    uint32_t r;                                                             \
    asm volatile(op " %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c)); \
    return r;
    CUZK_INLINE uint32_t add_cc(uint32_t a, uint32_t b) { CUZK_PTX3("add.cc.u32") }
    CUZK_INLINE uint32_t addc_cc(uint32_t a, uint32_t b) { CUZK_PTX3("addc.cc.u32") }
    CUZK_INLINE uint32_t addc(uint32_t a, uint32_t b) { CUZK_PTX3("addc.u32") }
    CUZK_INLINE uint32_t sub_cc(uint32_t a, uint32_t b) { CUZK_PTX3("sub.cc.u32") }
    CUZK_INLINE uint32_t subc_cc(uint32_t a, uint32_t b) { CUZK_PTX3("subc.cc.u32") }
    CUZK_INLINE uint32_t subc(uint32_t a, uint32_t b) { CUZK_PTX3("subc.u32") }
    CUZK_INLINE uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c) { CUZK_PTX4("mad.lo.cc.u32") }
    CUZK_INLINE uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c) { CUZK_PTX4("madc.lo.cc.u32") }
    CUZK_INLINE uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c) { CUZK_PTX4("madc.hi.cc.u32") }
    CUZK_INLINE uint32_t madc_hi(uint32_t a, uint32_t b, uint32_t c) { CUZK_PTX4("madc.hi.u32") }
#undef CUZK_PTX3
#undef CUZK_PTX4
#else
    // Host emulation: every value below 2^32 + 2^32 + 1 fits 64 bits.
    CUZK_INLINE uint32_t set(uint64_t t)
    {
        cf = uint32_t(t >> 32);
        return uint32_t(t);
    }
    CUZK_INLINE uint32_t add_cc(uint32_t a, uint32_t b) { return set(uint64_t(a) + b); }
    CUZK_INLINE uint32_t addc_cc(uint32_t a, uint32_t b) { return set(uint64_t(a) + b + cf); }
    CUZK_INLINE uint32_t addc(uint32_t a, uint32_t b) { return uint32_t(uint64_t(a) + b + cf); }
    CUZK_INLINE uint32_t sub_cc(uint32_t a, uint32_t b)
    {
        const uint32_t r = a - b;
        cf = a < b;
        return r;
    }
    CUZK_INLINE uint32_t subc_cc(uint32_t a, uint32_t b)
    {
        const uint64_t t = uint64_t(b) + cf;
        const uint32_t r = uint32_t(uint64_t(a) - t);
        cf = uint64_t(a) < t;
        return r;
    }
    CUZK_INLINE uint32_t subc(uint32_t a, uint32_t b) { return uint32_t(uint64_t(a) - b - cf); }
    CUZK_INLINE uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c)
    {
        return set(uint64_t(uint32_t(uint64_t(a) * b)) + c);
    }
    CUZK_INLINE uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c)
    {
        return set(uint64_t(uint32_t(uint64_t(a) * b)) + c + cf);
    }
    CUZK_INLINE uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c)
    {
        return set(((uint64_t(a) * b) >> 32) + c + cf);
    }
    CUZK_INLINE uint32_t madc_hi(uint32_t a, uint32_t b, uint32_t c)
    {
        return uint32_t(((uint64_t(a) * b) >> 32) + c + cf);
    }
#endif
};

CUZK_INLINE uint32_t mul_lo(uint32_t a, uint32_t b) { return a * b; }
CUZK_INLINE uint32_t mul_hi(uint32_t a, uint32_t b)
{
#if defined(__CUDA_ARCH__)
    return __umulhi(a, b);
#else
    return uint32_t((uint64_t(a) * b) >> 32);
#endif
}

// ---- the field ---------------------------------------------------------------------
template <class P>
struct alignas(16) dfield {
    static constexpr int n = int(2 * P::limbs);   // 32-bit words: 12 (Fp), 8 (Fr)
    using host_type = field<P>;

    uint32_t w[n];

    // Word i of the modulus; a compile-time constant after unrolling.
    CUZK_HD static constexpr uint32_t pw(int i)
    {
        constexpr bigint<P::limbs> p = P::modulus;
        return uint32_t(p.l[i / 2] >> (32 * (i & 1)));
    }
    // −p⁻¹ mod 2^32: the low half of P::inv (−p⁻¹ mod 2^64).
    static constexpr uint32_t m0 = uint32_t(P::inv);
    // p ≡ 2^64 − 2^32 + 1 (mod 2^64), as BLS12-381's Fr: words 0 and 1 of p
    // are 1 and 2^32 − 1, so −p⁻¹ ≡ −1 (mod 2^32), and a reduction row's
    // products with those two words are additions (redc_even, redc_odd_shift):
    // four of the row's sixteen multiply-adds, and the multiply for m, become
    // integer additions. Same sums, so the same words as the general row.
    static constexpr bool low_words_sparse = P::modulus.l[0] == 0xffffffff00000001ull;
    static_assert(!low_words_sparse || m0 == 0xffffffffu);
    CUZK_INLINE static uint32_t redc_factor(uint32_t t0)
    {
        if constexpr (low_words_sparse) return 0u - t0;
        else return t0 * m0;
    }

    CUZK_HD static constexpr dfield zero()
    {
        dfield r{};
        for (int i = 0; i < n; ++i) r.w[i] = 0;
        return r;
    }
    CUZK_HD static constexpr dfield one()
    {
        constexpr bigint<P::limbs> o = P::one;
        dfield r{};
        for (int i = 0; i < n; ++i) r.w[i] = uint32_t(o.l[i / 2] >> (32 * (i & 1)));
        return r;
    }
    // Bit copies from / to the host type (same Montgomery form).
    CUZK_HD static dfield from_host(const host_type& h)
    {
        dfield r;
        for (int i = 0; i < n; ++i) r.w[i] = uint32_t(h.l[i / 2] >> (32 * (i & 1)));
        return r;
    }
    CUZK_HD host_type to_host() const
    {
        host_type h;
        for (size_t i = 0; i < P::limbs; ++i) h.l[i] = uint64_t(w[2 * i]) | (uint64_t(w[2 * i + 1]) << 32);
        return h;
    }

    CUZK_INLINE bool is_zero() const
    {
        uint32_t acc = 0;
CUZK_UNROLL
        for (int i = 0; i < n; ++i) acc |= w[i];
        return acc == 0;
    }
    CUZK_INLINE bool is_one() const { return *this == one(); }
    CUZK_INLINE friend bool operator==(const dfield& a, const dfield& b)
    {
        uint32_t acc = 0;
CUZK_UNROLL
        for (int i = 0; i < n; ++i) acc |= a.w[i] ^ b.w[i];
        return acc == 0;
    }
    CUZK_INLINE friend bool operator!=(const dfield& a, const dfield& b) { return !(a == b); }

    // ---- additive group -------------------------------------------------------------
    // a + b < 2p < 2^(32n) (both moduli leave a spare top bit), so the sum
    // needs no carry word; one conditional subtraction of p follows.
    // Cost: 3n ALU instructions (add chain, subtract chain, select).
    CUZK_INLINE friend dfield operator+(const dfield& a, const dfield& b)
    {
        dfield r;
        cc c;
        r.w[0] = c.add_cc(a.w[0], b.w[0]);
CUZK_UNROLL
        for (int i = 1; i < n; ++i) r.w[i] = c.addc_cc(a.w[i], b.w[i]);
        r.reduce_once();
        return r;
    }
    // a − b: subtract, and add p back under the borrow mask.
    CUZK_INLINE friend dfield operator-(const dfield& a, const dfield& b)
    {
        dfield r;
        cc c;
        r.w[0] = c.sub_cc(a.w[0], b.w[0]);
CUZK_UNROLL
        for (int i = 1; i < n; ++i) r.w[i] = c.subc_cc(a.w[i], b.w[i]);
        const uint32_t mask = c.subc(0, 0);   // 0xffffffff on borrow
        r.w[0] = c.add_cc(r.w[0], pw(0) & mask);
CUZK_UNROLL
        for (int i = 1; i < n - 1; ++i) r.w[i] = c.addc_cc(r.w[i], pw(i) & mask);
        r.w[n - 1] = c.addc(r.w[n - 1], pw(n - 1) & mask);
        return r;
    }
    // −a = p − a for a ≠ 0, and 0 for 0.
    CUZK_INLINE dfield operator-() const
    {
        dfield r;
        cc c;
        uint32_t nz = 0;
CUZK_UNROLL
        for (int i = 0; i < n; ++i) nz |= w[i];
        const uint32_t mask = nz ? 0xffffffffu : 0u;
        r.w[0] = c.sub_cc(pw(0), w[0]);
CUZK_UNROLL
        for (int i = 1; i < n - 1; ++i) r.w[i] = c.subc_cc(pw(i), w[i]);
        r.w[n - 1] = c.subc(pw(n - 1), w[n - 1]);
CUZK_UNROLL
        for (int i = 0; i < n; ++i) r.w[i] &= mask;
        return r;
    }
    CUZK_INLINE dfield dbl() const { return *this + *this; }
    CUZK_INLINE dfield& operator+=(const dfield& b) { return *this = *this + b; }
    CUZK_INLINE dfield& operator-=(const dfield& b) { return *this = *this - b; }

    // The reduction half of a CIOS row, shared by the multiply and the square:
    // t += m·p's even-word products (carry into t_n) …
    CUZK_INLINE static void redc_even(uint32_t* t, uint32_t m, cc& c)
    {
        if constexpr (low_words_sparse) {
            // p_0 = 1: m·p_0 = m, no high half (t_0 + m is 0 mod 2^32).
            t[0] = c.add_cc(t[0], m);
            t[1] = c.addc_cc(t[1], 0);
        } else {
            t[0] = c.mad_lo_cc(pw(0), m, t[0]);
            t[1] = c.madc_hi_cc(pw(0), m, t[1]);
        }
CUZK_UNROLL
        for (int k = 2; k < n; k += 2) {
            t[k] = c.madc_lo_cc(pw(k), m, t[k]);
            t[k + 1] = c.madc_hi_cc(pw(k), m, t[k + 1]);
        }
        t[n] = c.addc(t[n], 0);
    }
    // … then its odd-word products at offset one, and t >>= 32 (t_0 is 0).
    CUZK_INLINE static void redc_odd_shift(uint32_t* t, uint32_t m, cc& c)
    {
        if constexpr (low_words_sparse) {
            // p_1 = 2^32 − 1: m·p_1 = 2^32·(m − [m ≠ 0]) + (2^32 − m) mod 2^32.
            t[1] = c.add_cc(t[1], 0u - m);
            t[2] = c.addc_cc(t[2], m - (m != 0 ? 1u : 0u));
        } else {
            t[1] = c.mad_lo_cc(pw(1), m, t[1]);
            t[2] = c.madc_hi_cc(pw(1), m, t[2]);
        }
CUZK_UNROLL
        for (int k = 3; k < n; k += 2) {
            t[k] = c.madc_lo_cc(pw(k), m, t[k]);
            if (k < n - 1) t[k + 1] = c.madc_hi_cc(pw(k), m, t[k + 1]);
            else t[k + 1] = c.madc_hi(pw(k), m, t[k + 1]);
        }
CUZK_UNROLL
        for (int k = 0; k < n; ++k) t[k] = t[k + 1];
        t[n] = 0;
    }
    // r = t (< 2p), made canonical unless Canon is false.
    template <bool Canon>
    CUZK_INLINE static void finish(uint32_t* r, const uint32_t* t)
    {
CUZK_UNROLL
        for (int k = 0; k < n; ++k) r[k] = t[k];
        if constexpr (Canon) reduce_words(r);
    }

    // ---- the Montgomery multiply ---------------------------------------------------------
    // CIOS over 32-bit words, with the products split by the parity of the word
    // index so that every PTX carry chain writes each word once:
    //   a·b_i = Ae + 2^32·Ao,  Ae = Σ_{k even} a_k·b_i·2^(32k)  (words 0 … n−1, no overlap)
    //                          Ao = Σ_{k odd}  a_k·b_i·2^(32(k−1)) (likewise)
    // and the same split of m·p. Row i, on the accumulator t (n + 1 words):
    //   t += Ae               one mad.lo/madc.hi chain over words 0 … n−1, carry into t_n
    //   m  = t_0·(−p⁻¹) mod 2^32
    //   t += m·p (even part)  t_0 becomes 0
    //   t += 2^32·Ao           chain over words 1 … n
    //   t += 2^32·(m·p odd)    chain over words 1 … n
    //   t >>= 32               renaming only
    // Invariant: t < 2p at each row's start (t' < (2p + 2·(2^32 − 1)·p)/2^32 < 2p),
    // and every partial sum inside a row is < 2p + 2^33·p < 2^(32(n+1)), so the
    // chains never carry out of t_n. The result is < 2p; one conditional
    // subtraction makes it canonical, as the host code's.
    // Cost: 4n² + 3n multiply-adds (half of them .hi) plus 3n for the final
    // subtraction: 612 + 36 for Fp, 280 + 24 for Fr. Canon = false leaves the
    // result in [0, 2p) without that subtraction (the redundant form below).
    template <bool Canon = true>
    CUZK_INLINE static void mont_mul(uint32_t* r, const uint32_t* a, const uint32_t* b)
    {
        uint32_t t[n + 1];
        cc c;
CUZK_UNROLL
        for (int k = 0; k < n; k += 2) {
            t[k] = mul_lo(a[k], b[0]);
            t[k + 1] = mul_hi(a[k], b[0]);
        }
        t[n] = 0;
CUZK_UNROLL
        for (int i = 0; i < n; ++i) {
            const uint32_t bi = b[i];
            if (i > 0) {
                t[0] = c.mad_lo_cc(a[0], bi, t[0]);
                t[1] = c.madc_hi_cc(a[0], bi, t[1]);
CUZK_UNROLL
                for (int k = 2; k < n; k += 2) {
                    t[k] = c.madc_lo_cc(a[k], bi, t[k]);
                    t[k + 1] = c.madc_hi_cc(a[k], bi, t[k + 1]);
                }
                t[n] = c.addc(t[n], 0);
            }
            const uint32_t m = redc_factor(t[0]);
            redc_even(t, m, c);
            // odd words, at offset one
            t[1] = c.mad_lo_cc(a[1], bi, t[1]);
CUZK_UNROLL
            for (int k = 1; k < n; k += 2) {
                if (k > 1) t[k] = c.madc_lo_cc(a[k], bi, t[k]);
                if (k < n - 1) t[k + 1] = c.madc_hi_cc(a[k], bi, t[k + 1]);
                else t[k + 1] = c.madc_hi(a[k], bi, t[k + 1]);
            }
            redc_odd_shift(t, m, c);
        }
        finish<Canon>(r, t);
    }

    // ---- the Montgomery square --------------------------------------------------------
    // The multiply's rows, with row i adding a_i·U_i instead of a·b_i, where
    //   a² = Σ_i 2^(32i)·a_i·U_i,   U_i = a_i·2^(32i) + 2·Σ_{j>i} a_j·2^(32j):
    // each cross product a_i·a_j (i < j) is taken once, against the doubled
    // word. U_i's words are a_i at i, 2a_{i+1} (33 bits of it, low word here)
    // at i + 1, and the words d_k of 2a at k >= i + 2; they fit n words
    // because a < p leaves the top bit of a clear (both moduli), and words
    // below i are zero, so row i has n − i products in place of n.
    // Bounds: each row adds a_i·U_i < 2^32·2p and m·p < 2^32·p to t < 3p, so
    // every partial sum is below 3p + 3·2^32·p, which fits the n + 1 words of
    // t only when p < 2^(32n − 2): true of Fp (381 bits in 384), not of Fr
    // (255 in 256), whose square stays the multiply (has_fast_square). The
    // total is (a² + M·p)/2^(32n) < 2p, as for the multiply, and the same
    // conditional subtraction makes it canonical.
    // Cost: n(n + 1) + 2n² multiply-adds plus 2n shifts: 444 for Fp against
    // 612 for a multiply. Requires a canonical a (a < p).
    static constexpr bool has_fast_square = (P::modulus.l[P::limbs - 1] >> 62) == 0;
    CUZK_INLINE static void mont_sqr(uint32_t* r, const uint32_t* a)
    {
        static_assert(has_fast_square, "the square's rows overflow t for this modulus");
        // Words of 2a: d_k = (a_k << 1) | (a_{k−1} >> 31).
        uint32_t d[n];
        d[0] = a[0] << 1;
CUZK_UNROLL
        for (int k = 1; k < n; ++k) d[k] = (a[k] << 1) | (a[k - 1] >> 31);
        // Word k of U_i (k >= i).
        auto u = [&](int i, int k) -> uint32_t { return k == i ? a[i] : k == i + 1 ? a[k] << 1 : d[k]; };

        uint32_t t[n + 1];
        cc c;
CUZK_UNROLL
        for (int k = 0; k < n; k += 2) {
            t[k] = mul_lo(u(0, k), a[0]);
            t[k + 1] = mul_hi(u(0, k), a[0]);
        }
        t[n] = 0;
CUZK_UNROLL
        for (int i = 0; i < n; ++i) {
            const uint32_t ai = a[i];
            if (i > 0) {
                // even words k >= i
                bool first = true;
CUZK_UNROLL
                for (int k = 0; k < n; k += 2) {
                    if (k < i) continue;
                    t[k] = first ? c.mad_lo_cc(u(i, k), ai, t[k]) : c.madc_lo_cc(u(i, k), ai, t[k]);
                    t[k + 1] = c.madc_hi_cc(u(i, k), ai, t[k + 1]);
                    first = false;
                }
                if (!first) t[n] = c.addc(t[n], 0);
            }
            const uint32_t m = redc_factor(t[0]);
            redc_even(t, m, c);
            // odd words k >= i, at offset one
            {
                bool first = true;
CUZK_UNROLL
                for (int k = 1; k < n; k += 2) {
                    if (k < i) continue;
                    t[k] = first ? c.mad_lo_cc(u(i, k), ai, t[k]) : c.madc_lo_cc(u(i, k), ai, t[k]);
                    if (k < n - 1) t[k + 1] = c.madc_hi_cc(u(i, k), ai, t[k + 1]);
                    else t[k + 1] = c.madc_hi(u(i, k), ai, t[k + 1]);
                    first = false;
                }
            }
            redc_odd_shift(t, m, c);
        }
        finish<true>(r, t);
    }

    // r := r − p if r >= p (r < 2p on entry). 3n instructions, no branch.
    CUZK_INLINE static void reduce_words(uint32_t* r)
    {
        uint32_t d[n];
        cc c;
        d[0] = c.sub_cc(r[0], pw(0));
CUZK_UNROLL
        for (int i = 1; i < n; ++i) d[i] = c.subc_cc(r[i], pw(i));
        const uint32_t keep = c.subc(0, 0);   // all ones when r < p
CUZK_UNROLL
        for (int i = 0; i < n; ++i) r[i] = (r[i] & keep) | (d[i] & ~keep);
    }
    CUZK_INLINE void reduce_once() { reduce_words(w); }

    CUZK_INLINE friend dfield operator*(const dfield& a, const dfield& b)
    {
        dfield r;
        mont_mul(r.w, a.w, b.w);
        return r;
    }
    CUZK_INLINE dfield& operator*=(const dfield& b) { return *this = *this * b; }
    CUZK_INLINE dfield sqr() const
    {
        dfield r;
        if constexpr (has_fast_square) mont_sqr(r.w, w);
        else mont_mul(r.w, w, w);
        return r;
    }

    // ---- the redundant form [0, 2p) ----------------------------------------------------
    // Where 4p < R (p < 2^(32n − 2): both base fields Fp, not BLS12-381's Fr),
    // the Montgomery product of two values below 2p is below 2p without the
    // final subtraction: (a·b + M·p)/R < (4p² + R·p)/R < 2p, and every partial
    // sum of a row stays below 3p + 3·2^32·p < 2^(32(n+1)). The square makes
    // its input canonical first (the fast square's bound needs a < p). MSM
    // running sums can be kept in this form (ec_device.cuh, madd_lazy) and
    // made canonical once per bucket (canonical()); a value x in it stands for
    // x mod p, so "is zero" means x = 0 or x = p (is_zero_mod).
    static constexpr bool has_lazy = has_fast_square;
    // Word i of 2p.
    CUZK_HD static constexpr uint32_t p2w(int i) { return (pw(i) << 1) | (i > 0 ? pw(i - 1) >> 31 : 0); }

    CUZK_INLINE static dfield mul_lazy(const dfield& a, const dfield& b)
    {
        static_assert(has_lazy, "4p must be below R for the redundant form");
        dfield r;
        mont_mul<false>(r.w, a.w, b.w);
        return r;
    }
    CUZK_INLINE static dfield sqr_lazy(const dfield& a)
    {
        static_assert(has_lazy, "4p must be below R for the redundant form");
        dfield r;
        const dfield c = a.canonical();
        mont_sqr(r.w, c.w);
        return r;
    }
    // a + b (< 4p < R, no carry out), then − 2p when the sum is >= 2p.
    CUZK_INLINE static dfield add_lazy(const dfield& a, const dfield& b)
    {
        dfield r, d;
        cc c;
        r.w[0] = c.add_cc(a.w[0], b.w[0]);
CUZK_UNROLL
        for (int i = 1; i < n; ++i) r.w[i] = c.addc_cc(a.w[i], b.w[i]);
        d.w[0] = c.sub_cc(r.w[0], p2w(0));
CUZK_UNROLL
        for (int i = 1; i < n; ++i) d.w[i] = c.subc_cc(r.w[i], p2w(i));
        const uint32_t keep = c.subc(0, 0);   // all ones when the sum is below 2p
CUZK_UNROLL
        for (int i = 0; i < n; ++i) r.w[i] = (r.w[i] & keep) | (d.w[i] & ~keep);
        return r;
    }
    // a − b, and + 2p on a borrow: (−2p, 2p) becomes [0, 2p).
    CUZK_INLINE static dfield sub_lazy(const dfield& a, const dfield& b)
    {
        dfield r;
        cc c;
        r.w[0] = c.sub_cc(a.w[0], b.w[0]);
CUZK_UNROLL
        for (int i = 1; i < n; ++i) r.w[i] = c.subc_cc(a.w[i], b.w[i]);
        const uint32_t mask = c.subc(0, 0);
        r.w[0] = c.add_cc(r.w[0], p2w(0) & mask);
CUZK_UNROLL
        for (int i = 1; i < n - 1; ++i) r.w[i] = c.addc_cc(r.w[i], p2w(i) & mask);
        r.w[n - 1] = c.addc(r.w[n - 1], p2w(n - 1) & mask);
        return r;
    }
    // x mod p for x in [0, 2p).
    CUZK_INLINE dfield canonical() const
    {
        dfield r = *this;
        reduce_words(r.w);
        return r;
    }
    CUZK_INLINE bool is_zero_mod() const { return canonical().is_zero(); }

    // a⁻¹ = a^(p−2) (Fermat; 0 for a = 0): left to right over the exponent's
    // bits. Not constant time; used for the batch inversions of the MSM's
    // affine rounds, whose inputs are public points.
    CUZK_HD dfield inverse() const
    {
        constexpr bigint<P::limbs> e = modulus_minus_2();
        dfield r = one();
        for (int i = 64 * int(P::limbs) - 1; i >= 0; --i) {
            r = r.sqr();
            if ((e.l[i / 64] >> (i % 64)) & 1) r *= *this;
        }
        return r;
    }
    static constexpr bigint<P::limbs> modulus_minus_2()
    {
        bigint<P::limbs> e = P::modulus;
        uint64_t borrow = 2;
        for (size_t i = 0; i < P::limbs && borrow; ++i) {
            const uint64_t before = e.l[i];
            e.l[i] -= borrow;
            borrow = before < borrow ? 1 : 0;
        }
        return e;
    }

    // a^e, e a small run-time exponent (powers tables): square and multiply.
    CUZK_HD dfield pow_u64(uint64_t e) const
    {
        dfield r = one(), b = *this;
        while (e) {
            if (e & 1) r *= b;
            e >>= 1;
            if (e) b = b.sqr();
        }
        return r;
    }
};

using dfp = dfield<fp_params>;
using dfr = dfield<fr_params>;

static_assert(sizeof(dfp) == sizeof(fp), "dfp must be bitwise fp");
static_assert(sizeof(dfr) == sizeof(fr), "dfr must be bitwise fr");

// Fp2 = Fp[u]/(u² + 1), the same formulas as the host's fp2_t (ff/fp2.hpp);
// both curves build Fp2 with u² = −1. DFp is the device base field, HostFp2
// the host type it mirrors.
template <class DFp, class HostFp2>
struct dfp2_t {
    using dfp = DFp;
    using dfp2 = dfp2_t;
    using fp2 = HostFp2;
    dfp c0, c1;

    CUZK_HD static constexpr dfp2 zero() { return {dfp::zero(), dfp::zero()}; }
    CUZK_HD static constexpr dfp2 one() { return {dfp::one(), dfp::zero()}; }
    CUZK_INLINE bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
    CUZK_INLINE friend bool operator==(const dfp2& a, const dfp2& b) { return a.c0 == b.c0 && a.c1 == b.c1; }
    CUZK_INLINE friend bool operator!=(const dfp2& a, const dfp2& b) { return !(a == b); }
    CUZK_INLINE friend dfp2 operator+(const dfp2& a, const dfp2& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
    CUZK_INLINE friend dfp2 operator-(const dfp2& a, const dfp2& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
    CUZK_INLINE dfp2 operator-() const { return {-c0, -c1}; }
    CUZK_INLINE dfp2 dbl() const { return {c0.dbl(), c1.dbl()}; }
    CUZK_INLINE dfp2& operator+=(const dfp2& b) { return *this = *this + b; }
    CUZK_INLINE dfp2& operator-=(const dfp2& b) { return *this = *this - b; }
    // Karatsuba, 3 Fp multiplications. Out of line on the device: a G2 XYZZ
    // addition holds 14 of these, and inlining all 42 Fp multiplications made
    // each G2 kernel ~27000 instructions (2.5 minutes of ptxas per file,
    // register spills); a call costs little next to 3 multiplications.
    CUZK_HD friend dfp2 operator*(const dfp2& a, const dfp2& b) { return mul(a, b); }
    CUZK_INLINE dfp2& operator*=(const dfp2& b) { return *this = *this * b; }
    CUZK_HD dfp2 sqr() const { return square(*this); }
    // (c0 + c1·u)⁻¹ = (c0 − c1·u)/(c0² + c1²), as u² = −1.
    CUZK_HD dfp2 inverse() const
    {
        const DFp t = (c0.sqr() + c1.sqr()).inverse();
        return {c0 * t, -(c1 * t)};
    }
    CUZK_HD static dfp2 from_host(const fp2& h) { return {dfp::from_host(h.c0), dfp::from_host(h.c1)}; }
    CUZK_HD fp2 to_host() const { return {c0.to_host(), c1.to_host()}; }

    CUZK_OUTLINE_HD static dfp2 mul(const dfp2& a, const dfp2& b)
    {
        const dfp t0 = a.c0 * b.c0;
        const dfp t1 = a.c1 * b.c1;
        const dfp t2 = (a.c0 + a.c1) * (b.c0 + b.c1);
        return {t0 - t1, t2 - t0 - t1};
    }
    // (a0 + a1u)² = (a0 + a1)(a0 − a1) + 2a0a1·u: 2 Fp multiplications.
    CUZK_OUTLINE_HD static dfp2 square(const dfp2& a)
    {
        const dfp t = a.c0 * a.c1;
        return {(a.c0 + a.c1) * (a.c0 - a.c1), t.dbl()};
    }
};
using dfp2 = dfp2_t<dfp, fp2>;
static_assert(sizeof(dfp2) == sizeof(fp2), "dfp2 must be bitwise fp2");

// BN254 (cuzk::bn254): the same templates over its parameters.
using dbn_fp = dfield<bn254::fp_params>;
using dbn_fr = dfield<bn254::fr_params>;
using dbn_fp2 = dfp2_t<dbn_fp, bn254::fp2>;
static_assert(sizeof(dbn_fp) == sizeof(bn254::fp) && sizeof(dbn_fr) == sizeof(bn254::fr) &&
                  sizeof(dbn_fp2) == sizeof(bn254::fp2),
              "the BN254 device fields must be bitwise their host types");

} // namespace cuzk::dev
