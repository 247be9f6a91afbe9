// SnapDeals (EmptySectorUpdate): registered configs, the challenges against
// rust-fil-proofs' hard-coded vectors, the gadgets' and the circuit's sizes
// against its asserted constraint counts, made-up updates that check, the
// circuit satisfied by their witness, and proofs that verify.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/comm_d.hpp"
#include "cuzk/filecoin/porep/seal.hpp"
#include "cuzk/filecoin/update/circuit.hpp"
#include "cuzk/filecoin/update/prove.hpp"
#include "cuzk/timeline/sinks.hpp"
#include "gmp_util.hpp"
#include "pce_compare.hpp"
#include "test_support.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;

namespace {

// rand_xorshift's XorShiftRng (the generator of rust-fil-proofs' tests),
// seeded as from_seed does: four little-endian u32.
struct xorshift {
    uint32_t x, y, z, w;
    explicit xorshift(const uint8_t (&seed)[16])
    {
        uint32_t s[4];
        for (int i = 0; i < 4; ++i)
            s[i] = uint32_t(seed[4 * i]) | uint32_t(seed[4 * i + 1]) << 8 | uint32_t(seed[4 * i + 2]) << 16 |
                   uint32_t(seed[4 * i + 3]) << 24;
        x = s[0], y = s[1], z = s[2], w = s[3];
    }
    uint32_t next_u32()
    {
        const uint32_t t = x ^ (x << 11);
        x = y, y = z, z = w;
        w = w ^ (w >> 19) ^ (t ^ (t >> 8));
        return w;
    }
    uint64_t next_u64()
    {
        const uint64_t lo = next_u32();
        return uint64_t(next_u32()) << 32 | lo;
    }
};

// blstrs' Scalar::random: four u64 as a little-endian integer, the top bit
// cleared, drawn again until below r.
domain random_domain(xorshift& rng)
{
    for (;;) {
        fr::repr v;
        for (auto& l : v.l) l = rng.next_u64();
        v.l[3] &= ~(uint64_t(1) << 63);
        domain d;
        for (int i = 0; i < 32; ++i) d[i] = uint8_t(v.l[i / 8] >> (8 * (i % 8)));
        fr x;
        if (fr::from_bytes_le(d.data(), x)) return d;
    }
}

// storage_proofs_core::TEST_SEED.
constexpr uint8_t fil_test_seed[16] = {0x59, 0x62, 0xbe, 0x5d, 0x76, 0x3d, 0x31, 0x8d,
                                   0x17, 0xdb, 0x37, 0x32, 0x54, 0x06, 0xbc, 0xe5};

// validate_tree_r_shape's shapes.
tree_shape tree_for(uint64_t nodes)
{
    switch (nodes) {
    case 1u << 5: return {8, 4, 0};
    case 1u << 7: return {8, 2, 0};
    case 1u << 8: return {8, 4, 0};
    case 1u << 9: return {8, 8, 0};
    case 1u << 10: return {8, 8, 2};
    case 1u << 19: return {8, 2, 0};
    case 1ull << 30: return {8, 8, 0};
    case 1ull << 31: return {8, 8, 2};
    default: return {8, 0, 0};
    }
}

} // namespace

TEST_CASE("update: registered proofs and their shapes", "[fc][update]")
{
    const update_config c32 = registered_update_proof("StackedDrg32GiBV1");
    CHECK(c32.registered_id == 3);
    CHECK(c32.nodes == (uint64_t(1) << 30));
    CHECK(c32.partitions == 16);
    CHECK(c32.challenge_count == 86);
    CHECK(c32.apex_leaf_count == 128);
    CHECK(c32.random_bits() == 26);
    CHECK(c32.challenges_per_digest() == 9);
    CHECK(c32.digests_per_partition() == 10);
    CHECK(c32.h_default() == 10);
    CHECK(c32.h_select(10) == 8);
    CHECK_THROWS_AS(c32.h_select(13), error);
    const update_config c2 = registered_update_proof(0);
    CHECK(c2.name == "StackedDrg2KiBV1");
    CHECK(c2.partitions == 1);
    CHECK(c2.apex_leaf_count == 8);
    CHECK(c2.h_default() == 1);
    CHECK(registered_update_proof(4).tree == tree_shape{8, 8, 2});
    CHECK_THROWS_AS(registered_update_proof(5), error);
    CHECK_THROWS_AS(registered_update_proof("StackedDrg32GiBV2"), error);
    CHECK_THROWS_AS(update_config::for_nodes(1u << 20, {8, 0, 0}), error);
    CHECK_THROWS_AS(update_config::for_nodes(1u << 6, {8, 8, 2}), error);
}

