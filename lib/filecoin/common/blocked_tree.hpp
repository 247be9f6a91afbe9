// cuzk — a Merkle tree whose leaves are constant on aligned blocks (the
// made-up SnapDeals update's trees; private to lib/filecoin).
//
// A block is the subtree under one node of level `block_levels`: every leaf
// in it has the block's value, so each level inside it is one value per
// block (the hash of `arity` copies of the level below), and only the levels
// above the blocks are stored node by node. A 32 GiB tree of 2^15 blocks is
// hashed in seconds, and its paths are those of the full tree.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "cuzk/filecoin/common/merkle_proof.hpp"
#include "cuzk/filecoin/common/types.hpp"

namespace cuzk::filecoin::detail {

class blocked_tree {
public:
    using hash_fn = std::function<domain(std::span<const domain>)>;
    // `arities` from the leaf level up; the first `block_levels` of them lie
    // inside a block; one value per block. `hash` is called from several
    // threads at once.
    blocked_tree(std::vector<unsigned> arities, unsigned block_levels, std::vector<domain> blocks,
                 const hash_fn& hash, unsigned threads);
    uint64_t block_size() const { return block_size_; }
    const domain& leaf(uint64_t i) const { return chains_[(i / block_size_) * (block_levels_ + 1)]; }
    const domain& root() const { return levels_.back().front(); }
    // The path of leaf i, leaf level first (all levels in base).
    std::vector<path_element> path(uint64_t i) const;
    // The node at `level` (0 = leaves) and index.
    const domain& node(unsigned level, uint64_t index) const;

private:
    std::vector<unsigned> arities_;
    unsigned block_levels_;
    uint64_t block_size_ = 1;
    std::vector<domain> chains_;                // per block: its value at levels 0..block_levels
    std::vector<std::vector<domain>> levels_;   // levels block_levels .. root, node by node
};

// Tree R (Poseidon, `shape`) and tree D (binary SHA-256) over `blocks`
// values of block_size leaves each (block_size a power of the base arity,
// within one base tree; for tree D any power of two).
blocked_tree blocked_poseidon_tree(const tree_shape& shape, uint64_t leaves, std::vector<domain> blocks,
                                   unsigned threads);
blocked_tree blocked_data_tree(uint64_t leaves, std::vector<domain> blocks, unsigned threads);
// A tree R path split into base/sub/top as Filecoin's proofs carry it.
merkle_proof blocked_poseidon_proof(const blocked_tree& t, const tree_shape& shape, uint64_t leaf);
merkle_proof blocked_data_proof(const blocked_tree& t, uint64_t leaf);

} // namespace cuzk::filecoin::detail
