// PoSt vanilla proofs in Filecoin's bytes (bincode of FallbackPoStSectorProof):
// round trips of the Single, Sub and Top variants, a Single case written out
// byte by byte from the layout rules, and the reader's refusals (truncation
// anywhere, trailing bytes, inflated lengths, wrong variant, counts and
// positions), each naming the byte offset and the field.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/post/bincode.hpp"
#include "expect_error.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;
using cuzk::test::expect_error;

namespace {

const char* const k_what = "sector.vanilla";

post_config config_of(uint64_t nodes, tree_shape tree, unsigned challenges = 3)
{
    return post_config::custom(post_type::window, nodes, tree, 2, challenges);
}

domain random_domain(std::mt19937_64& rng)
{
    domain d{};
    for (uint8_t& b : d) b = uint8_t(rng());
    return d;
}

// `levels` path elements of `arity` with random hashes and positions.
std::vector<path_element> random_path(std::mt19937_64& rng, unsigned arity, size_t levels)
{
    std::vector<path_element> path(levels);
    for (path_element& e : path) {
        for (unsigned h = 0; h + 1 < arity; ++h) e.hashes.push_back(random_domain(rng));
        e.index = uint32_t(rng() % arity);
    }
    return path;
}

size_t base_levels_of(const post_config& c)
{
    uint64_t per_tree = c.nodes / c.tree.base_trees();
    size_t k = 0;
    for (; per_tree > 1; per_tree /= c.tree.base) ++k;
    return k;
}

post_sector_proof random_sector(const post_config& c, uint64_t seed)
{
    std::mt19937_64 rng(seed);
    post_sector_proof s;
    s.sector_id = rng();
    s.comm_r = random_domain(rng);
    s.comm_c = random_domain(rng);
    s.comm_r_last = random_domain(rng);
    for (unsigned n = 0; n < c.challenge_count; ++n) {
        merkle_proof p;
        p.leaf = random_domain(rng);
        p.root = s.comm_r_last;
        p.base = random_path(rng, c.tree.base, base_levels_of(c));
        if (c.tree.sub) p.sub = random_path(rng, c.tree.sub, 1);
        if (c.tree.top) p.top = random_path(rng, c.tree.top, 1);
        s.inclusion_proofs.push_back(std::move(p));
    }
    return s;
}

void put_u64(std::vector<uint8_t>& b, size_t at, uint64_t v)
{
    for (int i = 0; i < 8; ++i) b.at(at + i) = uint8_t(v >> (8 * i));
}

std::vector<uint8_t> valid_single()
{
    const post_config c = config_of(64, {8, 0, 0});
    return post_vanilla_to_bincode(random_sector(c, 1), c);
}

// Offsets in valid_single() (nodes 64, tree 8-0-0: two levels of 7 hashes):
// sector_id 0, comm_r 8, sectors 40, inclusion_proofs 48; proof 0 at 56:
// variant 56, root 60, leaf 92, path length 124, level 0 at 132 (hashes
// length 132, hashes 140..363, index 364), level 1 at 372.
constexpr size_t k_sectors_at = 40, k_proofs_at = 48, k_variant_at = 56, k_path_at = 124, k_hashes_at = 132,
                 k_index_at = 364;

} // namespace

TEST_CASE("PoSt bincode: Single, Sub and Top proofs round trip", "[filecoin][post_bincode]")
{
    for (const post_config& c : {config_of(64, {8, 0, 0}), config_of(512, {8, 8, 0}), config_of(1024, {8, 8, 2}),
                                 config_of(16, {2, 4, 2}, 5)}) {
        INFO("tree " << c.tree.name() << " nodes " << c.nodes);
        const post_sector_proof s = random_sector(c, c.nodes);
        const std::vector<uint8_t> bytes = post_vanilla_to_bincode(s, c);
        // The size the layout implies: header, proofs, comm_c and comm_r_last.
        size_t proof = 4 + 64 + 8 + base_levels_of(c) * (16 + 32 * (c.tree.base - 1));
        if (c.tree.sub) proof += 8 + 16 + 32 * (c.tree.sub - 1);
        if (c.tree.top) proof += 8 + 16 + 32 * (c.tree.top - 1);
        CHECK(bytes.size() == 56 + c.challenge_count * proof + 64);
        const uint32_t variant = c.tree.top ? 2 : c.tree.sub ? 1 : 0;
        CHECK(bytes[56] == variant);
        REQUIRE(post_vanilla_from_bincode(bytes, c, k_what) == s);
    }
}

