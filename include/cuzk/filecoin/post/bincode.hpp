// cuzk — PoSt vanilla proofs in Filecoin's bytes: bincode 1.x of
// filecoin-proofs' FallbackPoStSectorProof, as generate_single_vanilla_proof
// returns them and Curio hands them to a prover (docs/FORMATS.md §5.5).
//
// The layout is fixed by the config: the ProofData variant (Single, Sub or
// Top) follows the tree's sub and top arities, every path has the tree's
// level counts and arity − 1 sibling hashes per level. Domains are carried
// as bytes; whether they are canonical field elements is checked later (the
// circuit and post_check_vanilla).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "cuzk/filecoin/post/post.hpp"

namespace cuzk::filecoin {

// The bytes of `proof` (one sector, one SectorProof). Throws
// errc::invalid_argument when the config's node count does not fit its tree,
// or when a proof's levels, hash counts or positions do not fit the tree
// (sub or top level present where the tree has none, or missing).
std::vector<uint8_t> post_vanilla_to_bincode(const post_sector_proof& proof, const post_config& config);

// Reads the bytes strictly: the variant and every length must be the
// config's tree's, exactly one SectorProof, positions below their arity, no
// trailing bytes. No length is trusted before the bytes it claims are there.
// Throws errc::bad_length (the bytes end early, or bytes are left over) or
// errc::bad_format (anything else), naming `what`, the byte offset and the
// field; errc::invalid_argument when the config's nodes do not fit its tree.
post_sector_proof post_vanilla_from_bincode(std::span<const uint8_t> bytes, const post_config& config,
                                            std::string_view what);

} // namespace cuzk::filecoin
