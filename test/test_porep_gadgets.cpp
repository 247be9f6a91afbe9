// The PoRep circuit gadgets (allocated numbers, multipack, UInt64, the
// bellperson SHA-256, Poseidon, insertion, PoR) against the constraint counts
// that the upstream Rust tests assert, against native hashes (OpenSSL
// SHA-256, the native Poseidon and its known answers), and for satisfaction:
// a correct witness satisfies every constraint, a changed one does not.
#include <catch2/catch.hpp>

#include <array>
#include <cstring>
#include <random>
#include <vector>

#include "cuzk/filecoin/common/hashers.hpp"
#include "cuzk/filecoin/common/poseidon.hpp"
#include "cuzk/filecoin/gadgets/bp_sha256.hpp"
#include "cuzk/filecoin/gadgets/insertion.hpp"
#include "cuzk/filecoin/gadgets/por.hpp"
#include "cuzk/filecoin/gadgets/poseidon.hpp"
#include "cuzk/r1cs/constraint_system.hpp"
#include "cuzk/r1cs/gadgets/multipack.hpp"
#include "cuzk/r1cs/gadgets/num.hpp"
#include "cuzk/r1cs/gadgets/uint64.hpp"
#include "cuzk/r1cs/pce.hpp"

using namespace cuzk;
using namespace cuzk::r1cs;
using namespace cuzk::r1cs::gadgets;

namespace {

using rng_t = std::mt19937_64;

fr from_limbs(std::array<uint64_t, 4> l)
{
    fr::repr r = fr::repr::zero();
    for (size_t i = 0; i < 4; ++i) r.l[i] = l[i];
    return fr::from_repr(r);
}

// Adds one to aux j: true when that makes some constraint fail. Restores it.
bool tamper_caught(test_cs& cs, size_t j)
{
    const fr old = cs.aux()[j];
    cs.set_aux(j, old + fr::one());
    const bool caught = !cs.is_satisfied();
    cs.set_aux(j, old);
    return caught;
}

std::vector<allocated_num> alloc_nums(constraint_system& cs, const std::vector<fr>& v)
{
    std::vector<allocated_num> out;
    for (const fr& x : v) out.push_back(allocated_num::alloc(cs, x));
    return out;
}

// Message bytes as allocated bits in SHA order (MSB of byte 0 first).
std::vector<boolean> alloc_sha_bits(constraint_system& cs, std::span<const uint8_t> bytes)
{
    std::vector<boolean> bits;
    for (uint8_t b : bytes)
        for (int i = 7; i >= 0; --i) bits.push_back(boolean::alloc(cs, (b >> i) & 1));
    return bits;
}

std::array<uint8_t, 32> bits_to_bytes(const std::vector<boolean>& bits)
{
    std::array<uint8_t, 32> out{};
    for (size_t i = 0; i < 256; ++i)
        if (bits[i].value()) out[i / 8] |= uint8_t(0x80 >> (i % 8));
    return out;
}

} // namespace

// ---- allocated numbers, multipack, UInt64 ------------------------------------------------------

TEST_CASE("to_bits_le: 255 bits and one packing constraint; a wrong bit is caught", "[porep_gadgets]")
{
    rng_t rng(1);
    const fr x = fr::random(rng);
    test_cs cs;
    const allocated_num n = allocated_num::alloc(cs, x);
    const std::vector<boolean> bits = n.to_bits_le(cs);
    CHECK(bits.size() == 255);
    CHECK(cs.num_constraints() == 256);
    CHECK(cs.num_aux() == 256);
    const fr::repr r = x.to_repr();
    for (unsigned i = 0; i < 255; ++i) CHECK(bits[i].value() == r.bit(i));
    CHECK(cs.is_satisfied());
    // A flipped bit keeps booleanity but breaks the packing.
    const size_t j = bits[7].var().index;
    cs.set_aux(j, bits[7].value() ? fr::zero() : fr::one());
    CHECK(cs.first_unsatisfied() == std::optional<size_t>(255));
}

