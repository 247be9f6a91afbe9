// Fuzzes the snarkjs .zkey reader (io::parse_zkey), points checked on the curve.
#include "cuzk/io/snarkjs.hpp"
#include "fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    cuzk::fuzz::expect_errors([&] {
        cuzk::io::zkey_read_options opt;
        opt.threads = 1;
        const cuzk::io::zkey z = cuzk::io::parse_zkey({data, size}, "fuzz.zkey", opt);
        cuzk::fuzz::require(z.n_vars == z.pk.num_inputs + z.pk.num_aux, "zkey: n_vars = inputs + aux");
        cuzk::fuzz::require(z.pk.a.size() == z.n_vars && z.pk.h.size() == z.pk.domain_size, "zkey: query sizes");
    });
    return 0;
}
