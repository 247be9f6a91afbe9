// The filecoin layer's byte-level primitives: shared types and the registered
// proof table, Fr32 padding, the comm_d tree with its zero commitments,
// replica_id and the challenge derivations, against Filecoin's published
// known answers and independent properties.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <random>
#include <string>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/comm_d.hpp"
#include "cuzk/filecoin/common/fr32.hpp"
#include "cuzk/filecoin/common/hashers.hpp"
#include "cuzk/filecoin/common/merkle_proof.hpp"
#include "cuzk/filecoin/common/types.hpp"
#include "cuzk/filecoin/porep/challenges.hpp"
#include "gmp_util.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;

namespace {

domain hx(std::string_view s) { return parse_hex32(s, "test"); }

template <class F>
errc code_of(F&& f)
{
    try {
        f();
    } catch (const error& e) {
        return e.code();
    }
    return errc::ok;
}

template <class F>
std::string message_of(F&& f)
{
    try {
        f();
    } catch (const error& e) {
        return e.what();
    }
    return "";
}

domain small(uint64_t v) { return fr_to_domain(fr::from_u64(v)); }

std::vector<uint8_t> random_bytes(size_t n, std::mt19937_64& rng)
{
    std::vector<uint8_t> v(n);
    for (auto& b : v) b = uint8_t(rng());
    return v;
}

// Bit-by-bit Fr32 padding, straight from the definition: raw stream bit b
// goes to bit 256·(b / 254) + b % 254 of the output.
std::vector<uint8_t> naive_pad(const std::vector<uint8_t>& raw)
{
    const size_t bits = raw.size() * 8;
    std::vector<uint8_t> out(32 * ((bits + 253) / 254), 0);
    for (size_t b = 0; b < bits; ++b) {
        if (!((raw[b / 8] >> (b % 8)) & 1)) continue;
        const size_t o = 256 * (b / 254) + b % 254;
        out[o / 8] |= uint8_t(1u << (o % 8));
    }
    return out;
}

} // namespace

// ---- types ------------------------------------------------------------------

TEST_CASE("domain <-> Fr, hex parsing and printing", "[filecoin][types]")
{
    const domain d = hx("0x0100000000000000000000000000000000000000000000000000000000000000");
    CHECK(domain_to_fr(d) == fr::from_u64(1));
    CHECK(fr_to_domain(fr::from_u64(0x0102)) == hx("0201000000000000000000000000000000000000000000000000000000000000"));
    const std::string r_le = "01000000fffffffffe5bfeff02a4bd5305d8a10908d83933487d9d2953a7ed73";
    CHECK(code_of([&] { domain_to_fr(hx(r_le)); }) == errc::non_canonical);
    CHECK(message_of([&] { domain_to_fr(hx(r_le), "comm_r"); }).find("comm_r") != std::string::npos);
    domain r_minus_1 = hx(r_le);
    r_minus_1[0] = 0;
    CHECK(fr_to_domain(domain_to_fr(r_minus_1)) == r_minus_1);
    CHECK(to_hex(r_minus_1) == "00000000fffffffffe5bfeff02a4bd5305d8a10908d83933487d9d2953a7ed73");

    CHECK(code_of([] { parse_hex32("abcd", "seed"); }) == errc::invalid_argument);
    CHECK(message_of([] { parse_hex32("abcd", "seed"); }).find("seed") != std::string::npos);
    CHECK(code_of([] { parse_hex32(std::string(63, '0') + "g", "x"); }) == errc::invalid_argument);
    CHECK(to_hex(hx(std::string(64, 'F'))) == std::string(64, 'f'));
}

