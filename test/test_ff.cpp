// Field arithmetic against GMP: constants re-derived from the decimal moduli,
// thousands of random operations, and the edges 0, 1, p − 1.
#include <catch2/catch.hpp>

#include <random>

#include "cuzk/ff/bls12_381.hpp"
#include "gmp_util.hpp"

using namespace cuzk;
using cuzk::test::mpz;

namespace {

const char* const P_DEC =
    "4002409555221667393417789825735904156556882819939007885332058136124031650490837864442687629129015664037894272559787";
const char* const R_DEC = "52435875175126190479447740508185965837690552500527637822603658699938581184513";

template <class F>
const char* modulus_dec()
{
    if constexpr (std::is_same_v<F, fp>) return P_DEC;
    else return R_DEC;
}

template <class F>
mpz val(const F& a)
{
    return test::to_mpz(a.to_repr());
}

template <class F>
void check_constants()
{
    using P = typename F::params;
    const mpz p(modulus_dec<F>());
    CHECK(test::to_mpz(P::modulus).hex() == p.hex());
    CHECK(mpz_sizeinbase(p, 2) == P::bits);
    mpz R, t;
    mpz_ui_pow_ui(R, 2, 64 * F::N);
    mpz_mod(t, R, p);
    CHECK(test::to_mpz(P::one).hex() == t.hex());
    mpz_mul(t, R, R);
    mpz_mod(t, t, p);
    CHECK(test::to_mpz(P::r2).hex() == t.hex());
    // inv = −p⁻¹ mod 2^64
    mpz two64, inv;
    mpz_ui_pow_ui(two64, 2, 64);
    mpz_invert(inv, p, two64);
    mpz_sub(inv, two64, inv);
    CHECK(mpz_get_ui(inv) == P::inv);
    // two-adicity of p − 1
    mpz_sub_ui(t, p, 1);
    CHECK(mpz_scan1(t, 0) == P::two_adicity);
    if (P::nonresidue != 0) {
        mpz nr;
        mpz_set_ui(nr, P::nonresidue);
        CHECK(mpz_legendre(nr, p) == -1);
        for (unsigned k = 2; k < P::nonresidue; ++k) {   // and it is the smallest one
            mpz_set_ui(nr, k);
            CHECK(mpz_legendre(nr, p) == 1);
        }
    }
}

template <class F>
void check_random_ops(int rounds)
{
    std::mt19937_64 rng(test::test_seed());
    const mpz p(modulus_dec<F>());
    mpz e, r;
    for (int i = 0; i < rounds; ++i) {
        const F a = F::random(rng), b = F::random(rng);
        const mpz A = val(a), B = val(b);
        mpz_add(e, A, B);
        mpz_mod(e, e, p);
        REQUIRE(val(a + b).hex() == e.hex());
        mpz_sub(e, A, B);
        mpz_mod(e, e, p);
        REQUIRE(val(a - b).hex() == e.hex());
        mpz_mul(e, A, B);
        mpz_mod(e, e, p);
        REQUIRE(val(a * b).hex() == e.hex());
        mpz_mul(e, A, A);
        mpz_mod(e, e, p);
        REQUIRE(val(a.sqr()).hex() == e.hex());
        mpz_neg(e, A);
        mpz_mod(e, e, p);
        REQUIRE(val(-a).hex() == e.hex());
        if (i % 16 == 0) {
            mpz_invert(e, A, p);
            REQUIRE(val(a.inverse()).hex() == e.hex());
            REQUIRE((a * a.inverse()).is_one());
            const int leg = a.legendre();
            REQUIRE(leg == mpz_legendre(A, p));
            F s;
            const bool ok = a.sqrt(s);
            REQUIRE(ok == (leg >= 0));
            if (ok) REQUIRE(s.sqr() == a);
            const uint64_t x = rng();
            mpz_powm_ui(e, A, x, p);
            REQUIRE(val(a.pow(x)).hex() == e.hex());
        }
        // Montgomery round trip through the canonical representation.
        REQUIRE(F::from_repr(a.to_repr()) == a);
    }
}

template <class F>
void check_edges()
{
    const mpz p(modulus_dec<F>());
    mpz pm1;
    mpz_sub_ui(pm1, p, 1);
    const F z = F::zero(), o = F::one();
    const F m1 = F::from_repr(test::from_mpz<F::N>(pm1));
    CHECK(val(m1).hex() == pm1.hex());
    CHECK((m1 + o).is_zero());
    CHECK((z - o) == m1);
    CHECK((-o) == m1);
    CHECK((-z).is_zero());
    CHECK((m1 * m1).is_one());   // (−1)² = 1
    CHECK(z.inverse().is_zero());
    CHECK(o.inverse().is_one());
    CHECK(m1.inverse() == m1);
    CHECK(z.legendre() == 0);
    CHECK(o.legendre() == 1);
    F s;
    CHECK(z.sqrt(s));
    CHECK(s.is_zero());
    CHECK(o.sqrt(s));
    CHECK(s.sqr().is_one());

    // Bytes: p − 1 encodes and decodes; p and all-ones are rejected.
    uint8_t buf[F::nbytes], be[F::nbytes];
    m1.to_bytes_le(buf);
    m1.to_bytes_be(be);
    for (size_t i = 0; i < F::nbytes; ++i) CHECK(buf[i] == be[F::nbytes - 1 - i]);
    F back;
    CHECK(F::from_bytes_le(buf, back));
    CHECK(back == m1);
    const auto pb = test::from_mpz<F::N>(p);
    for (size_t i = 0; i < F::nbytes; ++i) buf[i] = uint8_t(pb.l[i / 8] >> (8 * (i % 8)));
    CHECK_FALSE(F::from_bytes_le(buf, back));
    for (size_t i = 0; i < F::nbytes; ++i) be[F::nbytes - 1 - i] = buf[i];
    CHECK_FALSE(F::from_bytes_be(be, back));
    for (auto& c : buf) c = 0xff;
    CHECK_FALSE(F::from_bytes_le(buf, back));
    for (auto& c : buf) c = 0;
    CHECK(F::from_bytes_le(buf, back));
    CHECK(back.is_zero());
}

} // namespace

