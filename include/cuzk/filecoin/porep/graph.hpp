// cuzk — the SDR graph of Filecoin's stacked DRG PoRep: for each node, 6 base
// ("DRG") parents inside the same layer and 8 expander parents in the
// previous layer.
//
// Base parents come from bucket sampling seeded per node with ChaCha8 (seed =
// the first 28 bytes of SHA256("Filecoin_DRSample" ‖ porep_id), then the
// node as u32 LE); the immediate predecessor v−1 is always one of them: the
// first under api v1_1/v1_2, the last under v1_0. Nodes 0 and 1 have six
// parents 0. Expander parents are node·8+i (i < 8) pushed through a Feistel
// permutation of [0, nodes·8) keyed by SHA256("Filecoin_Feistel" ‖ porep_id)
// and divided by 8. Under v1_0 the permuted index is first cut to 32 bits
// (Filecoin's original behaviour, which only matters above 2^29 nodes).
//
// The parent cache is Filecoin's flat table: per node, 14 u32 (6 base, then 8
// expander), stored little-endian on disk; its SHA-256 is what Filecoin's
// parent_cache.json manifest records.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "cuzk/filecoin/common/feistel.hpp"
#include "cuzk/filecoin/common/hashers.hpp"
#include "cuzk/filecoin/common/types.hpp"

namespace cuzk::filecoin {

class sdr_graph {
public:
    static constexpr unsigned base_degree = 6;
    static constexpr unsigned exp_degree = 8;
    static constexpr unsigned degree = base_degree + exp_degree;

    // nodes in 1 .. 2^32−1; throws errc::invalid_argument otherwise.
    sdr_graph(uint64_t nodes, const porep_id_t& porep_id, api_version api);

    uint64_t nodes() const { return nodes_; }
    api_version api() const { return api_; }
    const porep_id_t& porep_id() const { return porep_id_; }
    const std::array<uint8_t, 28>& drg_seed() const { return drg_seed_; }
    const std::array<uint64_t, 4>& feistel_keys() const { return keys_; }

    // Parents of node v (< nodes): 6 base, 8 expander, or both (6 then 8).
    void drg_parents(uint64_t v, uint32_t out[base_degree]) const;
    void exp_parents(uint64_t v, uint32_t out[exp_degree]) const;
    void parents(uint64_t v, uint32_t out[degree]) const;

    // Expander parents of nodes [first, first+count) into out[8·count], using
    // the 8-lane Feistel path (the fast way to fill a cache).
    void exp_parents_range(uint64_t first, uint64_t count, uint32_t* out) const;

    // Filecoin's parameter identifier of the stacked graph (poseidon_hasher),
    // part of the cache name and of the circuit parameter identifiers.
    std::string identifier() const;

private:
    uint32_t exp_of_permuted(uint64_t t) const;

    uint64_t nodes_;
    porep_id_t porep_id_;
    api_version api_;
    std::array<uint8_t, 28> drg_seed_;
    std::array<uint64_t, 4> keys_;
    feistel_permutation feistel_;
};

// SHA256(tag ‖ porep_id): the per-proof seeds of the graph.
digest32 porep_domain_seed(std::string_view tag, const porep_id_t& porep_id);

// The full parent table (nodes·14 entries), built with `threads` workers
// (0 = all cores).
std::vector<uint32_t> build_parent_cache(const sdr_graph& g, unsigned threads = 0);

// SHA-256 of the cache as Filecoin's file holds it (each u32 little-endian).
digest32 parent_cache_sha256(const std::vector<uint32_t>& cache);

// The cache file stem Filecoin uses, "v28-sdr-parent-<hex>", where hex is
// SHA256("poseidon_hasher" ‖ identifier ‖ feistel keys (u64 LE) ‖ nodes (u32
// LE)) for a cache of all nodes.
std::string parent_cache_name(const sdr_graph& g);

} // namespace cuzk::filecoin