TEST_CASE("reverse_bit_numbering pads to bytes and reverses each byte", "[porep_gadgets]")
{
    std::vector<boolean> bits;
    for (int i = 0; i < 10; ++i) bits.push_back(boolean::constant(i == 0 || i == 9));
    const std::vector<boolean> r = reverse_bit_numbering(bits);
    REQUIRE(r.size() == 16);
    for (size_t i = 0; i < 16; ++i) CHECK(r[i].value() == (i == 7 || i == 14));
}

TEST_CASE("inputize, constraint::equal and constraint::add cost one constraint each", "[porep_gadgets]")
{
    rng_t rng(2);
    const fr a = fr::random(rng), b = fr::random(rng);
    test_cs cs;
    const allocated_num na = allocated_num::alloc(cs, a), nb = allocated_num::alloc(cs, b);
    na.inputize(cs);
    CHECK(cs.num_inputs() == 2);
    CHECK(cs.inputs()[1] == a);
    const allocated_num s = constraint::add(cs, na, nb);
    CHECK(s.value == a + b);
    const allocated_num s2 = allocated_num::alloc(cs, a + b);
    constraint::equal(cs, s, s2);
    CHECK(cs.num_constraints() == 3);
    CHECK(cs.is_satisfied());
    cs.set_input(1, b);
    CHECK(cs.first_unsatisfied() == std::optional<size_t>(0));
    cs.set_input(1, a);
    CHECK(tamper_caught(cs, s.var.index));
    CHECK(tamper_caught(cs, s2.var.index));
}

TEST_CASE("pack_into_inputs: one input and one constraint per 254 bits", "[porep_gadgets]")
{
    rng_t rng(3);
    std::array<bool, 600> plain;
    for (size_t i = 0; i < plain.size(); ++i) plain[i] = rng() & 1;
    test_cs cs;
    std::vector<boolean> bits;
    for (size_t i = 0; i < plain.size(); ++i)
        bits.push_back(i % 5 == 0 ? boolean::constant(plain[i]) : boolean::alloc(cs, plain[i]));
    const size_t before = cs.num_constraints();
    CHECK(pack_into_inputs(cs, bits) == 3);
    CHECK(cs.num_constraints() - before == 3);
    const std::vector<fr> want = compute_multipacking(plain);
    REQUIRE(want.size() == 3);
    for (size_t k = 0; k < 3; ++k) CHECK(cs.inputs()[k + 1] == want[k]);
    CHECK(cs.is_satisfied());
    cs.set_input(2, want[1] + fr::one());
    CHECK(!cs.is_satisfied());
}

TEST_CASE("UInt64 alloc and pack_into_input: 65 constraints, the input is the value", "[porep_gadgets]")
{
    const uint64_t v = 0x8123456789abcdefull;
    test_cs cs;
    const uint64 u = uint64::alloc(cs, v);
    u.pack_into_input(cs);
    CHECK(cs.num_constraints() == 65);
    REQUIRE(cs.num_inputs() == 2);
    CHECK(cs.inputs()[1] == fr::from_u64(v));
    CHECK(cs.is_satisfied());
    CHECK(tamper_caught(cs, 63));
}

// ---- bellperson SHA-256 ------------------------------------------------------------------------------

TEST_CASE("bp::sha256 digests equal OpenSSL's, all constraints hold", "[porep_gadgets]")
{
    rng_t rng(4);
    for (size_t len : {0, 3, 55, 56, 64, 100}) {
        std::vector<uint8_t> msg(len);
        for (uint8_t& b : msg) b = uint8_t(rng());
        test_cs cs;
        const std::vector<boolean> digest = bp::sha256(cs, alloc_sha_bits(cs, msg));
        REQUIRE(digest.size() == 256);
        CHECK(bits_to_bytes(digest) == filecoin::sha256(msg));
        CHECK(cs.is_satisfied());
        if (len == 0) CHECK(cs.num_constraints() == 0);
        else CHECK(tamper_caught(cs, cs.num_aux() - 1));
    }
}