TEST_CASE("tree shapes and custom configs are validated", "[filecoin][types]")
{
    CHECK(tree_shape{8, 8, 0}.name() == "8-8-0");
    CHECK(tree_shape{8, 8, 2}.base_trees() == 16);
    const porep_id_t id{};
    const seal_config c = seal_config::custom(8, 2, 1, {8, 0, 0}, id);
    CHECK(c.nodes == 8);
    CHECK(c.name == "custom");
    CHECK(c.registered_id == -1);
    CHECK(seal_config::custom(64 * 8, 11, 3, {8, 8, 0}, id, api_version::v1_1, 2).challenges_total() == 6);
    CHECK(seal_config::custom(2 * 8 * 2, 2, 1, {2, 8, 2}, id).tree.base_trees() == 16);

    auto msg = [&](uint64_t nodes, unsigned layers, unsigned ch, tree_shape t) {
        return message_of([&] { seal_config::custom(nodes, layers, ch, t, id); });
    };
    CHECK(msg(8 * 8, 2, 1, {8, 8, 0}).empty());
    CHECK(msg(8, 2, 1, {8, 8, 0}).find("nodes") != std::string::npos);    // k = 0
    CHECK(msg(48, 2, 1, {8, 0, 0}).find("nodes") != std::string::npos);   // not a power of 8
    CHECK(msg(64, 0, 1, {8, 0, 0}).find("layers") != std::string::npos);
    CHECK(msg(64, 16, 1, {8, 0, 0}).find("layers") != std::string::npos);
    CHECK(msg(64, 2, 0, {8, 0, 0}).find("challenges") != std::string::npos);
    CHECK(msg(64, 2, 1, {1, 0, 0}).find("base") != std::string::npos);
    CHECK(msg(64, 2, 1, {8, 0, 2}).find("top") != std::string::npos);
}

TEST_CASE("registered seal proofs: the per-size table and porep_id", "[filecoin][types]")
{
    const porep_id_t id8 = porep_id_of(8);
    CHECK(id8[0] == 8);
    CHECK(std::all_of(id8.begin() + 1, id8.end(), [](uint8_t b) { return b == 0; }));
    CHECK(porep_id_of(0x0102)[1] == 1);

    struct row {
        int id;
        const char* name;
        uint64_t nodes;
        unsigned layers, partitions, challenges;
        tree_shape tree;
        api_version api;
    };
    const row rows[] = {
        {0, "StackedDrg2KiBV1", 64, 2, 1, 2, {8, 0, 0}, api_version::v1_0},
        {3, "StackedDrg32GiBV1", uint64_t(1) << 30, 11, 10, 18, {8, 8, 0}, api_version::v1_0},
        {5, "StackedDrg2KiBV1_1", 64, 2, 1, 2, {8, 0, 0}, api_version::v1_1},
        {6, "StackedDrg8MiBV1_1", uint64_t(1) << 18, 2, 1, 2, {8, 0, 0}, api_version::v1_1},
        {7, "StackedDrg512MiBV1_1", uint64_t(1) << 24, 2, 1, 2, {8, 0, 0}, api_version::v1_1},
        {8, "StackedDrg32GiBV1_1", uint64_t(1) << 30, 11, 10, 18, {8, 8, 0}, api_version::v1_1},
        {9, "StackedDrg64GiBV1_1", uint64_t(1) << 31, 11, 10, 18, {8, 8, 2}, api_version::v1_1},
        {10, "StackedDrg2KiBV1_1_Feat_SyntheticPoRep", 64, 2, 1, 2, {8, 0, 0}, api_version::v1_2},
        {13, "StackedDrg32GiBV1_1_Feat_SyntheticPoRep", uint64_t(1) << 30, 11, 10, 18, {8, 8, 0}, api_version::v1_2},
        {15, "StackedDrg2KiBV1_2_Feat_NonInteractivePoRep", 64, 2, 13, 2, {8, 0, 0}, api_version::v1_2},
        {18, "StackedDrg32GiBV1_2_Feat_NonInteractivePoRep", uint64_t(1) << 30, 11, 126, 18, {8, 8, 0},
         api_version::v1_2},
        {19, "StackedDrg64GiBV1_2_Feat_NonInteractivePoRep", uint64_t(1) << 31, 11, 126, 18, {8, 8, 2},
         api_version::v1_2},
    };
    for (const row& r : rows) {
        INFO("id " << r.id);
        const seal_config c = registered_seal_proof(r.id);
        CHECK(c.name == r.name);
        CHECK(c.nodes == r.nodes);
        CHECK(c.layers == r.layers);
        CHECK(c.partitions == r.partitions);
        CHECK(c.challenges_per_partition == r.challenges);
        CHECK(c.tree == r.tree);
        CHECK(c.api == r.api);
        CHECK(c.registered_id == r.id);
        CHECK(c.porep_id == porep_id_of(uint64_t(r.id)));
    }
    for (int id = 0; id < 20; ++id) {   // every registered shape is a valid custom shape too
        const seal_config c = registered_seal_proof(id);
        CHECK_NOTHROW(seal_config::custom(c.nodes, c.layers, c.challenges_per_partition, c.tree, c.porep_id));
    }
    CHECK(code_of([] { registered_seal_proof(20); }) == errc::invalid_argument);
    CHECK(code_of([] { registered_seal_proof(-1); }) == errc::invalid_argument);
}

