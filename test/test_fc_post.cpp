// FallbackPoSt (WindowPoSt, WinningPoSt): registered configs, the circuit's
// size against rust-fil-proofs' asserted counts, vanilla proofs of sealed
// 2 KiB sectors, the parallel witness and recording against sequential
// synthesis, and proofs through the engine (CPU backend) that verify.
#include <catch2/catch.hpp>

#include <filesystem>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/hashers.hpp"
#include "cuzk/filecoin/porep/seal.hpp"
#include "cuzk/filecoin/post/circuit.hpp"
#include "cuzk/filecoin/post/prove.hpp"
#include "cuzk/timeline/sinks.hpp"
#include "backend/bridge/packed_host_sink.hpp"
#include "gmp_util.hpp"
#include "pce_compare.hpp"
#include "test_support.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;

namespace {

struct counts {
    size_t inputs, constraints;
};

counts count(const post_config& c)
{
    r1cs::counting_cs cs;
    post_circuit(c).synthesize(cs);
    return {cs.num_inputs(), cs.num_constraints()};
}

domain filled(uint8_t v)
{
    domain d;
    d.fill(v);
    d[31] = 0;   // a canonical Fr
    return d;
}

// Two sealed 2 KiB sectors (ids 3 and 4), sealed once for the whole file.
const std::vector<std::string>& sealed_sectors()
{
    static const std::vector<std::string> dirs = [] {
        std::vector<std::string> out;
        for (uint64_t id : {3, 4}) {
            const auto dir = (std::filesystem::temp_directory_path() /
                              ("cuzk-test-post-" + std::to_string(test::test_seed()) + "-" + std::to_string(id)))
                                 .string();
            replica_source r;
            r.prover_id = filled(1);
            r.ticket = filled(2);
            r.sector_id = id;
            std::vector<uint8_t> data(registered_seal_proof(5).sector_bytes(), 0);
            data[32 * id] = uint8_t(id);   // different replicas
            seal_sector(registered_seal_proof(5), r, data, dir, 2);
            out.push_back(dir);
        }
        return out;
    }();
    return dirs;
}

std::vector<post_sector_proof> vanilla(const post_config& c, const domain& randomness,
                                       const std::vector<std::string>& dirs)
{
    std::vector<uint64_t> ids;
    for (const auto& d : dirs) ids.push_back(read_sector_info(d).replica.sector_id);
    const auto challenges = post_sector_challenges(c, randomness, ids);
    std::vector<post_sector_proof> out;
    for (size_t i = 0; i < dirs.size(); ++i) out.push_back(post_vanilla_proof(dirs[i], c, challenges[i], 2));
    return out;
}


} // namespace

TEST_CASE("registered PoSt proofs have Filecoin's shapes", "[filecoin][post]")
{
    const post_config w = registered_post_proof(13);
    CHECK(w.name == "StackedDrgWindow32GiBV1_2");
    CHECK(w.type == post_type::window);
    CHECK(w.nodes == (uint64_t(1) << 30));
    CHECK(w.tree == tree_shape{8, 8, 0});
    CHECK(w.sector_count == 2349);
    CHECK(w.challenge_count == 10);
    CHECK(w.api == api_version::v1_2);
    CHECK(registered_post_proof(8).api == api_version::v1_0);
    CHECK(registered_post_proof(9).sector_count == 2300);
    const post_config win = registered_post_proof(3);
    CHECK(win.name == "StackedDrgWinning32GiBV1");
    CHECK(win.circuit_sectors() == 66);
    CHECK(win.circuit_challenges() == 1);
    CHECK(registered_post_proof("StackedDrgWindow2KiBV1").registered_id == 5);
    CHECK_THROWS_AS(registered_post_proof(15), error);
    CHECK_THROWS_AS(registered_post_proof("StackedDrgWindow1KiBV1"), error);
    CHECK(w.partitions_for(2349) == 1);
    CHECK(w.partitions_for(2350) == 2);
}

