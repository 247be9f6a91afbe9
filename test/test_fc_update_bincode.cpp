// SnapDeals vanilla partition proofs in Filecoin's bytes (bincode of
// storage_proofs_update's PartitionProof): round trips of made-up updates
// (2 KiB, 16 KiB 8-8-0, 32 KiB 8-8-2, one 32 GiB partition) that still pass
// update_check_vanilla once read back, the 32 GiB partition's exact size, a
// tiny proof written out byte by byte from the layout rules, and the
// reader's refusals (truncation anywhere, trailing bytes, wrong counts,
// variants, levels, hash counts and positions, another tree shape), each
// naming the byte offset and the field.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/update/bincode.hpp"
#include "expect_error.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;
using cuzk::test::expect_error;

namespace {

const char* const k_what = "partition.vanilla";

unsigned log2_of(uint64_t v)
{
    unsigned k = 0;
    for (; v > 1; v >>= 1) ++k;
    return k;
}

// One MerkleProof's bytes from the layout rules: variant, root and leaf,
// then per path its length and per level a length, arity − 1 hashes and
// the position.
size_t merkle_bytes(uint64_t base_levels, unsigned base, unsigned sub, unsigned top)
{
    size_t b = 4 + 64 + 8 + base_levels * (16 + 32 * (base - 1));
    if (sub) b += 8 + 16 + 32 * (sub - 1);
    if (top) b += 8 + 16 + 32 * (top - 1);
    return b;
}

// A partition proof's size: comm_c, the apex leaves, and per challenge the
// tree R_old, tree D_new and tree R_new proofs.
size_t partition_bytes(const update_config& c)
{
    const uint64_t r_levels = log2_of(c.nodes / c.tree.base_trees()) / log2_of(c.tree.base);
    const size_t r = merkle_bytes(r_levels, c.tree.base, c.tree.sub, c.tree.top);
    const size_t d = merkle_bytes(log2_of(c.nodes), 2, 0, 0);
    return 32 + 8 + 32 * size_t(c.apex_leaf_count) + 8 + c.challenge_count * (2 * r + d);
}

void put_u64(std::vector<uint8_t>& b, size_t at, uint64_t v)
{
    for (int i = 0; i < 8; ++i) b.at(at + i) = uint8_t(v >> (8 * i));
}

uint64_t get_u64(const std::vector<uint8_t>& b, size_t at)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = v << 8 | b.at(at + i);
    return v;
}

const update_config& c2k()
{
    static const update_config c = registered_update_proof(0);
    return c;
}

const update_vanilla& u2k()
{
    static const update_vanilla u = update_synthetic_vanilla(c2k(), c2k().h_default(), 3, 2);
    return u;
}

std::vector<uint8_t> valid_2k() { return update_partition_to_bincode(u2k().partitions[0], c2k()); }

// Offsets in valid_2k() (64 nodes, tree R 8-0-0 of 2 levels, tree D of 6
// binary levels, 8 apex leaves, 10 challenges): comm_c 0, apex_leafs 32
// (leaves 40..295), challenge_proofs 296; challenge 0 at 304 (1,476 bytes):
// proof_r_old 304 (556 bytes: variant 304, root 308, leaf 340, path length
// 372, level 0 hashes length 380, hashes 388..611, index 612), proof_d_new
// 860 (364 bytes: variant 860, root 864, leaf 896, path length 928, level 0
// hashes length 936, hash 944, index 976), proof_r_new 1224 (level 0 index
// 1532); challenge 1 at 1780.
constexpr size_t k_size_2k = 15064, k_apex_at = 32, k_challenges_at = 296, k_r_old_at = 304, k_d_new_at = 860,
                 k_d_path_at = 928, k_d_hashes_at = 936, k_d_index_at = 976, k_r_new_at = 1224,
                 k_r_new_index_at = 1532, k_challenge1_at = 1780;

} // namespace

