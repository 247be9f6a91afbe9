// cuzk — BLS12-381's part of the optimal ate pairing (curve_pairing.hpp):
// Miller loop with precomputed G2 lines in homogeneous projective
// coordinates, and the final exponentiation; lib/pairing/pairing.cpp builds
// the API of pairing/pairing.hpp on them.
//
// Notation: E: y² = x³ + 4 over Fp holds P; E': y² = x³ + b', b' = 4ξ over
// Fp2 holds Q. The untwisting map ψ(x', y') = (x'·w⁻², y'·w⁻³) sends E' into
// E(Fp12): (y'w⁻³)² = y'²/ξ and (x'w⁻²)³ + 4 = (x'³ + 4ξ)/ξ, using w⁶ = ξ.
//
// Factors that the final exponentiation kills. (p^12 − 1)/r is a multiple of
// p⁴ − 1 (r ∤ p⁴ − 1, the embedding degree being 12) and of 6·(p² − 1), so
// every element of Fp2* (order | p² − 1), of Fp4*, and every power of w
// (w⁶ = ξ, order | 6(p² − 1)) is sent to 1. Line values may therefore be
// scaled freely by such factors, and vertical lines dropped.
#include <bit>

#include "curve_pairing.hpp"
#include "miller_steps.hpp"

