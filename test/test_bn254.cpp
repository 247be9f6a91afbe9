// BN254: fields, tower and curves (its pairing: test/test_pairing.cpp).
//
// References that do not share code with what they test:
//   - GMP on the decimal moduli (and on the seed polynomials p(x), r(x)) for
//     every Montgomery constant, field operation and exponent;
//   - ξ raised to GMP-computed exponents for the compile-time Frobenius
//     coefficients, pow(p^k) for the Frobenius maps;
//   - schoolbook products in the bases 1, v, v² and 1, w for the tower;
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "cuzk/ec/bn254.hpp"
#include "cuzk/error.hpp"
#include "cuzk/ff/bn254.hpp"
#include "gmp_util.hpp"

using namespace cuzk::bn254;
using cuzk::bigint;
using cuzk::errc;
using cuzk::test::mpz;
namespace test = cuzk::test;

namespace {

const char* const P_DEC = "21888242871839275222246405745257275088696311157297823662689037894645226208583";
const char* const R_DEC = "21888242871839275222246405745257275088548364400416034343698204186575808495617";

template <class F>
mpz val(const F& a)
{
    return test::to_mpz(a.to_repr());
}
template <class F>
std::string hex_of(const F& a)
{
    return val(a).hex();
}
const fp2 XI = {fp::from_u64(9), fp::one()};

// p^k (k ≤ 12) and m·(p^12 − 1)/r as 48-limb exponents (< 2^3072).
constexpr size_t BIG = 48;
using big = bigint<BIG>;
big p_pow(unsigned k)
{
    mpz e;
    mpz_pow_ui(e, mpz(P_DEC), k);
    return test::from_mpz<BIG>(e);
}
// ---- schoolbook references ----------------------------------------------------------
fp6 fp6_schoolbook(const fp6& a, const fp6& b)
{
    return {a.c0 * b.c0 + (a.c1 * b.c2 + a.c2 * b.c1) * XI, a.c0 * b.c1 + a.c1 * b.c0 + a.c2 * b.c2 * XI,
            a.c0 * b.c2 + a.c1 * b.c1 + a.c2 * b.c0};
}
fp6 fp6_times_v(const fp6& a) { return fp6_schoolbook(a, {fp2::zero(), fp2::one(), fp2::zero()}); }
fp12 fp12_schoolbook(const fp12& a, const fp12& b)
{
    return {fp6_schoolbook(a.c0, b.c0) + fp6_times_v(fp6_schoolbook(a.c1, b.c1)),
            fp6_schoolbook(a.c0, b.c1) + fp6_schoolbook(a.c1, b.c0)};
}

g1_affine g1_mul(const g1_affine& p, const fr& k) { return scalar_mul(p, k.to_repr()).to_affine(); }
g2_affine g2_mul(const g2_affine& q, const fr& k) { return scalar_mul(q, k.to_repr()).to_affine(); }

template <class F>
void check_field_constants(const char* dec, const char* from_seed_coeffs)
{
    using P = typename F::params;
    const mpz p(dec);
    CHECK(test::to_mpz(P::modulus).hex() == p.hex());
    CHECK(mpz_sizeinbase(p, 2) == P::bits);
    // the modulus from the seed: 36x⁴ + 36x³ + c·x² + 6x + 1, c = 24 (p) or 18 (r)
    mpz x, t, acc;
    mpz_set_ui(x, seed);
    mpz_set_ui(acc, 36);
    for (unsigned c : {36u, unsigned(std::stoul(from_seed_coeffs)), 6u, 1u}) {
        mpz_mul(acc, acc, x);
        mpz_add_ui(acc, acc, c);
    }
    CHECK(acc.hex() == p.hex());
    mpz R;
    mpz_ui_pow_ui(R, 2, 256);
    mpz_mod(t, R, p);
    CHECK(test::to_mpz(P::one).hex() == t.hex());
    mpz_mul(t, R, R);
    mpz_mod(t, t, p);
    CHECK(test::to_mpz(P::r2).hex() == t.hex());
    mpz two64, inv;
    mpz_ui_pow_ui(two64, 2, 64);
    mpz_invert(inv, p, two64);
    mpz_sub(inv, two64, inv);
    CHECK(mpz_get_ui(inv) == P::inv);
    mpz_sub_ui(t, p, 1);
    CHECK(mpz_scan1(t, 0) == P::two_adicity);
    if (P::nonresidue != 0) {
        mpz nr;
        for (unsigned k = 2; k <= P::nonresidue; ++k) {   // the smallest non-residue
            mpz_set_ui(nr, k);
            CHECK(mpz_legendre(nr, p) == (k == P::nonresidue ? -1 : 1));
        }
    }
}

template <class F>
void check_random_ops(const char* dec, int rounds, uint64_t salt)
{
    std::mt19937_64 rng(test::test_seed() + salt);
    const mpz p(dec);
    mpz e;
    for (int i = 0; i < rounds; ++i) {
        const F a = F::random(rng), b = F::random(rng);
        const mpz A = val(a), B = val(b);
        mpz_add(e, A, B);
        mpz_mod(e, e, p);
        REQUIRE(hex_of(a + b) == e.hex());
        mpz_sub(e, A, B);
        mpz_mod(e, e, p);
        REQUIRE(hex_of(a - b) == e.hex());
        mpz_mul(e, A, B);
        mpz_mod(e, e, p);
        REQUIRE(hex_of(a * b) == e.hex());
        mpz_mul(e, A, A);
        mpz_mod(e, e, p);
        REQUIRE(hex_of(a.sqr()) == e.hex());
        mpz_neg(e, A);
        mpz_mod(e, e, p);
        REQUIRE(hex_of(-a) == e.hex());
        // the 4-limb assembly (x86-64 hosts) and the portable limb code agree
        F q;
        F::mont_mul_portable(q.l, a.l, b.l);
        REQUIRE(q == a * b);
        F::add_mod_portable(q.l, a.l, b.l);
        REQUIRE(q == a + b);
        F::sub_mod_portable(q.l, a.l, b.l);
        REQUIRE(q == a - b);
        if (i % 16 == 0) {
            mpz_invert(e, A, p);
            REQUIRE(hex_of(a.inverse()) == e.hex());
            const int leg = a.legendre();
            REQUIRE(leg == mpz_legendre(A, p));
            F s;
            REQUIRE(a.sqrt(s) == (leg >= 0));
            if (leg >= 0) REQUIRE(s.sqr() == a);
        }
    }
    // edges: p − 1
    mpz pm1;
    mpz_sub_ui(pm1, p, 1);
    const F m1 = F::from_repr(test::from_mpz<4>(pm1));
    CHECK((m1 + F::one()).is_zero());
    CHECK(-F::one() == m1);
    CHECK((m1 * m1).is_one());
}

} // namespace

