// cuzk — Groth16 key and proof types.
//
// Two conventions exist in the ecosystem and a key says which one it follows
// (see docs/ARCHITECTURE.md and docs/FORMATS.md §1.3, §2.3, §2.4 and §4):
//
//   bellperson  H query in the monomial basis: h[i] = τ^i·t(τ)/δ, i < n−1;
//               roots of unity 7^t, coset generator 7; A, B_G1 and B_G2
//               queries have identity points filtered out (density bitmaps
//               say which variables remain); one extra constraint
//               input_i · 0 = 0 per public input (including "one").
//   snarkjs     H points in the Lagrange basis of the odd coset ω_2n·⟨ω_n⟩
//               (n points); roots 5^t; A, B1, B2 have one point per signal,
//               identity (all-zero) for unused signals; the R1CS A and B
//               coefficients travel with the key (zkey section 4).
//
// Variable numbering is the same in both: index 0 is the constant one, then
// the public inputs, then the auxiliary (private) variables.
#pragma once

#include <cstdint>
#include <vector>

#include "cuzk/groth16/curve.hpp"

namespace cuzk::groth16 {

enum class convention : uint8_t { bellperson = 0, snarkjs = 1 };

// Each type is a template over the curve (curve.hpp); the plain names are
// BLS12-381's.
template <class C>
struct verifying_key_t {
    typename C::g1_affine alpha_g1;
    typename C::g1_affine beta_g1;
    typename C::g2_affine beta_g2;
    typename C::g2_affine gamma_g2;
    typename C::g1_affine delta_g1;
    typename C::g2_affine delta_g2;
    std::vector<typename C::g1_affine> ic;   // one per public input plus one for "one"
};

// One entry of the snarkjs coefficient list (zkey section 4): matrix 0 = A,
// 1 = B; value is the plain coefficient (already divided out of its R²).
template <class C>
struct sparse_coef_t {
    uint32_t matrix;
    uint32_t constraint;
    uint32_t signal;
    typename C::fr value;
};

template <class C>
struct proving_key_t {
    convention conv = convention::bellperson;
    verifying_key_t<C> vk;
    uint32_t num_inputs = 0;   // including "one"
    uint32_t num_aux = 0;
    uint64_t domain_size = 0;  // n, a power of two
    std::vector<typename C::g1_affine> h;  // bellperson: n−1 monomial points; snarkjs: n Lagrange points
    std::vector<typename C::g1_affine> l;  // one per aux variable
    std::vector<typename C::g1_affine> a;  // bellperson: filtered by density; snarkjs: one per variable
    std::vector<typename C::g1_affine> b_g1;
    std::vector<typename C::g2_affine> b_g2;
    // snarkjs only: the A and B matrices (section 4), including the extra
    // input constraints; n_constraints is the count before those.
    std::vector<sparse_coef_t<C>> coefs;
    uint32_t n_constraints = 0;
};

// Which variables have a point in bellperson's filtered A and B queries
// (the prover's DensityTracker): inputs are always present in A because of
// the extra input constraints; aux j is present in A iff it occurs in some A
// combination; B tracks inputs and aux separately.
struct query_density {
    std::vector<bool> a_aux;
    std::vector<bool> b_input;
    std::vector<bool> b_aux;
};

template <class C>
struct proof_t {
    typename C::g1_affine a;
    typename C::g2_affine b;
    typename C::g1_affine c;
};

using verifying_key = verifying_key_t<bls12_381_curve>;
using sparse_coef = sparse_coef_t<bls12_381_curve>;
using proving_key = proving_key_t<bls12_381_curve>;
using proof = proof_t<bls12_381_curve>;

} // namespace cuzk::groth16
