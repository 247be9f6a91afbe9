// cuzk — the tower above Fp2 used by the pairings, as templates over a
// tower-parameter struct T (ff/fp2.hpp):
//
//   Fp6  = Fp2[v]/(v³ − ξ)        element c0 + c1·v + c2·v²
//   Fp12 = Fp6[w]/(w² − v)        element c0 + c1·w
//
// with ξ = T::xi_c0 + u (BLS12-381: 1 + u, ff/fp12.hpp; BN254: 9 + u,
// ff/bn254.hpp). So w⁶ = ξ, and Fp12 has the Fp2-basis 1, w, w² = v, w³ = vw,
// w⁴ = v², w⁵ = v²w; the coefficient of wⁱ sits in
//   i:      0      1      2      3      4      5
//   field:  c0.c0  c1.c0  c0.c1  c1.c1  c0.c2  c1.c2
//
// The formulas below need only that ξ is neither a square nor a cube in Fp2
// (so that both extensions are fields) and 6 | p − 1 (the Frobenius
// coefficients, ff/tower_constants.hpp). Cost notes use m̃ / s̃ for a
// multiplication / squaring in Fp2 (3 / 2 Fp multiplications). Everything is
// host+device except bytes and random.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "cuzk/ff/fp2.hpp"
#include "cuzk/ff/tower_constants.hpp"

namespace cuzk {

// ---- Fp6 ---------------------------------------------------------------------------
template <class T>
struct fp6_t {
    using fp2 = fp2_t<T>;
    using fp = typename T::base;

    fp2 c0, c1, c2;

    CUZK_HD static constexpr fp6_t zero() { return {fp2::zero(), fp2::zero(), fp2::zero()}; }
    CUZK_HD static constexpr fp6_t one() { return {fp2::one(), fp2::zero(), fp2::zero()}; }
    CUZK_HD constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero() && c2.is_zero(); }
    CUZK_HD constexpr bool is_one() const { return c0.is_one() && c1.is_zero() && c2.is_zero(); }
    CUZK_HD friend constexpr bool operator==(const fp6_t& a, const fp6_t& b)
    {
        return a.c0 == b.c0 && a.c1 == b.c1 && a.c2 == b.c2;
    }
    CUZK_HD friend constexpr bool operator!=(const fp6_t& a, const fp6_t& b) { return !(a == b); }

    CUZK_INLINE friend fp6_t operator+(const fp6_t& a, const fp6_t& b) { return {a.c0 + b.c0, a.c1 + b.c1, a.c2 + b.c2}; }
    CUZK_INLINE friend fp6_t operator-(const fp6_t& a, const fp6_t& b) { return {a.c0 - b.c0, a.c1 - b.c1, a.c2 - b.c2}; }
    CUZK_INLINE fp6_t operator-() const { return {-c0, -c1, -c2}; }
    CUZK_INLINE fp6_t dbl() const { return {c0.dbl(), c1.dbl(), c2.dbl()}; }
    CUZK_INLINE fp6_t& operator+=(const fp6_t& b) { return *this = *this + b; }
    CUZK_INLINE fp6_t& operator-=(const fp6_t& b) { return *this = *this - b; }
    // Scaling by an Fp2 element: 3m̃.
    CUZK_INLINE fp6_t operator*(const fp2& s) const { return {c0 * s, c1 * s, c2 * s}; }

    // Multiplication by v: (c0 + c1v + c2v²)·v = ξc2 + c0·v + c1·v² (v³ = ξ).
    CUZK_INLINE fp6_t mul_by_nonresidue() const { return {c2.mul_by_xi(), c0, c1}; }