TEST_CASE("update bincode: made-up partition proofs round trip and still check", "[fc][update]")
{
    for (const update_config& c : {c2k(), update_config::for_nodes(1u << 9, {8, 8, 0}),
                                   update_config::for_nodes(1u << 10, {8, 8, 2})}) {
        INFO(c.name << ", " << c.nodes << " nodes, tree " << c.tree.name());
        const update_vanilla u = update_synthetic_vanilla(c, c.h_default(), c.nodes + 1, 2);
        REQUIRE(u.partitions.size() == c.partitions);
        for (unsigned k = 0; k < c.partitions; ++k) {
            INFO("partition " << k);
            const std::vector<uint8_t> bytes = update_partition_to_bincode(u.partitions[k], c);
            CHECK(bytes.size() == partition_bytes(c));
            CHECK(get_u64(bytes, 32) == c.apex_leaf_count);
            const size_t first = 32 + 8 + 32 * size_t(c.apex_leaf_count);
            CHECK(get_u64(bytes, first) == c.challenge_count);
            CHECK(bytes[first + 8] == (c.tree.top ? 2 : c.tree.sub ? 1 : 0));   // proof_r_old's variant
            const update_partition_proof back = update_partition_from_bincode(bytes, c, k_what);
            REQUIRE(back == u.partitions[k]);
            CHECK_NOTHROW(update_check_vanilla(c, u.pub, k, back, 2));
        }
    }
    CHECK(valid_2k().size() == k_size_2k);
}

TEST_CASE("update bincode: a 32 GiB partition proof is 561,768 bytes", "[fc][update]")
{
    const update_config c = registered_update_proof(3);
    const update_vanilla u = update_synthetic_vanilla(c, 10, 17, 0);
    const update_partition_proof& p = u.partitions[0];
    const std::vector<uint8_t> bytes = update_partition_to_bincode(p, c);
    // comm_c 32; apex_leafs 8 + 128·32; challenge_proofs 8 + 86 challenges of
    // proof_r_old and proof_r_new (tree 8-8-0: variant 4, base path 8 + 9
    // levels of 8 + 7·32 + 8, sub path 8 + 240, root and leaf 64: 2,484
    // each) and proof_d_new (variant 4, root and leaf 64, 8 + 30 binary
    // levels of 8 + 32 + 8: 1,516).
    constexpr size_t r = 4 + (8 + 9 * 240) + (8 + 240) + 64, d = 4 + 64 + 8 + 30 * 48;
    static_assert(r == 2484 && d == 1516);
    static_assert(32 + 8 + 128 * 32 + 8 + 86 * (2 * r + d) == 561768);
    CHECK(bytes.size() == 561768);
    CHECK(partition_bytes(c) == 561768);
    const size_t first = 32 + 8 + 128 * 32 + 8;   // challenge 0's proof_r_old
    CHECK(get_u64(bytes, first - 8) == 86);
    CHECK(bytes[first] == 1);                       // Sub
    CHECK(get_u64(bytes, first + 4) == 9);          // base_proof: 9 levels
    CHECK(bytes[first + r] == 0);                   // proof_d_new: Single
    CHECK(get_u64(bytes, first + r + 68) == 30);    // 30 levels
    CHECK(bytes[first + r + d] == 1);               // proof_r_new: Sub

    const update_partition_proof back = update_partition_from_bincode(bytes, c, k_what);
    REQUIRE(back == p);
    CHECK_NOTHROW(update_check_vanilla(c, u.pub, 0, back, 0));
    // docs/FORMATS.md §5.6's table: 2 KiB, 8 MiB, 512 MiB, 32 GiB, 64 GiB.
    const size_t table[5] = {15064, 43864, 453064, 561768, 575528};
    for (int id = 0; id < 5; ++id) CHECK(partition_bytes(registered_update_proof(id)) == table[id]);
    // The 64 GiB config (tree 8-8-2) takes the Top variant.
    expect_error([&] { (void)update_partition_from_bincode(bytes, registered_update_proof(4), k_what); },
                 errc::bad_format,
                 {"byte 4144: challenge_proofs[0].proof_r_old.data: variant 1 (Sub); the tree 8-8-2 of 2147483648 "
                  "nodes takes variant 2 (Top)"});
}