TEST_CASE("hash_leaf_bits_circuit shape: SHA-256 of 2x256 allocated bits + pack = 45,387", "[porep_gadgets]")
{
    rng_t rng(5);
    std::array<uint8_t, 64> msg;
    for (uint8_t& b : msg) b = uint8_t(rng());
    test_cs cs;
    const std::vector<boolean> digest = bp::sha256(cs, alloc_sha_bits(cs, msg));
    const std::vector<boolean> le = reverse_bit_numbering(digest);
    const allocated_num out = pack_bits(cs, std::span(le).first(fr_capacity));
    CHECK(cs.num_constraints() == 45387);
    filecoin::digest32 d = filecoin::sha256(msg);
    filecoin::truncate_fr32(d.data());
    fr want;
    REQUIRE(fr::from_bytes_le(d.data(), want));
    CHECK(out.value == want);
    CHECK(cs.is_satisfied());
}

TEST_CASE("witness_cs counts the bellperson SHA-256 like test_cs", "[porep_gadgets]")
{
    std::array<uint8_t, 64> msg{};
    test_cs t;
    witness_cs w;
    bp::sha256(t, alloc_sha_bits(t, msg));
    bp::sha256(w, alloc_sha_bits(w, msg));
    CHECK(w.num_constraints() == t.num_constraints());
    REQUIRE(w.num_aux() == t.num_aux());
    CHECK(std::equal(w.aux().begin(), w.aux().end(), t.aux().begin()));
}

TEST_CASE("create_label shape (37 parents, 20 blocks): 532,025 constraints as upstream", "[porep_gadgets][slow]")
{
    // upstream test_create_label: replica id and 37 parents as allocated
    // bits, layer (u32) and node (u64) constants, the digest's first 254 LE
    // bits packed.
    rng_t rng(9);
    std::vector<uint8_t> msg(64 + 37 * 32, 0);
    for (size_t i = 0; i < 32; ++i) msg[i] = uint8_t(rng());
    for (size_t i = 64; i < msg.size(); ++i) msg[i] = uint8_t(rng());
    const uint32_t layer = 3;
    const uint64_t node = 22;
    for (int i = 0; i < 4; ++i) msg[32 + i] = uint8_t(layer >> (24 - 8 * i));
    for (int i = 0; i < 8; ++i) msg[36 + i] = uint8_t(node >> (56 - 8 * i));

    test_cs cs;
    std::vector<boolean> bits = alloc_sha_bits(cs, std::span(msg).first(32));
    for (size_t i = 256; i < 512; ++i) bits.push_back(boolean::constant((msg[i / 8] >> (7 - i % 8)) & 1));
    const std::vector<boolean> parents = alloc_sha_bits(cs, std::span(msg).subspan(64));
    bits.insert(bits.end(), parents.begin(), parents.end());
    const std::vector<boolean> digest = bp::sha256(cs, bits);
    const std::vector<boolean> le = reverse_bit_numbering(digest);
    pack_bits(cs, std::span(le).first(fr_capacity));
    CHECK(cs.num_constraints() == 532025);
    CHECK(bits_to_bytes(digest) == filecoin::sha256(msg));
    CHECK(cs.is_satisfied());
}

// ---- Poseidon ----------------------------------------------------------------------------------------

TEST_CASE("Poseidon circuit: upstream constraint counts, output equals the native hash", "[porep_gadgets]")
{
    const std::pair<unsigned, size_t> cases[] = {{2, 311},  {4, 377},   {8, 505},   {11, 598},
                                                 {16, 761}, {24, 1009}, {36, 1385}};
    rng_t rng(6);
    for (const auto& [arity, count] : cases) {
        std::vector<fr> v(arity);
        for (fr& x : v) x = fr::random(rng);
        test_cs cs;
        const allocated_num out = poseidon_hash(cs, alloc_nums(cs, v));
        CHECK(cs.num_constraints() == count);
        CHECK(cs.num_aux() == arity + count);   // one new variable per constraint
        CHECK(out.value == filecoin::poseidon_hash(v, filecoin::poseidon_mode::plain));
        CHECK(cs.is_satisfied());
        CHECK(tamper_caught(cs, arity + count / 2));
        CHECK(tamper_caught(cs, 0));
    }
}

