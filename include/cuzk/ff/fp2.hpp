// cuzk — the quadratic extension Fp2 = Fp[u]/(u² + 1) as a template over a
// tower-parameter struct T, shared by every curve whose p ≡ 3 (mod 4) (then
// −1 is a non-square and u² = −1 defines a field).
//
// T supplies
//   using base = field<…>;                    the prime field Fp
//   static constexpr uint64_t xi_c0;          the sextic non-residue ξ = xi_c0 + u
// (BLS12-381: ξ = 1 + u, ff/bls12_381.hpp; BN254: ξ = 9 + u, ff/bn254.hpp).
// ξ is used by the towers above (ff/tower.hpp); here only mul_by_xi needs it.
// Everything is host+device except random.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/ff/field.hpp"

namespace cuzk {

// k·a for a small compile-time constant k by doublings and additions
// (k = 9: three doublings and one addition).
template <uint64_t K, class F>
CUZK_INLINE F mul_by_small(const F& a)
{
    static_assert(K >= 1);
    if constexpr (K == 1) return a;
    else if constexpr (K % 2 == 0) return mul_by_small<K / 2>(a).dbl();
    else return mul_by_small<K - 1>(a) + a;
}

// An element is c0 + c1·u.
template <class T>
struct fp2_t {
    using base = typename T::base;
    using tower = T;
    static_assert((base::params::modulus.l[0] & 3) == 3, "u² = −1 needs p ≡ 3 (mod 4)");

    base c0, c1;

    CUZK_HD static constexpr fp2_t zero() { return {base::zero(), base::zero()}; }
    CUZK_HD static constexpr fp2_t one() { return {base::one(), base::zero()}; }
    CUZK_HD constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
    CUZK_HD constexpr bool is_one() const { return c0.is_one() && c1.is_zero(); }
    CUZK_HD friend constexpr bool operator==(const fp2_t& a, const fp2_t& b) { return a.c0 == b.c0 && a.c1 == b.c1; }
    CUZK_HD friend constexpr bool operator!=(const fp2_t& a, const fp2_t& b) { return !(a == b); }

    CUZK_INLINE friend fp2_t operator+(const fp2_t& a, const fp2_t& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
    CUZK_INLINE friend fp2_t operator-(const fp2_t& a, const fp2_t& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
    CUZK_INLINE fp2_t operator-() const { return {-c0, -c1}; }
    CUZK_INLINE fp2_t dbl() const { return {c0.dbl(), c1.dbl()}; }
    CUZK_INLINE fp2_t& operator+=(const fp2_t& b) { return *this = *this + b; }
    CUZK_INLINE fp2_t& operator-=(const fp2_t& b) { return *this = *this - b; }

    // Karatsuba: 3 Fp multiplications.
    //   (a0 + a1u)(b0 + b1u) = (a0b0 − a1b1) + ((a0 + a1)(b0 + b1) − a0b0 − a1b1)u
    CUZK_INLINE friend fp2_t operator*(const fp2_t& a, const fp2_t& b)
    {
        const base t0 = a.c0 * b.c0;
        const base t1 = a.c1 * b.c1;
        const base t2 = (a.c0 + a.c1) * (b.c0 + b.c1);
        return {t0 - t1, t2 - t0 - t1};
    }
    CUZK_INLINE fp2_t& operator*=(const fp2_t& b) { return *this = *this * b; }
    CUZK_INLINE fp2_t operator*(const base& s) const { return {c0 * s, c1 * s}; }
    // Complex squaring: 2 Fp multiplications. (a0 + a1u)² = (a0 + a1)(a0 − a1) + 2a0a1·u
    CUZK_INLINE fp2_t sqr() const
    {
        const base t = c0 * c1;
        return {(c0 + c1) * (c0 - c1), t.dbl()};
    }
    // Multiply by the sextic non-residue ξ = k + u (k = T::xi_c0):
    // (a0 + a1u)(k + u) = (k·a0 − a1) + (a0 + k·a1)u; additions only.
    CUZK_INLINE fp2_t mul_by_xi() const
    {
        constexpr uint64_t k = T::xi_c0;
        return {mul_by_small<k>(c0) - c1, c0 + mul_by_small<k>(c1)};
    }
    CUZK_INLINE fp2_t conjugate() const { return {c0, -c1}; }
    // Frobenius x ↦ x^p is conjugation in Fp2 (u^p = u·(u²)^((p−1)/2) = −u, p ≡ 3 mod 4).
    CUZK_INLINE fp2_t frobenius() const { return conjugate(); }
    // Norm to Fp: a0² + a1².
    CUZK_INLINE base norm() const { return c0.sqr() + c1.sqr(); }
    // 1/(a0 + a1u) = (a0 − a1u)/(a0² + a1²); zero maps to zero.
    CUZK_HD fp2_t inverse() const
    {
        const base n = norm().inverse();
        return {c0 * n, -(c1 * n)};
    }
    template <size_t M>
    CUZK_HD fp2_t pow(const bigint<M>& e) const
    {
        fp2_t r = one();
        for (size_t i = e.num_bits(); i-- > 0;) {
            r = r.sqr();
            if (e.bit(i)) r *= *this;
        }
        return r;
    }
    // An element of Fp2 is a square iff its norm is a square in Fp.
    CUZK_HD int legendre() const { return norm().legendre(); }

    // Square root for p ≡ 3 (mod 4) (Adj and Rodríguez-Henríquez, "Square root
    // computation over even extension fields", Algorithm 9):
    //   a1 = a^((p−3)/4), α = a1²·a, x0 = a1·a;
    //   α = −1 ⇒ x = u·x0; else b = (1 + α)^((p−1)/2), x = b·x0.
    // The result is checked by squaring; false when a is not a square.
    CUZK_HD bool sqrt(fp2_t& out) const
    {
        if (is_zero()) {
            out = zero();
            return true;
        }
        constexpr auto e1 = shr(sub_small(base::params::modulus, 3), 2);
        constexpr auto e2 = shr(sub_small(base::params::modulus, 1), 1);
        const fp2_t a1 = pow(e1);
        const fp2_t alpha = a1.sqr() * *this;
        const fp2_t x0 = a1 * *this;
        fp2_t x;
        if (alpha == -one()) {
            x = {-x0.c1, x0.c0};   // u·x0
        } else {
            const fp2_t b = (one() + alpha).pow(e2);
            x = b * x0;
        }
        if (x.sqr() != *this) return false;
        out = x;
        return true;
    }

    template <class Rng>
    static fp2_t random(Rng& rng)
    {
        const base a = base::random(rng);
        return {a, base::random(rng)};
    }
};

} // namespace cuzk
