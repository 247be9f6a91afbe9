// Fuzzes the snarkjs .wtns reader (io::parse_wtns) on the curve the header
// names (bls12381 when it names none that is known).
#include "cuzk/io/snarkjs.hpp"
#include "fuzz_snarkjs.hpp"
#include "fuzz_util.hpp"

namespace {

template <class F>
void read_as(const uint8_t* data, size_t size)
{
    const std::vector<F> w = cuzk::io::parse_wtns<F>({data, size}, "fuzz.wtns");
    // Every value is backed by 32 bytes of the file.
    cuzk::fuzz::require(w.size() * 32 <= size, "wtns: more values than the file holds");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    cuzk::fuzz::expect_errors([&] {
        if (cuzk::fuzz::file_curve(data, size, "fuzz.wtns") == cuzk::curve_id::bn254)
            read_as<cuzk::bn254::fr>(data, size);
        else
            read_as<cuzk::fr>(data, size);
    });
    return 0;
}
