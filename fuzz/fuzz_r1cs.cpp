// Fuzzes the circom .r1cs reader (io::parse_r1cs) and its conversion to a PCE.
#include "cuzk/io/snarkjs.hpp"
#include "fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    cuzk::fuzz::expect_errors([&] {
        const cuzk::io::r1cs_file r = cuzk::io::parse_r1cs({data, size}, "fuzz.r1cs");
        cuzk::fuzz::require(r.constraints.size() == r.n_constraints, "r1cs: constraint count");
        for (const auto& c : r.constraints)
            for (const auto& lc : c)
                for (const auto& [wire, coef] : lc) cuzk::fuzz::require(wire < r.n_wires, "r1cs: wire in range");
        const cuzk::r1cs::pce p = cuzk::io::r1cs_to_pce(r);
        cuzk::fuzz::require(p.num_constraints == r.n_constraints, "r1cs: PCE rows");
    });
    return 0;
}
