// cuzk — the tower above Fp2 used by the BLS12-381 pairing:
//
//   Fp6  = Fp2[v]/(v³ − ξ),  ξ = 1 + u        element c0 + c1·v + c2·v²
//   Fp12 = Fp6[w]/(w² − v)                     element c0 + c1·w
//
// So w⁶ = ξ, and Fp12 has the Fp2-basis 1, w, w² = v, w³ = vw, w⁴ = v², w⁵ = v²w;
// the coefficient of wⁱ sits in
//   i:      0      1      2      3      4      5
//   field:  c0.c0  c1.c0  c0.c1  c1.c1  c0.c2  c1.c2
//
// Cost notes use m̃ / s̃ for a multiplication / squaring in Fp2 (3 / 2 Fp
// multiplications). Everything is host+device except bytes and random.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "cuzk/ff/bls12_381.hpp"

namespace cuzk {

// Frobenius coefficients γ(k, i) = ξ^(i·(p^k − 1)/6) ∈ Fp2 for k = 1, 2, 3 and
// i = 1..5 (γ(k, 0) = 1). They come from (wⁱ)^(p^k) = wⁱ·w^(i·(p^k − 1)) and
// w⁶ = ξ; 6 | p^k − 1 because p ≡ 1 (mod 6). Stored in Montgomery form; the
// comments give the canonical values, and test/test_pairing.cpp re-derives
// every one with fp2::pow and a GMP-computed exponent.
CUZK_HD constexpr fp2 frobenius_coeff(unsigned k, unsigned i)
{
    switch (10 * k + i) {
    case 11: // γ(1,1) = 0x1904d3bf02bb0667c231beb4202c0d1f0fd603fd3cbd5f4f7b2443d784bab9c4f67ea53d63e7813d8d0775ed92235fb8 + (0xfc3e2b36c4e03288e9e902231f9fb854a14787b6c7b36fec0c8ec971f63c5f282d5ac14d6c7ec22cf78a126ddc4af3)·u
        return {fp::from_mont({{0x07089552b319d465, 0xc6695f92b50a8313, 0x97e83cccd117228f, 0xa35baecab2dc29ee, 0x1ce393ea5daace4d, 0x08f2220fb0fb66eb}}),
                fp::from_mont({{0xb2f66aad4ce5d646, 0x5842a06bfc497cec, 0xcf4895d42599d394, 0xc11b9cba40a8e8d0, 0x2e3813cbe5a0de89, 0x110eefda88847faf}})};
    case 12: // γ(1,2) = 0 + (0x1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b409427eb4f49fffd8bfd00000000aaac)·u
        return {fp::from_mont({{0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000}}),
                fp::from_mont({{0xcd03c9e48671f071, 0x5dab22461fcda5d2, 0x587042afd3851b95, 0x8eb60ebe01bacb9e, 0x03f97d6e83d050d2, 0x18f0206554638741}})};
    case 13: // γ(1,3) = 0x6af0e0437ff400b6831e36d6bd17ffe48395dabc2d3435e77f76e17009241c5ee67992f72ec05f4c81084fbede3cc09 + (0x6af0e0437ff400b6831e36d6bd17ffe48395dabc2d3435e77f76e17009241c5ee67992f72ec05f4c81084fbede3cc09)·u
        return {fp::from_mont({{0x7bcfa7a25aa30fda, 0xdc17dec12a927e7c, 0x2f088dd86b4ebef1, 0xd1ca2087da74d4a7, 0x2da2596696cebc1d, 0x0e2b7eedbbfd87d2}}),
                fp::from_mont({{0x7bcfa7a25aa30fda, 0xdc17dec12a927e7c, 0x2f088dd86b4ebef1, 0xd1ca2087da74d4a7, 0x2da2596696cebc1d, 0x0e2b7eedbbfd87d2}})};
    case 14: // γ(1,4) = 0x1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b409427eb4f49fffd8bfd00000000aaad + (0)·u
        return {fp::from_mont({{0x890dc9e4867545c3, 0x2af322533285a5d5, 0x50880866309b7e2c, 0xa20d1b8c7e881024, 0x14e4f04fe2db9068, 0x14e56d3f1564853a}}),
                fp::from_mont({{0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000}})};
    case 15: // γ(1,5) = 0x5b2cfd9013a5fd8df47fa6b48b1e045f39816240c0b8fee8beadf4d8e9c0566c63a3e6e257f87329b18fae980078116 + (0x144e4211384586c16bd3ad4afa99cc9170df3560e77982d0db45f3536814f0bd5871c1908bd478cd1ee605167ff82995)·u
        return {fp::from_mont({{0x82d83cf50dbce43f, 0xa2813e53df9d018f, 0xc6f0caa53c65e181, 0x7525cf528d50fe95, 0x4a85ed50f4798a6b, 0x171da0fd6cf8eebd}}),
                fp::from_mont({{0x3726c30af242c66c, 0x7c2ac1aad1b6fe70, 0xa04007fbba4b14a2, 0xef517c3266341429, 0x0095ba654ed2226b, 0x02e370eccc86f7dd}})};
    case 21: // γ(2,1) = 0x5f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffeffff + (0)·u
        return {fp::from_mont({{0xecfb361b798dba3a, 0xc100ddb891865a2c, 0x0ec08ff1232bda8e, 0xd5c13cc6f1ca4721, 0x47222a47bf7b5c04, 0x0110f184e51c5f59}}),
                fp::from_mont({{0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000}})};
    case 22: // γ(2,2) = 0x5f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffefffe + (0)·u
        return {fp::from_mont({{0x30f1361b798a64e8, 0xf3b8ddab7ece5a2a, 0x16a8ca3ac61577f7, 0xc26a2ff874fd029b, 0x3636b76660701c6e, 0x051ba4ab241b6160}}),
                fp::from_mont({{0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000}})};
    case 23: // γ(2,3) = p - 1 + (0)·u
        return {fp::from_mont({{0x43f5fffffffcaaae, 0x32b7fff2ed47fffd, 0x07e83a49a2e99d69, 0xeca8f3318332bb7a, 0xef148d1ea0f4c069, 0x040ab3263eff0206}}),
                fp::from_mont({{0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000}})};
    case 24: // γ(2,4) = 0x1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b409427eb4f49fffd8bfd00000000aaac + (0)·u
        return {fp::from_mont({{0xcd03c9e48671f071, 0x5dab22461fcda5d2, 0x587042afd3851b95, 0x8eb60ebe01bacb9e, 0x03f97d6e83d050d2, 0x18f0206554638741}}),
                fp::from_mont({{0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000}})};
    case 25: // γ(2,5) = 0x1a0111ea397fe699ec02408663d4de85aa0d857d89759ad4897d29650fb85f9b409427eb4f49fffd8bfd00000000aaad + (0)·u
        return {fp::from_mont({{0x890dc9e4867545c3, 0x2af322533285a5d5, 0x50880866309b7e2c, 0xa20d1b8c7e881024, 0x14e4f04fe2db9068, 0x14e56d3f1564853a}}),
                fp::from_mont({{0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000}})};
    case 31: // γ(3,1) = 0x135203e60180a68ee2e9c448d77a2cd91c3dedd930b1cf60ef396489f61eb45e304466cf3e67fa0af1ee7b04121bdea2 + (0x6af0e0437ff400b6831e36d6bd17ffe48395dabc2d3435e77f76e17009241c5ee67992f72ec05f4c81084fbede3cc09)·u
        return {fp::from_mont({{0x3e2f585da55c9ad1, 0x4294213d86c18183, 0x382844c88b623732, 0x92ad2afd19103e18, 0x1d794e4fac7cf0b9, 0x0bd592fc7d825ec8}}),
                fp::from_mont({{0x7bcfa7a25aa30fda, 0xdc17dec12a927e7c, 0x2f088dd86b4ebef1, 0xd1ca2087da74d4a7, 0x2da2596696cebc1d, 0x0e2b7eedbbfd87d2}})};
    case 32: // γ(3,2) = 0 + (1)·u
        return {fp::from_mont({{0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000}}),
                fp::from_mont({{0x760900000002fffd, 0xebf4000bc40c0002, 0x5f48985753c758ba, 0x77ce585370525745, 0x5c071a97a256ec6d, 0x15f65ec3fa80e493}})};
    case 33: // γ(3,3) = 0x135203e60180a68ee2e9c448d77a2cd91c3dedd930b1cf60ef396489f61eb45e304466cf3e67fa0af1ee7b04121bdea2 + (0x135203e60180a68ee2e9c448d77a2cd91c3dedd930b1cf60ef396489f61eb45e304466cf3e67fa0af1ee7b04121bdea2)·u
        return {fp::from_mont({{0x3e2f585da55c9ad1, 0x4294213d86c18183, 0x382844c88b623732, 0x92ad2afd19103e18, 0x1d794e4fac7cf0b9, 0x0bd592fc7d825ec8}}),
                fp::from_mont({{0x3e2f585da55c9ad1, 0x4294213d86c18183, 0x382844c88b623732, 0x92ad2afd19103e18, 0x1d794e4fac7cf0b9, 0x0bd592fc7d825ec8}})};
    case 34: // γ(3,4) = p - 1 + (0)·u
        return {fp::from_mont({{0x43f5fffffffcaaae, 0x32b7fff2ed47fffd, 0x07e83a49a2e99d69, 0xeca8f3318332bb7a, 0xef148d1ea0f4c069, 0x040ab3263eff0206}}),
                fp::from_mont({{0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000}})};
    case 35: // γ(3,5) = 0x6af0e0437ff400b6831e36d6bd17ffe48395dabc2d3435e77f76e17009241c5ee67992f72ec05f4c81084fbede3cc09 + (0x135203e60180a68ee2e9c448d77a2cd91c3dedd930b1cf60ef396489f61eb45e304466cf3e67fa0af1ee7b04121bdea2)·u
        return {fp::from_mont({{0x7bcfa7a25aa30fda, 0xdc17dec12a927e7c, 0x2f088dd86b4ebef1, 0xd1ca2087da74d4a7, 0x2da2596696cebc1d, 0x0e2b7eedbbfd87d2}}),
                fp::from_mont({{0x3e2f585da55c9ad1, 0x4294213d86c18183, 0x382844c88b623732, 0x92ad2afd19103e18, 0x1d794e4fac7cf0b9, 0x0bd592fc7d825ec8}})};
    default:
        return fp2::one();
    }
}

// ---- Fp6 ---------------------------------------------------------------------------
struct fp6 {
    fp2 c0, c1, c2;

