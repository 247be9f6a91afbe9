// cuzk — the BLS12-381 base field Fp, scalar field Fr and the quadratic
// extension Fp2 = Fp[u]/(u² + 1).
//
// Every constant below is re-derived from the decimal modulus with GMP by
// test/test_ff.cpp; a change here that is not a correct derivation fails there.
#pragma once

#include "cuzk/ff/field.hpp"

namespace cuzk {

struct fp_params {
    static constexpr size_t limbs = 6;
    static constexpr unsigned bits = 381;
    /* p = 4002409555221667393417789825735904156556882819939007885332058136124031650490837864442687629129015664037894272559787
         = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab */
    static constexpr bigint<6> modulus = {{0xb9feffffffffaaab, 0x1eabfffeb153ffff, 0x6730d2a0f6b0f624,
                                           0x64774b84f38512bf, 0x4b1ba7b6434bacd7, 0x1a0111ea397fe69a}};
    /* R = 2^384 mod p: the Montgomery form of 1 */
    static constexpr bigint<6> one = {{0x760900000002fffd, 0xebf4000bc40c0002, 0x5f48985753c758ba,
                                       0x77ce585370525745, 0x5c071a97a256ec6d, 0x15f65ec3fa80e493}};
    /* R² = 2^768 mod p: multiplying by it converts into Montgomery form */
    static constexpr bigint<6> r2 = {{0xf4df1f341c341746, 0x0a76e6a609d104f1, 0x8de5476c4c95b6d5,
                                      0x67eb88a9939d83c0, 0x9a793e85b519952d, 0x11988fe592cae3aa}};
    /* −p⁻¹ mod 2^64 */
    static constexpr uint64_t inv = 0x89f3fffcfffcfffd;
    /* p − 1 = 2·odd; p ≡ 3 (mod 4), so square roots are a^((p+1)/4) */
    static constexpr unsigned two_adicity = 1;
    /* −1 is a quadratic non-residue since p ≡ 3 (mod 4); unused by sqrt */
    static constexpr uint64_t nonresidue = 0;
};

struct fr_params {
    static constexpr size_t limbs = 4;
    static constexpr unsigned bits = 255;
    /* r = 52435875175126190479447740508185965837690552500527637822603658699938581184513
         = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001 */
    static constexpr bigint<4> modulus = {{0xffffffff00000001, 0x53bda402fffe5bfe, 0x3339d80809a1d805,
                                           0x73eda753299d7d48}};
    /* R = 2^256 mod r: the Montgomery form of 1 */
    static constexpr bigint<4> one = {{0x00000001fffffffe, 0x5884b7fa00034802, 0x998c4fefecbc4ff5,
                                       0x1824b159acc5056f}};
    /* R² = 2^512 mod r */
    static constexpr bigint<4> r2 = {{0xc999e990f3f29c6d, 0x2b6cedcb87925c23, 0x05d314967254398f,
                                      0x0748d9d99f59ff11}};
    /* −r⁻¹ mod 2^64 */
    static constexpr uint64_t inv = 0xfffffffeffffffff;
    /* r − 1 = 2^32·t with t odd */
    static constexpr unsigned two_adicity = 32;
    /* 5 is the smallest quadratic non-residue mod r (snarkjs's nqr; bellperson
       uses the multiplicative generator 7, also a non-residue) */
    static constexpr uint64_t nonresidue = 5;
};

using fp = field<fp_params>;
using fr = field<fr_params>;

// Fp2 = Fp[u]/(u² + 1); an element is c0 + c1·u.
struct fp2 {
    fp c0, c1;

    CUZK_HD static constexpr fp2 zero() { return {fp::zero(), fp::zero()}; }
    CUZK_HD static constexpr fp2 one() { return {fp::one(), fp::zero()}; }
    CUZK_HD constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
    CUZK_HD constexpr bool is_one() const { return c0.is_one() && c1.is_zero(); }
    CUZK_HD friend constexpr bool operator==(const fp2& a, const fp2& b) { return a.c0 == b.c0 && a.c1 == b.c1; }
    CUZK_HD friend constexpr bool operator!=(const fp2& a, const fp2& b) { return !(a == b); }

    CUZK_INLINE friend fp2 operator+(const fp2& a, const fp2& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
    CUZK_INLINE friend fp2 operator-(const fp2& a, const fp2& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
    CUZK_INLINE fp2 operator-() const { return {-c0, -c1}; }
    CUZK_INLINE fp2 dbl() const { return {c0.dbl(), c1.dbl()}; }
    CUZK_INLINE fp2& operator+=(const fp2& b) { return *this = *this + b; }
    CUZK_INLINE fp2& operator-=(const fp2& b) { return *this = *this - b; }

    // Karatsuba: 3 Fp multiplications.
    //   (a0 + a1u)(b0 + b1u) = (a0b0 − a1b1) + ((a0 + a1)(b0 + b1) − a0b0 − a1b1)u
    CUZK_INLINE friend fp2 operator*(const fp2& a, const fp2& b)
    {
        const fp t0 = a.c0 * b.c0;
        const fp t1 = a.c1 * b.c1;
        const fp t2 = (a.c0 + a.c1) * (b.c0 + b.c1);
        return {t0 - t1, t2 - t0 - t1};
    }
    CUZK_INLINE fp2& operator*=(const fp2& b) { return *this = *this * b; }
    CUZK_INLINE fp2 operator*(const fp& s) const { return {c0 * s, c1 * s}; }
    // Complex squaring: 2 Fp multiplications. (a0 + a1u)² = (a0 + a1)(a0 − a1) + 2a0a1·u
    CUZK_INLINE fp2 sqr() const
    {
        const fp t = c0 * c1;
        return {(c0 + c1) * (c0 - c1), t.dbl()};
    }
    // Multiply by the sextic non-residue ξ = 1 + u: (a0 − a1) + (a0 + a1)u.
    CUZK_INLINE fp2 mul_by_xi() const { return {c0 - c1, c0 + c1}; }
    CUZK_INLINE fp2 conjugate() const { return {c0, -c1}; }
    // Frobenius x ↦ x^p is conjugation in Fp2.
    CUZK_INLINE fp2 frobenius() const { return conjugate(); }
    // Norm to Fp: a0² + a1².
    CUZK_INLINE fp norm() const { return c0.sqr() + c1.sqr(); }
    // 1/(a0 + a1u) = (a0 − a1u)/(a0² + a1²); zero maps to zero.
    CUZK_HD fp2 inverse() const
    {
        const fp n = norm().inverse();
        return {c0 * n, -(c1 * n)};
    }
    template <size_t M>
    CUZK_HD fp2 pow(const bigint<M>& e) const
    {
        fp2 r = one();
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
    CUZK_HD bool sqrt(fp2& out) const
    {
        if (is_zero()) {
            out = zero();
            return true;
        }
        constexpr bigint<6> e1 = shr(sub_small(fp_params::modulus, 3), 2);
        constexpr bigint<6> e2 = shr(sub_small(fp_params::modulus, 1), 1);
        const fp2 a1 = pow(e1);
        const fp2 alpha = a1.sqr() * *this;
        const fp2 x0 = a1 * *this;
        fp2 x;
        if (alpha == -one()) {
            x = {-x0.c1, x0.c0};   // u·x0
        } else {
            const fp2 b = (one() + alpha).pow(e2);
            x = b * x0;
        }
        if (x.sqr() != *this) return false;
        out = x;
        return true;
    }

    template <class Rng>
    static fp2 random(Rng& rng)
    {
        const fp a = fp::random(rng);
        return {a, fp::random(rng)};
    }
};

} // namespace cuzk
