// Fuzzes the bellperson .params reader (io::mapped_params, then every vector
// decoded into a proving key).
#include "cuzk/io/bellperson.hpp"
#include "fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    cuzk::fuzz::memory_file f({data, size});
    cuzk::fuzz::expect_errors([&] {
        const cuzk::io::mapped_params mp(f.path());
        for (unsigned q = 0; q < 5; ++q) {
            const auto query = cuzk::io::params_query(q);
            cuzk::fuzz::require(mp.offset(query) + mp.count(query) * mp.point_size(query) <= size,
                                "params: vector inside the file");
        }
        const cuzk::groth16::proving_key pk = mp.to_proving_key(1);
        cuzk::fuzz::require(pk.l.size() == mp.count(cuzk::io::params_query::l), "params: l count");
    });
    return 0;
}
