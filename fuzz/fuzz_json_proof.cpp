// Fuzzes the JSON parser and snarkjs proof.json reader (io::proof_from_json).
#include "cuzk/io/json.hpp"
#include "fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    cuzk::fuzz::expect_errors([&] {
        const cuzk::io::json j = cuzk::io::json::parse(cuzk::fuzz::as_text(data, size), "fuzz.json");
        // The writer's output parses back to the same value.
        cuzk::fuzz::require(cuzk::io::json::parse(j.dump()) == j, "json: dump round trip");
        const cuzk::groth16::proof p = cuzk::io::proof_from_json(j, "fuzz.json");
        cuzk::fuzz::require(cuzk::io::proof_from_json(cuzk::io::proof_to_json(p), "again").a == p.a, "proof json: round trip");
    });
    return 0;
}
