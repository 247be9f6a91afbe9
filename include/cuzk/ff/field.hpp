// cuzk — prime fields in Montgomery form, one template for every modulus.
//
// field<P> holds a value a as the N-limb integer a·R mod p, R = 2^(64N), fully
// reduced (< p). P is a parameter struct (see bls12_381.hpp) that supplies the
// modulus and the Montgomery constants; everything else (exponents for inverse,
// square root, Legendre symbol) is derived from the modulus at compile time.
//
// The same code compiles for the host and, under nvcc, for the device; only
// the host-only helpers (bytes, random) are unannotated. The portable limb
// code (the *_portable functions) is what devices run. Host code for x86-64
// instead takes the inline-assembly routines of detail/ff_x86_64.hpp (mulx/adcx/adox,
// needs a BMI2+ADX processor, 2014 or newer); defining CUZK_PORTABLE_FIELD
// selects the portable code there too. Both give bit-identical results.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/config.hpp"
#include "cuzk/ff/bigint.hpp"

#if !defined(__CUDA_ARCH__) && defined(__x86_64__) && !defined(CUZK_PORTABLE_FIELD)
#include "cuzk/detail/ff_x86_64.hpp"
#define CUZK_FIELD_X86 1
#else
#define CUZK_FIELD_X86 0
#endif

namespace cuzk {

template <class P>
struct field {
    static constexpr size_t N = P::limbs;
    static constexpr size_t nbytes = 8 * N;   // canonical byte length (48 for Fp, 32 for Fr)
    using repr = bigint<N>;
    using params = P;

    uint64_t l[N];   // Montgomery form, < p

    // The spare top bit the additions and the CIOS multiply below rely on.
    static_assert(P::modulus.l[N - 1] < (uint64_t{1} << 63) - 1, "field<P> needs the top limb of p below 2^63 - 1");

    // ---- constants -------------------------------------------------------
    CUZK_HD static constexpr field zero()
    {
        field r{};
        for (size_t i = 0; i < N; ++i) r.l[i] = 0;
        return r;
    }
    CUZK_HD static constexpr field one()
    {
        constexpr repr o = P::one;
        field r{};
        for (size_t i = 0; i < N; ++i) r.l[i] = o.l[i];
        return r;
    }
    // The value whose Montgomery limbs are exactly `m` (no conversion).
    CUZK_HD static constexpr field from_mont(const repr& m)
    {
        field r{};
        for (size_t i = 0; i < N; ++i) r.l[i] = m.l[i];
        return r;
    }
    CUZK_HD constexpr repr mont() const
    {
        repr r{};
        for (size_t i = 0; i < N; ++i) r.l[i] = l[i];
        return r;
    }

    // ---- conversions -----------------------------------------------------
    // From a canonical integer v < p (the caller guarantees v < p; see
    // is_canonical). Multiplies by R² and reduces: v·R²·R⁻¹ = v·R.
    CUZK_HD static field from_repr(const repr& v)
    {
        constexpr repr r2 = P::r2;
        field r;
        mont_mul(r.l, v.l, r2.l);
        return r;
    }
    CUZK_HD static field from_u64(uint64_t v) { return from_repr(repr::from_u64(v)); }
    // To the canonical integer: multiply by 1, i.e. a·R·R⁻¹ = a.
    CUZK_HD repr to_repr() const
    {
        repr one = repr::from_u64(1), r;
        mont_mul(r.l, l, one.l);
        return r;
    }
    CUZK_HD static constexpr bool is_canonical(const repr& v)
    {
        constexpr repr p = P::modulus;
        return v < p;
    }

    // ---- predicates ------------------------------------------------------
    CUZK_HD constexpr bool is_zero() const
    {
        uint64_t acc = 0;
        for (size_t i = 0; i < N; ++i) acc |= l[i];
        return acc == 0;
    }
    CUZK_HD constexpr bool is_one() const { return *this == one(); }
    CUZK_HD friend constexpr bool operator==(const field& a, const field& b)
    {
        uint64_t acc = 0;
        for (size_t i = 0; i < N; ++i) acc |= a.l[i] ^ b.l[i];
        return acc == 0;
    }
    CUZK_HD friend constexpr bool operator!=(const field& a, const field& b) { return !(a == b); }

