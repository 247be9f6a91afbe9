// Fuzzes the snarkjs public.json reader (io::public_from_json).
#include "cuzk/io/json.hpp"
#include "fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    cuzk::fuzz::expect_errors([&] {
        const cuzk::io::json j = cuzk::io::json::parse(cuzk::fuzz::as_text(data, size), "fuzz.json");
        const std::vector<cuzk::fr> v = cuzk::io::public_from_json(j, "fuzz.json");
        cuzk::fuzz::require(cuzk::io::public_from_json(cuzk::io::public_to_json(v), "again") == v,
                            "public json: round trip");
    });
    return 0;
}