TEST_CASE("Poseidon circuit reproduces neptune's known answers", "[porep_gadgets]")
{
    const std::pair<unsigned, std::array<uint64_t, 4>> kats[] = {
        {2, {0x2e203c369a02e7ff, 0xa6fba9339d05a69d, 0x739e0fd902efe161, 0x396508d75e76a56b}},
        {4, {0x019814ff6662075d, 0xfb6b4605bf1327ec, 0x00db3c6579229399, 0x58a54b10a9e5848a}},
        {8, {0x2a9934f56d38a5e6, 0x4b682e9d9cc4aed9, 0x1201004211677077, 0x2394611da3a5de55}},
        {11, {0xcee3bbc32b693163, 0x09f3dcd8ccb08fc1, 0x6ca537e232ebe87a, 0x0c0fc1b2e5227f28}},
    };
    for (const auto& [arity, limbs] : kats) {
        std::vector<fr> v;
        for (unsigned i = 0; i < arity; ++i) v.push_back(fr::from_u64(i));
        witness_cs cs;
        CHECK(poseidon_hash(cs, alloc_nums(cs, v)).value == from_limbs(limbs));
    }
}

// Systems that keep no constraints take a values-only path through the
// gadget; its assignment and counts must be those of the path that builds
// every combination (test_cs), for every arity and for a custom domain tag.
TEST_CASE("Poseidon circuit: the witness-only path writes the constraint-building path's assignment",
          "[porep_gadgets]")
{
    rng_t rng(17);
    for (const unsigned arity : {2u, 4u, 8u, 11u, 16u, 24u, 36u}) {
        for (const bool custom : {false, true}) {
            std::vector<fr> v(arity);
            for (fr& x : v) x = fr::random(rng);
            const filecoin::poseidon_constants& c = filecoin::poseidon_params(arity);
            const fr tag = custom ? filecoin::poseidon_tag_custom(1) : filecoin::poseidon_tag_merkle(arity);
            test_cs full;
            witness_cs values;
            counting_cs counts;
            const allocated_num a = poseidon_hash(full, alloc_nums(full, v), c, tag);
            const allocated_num b = poseidon_hash(values, alloc_nums(values, v), c, tag);
            poseidon_hash(counts, alloc_nums(counts, v), c, tag);
            INFO("arity " << arity << (custom ? ", custom tag" : ""));
            CHECK(full.is_satisfied());
            CHECK(a.value == b.value);
            CHECK(a.var == b.var);
            CHECK(values.num_constraints() == full.num_constraints());
            CHECK(counts.num_constraints() == full.num_constraints());
            CHECK(counts.num_aux() == full.num_aux());
            REQUIRE(values.aux().size() == full.aux().size());
            CHECK(std::equal(values.aux().begin(), values.aux().end(), full.aux().begin()));
        }
    }
}

TEST_CASE("Poseidon hash_md of 71 elements: 2,770 constraints", "[porep_gadgets]")
{
    const std::vector<fr> v(71, fr::one());
    test_cs cs;
    const allocated_num out = poseidon_hash_md(cs, alloc_nums(cs, v));
    CHECK(cs.num_constraints() == 2770);
    CHECK(out.value == filecoin::poseidon_hash_md(v));
    CHECK(cs.is_satisfied());
}

// ---- insertion ---------------------------------------------------------------------------------------

