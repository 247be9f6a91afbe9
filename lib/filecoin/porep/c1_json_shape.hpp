// cuzk — internal to the C1 JSON reader and writer: the array lengths a seal
// config implies, and the names the file uses for it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "cuzk/filecoin/common/types.hpp"

namespace cuzk::filecoin::c1json {

inline constexpr unsigned k_drg_parents = 6;
inline constexpr unsigned k_exp_parents = 8;
inline constexpr unsigned k_total_parents = 37;
inline constexpr unsigned k_max_custom_partitions = 1024;
inline constexpr unsigned k_max_custom_challenges = 1024;

inline constexpr std::string_view k_custom_name = "custom";
inline constexpr std::string_view k_custom_variant = "Custom";

// One Merkle proof's expected levels: `base_levels` elements of arity
// `base`, then one element of arity `sub` and one of `top` where non-zero.
struct proof_shape {
    unsigned base = 2;
    unsigned base_levels = 0;
    unsigned sub = 0;
    unsigned top = 0;
    // serde's variant name: "Single", "Sub" or "Top".
    std::string_view variant() const { return top ? "Top" : sub ? "Sub" : "Single"; }
};

// Everything the reader checks lengths against.
struct c1_shape {
    uint64_t nodes = 0;
    unsigned layers = 0;
    unsigned partitions = 0;
    unsigned challenges = 0;   // per partition
    proof_shape comm_d;        // binary SHA-256 tree
    proof_shape tree;          // trees C and R_last
};

// The shape of `c`. Returns an empty string on success, otherwise why the
// config cannot be carried in a C1 file (node count not a power of two, or
// not a power of the base arity per base tree).
std::string shape_of(const seal_config& c, c1_shape& out);

// The vanilla_proofs variant: "StackedDrg<size>V1" for a registered proof,
// "Custom" otherwise.
std::string vanilla_variant(const seal_config& c);

// The registered proof whose RegisteredSealProof name is `name`; -1 if none.
int registered_id_of(std::string_view name);

// "1.0", "1.1", "1.2" and back (false for anything else).
std::string_view api_name(api_version v);
bool parse_api_name(std::string_view s, api_version& out);

// Parses "B-S-T" (three decimal numbers); false when malformed.
bool parse_tree_name(std::string_view s, tree_shape& out);

} // namespace cuzk::filecoin::c1json