    CUZK_HD static constexpr fp6 zero() { return {fp2::zero(), fp2::zero(), fp2::zero()}; }
    CUZK_HD static constexpr fp6 one() { return {fp2::one(), fp2::zero(), fp2::zero()}; }
    CUZK_HD constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero() && c2.is_zero(); }
    CUZK_HD constexpr bool is_one() const { return c0.is_one() && c1.is_zero() && c2.is_zero(); }
    CUZK_HD friend constexpr bool operator==(const fp6& a, const fp6& b)
    {
        return a.c0 == b.c0 && a.c1 == b.c1 && a.c2 == b.c2;
    }
    CUZK_HD friend constexpr bool operator!=(const fp6& a, const fp6& b) { return !(a == b); }

    CUZK_INLINE friend fp6 operator+(const fp6& a, const fp6& b) { return {a.c0 + b.c0, a.c1 + b.c1, a.c2 + b.c2}; }
    CUZK_INLINE friend fp6 operator-(const fp6& a, const fp6& b) { return {a.c0 - b.c0, a.c1 - b.c1, a.c2 - b.c2}; }
    CUZK_INLINE fp6 operator-() const { return {-c0, -c1, -c2}; }
    CUZK_INLINE fp6 dbl() const { return {c0.dbl(), c1.dbl(), c2.dbl()}; }
    CUZK_INLINE fp6& operator+=(const fp6& b) { return *this = *this + b; }
    CUZK_INLINE fp6& operator-=(const fp6& b) { return *this = *this - b; }
    // Scaling by an Fp2 element: 3m̃.
    CUZK_INLINE fp6 operator*(const fp2& s) const { return {c0 * s, c1 * s, c2 * s}; }

