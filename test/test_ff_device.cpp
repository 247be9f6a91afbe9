// The device field (kernels/ff_device.cuh) on its host emulation of the PTX
// carry chains: the Montgomery multiply and the dedicated square against GMP
// (a·b·R⁻¹ mod p, R = 2^(32n)), for Fp and Fr, on random values and on the
// values whose words make the carries run furthest (0, 1, p − 1, p − 2, the
// largest value with all-ones words below p, small powers of two, R mod p).
// The same instruction sequences run on the device; the [gpu] field tests of
// test_gpu.cpp compare the device results with the CPU field too.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>
#include <vector>

#include "../kernels/ec_device.cuh"
#include "../kernels/ff_device.cuh"
#include "gmp_util.hpp"
#include "test_support.hpp"

using namespace cuzk;
using namespace cuzk::dev;
using cuzk::test::mpz;

namespace {

template <class P>
struct ref {
    static constexpr size_t L = P::limbs;
    mpz p, rinv;
    ref()
    {
        p = test::to_mpz(P::modulus);
        mpz r;
        mpz_ui_pow_ui(r, 2, 64 * L);
        mpz_invert(rinv, r, p);
    }
    // The canonical integer behind the Montgomery words of x.
    mpz value(const dfield<P>& x) const
    {
        bigint<L> b;
        for (size_t i = 0; i < L; ++i) b.l[i] = uint64_t(x.w[2 * i]) | uint64_t(x.w[2 * i + 1]) << 32;
        return test::to_mpz(b);
    }
    dfield<P> from(const mpz& m) const
    {
        const bigint<L> b = test::from_mpz<L>(m);
        dfield<P> x;
        for (size_t i = 0; i < L; ++i) {
            x.w[2 * i] = uint32_t(b.l[i]);
            x.w[2 * i + 1] = uint32_t(b.l[i] >> 32);
        }
        return x;
    }
    // Montgomery product of the words: a·b·R⁻¹ mod p.
    mpz mont(const mpz& a, const mpz& b) const
    {
        mpz t;
        mpz_mul(t, a, b);
        mpz_mul(t, t, rinv);
        mpz_mod(t, t, p);
        return t;
    }
};

template <class P>
std::vector<mpz> edge_values(const ref<P>& R)
{
    std::vector<mpz> v;
    auto add_ui = [&](const mpz& base, long d) {
        mpz x;
        if (d >= 0) mpz_add_ui(x, base, static_cast<unsigned long>(d));
        else mpz_sub_ui(x, base, static_cast<unsigned long>(-d));
        v.push_back(x);
    };
    mpz zero;
    add_ui(zero, 0);
    add_ui(zero, 1);
    add_ui(zero, 2);
    add_ui(R.p, -1);
    add_ui(R.p, -2);
    // All ones below the top set bit of p: 2^(bits − 1) − 1, and 2^(bits−1).
    const size_t bits = mpz_sizeinbase(R.p, 2);
    mpz top;
    mpz_ui_pow_ui(top, 2, bits - 1);
    add_ui(top, -1);
    add_ui(top, 0);
    // Powers of two at word edges, and the values just below them (all-ones
    // low words).
    for (unsigned k : {31u, 32u, 63u, 64u, 95u, 96u, 191u, 192u}) {
        if (k >= bits) continue;
        mpz x;
        mpz_ui_pow_ui(x, 2, k);
        v.push_back(x);
        add_ui(x, -1);
    }
    // R mod p (the Montgomery one) and R² mod p.
    mpz r;
    mpz_ui_pow_ui(r, 2, 64 * P::limbs);
    mpz_mod(r, r, R.p);
    v.push_back(r);
    mpz r2;
    mpz_mul(r2, r, r);
    mpz_mod(r2, r2, R.p);
    v.push_back(r2);
    return v;
}

template <class P>
void check_field(const char* name, std::mt19937_64& rng)
{
    ref<P> R;
    std::vector<mpz> vals = edge_values(R);
    gmp_randstate_t st;
    gmp_randinit_default(st);
    gmp_randseed_ui(st, (unsigned long)rng());
    for (int i = 0; i < 2000; ++i) {
        mpz x;
        mpz_urandomm(x, st, R.p);
        vals.push_back(x);
    }
    gmp_randclear(st);
    INFO(name);
    size_t bad_sqr = 0, bad_mul = 0, bad_sqr_mul = 0;
    for (size_t i = 0; i < vals.size(); ++i) {
        const dfield<P> a = R.from(vals[i]);
        const mpz want = R.mont(vals[i], vals[i]);
        const dfield<P> s = a.sqr();
        if (mpz_cmp(R.value(s), want) != 0) {
            if (bad_sqr++ < 3) FAIL_CHECK("sqr of 0x" << vals[i].hex() << ": 0x" << R.value(s).hex() << ", want 0x" << want.hex());
        }
        if (!(s == a * a)) ++bad_sqr_mul;
        const mpz& b = vals[(i * 7 + 3) % vals.size()];
        const mpz wm = R.mont(vals[i], b);
        const dfield<P> m = a * R.from(b);
        if (mpz_cmp(R.value(m), wm) != 0) {
            if (bad_mul++ < 3) FAIL_CHECK("mul of 0x" << vals[i].hex() << " and 0x" << b.hex() << ": 0x" << R.value(m).hex());
        }
    }
    CHECK(bad_sqr == 0);
    CHECK(bad_mul == 0);
    CHECK(bad_sqr_mul == 0);
    // Every pair of edge values through the multiply, and chains of squares
    // (each output canonical, fed back in).
    const std::vector<mpz> edges = edge_values(R);
    for (const mpz& x : edges)
        for (const mpz& y : edges) {
            const dfield<P> m = R.from(x) * R.from(y);
            CHECK(mpz_cmp(R.value(m), R.mont(x, y)) == 0);
        }
    for (const mpz& x : edges) {
        dfield<P> a = R.from(x);
        mpz want = x;
        for (int k = 0; k < 20; ++k) {
            a = a.sqr();
            want = R.mont(want, want);
        }
        CHECK(mpz_cmp(R.value(a), want) == 0);
    }
}

// The redundant form [0, 2p): on values below 2p (random, the edge values and
// the edge values plus p), mul_lazy, sqr_lazy, add_lazy and sub_lazy give a
// result below 2p that is the right residue (GMP), and canonical() gives it
// reduced.
template <class P>
void check_lazy(const char* name, std::mt19937_64& rng)
{
    using F = dfield<P>;
    ref<P> R;
    std::vector<mpz> vals = edge_values(R);
    const size_t edges = vals.size();
    for (size_t i = 0; i < edges; ++i) {
        mpz x;
        mpz_add(x, vals[i], R.p);
        vals.push_back(x);
    }
    mpz p2;
    mpz_mul_ui(p2, R.p, 2);
    mpz last;
    mpz_sub_ui(last, p2, 1);
    vals.push_back(last);
    gmp_randstate_t st;
    gmp_randinit_default(st);
    gmp_randseed_ui(st, (unsigned long)rng());
    for (int i = 0; i < 2000; ++i) {
        mpz x;
        mpz_urandomm(x, st, p2);
        vals.push_back(x);
    }
    gmp_randclear(st);
    INFO(name);
    auto ok = [&](const F& r, const mpz& want) {
        const mpz v = R.value(r);
        if (mpz_cmp(v, p2) >= 0) return false;
        mpz m;
        mpz_mod(m, v, R.p);
        return mpz_cmp(m, want) == 0 && mpz_cmp(R.value(r.canonical()), want) == 0;
    };
    size_t bad = 0;
    for (size_t i = 0; i < vals.size(); ++i) {
        const mpz& a = vals[i];
        const mpz& b = vals[(i * 7 + 3) % vals.size()];
        const F fa = R.from(a), fb = R.from(b);
        mpz sum, diff;
        mpz_add(sum, a, b);
        mpz_mod(sum, sum, R.p);
        mpz_sub(diff, a, b);
        mpz_mod(diff, diff, R.p);
        const bool good = ok(F::mul_lazy(fa, fb), R.mont(a, b)) && ok(F::sqr_lazy(fa), R.mont(a, a)) &&
                          ok(F::add_lazy(fa, fb), sum) && ok(F::sub_lazy(fa, fb), diff);
        if (!good && bad++ < 3) FAIL_CHECK("lazy ops on 0x" << a.hex() << " and 0x" << b.hex());
    }
    CHECK(bad == 0);
}

// madd_lazy against xyzz::add(affine), step by step on the host emulation:
// the finished (canonical) sum equals the canonical path's bit for bit, on
// random chains, through the identity, through the doubling branch (adding
// the affine form of the running sum itself, where P is 0 or p) and through
// P + (−P).
template <class HAff, class DAff>
void check_lazy_madd(std::mt19937_64& rng)
{
    using DXz = decltype(DAff{}.to_xyzz());
    using HXz = decltype(HAff{}.to_xyzz());
    static_assert(sizeof(HAff) == sizeof(DAff) && sizeof(HXz) == sizeof(DXz));
    const std::vector<HAff> hp = test::random_points<HAff>(48, rng);
    auto dev = [](const HAff& h) {
        DAff d;
        std::memcpy(&d, &h, sizeof d);
        return d;
    };
    auto same = [](const DXz& a, const DXz& b) { return std::memcmp(&a, &b, sizeof a) == 0; };
    auto affine_of = [&](const DXz& x) {
        HXz h;
        std::memcpy(&h, &x, sizeof h);
        return dev(h.to_affine());
    };
    size_t bad = 0, steps = 0;
    for (int round = 0; round < 40; ++round) {
        DXz lazy = DXz::identity(), canon = DXz::identity();
        for (int k = 0; k < 30; ++k) {
            DAff q = dev(hp[rng() % hp.size()]);
            const auto pick = rng() % 8;
            if (pick == 0) q = DAff::identity();
            else if (pick == 1 && !canon.is_identity()) q = affine_of(canon);        // doubling
            else if (pick == 2 && !canon.is_identity()) q = -affine_of(canon);       // to the identity
            lazy = madd_lazy(lazy, q);
            canon = canon.add(q);
            ++steps;
            const DXz fin{lazy.x.canonical(), lazy.y.canonical(), lazy.zz.canonical(), lazy.zzz.canonical()};
            if (!same(fin, canon)) ++bad;
        }
    }
    CHECK(steps == 1200);
    CHECK(bad == 0);
}

} // namespace

