// cuzk — the Groth16 prover on the CPU backend.
//
// Both key conventions (see types.hpp) share the MSM part; they differ in how
// H is computed:
//   bellperson: a, b, c (one value per constraint, plus the extra input
//     constraints) → 3 iNTT → 3 coset NTT (shift 7) → (a·b − c)/Z on the coset
//     → coset iNTT → n − 1 monomial coefficients of h, MSM with the H query.
//     7 NTTs of size n.
//   snarkjs: a, b from the key's coefficient list, c = a∘b → for each: iNTT,
//     scale by ω_2n^i, NTT → values on the odd coset; P = a·b − c is MSM'd
//     directly with the key's Lagrange H points. 6 NTTs of size n.
// Then A, B (G1 and G2), C from the queries. Scalars equal to 0 are skipped
// and scalars equal to 1 are summed by batch addition instead of Pippenger
// (witnesses of SHA-256-like circuits are mostly bits).
//
// r and s are the blinding factors: the overloads without them draw both
// from the OS CSPRNG; passing them explicitly is for tests only.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/groth16/types.hpp"

namespace cuzk::groth16 {

struct prove_options {
    unsigned threads = 0;   // 0 = all hardware threads
};

// Wall time of each step of one proof, in nanoseconds.
struct prove_timings {
    uint64_t h_ns = 0;      // the NTT part (H coefficients or coset values)
    uint64_t msm_h_ns = 0;
    uint64_t msm_l_ns = 0;
    uint64_t msm_a_ns = 0;
    uint64_t msm_b1_ns = 0;
    uint64_t msm_b2_ns = 0;
    uint64_t total_ns = 0;
};

// Σ k_i·P_i for witness-like scalars in Montgomery form: zeros are skipped,
// ones are summed by batch addition, the rest go through Pippenger.
g1_jacobian msm_witness(std::span<const g1_affine> points, std::span<const fr> scalars, unsigned threads);
g2_jacobian msm_witness(std::span<const g2_affine> points, std::span<const fr> scalars, unsigned threads);

// The five query sums of one proof, before blinding.
struct query_sums {
    g1_jacobian h;      // Σ h_j·H_j
    g1_jacobian l;      // Σ aux_k·L_k
    g1_jacobian a;      // Σ a_i·A_i
    g1_jacobian b_g1;   // Σ a_i·B_i in G1
    g2_jacobian b_g2;   // Σ a_i·B_i in G2
};
// The proof from the query sums and the blinding factors r, s:
// A = α + ΣA + r·δ, B = β + ΣB + s·δ, C = ΣL + ΣH + s·A + r·(β + ΣB₁ + s·δ) − r·s·δ.
proof assemble_proof(const verifying_key& vk, const query_sums& q, const fr& r, const fr& s);

// h for the bellperson convention: takes a, b, c with one entry per row
// (constraints plus input constraints, at most n), returns the n − 1
// coefficients of h = (a·b − c)/Z in the monomial basis.
std::vector<fr> compute_h_bellperson(std::vector<fr> a, std::vector<fr> b, std::vector<fr> c,
                                     uint64_t domain_size, unsigned threads);
// The snarkjs convention: a and b with one entry per row (at most n);
// c = a∘b row by row; returns the n values of A·B − C on the odd coset
// ω_2n·⟨ω_n⟩, where A, B, C interpolate a, b, c over ⟨ω_n⟩.
std::vector<fr> compute_h_snarkjs(std::vector<fr> a, std::vector<fr> b, uint64_t domain_size, unsigned threads);

// bellperson-convention proof from constraint evaluations. a, b, c hold one
// value per constraint (num_constraints entries, the input constraints are
// appended here); inputs start with the constant one.
proof prove_bellperson(const proving_key& pk, const query_density& density, std::vector<fr> a,
                       std::vector<fr> b, std::vector<fr> c, std::span<const fr> inputs,
                       std::span<const fr> aux, const fr& r, const fr& s, const prove_options& opt = {},
                       prove_timings* timings = nullptr);
proof prove_bellperson(const proving_key& pk, const query_density& density, std::vector<fr> a,
                       std::vector<fr> b, std::vector<fr> c, std::span<const fr> inputs,
                       std::span<const fr> aux, const prove_options& opt = {}, prove_timings* timings = nullptr);

// snarkjs-convention proof from the full witness (w[0] = 1, then public
// signals, then private ones).
proof prove_snarkjs(const proving_key& pk, std::span<const fr> witness, const fr& r, const fr& s,
                    const prove_options& opt = {}, prove_timings* timings = nullptr);
proof prove_snarkjs(const proving_key& pk, std::span<const fr> witness, const prove_options& opt = {},
                    prove_timings* timings = nullptr);

} // namespace cuzk::groth16
