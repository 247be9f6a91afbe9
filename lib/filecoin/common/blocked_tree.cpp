// cuzk — Merkle trees constant on aligned blocks (blocked_tree.hpp).
#include "blocked_tree.hpp"

#include <bit>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/hashers.hpp"
#include "cuzk/filecoin/common/poseidon.hpp"
#include "cuzk/util/parallel.hpp"

namespace cuzk::filecoin::detail {

namespace {

[[noreturn]] void bad(const std::string& msg) { throw error(errc::invalid_argument, msg); }

domain poseidon_node(std::span<const domain> children)
{
    std::vector<fr> in;
    in.reserve(children.size());
    for (const domain& c : children) in.push_back(domain_to_fr(c, "tree node"));
    return fr_to_domain(poseidon_hash(in));
}

domain sha_node(std::span<const domain> children) { return sha256_node(children[0], children[1]); }

// log_arity(size) when size is a power of `arity` (≥ 1), else -1.
int levels_of(uint64_t size, unsigned arity)
{
    int k = 0;
    for (; size > 1; size /= arity, ++k)
        if (size % arity) return -1;
    return k;
}

} // namespace

blocked_tree::blocked_tree(std::vector<unsigned> arities, unsigned block_levels, std::vector<domain> blocks,
                           const hash_fn& hash, unsigned threads)
    : arities_(std::move(arities)), block_levels_(block_levels)
{
    if (block_levels > arities_.size()) bad("blocked_tree: more block levels than levels");
    for (unsigned l = 0; l < block_levels; ++l) block_size_ *= arities_[l];
    const size_t w = block_levels + 1;
    chains_.resize(blocks.size() * w);
    parallel_for(blocks.size() < 64 ? 1 : threads, blocks.size(), [&](size_t b, size_t e, unsigned) {
        std::vector<domain> same;
        for (size_t i = b; i < e; ++i) {
            chains_[i * w] = blocks[i];
            for (unsigned l = 0; l < block_levels; ++l) {
                same.assign(arities_[l], chains_[i * w + l]);
                chains_[i * w + l + 1] = hash(same);
            }
        }
    });
    std::vector<domain> level(blocks.size());
    for (size_t i = 0; i < blocks.size(); ++i) level[i] = chains_[i * w + block_levels];
    levels_.push_back(std::move(level));
    for (size_t l = block_levels; l < arities_.size(); ++l) {
        const std::vector<domain>& below = levels_.back();
        const unsigned a = arities_[l];
        if (below.size() % a) bad("blocked_tree: a level does not divide by its arity");
        std::vector<domain> up(below.size() / a);
        parallel_for(up.size() < 64 ? 1 : threads, up.size(), [&](size_t b, size_t e, unsigned) {
            for (size_t i = b; i < e; ++i) up[i] = hash(std::span(below).subspan(i * a, a));
        });
        levels_.push_back(std::move(up));
    }
    if (levels_.back().size() != 1) bad("blocked_tree: the levels do not end in one root");
}

const domain& blocked_tree::node(unsigned level, uint64_t index) const
{
    if (level >= block_levels_) return levels_[level - block_levels_][index];
    uint64_t per_block = block_size_;   // nodes of a block at `level`
    for (unsigned l = 0; l < level; ++l) per_block /= arities_[l];
    return chains_[(index / per_block) * (block_levels_ + 1) + level];
}

std::vector<path_element> blocked_tree::path(uint64_t i) const
{
    std::vector<path_element> out;
    uint64_t index = i;
    for (unsigned l = 0; l < arities_.size(); ++l) {
        const unsigned a = arities_[l];
        path_element e;
        e.index = uint32_t(index % a);
        const uint64_t first = index - e.index;
        for (unsigned j = 0; j < a; ++j)
            if (j != e.index) e.hashes.push_back(node(l, first + j));
        out.push_back(std::move(e));
        index /= a;
    }
    return out;
}

blocked_tree blocked_poseidon_tree(const tree_shape& shape, uint64_t leaves, std::vector<domain> blocks,
                                   unsigned threads)
{
    std::vector<unsigned> arities(poseidon_tree_base_height(leaves, shape), shape.base);
    const int in_block = blocks.empty() ? -1 : levels_of(leaves / blocks.size(), shape.base);
    if (in_block < 0 || leaves % blocks.size() || size_t(in_block) > arities.size())
        bad(fmt::format("blocked tree R: {} blocks do not cut {} leaves into base subtrees", blocks.size(), leaves));
    if (shape.sub) arities.push_back(shape.sub);
    if (shape.top) arities.push_back(shape.top);
    return blocked_tree(std::move(arities), unsigned(in_block), std::move(blocks), poseidon_node, threads);
}

blocked_tree blocked_data_tree(uint64_t leaves, std::vector<domain> blocks, unsigned threads)
{
    const int height = levels_of(leaves, 2), in_block = blocks.empty() ? -1 : levels_of(leaves / blocks.size(), 2);
    if (height < 1 || in_block < 0 || leaves % blocks.size())
        bad(fmt::format("blocked tree D: {} blocks do not cut {} leaves into subtrees", blocks.size(), leaves));
    return blocked_tree(std::vector<unsigned>(size_t(height), 2), unsigned(in_block), std::move(blocks), sha_node,
                        threads);
}

merkle_proof blocked_poseidon_proof(const blocked_tree& t, const tree_shape& shape, uint64_t leaf)
{
    return split_levels(t.leaf(leaf), t.root(), t.path(leaf), shape);
}

merkle_proof blocked_data_proof(const blocked_tree& t, uint64_t leaf)
{
    merkle_proof p;
    p.leaf = t.leaf(leaf);
    p.root = t.root();
    p.base = t.path(leaf);
    return p;
}

} // namespace cuzk::filecoin::detail
