// cuzk — Filecoin's compound Poseidon Merkle trees (tree C and tree R_last).
//
// Shape {base, sub, top} (see tree_shape in types.hpp): the leaves are cut
// into base_trees() equal, contiguous base trees of arity `base`; their roots
// are hashed `sub` at a time by one sub level (when sub ≠ 0), and those
// results `top` at a time by one top level (when top ≠ 0), ending in one
// root. Every node is the MerkleTree-tagged Poseidon hash of its children in
// order. Each base tree holds base^k leaves, k ≥ 1.
//
// Because the base trees are contiguous and equal, level k of all of them
// side by side is one array in which node j hashes nodes base·j … base·j +
// base − 1 of level k − 1; the tree keeps exactly those arrays.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/filecoin/common/merkle_proof.hpp"
#include "cuzk/filecoin/common/types.hpp"

namespace cuzk::filecoin {

class poseidon_tree {
public:
    // Builds every level with batched hashing on `threads` workers (0 = all
    // cores). Leaves must be canonical Fr encodings (errc::non_canonical).
    poseidon_tree(std::span<const domain> leaves, const tree_shape& shape, unsigned threads = 0);
    poseidon_tree(std::vector<fr> leaves, const tree_shape& shape, unsigned threads = 0);

    // A tree whose levels were hashed elsewhere (the device's tree builder):
    // base_levels[0] the leaves, then every base level, the sub level's
    // nodes (empty without sub) and the root. The level sizes are checked
    // against the shape (errc::invalid_argument), the hashes are not.
    static poseidon_tree from_levels(const tree_shape& shape, std::vector<std::vector<fr>> base_levels,
                                     std::vector<fr> sub_level, const fr& root);

    const tree_shape& shape() const { return shape_; }
    uint64_t leaves() const { return base_levels_[0].size(); }
    unsigned base_height() const { return unsigned(base_levels_.size() - 1); }
    fr root_fr() const { return root_; }
    domain root() const;

    // Level k (0 = leaves, base_height() = the base roots) of all base trees
    // side by side; then the sub level's nodes (empty without sub).
    std::span<const fr> base_level(unsigned k) const { return base_levels_.at(k); }
    std::span<const fr> sub_level() const { return sub_level_; }

    // The inclusion proof of leaf `index` (errc::invalid_argument when out
    // of range): leaf, root and per level the siblings and the position.
    merkle_proof prove(uint64_t index) const;

private:
    poseidon_tree() = default;
    void build(unsigned threads);

    tree_shape shape_;
    std::vector<std::vector<fr>> base_levels_;
    std::vector<fr> sub_level_;
    fr root_;
};

// Recomputes the root from proof.leaf and the path and compares it with
// proof.root. False when the path does not match the shape (level counts,
// sibling counts, positions ≥ arity), a value is not a canonical Fr, or the
// root differs.
bool verify_poseidon_proof(const merkle_proof& proof, const tree_shape& shape);

// The root alone, without keeping the levels: base subtrees are reduced in
// parallel chunks straight from the leaves, so the extra memory is a small
// fraction of the leaves.
fr poseidon_tree_root(std::span<const domain> leaves, const tree_shape& shape, unsigned threads = 0);
fr poseidon_tree_root(std::span<const fr> leaves, const tree_shape& shape, unsigned threads = 0);
inline domain tree_root_only(std::span<const domain> leaves, const tree_shape& shape, unsigned threads = 0)
{
    domain d;
    poseidon_tree_root(leaves, shape, threads).to_bytes_le(d.data());
    return d;
}

} // namespace cuzk::filecoin