    // Karatsuba over the three coefficients, 6m̃:
    //   t_i = a_i·b_i
    //   c0 = t0 + ξ·((a1 + a2)(b1 + b2) − t1 − t2)      (a1b2 + a2b1)·v³
    //   c1 = (a0 + a1)(b0 + b1) − t0 − t1 + ξ·t2         a0b1 + a1b0 + a2b2·v³·v
    //   c2 = (a0 + a2)(b0 + b2) − t0 − t2 + t1           a0b2 + a2b0 + a1b1
    CUZK_HD friend fp6_t operator*(const fp6_t& a, const fp6_t& b)
    {
        const fp2 t0 = a.c0 * b.c0, t1 = a.c1 * b.c1, t2 = a.c2 * b.c2;
        const fp2 r0 = ((a.c1 + a.c2) * (b.c1 + b.c2) - t1 - t2).mul_by_xi() + t0;
        const fp2 r1 = (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1 + t2.mul_by_xi();
        const fp2 r2 = (a.c0 + a.c2) * (b.c0 + b.c2) - t0 - t2 + t1;
        return {r0, r1, r2};
    }
    CUZK_HD fp6_t& operator*=(const fp6_t& b) { return *this = *this * b; }

    // Chung–Hasan SQR2, 2m̃ + 3s̃:
    //   s0 = a0², s1 = 2a0a1, s2 = (a0 − a1 + a2)², s3 = 2a1a2, s4 = a2²
    //   a² = (s0 + ξs3) + (s1 + ξs4)·v + (s1 + s2 + s3 − s0 − s4)·v²
    // where the last coefficient is a1² + 2a0a2 because s2 expands to
    // a0² + a1² + a2² − 2a0a1 + 2a0a2 − 2a1a2.
    CUZK_HD fp6_t sqr() const
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
    CUZK_HD fp6_t mul_by_01(const fp2& b0, const fp2& b1) const
    {
        const fp2 t0 = c0 * b0, t1 = c1 * b1;
        return {(c2 * b1).mul_by_xi() + t0, (c0 + c1) * (b0 + b1) - t0 - t1, (c0 + c2) * b0 - t0 + t1};
    }
    // Sparse product with b1·v, 3m̃: (a0 + a1v + a2v²)·b1v = ξa2b1 + a0b1·v + a1b1·v².
    CUZK_HD fp6_t mul_by_1(const fp2& b1) const { return {(c2 * b1).mul_by_xi(), c0 * b1, c1 * b1}; }

    // 1/a = (A + Bv + Cv²)/F with
    //   A = a0² − ξa1a2, B = ξa2² − a0a1, C = a1² − a0a2, F = a0A + ξ(a2B + a1C);
    // a·(A + Bv + Cv²) = F: the v and v² coefficients cancel term by term.
    // One Fp2 inversion (hence one Fp inversion). Zero maps to zero.
    CUZK_HD fp6_t inverse() const
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
    CUZK_HD fp6_t frobenius_map(unsigned k) const
    {
        k %= 6;
        if (k == 0) return *this;
        if (k > 3) return frobenius_map(3).frobenius_map(k - 3);
        const fp2 a0 = (k & 1) ? c0.conjugate() : c0;
        const fp2 a1 = (k & 1) ? c1.conjugate() : c1;
        const fp2 a2 = (k & 1) ? c2.conjugate() : c2;
        return {a0, a1 * tower_frobenius_coeff<T>(k, 2), a2 * tower_frobenius_coeff<T>(k, 4)};
    }

    template <size_t M>
    CUZK_HD fp6_t pow(const bigint<M>& e) const
    {
        fp6_t r = one();
        for (size_t i = e.num_bits(); i-- > 0;) {
            r = r.sqr();
            if (e.bit(i)) r *= *this;
        }
        return r;
    }

    template <class Rng>
    static fp6_t random(Rng& rng)
    {
        const fp2 a = fp2::random(rng);
        const fp2 b = fp2::random(rng);
        return {a, b, fp2::random(rng)};
    }
};

// ---- Fp12 --------------------------------------------------------------------------
template <class T>
struct fp12_t {
    using fp2 = fp2_t<T>;
    using fp6 = fp6_t<T>;
    using fp = typename T::base;

    fp6 c0, c1;

    CUZK_HD static constexpr fp12_t zero() { return {fp6::zero(), fp6::zero()}; }
    CUZK_HD static constexpr fp12_t one() { return {fp6::one(), fp6::zero()}; }
    CUZK_HD constexpr bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
    CUZK_HD constexpr bool is_one() const { return c0.is_one() && c1.is_zero(); }
    CUZK_HD friend constexpr bool operator==(const fp12_t& a, const fp12_t& b) { return a.c0 == b.c0 && a.c1 == b.c1; }
    CUZK_HD friend constexpr bool operator!=(const fp12_t& a, const fp12_t& b) { return !(a == b); }

