// The Montgomery product on the FP64 units (kernels/ff_fp64.cuh), on its host
// emulation of the rounding-toward-zero fused multiply-add: x·y·2^(−52L) mod
// p against GMP for BLS12-381's and BN254's Fp and Fr, on random operands in
// [0, 2p) and on the values that make the columns and carries largest; the
// result stays below 2p and its canonical words equal GMP's residue. The
// [gpu] test of test_gpu.cpp runs the same product on the device.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "../kernels/ff_fp64.cuh"
#include "gmp_util.hpp"
#include "test_support.hpp"

using namespace cuzk;
using namespace cuzk::dev;
using cuzk::test::mpz;

namespace {

template <class P>
struct fp64_ref {
    using M = fp64_mont<P>;
    static constexpr int L = M::L;
    mpz p, rinv;   // p and 2^(−52L) mod p
    fp64_ref()
    {
        p = test::to_mpz(P::modulus);
        mpz r;
        mpz_ui_pow_ui(r, 2, 52 * L);
        mpz_invert(rinv, r, p);
    }
    // Limbs of x < 2^(52L).
    void limbs_of(const mpz& x, uint64_t* v) const
    {
        mpz t, q;
        mpz_set(t, x);
        for (int k = 0; k < L; ++k) {
            v[k] = mpz_get_ui(t) & ((uint64_t{1} << 52) - 1);
            mpz_fdiv_q_2exp(t, t, 52);
        }
    }
    mpz value(const uint64_t* v) const
    {
        mpz x;
        for (int k = L - 1; k >= 0; --k) {
            mpz_mul_2exp(x, x, 52);
            mpz_add_ui(x, x, v[k]);
        }
        return x;
    }
    mpz want(const mpz& a, const mpz& b) const
    {
        mpz t;
        mpz_mul(t, a, b);
        mpz_mul(t, t, rinv);
        mpz_mod(t, t, p);
        return t;
    }
};

// Operands in [0, 2p): edge values and random ones.
template <class P>
std::vector<mpz> operands(const fp64_ref<P>& R, std::mt19937_64& rng)
{
    std::vector<mpz> v;
    mpz two_p, x;
    mpz_mul_2exp(two_p, R.p, 1);
    for (long d : {0L, 1L, 2L}) {
        mpz_set_ui(x, static_cast<unsigned long>(d));
        v.push_back(x);
    }
    for (long d : {1L, 2L}) {   // p − d, p, 2p − d
        mpz_sub_ui(x, R.p, static_cast<unsigned long>(d));
        v.push_back(x);
        mpz_sub_ui(x, two_p, static_cast<unsigned long>(d));
        v.push_back(x);
    }
    v.push_back(R.p);
    // All-ones limbs (the largest columns) below 2p, and limb-edge powers of two.
    for (unsigned k = 52; k < mpz_sizeinbase(two_p, 2); k += 52) {
        mpz_ui_pow_ui(x, 2, k);
        v.push_back(x);
        mpz_sub_ui(x, x, 1);
        v.push_back(x);
    }
    gmp_randstate_t st;
    gmp_randinit_default(st);
    gmp_randseed_ui(st, (unsigned long)rng());
    for (int i = 0; i < 600; ++i) {
        mpz_urandomm(x, st, two_p);
        v.push_back(x);
    }
    gmp_randclear(st);
    return v;
}

template <class P>
void check_fp64(const char* name, std::mt19937_64& rng)
{
    using M = fp64_mont<P>;
    fp64_ref<P> R;
    const std::vector<mpz> vals = operands(R, rng);
    mpz two_p;
    mpz_mul_2exp(two_p, R.p, 1);
    INFO(name);
    size_t bad = 0, bad_range = 0, bad_canon = 0, checked = 0;
    std::uniform_int_distribution<size_t> pick(0, vals.size() - 1);
    for (size_t n = 0; n < 6000; ++n) {
        const mpz& a = n < vals.size() ? vals[n] : vals[pick(rng)];
        const mpz& b = vals[(n * 7 + 3) % vals.size()];
        uint64_t av[M::L], bv[M::L], out[M::L];
        R.limbs_of(a, av);
        R.limbs_of(b, bv);
        M::mul(out, M::from_u52(av), M::from_u52(bv));
        const mpz got = R.value(out);
        const mpz want = R.want(a, b);
        mpz g;
        mpz_mod(g, got, R.p);
        ++checked;
        if (mpz_cmp(g, want) != 0 && bad++ < 3)
            FAIL_CHECK("0x" << a.hex() << " · 0x" << b.hex() << ": 0x" << got.hex() << ", want 0x" << want.hex());
        if (mpz_cmp(got, two_p) >= 0) ++bad_range;
        for (int k = 0; k < M::L; ++k)
            if (out[k] >> 52) ++bad_range;
        // The canonical words (only defined for results below 2p).
        if (mpz_cmp(got, two_p) < 0) {
            const dfield<P> w = M::to_field(out);
            bigint<P::limbs> bw;
            for (size_t i = 0; i < P::limbs; ++i) bw.l[i] = uint64_t(w.w[2 * i]) | uint64_t(w.w[2 * i + 1]) << 32;
            if (mpz_cmp(test::to_mpz(bw), want) != 0) ++bad_canon;
        }
    }
    CHECK(checked == 6000);
    CHECK(bad == 0);
    CHECK(bad_range == 0);
    CHECK(bad_canon == 0);
}

// mul_field: dfield's form times the R' form is dfield's product.
template <class P>
void check_mul_field(const char* name, std::mt19937_64& rng)
{
    using M = fp64_mont<P>;
    using F = field<P>;
    INFO(name);
    const dfield<P> k = M::r_prime_factor();
    size_t bad = 0;
    for (int i = 0; i < 500; ++i) {
        const F a = F::random(rng), b = F::random(rng);
        const dfield<P> da = dfield<P>::from_host(a), db = dfield<P>::from_host(b);
        const dfield<P> got = M::mul_field(da, M::from_field(db * k));
        if (!(got.to_host() == a * b) && bad++ < 3) FAIL_CHECK("mul_field differs from the field product at " << i);
    }
    CHECK(bad == 0);
}

} // namespace

