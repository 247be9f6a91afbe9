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
//
// The snarkjs path serves BLS12-381 and BN254 keys alike (templates over the
// curve, curve.hpp); the bellperson path is BLS12-381's only.
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
// ones are summed by batch addition, the rest go through Pippenger. One
// overload per group of each curve (the same code).
g1_jacobian msm_witness(std::span<const g1_affine> points, std::span<const fr> scalars, unsigned threads);
g2_jacobian msm_witness(std::span<const g2_affine> points, std::span<const fr> scalars, unsigned threads);
bn254::g1_jacobian msm_witness(std::span<const bn254::g1_affine> points, std::span<const bn254::fr> scalars,
                               unsigned threads);
bn254::g2_jacobian msm_witness(std::span<const bn254::g2_affine> points, std::span<const bn254::fr> scalars,
                               unsigned threads);

// The templates below serve both curves: they are instantiated for
// bls12_381_curve and bn254_curve (compute_h_snarkjs for their scalar
// fields) in lib/groth16/prover.cpp; C is deduced from the key, so the
// BLS12-381 calls read as before.

// The five query sums of one proof, before blinding.
template <class C>
struct query_sums_t {
    typename C::g1_jacobian h;      // Σ h_j·H_j
    typename C::g1_jacobian l;      // Σ aux_k·L_k
    typename C::g1_jacobian a;      // Σ a_i·A_i
    typename C::g1_jacobian b_g1;   // Σ a_i·B_i in G1
    typename C::g2_jacobian b_g2;   // Σ a_i·B_i in G2
};
using query_sums = query_sums_t<bls12_381_curve>;
// The proof from the query sums and the blinding factors r, s:
// A = α + ΣA + r·δ, B = β + ΣB + s·δ, C = ΣL + ΣH + s·A + r·(β + ΣB₁ + s·δ) − r·s·δ.
template <class C>
proof_t<C> assemble_proof(const verifying_key_t<C>& vk, const query_sums_t<C>& q, const typename C::fr& r,
                          const typename C::fr& s);

// h for the bellperson convention (BLS12-381 only): takes a, b, c with one
// entry per row (constraints plus input constraints, at most n), returns the
// n − 1 coefficients of h = (a·b − c)/Z in the monomial basis.
std::vector<fr> compute_h_bellperson(std::vector<fr> a, std::vector<fr> b, std::vector<fr> c,
                                     uint64_t domain_size, unsigned threads);
// The snarkjs convention, over either scalar field F: a and b with one entry
// per row (at most n); c = a∘b row by row; returns the n values of A·B − C
// on the odd coset ω_2n·⟨ω_n⟩ (roots 5^t), where A, B, C interpolate a, b, c
// over ⟨ω_n⟩. n must be a power of two with 2n within the field's 2-adicity
// (BN254: n <= 2^27); errc::invalid_argument otherwise.
template <class F>
std::vector<F> compute_h_snarkjs(std::vector<F> a, std::vector<F> b, uint64_t domain_size, unsigned threads);

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
// signals, then private ones), on either curve.
template <class C>
proof_t<C> prove_snarkjs(const proving_key_t<C>& pk, std::span<const typename C::fr> witness,
                         const typename C::fr& r, const typename C::fr& s, const prove_options& opt = {},
                         prove_timings* timings = nullptr);
template <class C>
proof_t<C> prove_snarkjs(const proving_key_t<C>& pk, std::span<const typename C::fr> witness,
                         const prove_options& opt = {}, prove_timings* timings = nullptr);

} // namespace cuzk::groth16
