// cuzk — Filecoin PoRep: the shared vocabulary of the filecoin layer.
//
// A `domain` is one 32-byte node value as Filecoin stores it: the
// little-endian bytes of a BLS12-381 Fr element (labels, tree nodes,
// commitments, replica_id). SHA-256 node values are "truncated" (the two top
// bits of byte 31 cleared) so that every domain produced by the hashers is a
// canonical Fr.
//
// `seal_config` describes one PoRep shape: node count, layers, partitions,
// challenges per partition, tree shape (base/sub/top arities) and the
// porep_id with its API version. The registered proofs of Filecoin map to a
// config through `registered_seal_proof(id)`; test shapes of any node count
// are built with `seal_config::custom`.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "cuzk/ff/bls12_381.hpp"

namespace cuzk::filecoin {

using domain = std::array<uint8_t, 32>;
using porep_id_t = std::array<uint8_t, 32>;

// Fr <-> its 32-byte little-endian form. to_fr throws errc::non_canonical
// (naming `what`) when the bytes are >= the modulus.
fr domain_to_fr(const domain& d, std::string_view what = "domain");
domain fr_to_domain(const fr& x);

// Parses 64 hex digits (the 32 bytes in order, as Filecoin prints them);
// throws errc::invalid_argument naming `what`.
domain parse_hex32(std::string_view hex, std::string_view what);
std::string to_hex(const uint8_t* bytes, size_t n);
inline std::string to_hex(const domain& d) { return to_hex(d.data(), d.size()); }

// The prover id of a storage provider's actor id (f0…): the id's unsigned
// LEB128 bytes, zero-padded to 32, as Filecoin's address payload gives it.
domain prover_id_of_actor(uint64_t actor_id);

// The API version of a registered proof: it selects the order of the DRG
// parents (v1_0: v−1 last; v1_1 and v1_2: v−1 first).
enum class api_version : uint8_t { v1_0, v1_1, v1_2 };

// Tree shape: arities of the base tree, the sub level and the top level
// (0 = absent). 32 GiB is 8-8-0: eight base trees of arity 8 joined by one
// arity-8 level.
struct tree_shape {
    unsigned base = 8, sub = 0, top = 0;
    // The number of base trees (sub·top, each counting 1 when absent).
    unsigned base_trees() const { return (sub ? sub : 1) * (top ? top : 1); }
    std::string name() const;   // "8-8-0"
    // Arities a Poseidon tree takes: base 2/4/8, sub and top 0/2/4/8, top only with sub.
    bool poseidon_arities() const;
    friend bool operator==(const tree_shape&, const tree_shape&) = default;
};

// Checks the shape (poseidon_arities) and that `leaves` fits it; returns the
// height k of each base tree (leaves = base_trees · base^k, k ≥ 1). Throws
// errc::invalid_argument naming the problem.
unsigned poseidon_tree_base_height(uint64_t leaves, const tree_shape& shape);

struct seal_config {
    uint64_t nodes = 0;                 // 32-byte nodes of the sector
    unsigned layers = 0;                // SDR layers (2 or 11 in Filecoin)
    unsigned partitions = 1;
    unsigned challenges_per_partition = 0;
    tree_shape tree;
    porep_id_t porep_id{};
    api_version api = api_version::v1_1;
    int registered_id = -1;             // Filecoin's RegisteredSealProof number, or -1 for a custom shape
    std::string name;                   // "StackedDrg2KiBV1_1", or "custom" for a custom shape

    uint64_t sector_bytes() const { return nodes * 32; }
    unsigned challenges_total() const { return partitions * challenges_per_partition; }

    // A test shape; checks that `nodes` fits the tree shape (a power of the
    // arities times base_trees, at least one level) and layers in 1..15.
    static seal_config custom(uint64_t nodes, unsigned layers, unsigned challenges, tree_shape tree,
                              const porep_id_t& porep_id, api_version api = api_version::v1_1,
                              unsigned partitions = 1);
};

// porep_id of a registered proof number: id as u64 LE, then the nonce 0.
porep_id_t porep_id_of(uint64_t registered_id);

// The config of registered seal proof `id` (0..19: 2K/8M/512M/32G/64G in the
// V1, V1_1, V1_1 Synthetic and V1_2 NI families). Throws invalid_argument for
// other numbers.
seal_config registered_seal_proof(int id);

// Accepts "2KiB", "8MiB", "512MiB", "32GiB", "64GiB" (also "2048" bytes).
uint64_t parse_sector_size(std::string_view s);

} // namespace cuzk::filecoin