TEST_CASE("insert: 2/8/22/240 constraints for sizes 2/4/8/16, every position right", "[porep_gadgets]")
{
    const std::pair<size_t, size_t> cases[] = {{2, 2}, {4, 8}, {8, 22}, {16, 240}};
    for (const auto& [size, count] : cases) {
        const unsigned nbits = unsigned(std::countr_zero(size));
        for (size_t n = 0; n < size; ++n) {
            test_cs cs;
            std::vector<fr> vals;
            for (size_t i = 0; i < size; ++i) vals.push_back(fr::from_u64(100 + i));
            const allocated_num x = allocated_num::alloc(cs, fr::from_u64(7));
            const std::vector<allocated_num> rest = alloc_nums(cs, vals);
            std::vector<boolean> bits;
            for (unsigned i = 0; i < nbits; ++i) bits.push_back(boolean::alloc(cs, (n >> i) & 1));
            const size_t before = cs.num_constraints();
            const std::vector<allocated_num> out = insert(cs, x, bits, std::span(rest).first(size - 1));
            CHECK(cs.num_constraints() - before == count);
            REQUIRE(out.size() == size);
            for (size_t p = 0; p < size; ++p)
                CHECK(out[p].value == (p < n ? vals[p] : p == n ? fr::from_u64(7) : vals[p - 1]));
            CHECK(cs.is_satisfied());
            CHECK(tamper_caught(cs, out[n].var.index));
        }
    }
}

// ---- PoR -----------------------------------------------------------------------------------------------

namespace {

fr native_node(merkle_hasher h, std::span<const fr> children)
{
    if (h == merkle_hasher::poseidon) return filecoin::poseidon_hash(children);
    std::vector<uint8_t> bytes(32 * children.size());
    for (size_t i = 0; i < children.size(); ++i) children[i].to_bytes_le(&bytes[32 * i]);
    const filecoin::domain d = filecoin::sha256_trunc(bytes);
    fr out = fr::zero();
    fr::from_bytes_le(d.data(), out);
    return out;
}

struct native_tree {
    tree_shape shape;
    std::vector<std::vector<fr>> rows;   // rows[0] = leaves, rows.back() = {root}

    native_tree(const tree_shape& s, rng_t& rng) : shape(s)
    {
        rows.emplace_back(s.leaves());
        for (fr& x : rows[0]) x = fr::random(rng);
        for (size_t l = 0; l < s.levels(); ++l) {
            const unsigned a = s.arity(l);
            const std::vector<fr>& below = rows.back();
            std::vector<fr> up;
            for (size_t i = 0; i < below.size(); i += a)
                up.push_back(native_node(s.hasher, std::span(below).subspan(i, a)));
            rows.push_back(std::move(up));
        }
    }
    const fr& root() const { return rows.back()[0]; }

    std::vector<path_level> path(size_t leaf) const
    {
        std::vector<path_level> p;
        for (size_t l = 0; l < shape.levels(); ++l) {
            const unsigned a = shape.arity(l);
            path_level lv;
            lv.index = unsigned(leaf % a);
            const size_t first = leaf - lv.index;
            for (size_t i = 0; i < a; ++i)
                if (i != lv.index) lv.siblings.push_back(rows[l][first + i]);
            p.push_back(std::move(lv));
            leaf /= a;
        }
        return p;
    }
};

// 64 base leaves per base tree, as the upstream test sizes its trees.
tree_shape shape_of(merkle_hasher h, unsigned base, unsigned sub, unsigned top)
{
    tree_shape s;
    s.hasher = h;
    s.base_arity = base;
    s.base_levels = size_t(std::countr_zero(64u) / std::countr_zero(base));
    s.sub_arity = sub;
    s.top_arity = top;
    return s;
}

void check_por(const tree_shape& shape, bool private_root, size_t count, std::initializer_list<size_t> leaves)
{
    rng_t rng(7);
    const native_tree tree(shape, rng);
    for (size_t leaf : leaves) {
        INFO("leaf " << leaf);
        const por_circuit good(shape, tree.rows[0][leaf], tree.path(leaf), tree.root(), private_root);
        test_cs cs;
        good.synthesize(cs);
        CHECK(cs.num_constraints() == count);
        REQUIRE(cs.num_inputs() == (private_root ? 2u : 3u));
        CHECK(cs.inputs()[1] == fr::from_u64(leaf));
        if (!private_root) CHECK(cs.inputs()[2] == tree.root());
        CHECK(cs.is_satisfied());

        const por_circuit bad(shape, tree.rows[0][leaf] + fr::one(), tree.path(leaf), tree.root(), private_root);
        test_cs bcs;
        bad.synthesize(bcs);
        CHECK(!bcs.is_satisfied());
    }
}

} // namespace