TEST_CASE("sector sizes parse", "[filecoin][types]")
{
    CHECK(parse_sector_size("2KiB") == 2048);
    CHECK(parse_sector_size("8MiB") == 8u << 20);
    CHECK(parse_sector_size("512MiB") == 512u << 20);
    CHECK(parse_sector_size("32GiB") == uint64_t(32) << 30);
    CHECK(parse_sector_size("64GiB") == uint64_t(64) << 30);
    CHECK(parse_sector_size("2048") == 2048);
    CHECK(code_of([] { parse_sector_size("2KB"); }) == errc::invalid_argument);
    CHECK(code_of([] { parse_sector_size("KiB"); }) == errc::invalid_argument);
    CHECK(code_of([] { parse_sector_size("100"); }) == errc::invalid_argument);
    CHECK(code_of([] { parse_sector_size("99999999999999999999GiB"); }) == errc::invalid_argument);
}

TEST_CASE("merkle_proof::leaf_index reads the positions as mixed-radix digits", "[filecoin][types]")
{
    auto el = [](size_t arity, uint32_t index) { return path_element{std::vector<domain>(arity - 1), index}; };
    merkle_proof p;
    p.base = {el(8, 5), el(8, 0), el(8, 7)};
    CHECK(p.leaf_index() == 5 + 7 * 64);
    p.sub = {el(8, 3)};
    p.top = {el(2, 1)};
    CHECK(p.leaf_index() == 5 + 7 * 64 + 3 * 512 + 1 * 4096);
    CHECK(p.levels() == 5);
    p.top = {el(2, 2)};
    CHECK(code_of([&] { (void)p.leaf_index(); }) == errc::invalid_argument);
}

// ---- fr32 ---------------------------------------------------------------------