TEST_CASE("the PoSt circuit has the sizes rust-fil-proofs asserts", "[filecoin][post]")
{
    // storage-proofs-post fallback circuit tests: 5 challenges a sector,
    // 64 leaves a base tree.
    const auto custom = [](uint64_t nodes, tree_shape t, unsigned sectors) {
        return post_config::custom(post_type::window, nodes, t, sectors, 5);
    };
    CHECK(count(custom(64, {8, 0, 0}, 3)).inputs == 19);
    CHECK(count(custom(64, {8, 0, 0}, 3)).constraints == 16869);
    CHECK(count(custom(256, {8, 4, 0}, 3)).constraints == 22674);
    CHECK(count(custom(512, {8, 4, 2}, 3)).constraints == 27384);
    CHECK(count(custom(64, {8, 0, 0}, 2)).inputs == 13);
    CHECK(count(custom(64, {8, 0, 0}, 2)).constraints == 11246);
    // The 32 GiB metric test (5 sectors, 10 challenges).
    CHECK(count(post_config::custom(post_type::window, uint64_t(1) << 30, {8, 8, 0}, 5, 10)).constraints == 266665);
    // WinningPoSt 32 GiB: 66 circuit sectors of one challenge.
    const counts win = count(registered_post_proof(3));
    CHECK(win.inputs == 1 + 66 * 2);
    CHECK(win.constraints == 66 * (313 + 5302));
}

TEST_CASE("the 32 and 64 GiB WindowPoSt circuits have filecoin-proofs' constraint counts", "[filecoin][post][slow]")
{
    // filecoin-proofs constants.rs: 2349 sectors give 125,279,217
    // constraints, 2300 (64 GiB) 129,887,900.
    const counts w32 = count(registered_post_proof(13));
    CHECK(w32.constraints == 125279217);
    CHECK(w32.inputs == 1 + 2349 * 11);
    CHECK(count(registered_post_proof(14)).constraints == 129887900);
}

TEST_CASE("PoSt challenges follow the documented derivation", "[filecoin][post]")
{
    domain r = filled(7);
    std::vector<uint8_t> pre(r.begin(), r.end());
    for (uint64_t v : {uint64_t(42), uint64_t(5)})
        for (int i = 0; i < 8; ++i) pre.push_back(uint8_t(v >> (8 * i)));
    const digest32 h = sha256(pre);
    uint64_t x = 0;
    for (int i = 0; i < 8; ++i) x |= uint64_t(h[i]) << (8 * i);
    CHECK(post_leaf_challenge(r, 42, 5, 64) == x % 64);
    CHECK(post_challenge_index(api_version::v1_0, 3, 10, 4) == 34);
    CHECK(post_challenge_index(api_version::v1_2, 3, 10, 4) == 4);
    // V1 challenges depend on the sector's position, V1_2 ones do not.
    const post_config v1 = registered_post_proof(5), v12 = registered_post_proof(10);
    const std::vector<uint64_t> ids{9, 9};
    const auto a = post_sector_challenges(v1, r, ids), b = post_sector_challenges(v12, r, ids);
    CHECK(a[0] != a[1]);
    CHECK(b[0] == b[1]);
    const auto s = winning_post_sector_challenge(r, filled(1), 1000, 3);
    REQUIRE(s.size() == 3);
    for (uint64_t v : s) CHECK(v < 1000);
}

