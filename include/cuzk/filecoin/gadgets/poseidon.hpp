// cuzk — the Poseidon hash as a circuit, exactly as neptune's (legacy)
// `poseidon_hash` circuit builds it for Filecoin (Strength::Standard).
//
// The circuit follows neptune's optimised permutation (see
// filecoin/common/poseidon.hpp: compressed round constants, a pre-sparse
// matrix and sparse partial-round matrices). The state is tracked as linear
// combinations; a value becomes a variable only where an S-box needs it:
//  - first full round: state[0] is the constant domain tag and its S-box is
//    computed as a constant. Each preimage element x (already a variable)
//    costs 3 constraints: l2 = (x + k)², l4 = l2², l5 = l4·(x + k) + k'.
//  - every other S-box (full rounds: all t elements; partial rounds:
//    state[0]) costs 4: the element's linear combination is allocated
//    (lc·1 = l), then l2 = l², l4 = l2², l5 = l4·l (+ k' when the round has
//    a constant after the S-box; the final round has none).
//  - the linear layers (M, the pre-sparse matrix, the sparse matrices) are
//    free: they only rescale and add linear combinations.
//  - the output state[1] is allocated at the end (1 constraint).
// Total 3·arity + 4·(t·(R_F − 1) + R_P) + 1, e.g. 311 for arity 2 and 505
// for arity 8. Allocation order equals neptune's, so the aux layout and
// constraints match bellperson's. On a system that keeps no constraints
// (witness generation, counting) the state is plain values: the same
// allocations in the same order at the native permutation's cost.
#pragma once

#include <span>

#include "cuzk/filecoin/common/poseidon.hpp"
#include "cuzk/r1cs/gadgets/num.hpp"

namespace cuzk::r1cs::gadgets {

// Poseidon with the constants of `c` and domain tag `tag`; the preimage
// length must equal c.arity() (errc::invalid_argument otherwise).
allocated_num poseidon_hash(constraint_system& cs, std::span<const allocated_num> preimage,
                            const filecoin::poseidon_constants& c, const fr& tag);

// The MerkleTree hash (tag 2^arity − 1) with arity = preimage.size().
allocated_num poseidon_hash(constraint_system& cs, std::span<const allocated_num> preimage);

// Filecoin's hash_md: acc = x0, then acc = P36(acc ‖ next 35) per chunk; the
// last chunk is filled with newly allocated zero variables. Needs at least 2
// elements.
allocated_num poseidon_hash_md(constraint_system& cs, std::span<const allocated_num> elements);

} // namespace cuzk::r1cs::gadgets
