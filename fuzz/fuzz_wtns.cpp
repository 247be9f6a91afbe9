// Fuzzes the snarkjs .wtns reader (io::parse_wtns).
#include "cuzk/io/snarkjs.hpp"
#include "fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    cuzk::fuzz::expect_errors([&] {
        const std::vector<cuzk::fr> w = cuzk::io::parse_wtns({data, size}, "fuzz.wtns");
        // Every value is backed by 32 bytes of the file.
        cuzk::fuzz::require(w.size() * 32 <= size, "wtns: more values than the file holds");
    });
    return 0;
}