TEST_CASE("fr32: Filecoin's padding vectors", "[filecoin][fr32]")
{
    SECTION("32 x 0xff")
    {
        const auto p = fr32_pad(std::vector<uint8_t>(32, 0xff));
        REQUIRE(p.size() == 64);
        CHECK(std::all_of(p.begin(), p.begin() + 31, [](uint8_t b) { return b == 0xff; }));
        CHECK(p[31] == 0x3f);
        CHECK(p[32] == 0x03);
        CHECK(std::all_of(p.begin() + 33, p.end(), [](uint8_t b) { return b == 0; }));
    }
    SECTION("127 x 0xff")
    {
        const auto p = fr32_pad(std::vector<uint8_t>(127, 0xff));
        REQUIRE(p.size() == 128);
        CHECK(p[31] == 0x3f);
        CHECK(p[32] == 0xff);
        for (size_t e = 0; e < 4; ++e) CHECK(p[32 * e + 31] == 0x3f);
    }
    SECTION("30 x 3 stays as it is")
    {
        const std::vector<uint8_t> raw(30, 3);
        const auto p = fr32_pad(raw);
        REQUIRE(p.size() == 32);
        CHECK(std::equal(raw.begin(), raw.end(), p.begin()));
        CHECK(p[30] == 0);
        CHECK(p[31] == 0);
    }
    SECTION("test_exotic")
    {
        std::vector<uint8_t> raw;
        for (int rep = 0; rep < 2; ++rep) {
            for (uint8_t i = 1; i <= 31; ++i) raw.push_back(i);
            raw.push_back(0xff);
        }
        for (uint8_t b : {9, 9, 9, 0xff}) raw.push_back(b);
        const auto p = fr32_pad(raw);
        REQUIRE(p.size() == 96);
        for (size_t i = 0; i < 31; ++i) CHECK(p[i] == i + 1);
        CHECK(p[31] == 63);
        CHECK(p[32] == 7);
        for (size_t i = 0; i < 30; ++i) CHECK(p[33 + i] == uint8_t((i + 2) << 2));
        CHECK(p[63] == 0x3c);
        CHECK(p[64] == 0x9f);
        CHECK(p[65] == 0x90);
        CHECK(p[66] == 0x90);
        CHECK(p[67] == 0xf0);
        CHECK(p[68] == 0x0f);
        CHECK(p == naive_pad(raw));
    }
}

TEST_CASE("fr32: sizes", "[filecoin][fr32]")
{
    CHECK(fr32_padded_size(0) == 0);
    CHECK(fr32_padded_size(1) == 32);
    CHECK(fr32_padded_size(31) == 32);
    CHECK(fr32_padded_size(32) == 64);
    CHECK(fr32_padded_size(127) == 128);
    CHECK(fr32_padded_size(128) == 160);
    CHECK(fr32_padded_size(2032) == 2048);   // a 2 KiB sector's raw capacity
    CHECK(fr32_unpadded_size(2048) == 2032);
    CHECK(fr32_unpadded_size(uint64_t(32) << 30) == uint64_t(127) << 28);
    CHECK(fr32_unpadded_size(32) == 31);
    CHECK(code_of([] { fr32_unpadded_size(33); }) == errc::invalid_argument);
}

TEST_CASE("fr32: pad matches the bitwise definition and unpads back at many lengths", "[filecoin][fr32]")
{
    std::mt19937_64 rng(cuzk::test::test_seed());
    std::vector<size_t> lengths;
    for (size_t n = 0; n <= 300; ++n) lengths.push_back(n);
    for (size_t n : {381, 508, 635, 1015, 1016, 1017, 2032, 4064, 127 * 40 + 5}) lengths.push_back(n);
    for (size_t n : lengths) {
        INFO("length " << n);
        const auto raw = random_bytes(n, rng);
        const auto p = fr32_pad(raw);
        REQUIRE(p == naive_pad(raw));
        CHECK(fr32_unpad(p, n) == raw);
        // Every whole element is a canonical Fr (< 2^254).
        for (size_t e = 0; e < p.size() / 32; ++e) CHECK((p[32 * e + 31] & 0xc0) == 0);
    }
}

TEST_CASE("fr32: the threaded path equals the single-threaded one", "[filecoin][fr32]")
{
    std::mt19937_64 rng(cuzk::test::test_seed() + 1);
    const auto raw = random_bytes(127 * 20000 + 77, rng);   // past the threading threshold
    const auto p1 = fr32_pad(raw, 1);
    CHECK(fr32_pad(raw, 4) == p1);
    CHECK(fr32_unpad(p1, raw.size(), 4) == raw);
    CHECK(fr32_unpad(p1, raw.size(), 1) == raw);
}

