// Fuzzes the snarkjs .zkey reader (io::parse_zkey) on the curve the header
// names (bls12381 when it names none that is known), points checked on the curve.
#include "cuzk/io/snarkjs.hpp"
#include "fuzz_snarkjs.hpp"
#include "fuzz_util.hpp"

namespace {

template <class C>
void read_as(const uint8_t* data, size_t size)
{
    cuzk::io::zkey_read_options opt;
    opt.threads = 1;
    const cuzk::io::zkey_t<C> z = cuzk::io::parse_zkey<C>({data, size}, "fuzz.zkey", opt);
    cuzk::fuzz::require(z.n_vars == z.pk.num_inputs + z.pk.num_aux, "zkey: n_vars = inputs + aux");
    cuzk::fuzz::require(z.pk.a.size() == z.n_vars && z.pk.h.size() == z.pk.domain_size, "zkey: query sizes");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    cuzk::fuzz::expect_errors([&] {
        if (cuzk::fuzz::file_curve(data, size, "fuzz.zkey") == cuzk::curve_id::bn254)
            read_as<cuzk::bn254_curve>(data, size);
        else
            read_as<cuzk::bls12_381_curve>(data, size);
    });
    return 0;
}
