// cuzk — Groth16 over circuits recorded in a PCE: the glue between the r1cs
// layer and the prover/setup.
//
// One proof of a C++ circuit: synthesize the witness with witness_cs (fast,
// no constraints built), evaluate a = A·w, b = B·w, c = C·w with the PCE,
// check that every constraint holds (an unsatisfied witness is reported with
// the constraint's index before any MSM runs), then prove.
#pragma once

#include <cstdint>

#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/r1cs/constraint_system.hpp"
#include "cuzk/r1cs/pce.hpp"

namespace cuzk::groth16 {

// The PCE's matrices as a setup description (borrowed: the pce must outlive it).
r1cs_description describe(const r1cs::pce& p);

// Bellperson's density bitmaps, as the PCE recorded them.
query_density density_of(const r1cs::pce& p);

struct circuit_timings {
    uint64_t synth_ns = 0;   // witness generation
    uint64_t eval_ns = 0;    // PCE evaluation and the satisfaction check
    prove_timings prove;
};

// The circuit's witness: inputs (starting with ONE) and aux.
struct assignment {
    std::vector<fr> inputs;
    std::vector<fr> aux;
};
assignment synthesize_witness(const r1cs::circuit& c);

proof prove_circuit(const proving_key& pk, const r1cs::pce& p, const query_density& d, const r1cs::circuit& c,
                    const prove_options& opt = {}, circuit_timings* timings = nullptr,
                    std::vector<fr>* public_inputs_out = nullptr);

} // namespace cuzk::groth16