TEST_CASE("fr32: unpadding rejects set spare bits and short input", "[filecoin][fr32]")
{
    std::vector<uint8_t> p = fr32_pad(std::vector<uint8_t>(300, 0x5a));
    CHECK(fr32_unpad(p, 300).size() == 300);
    for (size_t at : {31u, 95u, 255u, 287u}) {   // whole-block elements and the tail's
        auto bad = p;
        bad[at] |= 0x80;
        INFO("byte " << at);
        CHECK(code_of([&] { fr32_unpad(bad, 300); }) == errc::invalid_argument);
        CHECK(message_of([&] { fr32_unpad(bad, 300); }).find("byte " + std::to_string(at)) != std::string::npos);
    }
    CHECK(code_of([&] { fr32_unpad(std::span(p).first(p.size() - 32), 300); }) == errc::bad_length);
    std::vector<uint8_t> out(10);
    CHECK(code_of([&] { fr32_pad(out, std::span(p).first(31)); }) == errc::bad_length);
}

// ---- comm_d -------------------------------------------------------------------

TEST_CASE("zero commitments: Filecoin's table", "[filecoin][comm_d]")
{
    const std::pair<unsigned, const char*> rows[] = {
        {0, "0000000000000000000000000000000000000000000000000000000000000000"},
        {1, "f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb0b"},
        {2, "3731bb99ac689f66eef5973e4a94da188f4ddcae580724fc6f3fd60dfd488333"},
        {3, "642a607ef886b004bf2c1978463ae1d4693ac0f410eb2d1b7a47fe205e5e750f"},
        {4, "57a2381a28652bf47f6bef7aca679be4aede5871ab5cf3eb2c08114488cb8526"},
        {5, "1f7ac9595510e09ea41c460b176430bb322cd6fb412ec57cb17d989a4310372f"},
        {6, "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833"},
        {18, "65f29e5d98d246c38b388cfc06db1f6b021303c5a289000bdce832a9c3ec421c"},
        {24, "39560e7b13a93b07a243fd2720ffa7cb3e1d2e505ab3629e79f46313512cda06"},
        {30, "077e5fde35c50a9303a55009e3498a4ebedff39c42b710b730d8ec7ac7afa63e"},
        {31, "e64005a6bfe3777953b8ad6ef93f0fca1049b2041654f2a411f7702799cece02"},
    };
    for (const auto& [k, hex] : rows) {
        INFO("k = " << k);
        CHECK(to_hex(zero_comm(k)) == hex);
    }
    CHECK(zero_comm_d(2048) == zero_comm(6));
    CHECK(zero_comm_d(uint64_t(32) << 30) == zero_comm(30));
    CHECK(code_of([] { zero_comm_d(96); }) == errc::invalid_argument);
    // A tree over actual zero bytes agrees (2 KiB, the pieces.rs value).
    const std::vector<uint8_t> zeros(2048, 0);
    CHECK(to_hex(data_tree(zeros).root()) == rows[6].second);
    CHECK(to_hex(compute_comm_d(zeros)) == rows[6].second);
}

TEST_CASE("data tree: levels, proofs and verification", "[filecoin][comm_d]")
{
    std::mt19937_64 rng(cuzk::test::test_seed() + 2);
    auto data = fr32_pad(random_bytes(fr32_unpadded_size(32 * 64), rng));
    REQUIRE(data.size() == 32 * 64);
    const data_tree t(data, 2);
    CHECK(t.leaves() == 64);
    CHECK(t.height() == 6);
    // Root by hand from the definition.
    std::vector<domain> level(64);
    for (size_t i = 0; i < 64; ++i) std::copy_n(data.begin() + 32 * i, 32, level[i].begin());
    CHECK(t.leaf(5) == level[5]);
    while (level.size() > 1) {
        std::vector<domain> up(level.size() / 2);
        for (size_t i = 0; i < up.size(); ++i) up[i] = sha256_node(level[2 * i], level[2 * i + 1]);
        level = up;
    }
    CHECK(t.root() == level[0]);
    CHECK(compute_comm_d(data, 3) == t.root());

    for (size_t i = 0; i < 64; ++i) {
        const merkle_proof p = t.prove(i);
        CHECK(p.base.size() == 6);
        CHECK(p.leaf_index() == i);
        CHECK(data_tree::verify(p));
        merkle_proof bad = p;
        bad.base[i % 6].hashes[0][3] ^= 1;
        CHECK_FALSE(data_tree::verify(bad));
        bad = p;
        bad.base[(i + 1) % 6].index ^= 1;
        CHECK_FALSE(data_tree::verify(bad));
        bad = p;
        bad.leaf[0] ^= 1;
        CHECK_FALSE(data_tree::verify(bad));
    }
    CHECK(code_of([&] { (void)t.leaf(64); }) == errc::invalid_argument);
    CHECK(code_of([&] { data_tree(std::span(data).first(96)); }) == errc::bad_length);
}

