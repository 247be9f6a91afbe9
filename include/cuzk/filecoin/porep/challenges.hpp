// cuzk — replica_id and the PoRep challenges.
//
// A challenge is a node index in 1 … nodes−1 (node 0 is never challenged):
// 32 pseudo-random bytes read as a little-endian integer h give
// (h mod (nodes−1)) + 1. Three derivations exist:
//   interactive      h = SHA-256(replica_id ‖ seed ‖ j u32 LE), j = n·k + i
//   non-interactive  h = SHA-256("filecoin.io|PoRep|1|NonInteractive|1" ‖
//                                replica_id ‖ comm_r ‖ j u32 LE)
//   synthetic        min(nodes, 2^18) "synthetic" challenges, the i-th being
//                    bytes [32i, 32i+32) of a ChaCha20 keystream keyed by a
//                    keyed BLAKE2b-256 of (replica_id ‖ comm_r); partition k's
//                    porep challenges pick among them with u32 LE indexes from
//                    a second keystream keyed by (replica_id ‖ seed).
// Partition k takes challenges n·k … n·k + n−1 of the sequence, so splitting
// into partitions never changes the whole set.
#pragma once

#include <cstdint>
#include <vector>

#include "cuzk/filecoin/common/types.hpp"

namespace cuzk::filecoin {

// trunc(SHA-256(prover_id ‖ sector_id u64 BE ‖ ticket ‖ comm_d ‖ porep_id)).
domain replica_id(const domain& prover_id, uint64_t sector_id, const domain& ticket, const domain& comm_d,
                  const porep_id_t& porep_id);

// (h mod (nodes−1)) + 1 for the 32 LE bytes h; nodes in 2 … 2^32.
uint64_t challenge_from_bytes(const uint8_t* h32, uint64_t nodes);

std::vector<uint64_t> interactive_challenges(uint64_t nodes, const domain& replica_id, const domain& seed,
                                             unsigned per_partition, unsigned k);

std::vector<uint64_t> ni_challenges(uint64_t nodes, const domain& replica_id, const domain& comm_r,
                                    unsigned per_partition, unsigned k);

// min(nodes, 2^18): the size of the synthetic challenge set.
uint64_t default_synthetic_count(uint64_t nodes);
// Synthetic challenges first … first+count−1.
std::vector<uint64_t> synthetic_challenges(uint64_t nodes, const domain& replica_id, const domain& comm_r,
                                           uint64_t first, uint64_t count);
// Partition k's indexes into the synthetic set (each < num_synth).
std::vector<uint64_t> synthetic_selection(uint64_t num_synth, const domain& replica_id, const domain& seed,
                                          unsigned per_partition, unsigned k);
// Partition k's porep challenges: the selected synthetic challenges.
// num_synth = 0 means default_synthetic_count(nodes).
std::vector<uint64_t> synthetic_porep_challenges(uint64_t nodes, const domain& replica_id, const domain& comm_r,
                                                 const domain& seed, unsigned per_partition, unsigned k,
                                                 uint64_t num_synth = 0);

// Which derivation a config uses: synthetic for registered ids 10…14,
// non-interactive for 15…19, interactive otherwise (custom shapes too).
enum class challenge_kind : uint8_t { interactive, synthetic, non_interactive };
challenge_kind challenge_kind_of(const seal_config& config);

// Partition k's challenges for `config` (comm_r is unused by interactive
// challenges, seed by non-interactive ones). Throws invalid_argument when k
// is not below config.partitions.
std::vector<uint64_t> porep_challenges(const seal_config& config, const domain& replica_id, const domain& comm_r,
                                       const domain& seed, unsigned k);

} // namespace cuzk::filecoin
