// cuzk — the optimal ate pairing e: G1 × G2 → GT ⊂ Fp12* of each curve
// (ec/curve.hpp: bls12_381_curve, bn254_curve), as one API of function
// templates over the curve: pairing<bn254_curve>(p, q), prepare_g2<C>(q), ….
// Instantiated for both curves in lib/pairing/.
//
// BLS12-381:  e(P, Q) = conj(f_{|x|,Q}(P))^((p^12 − 1)/r · 3)
//   x = −0xd201000000010000 is the curve seed; the Miller function of a
//   negative seed is the inverse (= conjugate, on the values that survive
//   the final exponentiation) of the one for |x|. Q lives on the M-type
//   twist E': y² = x³ + 4(1 + u) and is untwisted by (x', y') ↦ (x'/w², y'/w³).
//   The factor 3: the hard part of the final exponentiation is evaluated by
//   the usual seed-based chain, which raises to
//     3·(p⁴ − p² + 1)/r = λ0 + λ1·p + λ2·p² + λ3·p³,
//     λ3 = (x − 1)², λ2 = λ3·x, λ1 = λ2·x − λ3, λ0 = λ1·x + 3,
//   i.e. three times the minimal hard-part exponent. 3 is prime to r, so e³
//   is as bilinear and non-degenerate as e; it is the value @noble/curves
//   (bls12_381.pairing, checked byte for byte by test/test_pairing.cpp)
//   returns, and so what this library calls the pairing.
//
// BN254 (the curve of EIP-197 and snarkjs):
//   e(P, Q) = (f_{6x+2,Q}(P) · ℓ_{[6x+2]Q, π(Q)}(P) · ℓ_{[6x+2]Q+π(Q), −π²(Q)}(P))^((p^12 − 1)/r · m)
//   x = 4965661367192848881 is the seed (positive, so no conjugation), π the
//   p-power Frobenius carried to the twist, and Q lives on the D-type twist
//   E': y² = x³ + 3/ξ, untwisted by (x', y') ↦ (x'·w², y'·w³).
//   The factor m = 2x(6x² + 3x + 1): the hard part of the final
//   exponentiation uses the chain of Fuentes-Castañeda, Knapp and
//   Rodríguez-Henríquez ("Faster hashing to G2", 2011), which raises to
//   m·(p⁴ − p² + 1)/r. m is prime to r, so e is bilinear and non-degenerate;
//   it is the value @noble/curves (bn254.pairing, checked byte for byte by
//   test/test_pairing.cpp and the interop test) returns. Pairing checks
//   (Π e(Pᵢ, Qᵢ) = 1, EIP-197's question) do not depend on m.
//
// final_exponentiation_minimal gives e without the factor (3 or m) for
// whoever needs it.
//
// Inputs are affine points; the identity of either group contributes
// fp12::one(). A point that is not on its curve is rejected with
// errc::not_on_curve. Subgroup membership is not checked (callers decode
// points through the checked encodings; C::in_subgroup tests it; every
// point of BN254's E(Fp) is in G1).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/ec/curve.hpp"

namespace cuzk {

// Line coefficients of a fixed G2 point, one triple per step of the Miller
// loop: BLS12-381, a doubling per bit of |x| below the top and an addition
// per set bit (63 + 5 = 68 triples), each (a, b, c) standing for the line
// value a + (b·x_P)·w² + (c·y_P)·w³ at P = (x_P, y_P); BN254, a doubling and
// an addition per NAF digit of 6x + 2, then the two lines with π(Q) and
// −π²(Q) (65 + 21 + 2 = 88 triples), each standing for
// (a·y_P) + (b·x_P)·w + c·w³.
template <class Curve>
struct g2_prepared_t {
    std::vector<std::array<typename Curve::fp2, 3>> coeffs;
    bool infinity = true;
};

// Precomputes the Miller loop's lines for q. Throws not_on_curve.
template <class Curve>
g2_prepared_t<Curve> prepare_g2(const typename Curve::g2_affine& q);

// The Miller function value (BLS12-381: conjugated; BN254: with the two
// final lines) without the final exponentiation; one when either input is
// the identity. Throws not_on_curve for P, invalid_argument for a malformed q.
template <class Curve>
typename Curve::fp12 miller_loop(const typename Curve::g1_affine& p, const g2_prepared_t<Curve>& q);

// Π_i miller_loop(ps[i], *qs[i]) with one shared chain of squarings.
// ps.size() must equal qs.size() and no qs[i] may be null (invalid_argument).
template <class Curve>
typename Curve::fp12 multi_miller_loop(std::span<const typename Curve::g1_affine> ps,
                                       std::span<const g2_prepared_t<Curve>* const> qs);

// f^((p^12 − 1)/r · k), k = 3 (BLS12-381) or m (BN254): the easy part
// (p^6 − 1)(p² + 1), then the curve's seed chain for the hard part.
// @noble/curves' convention (see the top of this file).
template <class Curve>
typename Curve::fp12 final_exponentiation(const typename Curve::fp12& f);

// f^((p^12 − 1)/r), the minimal exponent; final_exponentiation(f) is its
// k-th power. Computed as final_exponentiation(f)^(k⁻¹ mod r): that value
// has order dividing r, and k·(k⁻¹ mod r) = 1 + j·r adds a multiple of
// p^12 − 1 to the exponent. Costs one extra cyclotomic power by a scalar.
template <class Curve>
typename Curve::fp12 final_exponentiation_minimal(const typename Curve::fp12& f);

// final_exponentiation(miller_loop(p, prepare_g2(q))).
template <class Curve>
typename Curve::fp12 pairing(const typename Curve::g1_affine& p, const typename Curve::g2_affine& q);

// Π_i e(ps[i], qs[i]) with one final exponentiation; sizes must match.
template <class Curve>
typename Curve::fp12 multi_pairing(std::span<const typename Curve::g1_affine> ps,
                                   std::span<const typename Curve::g2_affine> qs);

// Π_i e(ps[i], qs[i]) == 1 (the EIP-197 precompile's answer for BN254,
// without its subgroup check on G2); true for an empty list.
template <class Curve>
bool pairing_check(std::span<const typename Curve::g1_affine> ps, std::span<const typename Curve::g2_affine> qs);

} // namespace cuzk
