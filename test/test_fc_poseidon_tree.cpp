// Filecoin's compound Poseidon trees: the rust-fil-proofs known answer, roots
// against a naive recomputation, and inclusion proofs for every leaf.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/poseidon.hpp"
#include "cuzk/filecoin/common/poseidon_tree.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;

namespace {

fr limbs(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    return fr::from_repr(fr::repr{{a, b, c, d}});
}

domain dom(const fr& x)
{
    domain d;
    x.to_bytes_le(d.data());
    return d;
}

std::vector<domain> random_leaves(size_t n, std::mt19937_64& rng)
{
    std::vector<domain> v(n);
    for (auto& d : v) d = dom(fr::random(rng));
    return v;
}

// Reduces `nodes` by repeatedly hashing `arity` consecutive nodes, one hash at a time.
std::vector<fr> reduce(std::vector<fr> nodes, unsigned arity, size_t until)
{
    while (nodes.size() > until) {
        std::vector<fr> next;
        for (size_t i = 0; i < nodes.size(); i += arity) next.push_back(poseidon_hash({nodes.data() + i, arity}));
        nodes = next;
    }
    return nodes;
}

// The root straight from the definition: base trees, then sub, then top.
fr naive_root(const std::vector<domain>& leaves, const tree_shape& s)
{
    std::vector<fr> nodes;
    for (const auto& d : leaves) {
        fr x;
        REQUIRE(fr::from_bytes_le(d.data(), x));
        nodes.push_back(x);
    }
    nodes = reduce(nodes, s.base, s.base_trees());
    if (s.sub) nodes = reduce(nodes, s.sub, s.top ? s.top : 1);
    if (s.top) nodes = reduce(nodes, s.top, 1);
    REQUIRE(nodes.size() == 1);
    return nodes[0];
}

// The positions of a proof read as mixed-radix digits, leaf level first.
uint64_t index_of(const merkle_proof& p, const tree_shape& s)
{
    uint64_t idx = 0, scale = 1;
    for (const auto& e : p.base) {
        idx += e.index * scale;
        scale *= s.base;
    }
    for (const auto& e : p.sub) {
        idx += e.index * scale;
        scale *= s.sub;
    }
    for (const auto& e : p.top) idx += e.index * scale;
    return idx;
}

void check_shape(const tree_shape& s, size_t n, std::mt19937_64& rng)
{
    const auto leaves = random_leaves(n, rng);
    const poseidon_tree tree(leaves, s, 2);
    const fr expect = naive_root(leaves, s);
    REQUIRE(tree.root_fr() == expect);
    CHECK(tree.root() == dom(expect));
    CHECK(poseidon_tree_root(std::span<const domain>(leaves), s, 1) == expect);
    CHECK(tree_root_only(leaves, s, 3) == dom(expect));
    for (size_t i = 0; i < n; ++i) {
        const merkle_proof p = tree.prove(i);
        REQUIRE(p.leaf == leaves[i]);
        REQUIRE(p.root == tree.root());
        REQUIRE(index_of(p, s) == i);
        REQUIRE(p.sub.size() == (s.sub ? 1u : 0u));
        REQUIRE(p.top.size() == (s.top ? 1u : 0u));
        REQUIRE(verify_poseidon_proof(p, s));
        // Every tampered variant must fail.
        merkle_proof bad = p;
        bad.base[i % bad.base.size()].hashes[0][0] ^= 1;
        REQUIRE_FALSE(verify_poseidon_proof(bad, s));
        bad = p;
        auto& e = bad.base[(i / 3) % bad.base.size()];
        e.index = (e.index + 1) % s.base;
        REQUIRE_FALSE(verify_poseidon_proof(bad, s));
        bad = p;
        bad.leaf[0] ^= 1;
        REQUIRE_FALSE(verify_poseidon_proof(bad, s));
        if (s.sub) {
            bad = p;
            bad.sub[0].hashes.back()[1] ^= 4;
            REQUIRE_FALSE(verify_poseidon_proof(bad, s));
            bad = p;
            bad.sub[0].index = (bad.sub[0].index + 1) % s.sub;
            REQUIRE_FALSE(verify_poseidon_proof(bad, s));
        }
    }
}

} // namespace

