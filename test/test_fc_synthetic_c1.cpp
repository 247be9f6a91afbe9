// The synthetic C1 generator: its outputs pass the full vanilla-proof check
// for several shapes (the 32 GiB one included), are a pure function of the
// generator seed, survive the JSON round trip, and a changed value is caught.
#include <catch2/catch.hpp>

#include <functional>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/comm_d.hpp"
#include "cuzk/filecoin/porep/c1_json.hpp"
#include "cuzk/filecoin/porep/synthetic_c1.hpp"
#include "cuzk/filecoin/porep/vanilla_verify.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;

namespace {

seal_config shape_8_8_0() { return seal_config::custom(512, 4, 3, {8, 8, 0}, porep_id_of(1234), api_version::v1_1, 2); }
seal_config shape_8_8_2() { return seal_config::custom(128 * 8, 2, 4, {8, 8, 2}, porep_id_of(77), api_version::v1_2, 2); }

errc code_of(const std::function<void()>& f)
{
    try {
        f();
    } catch (const error& e) {
        return e.code();
    }
    return errc::ok;
}

} // namespace

TEST_CASE("synthetic C1 passes verify_c1 for small shapes", "[fc][synthetic_c1]")
{
    const seal_config shapes[] = {
        registered_seal_proof(5),   // 2 KiB V1_1: 64 nodes, 2 layers, 8-0-0
        registered_seal_proof(0),   // 2 KiB V1: the v1_0 parent order
        shape_8_8_0(),
        shape_8_8_2(),
        seal_config::custom(64, 2, 3, {8, 0, 0}, porep_id_of(5), api_version::v1_1, 2),
        seal_config::custom(2048, 11, 5, {4, 2, 0}, porep_id_of(3), api_version::v1_1, 1),
        // Most nodes challenged: challenged nodes are each other's parents everywhere.
        seal_config::custom(64, 4, 48, {8, 0, 0}, porep_id_of(9), api_version::v1_1, 1),
    };
    for (const seal_config& c : shapes) {
        INFO(c.name << " " << c.nodes << " nodes, tree " << c.tree.name());
        for (uint64_t seed : {0ull, 1ull, 0xdeadbeefull}) {
            const c1_output out = synthetic_c1(c, seed, 2);
            REQUIRE(out.partitions.size() == c.partitions);
            REQUIRE(out.partitions[0].size() == c.challenges_per_partition);
            CHECK_NOTHROW(verify_c1(out, 2));
        }
    }
}

TEST_CASE("synthetic C1 of a zero-data sector binds replica_id like a real one", "[fc][synthetic_c1]")
{
    const seal_config c = shape_8_8_0();
    const c1_output out = synthetic_c1(c, synthetic_c1_options{7, true, 2});
    CHECK(out.comm_d == zero_comm_d(c.sector_bytes()));
    const c1_identity id = synthetic_identity(7);
    CHECK_NOTHROW(verify_c1(out, 2, &id));
    for (const auto& part : out.partitions)
        for (const auto& p : part) CHECK(p.comm_d_proof.leaf == domain{});
    // Random data: replica_id is drawn, not derived, so the identity check fails.
    const c1_output rnd = synthetic_c1(c, 7, 2);
    CHECK(code_of([&] { verify_c1(rnd, 2, &id); }) == errc::bad_format);
}

TEST_CASE("synthetic C1 is a function of the seed", "[fc][synthetic_c1]")
{
    const seal_config c = shape_8_8_2();
    const c1_output a = synthetic_c1(c, 42, 1), b = synthetic_c1(c, 42, 3), d = synthetic_c1(c, 43, 2);
    CHECK(a.partitions == b.partitions);
    CHECK(a.comm_r == b.comm_r);
    CHECK(a.comm_d == b.comm_d);
    CHECK(a.replica_id == b.replica_id);
    CHECK(a.seed == b.seed);
    CHECK(a.ticket == b.ticket);
    CHECK(a.comm_r != d.comm_r);
    CHECK(a.comm_d != d.comm_d);
    CHECK(a.replica_id != d.replica_id);
    CHECK(a.seed != d.seed);
    CHECK(a.ticket != d.ticket);
    CHECK(a.partitions != d.partitions);
}