TEST_CASE("update bincode: a tiny partition proof written byte by byte", "[fc][update]")
{
    // 4 nodes, tree R 2-0-0: one apex leaf, one challenge, every path two
    // binary levels. Not a shape Filecoin registers; the layout is the same.
    update_config c;
    c.nodes = 4;
    c.tree = {2, 0, 0};
    c.partitions = 1;
    c.challenge_count = 1;
    c.apex_leaf_count = 1;
    c.name = "custom";
    auto d = [](uint8_t v) { domain x; x.fill(v); x[0] = 0x00; x[31] = v ^ 0xff; return x; };
    auto proof = [&](uint8_t root, uint8_t leaf, uint8_t h0, uint32_t i0, uint8_t h1, uint32_t i1) {
        merkle_proof m;
        m.root = d(root);
        m.leaf = d(leaf);
        m.base = {path_element{{d(h0)}, i0}, path_element{{d(h1)}, i1}};
        return m;
    };
    update_partition_proof p;
    p.comm_c = d(0x11);
    p.apex_leaves = {d(0x22)};
    p.challenges = {{proof(0x31, 0x32, 0x33, 1, 0x34, 0), proof(0x41, 0x42, 0x43, 0, 0x44, 1),
                     proof(0x51, 0x52, 0x53, 1, 0x54, 1)}};

    std::vector<uint8_t> want;
    auto raw = [&](std::initializer_list<uint8_t> b) { want.insert(want.end(), b); };
    auto dom = [&](uint8_t v) { const domain x = d(v); want.insert(want.end(), x.begin(), x.end()); };
    auto merkle = [&](uint8_t root, uint8_t leaf, uint8_t h0, uint8_t i0, uint8_t h1, uint8_t i1) {
        raw({0, 0, 0, 0});                   // ProofData::Single: u32 LE 0
        dom(root);                           // root
        dom(leaf);                           // leaf
        raw({2, 0, 0, 0, 0, 0, 0, 0});       // path.path: length 2
        raw({1, 0, 0, 0, 0, 0, 0, 0});       // level 0 hashes: length 1
        dom(h0);
        raw({i0, 0, 0, 0, 0, 0, 0, 0});      // level 0 index: usize
        raw({1, 0, 0, 0, 0, 0, 0, 0});       // level 1 hashes: length 1
        dom(h1);
        raw({i1, 0, 0, 0, 0, 0, 0, 0});      // level 1 index: usize
    };
    dom(0x11);                               // comm_c
    raw({1, 0, 0, 0, 0, 0, 0, 0});           // apex_leafs: length 1
    dom(0x22);
    raw({1, 0, 0, 0, 0, 0, 0, 0});           // challenge_proofs: length 1
    merkle(0x31, 0x32, 0x33, 1, 0x34, 0);    // proof_r_old
    merkle(0x41, 0x42, 0x43, 0, 0x44, 1);    // proof_d_new
    merkle(0x51, 0x52, 0x53, 1, 0x54, 1);    // proof_r_new
    REQUIRE(want.size() == 80 + 3 * 172);

    CHECK(update_partition_to_bincode(p, c) == want);
    CHECK(update_partition_from_bincode(want, c, k_what) == p);
}

TEST_CASE("update bincode: every truncation is refused", "[fc][update]")
{
    for (const update_config& c : {c2k(), update_config::for_nodes(1u << 9, {8, 8, 0}),
                                   update_config::for_nodes(1u << 10, {8, 8, 2})}) {
        INFO(c.nodes << " nodes, tree " << c.tree.name());
        const std::vector<uint8_t> bytes =
            update_partition_to_bincode(update_synthetic_vanilla(c, c.h_default(), 7, 2).partitions.back(), c);
        size_t refused = 0;
        for (size_t len = 0; len < bytes.size(); ++len) {
            try {
                (void)update_partition_from_bincode(std::span(bytes.data(), len), c, k_what);
            } catch (const error& e) {
                refused += e.code() == errc::bad_length;
            }
        }
        CHECK(refused == bytes.size());
    }
    const std::vector<uint8_t> bytes = valid_2k();
    expect_error([&] { (void)update_partition_from_bincode(std::span(bytes.data(), 100), c2k(), k_what); },
                 errc::bad_length, {k_what, "byte 72: apex_leafs[1]: needs 32 bytes, 28 left"});
    expect_error([&] { (void)update_partition_from_bincode(std::span(bytes.data(), k_d_index_at + 3), c2k(), k_what); },
                 errc::bad_length, {"byte 976: challenge_proofs[0].proof_d_new.path.path[0].index: needs 8 bytes"});
}

TEST_CASE("update bincode: trailing bytes and wrong counts are refused", "[fc][update]")
{
    std::vector<uint8_t> bytes = valid_2k();
    REQUIRE(bytes.size() == k_size_2k);
    bytes.push_back(0);
    expect_error([&] { (void)update_partition_from_bincode(bytes, c2k(), k_what); }, errc::bad_length,
                 {k_what, "byte 15064: end: 1 bytes after the partition proof"});
    bytes.pop_back();

    for (uint64_t n : {uint64_t(0), uint64_t(7), uint64_t(9), uint64_t(1) << 60, ~uint64_t(0)}) {
        std::vector<uint8_t> b = bytes;
        put_u64(b, k_apex_at, n);
        expect_error([&] { (void)update_partition_from_bincode(b, c2k(), k_what); }, errc::bad_format,
                     {"partition.vanilla: byte 32: apex_leafs: " + std::to_string(n) +
                      " apex leaves; StackedDrg2KiBV1 takes 8"});
        b = bytes;
        put_u64(b, k_challenges_at, n);
        expect_error([&] { (void)update_partition_from_bincode(b, c2k(), k_what); }, errc::bad_format,
                     {"byte 296: challenge_proofs: " + std::to_string(n) +
                      " challenge proofs; StackedDrg2KiBV1 takes 10"});
    }
}