namespace cuzk {

namespace {

using this_curve = pairing_detail::curve_pairing<bls12_381_curve>;
using g2_prepared = g2_prepared_t<bls12_381_curve>;

// Doublings: one per bit of |x| below the top one; additions: one per set bit
// below the top one.
constexpr int loop_top = 63 - std::countl_zero(bls_x_abs);   // index of the top bit (63)
constexpr size_t n_doublings = size_t(loop_top);
constexpr size_t n_additions = size_t(std::popcount(bls_x_abs) - 1);
constexpr size_t n_coeffs = n_doublings + n_additions;   // 63 + 5 = 68
static_assert(n_coeffs == this_curve::n_coeffs);

// 3b' = 12ξ = 12(1 + u): one multiplication by ξ (two Fp additions) and a
// few additions.
fp2 mul_by_3b(const fp2& a)
{
    const fp2 t = a.mul_by_xi();
    return (t.dbl() + t).dbl().dbl();
}

using line = std::array<fp2, 3>;
using pairing_detail::g2_proj;

// The steps' lines on this M-type twist (lib/pairing/miller_steps.hpp has the
// point formulas). The untwisting x_T = x'w⁻², y_T = y'w⁻³ gives the slope
// λ = λ'·w⁻¹ on E, and a line ℓ(P) = y_P − λ'x_P·w⁻¹ + (λ'x' − y')·w⁻³
// times w³ (killed) is (λ'x' − y') − λ'x_P·w² + y_P·w³: the constant part
// first, then x_P's coefficient at w², y_P's at w³, stored as
// (constant, x coefficient, y coefficient).
line stored(const pairing_detail::line_parts<fp2>& l) { return {l.c, l.x, l.y}; }
line doubling_step(g2_proj<fp2>& t) { return stored(pairing_detail::doubling_step(t, mul_by_3b)); }
// T = ±Q never happens: T = [k]Q with 1 < k < |x| < r.
line addition_step(g2_proj<fp2>& t, const g2_affine& q) { return stored(pairing_detail::addition_step(t, q)); }

// f · ℓ(P) for a stored triple: the sparse element l0 + (l1·x_P)·w² + (l2·y_P)·w³.
inline fp12 mul_by_line(const fp12& f, const line& l, const g1_affine& p)
{
    return f.mul_by_014(l[0], l[1] * p.x, l[2] * p.y);
}

// Shared Miller loop over n pairs. For each bit i of |x| below the top, from
// high to low: f ← f² (skipped while f = 1), multiply in every pair's
// tangent line, and where bit i is set every pair's chord line. The result is
// conjugated because x < 0: f_{x,Q} = 1/(f_{|x|,Q}·v_{[|x|]Q}), the vertical
// line is killed, and 1/f equals conj(f) after the final exponentiation.
// Cost per pair: 68 sparse products (13m̃ each); shared: 62 Fp12 squarings.
fp12 miller_core(const g1_affine* ps, const g2_prepared* const* qs, size_t n)
{
    fp12 f = fp12::one();
    size_t idx = 0;
    for (int i = loop_top - 1; i >= 0; --i) {
        if (i != loop_top - 1) f = f.sqr();
        const bool add = (bls_x_abs >> i) & 1;
        for (size_t j = 0; j < n; ++j) {
            if (qs[j]->infinity || ps[j].is_identity()) continue;
            f = mul_by_line(f, qs[j]->coeffs[idx], ps[j]);
            if (add) f = mul_by_line(f, qs[j]->coeffs[idx + 1], ps[j]);
        }
        idx += add ? 2 : 1;
    }
    return bls_x_is_negative ? f.conjugate() : f;
}

// a^x for a in the cyclotomic subgroup: 63 cyclotomic squarings and 5
// multiplications for |x|, then the conjugate (= inverse) for the sign.
fp12 exp_by_x(const fp12& a)
{
    const fp12 r = a.cyclotomic_pow(bigint<1>{{bls_x_abs}});
    return bls_x_is_negative ? r.conjugate() : r;
}

g2_prepared prepare_lines(const g2_affine& q)
{
    g2_prepared out;
    out.infinity = false;
    out.coeffs.reserve(n_coeffs);
    g2_proj<fp2> t{q.x, q.y, fp2::one()};
    for (int i = loop_top - 1; i >= 0; --i) {
        out.coeffs.push_back(doubling_step(t));
        if ((bls_x_abs >> i) & 1) out.coeffs.push_back(addition_step(t, q));
    }
    return out;
}

} // namespace

/* 3⁻¹ mod r = (2r + 1)/3 = 0x4d491a377113a8daccd13ab0066be558e27e6d5755543d54aaaaaaaa00000001 */
const bigint<4> this_curve::inv_k_mod_r = {
    {0xaaaaaaaa00000001, 0xe27e6d5755543d54, 0xccd13ab0066be558, 0x4d491a377113a8da}};

g2_prepared this_curve::prepare(const g2_affine& q)
{
    return prepare_lines(q);
}

fp12 this_curve::miller(const g1_affine* ps, const g2_prepared* const* qs, size_t n)
{
    return miller_core(ps, qs, n);
}

// Final exponentiation f^((p^12 − 1)/r · 3).
//
// Easy part, (p^6 − 1)(p² + 1): f^(p^6) = conj(f), so t = conj(f)·f⁻¹, then
// m = t^(p²)·t. m lies in the cyclotomic subgroup (order | p⁴ − p² + 1), where
// inversion is conjugation and squaring may be Granger–Scott.
//
// Hard part. With r = x⁴ − x² + 1 and p = (x − 1)²·r/3 + x one checks
//   3·(p⁴ − p² + 1)/r = (x − 1)²·(x + p)·(x² + p² − 1) + 3
//                     = λ0 + λ1·p + λ2·p² + λ3·p³,
//   λ3 = (x − 1)² = x² − 2x + 1         λ2 = λ3·x = x³ − 2x² + x
//   λ1 = λ2·x − λ3 = x⁴ − 2x³ + 2x − 1  λ0 = λ1·x + 3 = x⁵ − 2x⁴ + 2x² − x + 3
// (Hayashida–Hayasaka–Teruya 2020). With exponentiation by x as the step:
//   a = m^x, b = a·conj(m²) = m^(x−2), c = b^x = m^(x²−2x), d = c^x = m^(x³−2x²),
//   e = d^x·a² = m^(x⁴−2x³+2x), g = e^x = m^(x⁵−2x⁴+2x²)
//   m^λ3 = c·m, m^λ2 = d·a, m^λ1 = e·conj(m), m^λ0 = g·conj(b)·m
// and the result is (m^λ3)^(p³)·(m^λ2)^(p²)·(m^λ1)^p·m^λ0.
// Cost: 5 exponentiations by x (63 cyclotomic squarings + 5 products each),
// one Fp12 inversion, ~12 products, 4 Frobenius maps.
fp12 this_curve::final_exp(const fp12& f)
{
    fp12 t = f.conjugate() * f.inverse();
    const fp12 m = t.frobenius_map(2) * t;

    const fp12 a = exp_by_x(m);
    const fp12 b = a * m.cyclotomic_sqr().conjugate();
    const fp12 c = exp_by_x(b);
    const fp12 d = exp_by_x(c);
    const fp12 e = exp_by_x(d) * a.cyclotomic_sqr();
    const fp12 g = exp_by_x(e);

    const fp12 l3 = c * m;
    const fp12 l2 = d * a;
    const fp12 l1 = e * m.conjugate();
    const fp12 l0 = g * b.conjugate() * m;
    return l3.frobenius_map(3) * l2.frobenius_map(2) * l1.frobenius_map(1) * l0;
}

} // namespace cuzk
