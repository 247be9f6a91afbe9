// cuzk — a Merkle inclusion proof as Filecoin's vanilla proofs carry it.
//
// Filecoin's trees are "compound": a base tree of arity `base` over the
// leaves, then optionally one level of arity `sub` over base_trees() base
// roots, then optionally one level of arity `top`. A proof lists, leaf to
// root, one element per level: the level's arity−1 sibling hashes (the other
// children of the node in order, without the node itself) and the node's
// position among its siblings (0 … arity−1). The node's index in the tree is
// the positions read as digits, least significant (the leaf level) first.
#pragma once

#include <cstdint>
#include <vector>

#include "cuzk/filecoin/common/types.hpp"

namespace cuzk::filecoin {

struct path_element {
    std::vector<domain> hashes;   // arity − 1 siblings
    uint32_t index = 0;           // position among the arity children
    friend bool operator==(const path_element&, const path_element&) = default;
};

struct merkle_proof {
    domain leaf{};
    domain root{};
    std::vector<path_element> base;   // leaf level first
    std::vector<path_element> sub;    // empty, or one element
    std::vector<path_element> top;    // empty, or one element
    friend bool operator==(const merkle_proof&, const merkle_proof&) = default;

    // The leaf's index in the whole tree (the positions as mixed-radix digits).
    uint64_t leaf_index() const;
    size_t levels() const { return base.size() + sub.size() + top.size(); }
};

// A proof from all its levels, leaf level first: the last ones become the
// top and sub elements when `shape` has those levels (from the end: top,
// then sub), the rest are base.
merkle_proof split_levels(const domain& leaf, const domain& root, std::vector<path_element> levels,
                          const tree_shape& shape);

} // namespace cuzk::filecoin
