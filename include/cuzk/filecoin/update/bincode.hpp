// cuzk — SnapDeals vanilla partition proofs in Filecoin's bytes: bincode 1.x
// of rust-fil-proofs' storage_proofs_update::vanilla::PartitionProof<TreeR>,
// one blob per partition, as filecoin-proofs-api's generate_partition_proofs
// returns them (PartitionProofBytes) and a host hands them to a prover
// (generate_empty_sector_update_proof_with_vanilla; docs/FORMATS.md §5.6).
//
// The layout is fixed by the config: comm_c, apex_leaf_count apex leaves,
// then challenge_count ChallengeProofs, each three MerkleProofs: tree R_old
// and tree R_new with the config's tree shape (the ProofData variant Single,
// Sub or Top following its sub and top arities, the tree's level counts,
// arity − 1 sibling hashes per level), and tree D_new, the binary SHA-256
// tree: always the Single variant with log2(nodes) levels of one sibling.
// Domains are carried as bytes; whether they are canonical field elements
// and the paths hash to their roots is checked later (update_check_vanilla,
// the circuit).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "cuzk/filecoin/update/update.hpp"

namespace cuzk::filecoin {

// The bytes of `proof` (one partition). Throws errc::invalid_argument when
// the config's node count is not a power of two or does not fit its tree,
// when the proof's apex leaf or challenge counts are not the config's, or
// when a Merkle proof's levels, hash counts or positions do not fit its tree
// (sub or top level present where the tree has none, or missing).
std::vector<uint8_t> update_partition_to_bincode(const update_partition_proof& proof, const update_config& config);

// Reads one partition's bytes strictly: exactly apex_leaf_count apex leaves
// and challenge_count challenge proofs, every Merkle proof's variant and
// lengths those of its tree (tree D: log2(nodes) binary levels), positions
// below their arity, no trailing bytes. Every count must be the config's
// before anything is read under it, and no more memory is reserved than the
// bytes left can fill. Throws errc::bad_length (the bytes end early,
// or bytes are left over) or errc::bad_format (anything else), naming
// `what`, the byte offset and the field (`challenge_proofs[3].proof_r_new.
// base_proof.path[2].index`); errc::invalid_argument when the config's nodes
// do not fit its tree.
update_partition_proof update_partition_from_bincode(std::span<const uint8_t> bytes, const update_config& config,
                                                     std::string_view what);

} // namespace cuzk::filecoin
