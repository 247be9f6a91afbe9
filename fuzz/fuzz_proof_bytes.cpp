// Fuzzes the 192-byte proof decoder (io::proofs_from_bytes, the multi-partition
// form, and io::partition_proofs_from_bytes, Filecoin's, which must agree with
// it). An accepted proof re-encodes to the same bytes.
#include <algorithm>

#include "cuzk/io/bellperson.hpp"
#include "fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    cuzk::fuzz::expect_errors([&] {
        const std::vector<cuzk::groth16::proof> ps = cuzk::io::proofs_from_bytes({data, size}, 1);
        cuzk::fuzz::require(ps.size() * cuzk::io::proof_size == size, "proof: count");
        for (size_t i = 0; i < ps.size(); ++i) {
            std::array<uint8_t, 192> out{};
            cuzk::io::proof_to_bytes(ps[i], out);
            cuzk::fuzz::require(std::equal(out.begin(), out.end(), data + 192 * i), "proof: round trip");
        }
        const std::vector<cuzk::groth16::proof> pp = cuzk::io::partition_proofs_from_bytes({data, size});
        cuzk::fuzz::require(pp.size() == ps.size(), "partition proofs: count");
    });
    return 0;
}