TEST_CASE("PoSt vanilla proofs of sealed sectors satisfy the circuit; the parallel witness and R1CS equal "
          "sequential synthesis",
          "[filecoin][post]")
{
    for (int id : {5, 10, 0}) {
        const post_config c = registered_post_proof(id);
        const domain randomness = filled(9);
        const std::vector<std::string> dirs =
            c.type == post_type::winning ? std::vector<std::string>{sealed_sectors()[1]} : sealed_sectors();
        const auto proofs = vanilla(c, randomness, dirs);
        const auto pubs = post_public_sectors(proofs);
        REQUIRE_NOTHROW(post_check_vanilla(c, randomness, pubs, proofs, 0, 2));
        const post_circuit circuit(c, proofs);
        r1cs::test_cs t;
        circuit.synthesize(t);
        INFO(c.name);
        CHECK(t.first_unsatisfied() == std::nullopt);
        const std::vector<fr> expected = post_public_inputs(c, randomness, pubs, 0);
        REQUIRE(t.inputs().size() == expected.size() + 1);
        CHECK(std::equal(expected.begin(), expected.end(), t.inputs().begin() + 1));

        CHECK(test::witness_mismatch(circuit, 3) == "");

        const r1cs::pce seq = r1cs::record(post_circuit(c));
        const auto par = record_post_pce(c, 3);
        CHECK(test::first_difference(seq, *par) == "");
    }
}

TEST_CASE("PoSt vanilla checks name what is wrong", "[filecoin][post]")
{
    const post_config c = registered_post_proof(10);
    const domain randomness = filled(9);
    const auto proofs = vanilla(c, randomness, sealed_sectors());
    const auto pubs = post_public_sectors(proofs);
    const auto fails = [&](std::vector<post_sector_proof> p, const std::string& what, const domain& r) {
        try {
            post_check_vanilla(c, r, pubs, p, 0, 2);
        } catch (const error& e) {
            INFO(e.what());
            CHECK(e.code() == errc::bad_format);
            CHECK(std::string(e.what()).find(what) != std::string::npos);
            return;
        }
        FAIL("accepted: " << what);
    };
    auto p = proofs;
    p[1].inclusion_proofs[3].base[1].hashes[2][0] ^= 1;
    fails(p, "vanilla proof 1 (sector 4).inclusion_proofs[3]", randomness);
    p = proofs;
    p[0].comm_c[0] ^= 1;
    fails(p, "vanilla proof 0 (sector 3): Poseidon2(comm_c, comm_r_last) is not comm_r", randomness);
    p = proofs;
    std::swap(p[0].inclusion_proofs[0], p[0].inclusion_proofs[1]);
    fails(p, "inclusion_proofs[0].path", randomness);
    domain other = randomness;
    other[0] ^= 1;
    fails(proofs, "the challenge is leaf", other);
    // Every faulty sector is found, not only the first (filecoin-proofs' FaultySectors).
    p = proofs;
    p[0].comm_c[0] ^= 1;
    p[1].inclusion_proofs[9].leaf[0] ^= 1;
    const std::vector<post_fault> faults = post_find_faults(c, randomness, pubs, p, 0, 2);
    REQUIRE(faults.size() == 2);
    CHECK((faults[0].index == 0 && faults[0].sector_id == 3));
    CHECK((faults[1].index == 1 && faults[1].sector_id == 4));
    CHECK(faults[1].what.find("inclusion_proofs[9]") != std::string::npos);
    fails(p, "2 faulty sectors (3, 4)", randomness);
    CHECK(post_find_faults(c, randomness, pubs, proofs, 0, 2).empty());
}

