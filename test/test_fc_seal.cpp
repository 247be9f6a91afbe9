// Sealing a small test sector, C1, and reading the C1 output back: every
// vanilla proof verifies, and a changed byte anywhere in the C1 file is
// refused by the reader or by the vanilla-proof check, with the field named.
#include <catch2/catch.hpp>

#include <filesystem>
#include <random>
#include <string>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/c1_json.hpp"
#include "cuzk/filecoin/challenges.hpp"
#include "cuzk/filecoin/comm_d.hpp"
#include "cuzk/filecoin/fr32.hpp"
#include "cuzk/filecoin/public_inputs.hpp"
#include "cuzk/filecoin/seal.hpp"
#include "cuzk/filecoin/vanilla_verify.hpp"
#include "gmp_util.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;

namespace {

domain filled(uint8_t b)
{
    domain d;
    d.fill(b);
    return d;
}

std::string temp_dir(const char* name)
{
    const auto p = std::filesystem::temp_directory_path() /
                   ("cuzk-test-" + std::string(name) + "-" + std::to_string(test::test_seed()));
    std::filesystem::remove_all(p);
    return p.string();
}

std::vector<uint8_t> random_padded(uint64_t nodes, uint64_t seed)
{
    std::mt19937_64 rng(seed);
    std::vector<uint8_t> raw(fr32_unpadded_size(nodes * 32));
    for (auto& b : raw) b = uint8_t(rng());
    return fr32_pad(raw);
}

struct sealed {
    std::string dir;
    seal_config config;
    seal_commitments comm;
};

sealed seal_small(const seal_config& c, const char* name)
{
    sealed s{temp_dir(name), c, {}};
    replica_source r;
    r.prover_id = filled(1);
    r.sector_id = 42;
    r.ticket = filled(2);
    s.comm = seal_sector(c, r, random_padded(c.nodes, test::test_seed()), s.dir, 2);
    return s;
}

} // namespace

TEST_CASE("seal a 2 KiB sector: C1 proofs verify, read back equal, public inputs follow the challenges",
          "[filecoin][seal]")
{
    const sealed s = seal_small(registered_seal_proof(5), "2k");
    const sector_info info = read_sector_info(s.dir);
    CHECK(info.comm.comm_r == s.comm.comm_r);
    CHECK(s.comm.replica_id == replica_id(filled(1), 42, filled(2), s.comm.comm_d, porep_id_of(5)));

    const c1_output c1 = commit_phase1(s.dir, filled(3), 2);
    REQUIRE(c1.partitions.size() == 1);
    REQUIRE(c1.partitions[0].size() == 2);
    CHECK_NOTHROW(verify_c1(c1, 2));

    std::string text;
    write_c1_json(c1, text);
    const c1_output back = read_c1_json(text, "c1.json");
    CHECK(back.partitions == c1.partitions);
    CHECK_NOTHROW(verify_c1(back, 2));

    const partition_inputs pi = porep_public_inputs(s.config, c1.replica_id, c1.comm_d, c1.comm_r, c1.seed, 0);
    REQUIRE(pi.inputs.size() == 3 + 18 * 2);
    for (size_t i = 0; i < 2; ++i) {
        const auto& p = c1.partitions[0][i];
        CHECK(pi.challenges[i] == p.comm_d_proof.leaf_index());
        CHECK(pi.inputs[3 + 18 * i + 1] == fr::from_u64(p.drg_parents[0].index));
        CHECK(pi.inputs[3 + 18 * i + 7] == fr::from_u64(p.exp_parents[0].index));
    }
    std::filesystem::remove_all(s.dir);
}

TEST_CASE("vanilla proofs of a tampered C1 output are refused with the field named", "[filecoin][seal]")
{
    const sealed s = seal_small(seal_config::custom(32, 2, 3, {4, 2, 0}, porep_id_of(5)), "tamper");
    const c1_output c1 = commit_phase1(s.dir, filled(4), 2);
    REQUIRE_NOTHROW(verify_c1(c1, 1));
    auto refused = [](const c1_output& bad, const char* field) {
        try {
            verify_c1(bad, 1);
            FAIL("accepted a tampered C1 output (" << field << ")");
        } catch (const error& e) {
            CHECK(e.code() == errc::bad_format);
            CHECK_THAT(e.what(), Catch::Contains(field));
        }
    };
    c1_output bad = c1;
    bad.partitions[0][1].drg_parents[2].rows[1][0] ^= 1;
    refused(bad, "vanilla_proofs[0][1].replica_column_proofs.drg_parents[2]");
    bad = c1;
    bad.partitions[0][0].comm_d_proof.base[3].hashes[0][5] ^= 1;
    refused(bad, "vanilla_proofs[0][0].comm_d_proofs");
    bad = c1;
    bad.seed[0] ^= 1;
    refused(bad, "vanilla_proofs[0][0]");
    bad = c1;
    bad.comm_r[0] ^= 1;
    refused(bad, "comm_r");
    bad = c1;
    bad.partitions[0][2].labeling_proofs[1].parents[36][0] ^= 1;
    refused(bad, "vanilla_proofs[0][2].labeling_proofs[1]");
    std::filesystem::remove_all(s.dir);
}

TEST_CASE("every changed byte of a C1 file is refused (reader or vanilla check)", "[filecoin][seal]")
{
    const sealed s = seal_small(seal_config::custom(16, 2, 1, {2, 2, 0}, porep_id_of(5)), "flip");
    std::string text;
    write_c1_json(commit_phase1(s.dir, filled(5), 1), text);
    std::mt19937_64 rng(test::test_seed());
    const c1_identity id{filled(1), 42};
    size_t accepted = 0;
    const size_t step = std::max<size_t>(1, text.size() / 3000);
    for (size_t i = rng() % step; i < text.size(); i += step) {
        std::string bad = text;
        bad[i] = char(bad[i] ^ (1 << (rng() % 7)));
        try {
            verify_c1(read_c1_json(bad, "c1.json"), 1, &id);
            ++accepted;
            FAIL_CHECK("a C1 file changed at offset " << i << " was accepted");
        } catch (const error& e) {
            CHECK(e.code() == errc::bad_format);   // the reader's messages name the file, the check's the field
        }
    }
    CHECK(accepted == 0);
    std::filesystem::remove_all(s.dir);
}

TEST_CASE("sealing refuses data of the wrong size and a sector directory that disagrees with its files",
          "[filecoin][seal]")
{
    const seal_config c = seal_config::custom(16, 2, 1, {2, 2, 0}, porep_id_of(5));
    replica_source r;
    r.replica_id = filled(9);
    CHECK_THROWS_AS(seal_sector(c, r, std::vector<uint8_t>(100), temp_dir("size"), 1), error);
    const sealed s = seal_small(c, "disagree");
    {
        std::FILE* f = std::fopen((s.dir + "/labels.bin").c_str(), "r+b");
        REQUIRE(f);
        std::fputc(0x11, f);
        std::fclose(f);
    }
    try {
        commit_phase1(s.dir, filled(5), 1);
        FAIL("C1 of a sector whose labels changed");
    } catch (const error& e) {
        CHECK_THAT(e.what(), Catch::Contains("comm_c"));
    }
    std::filesystem::remove_all(s.dir);
}
