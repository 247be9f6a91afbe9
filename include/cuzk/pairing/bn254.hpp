// cuzk — the BN254 optimal ate pairing e: G1 × G2 → GT ⊂ Fp12* (the curve of
// EIP-197 and snarkjs), with the API of the BLS12-381 pairing
// (pairing/pairing.hpp) in the namespace cuzk::bn254.
//
//   e(P, Q) = (f_{6x+2,Q}(P) · ℓ_{[6x+2]Q, π(Q)}(P) · ℓ_{[6x+2]Q+π(Q), −π²(Q)}(P))^((p^12 − 1)/r · m)
//
// x = 4965661367192848881 is the seed (positive, so no conjugation), π the
// p-power Frobenius carried to the twist, and Q lives on the D-type twist
// E': y² = x³ + 3/ξ, untwisted by (x', y') ↦ (x'·w², y'·w³).
//
// The factor m = 2x(6x² + 3x + 1). The hard part of the final exponentiation
// uses the chain of Fuentes-Castañeda, Knapp and Rodríguez-Henríquez ("Faster
// hashing to G2", 2011), which raises to m·(p⁴ − p² + 1)/r. m is prime to r,
// so e is bilinear and non-degenerate; it is the value @noble/curves
// (bn254.pairing, checked byte for byte by test/test_bn254.cpp and the
// interop test) returns, so this library calls it the pairing, as it does the
// cube for BLS12-381. final_exponentiation_minimal gives the m-th root.
// Pairing checks (Π e(Pᵢ, Qᵢ) = 1, EIP-197's question) do not depend on m.
//
// Inputs are affine points; the identity of either group contributes
// fp12::one(). A point that is not on its curve is rejected with
// errc::not_on_curve. G2 subgroup membership is not checked here (see
// bn254::in_subgroup in ec/bn254.hpp); every point of E(Fp) is in G1.
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <vector>

#include "cuzk/ec/bn254.hpp"
#include "cuzk/ff/bn254.hpp"

namespace cuzk::bn254 {

// Line coefficients of a fixed G2 point: one triple per doubling and per
// addition step of the Miller loop over the NAF of 6x + 2, then the two lines
// with π(Q) and −π²(Q) (65 + 21 + 2 = 88 triples). Triple (a, b, c) stands
// for the line value (a·y_P) + (b·x_P)·w + c·w³ at P = (x_P, y_P).
struct g2_prepared {
    std::vector<std::array<fp2, 3>> coeffs;
    bool infinity = true;
};

// Precomputes the Miller loop's lines for q. Throws not_on_curve.
g2_prepared prepare_g2(const g2_affine& q);

// The Miller function value (with the two final lines) without the final
// exponentiation; one when either input is the identity. Throws
// not_on_curve for P, invalid_argument for a malformed q.
fp12 miller_loop(const g1_affine& p, const g2_prepared& q);

// Π_i miller_loop(ps[i], *qs[i]) with one shared chain of squarings.
// ps.size() must equal qs.size() and no qs[i] may be null (invalid_argument).
fp12 multi_miller_loop(std::span<const g1_affine> ps, std::span<const g2_prepared* const> qs);

// f^((p^12 − 1)/r · m), m = 2x(6x² + 3x + 1): easy part (p^6 − 1)(p² + 1),
// then the hard part by three exponentiations by x. @noble/curves' convention.
fp12 final_exponentiation(const fp12& f);

// f^((p^12 − 1)/r), the minimal exponent; final_exponentiation(f) is its m-th
// power. Computed as final_exponentiation(f)^(m⁻¹ mod r) (one extra 254-bit
// cyclotomic power).
fp12 final_exponentiation_minimal(const fp12& f);

// final_exponentiation(miller_loop(p, prepare_g2(q))).
fp12 pairing(const g1_affine& p, const g2_affine& q);

// Π_i e(ps[i], qs[i]) with one final exponentiation; sizes must match.
fp12 multi_pairing(std::span<const g1_affine> ps, std::span<const g2_affine> qs);

// Π_i e(ps[i], qs[i]) == 1 (the EIP-197 precompile's answer, without its
// subgroup check on G2); true for an empty list.
bool pairing_check(std::span<const g1_affine> ps, std::span<const g2_affine> qs);

} // namespace cuzk::bn254