    // Multiplication by v: (c0 + c1v + c2v²)·v = ξc2 + c0·v + c1·v² (v³ = ξ).
    CUZK_INLINE fp6 mul_by_nonresidue() const { return {c2.mul_by_xi(), c0, c1}; }

    // Karatsuba over the three coefficients, 6m̃:
    //   t_i = a_i·b_i
    //   c0 = t0 + ξ·((a1 + a2)(b1 + b2) − t1 − t2)      (a1b2 + a2b1)·v³
    //   c1 = (a0 + a1)(b0 + b1) − t0 − t1 + ξ·t2         a0b1 + a1b0 + a2b2·v³·v
    //   c2 = (a0 + a2)(b0 + b2) − t0 − t2 + t1           a0b2 + a2b0 + a1b1
    CUZK_HD friend fp6 operator*(const fp6& a, const fp6& b)
    {
        const fp2 t0 = a.c0 * b.c0, t1 = a.c1 * b.c1, t2 = a.c2 * b.c2;
        const fp2 r0 = ((a.c1 + a.c2) * (b.c1 + b.c2) - t1 - t2).mul_by_xi() + t0;
        const fp2 r1 = (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1 + t2.mul_by_xi();
        const fp2 r2 = (a.c0 + a.c2) * (b.c0 + b.c2) - t0 - t2 + t1;
        return {r0, r1, r2};
    }
    CUZK_HD fp6& operator*=(const fp6& b) { return *this = *this * b; }

    // Chung–Hasan SQR2, 2m̃ + 3s̃:
    //   s0 = a0², s1 = 2a0a1, s2 = (a0 − a1 + a2)², s3 = 2a1a2, s4 = a2²
    //   a² = (s0 + ξs3) + (s1 + ξs4)·v + (s1 + s2 + s3 − s0 − s4)·v²
    // where the last coefficient is a1² + 2a0a2 because s2 expands to
    // a0² + a1² + a2² − 2a0a1 + 2a0a2 − 2a1a2.
    CUZK_HD fp6 sqr() const
    {
        const fp2 s0 = c0.sqr();
        const fp2 s1 = (c0 * c1).dbl();
        const fp2 s2 = (c0 - c1 + c2).sqr();
        const fp2 s3 = (c1 * c2).dbl();
        const fp2 s4 = c2.sqr();
        return {s0 + s3.mul_by_xi(), s1 + s4.mul_by_xi(), s1 + s2 + s3 - s0 - s4};
    }

    // Sparse product with b0 + b1·v (b2 = 0), 5m̃:
    //   c0 = a0b0 + ξ·a2b1, c1 = (a0 + a1)(b0 + b1) − a0b0 − a1b1, c2 = (a0 + a2)·b0 − a0b0 + a1b1
    CUZK_HD fp6 mul_by_01(const fp2& b0, const fp2& b1) const
    {
        const fp2 t0 = c0 * b0, t1 = c1 * b1;
        return {(c2 * b1).mul_by_xi() + t0, (c0 + c1) * (b0 + b1) - t0 - t1, (c0 + c2) * b0 - t0 + t1};
    }
    // Sparse product with b1·v, 3m̃: (a0 + a1v + a2v²)·b1v = ξa2b1 + a0b1·v + a1b1·v².
    CUZK_HD fp6 mul_by_1(const fp2& b1) const { return {(c2 * b1).mul_by_xi(), c0 * b1, c1 * b1}; }

    // 1/a = (A + Bv + Cv²)/F with
    //   A = a0² − ξa1a2, B = ξa2² − a0a1, C = a1² − a0a2, F = a0A + ξ(a2B + a1C);
    // a·(A + Bv + Cv²) = F: the v and v² coefficients cancel term by term.
    // One Fp2 inversion (hence one Fp inversion). Zero maps to zero.
    CUZK_HD fp6 inverse() const
    {
        const fp2 A = c0.sqr() - (c1 * c2).mul_by_xi();
        const fp2 B = c2.sqr().mul_by_xi() - c0 * c1;
        const fp2 C = c1.sqr() - c0 * c2;
        const fp2 F = c0 * A + (c2 * B + c1 * C).mul_by_xi();
        const fp2 Fi = F.inverse();
        return {A * Fi, B * Fi, C * Fi};
    }

    // x ↦ x^(p^k), k ∈ {1, 2, 3} (other k: composed). Conjugate the Fp2
    // coefficients k times, then v^(p^k) = v·ξ^((p^k − 1)/3) = v·γ(k, 2) and
    // v^(2p^k) = v²·γ(k, 4).
    CUZK_HD fp6 frobenius_map(unsigned k) const
    {
        k %= 6;
        if (k == 0) return *this;
        if (k > 3) return frobenius_map(3).frobenius_map(k - 3);
        const fp2 a0 = (k & 1) ? c0.conjugate() : c0;
        const fp2 a1 = (k & 1) ? c1.conjugate() : c1;
        const fp2 a2 = (k & 1) ? c2.conjugate() : c2;
        return {a0, a1 * frobenius_coeff(k, 2), a2 * frobenius_coeff(k, 4)};
    }

    template <size_t M>
    CUZK_HD fp6 pow(const bigint<M>& e) const
    {
        fp6 r = one();
        for (size_t i = e.num_bits(); i-- > 0;) {
            r = r.sqr();
            if (e.bit(i)) r *= *this;
        }
        return r;
    }

    template <class Rng>
    static fp6 random(Rng& rng)
    {
        const fp2 a = fp2::random(rng);
        const fp2 b = fp2::random(rng);
        return {a, b, fp2::random(rng)};
    }
};

// ---- Fp12 --------------------------------------------------------------------------
struct fp12 {
    fp6 c0, c1;

