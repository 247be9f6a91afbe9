// cuzk — the public inputs of one PoRep partition's circuit, in the order
// Filecoin's verifier builds them (without the leading ONE):
//   replica_id, comm_d, comm_r, then per challenge c of the partition:
//   c (comm_d path bits), the 6 DRG parents and 8 expander parents of c
//   (their tree-C path bits), c (the challenge as a number), c (tree R_last
//   path bits), c (tree-C path bits of c's column).
// A Merkle path's bits, packed little-endian, equal the leaf's index, so each
// path contributes one field element: the node number.
#pragma once

#include <cstdint>
#include <vector>

#include "cuzk/filecoin/common/types.hpp"

namespace cuzk::filecoin {

struct partition_inputs {
    std::vector<uint64_t> challenges;
    std::vector<fr> inputs;   // 3 + 18 · challenges
};

partition_inputs porep_public_inputs(const seal_config& config, const domain& replica_id, const domain& comm_d,
                                     const domain& comm_r, const domain& seed, unsigned partition);

} // namespace cuzk::filecoin