TEST_CASE("device field redundant form: products, sums and the mixed addition equal the canonical ones")
{
    std::mt19937_64 rng(test::test_seed() + 3);
    INFO("seed " << test::test_seed());
    STATIC_REQUIRE(dfp::has_lazy);
    STATIC_REQUIRE(dbn_fp::has_lazy);
    STATIC_REQUIRE(!dfr::has_lazy);
    STATIC_REQUIRE(lazy_field<dbn_fp> && !lazy_field<dfp> && !lazy_field<dfp2> && !lazy_field<dfr>);
    check_lazy<fp_params>("Fp", rng);
    check_lazy<bn254::fp_params>("BN254 Fp", rng);
    check_lazy_madd<g1_affine, dg1_affine>(rng);
    check_lazy_madd<bn254::g1_affine, dbn_g1_affine>(rng);
}

TEST_CASE("device field multiply and square equal GMP (host emulation of the carry chains)")
{
    std::mt19937_64 rng(test::test_seed());
    INFO("seed " << test::test_seed());
    // Fp has the dedicated square; Fr's square is its multiply (see ff_device.cuh).
    STATIC_REQUIRE(dfp::has_fast_square);
    STATIC_REQUIRE(!dfr::has_fast_square);
    check_field<fp_params>("Fp", rng);
    check_field<fr_params>("Fr", rng);
}