    CUZK_INLINE friend fp12_t operator+(const fp12_t& a, const fp12_t& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
    CUZK_INLINE friend fp12_t operator-(const fp12_t& a, const fp12_t& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
    CUZK_INLINE fp12_t operator-() const { return {-c0, -c1}; }
    CUZK_INLINE fp12_t dbl() const { return {c0.dbl(), c1.dbl()}; }
    CUZK_INLINE fp12_t& operator+=(const fp12_t& b) { return *this = *this + b; }
    CUZK_INLINE fp12_t& operator-=(const fp12_t& b) { return *this = *this - b; }

    // Karatsuba, 3 Fp6 products = 18m̃:
    //   (a0 + a1w)(b0 + b1w) = (t0 + v·t1) + ((a0 + a1)(b0 + b1) − t0 − t1)·w, t_i = a_i·b_i
    CUZK_HD friend fp12_t operator*(const fp12_t& a, const fp12_t& b)
    {
        const fp6 t0 = a.c0 * b.c0, t1 = a.c1 * b.c1;
        return {t0 + t1.mul_by_nonresidue(), (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1};
    }
    CUZK_HD fp12_t& operator*=(const fp12_t& b) { return *this = *this * b; }

    // Complex squaring, 2 Fp6 products = 12m̃:
    //   t = a0a1; a² = ((a0 + a1)(a0 + v·a1) − t − v·t) + 2t·w
    // since (a0 + a1)(a0 + va1) = a0² + va1² + (1 + v)·a0a1.
    CUZK_HD fp12_t sqr() const
    {
        const fp6 t = c0 * c1;
        const fp6 r0 = (c0 + c1) * (c0 + c1.mul_by_nonresidue()) - t - t.mul_by_nonresidue();
        return {r0, t.dbl()};
    }

    // 1/(a0 + a1w) = (a0 − a1w)/(a0² − v·a1²). Zero maps to zero.
    CUZK_HD fp12_t inverse() const
    {
        const fp6 d = (c0.sqr() - c1.sqr().mul_by_nonresidue()).inverse();
        return {c0 * d, -(c1 * d)};
    }

    // a0 − a1w = a^(p^6): w^(p^6) = w·ξ^((p^6 − 1)/6) = −w, as ξ is not a square
    // in Fp2 (Euler). On the cyclotomic subgroup (every pairing value) this is
    // the inverse.
    CUZK_INLINE fp12_t conjugate() const { return {c0, -c1}; }

    // x ↦ x^(p^k), any k (k mod 12; 1, 2, 3 direct, others composed, 6 is
    // conjugate). Coefficient g_i of wⁱ becomes conj^k(g_i)·γ(k, i).
    CUZK_HD fp12_t frobenius_map(unsigned k) const
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
        return {a,
                {b0 * tower_frobenius_coeff<T>(k, 1), b1 * tower_frobenius_coeff<T>(k, 3),
                 b2 * tower_frobenius_coeff<T>(k, 5)}};
    }

    // Product with the sparse element o0 + o1·w² + o4·w³ = (o0 + o1v) + (o4v)·w,
    // the shape of a line value for an M-type twist (BLS12-381, see
    // lib/pairing/pairing.cpp); the name counts Fp2 slots in the order c0.c0,
    // c0.c1, c0.c2, c1.c0, c1.c1, c1.c2. Karatsuba with L0 = o0 + o1v, L1 = o4v:
    //   t0 = a0·L0 (5m̃), t1 = a1·L1 (3m̃), c1 = (a0 + a1)(L0 + L1) − t0 − t1 (5m̃),
    //   c0 = t0 + v·t1;  13m̃ in all instead of 18m̃.
    CUZK_HD fp12_t mul_by_014(const fp2& o0, const fp2& o1, const fp2& o4) const
    {
        const fp6 t0 = c0.mul_by_01(o0, o1);
        const fp6 t1 = c1.mul_by_1(o4);
        const fp6 r1 = (c0 + c1).mul_by_01(o0, o1 + o4) - t0 - t1;
        return {t0 + t1.mul_by_nonresidue(), r1};
    }
    // Product with the sparse element o0 + o3·w + o4·w³ = o0 + (o3 + o4v)·w,
    // the shape of a line value for a D-type twist (BN254, see
    // lib/pairing/bn254_pairing.cpp); slots numbered as for mul_by_014.
    // Karatsuba with L0 = o0, L1 = o3 + o4v:
    //   t0 = a0·o0 (3m̃), t1 = a1·L1 (5m̃), c1 = (a0 + a1)(o0 + o3 + o4v) − t0 − t1 (5m̃),
    //   c0 = t0 + v·t1;  13m̃.
    CUZK_HD fp12_t mul_by_034(const fp2& o0, const fp2& o3, const fp2& o4) const
    {
        const fp6 t0 = c0 * o0;
        const fp6 t1 = c1.mul_by_01(o3, o4);
        const fp6 r1 = (c0 + c1).mul_by_01(o0 + o3, o4) - t0 - t1;
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
    CUZK_HD fp12_t cyclotomic_sqr() const
    {
        const fp2 &g0 = c0.c0, &g1 = c1.c0, &g2 = c0.c1, &g3 = c1.c1, &g4 = c0.c2, &g5 = c1.c2;
        fp2 a0x, a0y, a1x, a1y, a2x, a2y;
        fp4_sqr(g0, g3, a0x, a0y);   // A0²
        fp4_sqr(g1, g4, a1x, a1y);   // A1²
        fp4_sqr(g2, g5, a2x, a2y);   // A2²
        fp12_t r;
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
    CUZK_HD fp12_t pow(const bigint<M>& e) const
    {
        fp12_t r = one();
        for (size_t i = e.num_bits(); i-- > 0;) {
            r = r.sqr();
            if (e.bit(i)) r *= *this;
        }
        return r;
    }
    // The same with cyclotomic squarings: only for elements of the cyclotomic subgroup.
    template <size_t M>
    CUZK_HD fp12_t cyclotomic_pow(const bigint<M>& e) const
    {
        fp12_t r = one();
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
    static fp12_t random(Rng& rng)
    {
        const fp6 a = fp6::random(rng);
        return {a, fp6::random(rng)};
    }
};

// ---- bytes (host) ----------------------------------------------------------------------
// 12·nbytes(Fp) bytes: the twelve Fp coefficients, each big-endian canonical, in
// the order c0.c0.c0, c0.c0.c1, c0.c1.c0, c0.c1.c1, c0.c2.c0, c0.c2.c1, c1.c0.c0,
// …, c1.c2.c1 (Fp2 as c0 then c1). This is the order of @noble/curves' Fp12.toBytes.
template <class T>
inline constexpr size_t fp12_nbytes_of = 12 * T::base::nbytes;

template <class T>
void fp12_to_bytes_be(const fp12_t<T>& a, uint8_t* out)
{
    constexpr size_t n = T::base::nbytes;
    const fp6_t<T>* h[2] = {&a.c0, &a.c1};
    size_t o = 0;
    for (const fp6_t<T>* s : h)
        for (const fp2_t<T>* q : {&s->c0, &s->c1, &s->c2}) {
            q->c0.to_bytes_be(out + o);
            q->c1.to_bytes_be(out + o + n);
            o += 2 * n;
        }
}
// Inverse of fp12_to_bytes_be; false (out untouched) when a coefficient is >= p.
template <class T>
bool fp12_from_bytes_be(const uint8_t* in, fp12_t<T>& out)
{
    using F = typename T::base;
    constexpr size_t n = F::nbytes;
    fp12_t<T> r;
    fp6_t<T>* h[2] = {&r.c0, &r.c1};
    size_t o = 0;
    for (fp6_t<T>* s : h)
        for (fp2_t<T>* q : {&s->c0, &s->c1, &s->c2}) {
            if (!F::from_bytes_be(in + o, q->c0) || !F::from_bytes_be(in + o + n, q->c1)) return false;
            o += 2 * n;
        }
    out = r;
    return true;
}

} // namespace cuzk