TEST_CASE("BN254 Fp and Fr constants re-derived with GMP from the moduli and the seed", "[bn254]")
{
    check_field_constants<fp>(P_DEC, "24");
    check_field_constants<fr>(R_DEC, "18");
    // curve constants: b = 3, b' = 3/ξ, the generators of EIP-196/197
    CHECK(g1_curve::b() == fp::from_u64(3));
    CHECK(g2_curve::b() * XI == fp2{fp::from_u64(3), fp::zero()});
    const g1_affine g1 = g1_affine::generator();
    CHECK(g1.x == fp::one());
    CHECK(g1.y == fp::from_u64(2));
    const g2_affine g2 = g2_affine::generator();
    CHECK(hex_of(g2.x.c0) == "1800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6ed");
    CHECK(hex_of(g2.x.c1) == "198e9393920d483a7260bfb731fb5d25f1aa493335a9e71297e485b7aef312c2");
    CHECK(hex_of(g2.y.c0) == "12c85ea5db8c6deb4aab71808dcb408fe3d1e7690c43d37b4ce6cc0166fa7daa");
    CHECK(hex_of(g2.y.c1) == "90689d0585ff075ec9e99ad690c3395bc4b313370b38ef355acdadcd122975b");
}

TEST_CASE("BN254 Fp and Fr arithmetic equals GMP on random inputs", "[bn254]")
{
#if CUZK_FIELD_X86
    // the assembly is chosen by limb count and the spare top bit, not by curve
    STATIC_REQUIRE(cuzk::x86::supported<fp_params>);
    STATIC_REQUIRE(cuzk::x86::supported<fr_params>);
#endif
    check_random_ops<fp>(P_DEC, 3000, 401);
    check_random_ops<fr>(R_DEC, 3000, 402);
}