    CUZK_HD static constexpr fp12 zero() { return {fp6::zero(), fp6::zero()}; }
    CUZK_HD static constexpr fp12 one() { return {fp6::one(), fp6::zero()}; }
    CUZK_HD constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
    CUZK_HD constexpr bool is_one() const { return c0.is_one() && c1.is_zero(); }
    CUZK_HD friend constexpr bool operator==(const fp12& a, const fp12& b) { return a.c0 == b.c0 && a.c1 == b.c1; }
    CUZK_HD friend constexpr bool operator!=(const fp12& a, const fp12& b) { return !(a == b); }

    CUZK_INLINE friend fp12 operator+(const fp12& a, const fp12& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
    CUZK_INLINE friend fp12 operator-(const fp12& a, const fp12& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
    CUZK_INLINE fp12 operator-() const { return {-c0, -c1}; }
    CUZK_INLINE fp12 dbl() const { return {c0.dbl(), c1.dbl()}; }
    CUZK_INLINE fp12& operator+=(const fp12& b) { return *this = *this + b; }
    CUZK_INLINE fp12& operator-=(const fp12& b) { return *this = *this - b; }

    // Karatsuba, 3 Fp6 products = 18m̃:
    //   (a0 + a1w)(b0 + b1w) = (t0 + v·t1) + ((a0 + a1)(b0 + b1) − t0 − t1)·w, t_i = a_i·b_i
    CUZK_HD friend fp12 operator*(const fp12& a, const fp12& b)
    {
        const fp6 t0 = a.c0 * b.c0, t1 = a.c1 * b.c1;
        return {t0 + t1.mul_by_nonresidue(), (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1};
    }
    CUZK_HD fp12& operator*=(const fp12& b) { return *this = *this * b; }

    // Complex squaring, 2 Fp6 products = 12m̃:
    //   t = a0a1; a² = ((a0 + a1)(a0 + v·a1) − t − v·t) + 2t·w
    // since (a0 + a1)(a0 + va1) = a0² + va1² + (1 + v)·a0a1.
    CUZK_HD fp12 sqr() const
    {
        const fp6 t = c0 * c1;
        const fp6 r0 = (c0 + c1) * (c0 + c1.mul_by_nonresidue()) - t - t.mul_by_nonresidue();
        return {r0, t.dbl()};
    }

    // 1/(a0 + a1w) = (a0 − a1w)/(a0² − v·a1²). Zero maps to zero.
    CUZK_HD fp12 inverse() const
    {
        const fp6 d = (c0.sqr() - c1.sqr().mul_by_nonresidue()).inverse();
        return {c0 * d, -(c1 * d)};
    }

    // a0 − a1w = a^(p^6): w^(p^6) = w·ξ^((p^6 − 1)/6) = −w, as ξ is not a square
    // in Fp2 (Euler). On the cyclotomic subgroup (every pairing value) this is
    // the inverse.
    CUZK_INLINE fp12 conjugate() const { return {c0, -c1}; }

    // x ↦ x^(p^k), any k (k mod 12; 1, 2, 3 direct, others composed, 6 is
    // conjugate). Coefficient g_i of wⁱ becomes conj^k(g_i)·γ(k, i).
    CUZK_HD fp12 frobenius_map(unsigned k) const
    {
        k %= 12;
        if (k == 0) return *this;
        if (k == 6) return conjugate();
        if (k > 6) return conjugate().frobenius_map(k - 6);
        if (k > 3) return frobenius_map(3).frobenius_map(k - 3);
        const fp6 a = c0.frobenius_map(k);
        const fp2 b0 = (k & 1) ? c1.c0.conjugate() : c1.c0;
        const fp2 b1 = (k & 1) ? c1.c1.conjugate() : c1.c1;
        const fp2 b2 = (k & 1) ? c1.c2.conjugate() : c1.c2;
        return {a, {b0 * frobenius_coeff(k, 1), b1 * frobenius_coeff(k, 3), b2 * frobenius_coeff(k, 5)}};
    }

    // Product with the sparse element o0 + o1·w² + o4·w³ = (o0 + o1v) + (o4v)·w,
    // the shape of a BLS12-381 line value (see lib/pairing/pairing.cpp); the
    // name counts Fp2 slots in the order c0.c0, c0.c1, c0.c2, c1.c0, c1.c1, c1.c2.
    // Karatsuba with L0 = o0 + o1v, L1 = o4v:
    //   t0 = a0·L0 (5m̃), t1 = a1·L1 (3m̃), c1 = (a0 + a1)(L0 + L1) − t0 − t1 (5m̃),
    //   c0 = t0 + v·t1;  13m̃ in all instead of 18m̃.
    CUZK_HD fp12 mul_by_014(const fp2& o0, const fp2& o1, const fp2& o4) const
    {
        const fp6 t0 = c0.mul_by_01(o0, o1);
        const fp6 t1 = c1.mul_by_1(o4);
        const fp6 r1 = (c0 + c1).mul_by_01(o0, o1 + o4) - t0 - t1;
        return {t0 + t1.mul_by_nonresidue(), r1};
    }

    // Granger–Scott squaring, valid only in the cyclotomic subgroup of order
    // Φ6(p²) = p⁴ − p² + 1 (any value after the easy part of the final
    // exponentiation). View Fp12 = Fp4[w]/(w³ − t), Fp4 = Fp2[t]/(t² − ξ),
    // t = w³, a = A0 + A1w + A2w² with A0 = g0 + g3t, A1 = g1 + g4t,
    // A2 = g2 + g5t. For a^(p⁴ − p² + 1) = 1 (Granger, Scott, PKC 2010):
    //   a² = (3A0² − 2Ā0) + (3t·A2² + 2Ā1)·w + (3A1² − 2Ā2)·w²
    // where Ā = A^(p²) negates the t-part (ξ is a non-square in Fp2). Each Fp4
    // square (x + yt)² = (x² + ξy²) + 2xy·t costs 3s̃ (2xy = (x + y)² − x² − y²);
    // 9s̃ in all instead of 12m̃.
    CUZK_HD fp12 cyclotomic_sqr() const
    {
        const fp2 &g0 = c0.c0, &g1 = c1.c0, &g2 = c0.c1, &g3 = c1.c1, &g4 = c0.c2, &g5 = c1.c2;
        fp2 a0x, a0y, a1x, a1y, a2x, a2y;
        fp4_sqr(g0, g3, a0x, a0y);   // A0²
        fp4_sqr(g1, g4, a1x, a1y);   // A1²
        fp4_sqr(g2, g5, a2x, a2y);   // A2²
        fp12 r;
        r.c0.c0 = three_minus_two(a0x, g0);             // 3A0² − 2Ā0, 1-part
        r.c1.c1 = three_plus_two(a0y, g3);              //             t-part
        r.c1.c0 = three_plus_two(a2y.mul_by_xi(), g1);  // 3t·A2² + 2Ā1, 1-part: t·(x + yt) = ξy + xt
        r.c0.c2 = three_minus_two(a2x, g4);             //               t-part
        r.c0.c1 = three_minus_two(a1x, g2);             // 3A1² − 2Ā2, 1-part
        r.c1.c2 = three_plus_two(a1y, g5);              //             t-part
        return r;
    }

    // a^e by left-to-right square and multiply.
    template <size_t M>
    CUZK_HD fp12 pow(const bigint<M>& e) const
    {
        fp12 r = one();
        for (size_t i = e.num_bits(); i-- > 0;) {
            r = r.sqr();
            if (e.bit(i)) r *= *this;
        }
        return r;
    }
    // The same with cyclotomic squarings: only for elements of the cyclotomic subgroup.
    template <size_t M>
    CUZK_HD fp12 cyclotomic_pow(const bigint<M>& e) const
    {
        fp12 r = one();
        for (size_t i = e.num_bits(); i-- > 0;) {
            r = r.cyclotomic_sqr();
            if (e.bit(i)) r *= *this;
        }
        return r;
    }

    // Helpers of cyclotomic_sqr: (x + yt)² = sx + sy·t with sx = x² + ξy², sy = 2xy.
    CUZK_INLINE static void fp4_sqr(const fp2& x, const fp2& y, fp2& sx, fp2& sy)
    {
        const fp2 xx = x.sqr(), yy = y.sqr();
        sx = xx + yy.mul_by_xi();
        sy = (x + y).sqr() - xx - yy;
    }
    CUZK_INLINE static fp2 three_minus_two(const fp2& s, const fp2& g) { return (s - g).dbl() + s; }   // 3s − 2g
    CUZK_INLINE static fp2 three_plus_two(const fp2& s, const fp2& g) { return (s + g).dbl() + s; }    // 3s + 2g

    template <class Rng>
    static fp12 random(Rng& rng)
    {
        const fp6 a = fp6::random(rng);
        return {a, fp6::random(rng)};
    }
};

// ---- bytes (host) ----------------------------------------------------------------------
// 576 bytes: the twelve Fp coefficients, each 48 bytes big-endian canonical, in the
// order c0.c0.c0, c0.c0.c1, c0.c1.c0, c0.c1.c1, c0.c2.c0, c0.c2.c1, c1.c0.c0, …,
// c1.c2.c1 (Fp2 as c0 then c1). This is the order of @noble/curves' Fp12.toBytes.
inline constexpr size_t fp12_nbytes = 12 * fp::nbytes;

inline void fp12_to_bytes_be(const fp12& a, uint8_t out[fp12_nbytes])
{
    const fp6* h[2] = {&a.c0, &a.c1};
    size_t o = 0;
    for (const fp6* s : h)
        for (const fp2* q : {&s->c0, &s->c1, &s->c2}) {
            q->c0.to_bytes_be(out + o);
            q->c1.to_bytes_be(out + o + fp::nbytes);
            o += 2 * fp::nbytes;
        }
}
// Inverse of fp12_to_bytes_be; false (out untouched) when a coefficient is >= p.
inline bool fp12_from_bytes_be(const uint8_t in[fp12_nbytes], fp12& out)
{
    fp12 r;
    fp6* h[2] = {&r.c0, &r.c1};
    size_t o = 0;
    for (fp6* s : h)
        for (fp2* q : {&s->c0, &s->c1, &s->c2}) {
            if (!fp::from_bytes_be(in + o, q->c0) || !fp::from_bytes_be(in + o + fp::nbytes, q->c1)) return false;
            o += 2 * fp::nbytes;
        }
    out = r;
    return true;
}

} // namespace cuzk
