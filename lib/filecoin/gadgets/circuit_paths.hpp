// cuzk — vanilla Merkle proofs as circuit paths (private to lib/filecoin;
// shared by the PoRep, PoSt and SnapDeals circuits).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cuzk/filecoin/common/merkle_proof.hpp"
#include "cuzk/filecoin/common/types.hpp"
#include "cuzk/filecoin/gadgets/por.hpp"

namespace cuzk::filecoin::detail {

// The circuit shape of a Poseidon tree of `nodes` leaves with `tree`'s
// arities; errc::invalid_argument (naming `who`) when they do not fit.
r1cs::gadgets::tree_shape poseidon_circuit_shape(uint64_t nodes, const tree_shape& tree, const char* who);

// A path of `shape` with zero siblings and index 0 (a blank circuit's).
std::vector<r1cs::gadgets::path_level> blank_path(const r1cs::gadgets::tree_shape& shape);

// A vanilla Merkle proof as circuit path levels, checked against `shape`
// (errc::invalid_argument, errc::non_canonical; naming `what`).
std::vector<r1cs::gadgets::path_level> to_path(const merkle_proof& p, const r1cs::gadgets::tree_shape& shape,
                                               const std::string& what);

} // namespace cuzk::filecoin::detail
