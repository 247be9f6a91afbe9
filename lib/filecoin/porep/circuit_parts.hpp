// cuzk — the PoRep partition circuit cut into parts (private to
// lib/filecoin): the global part, and per challenge the segments that
// synthesize() runs in order and witness() runs concurrently.
//
// The segments of one challenge, in allocation order:
//   0          leaf     the data leaf and its inclusion in comm_d
//   1          columns  the 14 parent columns (rows, hash, inclusion in tree
//                       C) and the challenge bits packed into an input
//   2 … L+1    label    the label of layer 1 … L
//   L+2        tail     the replica node in tree R_last, the challenged
//                       column's hash in tree C
// Labels need the columns segment's rows and challenge bits; the tail needs
// the leaf and every label. The leaf and the labels depend on nothing else
// of their challenge, so once the columns are done they can all run at once.
#pragma once

#include <vector>

#include "cuzk/filecoin/porep/circuit.hpp"
#include "cuzk/r1cs/gadgets/boolean.hpp"
#include "cuzk/r1cs/gadgets/num.hpp"
#include "cuzk/r1cs/gadgets/uint64.hpp"

namespace cuzk::filecoin::porep_parts {

// What every challenge uses from the global part.
struct globals {
    r1cs::gadgets::allocated_num comm_d, comm_c, comm_r_last;
    std::vector<r1cs::gadgets::boolean> replica_id_bits;   // SHA order
};

// What a challenge's segments hand on to later ones.
struct challenge_state {
    r1cs::gadgets::allocated_num data_leaf;
    std::vector<std::vector<r1cs::gadgets::allocated_num>> drg, exp;   // parent columns' rows
    r1cs::gadgets::uint64 challenge;
    std::vector<r1cs::gadgets::allocated_num> labels;                  // layer 1 … L
};

// The number of segments of a challenge: leaf, columns, L labels, tail.
inline unsigned segment_count(const seal_config& c) { return c.layers + 3; }

// The global part (replica_id, comm_d, comm_r, comm_r_last, comm_c and
// comm_r = Poseidon2(comm_c, comm_r_last)).
globals synthesize_globals(r1cs::constraint_system& cs, const fr& replica_id, const fr& comm_d, const fr& comm_r,
                           const fr& comm_r_last, const fr& comm_c);

// Segment `segment` (0 … segment_count − 1) of one challenge. `st` must hold
// what the earlier segments it depends on produced; st.labels must have L
// entries before a label segment runs.
void synthesize_segment(r1cs::constraint_system& cs, const seal_config& config, const porep_challenge_witness& w,
                        const globals& g, challenge_state& st, unsigned segment);

} // namespace cuzk::filecoin::porep_parts