TEST_CASE("data tree: the threaded build equals the single-threaded one", "[filecoin][comm_d]")
{
    std::mt19937_64 rng(cuzk::test::test_seed() + 3);
    const auto data = random_bytes(32 << 15, rng);   // 2^15 leaves: levels above the threading threshold
    const data_tree t1(data, 1), t4(data, 4);
    CHECK(t1.root() == t4.root());
    CHECK(t1.node(2, 777) == t4.node(2, 777));
    CHECK(compute_comm_d(data, 4) == t1.root());
    CHECK(compute_comm_d(data, 1) == t1.root());
    CHECK(data_tree::verify(t4.prove(12345)));
}

// ---- replica_id and challenges ------------------------------------------------

TEST_CASE("replica_id and interactive challenges: the 2 KiB V1_1 regression record", "[filecoin][challenges]")
{
    const domain prover = hx("101cbe4b9c42604f04c703c396f788c6cb2d6d7d58f45430b12eb2edd640076c");
    const domain ticket = hx("e8867f2000d5597a0a5f4382c52b8b89890019df5320d486a067f38e6c68624b");
    const domain seed = hx("56964257e0d6c11e074117b36172fff3ebd1a6ec18fa79555e58df5a9d889dcb");
    const domain comm_d = hx("7e45f0925dc72593d6b296100e6ca63e3341c92a50c0e7a9461883a3c959ea28");
    const domain comm_r = hx("d67d57ea6808fd67bdedb331388b5005d3f837b6153c37ff90e720f10f34fc29");
    const seal_config cfg = registered_seal_proof(5);
    const domain rid = replica_id(prover, 9259733836259213201ull, ticket, comm_d, cfg.porep_id);
    CHECK(to_hex(rid) == "da838d3efe2e28665cd17ebfa274f67af8c3b51dfb01e8c6bf8892e712d62006");
    CHECK(interactive_challenges(64, rid, seed, 2, 0) == std::vector<uint64_t>{57, 58});
    CHECK(porep_challenges(cfg, rid, comm_r, seed, 0) == std::vector<uint64_t>{57, 58});
    CHECK(code_of([&] { porep_challenges(cfg, rid, comm_r, seed, 1); }) == errc::invalid_argument);
    // The sector id is big-endian: byte-swapping it changes the id.
    CHECK(replica_id(prover, 0x91d2a4d1c4a5a080ull, ticket, comm_d, cfg.porep_id) != rid);
}

