// Fuzzes the circom .r1cs reader (io::parse_r1cs) on the curve the header
// names (bls12381 when it names none that is known), and for bls12381 its
// conversion to a PCE.
#include "cuzk/io/snarkjs.hpp"
#include "fuzz_snarkjs.hpp"
#include "fuzz_util.hpp"

namespace {

template <class F>
cuzk::io::r1cs_file_t<F> read_as(const uint8_t* data, size_t size)
{
    cuzk::io::r1cs_file_t<F> r = cuzk::io::parse_r1cs<F>({data, size}, "fuzz.r1cs");
    cuzk::fuzz::require(r.constraints.size() == r.n_constraints, "r1cs: constraint count");
    for (const auto& c : r.constraints)
        for (const auto& lc : c)
            for (const auto& [wire, coef] : lc) cuzk::fuzz::require(wire < r.n_wires, "r1cs: wire in range");
    return r;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    cuzk::fuzz::expect_errors([&] {
        if (cuzk::fuzz::file_curve(data, size, "fuzz.r1cs") == cuzk::curve_id::bn254) {
            (void)read_as<cuzk::bn254::fr>(data, size);
            return;
        }
        const cuzk::r1cs::pce p = cuzk::io::r1cs_to_pce(read_as<cuzk::fr>(data, size));
        cuzk::fuzz::require(p.num_constraints == cuzk::io::parse_r1cs({data, size}, "fuzz.r1cs").n_constraints,
                            "r1cs: PCE rows");
    });
    return 0;
}
