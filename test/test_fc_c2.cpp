// PoRep C2 end to end on the smallest circuit shape (8 nodes, 2 layers, one
// challenge, ~1.2 M constraints): seal, C1, a development key, the partition
// proved through the engine (CPU backend), then verification; a changed
// seed, comm_r or proof byte fails it.
#include <catch2/catch.hpp>

#include <filesystem>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/porep/prove.hpp"
#include "cuzk/filecoin/porep/seal.hpp"
#include "cuzk/filecoin/porep/synthetic_c1.hpp"
#include "gmp_util.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;

namespace {

c1_output sealed_c1(const seal_config& c)
{
    const auto dir = (std::filesystem::temp_directory_path() /
                      ("cuzk-test-c2-" + std::to_string(test::test_seed()))).string();
    replica_source r;
    r.prover_id.fill(1);
    r.ticket.fill(2);
    r.sector_id = 3;
    seal_sector(c, r, std::vector<uint8_t>(c.sector_bytes(), 0), dir, 2);
    domain seed;
    seed.fill(4);
    c1_output c1 = commit_phase1(dir, seed, 2);
    std::filesystem::remove_all(dir);
    return c1;
}

bool verifies(const groth16::verifying_key& vk, const std::vector<uint8_t>& proof, const c1_output& c1)
{
    return porep_verify(vk, proof, c1.config, c1.replica_id, c1.comm_d, c1.comm_r, c1.seed);
}

} // namespace

TEST_CASE("PoRep C2 of a sealed test sector verifies; a changed seed, comm_r or proof byte does not",
          "[filecoin][c2]")
{
    const seal_config c = seal_config::custom(8, 2, 1, {8, 0, 0}, porep_id_of(5));
    const c1_output c1 = sealed_c1(c);
    const porep_key k = porep_dev_setup(record_porep_pce(c), false, 2);

    pipeline::engine_config ec;
    ec.synth_workers = 1;
    ec.device_threads = 2;
    pipeline::engine eng(ec);
    const auto key = eng.add_key(k.pk, k.pce, k.density, {"porep"});
    const c2_output out = porep_c2(eng, key, c1);
    REQUIRE(out.proof.size() == 192);
    CHECK(verifies(k.pk->vk, out.proof, c1));

    c1_output other = c1;
    other.seed[0] ^= 1;
    CHECK_FALSE(verifies(k.pk->vk, out.proof, other));
    other = c1;
    other.comm_r[1] ^= 1;
    CHECK_FALSE(verifies(k.pk->vk, out.proof, other));
    std::vector<uint8_t> bad = out.proof;
    bad[100] ^= 0x10;   // inside B: either not a point or a different one
    bool ok = false;
    try {
        ok = verifies(k.pk->vk, bad, c1);
    } catch (const error&) {
        ok = false;
    }
    CHECK_FALSE(ok);
    CHECK_THROWS_AS(verifies(k.pk->vk, std::vector<uint8_t>(191), c1), error);
}
