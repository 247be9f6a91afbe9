// cuzk — the trees over a sector's columns and replica (shared by sealing and
// C1): tree C over the column hashes Poseidon_L(label_1[i], …, label_L[i]),
// tree R_last over the replica nodes label_L[i] + data[i] (in Fr), and
// comm_r = Poseidon2(comm_c, comm_r_last).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/filecoin/common/poseidon_tree.hpp"
#include "cuzk/filecoin/common/types.hpp"
#include "cuzk/filecoin/porep/labels.hpp"

namespace cuzk::filecoin {

// Poseidon of arity `layers` over each node's column; layers must be an
// arity Poseidon supports (Filecoin uses 2 and 11).
// With gpu, the hashing runs on the CUDA device (errc::unsupported without one).
std::vector<fr> column_hashes(const sdr_labels& labels, unsigned threads = 0, bool gpu = false);
fr column_hash(std::span<const domain> rows);

// The replica nodes: last layer's label + data node, in Fr. `padded` holds
// nodes × 32 bytes, each node a canonical Fr (fr32 padding guarantees it);
// errc::non_canonical naming the node otherwise.
std::vector<fr> replica_nodes(const sdr_labels& labels, std::span<const uint8_t> padded, unsigned threads = 0);

domain comm_r_of(const domain& comm_c, const domain& comm_r_last);

struct replica_trees {
    poseidon_tree tree_c;
    poseidon_tree tree_r_last;
};
// With gpu, the column hashes and both trees are hashed on the CUDA device
// (bit for bit the CPU's result).
replica_trees build_replica_trees(const seal_config& config, const sdr_labels& labels,
                                  std::span<const uint8_t> padded, unsigned threads = 0, bool gpu = false);

} // namespace cuzk::filecoin
