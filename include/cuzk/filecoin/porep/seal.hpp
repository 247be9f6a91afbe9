// cuzk — sealing a test sector and proving what was sealed (Filecoin's PC1,
// PC2 and C1 for sectors that fit in memory).
//
// Sealing: the data (fr32-padded, nodes × 32 bytes) is committed by the
// binary SHA-256 tree (comm_d); the replica id follows from the prover, the
// sector number, the ticket, comm_d and the porep id; SDR labels all layers;
// each node's column (its label in every layer) is hashed with Poseidon of
// arity `layers` into the leaves of tree C (comm_c); the replica (last label
// + data, in Fr) is committed by tree R_last (comm_r_last); and
// comm_r = Poseidon2(comm_c, comm_r_last).
//
// A sealed sector lives in a directory (docs/FORMATS.md §5.1, "Sealed
// test sector"): sector.json, data.bin, labels.bin.
// C1 reads it back, derives the challenges from a seed and writes the
// vanilla proofs of every partition (c1_output, vanilla.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cuzk/filecoin/common/types.hpp"
#include "cuzk/filecoin/porep/vanilla.hpp"

namespace cuzk::filecoin {

// Where the replica id comes from: given outright (test vectors), or derived
// from (prover_id, sector_id, ticket) and comm_d as Filecoin does.
struct replica_source {
    std::optional<domain> replica_id;
    domain prover_id{};
    uint64_t sector_id = 0;
    domain ticket{};
};

struct seal_commitments {
    domain replica_id{}, comm_d{}, comm_c{}, comm_r_last{}, comm_r{};
};

// Progress of a long step, for a caller's progress line: the step's name and
// how far it got (done of total units).
using seal_progress = std::function<void(const char* step, uint64_t done, uint64_t total)>;

// Seals `padded` (config.nodes × 32 bytes, each 32-byte node < 2^254) into
// directory `dir` (created; existing sector files are replaced) and returns
// the commitments. `threads` = 0 uses every core; with gpu, the Poseidon
// hashing (columns, tree C, tree R_last) runs on the CUDA device.
seal_commitments seal_sector(const seal_config& config, const replica_source& replica, std::vector<uint8_t> padded,
                             const std::string& dir, unsigned threads = 0, const seal_progress& progress = {},
                             bool gpu = false);

// The commitments and config recorded in a sealed sector's directory.
struct sector_info {
    seal_config config;
    seal_commitments comm;
    replica_source replica;   // replica_id always set; the rest as given at sealing
};
sector_info read_sector_info(const std::string& dir);

// C1: the vanilla proofs of every partition of the sealed sector in `dir`
// for the interactive seed `seed` (and `ticket`, which the output carries).
c1_output commit_phase1(const std::string& dir, const domain& seed, unsigned threads = 0,
                        const seal_progress& progress = {}, bool gpu = false);

} // namespace cuzk::filecoin