TEST_CASE("BN254 Frobenius coefficients equal xi^(i(p^k - 1)/6)", "[bn254]")
{
    for (unsigned k = 1; k <= 3; ++k)
        for (unsigned i = 1; i <= 5; ++i) {
            mpz e;
            mpz_pow_ui(e, mpz(P_DEC), k);
            mpz_sub_ui(e, e, 1);
            mpz_mul_ui(e, e, i);
            REQUIRE(mpz_divisible_ui_p(e, 6));
            mpz_divexact_ui(e, e, 6);
            INFO("k = " << k << ", i = " << i);
            CHECK(frobenius_coeff(k, i) == XI.pow(test::from_mpz<12>(e)));
        }
    CHECK(frobenius_coeff(1, 0) == fp2::one());
    // ξ is neither a square nor a cube in Fp2, so Fp6 and Fp12 are fields
    CHECK(XI.legendre() == -1);
    mpz e;
    mpz_pow_ui(e, mpz(P_DEC), 2);
    mpz_sub_ui(e, e, 1);
    mpz_divexact_ui(e, e, 3);
    CHECK(!XI.pow(test::from_mpz<8>(e)).is_one());
}

TEST_CASE("BN254 Fp2, Fp6, Fp12: schoolbook products, field laws, Frobenius, sparse and cyclotomic", "[bn254]")
{
    std::mt19937_64 rng(test::test_seed() + 421);
    const fp6 v = {fp2::zero(), fp2::one(), fp2::zero()};
    CHECK(v * v * v == fp6{XI, fp2::zero(), fp2::zero()});   // v³ = ξ
    const fp12 w = {fp6::zero(), fp6::one()};
    const fp12 w3 = w * w * w;
    CHECK(w3 * w3 == fp12{{XI, fp2::zero(), fp2::zero()}, fp6::zero()});   // w⁶ = ξ
    const big pk[4] = {big::zero(), p_pow(1), p_pow(2), p_pow(3)};
    for (int it = 0; it < 100; ++it) {
        const fp2 a2 = fp2::random(rng), b2 = fp2::random(rng);
        REQUIRE(a2 * b2 == fp2{a2.c0 * b2.c0 - a2.c1 * b2.c1, a2.c0 * b2.c1 + a2.c1 * b2.c0});   // u² = −1
        REQUIRE(a2.sqr() == a2 * a2);
        REQUIRE(a2.mul_by_xi() == a2 * XI);
        REQUIRE((a2 * a2.inverse()).is_one());
        fp2 s;
        REQUIRE(a2.sqr().sqrt(s));
        REQUIRE(s.sqr() == a2.sqr());

        const fp6 a = fp6::random(rng), b = fp6::random(rng), c = fp6::random(rng);
        REQUIRE(a * b == fp6_schoolbook(a, b));
        REQUIRE(a.sqr() == a * a);
        REQUIRE((a * b) * c == a * (b * c));
        REQUIRE(a * (b + c) == a * b + a * c);
        REQUIRE((a * a.inverse()).is_one());
        REQUIRE(a.mul_by_nonresidue() == a * v);
        REQUIRE(a.mul_by_01(b.c0, b.c1) == a * fp6{b.c0, b.c1, fp2::zero()});
        REQUIRE(a.mul_by_1(b.c1) == a * fp6{fp2::zero(), b.c1, fp2::zero()});

        const fp12 f = fp12::random(rng), g = fp12::random(rng);
        REQUIRE(f * g == fp12_schoolbook(f, g));
        REQUIRE(f.sqr() == f * f);
        REQUIRE((f * f.inverse()).is_one());
        // D-type line shape o0 + o3·w + o4·w³ (and the M-type one for completeness)
        const fp2 o0 = fp2::random(rng), o3 = fp2::random(rng), o4 = fp2::random(rng);
        REQUIRE(f.mul_by_034(o0, o3, o4) == f * fp12{{o0, fp2::zero(), fp2::zero()}, {o3, o4, fp2::zero()}});
        REQUIRE(f.mul_by_014(o0, o3, o4) == f * fp12{{o0, o3, fp2::zero()}, {fp2::zero(), o4, fp2::zero()}});
        if (it % 25 == 0) {
            for (unsigned k = 1; k <= 3; ++k) {
                REQUIRE(a.frobenius_map(k) == a.pow(pk[k]));
                REQUIRE(f.frobenius_map(k) == f.pow(pk[k]));
            }
            REQUIRE(f.frobenius_map(6) == f.conjugate());
            // an element of the cyclotomic subgroup: f^((p^6 − 1)(p² + 1))
            const fp12 t = f.conjugate() * f.inverse();
            const fp12 cy = t.frobenius_map(2) * t;
            REQUIRE(cy.cyclotomic_sqr() == cy.sqr());
            REQUIRE(cy.conjugate() * cy == fp12::one());
        }
    }
    // bytes: noble's order (the w³ coefficient c1.c1.c0 is the 9th Fp), round trip, rejection
    uint8_t buf[fp12_nbytes];
    fp12 t = fp12::zero();
    t.c1.c1.c0 = fp::from_u64(7);
    fp12_to_bytes_be(t, buf);
    for (size_t i = 0; i < fp12_nbytes; ++i) REQUIRE(buf[i] == (i == 9 * 32 - 1 ? 7 : 0));
    const fp12 r = fp12::random(rng);
    fp12_to_bytes_be(r, buf);
    fp12 back;
    REQUIRE(fp12_from_bytes_be(buf, back));
    CHECK(back == r);
    for (size_t i = 0; i < 32; ++i) buf[i] = 0xff;
    CHECK_FALSE(fp12_from_bytes_be(buf, back));
}

