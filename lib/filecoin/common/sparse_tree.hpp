// cuzk — a Merkle tree of which only some leaves are known (the synthetic
// C1 generator's trees).
//
// Given the values of a few leaves, each level keeps only the nodes on the
// paths from those leaves to the root plus their siblings. A sibling that no
// known leaf lies under gets a value from the caller's filler, standing for
// the hash of a subtree nobody computed; the nodes on the paths are hashed
// from their children as usual. Every path then reaches the same root, and
// a path reads its siblings straight from the stored levels.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include "cuzk/filecoin/common/merkle_proof.hpp"
#include "cuzk/filecoin/common/types.hpp"

namespace cuzk::filecoin::detail {

class sparse_tree {
public:
    using node = std::pair<uint64_t, domain>;   // index in its level, value
    // hash(children) for one parent; filler(level, index) for an untouched
    // node. Both are called from several threads at once.
    using hash_fn = std::function<domain(std::span<const domain>)>;
    using filler_fn = std::function<domain(unsigned level, uint64_t index)>;

    // `arities` from the leaf level up; `leaves` in any order, indexes unique
    // and below the product of the arities.
    sparse_tree(std::vector<unsigned> arities, std::vector<node> leaves, const hash_fn& hash,
                const filler_fn& filler, unsigned threads);

    const domain& root() const { return levels_.back().front().second; }
    // The stored node (level, index); errc::internal when it is not stored.
    const domain& at(unsigned level, uint64_t index) const;
    // The path of a known leaf, leaf level first.
    std::vector<path_element> path(uint64_t leaf) const;

private:
    std::vector<unsigned> arities_;
    std::vector<std::vector<node>> levels_;   // sorted by index
};

// Tree C / tree R_last of `shape` over `leaves` nodes: base levels, then
// the sub and top levels when present (Poseidon MerkleTree hashes).
sparse_tree sparse_poseidon_tree(const tree_shape& shape, uint64_t leaves, std::vector<sparse_tree::node> known,
                                 const sparse_tree::filler_fn& filler, unsigned threads);
// Its inclusion proof of a known leaf, the path split into base/sub/top.
merkle_proof sparse_poseidon_proof(const sparse_tree& t, const tree_shape& shape, uint64_t leaf);

// The binary SHA-256 data tree (comm_d) over `leaves` (a power of two) nodes.
sparse_tree sparse_data_tree(uint64_t leaves, std::vector<sparse_tree::node> known,
                             const sparse_tree::filler_fn& filler, unsigned threads);
merkle_proof sparse_data_proof(const sparse_tree& t, uint64_t leaf);

} // namespace cuzk::filecoin::detail