    // ---- additive group ----------------------------------------------------
    // Every modulus used here leaves at least one spare bit in the top limb, so
    // a + b < 2p < 2^(64N) never overflows; one conditional subtraction
    // brings the sum back below p.
    CUZK_INLINE friend field operator+(const field& a, const field& b)
    {
        field r;
        add_mod(r.l, a.l, b.l);
        return r;
    }
    CUZK_INLINE friend field operator-(const field& a, const field& b)
    {
        field r;
        sub_mod(r.l, a.l, b.l);
        return r;
    }
    CUZK_INLINE field operator-() const
    {
        field r;
        neg_mod(r.l, l);
        return r;
    }
    CUZK_INLINE field dbl() const { return *this + *this; }
    CUZK_INLINE field& operator+=(const field& b) { return *this = *this + b; }
    CUZK_INLINE field& operator-=(const field& b) { return *this = *this - b; }

    // ---- multiplicative group ------------------------------------------------
    CUZK_INLINE friend field operator*(const field& a, const field& b)
    {
        field r;
        mont_mul(r.l, a.l, b.l);
        return r;
    }
    CUZK_INLINE field& operator*=(const field& b) { return *this = *this * b; }
    CUZK_INLINE field sqr() const
    {
        field r;
        mont_sqr(r.l, l);
        return r;
    }

    // a^e by left-to-right square and multiply; e is any bigint width.
    template <size_t M>
    CUZK_HD field pow(const bigint<M>& e) const
    {
        field r = one();
        for (size_t i = e.num_bits(); i-- > 0;) {
            r = r.sqr();
            if (e.bit(i)) r *= *this;
        }
        return r;
    }
    CUZK_HD field pow(uint64_t e) const { return pow(bigint<1>{{e}}); }

    // a^(p-2) = a⁻¹ (Fermat). The inverse of zero is defined as zero.
    CUZK_HD field inverse() const
    {
        constexpr repr e = sub_small(P::modulus, 2);
        return pow(e);
    }

    // Legendre symbol (a | p): 0 for zero, 1 for a non-zero square, -1 otherwise.
    // Euler's criterion: a^((p-1)/2).
    CUZK_HD int legendre() const
    {
        constexpr repr e = shr(sub_small(P::modulus, 1), 1);
        const field t = pow(e);
        if (t.is_zero()) return 0;
        return t.is_one() ? 1 : -1;
    }

    // Square root. Returns false (and leaves out unspecified) when a is not a
    // square. For p ≡ 3 (mod 4) the root is a^((p+1)/4); otherwise
    // Tonelli–Shanks with p − 1 = 2^S·q and the non-residue z = P::nonresidue.
    // Which of the two roots comes back is not specified.
    CUZK_HD bool sqrt(field& out) const
    {
        if (is_zero()) {
            out = zero();
            return true;
        }
        if constexpr ((P::modulus.l[0] & 3) == 3) {
            constexpr repr e = shr(add_small(P::modulus, 1), 2);
            const field c = pow(e);
            if (c.sqr() != *this) return false;
            out = c;
            return true;
        } else {
            constexpr repr q = shr(sub_small(P::modulus, 1), P::two_adicity);
            constexpr repr q1h = shr(add_small(q, 1), 1);
            if (legendre() != 1) return false;
            field c = from_u64(P::nonresidue).pow(q);
            field x = pow(q1h);
            field t = pow(q);
            unsigned m = P::two_adicity;
            while (!t.is_one()) {
                unsigned i = 0;
                field t2 = t;
                while (!t2.is_one()) {
                    t2 = t2.sqr();
                    ++i;
                    if (i == m) return false;
                }
                field b = c;
                for (unsigned k = 0; k + i + 1 < m; ++k) b = b.sqr();
                x *= b;
                c = b.sqr();
                t *= c;
                m = i;
            }
            out = x;
            return true;
        }
    }