TEST_CASE("Poseidon tree: rust-fil-proofs test_poseidon_hasher", "[filecoin][poseidon][tree]")
{
    const std::vector<domain> leaves = {dom(fr::one()), dom(fr::zero()), dom(fr::zero()), dom(fr::one())};
    const tree_shape binary{2, 0, 0};
    const poseidon_tree t(leaves, binary, 1);
    REQUIRE(t.base_height() == 2);
    CHECK(t.base_level(1)[0] == limbs(0xb339ff6079800b5e, 0xec5907b3dc3094af, 0x93c003cc74a24f26, 0x042f94ffbe786bc3));
    const fr root = limbs(0xefbb8be3e291e671, 0x77cc72b8cb2b5ad2, 0x30eb6385ae6b74ae, 0x1effebb7b26ad9eb);
    CHECK(t.root_fr() == root);
    CHECK(tree_root_only(leaves, binary) == dom(root));
}

TEST_CASE("Poseidon tree: shapes 8-0-0, 8-8-0, 8-8-2, 2-0-0, 4-0-0, 4-2-0: roots and all proofs",
          "[filecoin][poseidon][tree]")
{
    std::mt19937_64 rng(0x5eed);
    check_shape({8, 0, 0}, 64, rng);
    check_shape({8, 8, 0}, 8 * 64, rng);
    check_shape({8, 8, 2}, 16 * 8, rng);
    check_shape({2, 0, 0}, 32, rng);
    check_shape({4, 0, 0}, 64, rng);
    check_shape({4, 2, 0}, 2 * 16, rng);
}

TEST_CASE("Poseidon tree: root-only equals the full tree on larger inputs", "[filecoin][poseidon][tree]")
{
    std::mt19937_64 rng(99);
    // 8^5 leaves: chunks of 8^4 leaves, then one more level; 8 base trees of 8^4.
    for (tree_shape s : {tree_shape{8, 0, 0}, tree_shape{8, 8, 0}, tree_shape{8, 8, 2}}) {
        const size_t n = s.top ? 16 * 4096 : 32768;
        std::vector<fr> leaves(n);
        for (auto& x : leaves) x = fr::random(rng);
        const fr only = poseidon_tree_root(std::span<const fr>(leaves), s, 2);
        const poseidon_tree t(leaves, s, 2);
        CHECK(only == t.root_fr());
        CHECK(verify_poseidon_proof(t.prove(n - 1), s));
        CHECK(verify_poseidon_proof(t.prove(n / 3), s));
    }
}

TEST_CASE("Poseidon tree: rejected inputs", "[filecoin][poseidon][tree]")
{
    std::mt19937_64 rng(3);
    auto leaves = random_leaves(64, rng);
    CHECK_THROWS_AS(poseidon_tree(std::span<const domain>(leaves).first(48), {8, 0, 0}), cuzk::error);
    CHECK_THROWS_AS(poseidon_tree(std::span<const domain>(leaves).first(8), {8, 8, 0}), cuzk::error);   // base height 0
    CHECK_THROWS_AS(poseidon_tree(leaves, {3, 0, 0}), cuzk::error);
    CHECK_THROWS_AS(poseidon_tree(leaves, {8, 0, 2}), cuzk::error);   // top without sub
    CHECK_THROWS_AS(tree_root_only(std::span<const domain>(leaves).first(63), {2, 0, 0}), cuzk::error);
    const poseidon_tree t(leaves, {8, 0, 0});
    CHECK_THROWS_AS(t.prove(64), cuzk::error);
    const merkle_proof p = t.prove(5);
    CHECK_FALSE(verify_poseidon_proof(p, {8, 8, 0}));   // shape mismatch: no sub element
    CHECK_FALSE(verify_poseidon_proof(p, {4, 0, 0}));   // sibling count mismatch
    leaves[7].fill(0xff);                                // not a canonical Fr
    try {
        poseidon_tree bad(leaves, {8, 0, 0});
        FAIL("non-canonical leaf accepted");
    } catch (const cuzk::error& e) {
        CHECK(e.code() == errc::non_canonical);
    }
}