TEST_CASE("PoSt bincode: a Single proof written byte by byte", "[filecoin][post_bincode]")
{
    // nodes 4, tree 2-0-0: one inclusion proof of two levels of one hash.
    const post_config c = config_of(4, {2, 0, 0}, 1);
    auto d = [](uint8_t v) { domain x; x.fill(v); x[0] = 0x00; x[31] = v ^ 0xff; return x; };
    post_sector_proof s;
    s.sector_id = 0x0102030405060708;
    s.comm_r = d(0x11);
    s.comm_c = d(0x22);
    s.comm_r_last = d(0x33);
    merkle_proof p;
    p.root = d(0x33);
    p.leaf = d(0x44);
    p.base = {path_element{{d(0x55)}, 1}, path_element{{d(0x66)}, 0}};
    s.inclusion_proofs = {p};

    std::vector<uint8_t> want;
    auto raw = [&](std::initializer_list<uint8_t> b) { want.insert(want.end(), b); };
    auto dom = [&](uint8_t v) { const domain x = d(v); want.insert(want.end(), x.begin(), x.end()); };
    raw({0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01});   // sector_id: u64 LE
    dom(0x11);                                               // comm_r
    raw({1, 0, 0, 0, 0, 0, 0, 0});                          // vanilla_proof.sectors: length 1
    raw({1, 0, 0, 0, 0, 0, 0, 0});                          // inclusion_proofs: length 1
    raw({0, 0, 0, 0});                                       // ProofData::Single: u32 LE 0
    dom(0x33);                                               // root
    dom(0x44);                                               // leaf
    raw({2, 0, 0, 0, 0, 0, 0, 0});                          // path.path: length 2
    raw({1, 0, 0, 0, 0, 0, 0, 0});                          // level 0 hashes: length 1
    dom(0x55);
    raw({1, 0, 0, 0, 0, 0, 0, 0});                          // level 0 index: usize 1
    raw({1, 0, 0, 0, 0, 0, 0, 0});                          // level 1 hashes: length 1
    dom(0x66);
    raw({0, 0, 0, 0, 0, 0, 0, 0});                          // level 1 index: usize 0
    dom(0x22);                                               // comm_c
    dom(0x33);                                               // comm_r_last
    REQUIRE(want.size() == 292);

    CHECK(post_vanilla_to_bincode(s, c) == want);
    CHECK(post_vanilla_from_bincode(want, c, k_what) == s);
}

TEST_CASE("PoSt bincode: every truncation is refused", "[filecoin][post_bincode]")
{
    for (const post_config& c : {config_of(64, {8, 0, 0}, 2), config_of(512, {8, 8, 0}, 2),
                                 config_of(1024, {8, 8, 2}, 2)}) {
        const std::vector<uint8_t> bytes = post_vanilla_to_bincode(random_sector(c, 7), c);
        size_t refused = 0;
        for (size_t len = 0; len < bytes.size(); ++len) {
            try {
                (void)post_vanilla_from_bincode(std::span(bytes.data(), len), c, k_what);
            } catch (const error& e) {
                refused += e.code() == errc::bad_length;
            }
        }
        CHECK(refused == bytes.size());
    }
}

TEST_CASE("PoSt bincode: trailing bytes and inflated lengths are refused", "[filecoin][post_bincode]")
{
    const post_config c = config_of(64, {8, 0, 0});
    std::vector<uint8_t> bytes = valid_single();
    const size_t size = bytes.size();
    bytes.push_back(0);
    expect_error([&] { (void)post_vanilla_from_bincode(bytes, c, k_what); }, errc::bad_length,
                 {k_what, "byte " + std::to_string(size), "1 bytes after"});
    bytes.pop_back();

    for (uint64_t huge : {uint64_t(1) << 60, ~uint64_t(0), uint64_t(4)}) {   // 3 proofs: 4 do not fit
        std::vector<uint8_t> b = bytes;
        put_u64(b, k_proofs_at, huge);
        expect_error([&] { (void)post_vanilla_from_bincode(b, c, k_what); }, errc::bad_length,
                     {"byte 48: inclusion_proofs:", "do not fit"});
    }
    std::vector<uint8_t> b = bytes;
    put_u64(b, k_hashes_at, uint64_t(1) << 60);
    expect_error([&] { (void)post_vanilla_from_bincode(b, c, k_what); }, errc::bad_format,
                 {"byte 132: inclusion_proofs[0].path.path[0].hashes:", "1152921504606846976 hashes; arity 8 takes 7"});
    b = bytes;
    put_u64(b, k_path_at, uint64_t(1) << 60);
    expect_error([&] { (void)post_vanilla_from_bincode(b, c, k_what); }, errc::bad_format,
                 {"byte 124: inclusion_proofs[0].path.path:", "the tree 8-0-0 of 64 nodes has 2 base levels"});
}