    // ---- bytes (host) ----------------------------------------------------------
    // Canonical (non-Montgomery) encodings of exactly nbytes bytes.
    void to_bytes_le(uint8_t* out) const
    {
        const repr v = to_repr();
        for (size_t i = 0; i < nbytes; ++i) out[i] = uint8_t(v.l[i / 8] >> (8 * (i % 8)));
    }
    void to_bytes_be(uint8_t* out) const
    {
        const repr v = to_repr();
        for (size_t i = 0; i < nbytes; ++i) out[nbytes - 1 - i] = uint8_t(v.l[i / 8] >> (8 * (i % 8)));
    }
    // Returns false when the integer is >= p (non-canonical); out is then untouched.
    static bool from_bytes_le(const uint8_t* in, field& out)
    {
        repr v = repr::zero();
        for (size_t i = 0; i < nbytes; ++i) v.l[i / 8] |= uint64_t(in[i]) << (8 * (i % 8));
        if (!is_canonical(v)) return false;
        out = from_repr(v);
        return true;
    }
    static bool from_bytes_be(const uint8_t* in, field& out)
    {
        repr v = repr::zero();
        for (size_t i = 0; i < nbytes; ++i) v.l[i / 8] |= uint64_t(in[nbytes - 1 - i]) << (8 * (i % 8));
        if (!is_canonical(v)) return false;
        out = from_repr(v);
        return true;
    }

    // Uniform random element by rejection sampling; rng is any 64-bit URBG.
    template <class Rng>
    static field random(Rng& rng)
    {
        constexpr unsigned top = P::bits % 64;
        constexpr uint64_t top_mask = top ? (uint64_t{1} << top) - 1 : ~uint64_t{0};
        for (;;) {
            repr v;
            for (size_t i = 0; i < N; ++i) v.l[i] = uint64_t(rng());
            v.l[N - 1] &= top_mask;
            if (is_canonical(v)) return from_repr(v);
        }
    }

    // ---- limb-level arithmetic ------------------------------------------------------
    // r may alias a or b in every routine below. On x86-64 hosts each one
    // forwards to detail/ff_x86_64.hpp; the *_portable forms are the reference code,
    // used on devices and exposed so tests can compare the two. They are
    // constexpr so that constants (e.g. the tower's Frobenius coefficients,
    // ff/tower_constants.hpp) can be derived at compile time.
    CUZK_INLINE static void mont_mul(uint64_t* r, const uint64_t* a, const uint64_t* b)
    {
#if CUZK_FIELD_X86
        if constexpr (x86::supported<P>) {
            x86::mont_mul<P>(r, a, b);
            return;
        }
#endif
        mont_mul_portable(r, a, b);
    }
    CUZK_INLINE static void mont_sqr(uint64_t* r, const uint64_t* a)
    {
#if CUZK_FIELD_X86
        if constexpr (x86::supported<P>) {
            x86::mont_sqr<P>(r, a);
            return;
        }
#endif
        mont_mul_portable(r, a, a);
    }
    CUZK_INLINE static void add_mod(uint64_t* r, const uint64_t* a, const uint64_t* b)
    {
#if CUZK_FIELD_X86
        if constexpr (x86::supported<P>) {
            x86::add<P>(r, a, b);
            return;
        }
#endif
        add_mod_portable(r, a, b);
    }
    CUZK_INLINE static void sub_mod(uint64_t* r, const uint64_t* a, const uint64_t* b)
    {
#if CUZK_FIELD_X86
        if constexpr (x86::supported<P>) {
            x86::sub<P>(r, a, b);
            return;
        }
#endif
        sub_mod_portable(r, a, b);
    }
    // −a = 0 − a: the subtraction borrows unless a = 0 and then adds p back,
    // so zero maps to zero and a ≠ 0 to p − a.
    CUZK_INLINE static void neg_mod(uint64_t* r, const uint64_t* a)
    {
#if CUZK_FIELD_X86
        if constexpr (x86::supported<P>) {
            const uint64_t z[N] = {};
            x86::sub<P>(r, z, a);
            return;
        }
#endif
        neg_mod_portable(r, a);
    }