TEST_CASE("PoR, Poseidon trees, public root: upstream counts", "[porep_gadgets]")
{
    using H = merkle_hasher;
    check_por(shape_of(H::poseidon, 2, 0, 0), false, 1887, {0, 37, 63});
    check_por(shape_of(H::poseidon, 4, 0, 0), false, 1164, {0, 37, 63});
    check_por(shape_of(H::poseidon, 8, 0, 0), false, 1063, {0, 37, 63});
    check_por(shape_of(H::poseidon, 8, 2, 0), false, 1377, {0, 101});
    check_por(shape_of(H::poseidon, 8, 8, 0), false, 1593, {0, 300, 511});
    check_por(shape_of(H::poseidon, 8, 4, 2), false, 1764, {0, 333});
    check_por(shape_of(H::poseidon, 8, 8, 2), false, 1907, {0, 1000});
}

TEST_CASE("PoR, Poseidon trees, private root: upstream counts", "[porep_gadgets]")
{
    using H = merkle_hasher;
    check_por(shape_of(H::poseidon, 2, 0, 0), true, 1886, {5});
    check_por(shape_of(H::poseidon, 4, 0, 0), true, 1163, {5});
    check_por(shape_of(H::poseidon, 8, 0, 0), true, 1062, {5});
}

TEST_CASE("PoR, SHA-256 trees: upstream counts", "[porep_gadgets][slow]")
{
    using H = merkle_hasher;
    check_por(shape_of(H::sha256, 2, 0, 0), false, 272295, {45});
    check_por(shape_of(H::sha256, 4, 0, 0), false, 216258, {45});
    check_por(shape_of(H::sha256, 8, 0, 0), false, 250987, {45});
}

TEST_CASE("enforce_inclusion uses the given leaf and root variables", "[porep_gadgets]")
{
    rng_t rng(8);
    const tree_shape shape = shape_of(merkle_hasher::poseidon, 8, 0, 0);
    const native_tree tree(shape, rng);
    test_cs cs;
    const allocated_num root = allocated_num::alloc(cs, tree.root());
    const allocated_num leaf = allocated_num::alloc(cs, tree.rows[0][9]);
    enforce_inclusion(cs, shape, tree.path(9), root, leaf);
    CHECK(cs.num_constraints() == 2 * 530 + 2);
    CHECK(cs.num_inputs() == 2);
    CHECK(cs.is_satisfied());
    CHECK(tamper_caught(cs, root.var.index));
}

TEST_CASE("PoR: witness_cs and a recorded PCE agree with test_cs", "[porep_gadgets]")
{
    rng_t rng(10);
    for (const merkle_hasher h : {merkle_hasher::poseidon, merkle_hasher::sha256}) {
        const tree_shape shape = h == merkle_hasher::poseidon ? shape_of(h, 8, 8, 2) : shape_of(h, 4, 0, 0);
        const native_tree tree(shape, rng);
        const por_circuit circ(shape, tree.rows[0][21], tree.path(21), tree.root(), false);
        test_cs t;
        witness_cs w;
        circ.synthesize(t);
        circ.synthesize(w);
        CHECK(w.num_constraints() == t.num_constraints());
        REQUIRE(w.num_aux() == t.num_aux());
        REQUIRE(w.num_inputs() == t.num_inputs());
        CHECK(std::equal(w.aux().begin(), w.aux().end(), t.aux().begin()));
        CHECK(std::equal(w.inputs().begin(), w.inputs().end(), t.inputs().begin()));
        const pce p = record(circ);
        CHECK(p.num_constraints == t.num_constraints());
        CHECK(!first_unsatisfied(p, w.inputs(), w.aux()));
        std::vector<fr> in(w.inputs().begin(), w.inputs().end());
        in[2] += fr::one();   // a wrong public root
        CHECK(first_unsatisfied(p, in, w.aux()) == std::optional<size_t>(p.num_constraints - 1));
    }
}