TEST_CASE("update: challenges equal rust-fil-proofs' hard-coded vectors", "[fc][update]")
{
    // storage-proofs-update challenges.rs, test_challenges_against_hardcoded:
    // comm_r_new = TreeRDomain::random(XorShiftRng::from_seed(TEST_SEED)),
    // the first five challenges of partition k.
    xorshift rng(fil_test_seed);
    const domain comm_r_new = random_domain(rng);
    const std::map<std::pair<uint64_t, unsigned>, std::vector<uint32_t>> expected = {
        {{1u << 5, 0}, {21, 7, 3, 31, 0}},
        {{1u << 6, 0}, {53, 51, 56, 3, 0}},
        {{1u << 7, 0}, {117, 25, 62, 0, 72}},
        {{1u << 8, 0}, {245, 140, 15, 128, 28}},
        {{1u << 9, 0}, {245, 140, 15, 128, 28}},
        {{1u << 9, 1}, {286, 308, 493, 510, 508}},
        {{1u << 10, 0}, {245, 454, 3, 400, 193}},
        {{1u << 10, 1}, {542, 666, 955, 927, 911}},
        {{1u << 18, 0}, {36085, 32783, 44060, 10950, 3731}},
        {{1u << 18, 1}, {78878, 130797, 112892, 93994, 78379}},
        {{1u << 19, 0}, {101621, 16391, 109319, 25944, 41193}},
        {{1u << 19, 1}, {209950, 163702, 175679, 224741, 197410}},
        {{1u << 24, 0}, {1019125, 116736, 706220, 59698, 799498}},
        {{1u << 24, 1}, {2092548, 1213276, 1185483, 1164598, 1095197}},
        {{1u << 24, 14}, {15212432, 15665918, 15015423, 15012912, 15495223}},
        {{1u << 24, 15}, {16388544, 15794686, 16637142, 16319148, 16328348}},
        {{1ull << 30, 0}, {1019125, 27985696, 15282860, 11586600, 44651330}},
        {{1ull << 30, 1}, {109168525, 127316247, 80331041, 97065716, 72310052}},
        {{1ull << 30, 14}, {990420169, 955146989, 968005601, 976863263, 944650706}},
        {{1ull << 30, 15}, {1038629497, 1053983614, 1030421316, 1027373887, 1068685433}},
        {{1ull << 31, 0}, {1019125, 13992848, 3820715, 18225541, 57316660}},
        {{1ull << 31, 1}, {243386253, 197875851, 204632136, 171516766, 247789010}},
        {{1ull << 31, 14}, {1997053129, 1920414070, 2003609080, 1900492803, 1963254685}},
        {{1ull << 31, 15}, {2045262457, 2036941247, 2136653521, 2091356007, 2147167623}},
    };
    for (const auto& [key, want] : expected) {
        const auto [nodes, k] = key;
        INFO("nodes " << nodes << ", partition " << k);
        const update_config c = update_config::for_nodes(nodes, tree_for(nodes));
        const std::vector<uint32_t> got = update_challenges(c, comm_r_new, k);
        REQUIRE(got.size() == c.challenge_count);
        CHECK(std::vector<uint32_t>(got.begin(), got.begin() + 5) == want);
        // Every challenge of partition k lies in its part of the sector.
        for (uint32_t ch : got) CHECK(ch / (nodes / c.partitions) == k);
    }
    CHECK_THROWS_AS(update_challenges(update_config::for_nodes(1u << 9, {8, 8, 0}), comm_r_new, 2), error);
}

