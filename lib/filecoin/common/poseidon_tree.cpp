// cuzk — Filecoin's compound Poseidon Merkle trees: building (all levels or
// the root alone), inclusion proofs and their verification.
#include <string>
#include <utility>
#include <vector>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/poseidon.hpp"
#include "cuzk/filecoin/common/poseidon_tree.hpp"
#include "cuzk/util/parallel.hpp"

namespace cuzk::filecoin {

namespace {

fr leaf_to_fr(const domain& d)
{
    fr x;
    if (!fr::from_bytes_le(d.data(), x)) throw error(errc::non_canonical, "poseidon tree: leaf is not a canonical Fr");
    return x;
}

domain to_domain(const fr& x)
{
    domain d;
    x.to_bytes_le(d.data());
    return d;
}

std::vector<fr> hash_level(unsigned arity, std::span<const fr> in, unsigned threads)
{
    std::vector<fr> out(in.size() / arity);
    poseidon_hash_many(arity, in, out, threads);
    return out;
}

// The sub and top levels above the base roots; returns the root.
fr finish_root(const tree_shape& shape, std::vector<fr> roots, std::vector<fr>* sub_level)
{
    if (shape.sub) {
        roots = hash_level(shape.sub, roots, 1);
        if (sub_level) *sub_level = roots;
    }
    if (shape.top) roots = hash_level(shape.top, roots, 1);
    return roots.at(0);
}

// One path element: the arity − 1 nodes around `index` in `level`.
path_element path_at(std::span<const fr> level, uint64_t index, unsigned arity)
{
    path_element e;
    e.index = uint32_t(index % arity);
    const uint64_t first = index - e.index;
    for (unsigned i = 0; i < arity; ++i)
        if (i != e.index) e.hashes.push_back(to_domain(level[first + i]));
    return e;
}

// Hashes `cur` with the siblings of `e` (cur at position e.index); false when
// e does not fit `arity` or a sibling is not canonical.
bool climb(fr& cur, const path_element& e, unsigned arity)
{
    if (e.hashes.size() != arity - 1 || e.index >= arity) return false;
    fr pre[8];
    for (unsigned i = 0, s = 0; i < arity; ++i) {
        if (i == e.index) {
            pre[i] = cur;
        } else if (!fr::from_bytes_le(e.hashes[s++].data(), pre[i])) {
            return false;
        }
    }
    cur = poseidon_hash({pre, arity});
    return true;
}

// Roots of all `chunk`-leaf subtrees (chunk = base^levels, levels ≤ height,
// about 4096 leaves), each reduced by one task in its own scratch buffer.
template <class LeafAt>
std::vector<fr> chunk_roots(uint64_t n, unsigned base, unsigned height, unsigned threads, unsigned& levels,
                            const LeafAt& leaf_at)
{
    uint64_t chunk = 1;
    levels = 0;
    while (levels < height && chunk * base <= 4096) {
        chunk *= base;
        ++levels;
    }
    std::vector<fr> roots(n / chunk);
    parallel_tasks(threads, roots.size(), [&](size_t task, unsigned) {
        std::vector<fr> s(chunk);
        for (uint64_t i = 0; i < chunk; ++i) s[i] = leaf_at(task * chunk + i);
        // In place: node g of the next level only overwrites entries < base·g.
        for (uint64_t len = chunk; len > 1; len /= base)
            for (uint64_t g = 0; g < len / base; ++g) s[g] = poseidon_hash({s.data() + g * base, base});
        roots[task] = s[0];
    });
    return roots;
}

template <class LeafAt>
fr root_only(uint64_t n, const tree_shape& shape, unsigned threads, const LeafAt& leaf_at)
{
    const unsigned height = poseidon_tree_base_height(n, shape);
    unsigned done = 0;
    std::vector<fr> level = chunk_roots(n, shape.base, height, threads, done, leaf_at);
    for (; done < height; ++done) level = hash_level(shape.base, level, threads);
    return finish_root(shape, std::move(level), nullptr);
}

} // namespace

poseidon_tree::poseidon_tree(std::span<const domain> leaves, const tree_shape& shape, unsigned threads)
    : shape_(shape)
{
    poseidon_tree_base_height(leaves.size(), shape);
    std::vector<fr> l(leaves.size());
    parallel_for(leaves.size() < 4096 ? 1 : threads, leaves.size(), [&](size_t b, size_t e, unsigned) {
        for (size_t i = b; i < e; ++i) l[i] = leaf_to_fr(leaves[i]);
    });
    base_levels_.push_back(std::move(l));
    build(threads);
}

poseidon_tree::poseidon_tree(std::vector<fr> leaves, const tree_shape& shape, unsigned threads)
    : shape_(shape)
{
    base_levels_.push_back(std::move(leaves));
    build(threads);
}

poseidon_tree poseidon_tree::from_levels(const tree_shape& shape, std::vector<std::vector<fr>> base_levels,
                                        std::vector<fr> sub_level, const fr& root)
{
    if (base_levels.empty()) throw error(errc::invalid_argument, "poseidon tree: no levels");
    const unsigned height = poseidon_tree_base_height(base_levels[0].size(), shape);
    bool ok = base_levels.size() == height + 1;
    for (unsigned k = 1; ok && k <= height; ++k) ok = base_levels[k].size() * shape.base == base_levels[k - 1].size();
    const size_t roots = base_levels.back().size();
    ok = ok && (shape.sub ? sub_level.size() * shape.sub == roots : sub_level.empty());
    if (!ok) throw error(errc::invalid_argument, "poseidon tree: level sizes do not match the shape " + shape.name());
    poseidon_tree t;
    t.shape_ = shape;
    t.base_levels_ = std::move(base_levels);
    t.sub_level_ = std::move(sub_level);
    t.root_ = root;
    return t;
}

void poseidon_tree::build(unsigned threads)
{
    const unsigned height = poseidon_tree_base_height(base_levels_[0].size(), shape_);
    for (unsigned k = 1; k <= height; ++k) base_levels_.push_back(hash_level(shape_.base, base_levels_.back(), threads));
    root_ = finish_root(shape_, base_levels_.back(), &sub_level_);
}

domain poseidon_tree::root() const { return to_domain(root_); }

merkle_proof poseidon_tree::prove(uint64_t index) const
{
    if (index >= leaves())
        throw error(errc::invalid_argument, "poseidon tree: leaf index " + std::to_string(index) + " out of range");
    merkle_proof p;
    p.leaf = to_domain(base_levels_[0][index]);
    p.root = root();
    for (unsigned k = 0; k < base_height(); ++k, index /= shape_.base)
        p.base.push_back(path_at(base_levels_[k], index, shape_.base));
    if (shape_.sub) {
        p.sub.push_back(path_at(base_levels_.back(), index, shape_.sub));
        index /= shape_.sub;
    }
    if (shape_.top) p.top.push_back(path_at(sub_level_, index, shape_.top));
    return p;
}

bool verify_poseidon_proof(const merkle_proof& proof, const tree_shape& shape)
{
    if (!shape.poseidon_arities() || proof.base.empty()) return false;
    if (proof.sub.size() != (shape.sub ? 1u : 0u) || proof.top.size() != (shape.top ? 1u : 0u)) return false;
    fr cur, root;
    if (!fr::from_bytes_le(proof.leaf.data(), cur) || !fr::from_bytes_le(proof.root.data(), root)) return false;
    for (const auto& e : proof.base)
        if (!climb(cur, e, shape.base)) return false;
    if (shape.sub && !climb(cur, proof.sub[0], shape.sub)) return false;
    if (shape.top && !climb(cur, proof.top[0], shape.top)) return false;
    return cur == root;
}

fr poseidon_tree_root(std::span<const domain> leaves, const tree_shape& shape, unsigned threads)
{
    return root_only(leaves.size(), shape, threads, [&](uint64_t i) { return leaf_to_fr(leaves[i]); });
}

fr poseidon_tree_root(std::span<const fr> leaves, const tree_shape& shape, unsigned threads)
{
    return root_only(leaves.size(), shape, threads, [&](uint64_t i) { return leaves[i]; });
}

} // namespace cuzk::filecoin