TEST_CASE("BN254 G1 and G2: generators on the curve, order r, subgroup test", "[bn254]")
{
    std::mt19937_64 rng(test::test_seed() + 441);
    const g1_affine g1 = g1_affine::generator();
    const g2_affine g2 = g2_affine::generator();
    CHECK(g1.is_on_curve());
    CHECK(g2.is_on_curve());
    CHECK(scalar_mul(g1, fr_params::modulus).is_identity());
    CHECK(scalar_mul(g2, fr_params::modulus).is_identity());
    CHECK(in_subgroup(g1));
    CHECK(in_subgroup(g2));
    CHECK(in_subgroup(g1_affine::identity()));
    const bigint<4> rm1 = cuzk::sub_small(fr_params::modulus, 1);
    CHECK(scalar_mul(g1, rm1).to_affine() == -g1);
    CHECK(scalar_mul(g2, rm1).to_affine() == -g2);
    for (int it = 0; it < 8; ++it) {
        const fr a = fr::random(rng), b = fr::random(rng);
        const g1_affine p = g1_mul(g1, a);
        const g2_affine q = g2_mul(g2, a);
        REQUIRE(p.is_on_curve());
        REQUIRE(q.is_on_curve());
        REQUIRE(g1_mul(g1, a + b) == p.to_jacobian().add(g1_mul(g1, b)).to_affine());
        REQUIRE(g2_mul(g2, a * b) == g2_mul(q, b));
        REQUIRE(in_subgroup(q));
    }
    // A point of E'(Fp2) outside G2: the twist's cofactor is not 1, so a
    // random point on the curve is almost never of order r.
    int found = 0;
    for (int it = 0; it < 16 && found < 2; ++it) {
        const fp2 xx = fp2::random(rng);
        fp2 yy;
        if (!(xx.sqr() * xx + g2_curve::b()).sqrt(yy)) continue;
        const g2_affine q = {xx, yy};
        REQUIRE(q.is_on_curve());
        CHECK_FALSE(in_subgroup(q));
        ++found;
    }
    CHECK(found == 2);
}