TEST_CASE("update bincode: wrong variants, levels, hash counts and positions are refused", "[fc][update]")
{
    const std::vector<uint8_t> bytes = valid_2k();
    auto refused = [&](size_t at, uint64_t v, int width, std::initializer_list<std::string> parts) {
        std::vector<uint8_t> b = bytes;
        for (int i = 0; i < width; ++i) b.at(at + i) = uint8_t(v >> (8 * i));
        expect_error([&] { (void)update_partition_from_bincode(b, c2k(), k_what); }, errc::bad_format, parts);
    };
    refused(k_r_old_at, 1, 4,
            {"byte 304: challenge_proofs[0].proof_r_old.data: variant 1 (Sub); the tree 8-0-0 of 64 nodes takes "
             "variant 0 (Single)"});
    refused(k_r_old_at, 3, 4, {"variant 3 (unknown)"});
    refused(k_r_old_at + 68, 3, 8,
            {"byte 372: challenge_proofs[0].proof_r_old.path.path: 3 levels; the tree 8-0-0 of 64 nodes has 2 base "
             "levels"});
    refused(k_r_old_at + 76, 8, 8, {"byte 380: challenge_proofs[0].proof_r_old.path.path[0].hashes: 8 hashes; arity "
                                    "8 takes 7"});
    refused(k_d_new_at, 2, 4,
            {"byte 860: challenge_proofs[0].proof_d_new.data: variant 2 (Top); the binary tree D of 64 nodes takes "
             "variant 0 (Single)"});
    refused(k_d_path_at, 5, 8,
            {"byte 928: challenge_proofs[0].proof_d_new.path.path: 5 levels; the binary tree D of 64 nodes has 6 "
             "base levels"});
    refused(k_d_path_at, uint64_t(1) << 60, 8, {"byte 928: challenge_proofs[0].proof_d_new.path.path:"});
    refused(k_d_hashes_at, 7, 8,
            {"byte 936: challenge_proofs[0].proof_d_new.path.path[0].hashes: 7 hashes; arity 2 takes 1"});
    refused(k_d_hashes_at, 0, 8, {"proof_d_new.path.path[0].hashes: 0 hashes"});
    refused(k_d_index_at, 2, 8,
            {"byte 976: challenge_proofs[0].proof_d_new.path.path[0].index: 2 is not below the arity 2"});
    refused(k_r_new_at, 1, 4, {"byte 1224: challenge_proofs[0].proof_r_new.data: variant 1 (Sub)"});
    refused(k_r_new_index_at, 8, 8,
            {"partition.vanilla: byte 1532: challenge_proofs[0].proof_r_new.path.path[0].index: 8 is not below the "
             "arity 8"});
    refused(k_r_new_index_at, uint64_t(1) << 32, 8, {"index: 4294967296 is not below"});
    refused(k_challenge1_at + 76, 6, 8,
            {"byte 1856: challenge_proofs[1].proof_r_old.path.path[0].hashes: 6 hashes; arity 8 takes 7"});
}