TEST_CASE("FP64 Montgomery product equals GMP (host emulation of the rounding-toward-zero FMA)")
{
    std::mt19937_64 rng(0xf64f64);
    check_fp64<fr_params>("BLS12-381 Fr", rng);
    check_fp64<fp_params>("BLS12-381 Fp", rng);
    check_fp64<bn254::fr_params>("BN254 Fr", rng);
    check_fp64<bn254::fp_params>("BN254 Fp", rng);
}

TEST_CASE("FP64 Montgomery product in dfield's form equals the host field's product")
{
    std::mt19937_64 rng(0xf64);
    check_mul_field<fr_params>("BLS12-381 Fr", rng);
    check_mul_field<fp_params>("BLS12-381 Fp", rng);
    check_mul_field<bn254::fr_params>("BN254 Fr", rng);
}

TEST_CASE("FP64 host emulation of the fused multiply-add rounds toward zero")
{
    using namespace fp64_detail;
    // (2^52 − 1)·3 = 2·2^52 + (2^52 − 3): the part below the unit 2^52 is cut,
    // where rounding to nearest would carry it up to 3·2^52.
    CHECK(fma_rz(0x1p52 - 1, 3, 0x1p104) == 0x1p104 + 0x1p53);
    CHECK(fma_rz(-(0x1p52 - 1), 3, -0x1p104) == -(0x1p104 + 0x1p53));   // toward zero for negatives
    CHECK(fma_rz(0x1p52 - 1, 0x1p52 - 1, 0x1p104) == 0x1p104 + (0x1p52 - 2) * 0x1p52);
    CHECK(fma_rz(5, 7, -35) == 0);
}