TEST_CASE("WindowPoSt and WinningPoSt proofs through the engine verify; other randomness or sectors do not",
          "[filecoin][post]")
{
    pipeline::engine_config ec;
    ec.synth_workers = 1;
    ec.device_threads = 2;
    pipeline::engine eng(ec);
    const domain randomness = filled(9);
    for (int id : {5, 10, 0}) {
        const post_config c = registered_post_proof(id);
        INFO(c.name);
        const post_key k = post_dev_setup(c, false, 2);
        const auto key = eng.add_key(k.pk, k.pce, k.density, {c.name});
        const std::vector<std::string> dirs =
            c.type == post_type::winning ? std::vector<std::string>{sealed_sectors()[0]} : sealed_sectors();
        const auto proofs = vanilla(c, randomness, dirs);
        const auto pubs = post_public_sectors(proofs);
        const std::vector<uint8_t> proof = post_prove(eng, key, c, randomness, proofs, 0, 2);
        REQUIRE(proof.size() == 192);
        CHECK(post_verify(k.pk->vk, proof, c, randomness, pubs));
        domain other = randomness;
        other[3] ^= 1;
        CHECK_FALSE(post_verify(k.pk->vk, proof, c, other, pubs));
        auto swapped = pubs;
        swapped[0].comm_r[0] ^= 1;
        CHECK_FALSE(post_verify(k.pk->vk, proof, c, randomness, swapped));
        CHECK_THROWS_AS(post_verify(k.pk->vk, std::vector<uint8_t>(384), c, randomness, pubs), error);
        if (c.type == post_type::window) {
            // One sector alone (its challenges for position 0): the partition
            // repeats it to fill its two places.
            const auto one = vanilla(c, randomness, {sealed_sectors()[1]});
            const auto p1 = post_prove(eng, key, c, randomness, one, 0, 2);
            CHECK(post_verify(k.pk->vk, p1, c, randomness, post_public_sectors(one)));
        }
    }
}

TEST_CASE("a WindowPoSt of more sectors than a partition holds is several partitions", "[filecoin][post]")
{
    // A custom shape of one sector a partition: two sectors are two partitions,
    // the second numbered 1 (V1 challenges depend on it).
    const post_config c = post_config::custom(post_type::window, 64, {8, 0, 0}, 1, 4, api_version::v1_0);
    pipeline::engine_config ec;
    ec.synth_workers = 1;
    ec.device_threads = 2;
    pipeline::engine eng(ec);
    const post_key k = post_dev_setup(c, false, 2);
    const auto key = eng.add_key(k.pk, k.pce, k.density, {"post"});
    const domain randomness = filled(5);
    const auto proofs = vanilla(c, randomness, sealed_sectors());
    const auto proof = post_prove(eng, key, c, randomness, proofs, 0, 2);
    REQUIRE(proof.size() == 384);
    CHECK(post_verify(k.pk->vk, proof, c, randomness, post_public_sectors(proofs)));
    // The second sector alone, proved as partition 1 (as a scheduler that
    // sends one partition per call does), verifies as partition 1 only.
    const std::vector<post_sector_proof> second{proofs[1]};
    const auto p1 = post_prove(eng, key, c, randomness, second, 1, 2);
    CHECK(post_verify(k.pk->vk, p1, c, randomness, post_public_sectors(second), 1));
    CHECK_FALSE(post_verify(k.pk->vk, p1, c, randomness, post_public_sectors(second), 0));
}

TEST_CASE("synthetic PoSt vanilla proofs of full-size sectors pass the check and satisfy the circuit",
          "[filecoin][post]")
{
    // 32 GiB sectors (tree 8-8-0), three a partition; and 64 GiB WinningPoSt.
    const post_config w = post_config::custom(post_type::window, uint64_t(1) << 30, {8, 8, 0}, 3, 10,
                                              api_version::v1_2);
    const post_config win = registered_post_proof(4);
    const domain randomness = filled(3);
    for (const post_config& c : {w, win}) {
        INFO(c.name);
        const size_t n = c.type == post_type::winning ? 1 : 5;
        const auto proofs = post_synthetic_vanilla(c, randomness, n, 77, 1000, 2);
        REQUIRE(proofs.size() == n);
        CHECK(proofs == post_synthetic_vanilla(c, randomness, n, 77, 1000, 1));
        const auto pubs = post_public_sectors(proofs);
        const unsigned P = c.partitions_for(n);
        for (unsigned k = 0; k < P; ++k) {
            const size_t first = size_t(k) * c.sector_count, m = std::min<size_t>(c.sector_count, n - first);
            const std::span<const post_sector_proof> part(proofs.data() + first, m);
            const std::span<const post_public_sector> ppub(pubs.data() + first, m);
            REQUIRE_NOTHROW(post_check_vanilla(c, randomness, ppub, part, k, 2));
            r1cs::test_cs t;
            post_circuit(c, part).synthesize(t);
            CHECK(t.first_unsatisfied() == std::nullopt);
            const auto expected = post_public_inputs(c, randomness, ppub, k);
            CHECK(std::equal(expected.begin(), expected.end(), t.inputs().begin() + 1));
        }
    }
}