TEST_CASE("challenges: range and partition equivalence", "[filecoin][challenges]")
{
    std::mt19937_64 rng(cuzk::test::test_seed() + 4);
    domain rid{}, seed{}, comm_r{};
    for (auto* d : {&rid, &seed, &comm_r})
        for (auto& b : *d) b = uint8_t(rng());
    rid[31] &= 0x3f;
    comm_r[31] &= 0x3f;
    const uint64_t nodes = uint64_t(1) << 30;
    using fn = std::function<std::vector<uint64_t>(unsigned n, unsigned k)>;
    const fn kinds[] = {
        [&](unsigned n, unsigned k) { return interactive_challenges(nodes, rid, seed, n, k); },
        [&](unsigned n, unsigned k) { return ni_challenges(nodes, rid, comm_r, n, k); },
        [&](unsigned n, unsigned k) { return synthetic_porep_challenges(nodes, rid, comm_r, seed, n, k); },
    };
    for (const fn& f : kinds) {
        const auto all = f(40, 0);
        std::vector<uint64_t> parts;
        for (unsigned k = 0; k < 5; ++k) {
            const auto p = f(8, k);
            parts.insert(parts.end(), p.begin(), p.end());
        }
        CHECK(parts == all);
        for (uint64_t c : all) CHECK((c >= 1 && c < nodes));
    }
    CHECK(interactive_challenges(nodes, rid, seed, 4, 0) != ni_challenges(nodes, rid, comm_r, 4, 0));
    // The smallest sector: every challenge is 1.
    CHECK(interactive_challenges(2, rid, seed, 3, 0) == std::vector<uint64_t>{1, 1, 1});
}

TEST_CASE("challenge_from_bytes reduces the 256-bit little-endian integer", "[filecoin][challenges]")
{
    uint8_t h[32] = {};
    h[0] = 100;
    CHECK(challenge_from_bytes(h, 64) == 100 % 63 + 1);
    h[31] = 0x80;   // 2^255 + 100; 2^255 mod 63 = 2^(255 mod 6) = 8 (2^6 = 1 mod 63)
    CHECK(challenge_from_bytes(h, 64) == (8 + 100) % 63 + 1);
    CHECK(code_of([&] { challenge_from_bytes(h, 1); }) == errc::invalid_argument);
}

TEST_CASE("synthetic challenges: test_synth_challenges_against_hardcoded", "[filecoin][challenges]")
{
    const uint64_t nodes = 1 << 10;
    const domain rid = small(55), comm_r = small(101);
    domain rand;
    rand.fill(1);
    const std::vector<uint64_t> synth = {178, 297, 869, 211, 875, 477, 94, 781, 124, 332, 856,
                                         801, 176, 692, 429, 691, 290, 204, 986, 210, 973};
    CHECK(synthetic_challenges(nodes, rid, comm_r, 0, 21) == synth);
    CHECK(synthetic_challenges(nodes, rid, comm_r, 7, 3) == std::vector<uint64_t>{781, 124, 332});
    const std::vector<uint64_t> porep = {176, 781, 801, 986, 290, 211, 692, 856, 986, 332};
    CHECK(synthetic_porep_challenges(nodes, rid, comm_r, rand, 10, 0, 21) == porep);
    const auto idx = synthetic_selection(21, rid, rand, 10, 0);
    for (size_t i = 0; i < idx.size(); ++i) CHECK(synth[idx[i]] == porep[i]);
    CHECK(default_synthetic_count(1 << 10) == 1 << 10);
    CHECK(default_synthetic_count(uint64_t(1) << 30) == 1 << 18);
}

TEST_CASE("challenge kinds follow the registered proof", "[filecoin][challenges]")
{
    CHECK(challenge_kind_of(registered_seal_proof(8)) == challenge_kind::interactive);
    CHECK(challenge_kind_of(registered_seal_proof(13)) == challenge_kind::synthetic);
    CHECK(challenge_kind_of(registered_seal_proof(18)) == challenge_kind::non_interactive);
    CHECK(challenge_kind_of(seal_config::custom(64, 2, 2, {8, 0, 0}, {})) == challenge_kind::interactive);
    const seal_config ni = registered_seal_proof(15);
    const domain rid = small(7), comm_r = small(9), seed{};
    CHECK(porep_challenges(ni, rid, comm_r, seed, 12) == ni_challenges(64, rid, comm_r, 2, 12));
    const seal_config syn = registered_seal_proof(10);
    CHECK(porep_challenges(syn, rid, comm_r, seed, 0) == synthetic_porep_challenges(64, rid, comm_r, seed, 2, 0));
}
