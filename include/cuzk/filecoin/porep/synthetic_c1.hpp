// cuzk — a C1 output for any PoRep shape without sealing a sector, so that
// the full-size circuit can be synthesized, proved and benchmarked on a
// machine that could never seal it.
//
// A C1 output only shows the nodes its challenges touch: each challenged
// node, its 6 DRG and 8 expander parents (their columns), its data and
// replica leaves, and the Merkle paths above them. The generator gives
// values to exactly those nodes and makes them consistent:
//   - the challenges come from (replica_id, seed) as usual (interactive
//     derivation only: the synthetic and non-interactive kinds derive them
//     from comm_r, which in turn depends on the challenged nodes, so those
//     configs are refused with errc::unsupported);
//   - a column that is not a challenged node's holds random rows; a
//     challenged node's rows are its labels, computed layer by layer in
//     ascending node order from its parents' rows (base parents in the same
//     layer, expander parents in the previous one), so that every labelling
//     proof recomputes;
//   - data leaves are random (or zero, see below); replica = last label + data;
//   - the three trees (comm_d's binary SHA-256 tree, tree C over the column
//     hashes, tree R_last over the replica) are sparse: every untouched
//     subtree next to a touched path is one random value standing for its
//     (unknown) hash, and the touched nodes are hashed up to the root, so all
//     paths of a tree share one root; comm_r = Poseidon2(comm_c, comm_r_last).
// The result passes verify_c1, and the same seed always gives the same output.
//
// Values from the 64-bit generator seed s: each is
//   trunc(SHA-256("cuzk-synthetic-c1" ‖ s u64 LE ‖ tag u8 ‖ a u64 LE ‖ b u64 LE))
// (trunc clears the two top bits, so every value is a canonical Fr below
// 2^254, like real labels). Tags: 1 ticket, 2 interactive seed, 3 replica_id,
// 4 prover_id, 5 column row (a = node, b = layer), 6 data leaf (a = node),
// 7/8/9 filler of comm_d / tree C / tree R_last (a = level, b = index); the
// sector number is the first 8 bytes of tag 10, little-endian.
// With random data replica_id is drawn directly (tag 3): it cannot be derived
// from comm_d, which depends on the challenged nodes and so on replica_id.
// With zero data (a committed-capacity sector) comm_d is the zero commitment,
// known up front, so replica_id is derived as Filecoin does from the prover
// id, the sector number, the ticket and comm_d, and verify_c1 also passes
// with synthetic_identity(s) (or with the identity the options give).
#pragma once

#include <cstdint>
#include <optional>

#include "cuzk/filecoin/common/types.hpp"
#include "cuzk/filecoin/porep/vanilla.hpp"
#include "cuzk/filecoin/porep/vanilla_verify.hpp"

namespace cuzk::filecoin {

struct synthetic_c1_options {
    uint64_t seed = 0;        // the generator seed
    bool zero_data = false;   // a committed-capacity (all-zero) sector instead of random data
    unsigned threads = 0;     // 0 = all cores
    // Zero data: who sealed it (replica_id derives from it), e.g. a storage
    // provider's prover id so that a daemon's request for that miner checks;
    // none: synthetic_identity(seed).
    std::optional<c1_identity> identity;
};

// A consistent C1 output for `config` (see above). Throws errc::unsupported
// for synthetic or non-interactive challenge kinds and for a layer count
// Poseidon has no column arity for; errc::invalid_argument when the node
// count is not a power of two (the comm_d tree is binary).
c1_output synthetic_c1(const seal_config& config, const synthetic_c1_options& options);
c1_output synthetic_c1(const seal_config& config, uint64_t seed, unsigned threads = 0);

// The prover id and sector number of a zero-data output of generator seed s.
c1_identity synthetic_identity(uint64_t seed);

} // namespace cuzk::filecoin
