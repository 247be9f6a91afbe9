// A Merkle tree of which only some leaves are known: building it level by
// level, and reading paths back.
#include "sparse_tree.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/hashers.hpp"
#include "cuzk/filecoin/common/poseidon.hpp"
#include "cuzk/filecoin/common/poseidon_tree.hpp"
#include "cuzk/util/parallel.hpp"

namespace cuzk::filecoin::detail {

namespace {

using node = sparse_tree::node;

// Where each parent's first known child sits in `level` (sorted, unique).
std::vector<size_t> group_starts(const std::vector<node>& level, unsigned arity)
{
    std::vector<size_t> starts;
    for (size_t i = 0; i < level.size(); ++i)
        if (i == 0 || level[i].first / arity != level[i - 1].first / arity) starts.push_back(i);
    return starts;
}

// One level up: `level` gains the missing siblings of its nodes (from the
// filler) and the parents are hashed from their full sets of children.
std::vector<node> climb_level(std::vector<node>& level, unsigned k, unsigned arity, const sparse_tree::hash_fn& hash,
                              const sparse_tree::filler_fn& filler, unsigned threads)
{
    const std::vector<size_t> starts = group_starts(level, arity);
    std::vector<node> filled(starts.size() * arity), up(starts.size());
    parallel_for(starts.size() < 64 ? 1 : threads, starts.size(), [&](size_t b, size_t e, unsigned) {
        std::vector<domain> children(arity);
        for (size_t g = b; g < e; ++g) {
            const uint64_t parent = level[starts[g]].first / arity;
            size_t next = starts[g];
            for (unsigned i = 0; i < arity; ++i) {
                const uint64_t idx = parent * arity + i;
                const bool known = next < level.size() && level[next].first == idx;
                children[i] = known ? level[next++].second : filler(k, idx);
                filled[g * arity + i] = {idx, children[i]};
            }
            up[g] = {parent, hash(children)};
        }
    });
    level = std::move(filled);
    return up;
}

domain poseidon_node(std::span<const domain> children)
{
    fr x[8];
    for (size_t i = 0; i < children.size(); ++i) x[i] = domain_to_fr(children[i], "tree node");
    return fr_to_domain(poseidon_hash({x, children.size()}));
}

domain sha_node(std::span<const domain> children) { return sha256_node(children[0], children[1]); }

} // namespace

sparse_tree::sparse_tree(std::vector<unsigned> arities, std::vector<node> leaves, const hash_fn& hash,
                         const filler_fn& filler, unsigned threads)
    : arities_(std::move(arities))
{
    uint64_t width = 1;
    for (unsigned a : arities_) width *= a;
    std::sort(leaves.begin(), leaves.end(), [](const node& x, const node& y) { return x.first < y.first; });
    if (leaves.empty() || leaves.back().first >= width ||
        std::adjacent_find(leaves.begin(), leaves.end(),
                           [](const node& x, const node& y) { return x.first == y.first; }) != leaves.end())
        throw error(errc::internal, "sparse_tree: leaves must be unique, present and inside the tree");
    levels_.push_back(std::move(leaves));
    for (unsigned k = 0; k < arities_.size(); ++k)
        levels_.push_back(climb_level(levels_[k], k, arities_[k], hash, filler, threads));
}

const domain& sparse_tree::at(unsigned level, uint64_t index) const
{
    const auto& l = levels_.at(level);
    const auto it =
        std::lower_bound(l.begin(), l.end(), index, [](const node& x, uint64_t i) { return x.first < i; });
    if (it == l.end() || it->first != index)
        throw error(errc::internal, fmt::format("sparse_tree: node ({}, {}) is not stored", level, index));
    return it->second;
}

std::vector<path_element> sparse_tree::path(uint64_t leaf) const
{
    at(0, leaf);   // must be known
    std::vector<path_element> out;
    for (unsigned k = 0; k < arities_.size(); ++k) {
        const unsigned a = arities_[k];
        path_element e;
        e.index = uint32_t(leaf % a);
        for (unsigned i = 0; i < a; ++i)
            if (i != e.index) e.hashes.push_back(at(k, leaf - e.index + i));
        out.push_back(std::move(e));
        leaf /= a;
    }
    return out;
}

sparse_tree sparse_poseidon_tree(const tree_shape& shape, uint64_t leaves, std::vector<node> known,
                                 const sparse_tree::filler_fn& filler, unsigned threads)
{
    std::vector<unsigned> arities(poseidon_tree_base_height(leaves, shape), shape.base);
    if (shape.sub) arities.push_back(shape.sub);
    if (shape.top) arities.push_back(shape.top);
    return sparse_tree(std::move(arities), std::move(known), poseidon_node, filler, threads);
}

merkle_proof sparse_poseidon_proof(const sparse_tree& t, const tree_shape& shape, uint64_t leaf)
{
    return split_levels(t.at(0, leaf), t.root(), t.path(leaf), shape);
}

sparse_tree sparse_data_tree(uint64_t leaves, std::vector<node> known, const sparse_tree::filler_fn& filler,
                             unsigned threads)
{
    if (leaves < 2 || (leaves & (leaves - 1)) != 0)
        throw error(errc::invalid_argument, fmt::format("comm_d tree: {} nodes is not a power of two >= 2", leaves));
    std::vector<unsigned> arities;
    for (uint64_t w = 1; w < leaves; w *= 2) arities.push_back(2);
    return sparse_tree(std::move(arities), std::move(known), sha_node, filler, threads);
}

merkle_proof sparse_data_proof(const sparse_tree& t, uint64_t leaf)
{
    merkle_proof p;
    p.leaf = t.at(0, leaf);
    p.root = t.root();
    p.base = t.path(leaf);
    return p;
}

} // namespace cuzk::filecoin::detail