namespace {

size_t constraints_of(const update_config& c)
{
    r1cs::counting_cs cs;
    update_circuit(c).synthesize(cs);
    CHECK(cs.num_inputs() == 5);
    return cs.num_constraints();
}

} // namespace

TEST_CASE("update: circuit size equals rust-fil-proofs' asserted counts", "[fc][update]")
{
    // storage-proofs-update tests/circuit.rs (isolated-testing sizes).
    const std::pair<uint64_t, size_t> expected[] = {
        {1u << 5, 1248389}, {1u << 6, 1705039}, {1u << 7, 2165109},
        {1u << 8, 2620359}, {1u << 9, 6300021}, {1u << 10, 6760091},
    };
    for (const auto& [nodes, want] : expected) {
        INFO("nodes " << nodes);
        CHECK(constraints_of(update_config::for_nodes(nodes, tree_for(nodes))) == want);
    }
}

TEST_CASE("update: the 32 GiB circuit has 81,049,499 constraints", "[fc][update]")
{
    CHECK(constraints_of(registered_update_proof("StackedDrg32GiBV1")) == 81049499);
}

namespace {

// Every partition of `u` passes the check; the last one (it has the
// partition bits set, where there are any) satisfies the circuit with the
// expected public inputs.
void check_satisfied(const update_config& c, const update_vanilla& u)
{
    REQUIRE(u.partitions.size() == c.partitions);
    for (unsigned k = 0; k < c.partitions; ++k) {
        INFO(c.name << " (" << c.nodes << " nodes), partition " << k);
        REQUIRE_NOTHROW(update_check_vanilla(c, u.pub, k, u.partitions[k], 2));
        if (k + 1 < c.partitions) continue;
        r1cs::checking_cs t;
        update_circuit(c, u.pub, k, u.partitions[k]).synthesize(t);
        CHECK(t.first_unsatisfied() == std::nullopt);
        const std::vector<fr> expected = update_public_inputs(c, u.pub, k);
        REQUIRE(t.inputs().size() == 5);
        CHECK(std::equal(expected.begin(), expected.end(), t.inputs().begin() + 1));
    }
}

} // namespace

TEST_CASE("update: made-up updates pass the check and satisfy the circuit", "[fc][update]")
{
    for (uint64_t nodes : {uint64_t(1) << 5, uint64_t(1) << 6, uint64_t(1) << 9, uint64_t(1) << 10}) {
        const update_config c = update_config::for_nodes(nodes, tree_for(nodes));
        const update_vanilla u = update_synthetic_vanilla(c, c.h_default(), 5, 2);
        CHECK(u.partitions == update_synthetic_vanilla(c, c.h_default(), 5, 1).partitions);
        check_satisfied(c, u);
    }
}

TEST_CASE("update: made-up 8 MiB and 32 GiB updates (block-constant trees) pass the check", "[fc][update]")
{
    const update_config c8 = registered_update_proof("StackedDrg8MiBV1");
    check_satisfied(c8, update_synthetic_vanilla(c8, 12, 4, 0));
    const update_config c = registered_update_proof("StackedDrg32GiBV1");
    const update_vanilla u = update_synthetic_vanilla(c, 12, 9, 0);
    for (unsigned k : {0u, 15u}) {
        INFO("partition " << k);
        CHECK_NOTHROW(update_check_vanilla(c, u.pub, k, u.partitions[k], 0));
    }
}

TEST_CASE("update: a made-up 32 GiB update satisfies the circuit", "[fc][update][slow]")
{
    const update_config c = registered_update_proof("StackedDrg32GiBV1");
    const update_vanilla u = update_synthetic_vanilla(c, 10, 9, 0);
    r1cs::checking_cs t;
    update_circuit(c, u.pub, 15, u.partitions[15]).synthesize(t);
    CHECK(t.num_constraints() == 81049499);
    CHECK(t.first_unsatisfied() == std::nullopt);
}

