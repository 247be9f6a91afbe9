// cuzk — a single-party Groth16 setup for tests, demos and benchmarks.
//
// NOT A TRUSTED CEREMONY: one process draws the toxic waste τ, α, β, γ, δ
// from the OS CSPRNG, uses it and forgets it. Anyone who could read this
// process's memory could forge proofs for the circuit. Production keys come
// from multi-party ceremonies (Filecoin's parameters, snarkjs phase 2).
//
// The circuit is described by its three sparse matrices over the unified
// variable index (0 = ONE, then public inputs, then aux) through a callback,
// so that a PCE or a circom .r1cs can feed it without copying.
#pragma once

#include <cstdint>
#include <functional>

#include "cuzk/groth16/types.hpp"

namespace cuzk::groth16 {

struct r1cs_description {
    uint32_t num_inputs = 0;        // including ONE
    uint32_t num_aux = 0;
    uint32_t num_constraints = 0;   // without the per-input constraints added by the conventions
    // Calls fn(matrix 0=A 1=B 2=C, row, column, coefficient) for every non-zero entry.
    std::function<void(const std::function<void(int, uint32_t, uint32_t, const fr&)>& fn)> for_each_entry;
};

struct setup_options {
    unsigned threads = 0;
};

// The smallest power of two that holds the constraints plus one input
// constraint per input (both conventions add those rows).
uint64_t groth16_domain_size(const r1cs_description& r);

// Bellperson-convention key (H in the monomial basis, roots 7^t, filtered
// A/B queries) and the matching density bitmaps for the prover.
proving_key setup_bellperson(const r1cs_description& r, query_density* density_out, const setup_options& opt = {});

// snarkjs-convention key (Lagrange H points on the odd coset, roots 5^t,
// one A/B1/B2 point per signal, coefficient list for A and B).
proving_key setup_snarkjs(const r1cs_description& r, const setup_options& opt = {});

// The densities of a circuit, computed from its matrices (bellperson's prover rules).
query_density compute_density(const r1cs_description& r);

} // namespace cuzk::groth16