    // Every modulus used here leaves at least one spare bit in the top limb, so
    // a + b < 2p < 2^(64N) never overflows; one conditional subtraction
    // brings the sum back below p.
    CUZK_INLINE static constexpr void add_mod_portable(uint64_t* r, const uint64_t* a, const uint64_t* b)
    {
        uint64_t c = 0;
        for (size_t i = 0; i < N; ++i) {
            u128 t = u128(a[i]) + b[i] + c;
            r[i] = uint64_t(t);
            c = uint64_t(t >> 64);
        }
        reduce_once(r);
    }
    CUZK_INLINE static constexpr void sub_mod_portable(uint64_t* r, const uint64_t* a, const uint64_t* b)
    {
        uint64_t br = 0;
        for (size_t i = 0; i < N; ++i) {
            u128 t = u128(a[i]) - b[i] - br;
            r[i] = uint64_t(t);
            br = uint64_t(t >> 64) & 1;
        }
        // On borrow add p back; mask instead of branch.
        constexpr repr p = P::modulus;
        const uint64_t mask = 0 - br;
        uint64_t c = 0;
        for (size_t i = 0; i < N; ++i) {
            u128 t = u128(r[i]) + (p.l[i] & mask) + c;
            r[i] = uint64_t(t);
            c = uint64_t(t >> 64);
        }
    }
    CUZK_INLINE static constexpr void neg_mod_portable(uint64_t* r, const uint64_t* a)
    {
        uint64_t nz = 0;
        for (size_t i = 0; i < N; ++i) nz |= a[i];
        if (nz == 0) {
            for (size_t i = 0; i < N; ++i) r[i] = 0;
            return;
        }
        constexpr repr p = P::modulus;
        uint64_t br = 0;
        for (size_t i = 0; i < N; ++i) {
            u128 t = u128(p.l[i]) - a[i] - br;
            r[i] = uint64_t(t);
            br = uint64_t(t >> 64) & 1;
        }
    }

    // ---- the Montgomery multiply (portable) --------------------------------------
    // CIOS (coarsely integrated operand scanning), in the form that needs no
    // extra carry word: valid when the top limb of p is below 2^63 − 1, true
    // for the BLS12-381 and BN254 moduli (checked at the top of the struct). Per outer step i:
    //   (A, t0)  = t[0] + a[0]·b[i];  m = t0·(−p⁻¹ mod 2^64)
    //   C        = hi(t0 + m·p[0])                      (low word is 0 by choice of m)
    //   for j ≥ 1: (A, t[j])   = t[j] + a[j]·b[i] + A
    //              (C, t[j-1]) = t[j] + m·p[j] + C
    //   t[N-1] = C + A
    // Cost: 2N² 64-bit products. The result is < 2p; one conditional
    // subtraction makes it canonical.
    CUZK_INLINE static constexpr void mont_mul_portable(uint64_t* r, const uint64_t* a, const uint64_t* b)
    {
        constexpr repr p = P::modulus;
        constexpr uint64_t inv = P::inv;
        uint64_t t[N];
        for (size_t i = 0; i < N; ++i) t[i] = 0;
CUZK_UNROLL
        for (size_t i = 0; i < N; ++i) {
            u128 x = u128(a[0]) * b[i] + t[0];
            uint64_t A = uint64_t(x >> 64);
            const uint64_t t0 = uint64_t(x);
            const uint64_t m = t0 * inv;
            u128 y = u128(m) * p.l[0] + t0;
            uint64_t C = uint64_t(y >> 64);
CUZK_UNROLL
            for (size_t j = 1; j < N; ++j) {
                x = u128(a[j]) * b[i] + t[j] + A;
                A = uint64_t(x >> 64);
                y = u128(m) * p.l[j] + uint64_t(x) + C;
                C = uint64_t(y >> 64);
                t[j - 1] = uint64_t(y);
            }
            t[N - 1] = C + A;
        }
        for (size_t i = 0; i < N; ++i) r[i] = t[i];
        reduce_once(r);
    }

    // r := r − p if r >= p (r < 2p on entry).
    CUZK_INLINE static constexpr void reduce_once(uint64_t* r)
    {
        constexpr repr p = P::modulus;
        uint64_t d[N];
        uint64_t br = 0;
        for (size_t i = 0; i < N; ++i) {
            u128 t = u128(r[i]) - p.l[i] - br;
            d[i] = uint64_t(t);
            br = uint64_t(t >> 64) & 1;
        }
        // br == 1 means r < p: keep r.
        const uint64_t keep = 0 - br;
        for (size_t i = 0; i < N; ++i) r[i] = (r[i] & keep) | (d[i] & ~keep);
    }
};

} // namespace cuzk
