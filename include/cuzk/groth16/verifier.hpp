// cuzk — Groth16 verification.
//
// A proof (A, B, C) for public inputs x_1..x_k is valid iff
//   e(A, B) = e(α, β) · e(IC_0 + Σ x_i·IC_i, γ) · e(C, δ),
// checked as one multi-Miller loop and one final exponentiation:
//   ML(A, B) · ML(acc, −γ) · ML(C, −δ) → FE → compare with e(α, β).
// The prepared key caches e(α, β) and the line coefficients of −γ and −δ.
#pragma once

#include <span>
#include <type_traits>
#include <vector>

#include "cuzk/groth16/types.hpp"
#include "cuzk/pairing/pairing.hpp"

namespace cuzk::groth16 {

template <class C>
struct prepared_verifying_key_t {
    verifying_key_t<C> vk;
    typename C::fp12 alpha_beta;          // e(α₁, β₂)
    typename C::g2_prepared neg_gamma;    // −γ₂
    typename C::g2_prepared neg_delta;    // −δ₂
    typename C::g2_prepared gamma;        // γ₂ (batch verification)
    typename C::g2_prepared delta;        // δ₂ (batch verification)
};
using prepared_verifying_key = prepared_verifying_key_t<bls12_381_curve>;

// The functions below are instantiated for bls12_381_curve and bn254_curve.
template <class C>
prepared_verifying_key_t<C> prepare_verifying_key(const verifying_key_t<C>& vk);

// Public inputs exclude the constant one. Throws errc::invalid_argument when
// their count does not match the key (ic.size() − 1); returns false for an
// invalid proof. Points are assumed decoded (on curve, in the subgroup) by
// whoever read them.
template <class C>
bool verify(const prepared_verifying_key_t<C>& pvk, const proof_t<C>& pr,
            std::span<const typename C::fr> public_inputs);

// Randomised batch check of several proofs under one key (one final
// exponentiation for all): with random 128-bit z_j,
//   Π_j ML(z_j·A_j, −B_j) · ML(Σ z_j·C_j, δ) · ML(Σ_j z_j·acc_j, γ) · e(α,β)^(Σ z_j) = 1.
// A false result means at least one proof is invalid (use verify to find it).
// Falls back to verify for a single proof.
template <class C>
bool verify_batch(const prepared_verifying_key_t<C>& pvk, std::type_identity_t<std::span<const proof_t<C>>> proofs,
                  std::span<const std::vector<typename C::fr>> public_inputs);

} // namespace cuzk::groth16
