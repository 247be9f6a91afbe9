// Fuzzes the bellperson verifying-key reader (io::vk_from_bytes). The
// encoding is canonical, so an accepted key re-encodes to the bytes read.
#include <algorithm>

#include "cuzk/io/bellperson.hpp"
#include "fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    cuzk::fuzz::expect_errors([&] {
        size_t used = 0;
        const cuzk::groth16::verifying_key vk = cuzk::io::vk_from_bytes({data, size}, "fuzz.vk", &used);
        cuzk::fuzz::require(used <= size && used == cuzk::io::vk_size(vk.ic.size()), "vk: consumed length");
        const std::vector<uint8_t> back = cuzk::io::vk_to_bytes(vk);
        cuzk::fuzz::require(back.size() == used && std::equal(back.begin(), back.end(), data), "vk: round trip");
    });
    return 0;
}
