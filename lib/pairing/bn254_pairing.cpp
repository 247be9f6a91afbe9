// cuzk — BN254's part of the optimal ate pairing (curve_pairing.hpp): Miller
// loop over the NAF of 6x + 2 with precomputed G2 lines in homogeneous
// projective coordinates, the two Frobenius-twisted lines, and the final
// exponentiation; lib/pairing/pairing.cpp builds the API of
// pairing/pairing.hpp on them.
//
// Notation: E: y² = x³ + 3 over Fp holds P; E': y² = x³ + b', b' = 3/ξ over Fp2
// holds Q. The untwisting map ψ(x', y') = (x'·w², y'·w³) sends E' into
// E(Fp12): (y'w³)² = y'²ξ and (x'w²)³ + 3 = ξ(x'³ + 3/ξ), using w⁶ = ξ.
//
// Factors that the final exponentiation kills: as for BLS12-381
// (lib/pairing/pairing.cpp), every element of Fp2* and every power of w is
// sent to 1, so line values may be scaled by such factors and vertical
// lines dropped.
#include "curve_pairing.hpp"
#include "miller_steps.hpp"

namespace cuzk::bn254 {

namespace {

using g2_prepared = g2_prepared_t<bn254_curve>;

// The NAF of 6x + 2 (a 65-bit number), least significant digit first.
struct naf_digits {
    int8_t d[72];
    size_t n;
};
constexpr naf_digits ate_loop_naf()
{
    naf_digits r{};
    u128 v = u128(6) * seed + 2;
    while (v != 0) {
        int8_t z = 0;
        if (v & 1) {
            z = (v & 3) == 1 ? 1 : -1;
            if (z == 1) v -= 1;
            else v += 1;
        }
        r.d[r.n++] = z;
        v >>= 1;
    }
    return r;
}
constexpr naf_digits ate_naf = ate_loop_naf();
constexpr size_t count_nonzero(const naf_digits& a)
{
    size_t c = 0;
    for (size_t i = 0; i < a.n; ++i) c += a.d[i] != 0;
    return c;
}
constexpr size_t loop_top = ate_naf.n - 1;                         // index of the top digit (1)
constexpr size_t n_loop_additions = count_nonzero(ate_naf) - 1;    // below the top digit
constexpr size_t n_coeffs = loop_top + n_loop_additions + 2;       // + the two Frobenius lines
static_assert(ate_naf.d[loop_top] == 1 && loop_top == 65 && n_loop_additions == 21 &&
              n_coeffs == pairing_detail::curve_pairing<bn254_curve>::n_coeffs);

// 3b' = 9/ξ: one Fp2 product with the constant.
fp2 mul_by_3b(const fp2& a)
{
    const fp2 b = g2_curve::b();
    return a * (b.dbl() + b);
}

using line = std::array<fp2, 3>;
using pairing_detail::g2_proj;

// The steps' lines on this D-type twist (lib/pairing/miller_steps.hpp has the
// point formulas). The untwisting x_T = x'w², y_T = y'w³ gives the slope
// λ = λ'·w on E, so a line is ℓ(P) = y_P − λ'x_P·w + (λ'x' − y')·w³: y_P's
// coefficient is the constant of Fp12, x_P's sits at w and the constant part
// at w³; stored as (y coefficient, x coefficient, constant).
line stored(const pairing_detail::line_parts<fp2>& l) { return {l.y, l.x, l.c}; }
line doubling_step(g2_proj<fp2>& t) { return stored(pairing_detail::doubling_step(t, mul_by_3b)); }
// T = ±Q never happens: in the loop T = [k]Q with 2 ≤ k < 6x + 2 < r, and at
// the end T = [6x + 2]Q against π(Q) = [p]Q and then [6x + 2 + p]Q against
// −π²(Q) = [−p²]Q, none of which coincide mod r.
line addition_step(g2_proj<fp2>& t, const g2_affine& q) { return stored(pairing_detail::addition_step(t, q)); }

// π on E' (untwist, p-power Frobenius, twist back):
//   π(x, y) = (x̄·ξ^((p−1)/3), ȳ·ξ^((p−1)/2)) = (x̄·γ(1, 2), ȳ·γ(1, 3)),
// since (x'w²)^p = x̄'·w²·w^(2(p−1)) and w^(2(p−1)) = ξ^((p−1)/3) (likewise w³).
g2_affine frobenius_twist(const g2_affine& q)
{
    return {q.x.conjugate() * frobenius_coeff(1, 2), q.y.conjugate() * frobenius_coeff(1, 3)};
}

// f · ℓ(P) for a stored triple: the sparse element (l0·y_P) + (l1·x_P)·w + l2·w³.
inline fp12 mul_by_line(const fp12& f, const line& l, const g1_affine& p)
{
    return f.mul_by_034(l[0] * p.y, l[1] * p.x, l[2]);
}

// Shared Miller loop over n pairs. For each NAF digit of 6x + 2 below the
// top, from high to low: f ← f² (skipped while f = 1), multiply in every
// pair's tangent line, and where the digit is ±1 the chord with ±Q; then the
// lines with π(Q) and −π²(Q). Per pair: 88 sparse products (13m̃ each);
// shared: 64 Fp12 squarings. x > 0, so no final conjugation.
fp12 miller_core(const g1_affine* ps, const g2_prepared* const* qs, size_t n)
{
    auto live = [&](size_t j) { return !qs[j]->infinity && !ps[j].is_identity(); };
    fp12 f = fp12::one();
    size_t idx = 0;
    for (size_t i = loop_top; i-- > 0;) {
        if (i != loop_top - 1) f = f.sqr();
        const bool add = ate_naf.d[i] != 0;
        for (size_t j = 0; j < n; ++j) {
            if (!live(j)) continue;
            f = mul_by_line(f, qs[j]->coeffs[idx], ps[j]);
            if (add) f = mul_by_line(f, qs[j]->coeffs[idx + 1], ps[j]);
        }
        idx += add ? 2 : 1;
    }
    for (size_t j = 0; j < n; ++j) {
        if (!live(j)) continue;
        f = mul_by_line(f, qs[j]->coeffs[idx], ps[j]);
        f = mul_by_line(f, qs[j]->coeffs[idx + 1], ps[j]);
    }
    return f;
}

// a^x for a in the cyclotomic subgroup: 63 cyclotomic squarings and 27 products
// (x has 63 bits, 28 of them set).
fp12 exp_by_x(const fp12& a)
{
    return a.cyclotomic_pow(bigint<1>{{seed}});
}

g2_prepared prepare_lines(const g2_affine& q)
{
    g2_prepared out;
    out.infinity = false;
    out.coeffs.reserve(n_coeffs);
    const g2_affine neg_q = -q;
    g2_proj<fp2> t{q.x, q.y, fp2::one()};
    for (size_t i = loop_top; i-- > 0;) {
        out.coeffs.push_back(doubling_step(t));
        if (ate_naf.d[i] != 0) out.coeffs.push_back(addition_step(t, ate_naf.d[i] > 0 ? q : neg_q));
    }
    const g2_affine q1 = frobenius_twist(q);
    const g2_affine q2 = frobenius_twist(q1);
    out.coeffs.push_back(addition_step(t, q1));
    out.coeffs.push_back(addition_step(t, -q2));
    return out;
}

// Final exponentiation f^((p^12 − 1)/r · m).
//
// Easy part, (p^6 − 1)(p² + 1): t = conj(f)·f⁻¹, g = t^(p²)·t; g lies in the
// cyclotomic subgroup, where inversion is conjugation.
//
// Hard part: m·(p⁴ − p² + 1)/r = λ0 + λ1·p + λ2·p² + λ3·p³ with
//   λ0 = 12x³ + 12x² + 6x + 1,  λ1 = 12x³ + 6x² + 4x,
//   λ2 = 12x³ + 6x² + 6x,       λ3 = 12x³ + 6x² + 4x − 1
// (Fuentes-Castañeda, Knapp, Rodríguez-Henríquez 2011; the identity is a
// polynomial one in x after substituting p(x) and r(x), and test/test_pairing.cpp
// checks the result against a plain pow by the GMP-computed exponent). Chain:
//   a = g^x, a2 = a², a6 = a2²·a2 = g^(6x), b = a6^x = g^(6x²), b2 = b²,
//   c = b2^x = g^(12x³), d = c·b·a6 = g^λ2, e = d·conj(a2) = g^λ1,
//   g^λ3 = e·conj(g), g^λ0 = d·b·g,
// and the result is (g^λ3)^(p³)·(g^λ2)^(p²)·(g^λ1)^p·g^λ0.
// Cost: 3 exponentiations by x, one Fp12 inversion, ~12 products, 4 Frobenius maps.
fp12 final_exp(const fp12& f)
{
    const fp12 t = f.conjugate() * f.inverse();
    const fp12 g = t.frobenius_map(2) * t;

    const fp12 a = exp_by_x(g);
    const fp12 a2 = a.cyclotomic_sqr();
    const fp12 a6 = a2.cyclotomic_sqr() * a2;
    const fp12 b = exp_by_x(a6);
    const fp12 c = exp_by_x(b.cyclotomic_sqr());
    const fp12 d = c * b * a6;
    const fp12 e = d * a2.conjugate();

    const fp12 l3 = e * g.conjugate();
    const fp12 l0 = d * b * g;
    return l3.frobenius_map(3) * d.frobenius_map(2) * e.frobenius_map(1) * l0;
}

} // namespace

} // namespace cuzk::bn254

namespace cuzk {

namespace {
using this_curve = pairing_detail::curve_pairing<bn254_curve>;
}

/* m⁻¹ mod r, m = 2x(6x² + 3x + 1):
   0x30644e72e131a029048b6e193fd84104cc37a73fec2bc5e9b8ca0b2d36636f22 */
const bigint<4> this_curve::inv_k_mod_r = {
    {0xb8ca0b2d36636f22, 0xcc37a73fec2bc5e9, 0x048b6e193fd84104, 0x30644e72e131a029}};

g2_prepared_t<bn254_curve> this_curve::prepare(const bn254::g2_affine& q)
{
    return bn254::prepare_lines(q);
}
bn254::fp12 this_curve::miller(const bn254::g1_affine* ps, const g2_prepared_t<bn254_curve>* const* qs, size_t n)
{
    return bn254::miller_core(ps, qs, n);
}
bn254::fp12 this_curve::final_exp(const bn254::fp12& f)
{
    return bn254::final_exp(f);
}

} // namespace cuzk
