// Fuzzes the snarkjs verification_key.json reader (io::vk_from_json).
#include "cuzk/io/json.hpp"
#include "fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    cuzk::fuzz::expect_errors([&] {
        const cuzk::io::json j = cuzk::io::json::parse(cuzk::fuzz::as_text(data, size), "fuzz.json");
        const cuzk::io::snarkjs_vk vk = cuzk::io::vk_from_json(j, "fuzz.json");
        cuzk::fuzz::require(!vk.ic.empty(), "vk json: at least one IC point");
        (void)vk.to_verifying_key();
    });
    return 0;
}