TEST_CASE("update bincode: a proof of another tree shape or size is refused", "[fc][update]")
{
    const update_config sub = update_config::for_nodes(1u << 9, {8, 8, 0});
    const update_config top = update_config::for_nodes(1u << 10, {8, 8, 2});
    const std::vector<uint8_t> sub_bytes =
        update_partition_to_bincode(update_synthetic_vanilla(sub, sub.h_default(), 4, 2).partitions[1], sub);
    const std::vector<uint8_t> top_bytes =
        update_partition_to_bincode(update_synthetic_vanilla(top, top.h_default(), 4, 2).partitions[0], top);
    // Same counts (128 apex leaves, 10 challenges): the variant or the levels give it away.
    expect_error([&] { (void)update_partition_from_bincode(sub_bytes, update_config::for_nodes(1u << 9, {8, 0, 0}),
                                                           k_what); },
                 errc::bad_format,
                 {"byte 4144: challenge_proofs[0].proof_r_old.data: variant 1 (Sub); the tree 8-0-0 of 512 nodes "
                  "takes variant 0 (Single)"});
    expect_error([&] { (void)update_partition_from_bincode(sub_bytes, top, k_what); }, errc::bad_format,
                 {"variant 1 (Sub); the tree 8-8-2 of 1024 nodes takes variant 2 (Top)"});
    expect_error([&] { (void)update_partition_from_bincode(top_bytes, sub, k_what); }, errc::bad_format,
                 {"variant 2 (Top); the tree 8-8-0 of 512 nodes takes variant 1 (Sub)"});
    expect_error([&] { (void)update_partition_from_bincode(sub_bytes, update_config::for_nodes(1u << 10, {8, 2, 0}),
                                                           k_what); },
                 errc::bad_format,
                 {"byte 4148: challenge_proofs[0].proof_r_old.base_proof.path: 2 levels; the tree 8-2-0 of 1024 "
                  "nodes has 3 base levels"});
    // Other counts: the apex leaves differ first.
    expect_error([&] { (void)update_partition_from_bincode(valid_2k(), sub, k_what); }, errc::bad_format,
                 {"byte 32: apex_leafs: 8 apex leaves; the custom update of 512 nodes takes 128"});
    expect_error([&] { (void)update_partition_from_bincode(sub_bytes, registered_update_proof(3), k_what); },
                 errc::bad_format, {"byte 4136: challenge_proofs: 10 challenge proofs; StackedDrg32GiBV1 takes 86"});
}

TEST_CASE("update bincode: the writer refuses proofs that do not fit the config", "[fc][update]")
{
    const update_config c = c2k();
    update_partition_proof p = u2k().partitions[0];
    p.apex_leaves.pop_back();
    expect_error([&] { (void)update_partition_to_bincode(p, c); }, errc::invalid_argument,
                 {"update_partition_to_bincode: 7 apex leaves; StackedDrg2KiBV1 takes 8"});
    p = u2k().partitions[0];
    p.challenges.push_back(p.challenges[0]);
    expect_error([&] { (void)update_partition_to_bincode(p, c); }, errc::invalid_argument,
                 {"11 challenge proofs; StackedDrg2KiBV1 takes 10"});
    p = u2k().partitions[0];
    p.challenges[2].d_new.base.pop_back();
    expect_error([&] { (void)update_partition_to_bincode(p, c); }, errc::invalid_argument,
                 {"challenge_proofs[2].proof_d_new: 5 base levels; the binary tree D of 64 nodes has 6"});
    p = u2k().partitions[0];
    p.challenges[3].r_new.sub = {p.challenges[3].r_new.base[0]};
    expect_error([&] { (void)update_partition_to_bincode(p, c); }, errc::invalid_argument,
                 {"challenge_proofs[3].proof_r_new: 1 sub levels; the tree 8-0-0 of 64 nodes has 0"});
    p = u2k().partitions[0];
    p.challenges[4].r_old.base[1].index = 8;
    expect_error([&] { (void)update_partition_to_bincode(p, c); }, errc::invalid_argument,
                 {"challenge_proofs[4].proof_r_old.base[1]: 7 hashes and index 8"});
    p = u2k().partitions[0];
    p.challenges[5].d_new.base[0].hashes.push_back(domain{});
    expect_error([&] { (void)update_partition_to_bincode(p, c); }, errc::invalid_argument,
                 {"challenge_proofs[5].proof_d_new.base[0]: 2 hashes"});

    update_config bad = c;
    bad.nodes = 65;
    expect_error([&] { (void)update_partition_to_bincode(u2k().partitions[0], bad); }, errc::invalid_argument,
                 {"nodes = 65 does not fit tree 8-0-0"});
    expect_error([&] { (void)update_partition_from_bincode(valid_2k(), bad, k_what); }, errc::invalid_argument,
                 {k_what, "nodes = 65"});
}

TEST_CASE("update bincode: single-byte mutations are read or refused, never crash", "[fc][update]")
{
    const std::vector<uint8_t> bytes = valid_2k();
    size_t read = 0, refused = 0;
    for (size_t at = 0; at < bytes.size(); at += 3) {
        for (uint8_t flip : {0x01, 0x80}) {
            std::vector<uint8_t> b = bytes;
            b[at] ^= flip;
            try {
                const update_partition_proof p = update_partition_from_bincode(b, c2k(), k_what);
                CHECK(update_partition_to_bincode(p, c2k()) == b);
                ++read;
            } catch (const error& e) {
                CHECK(e.code() == errc::bad_format);
                ++refused;
            }
        }
    }
    CHECK(refused > 0);
    CHECK(read > 0);   // the domains are bytes the reader does not judge
}
