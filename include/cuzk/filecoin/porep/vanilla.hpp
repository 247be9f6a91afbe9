// cuzk — the vanilla proofs of a sealed sector (what Filecoin's C1 produces
// and C2 proves): for each challenged node, the inclusion of its data in
// comm_d, the columns of the node and of its 14 parents with their inclusion
// in tree C, the node's replica value in tree R_last, and the labelling and
// encoding records.
#pragma once

#include <cstdint>
#include <vector>

#include "cuzk/filecoin/common/merkle_proof.hpp"
#include "cuzk/filecoin/common/types.hpp"

namespace cuzk::filecoin {

// One node's column: its label in each layer (rows[0] = layer 1).
struct column_proof {
    uint32_t index = 0;                 // the node
    std::vector<domain> rows;           // layers entries
    merkle_proof inclusion;             // tree C, leaf = Poseidon(rows)
    friend bool operator==(const column_proof&, const column_proof&) = default;
};

// The preimage parents of one label (37 entries) and where it sits.
struct labeling_proof {
    std::vector<domain> parents;        // the 37 parent labels, in preimage order (also for node 0)
    uint32_t layer_index = 0;           // 1-based layer
    uint64_t node = 0;
    friend bool operator==(const labeling_proof&, const labeling_proof&) = default;
};

struct encoding_proof {
    std::vector<domain> parents;        // 37, as the last layer's labelling
    uint32_t layer_index = 0;
    uint64_t node = 0;
    friend bool operator==(const encoding_proof&, const encoding_proof&) = default;
};

struct challenge_proof {
    merkle_proof comm_d_proof;          // binary SHA-256 tree, leaf = data node
    merkle_proof comm_r_last_proof;     // tree R_last, leaf = replica node
    column_proof c_x;                   // the challenged node's column
    std::vector<column_proof> drg_parents;   // 6
    std::vector<column_proof> exp_parents;   // 8
    std::vector<labeling_proof> labeling_proofs;  // one per layer
    encoding_proof encoding;
    friend bool operator==(const challenge_proof&, const challenge_proof&) = default;
};

// SealCommitPhase1Output: everything C2 needs, plus what it carries along.
struct c1_output {
    seal_config config;                 // from registered_proof (or a custom shape)
    domain comm_r{}, comm_d{}, replica_id{}, seed{}, ticket{};
    std::vector<std::vector<challenge_proof>> partitions;   // [partition][challenge]
};

} // namespace cuzk::filecoin