TEST_CASE("PoSt bincode: wrong sector counts, variants, hash counts and positions are refused",
          "[filecoin][post_bincode]")
{
    const post_config c = config_of(64, {8, 0, 0});
    const std::vector<uint8_t> bytes = valid_single();
    auto refused = [&](size_t at, uint64_t v, int width, std::initializer_list<std::string> parts) {
        std::vector<uint8_t> b = bytes;
        for (int i = 0; i < width; ++i) b[at + i] = uint8_t(v >> (8 * i));
        expect_error([&] { (void)post_vanilla_from_bincode(b, c, k_what); }, errc::bad_format, parts);
    };
    refused(k_sectors_at, 0, 8, {"sector.vanilla: byte 40: vanilla_proof.sectors: 0 sector proofs"});
    refused(k_sectors_at, 2, 8, {"byte 40: vanilla_proof.sectors: 2 sector proofs"});
    refused(k_variant_at, 1, 4, {"byte 56: inclusion_proofs[0].data: variant 1 (Sub)", "takes variant 0 (Single)"});
    refused(k_variant_at, 7, 4, {"variant 7 (unknown)"});
    refused(k_hashes_at, 8, 8, {"byte 132: inclusion_proofs[0].path.path[0].hashes: 8 hashes; arity 8 takes 7"});
    refused(k_hashes_at, 6, 8, {"6 hashes"});
    refused(k_index_at, 9, 8,
            {"sector.vanilla: byte 364: inclusion_proofs[0].path.path[0].index: 9 is not below the arity 8"});
    refused(k_index_at, 8, 8, {"index: 8 is not below the arity 8"});
    refused(k_index_at, uint64_t(1) << 32, 8, {"index: 4294967296 is not below"});
    refused(k_path_at, 1, 8, {"1 levels", "has 2 base levels"});

    // Bytes of one shape read under another: the variant gives it away.
    const post_config sub = config_of(512, {8, 8, 0});
    expect_error([&] { (void)post_vanilla_from_bincode(bytes, sub, k_what); }, errc::bad_format,
                 {"variant 0 (Single); the tree 8-8-0 of 512 nodes takes variant 1 (Sub)"});
    const post_config top = config_of(1024, {8, 8, 2});
    const std::vector<uint8_t> sub_bytes = post_vanilla_to_bincode(random_sector(sub, 3), sub);
    expect_error([&] { (void)post_vanilla_from_bincode(sub_bytes, top, k_what); }, errc::bad_format,
                 {"variant 1 (Sub)", "takes variant 2 (Top)"});
    // Sub: the sub path's hash count sits after the base path.
    std::vector<uint8_t> b = sub_bytes;
    const size_t sub_path_at = 56 + 4 + 8 + 2 * (16 + 7 * 32);
    put_u64(b, sub_path_at + 8, 3);
    expect_error([&] { (void)post_vanilla_from_bincode(b, sub, k_what); }, errc::bad_format,
                 {"byte " + std::to_string(sub_path_at + 8) +
                  ": inclusion_proofs[0].sub_proof.path[0].hashes: 3 hashes"});
}

TEST_CASE("PoSt bincode: the writer refuses proofs that do not fit the tree", "[filecoin][post_bincode]")
{
    const post_config single = config_of(64, {8, 0, 0}), sub = config_of(512, {8, 8, 0});
    post_sector_proof s = random_sector(sub, 5);
    expect_error([&] { (void)post_vanilla_to_bincode(s, single); }, errc::invalid_argument,
                 {"inclusion_proofs[0]: 1 sub levels; the tree 8-0-0 of 64 nodes has 0"});
    s.inclusion_proofs[1].sub.clear();
    expect_error([&] { (void)post_vanilla_to_bincode(s, sub); }, errc::invalid_argument,
                 {"inclusion_proofs[1]: 0 sub levels; the tree 8-8-0 of 512 nodes has 1"});
    s = random_sector(sub, 5);
    s.inclusion_proofs[2].top = s.inclusion_proofs[2].sub;
    expect_error([&] { (void)post_vanilla_to_bincode(s, sub); }, errc::invalid_argument, {"1 top levels"});
    s = random_sector(sub, 5);
    s.inclusion_proofs[0].base[1].index = 8;
    expect_error([&] { (void)post_vanilla_to_bincode(s, sub); }, errc::invalid_argument,
                 {"inclusion_proofs[0].base[1]: 7 hashes and index 8"});
    s = random_sector(sub, 5);
    s.inclusion_proofs[0].sub[0].hashes.pop_back();
    expect_error([&] { (void)post_vanilla_to_bincode(s, sub); }, errc::invalid_argument, {"sub[0]: 6 hashes"});

    post_config bad = single;
    bad.nodes = 65;
    expect_error([&] { (void)post_vanilla_to_bincode(random_sector(single, 1), bad); }, errc::invalid_argument,
                 {"nodes = 65 does not fit tree 8-0-0"});
    expect_error([&] { (void)post_vanilla_from_bincode(valid_single(), bad, k_what); }, errc::invalid_argument,
                 {k_what, "nodes = 65"});
}

TEST_CASE("PoSt bincode: single-byte mutations are read or refused, never crash", "[filecoin][post_bincode]")
{
    const post_config c = config_of(16, {2, 4, 2}, 2);
    const std::vector<uint8_t> bytes = post_vanilla_to_bincode(random_sector(c, 9), c);
    size_t read = 0, refused = 0;
    for (size_t at = 0; at < bytes.size(); ++at) {
        for (uint8_t flip : {0x01, 0x80, 0xff}) {
            std::vector<uint8_t> b = bytes;
            b[at] ^= flip;
            try {
                (void)post_vanilla_from_bincode(b, c, k_what);
                ++read;
            } catch (const error&) {
                ++refused;
            }
        }
    }
    CHECK(read + refused == 3 * bytes.size());
    CHECK(refused > 0);
    CHECK(read > 0);   // the domains are bytes the reader does not judge
}