// A short partition repeats its last sector; the parallel witnesses copy
// the repeats' slices instead of synthesizing them again. Both must still
// equal sequential synthesis, with and without repeats, and on a blank
// circuit (every sector a repeat of the first).
TEST_CASE("the PoSt witnesses of short, full and blank partitions equal sequential synthesis", "[filecoin][post]")
{
    const post_config c = post_config::custom(post_type::window, uint64_t(1) << 30, {8, 8, 0}, 5, 3,
                                              api_version::v1_2);
    const auto proofs = post_synthetic_vanilla(c, filled(4), 5, 11, 1000, 2);
    const post_circuit blank(c);
    for (const size_t m : {size_t(2), size_t(1), size_t(5), size_t(0)}) {
        const post_circuit circuit = m ? post_circuit(c, std::span(proofs.data(), m)) : blank;
        INFO(m << " vanilla proofs (0: the blank circuit)");
        CHECK(circuit.distinct_sectors() == (m ? m : 1));
        CHECK(test::witness_mismatch(circuit, 3) == "");
        r1cs::witness_cs w;
        circuit.synthesize(w);
        witness_pack::host_sink sink;
        std::vector<fr> packed_inputs;
        REQUIRE(circuit.witness_packed(packed_inputs, sink, 3));
        CHECK(std::ranges::equal(packed_inputs, w.inputs()));
        CHECK(std::ranges::equal(sink.unpack(), w.aux()));
    }
}

TEST_CASE("the PoSt R1CS placed sector by sector equals the sequential recording at full-size trees",
          "[filecoin][post]")
{
    // 32 GiB (8-8-0) and 64 GiB (8-8-2) trees, three sectors a partition.
    for (tree_shape t : {tree_shape{8, 8, 0}, tree_shape{8, 8, 2}}) {
        const uint64_t nodes = t.top ? uint64_t(1) << 31 : uint64_t(1) << 30;
        const post_config c = post_config::custom(post_type::window, nodes, t, 3, 10, api_version::v1_2);
        INFO(t.name());
        CHECK(test::first_difference(r1cs::record(post_circuit(c)), *record_post_pce(c, 3)) == "");
    }
}

TEST_CASE("gpu: WindowPoSt and WinningPoSt through the cuda engine take the sliced witness path and verify",
          "[filecoin][post][gpu]")
{
    GPU_OR_SKIP();
    timeline::recorder rec;
    pipeline::engine_config ec;
    ec.backend = pipeline::engine_backend::cuda;
    ec.sink = &rec;
    pipeline::engine eng(ec);
    const domain randomness = filled(9);
    // Five made-up 32 GiB sectors, two a partition (three partitions, the
    // last one short), and a 2 KiB WinningPoSt of one.
    const post_config w = post_config::custom(post_type::window, uint64_t(1) << 30, {8, 8, 0}, 2, 10,
                                              api_version::v1_2);
    for (const post_config& c : {w, registered_post_proof(0)}) {
        INFO(c.name);
        const post_key k = post_dev_setup(c, true, 2);
        const auto key = eng.add_key(k.pk, k.pce, k.density, {c.name});
        const size_t n = c.type == post_type::winning ? 1 : 5;
        const auto proofs = post_synthetic_vanilla(c, randomness, n, 3, 1, 2);
        const std::vector<uint8_t> proof = post_prove(eng, key, c, randomness, proofs, 0, 2);
        REQUIRE(proof.size() == 192 * c.partitions_for(n));
        CHECK(post_verify(k.pk->vk, proof, c, randomness, post_public_sectors(proofs)));
    }
    size_t packs = 0;
    for (const timeline::event& e : rec.events()) packs += e.name == "PACK";
    CHECK(packs == 0);
}