TEST_CASE("Fp and Fr constants re-derived from the decimal moduli with GMP", "[ff]")
{
    check_constants<fp>();
    check_constants<fr>();
}

TEST_CASE("Fp arithmetic equals GMP on random inputs", "[ff]")
{
    check_random_ops<fp>(4000);
}

TEST_CASE("Fr arithmetic equals GMP on random inputs", "[ff]")
{
    check_random_ops<fr>(4000);
}

TEST_CASE("Fp and Fr edges: 0, 1, p-1 and non-canonical bytes", "[ff]")
{
    check_edges<fp>();
    check_edges<fr>();
}

TEST_CASE("Fp2 arithmetic against its definition over Fp", "[ff]")
{
    std::mt19937_64 rng(test::test_seed() + 1);
    for (int i = 0; i < 500; ++i) {
        const fp2 a = fp2::random(rng), b = fp2::random(rng);
        // schoolbook product with u² = −1
        const fp2 m = {a.c0 * b.c0 - a.c1 * b.c1, a.c0 * b.c1 + a.c1 * b.c0};
        REQUIRE(a * b == m);
        REQUIRE(a.sqr() == a * a);
        REQUIRE(a.mul_by_xi() == a * fp2{fp::one(), fp::one()});
        if (i % 8 == 0) {
            REQUIRE((a * a.inverse()).is_one());
            fp2 s;
            const bool ok = a.sqrt(s);
            REQUIRE(ok == (a.legendre() == 1));
            if (ok) REQUIRE(s.sqr() == a);
            // a² always has a root
            const fp2 sq = a.sqr();
            REQUIRE(sq.sqrt(s));
            REQUIRE(s.sqr() == sq);
        }
        // Frobenius is x ↦ x^p
        if (i % 64 == 0) REQUIRE(a.frobenius() == a.pow(fp_params::modulus));
    }
    // u² = −1 and u is a square root of −1
    const fp2 u = {fp::zero(), fp::one()};
    CHECK(u.sqr() == -fp2::one());
    fp2 s;
    CHECK((-fp2::one()).sqrt(s));
    CHECK(s.sqr() == -fp2::one());
}
