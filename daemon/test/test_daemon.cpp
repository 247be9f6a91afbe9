// cuzk serve's parts without a server: the TOML settings, sizes, listening
// addresses, circuit names and key file names, Filecoin's prover id, base64, and the refusals
// of malformed requests (field named). The protocol end to end, through a
// running daemon: daemon_test.py.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "address.hpp"
#include "circuits.hpp"
#include "config.hpp"
#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/types.hpp"
#include "requests.hpp"

using namespace cuzk::daemon;

namespace {

// The message of the exception `f` throws ("" when it throws none).
template <class E, class F>
std::string thrown(F&& f)
{
    try {
        f();
    } catch (const E& e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST_CASE("daemon config: upstream keys, cuzk's keys, unknown keys warned", "[daemon]")
{
    config c = default_config();
    apply_toml(c, R"(# curio's example, in part
[daemon]
listen = "0.0.0.0:9820"   # a comment
status_listen = "127.0.0.1:9821"
[srs]
param_cache = "/p # not a comment"
preload = ["porep-32g"]
[memory]
total_budget = "256GiB"
safety_margin = "5GiB"
[gpus]
devices = [0, 2]
gpu_workers_per_device = 3
[synthesis]
threads = 32
[pipeline]
synthesis_lookahead = 4
[jobs]
keep_results_s = 60
cancel_on_disconnect = true
[mystery]
knob = 1
)",
                "cuzk.toml");
    CHECK(c.listen == "0.0.0.0:9820");
    CHECK(c.status_listen == "127.0.0.1:9821");
    CHECK(c.param_cache == "/p # not a comment");
    CHECK(c.total_budget == uint64_t(256) << 30);
    CHECK(c.safety_margin == uint64_t(5) << 30);
    CHECK(c.devices == std::vector<int>{0, 2});
    CHECK(c.workers_per_device == 3);
    CHECK(c.synthesis_threads == 32);
    CHECK(c.lookahead == 4);
    CHECK(c.keep_results_s == 60);
    CHECK(c.cancel_on_disconnect);
    REQUIRE(c.warnings.size() == 2);
    CHECK(c.warnings[0].find("srs.preload") != std::string::npos);
    CHECK(c.warnings[1].find("mystery.knob: unknown key") != std::string::npos);
}

TEST_CASE("daemon config: malformed lines and values name the line and key", "[daemon]")
{
    config c = default_config();
    CHECK(thrown<cuzk::error>([&] { apply_toml(c, "[daemon]\nlisten = 9820\n", "f.toml"); }) ==
          "f.toml: line 2: daemon.listen: expected a string in quotes");
    CHECK(thrown<cuzk::error>([&] { apply_toml(c, "[gpus]\ndevices = [0, \n", "f.toml"); }).find("line 2") !=
          std::string::npos);
    CHECK(thrown<cuzk::error>([&] { apply_toml(c, "[memory]\ntotal_budget = \"lots\"\n", "f.toml"); })
              .find("memory.total_budget") != std::string::npos);
    CHECK(thrown<cuzk::error>([&] { apply_toml(c, "just words\n", "f.toml"); }).find("line 1") != std::string::npos);
    CHECK(thrown<cuzk::error>([&] { apply_toml(c, "[daemon]\nlisten = \"x\" y\n", "f.toml"); })
              .find("unexpected text") != std::string::npos);
    CHECK(thrown<cuzk::error>([&] { apply_toml(c, "[[gpus]]\n", "f.toml"); }).find("line 1") != std::string::npos);
}

TEST_CASE("daemon sizes", "[daemon]")
{
    CHECK(parse_bytes("auto", "x") == 0);
    CHECK(parse_bytes("512MiB", "x") == uint64_t(512) << 20);
    CHECK(parse_bytes("16G", "x") == uint64_t(16) << 30);
    CHECK(parse_bytes("1000", "x") == 1000);
    CHECK_THROWS_AS(parse_bytes("", "x"), cuzk::error);
    CHECK_THROWS_AS(parse_bytes("5 PiB", "x"), cuzk::error);
    CHECK_THROWS_AS(parse_bytes("99999999999999999999GiB", "x"), cuzk::error);
}

TEST_CASE("daemon listening addresses", "[daemon]")
{
    listen_address a = parse_address("unix:///run/curio/cuzk.sock", "listen");
    CHECK(a.unix_socket);
    CHECK(a.path == "/run/curio/cuzk.sock");
    CHECK(a.grpc == "unix:/run/curio/cuzk.sock");
    a = parse_address("unix:/tmp/x.sock", "listen");
    CHECK(a.path == "/tmp/x.sock");
    a = parse_address("0.0.0.0:9820", "listen");
    CHECK(!a.unix_socket);
    CHECK(a.host == "0.0.0.0");
    CHECK(a.port == 9820);
    CHECK(parse_address("[::1]:1", "listen").host == "[::1]");
    for (const char* bad : {"9820", "unix:relative", "http://h:1", "h:99999", "h:", ":1", "h:x"})
        CHECK(thrown<cuzk::error>([&] { parse_address(bad, "listen"); }).find("listen") != std::string::npos);
}

TEST_CASE("daemon circuits: curio's ids, every size, key file names", "[daemon]")
{
    CHECK(circuit_of(proof_kind::porep, 8)->id() == "porep-32g");
    CHECK(circuit_of(proof_kind::porep, 3)->id() == "porep-32g");   // V1 and V1_1: one circuit
    CHECK(circuit_of(proof_kind::window_post, 13)->id() == "wpost-32g");
    CHECK(circuit_of(proof_kind::winning_post, 3)->id() == "winning-32g");
    CHECK(circuit_of(proof_kind::snap, 4)->id() == "snap-64g");
    CHECK(circuit_of(proof_kind::porep, 5)->id() == "porep-2k");
    CHECK(!circuit_of(proof_kind::window_post, 3));   // a WinningPoSt number
    CHECK(!circuit_of(proof_kind::winning_post, 5));
    CHECK(!circuit_of(proof_kind::porep, 10));
    CHECK(!circuit_of(proof_kind::snap, 5));
    for (const char* id : {"porep-32g", "porep-64g", "wpost-32g", "winning-32g", "snap-32g", "snap-64g", "wpost-2k",
                           "winning-8m", "snap-512m"})
        CHECK(circuit_by_id(id)->id() == id);
    CHECK(!circuit_by_id("porep-3g"));
    const auto names = key_file_names(*circuit_by_id("porep-32g"));
    REQUIRE(names.size() == 2);
    CHECK(names[0].rfind("v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-0-sha256_hasher-82a357d2", 0) == 0);
    CHECK(names[1] == "cuzk-porep-32g.params");
    CHECK(key_file_names(*circuit_by_id("wpost-2k")).back() == "cuzk-wpost-2k.params");
}

TEST_CASE("daemon circuits: Filecoin's v28 key file for every circuit", "[daemon]")
{
    // Names from filecoin-project/rust-fil-proofs, parameters.json.
    const auto first = [](const char* id) { return key_file_names(*circuit_by_id(id)).front(); };
    CHECK(first("porep-2k") == "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
                               "032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.params");
    CHECK(first("porep-512m") == "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-"
                                 "6babf46ce344ae495d558e7770a585b2382d54f225af8ed0397b8be7c3fcd472.params");
    CHECK(first("porep-64g") == "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-8-2-sha256_hasher-"
                                "96f1b4a04c5c51e4759bbf224bbc2ef5a42c7100f16ec0637123f16a845ddfb2.params");
    CHECK(first("winning-2k") == "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
                                 "3ea05428c9d11689f23529cde32fd30aabd50f7d2c93657c1d3650bca3e8ea9e.params");
    CHECK(first("wpost-2k") == "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
                               "0170db1f394b35d995252228ee359194b13199d259380541dc529fb0099096b0.params");
    CHECK(first("winning-8m") == "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
                                 "50c7368dea9593ed0989e70974d28024efa9d156d585b7eea1be22b2e753f331.params");
    CHECK(first("wpost-512m") == "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-"
                                 "0cfb4f178bbb71cf2ecfcd42accce558b27199ab4fb59cb78f2483fe21ef36d9.params");
    CHECK(first("winning-32g") == "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
                                  "559e581f022bb4e4ec6e719e563bf0e026ad6de42e56c18714a2c692b1b88d7e.params");
    CHECK(first("wpost-32g") == "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-0-"
                                "0377ded656c6f524f1618760bffe4e0a1c51d5a70c4509eedae8a27555733edc.params");
    CHECK(first("wpost-64g") == "v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-8-2-"
                                "2627e4006b67f99cef990c0a47d5426cb7ab0a0ad58fc1061547bf2d28b09def.params");
    CHECK(first("snap-2k") == "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-"
                              "fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194.params");
    CHECK(first("snap-64g") == "v28-empty-sector-update-merkletree-poseidon_hasher-8-8-2-"
                               "102e1444a7e9a97ebf1e3d6855dcc77e66c011ea66f936d9b2c508f87f2f83a7.params");
    // Every circuit has one, each its own, then cuzk's name.
    std::set<std::string> seen;
    for (const char* kind : {"porep", "snap", "wpost", "winning"})
        for (const char* size : {"2k", "8m", "512m", "32g", "64g"}) {
            const std::string id = std::string(kind) + "-" + size;
            const auto names = key_file_names(*circuit_by_id(id));
            REQUIRE(names.size() == 2);
            CHECK(names[0].rfind("v28-", 0) == 0);
            CHECK(names[1] == "cuzk-" + id + ".params");
            CHECK(seen.insert(names[0]).second);
        }
}

TEST_CASE("daemon prover id: an actor id's LEB128 bytes, zero-padded", "[daemon]")
{
    auto id = cuzk::filecoin::prover_id_of_actor(1000);   // f01000: 0xe8 0x07
    CHECK(id[0] == 0xe8);
    CHECK(id[1] == 0x07);
    for (size_t i = 2; i < 32; ++i) CHECK(id[i] == 0);
    CHECK(cuzk::filecoin::prover_id_of_actor(0)[0] == 0);
    CHECK(cuzk::filecoin::prover_id_of_actor(127)[0] == 127);
    id = cuzk::filecoin::prover_id_of_actor(UINT64_MAX);   // ten bytes
    for (int i = 0; i < 9; ++i) CHECK(id[size_t(i)] == 0xff);
    CHECK(id[9] == 0x01);
    CHECK(id[10] == 0);
}

TEST_CASE("daemon base64", "[daemon]")
{
    CHECK(base64_decode("", "x").empty());
    CHECK(base64_decode("Zg==", "x") == "f");
    CHECK(base64_decode("Zm8=", "x") == "fo");
    CHECK(base64_decode("Zm9vYmFy", "x") == "foobar");
    CHECK(base64_decode("+/+/", "x") == "\xfb\xff\xbf");
    CHECK(thrown<request_error>([] { base64_decode("Zm9", "f"); }).find("f: not standard base64") == 0);
    CHECK(thrown<request_error>([] { base64_decode("Zm9v!mFy", "f"); }).find("byte 4") != std::string::npos);
    CHECK(!thrown<request_error>([] { base64_decode("Zg==Zg==", "f"); }).empty());
    CHECK(!thrown<request_error>([] { base64_decode("Z===", "f"); }).empty());
    CHECK(!thrown<request_error>([] { base64_decode("Zm9v\nmFy", "f"); }).empty());
    // The encoder (cuzk client): RFC 4648's test vectors, and a round trip of every byte value.
    const char* const vectors[][2] = {{"", ""},         {"f", "Zg=="},         {"fo", "Zm8="},
                                      {"foo", "Zm9v"}, {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="},
                                      {"foobar", "Zm9vYmFy"}};
    for (const auto& v : vectors) CHECK(base64_encode(v[0]) == v[1]);
    std::string all;
    for (int b = 0; b < 256; ++b) all += char(b);
    CHECK(base64_decode(base64_encode(all), "x") == all);
}

TEST_CASE("daemon requests: malformed ones are refused naming the field", "[daemon]")
{
    using cuzk::v1::SubmitProofRequest;
    auto refusal = [](const SubmitProofRequest& r) { return thrown<request_error>([&] { decode_request(r); }); };
    SubmitProofRequest r;
    CHECK(refusal(r).find("proof_kind") == 0);
    r.set_proof_kind(cuzk::v1::POREP_SEAL_COMMIT);
    r.set_registered_proof(5);
    CHECK(refusal(r).find("vanilla_proof: empty") == 0);
    r.set_vanilla_proof("{\"SectorNum\":1,\"SectorSize\":2048}");
    CHECK(refusal(r).find("vanilla_proof.Phase1Out") == 0);
    r.set_vanilla_proof("{\"SectorNum\":1,\"Phase1Out\":\"e30=\",\"SectorSize\":2048}");   // "{}"
    CHECK(refusal(r).find("vanilla_proof.Phase1Out") == 0);
    r.set_vanilla_proof("{\"SectorNum\":-1,\"Phase1Out\":\"\",\"SectorSize\":2048}");
    CHECK(refusal(r).find("vanilla_proof.SectorNum") == 0);
    r.set_vanilla_proof("[1, 2");
    CHECK(refusal(r).find("vanilla_proof") == 0);
    r.set_sector_size(4096);
    CHECK(refusal(r).find("sector_size") == 0);

    SubmitProofRequest w;
    w.set_proof_kind(cuzk::v1::WINDOW_POST_PARTITION);
    w.set_registered_proof(2);
    CHECK(refusal(w).find("registered_proof") == 0);
    w.set_registered_proof(10);
    CHECK(refusal(w).find("randomness") == 0);
    w.set_randomness(std::string(32, '\0'));
    CHECK(refusal(w).find("vanilla_proofs") == 0);
    w.add_vanilla_proofs("short");
    CHECK(refusal(w).find("vanilla_proofs[0]") == 0);
    w.set_priority(static_cast<cuzk::v1::Priority>(9));
    CHECK(refusal(w).find("priority") == 0);

    SubmitProofRequest s;
    s.set_proof_kind(cuzk::v1::SNAP_DEALS_UPDATE);
    s.set_registered_proof(0);
    CHECK(refusal(s).find("vanilla_proofs: 0 entries") == 0);
    s.add_vanilla_proofs("x");
    CHECK(refusal(s).find("comm_r_old") == 0);
}