TEST_CASE("update: vanilla checks name what is wrong", "[fc][update]")
{
    const update_config c = update_config::for_nodes(1u << 9, tree_for(1u << 9));
    const update_vanilla u = update_synthetic_vanilla(c, 1, 3, 2);
    const auto refused = [&](update_partition_proof p, update_public pub, unsigned k, const char* what) {
        INFO(what);
        try {
            update_check_vanilla(c, pub, k, p, 1);
            FAIL("accepted");
        } catch (const error& e) {
            CHECK(e.code() == errc::bad_format);
            CHECK_THAT(e.what(), Catch::Contains(what));
        }
    };
    auto p = u.partitions[1];
    p.challenges[3].r_new.leaf = p.challenges[3].r_old.leaf;
    refused(p, u.pub, 1, "challenge 3");
    p = u.partitions[1];
    p.apex_leaves[5][0] ^= 1;
    refused(p, u.pub, 1, "apex");
    p = u.partitions[1];
    p.comm_c[0] ^= 1;
    refused(p, u.pub, 1, "comm_r_old");
    refused(u.partitions[0], u.pub, 1, "challenge 0");
    update_public pub = u.pub;
    pub.comm_r_new[0] ^= 1;
    refused(u.partitions[1], pub, 1, "comm_r_new");
    p = u.partitions[1];
    p.challenges.pop_back();
    refused(p, u.pub, 1, "challenge proofs");
}

TEST_CASE("update: the parallel witness and R1CS equal sequential synthesis", "[fc][update]")
{
    for (const update_config& c : {update_config::for_nodes(1u << 9, tree_for(1u << 9)),
                                   registered_update_proof("StackedDrg8MiBV1")}) {
        INFO(c.nodes);
        const update_vanilla u = update_synthetic_vanilla(c, c.hs[4], 11, 2);
        const unsigned k = c.partitions - 1;
        const update_circuit circuit(c, u.pub, k, u.partitions[k]);
        CHECK(test::witness_mismatch(circuit, 3) == "");
        const r1cs::pce seq = r1cs::record(update_circuit(c));
        const auto par = record_update_pce(c, 3);
        CHECK(test::first_difference(seq, *par) == "");
        const update_layout L = update_layout_of(c);
        CHECK(L.inputs == 5);
        CHECK(L.prefix_aux + c.challenge_count * L.challenge_aux == seq.num_aux);
    }
}

namespace {

// A sealed 2 KiB test sector (sealed once for the whole file).
const std::string& sealed_sector()
{
    static const std::string dir = [] {
        const auto d = (std::filesystem::temp_directory_path() /
                        ("cuzk-test-update-" + std::to_string(test::test_seed())))
                           .string();
        replica_source r;
        r.prover_id.fill(1);
        r.ticket.fill(2);
        r.prover_id[31] = r.ticket[31] = 0;
        r.sector_id = 7;
        std::vector<uint8_t> data(registered_seal_proof(5).sector_bytes(), 0);
        seal_sector(registered_seal_proof(5), r, data, d, 2);
        return d;
    }();
    return dir;
}

// New data for a 2 KiB sector: every node a field element.
std::vector<uint8_t> new_data(uint8_t seed)
{
    std::vector<uint8_t> d(2048);
    for (size_t i = 0; i < d.size(); ++i) d[i] = uint8_t(i * 31 + seed);
    for (size_t n = 0; n < d.size() / 32; ++n) d[32 * n + 31] &= 0x3f;
    return d;
}

} // namespace

