// cuzk — the BLS12-381 optimal ate pairing e: G1 × G2 → GT ⊂ Fp12*.
//
//   e(P, Q) = conj(f_{|x|,Q}(P))^((p^12 − 1)/r · 3)
//
// x = −0xd201000000010000 is the curve seed; the Miller function of a negative
// seed is the inverse (= conjugate, on the values that survive the final
// exponentiation) of the one for |x|. Q lives on the M-type twist
// E': y² = x³ + 4(1 + u) and is untwisted by (x', y') ↦ (x'/w², y'/w³).
//
// The factor 3 in the exponent. The hard part of the final exponentiation is
// evaluated by the usual seed-based chain, which raises to
//   3·(p⁴ − p² + 1)/r = λ0 + λ1·p + λ2·p² + λ3·p³,
//   λ3 = (x − 1)², λ2 = λ3·x, λ1 = λ2·x − λ3, λ0 = λ1·x + 3,
// i.e. three times the minimal hard-part exponent. 3 is prime to r, so e³ is
// as bilinear and non-degenerate as e; it is the value @noble/curves
// (bls12_381.pairing, checked byte for byte by test/test_pairing.cpp) returns,
// and so what this library calls the pairing. final_exponentiation_minimal
// gives e itself for whoever needs it.
//
// Inputs are affine points; the identity of either group contributes
// fp12::one(). A point that is not on its curve is rejected with
// errc::not_on_curve. Subgroup membership is not checked (callers decode
// points through the checked encodings).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ff/fp12.hpp"

namespace cuzk {

// |x| for the BLS12-381 seed x = −0xd201000000010000.
inline constexpr uint64_t bls_x_abs = 0xd201000000010000ull;
inline constexpr bool bls_x_is_negative = true;

// Line coefficients of a fixed G2 point, one triple per doubling and per
// addition step of the Miller loop (63 + 5 = 68 triples). Triple (a, b, c)
// stands for the line value a + (b·x_P)·w² + (c·y_P)·w³ at P = (x_P, y_P).
struct g2_prepared {
    std::vector<std::array<fp2, 3>> coeffs;
    bool infinity = true;
};

// Precomputes the Miller loop's lines for q. Throws not_on_curve.
g2_prepared prepare_g2(const g2_affine& q);

// conj(f_{|x|,Q}(P)) without the final exponentiation (one when either input is
// the identity). Throws not_on_curve for P, invalid_argument for a malformed q.
fp12 miller_loop(const g1_affine& p, const g2_prepared& q);

// Π_i miller_loop(ps[i], *qs[i]) with one shared chain of squarings.
// ps.size() must equal qs.size() and no qs[i] may be null (invalid_argument).
fp12 multi_miller_loop(std::span<const g1_affine> ps, std::span<const g2_prepared* const> qs);

// f^((p^12 − 1)/r · 3): easy part (p^6 − 1)(p² + 1), then the seed chain for
// 3·(p⁴ − p² + 1)/r. The convention of @noble/curves (see the top of this file).
fp12 final_exponentiation(const fp12& f);

// f^((p^12 − 1)/r), the minimal exponent; its cube is final_exponentiation(f).
// Computed as final_exponentiation(f)^(3⁻¹ mod r): that value has order
// dividing r, and 3·(3⁻¹ mod r) = 1 + m·r adds a multiple of p^12 − 1 to the
// exponent. Costs one extra 255-bit cyclotomic power.
fp12 final_exponentiation_minimal(const fp12& f);

// final_exponentiation(miller_loop(p, prepare_g2(q))).
fp12 pairing(const g1_affine& p, const g2_affine& q);

// Π_i e(ps[i], qs[i]) with one final exponentiation; sizes must match.
fp12 multi_pairing(std::span<const g1_affine> ps, std::span<const g2_affine> qs);

} // namespace cuzk