TEST_CASE("device field square of the host's values equals the host field's square")
{
    std::mt19937_64 rng(test::test_seed() + 1);
    for (int i = 0; i < 500; ++i) {
        const fp a = fp::random(rng);
        CHECK(dfp::from_host(a).sqr().to_host() == a.sqr());
        const fr b = fr::random(rng);
        CHECK(dfr::from_host(b).sqr().to_host() == b.sqr());
    }
}

TEST_CASE("BN254 device fields equal GMP and the host's fields (host emulation)")
{
    std::mt19937_64 rng(test::test_seed() + 2);
    INFO("seed " << test::test_seed());
    // Both BN254 moduli are below 2^254, so both take the dedicated square.
    STATIC_REQUIRE(dbn_fp::has_fast_square);
    STATIC_REQUIRE(dbn_fr::has_fast_square);
    check_field<bn254::fp_params>("BN254 Fp", rng);
    check_field<bn254::fr_params>("BN254 Fr", rng);
    for (int i = 0; i < 300; ++i) {
        const bn254::fp2 a = bn254::fp2::random(rng), b = bn254::fp2::random(rng);
        const dbn_fp2 da = dbn_fp2::from_host(a), db = dbn_fp2::from_host(b);
        CHECK((da * db).to_host() == a * b);
        CHECK(da.sqr().to_host() == a.sqr());
        CHECK((da - db).to_host() == a - b);
        const bn254::fr x = bn254::fr::random(rng);
        CHECK(dbn_fr::from_host(x).sqr().to_host() == x.sqr());
    }
}