TEST_CASE("update: the update of a sealed 2 KiB sector checks; bad data and other sizes are refused", "[fc][update]")
{
    const update_config c = registered_update_proof("StackedDrg2KiBV1");
    const std::vector<uint8_t> data = new_data(5);
    const update_vanilla u = update_sector_vanilla(sealed_sector(), c, data, 1, 2);
    CHECK(u.pub.comm_r_old == read_sector_info(sealed_sector()).comm.comm_r);
    CHECK(u.pub.comm_d_new == compute_comm_d(data));
    CHECK(u.pub.comm_r_new != u.pub.comm_r_old);
    check_satisfied(c, u);
    std::vector<uint8_t> bad = data;
    bad[32 * 9 + 31] = 0xff;
    CHECK_THROWS_AS(update_sector_vanilla(sealed_sector(), c, bad, 1, 2), error);
    CHECK_THROWS_AS(update_sector_vanilla(sealed_sector(), c, std::span(data).first(1024), 1, 2), error);
    CHECK_THROWS_AS(update_sector_vanilla(sealed_sector(), registered_update_proof(1), data, 10, 2), error);
}

TEST_CASE("update: a 2 KiB update proof through the engine verifies; other public values do not", "[fc][update]")
{
    const update_config c = registered_update_proof("StackedDrg2KiBV1");
    const update_vanilla u = update_sector_vanilla(sealed_sector(), c, new_data(9), 1, 2);
    pipeline::engine_config ec;
    ec.synth_workers = 1;
    ec.device_threads = 2;
    pipeline::engine eng(ec);
    const update_key k = update_dev_setup(c, false, 2);
    const auto key = eng.add_key(k.pk, k.pce, k.density, {c.name});
    const std::vector<uint8_t> proof = update_prove(eng, key, c, u.pub, u.partitions, 2);
    REQUIRE(proof.size() == 192);
    CHECK(update_verify(k.pk->vk, proof, c, u.pub));
    for (int field = 0; field < 3; ++field) {
        update_public other = u.pub;
        (field == 0 ? other.comm_r_old : field == 1 ? other.comm_d_new : other.comm_r_new)[0] ^= 1;
        CHECK_FALSE(update_verify(k.pk->vk, proof, c, other));
    }
    update_public other_h = u.pub;
    other_h.h = 2;
    CHECK_THROWS_AS(update_verify(k.pk->vk, proof, c, other_h), error);
    CHECK_THROWS_AS(update_verify(k.pk->vk, std::vector<uint8_t>(384), c, u.pub), error);
    // A bad vanilla proof is refused before anything is proved.
    auto bad = u.partitions;
    bad[0].challenges[2].r_new.leaf = bad[0].challenges[2].r_old.leaf;
    CHECK_THROWS_AS(update_prove(eng, key, c, u.pub, bad, 2), error);
}

TEST_CASE("gpu: update proofs through the cuda engine take the sliced witness path and verify", "[fc][update][gpu]")
{
    GPU_OR_SKIP();
    timeline::recorder rec;
    pipeline::engine_config ec;
    ec.backend = pipeline::engine_backend::cuda;
    ec.sink = &rec;
    pipeline::engine eng(ec);
    // 2 KiB (one partition) and 16 KiB (two partitions, tree 8-8-0).
    for (const update_config& c : {registered_update_proof(0), update_config::for_nodes(1u << 9, {8, 8, 0})}) {
        INFO(c.nodes);
        const update_vanilla u = update_synthetic_vanilla(c, c.h_default(), 8, 2);
        const update_key k = update_dev_setup(c, true, 2);
        const auto key = eng.add_key(k.pk, k.pce, k.density, {c.name});
        const std::vector<uint8_t> proof = update_prove(eng, key, c, u.pub, u.partitions, 2);
        REQUIRE(proof.size() == 192 * c.partitions);
        CHECK(update_verify(k.pk->vk, proof, c, u.pub));
        update_public other = u.pub;
        other.comm_d_new[1] ^= 1;
        CHECK_FALSE(update_verify(k.pk->vk, proof, c, other));
    }
    size_t packs = 0;
    for (const timeline::event& e : rec.events()) packs += e.name == "PACK";
    CHECK(packs == 0);
}