TEST_CASE("synthetic C1 survives the JSON round trip", "[fc][synthetic_c1]")
{
    for (const seal_config& c : {registered_seal_proof(5), shape_8_8_0(), shape_8_8_2()}) {
        const c1_output a = synthetic_c1(c, 9, 2);
        std::string text;
        write_c1_json(a, text);
        const c1_output b = read_c1_json(text, "synthetic.json");
        CHECK(b.config.nodes == c.nodes);
        CHECK(b.config.tree == c.tree);
        CHECK(b.config.name == c.name);
        CHECK(b.comm_r == a.comm_r);
        CHECK(b.comm_d == a.comm_d);
        CHECK(b.replica_id == a.replica_id);
        CHECK(b.seed == a.seed);
        CHECK(b.ticket == a.ticket);
        CHECK(b.partitions == a.partitions);
        CHECK_NOTHROW(verify_c1(b, 2));
        std::string again;
        write_c1_json(b, again);
        CHECK(again == text);
    }
}

TEST_CASE("a changed value in a synthetic C1 is refused", "[fc][synthetic_c1]")
{
    const c1_output good = synthetic_c1(shape_8_8_0(), 5, 2);
    auto refused = [&](const std::function<void(c1_output&)>& change) {
        c1_output c = good;
        change(c);
        return code_of([&] { verify_c1(c, 2); }) == errc::bad_format;
    };
    CHECK(refused([](c1_output& c) { c.comm_r[0] ^= 1; }));
    CHECK(refused([](c1_output& c) { c.seed[3] ^= 1; }));
    CHECK(refused([](c1_output& c) { c.partitions[1][2].c_x.rows[1][0] ^= 1; }));
    CHECK(refused([](c1_output& c) { c.partitions[0][1].exp_parents[7].rows[0][5] ^= 1; }));
    CHECK(refused([](c1_output& c) { c.partitions[0][0].comm_d_proof.base[4].hashes[0][9] ^= 1; }));
    CHECK(refused([](c1_output& c) { c.partitions[1][0].comm_r_last_proof.sub[0].hashes[6][1] ^= 1; }));
    CHECK(refused([](c1_output& c) { c.partitions[1][1].labeling_proofs[2].parents[20][2] ^= 1; }));
}

TEST_CASE("synthetic C1 refuses what it cannot make", "[fc][synthetic_c1]")
{
    CHECK(code_of([] { synthetic_c1(registered_seal_proof(10), 1); }) == errc::unsupported);   // synthetic PoRep
    CHECK(code_of([] { synthetic_c1(registered_seal_proof(15), 1); }) == errc::unsupported);   // NI-PoRep
    // 3 layers: Poseidon has no arity-3 column hash.
    CHECK(code_of([] { synthetic_c1(seal_config::custom(512, 3, 2, {8, 8, 0}, porep_id_of(1)), 1); }) ==
          errc::unsupported);
    // 243 nodes: a ternary tree, but the comm_d tree is binary.
    CHECK(code_of([] { synthetic_c1(seal_config::custom(243, 2, 1, {3, 0, 0}, porep_id_of(1)), 1); }) ==
          errc::invalid_argument);
}

TEST_CASE("synthetic C1 of the 32 GiB sector passes verify_c1", "[fc][synthetic_c1]")
{
    const seal_config c = registered_seal_proof(8);
    const c1_output out = synthetic_c1(c, 2024);
    REQUIRE(out.partitions.size() == 10);
    REQUIRE(out.partitions[0].size() == 18);
    CHECK(out.partitions[0][0].c_x.rows.size() == 11);
    CHECK(out.partitions[0][0].comm_d_proof.base.size() == 30);
    CHECK(out.partitions[0][0].c_x.inclusion.base.size() == 9);
    CHECK(out.partitions[0][0].c_x.inclusion.sub.size() == 1);
    CHECK_NOTHROW(verify_c1(out));
}
