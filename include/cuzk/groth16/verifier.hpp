// cuzk — Groth16 verification.
//
// A proof (A, B, C) for public inputs x_1..x_k is valid iff
//   e(A, B) = e(α, β) · e(IC_0 + Σ x_i·IC_i, γ) · e(C, δ),
// checked as one multi-Miller loop and one final exponentiation:
//   ML(A, B) · ML(acc, −γ) · ML(C, −δ) → FE → compare with e(α, β).
// The prepared key caches e(α, β) and the line coefficients of −γ and −δ.
#pragma once

#include <span>
#include <vector>

#include "cuzk/ff/fp12.hpp"
#include "cuzk/groth16/types.hpp"
#include "cuzk/pairing/pairing.hpp"

namespace cuzk::groth16 {

struct prepared_verifying_key {
    verifying_key vk;
    fp12 alpha_beta;          // e(α₁, β₂)
    g2_prepared neg_gamma;    // −γ₂
    g2_prepared neg_delta;    // −δ₂
    g2_prepared gamma;        // γ₂ (batch verification)
    g2_prepared delta;        // δ₂ (batch verification)
};

prepared_verifying_key prepare_verifying_key(const verifying_key& vk);

// Public inputs exclude the constant one. Throws errc::invalid_argument when
// their count does not match the key (ic.size() − 1); returns false for an
// invalid proof. Points are assumed decoded (on curve, in the subgroup) by
// whoever read them.
bool verify(const prepared_verifying_key& pvk, const proof& pr, std::span<const fr> public_inputs);

// Randomised batch check of several proofs under one key (one final
// exponentiation for all): with random 128-bit z_j,
//   Π_j ML(z_j·A_j, −B_j) · ML(Σ z_j·C_j, δ) · ML(Σ_j z_j·acc_j, γ) · e(α,β)^(Σ z_j) = 1.
// A false result means at least one proof is invalid (use verify to find it).
// Falls back to verify for a single proof.
bool verify_batch(const prepared_verifying_key& pvk, std::span<const proof> proofs,
                  std::span<const std::vector<fr>> public_inputs);

} // namespace cuzk::groth16
