// The public inputs of a PoRep partition against Filecoin's first 2 KiB V1_1
// seal regression record: replica_id, the two challenges, and the SHA-256 of
// the 39 inputs' 32-byte little-endian forms.
#include <catch2/catch.hpp>

#include <vector>

#include "cuzk/filecoin/common/hashers.hpp"
#include "cuzk/filecoin/porep/challenges.hpp"
#include "cuzk/filecoin/porep/public_inputs.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;

TEST_CASE("public inputs of the 2 KiB V1_1 regression record", "[filecoin][inputs]")
{
    const seal_config c = registered_seal_proof(5);
    const domain comm_r = parse_hex32("d67d57ea6808fd67bdedb331388b5005d3f837b6153c37ff90e720f10f34fc29", "comm_r");
    const domain comm_d = parse_hex32("7e45f0925dc72593d6b296100e6ca63e3341c92a50c0e7a9461883a3c959ea28", "comm_d");
    const domain prover = parse_hex32("101cbe4b9c42604f04c703c396f788c6cb2d6d7d58f45430b12eb2edd640076c", "prover");
    const domain ticket = parse_hex32("e8867f2000d5597a0a5f4382c52b8b89890019df5320d486a067f38e6c68624b", "ticket");
    const domain seed = parse_hex32("56964257e0d6c11e074117b36172fff3ebd1a6ec18fa79555e58df5a9d889dcb", "seed");
    const domain rid = replica_id(prover, 9259733836259213201ull, ticket, comm_d, c.porep_id);
    CHECK(to_hex(rid) == "da838d3efe2e28665cd17ebfa274f67af8c3b51dfb01e8c6bf8892e712d62006");

    const partition_inputs pi = porep_public_inputs(c, rid, comm_d, comm_r, seed, 0);
    CHECK(pi.challenges == std::vector<uint64_t>{57, 58});
    const std::vector<uint64_t> nodes = {57, 56, 56, 48, 50, 42, 55, 46, 41, 13, 46, 44, 31, 3, 15, 57, 57, 57,
                                         58, 57, 45, 11, 54, 56, 57, 51, 52, 38, 18, 33, 8, 54, 40, 58, 58, 58};
    REQUIRE(pi.inputs.size() == 39);
    for (size_t i = 0; i < nodes.size(); ++i) CHECK(pi.inputs[3 + i] == fr::from_u64(nodes[i]));
    std::vector<uint8_t> concat;
    for (const fr& x : pi.inputs) {
        const domain d = fr_to_domain(x);
        concat.insert(concat.end(), d.begin(), d.end());
    }
    CHECK(to_hex(sha256(concat)) == "6353859a9b5e4ea59799813e3df37a939b7e606c1df84d220837a1009fc11bf2");
    CHECK_THROWS(porep_public_inputs(c, rid, comm_d, comm_r, seed, 1));   // 2 KiB has one partition
}
