// The BLS12-381 tower Fp6/Fp12 and the optimal ate pairings of both curves
// (BN254's tower: test/test_bn254.cpp).
//
// References that do not share code with what they test:
//   - schoolbook products in the power basis 1, w, …, w⁵ (w⁶ = ξ) and
//     1, v, v² (v³ = ξ) for the Karatsuba/Chung–Hasan/sparse products;
//   - exponents computed with GMP from the decimal p and r: Frobenius maps
//     against pow(p^k), the Frobenius coefficients against ξ^(i(p^k − 1)/6),
//     the final exponentiations against a plain pow by 3·(p^12 − 1)/r
//     (BLS12-381) and m·(p^12 − 1)/r (BN254, m = 2x(6x² + 3x + 1));
//   - byte-exact values of @noble/curves 1.9.7 bls12_381.pairing and
//     bn254.pairing;
//   - the group law of ec/point.hpp (scalar_mul) for bilinearity.
// The properties every pairing has (bilinearity, identities, products,
// refusals) are one TEMPLATE_TEST_CASE over both curves.
#include <catch2/catch.hpp>

#include <array>
#include <random>
#include <string>
#include <vector>

#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/bn254.hpp"
#include "cuzk/error.hpp"
#include "cuzk/ff/bn254.hpp"
#include "cuzk/ff/fp12.hpp"
#include "cuzk/pairing/pairing.hpp"
#include "gmp_util.hpp"

using namespace cuzk;
using cuzk::test::mpz;
using C = bls12_381_curve;

namespace {

const char* const P_DEC =
    "4002409555221667393417789825735904156556882819939007885332058136124031650490837864442687629129015664037894272559787";
const char* const R_DEC = "52435875175126190479447740508185965837690552500527637822603658699938581184513";

constexpr size_t BIG = 72;   // limbs for the largest exponent, 3(p^12 − 1)/r < 2^4320
using big = bigint<BIG>;

big p_pow(unsigned k)
{
    mpz e;
    mpz_pow_ui(e, mpz(P_DEC), k);
    return test::from_mpz<BIG>(e);
}

// (p^12 − 1)/r · mult
big final_exp_exponent(unsigned mult)
{
    mpz e, rem;
    mpz_pow_ui(e, mpz(P_DEC), 12);
    mpz_sub_ui(e, e, 1);
    mpz_tdiv_qr(e, rem, e, mpz(R_DEC));
    REQUIRE(mpz_cmp_ui(rem.v, 0) == 0);
    mpz_mul_ui(e, e, mult);
    REQUIRE(mpz_sizeinbase(e, 2) <= 64 * BIG);
    return test::from_mpz<BIG>(e);
}

const fp2 XI = {fp::one(), fp::one()};

// ---- schoolbook references ----------------------------------------------------------
fp6 fp6_schoolbook(const fp6& a, const fp6& b)
{
    const fp2 x[3] = {a.c0, a.c1, a.c2}, y[3] = {b.c0, b.c1, b.c2};
    fp2 r[5] = {fp2::zero(), fp2::zero(), fp2::zero(), fp2::zero(), fp2::zero()};
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) r[i + j] += x[i] * y[j];
    // v³ = ξ
    return {r[0] + r[3] * XI, r[1] + r[4] * XI, r[2]};
}

// Coefficients in the basis 1, w, w², …, w⁵.
std::array<fp2, 6> to_w(const fp12& a) { return {a.c0.c0, a.c1.c0, a.c0.c1, a.c1.c1, a.c0.c2, a.c1.c2}; }
fp12 from_w(const std::array<fp2, 6>& g) { return {{g[0], g[2], g[4]}, {g[1], g[3], g[5]}}; }

fp12 fp12_schoolbook(const fp12& a, const fp12& b)
{
    const auto x = to_w(a), y = to_w(b);
    std::array<fp2, 11> r;
    r.fill(fp2::zero());
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j) r[i + j] += x[i] * y[j];
    std::array<fp2, 6> g;
    for (int k = 0; k < 6; ++k) g[k] = r[k] + (k + 6 < 11 ? r[k + 6] * XI : fp2::zero());   // w⁶ = ξ
    return from_w(g);
}

fp12 random_cyclotomic(std::mt19937_64& rng)
{
    const fp12 f = fp12::random(rng);
    const fp12 t = f.conjugate() * f.inverse();
    return t.frobenius_map(2) * t;
}

std::string hex(const uint8_t* b, size_t n)
{
    static const char* d = "0123456789abcdef";
    std::string s;
    for (size_t i = 0; i < n; ++i) {
        s += d[b[i] >> 4];
        s += d[b[i] & 15];
    }
    return s;
}
std::string fp12_hex(const fp12& a)
{
    uint8_t b[fp12_nbytes];
    fp12_to_bytes_be(a, b);
    return hex(b, sizeof b);
}
// zcash uncompressed encodings (no flag bits are set for a finite point)
std::string g1_hex(const g1_affine& p)
{
    uint8_t b[96];
    p.x.to_bytes_be(b);
    p.y.to_bytes_be(b + 48);
    return hex(b, 96);
}
std::string g2_hex(const g2_affine& q)
{
    uint8_t b[192];
    q.x.c1.to_bytes_be(b);
    q.x.c0.to_bytes_be(b + 48);
    q.y.c1.to_bytes_be(b + 96);
    q.y.c0.to_bytes_be(b + 144);
    return hex(b, 192);
}

g1_affine g1_mul(const g1_affine& p, const fr& k) { return scalar_mul(p, k.to_repr()).to_affine(); }
g2_affine g2_mul(const g2_affine& q, const fr& k) { return scalar_mul(q, k.to_repr()).to_affine(); }

// Values printed by @noble/curves 1.9.7 (test/interop/node_modules) with
//   const e = bls12_381.pairing(G1.Point.BASE.multiply(a), G2.Point.BASE.multiply(b));
//   Buffer.from(bls12_381.fields.Fp12.toBytes(e)).toString('hex')
// and the points' toHex(false).
const char* const NOBLE_E_G1_G2 =
    "1250ebd871fc0a92a7b2d83168d0d727272d441befa15c503dd8e90ce98db3e7b6d194f60839c508a84305aaca1789b6"
    "089a1c5b46e5110b86750ec6a532348868a84045483c92b7af5af689452eafabf1a8943e50439f1d59882a98eaa0170f"
    "1368bb445c7c2d209703f239689ce34c0378a68e72a6b3b216da0e22a5031b54ddff57309396b38c881c4c849ec23e87"
    "193502b86edb8857c273fa075a50512937e0794e1e65a7617c90d8bd66065b1fffe51d7a579973b1315021ec3c19934f"
    "01b2f522473d171391125ba84dc4007cfbf2f8da752f7c74185203fcca589ac719c34dffbbaad8431dad1c1fb597aaa5"
    "018107154f25a764bd3c79937a45b84546da634b8f6be14a8061e55cceba478b23f7dacaa35c8ca78beae9624045b4b6"
    "19f26337d205fb469cd6bd15c3d5a04dc88784fbb3d0b2dbdea54d43b2b73f2cbb12d58386a8703e0f948226e47ee89d"
    "06fba23eb7c5af0d9f80940ca771b6ffd5857baaf222eb95a7d2809d61bfe02e1bfd1b68ff02f0b8102ae1c2d5d5ab1a"
    "11b8b424cd48bf38fcef68083b0b0ec5c81a93b330ee1a677d0d15ff7b984e8978ef48881e32fac91b93b47333e2ba57"
    "03350f55a7aefcd3c31b4fcb6ce5771cc6a0e9786ab5973320c806ad360829107ba810c5a09ffdd9be2291a0c25a99a2"
    "04c581234d086a9902249b64728ffd21a189e87935a954051c7cdba7b3872629a4fafc05066245cb9108f0242d0fe3ef"
    "0f41e58663bf08cf068672cbd01a7ec73baca4d72ca93544deff686bfd6df543d48eaa24afe47e1efde449383b676631"
    ;
constexpr uint64_t NOBLE_A = 0x1234567890abcdefull, NOBLE_B = 0xfedcba0987654321ull;
const char* const NOBLE_A_G1 =
    "06108816a69a1dc709dc6fdb084e9d5431414b46e7b56772260a6c695663cfc66ce0afee43b1a5dd51241a3478386521"
    "05272868b6134f52eabee815b639e195794d1181810ec67fee6e7ee02491dd8dc1ee8931d1d76f8139c648f2dddcbdf7"
    ;
const char* const NOBLE_B_G2 =
    "113895bfd3cb0fe169dd12d044b393b36684ec6eed462f8ec1bb9c58f5c14bb31764f94dfac70b95733cfa00c2a002da"
    "17d444d649f0b3014fd99f97835d8e40bb502693793f0d310ac42f9ff3e3533a3be783dc2ddb2e4aecd427e8a967dee5"
    "063e6bcb3e8b8f73d2f641dcc899a1d1566c9aff56ea4e0dfd14fb99be70410a2e1d3a6ae4db01cacc5b40954631cd56"
    "0d838126def6b4e5aa3205992a81c862034a14df87b6aa43b363ef6bc761288a3c391a23bcf9906e5684dabc48d76445"
    ;
const char* const NOBLE_E_AG1_BG2 =
    "12de13242c75171bb908245c367da00c204f0de4efb541975003019c9a0b669573ecc969cdacf4d1008d3a1e55076db0"
    "06bd5de9ee6792e4febf070d2c9f8deda3d89e8f3333487c8b59da1f29adf96610e6efafa2772db40b40f58d9ed2f0f9"
    "018472f58f62e1f41f099276d1437d0e2011689eb19f9271bd726e02a1008740351caa3d90419d1b233f582eb4431a3b"
    "06399547ee9f67a9f8ef316bbf991a9873468b2fc701d6a34d73a30f1e05f6e1dcdb6590ca0869a30e3450450f7acefb"
    "18083b9453071e0979037cd4d478488ae7a9d42d560ac416903b68b3d71cf9b8a6da1af8b6b9f1bb7edf24c2115b3c74"
    "06f17bb246c95e284aa20c8450799d8e703cf24ad1cb0d7c773e4e45ddce3d705595980d7e490367a6c5993fb059174a"
    "12c0c22fc17cec182eb46f7fa308c0ee7bea51c84eeae2fa1762f7bebbf8e539f57aad372862021a57a10fecce0f7efd"
    "02cc160743b8f2798d2061c502a2c9eb7617d4aa30c576f24f4cc01ceca97fb0adf88c5dcba5c6088126a96cba52b8ec"
    "0c33a7ae68818d0dac2fc1db9b199a9074d3a711d276a93b8f9e4e048aac5e5c25daa6dad3ac3bf2282bb439def67b12"
    "02159d3f650bd8bc61251c9bb558d8bc5bef0be62cca5c40f1fe7cd26798c395bef94990ceb10412b9ab0da2fcce4e6a"
    "042cc57e48e893d330d133b7697b685995def6d0dd776a4e7c0a7cc35d69482223e997a595b2ec789213ce520b87669b"
    "19c6b077dcbaabb7a38979875467cc1fe18c4fa7fb3fba66f16d287a5f74948cc3409fa4dff8c722d5e2556ab810f07a"
    ;

} // namespace

TEST_CASE("Frobenius coefficients equal xi^(i(p^k - 1)/6)", "[pairing]")
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
            CHECK(frobenius_coeff(k, i) == XI.pow(test::from_mpz<18>(e)));
        }
    CHECK(frobenius_coeff(1, 0) == fp2::one());
}

TEST_CASE("Fp6 arithmetic: schoolbook product, field laws, Frobenius", "[pairing]")
{
    std::mt19937_64 rng(test::test_seed() + 61);
    const fp6 v = {fp2::zero(), fp2::one(), fp2::zero()};
    CHECK(v * v * v == fp6{XI, fp2::zero(), fp2::zero()});   // v³ = ξ
    CHECK(fp6::zero().inverse().is_zero());
    const big pk[4] = {big::zero(), p_pow(1), p_pow(2), p_pow(3)};
    for (int it = 0; it < 200; ++it) {
        const fp6 a = fp6::random(rng), b = fp6::random(rng), c = fp6::random(rng);
        REQUIRE(a * b == fp6_schoolbook(a, b));
        REQUIRE(a * b == b * a);
        REQUIRE((a * b) * c == a * (b * c));
        REQUIRE(a * (b + c) == a * b + a * c);
        REQUIRE((a - b) + b == a);
        REQUIRE(a + (-a) == fp6::zero());
        REQUIRE(a.sqr() == a * a);
        REQUIRE(a.dbl() == a + a);
        REQUIRE(a.mul_by_nonresidue() == a * v);
        REQUIRE(a.mul_by_01(b.c0, b.c1) == a * fp6{b.c0, b.c1, fp2::zero()});
        REQUIRE(a.mul_by_1(b.c1) == a * fp6{fp2::zero(), b.c1, fp2::zero()});
        REQUIRE(a * b.c2 == a * fp6{b.c2, fp2::zero(), fp2::zero()});
        REQUIRE((a * a.inverse()).is_one());
        if (it % 25 == 0) {
            for (unsigned k = 1; k <= 3; ++k) {
                INFO("k = " << k);
                REQUIRE(a.frobenius_map(k) == a.pow(pk[k]));
            }
            REQUIRE(a.frobenius_map(6) == a);
            REQUIRE(a.frobenius_map(1).frobenius_map(4) == a.frobenius_map(5));
        }
    }
}

TEST_CASE("Fp12 arithmetic: schoolbook product, field laws, Frobenius, sparse and cyclotomic", "[pairing]")
{
    std::mt19937_64 rng(test::test_seed() + 121);
    const fp12 w = {fp6::zero(), fp6::one()};
    fp12 w6 = fp12::one();
    for (int i = 0; i < 6; ++i) w6 *= w;
    CHECK(w6 == fp12{{XI, fp2::zero(), fp2::zero()}, fp6::zero()});   // w⁶ = ξ
    CHECK(fp12::zero().inverse().is_zero());
    CHECK(fp12::one().frobenius_map(1).is_one());
    const big pk[7] = {big::zero(), p_pow(1), p_pow(2), p_pow(3), big::zero(), big::zero(), p_pow(6)};
    for (int it = 0; it < 100; ++it) {
        const fp12 a = fp12::random(rng), b = fp12::random(rng), c = fp12::random(rng);
        REQUIRE(a * b == fp12_schoolbook(a, b));
        REQUIRE(a * b == b * a);
        REQUIRE((a * b) * c == a * (b * c));
        REQUIRE(a * (b + c) == a * b + a * c);
        REQUIRE((a - b) + b == a);
        REQUIRE(a + (-a) == fp12::zero());
        REQUIRE(a.sqr() == a * a);
        REQUIRE((a * a.inverse()).is_one());
        REQUIRE(a.conjugate().conjugate() == a);
        // sparse line product against the full product with the same element
        const fp2 o0 = b.c0.c0, o1 = b.c0.c1, o4 = b.c1.c1;
        const fp12 sparse = {{o0, o1, fp2::zero()}, {fp2::zero(), o4, fp2::zero()}};
        REQUIRE(a.mul_by_014(o0, o1, o4) == a * sparse);
        // Frobenius is a ring homomorphism
        REQUIRE((a * b).frobenius_map(1) == a.frobenius_map(1) * b.frobenius_map(1));
        if (it % 20 == 0) {
            for (unsigned k : {1u, 2u, 3u, 6u}) {
                INFO("k = " << k);
                REQUIRE(a.frobenius_map(k) == a.pow(pk[k]));
            }
            REQUIRE(a.conjugate() == a.pow(pk[6]));
            fp12 f = a;
            for (unsigned k = 1; k <= 12; ++k) {
                f = f.frobenius_map(1);
                INFO("k = " << k);
                REQUIRE(f == a.frobenius_map(k));
            }
            REQUIRE(f == a);   // x^(p^12) = x
        }
        // After the easy part: cyclotomic squaring, and inverse = conjugate.
        if (it % 5 == 0) {
            const fp12 m = random_cyclotomic(rng);
            REQUIRE(m.cyclotomic_sqr() == m.sqr());
            REQUIRE(m.inverse() == m.conjugate());
            const bigint<2> e = {{rng(), rng()}};
            REQUIRE(m.cyclotomic_pow(e) == m.pow(e));
        }
    }
    // pow against repeated multiplication
    const fp12 a = fp12::random(rng);
    fp12 acc = fp12::one();
    for (uint64_t e = 0; e < 20; ++e) {
        REQUIRE(a.pow(bigint<1>{{e}}) == acc);
        acc *= a;
    }
}

TEST_CASE("Fp12 bytes: noble's coefficient order and a round trip", "[pairing]")
{
    std::mt19937_64 rng(test::test_seed() + 181);
    uint8_t b[fp12_nbytes];
    fp12_to_bytes_be(fp12::one(), b);
    for (size_t i = 0; i < fp12_nbytes; ++i) REQUIRE(b[i] == (i == 47 ? 1 : 0));
    // the coefficient of w³ (c1.c1.c0) is the 9th Fp, c1.c2.c1 the 12th
    fp12 t = fp12::zero();
    t.c1.c1.c0 = fp::from_u64(7);
    t.c1.c2.c1 = fp::from_u64(9);
    fp12_to_bytes_be(t, b);
    for (size_t i = 0; i < fp12_nbytes; ++i) REQUIRE(b[i] == (i == 9 * 48 - 1 ? 7 : i == 12 * 48 - 1 ? 9 : 0));
    const fp12 a = fp12::random(rng);
    fp12_to_bytes_be(a, b);
    fp12 back;
    REQUIRE(fp12_from_bytes_be(b, back));
    REQUIRE(back == a);
    for (size_t i = 48; i < 96; ++i) b[i] = 0xff;   // c0.c0.c1 ≥ p
    CHECK_FALSE(fp12_from_bytes_be(b, back));
    CHECK(back == a);
}

TEST_CASE("final exponentiation equals a plain pow by 3(p^12 - 1)/r", "[pairing]")
{
    std::mt19937_64 rng(test::test_seed() + 241);
    const big e3 = final_exp_exponent(3), e1 = final_exp_exponent(1);
    for (int it = 0; it < 8; ++it) {
        const fp12 f = fp12::random(rng);
        const fp12 fe = cuzk::final_exponentiation<C>(f);
        REQUIRE(fe == f.pow(e3));
        const fp12 fm = cuzk::final_exponentiation_minimal<C>(f);
        REQUIRE(fm == f.pow(e1));
        REQUIRE(fm * fm * fm == fe);
        REQUIRE(fm != fe);   // e and e³ differ unless the value is 1
    }
    CHECK(cuzk::final_exponentiation<C>(fp12::one()).is_one());
}

TEST_CASE("pairing equals @noble/curves byte for byte", "[pairing]")
{
    const g1_affine g1 = g1_affine::generator();
    const g2_affine g2 = g2_affine::generator();
    CHECK(fp12_hex(cuzk::pairing<C>(g1, g2)) == NOBLE_E_G1_G2);
    const fr a = fr::from_u64(NOBLE_A), b = fr::from_u64(NOBLE_B);
    const g1_affine ag1 = g1_mul(g1, a);
    const g2_affine bg2 = g2_mul(g2, b);
    REQUIRE(g1_hex(ag1) == NOBLE_A_G1);
    REQUIRE(g2_hex(bg2) == NOBLE_B_G2);
    const fp12 e = cuzk::pairing<C>(ag1, bg2);
    CHECK(fp12_hex(e) == NOBLE_E_AG1_BG2);
    // and the same value through bilinearity: e(G1, G2)^(ab)
    CHECK(e == cuzk::pairing<C>(g1, g2).pow((a * b).to_repr()));
}

// ---- BN254's own references -------------------------------------------------------------
// BN254's types under their own names here (the file's plain names are
// BLS12-381's).
namespace bn_ref {

using cuzk::bn254::fp;
using cuzk::bn254::fp12;
using cuzk::bn254::fp12_nbytes;
using cuzk::bn254::fp2;
using cuzk::bn254::fr;
using cuzk::bn254::g1_affine;
using cuzk::bn254::g2_affine;
using cuzk::bn254::seed;
using C = cuzk::bn254_curve;

const char* const P_DEC = "21888242871839275222246405745257275088696311157297823662689037894645226208583";
const char* const R_DEC = "21888242871839275222246405745257275088548364400416034343698204186575808495617";

constexpr size_t BIG = 48;   // m·(p^12 − 1)/r < 2^3072
using big = bigint<BIG>;

fp fp_hex(const char* h)
{
    mpz m;
    mpz_set_str(m, h, 16);
    return fp::from_repr(test::from_mpz<4>(m));
}
// m = 2x(6x² + 3x + 1), the multiple of the final exponentiation.
mpz m_factor()
{
    mpz x, t, m;
    mpz_set_ui(x, seed);
    mpz_mul_ui(t, x, 6);     // 6x
    mpz_add_ui(t, t, 3);     // 6x + 3
    mpz_mul(t, t, x);        // 6x² + 3x
    mpz_add_ui(t, t, 1);
    mpz_mul(m, t, x);
    mpz_mul_ui(m, m, 2);
    return m;
}
big final_exp_exponent(bool times_m)
{
    mpz e, rem;
    mpz_pow_ui(e, mpz(P_DEC), 12);
    mpz_sub_ui(e, e, 1);
    mpz_tdiv_qr(e, rem, e, mpz(R_DEC));
    REQUIRE(mpz_cmp_ui(rem.v, 0) == 0);
    if (times_m) mpz_mul(e, e, m_factor());
    REQUIRE(mpz_sizeinbase(e, 2) <= 64 * BIG);
    return test::from_mpz<BIG>(e);
}

g1_affine g1_mul(const g1_affine& p, const fr& k) { return scalar_mul(p, k.to_repr()).to_affine(); }
g2_affine g2_mul(const g2_affine& q, const fr& k) { return scalar_mul(q, k.to_repr()).to_affine(); }

std::string fp12_hex(const fp12& e)
{
    uint8_t b[fp12_nbytes];
    fp12_to_bytes_be(e, b);
    static const char* d = "0123456789abcdef";
    std::string s;
    for (uint8_t v : b) {
        s += d[v >> 4];
        s += d[v & 15];
    }
    return s;
}

// @noble/curves 1.9.7: Fp12.toBytes(bn254.pairing(G1, G2)), the affine
// coordinates (hex) of [A]G1 and [B]G2, and Fp12.toBytes(cuzk::pairing<C>([A]G1, [B]G2)).
const char* const NOBLE_E_G1_G2 =
    "262b253feda94cfe0da01bde280a3ed6f87e5feb898578b55e1f63739d870e9502e02d2cc795a2000a1b1f823879abbd397c4dea"
    "0918ed66b49d34b48efb8a4a13a9f2d6e29b128da5b1ad44b31977935fd2957387ecb1fc4e135402fdbd1de0040ba9fa500f1a5c"
    "4b31984a74e68659c4b420bd699ce630b130b08a6ea1162b0afc2f3fd870678fbe359d7f9873f052478f590b211ce30bf5e3eeae"
    "f89eafdb1c54a530398c9064bdc662d929e645cadda9a712cc5a8243f9cddbd2d98dd1f0095c0fbf5d5a1ac023794a0d856f9259"
    "1ba990ecfd4b7aef5c0d58c5dc2429fe14d3d6ca72d8a950a31dc10f7b4053c9e9ad9ebb590cb4a60f8215d4b99f2b4a1dc0e7bb"
    "c3d70e6689dc206b4b91c85759dc1a23043c585fdfaf545838ca74290b53320e5a6488cb98a855ffc837d2a75ab90d61ac16cc1b"
    "7ab2cd3ed5e22b9713a8afd3085dae4c6c91476ef36cd1d318ce07bac42a9c0f9bd7fddaf5ebd72300f97b5221474526b601f373"
    "0a3afa965ceee1b343940c383e5314859e762c97";
constexpr uint64_t NOBLE_A = 0x1234567890abcdefull, NOBLE_B = 0xfedcba0987654321ull;
const char* const NOBLE_A_G1[2] = {"118c7a14188755cb285f38c9a3416340925c49b322fecd8ac879256bfd25d4f8",
                                   "1c4f00185ffac2a999df2683fa5a886a964d908c95488b3f76f574f7fb3b77ed"};
const char* const NOBLE_B_G2[4] = {"2dba22f273ae488cca6451a36601183a50d36bff86eaa488743ab2fdfbd427bc",
                                   "2ffcab8638d3fa85bfd64350cf8ccfc47b3e79ff4cf3955080b57ffa14d13ae4",
                                   "76ee51d506056fab36cbffb9ab7cb36d5be2c57aa743d36a607a9a829985808",
                                   "17ba3db9cf1944ebc55c322ffc563331e30447da26ffe3a8c0029e501278c462"};
const char* const NOBLE_E_AG1_BG2 =
    "026ba12f5c2eb04393277fd18a2ec0ea3e02ef8ca642d2f13615db3addf7850e00f79307ba436c5b951d1d3b6277a143777525cd"
    "a3d12ae1a63d1a6925a96eac16e58a2df7aecd9ee3ee437abc97c117536bfd6f3b614b51cb9dc17f465434cb2ab33d140f474424"
    "811973ef0fd08e62f1c4f8b20507f12622d8fa55696fa2b52139e07ad57f4cb24ee11f7ebf2564544d9f3155448f9e44c65cb626"
    "c522a44922f5b78bd73019a299a7aa577f01f492d5646bb7c165934eefe8a66f853cd39c0205998720708d3e37a78ade1517fea6"
    "de3c8d7794f0cb8d763f0128b2b6aa210dd7c8f8ca79d81101025f69665ac73a2f98fa361078bbc9cba5c9641761b5ff283a8b78"
    "3651154ae7a7c7f5337f672839075aa9135d438f75e86f0b3572f1281178e27fea4fb85a83a3ba45f9f90e73aea787d9288ff415"
    "08888f5d0df15f95241bb59309c698adfce632ea36f03264c15acd9a2179c01498ebb8caa900842a0323376e90ce8dc710944dfa"
    "1d8a88808043cd067f6379ab84aae77bdd92ec54";

TEST_CASE("BN254 final exponentiation equals a plain pow by m(p^12 - 1)/r", "[pairing]")
{
    std::mt19937_64 rng(test::test_seed() + 461);
    const big em = final_exp_exponent(true), e1 = final_exp_exponent(false);
    const bigint<4> m = test::from_mpz<4>(m_factor());
    for (int it = 0; it < 3; ++it) {
        const fp12 f = fp12::random(rng);
        const fp12 fe = cuzk::final_exponentiation<C>(f);
        REQUIRE(fe == f.pow(em));
        const fp12 fm = cuzk::final_exponentiation_minimal<C>(f);
        REQUIRE(fm == f.pow(e1));
        REQUIRE(fm.pow(m) == fe);
    }
    CHECK(cuzk::final_exponentiation<C>(fp12::one()).is_one());
}


TEST_CASE("BN254 pairing equals @noble/curves byte for byte", "[pairing]")
{
    const g1_affine g1 = g1_affine::generator();
    const g2_affine g2 = g2_affine::generator();
    CHECK(fp12_hex(cuzk::pairing<C>(g1, g2)) == NOBLE_E_G1_G2);
    const fr a = fr::from_u64(NOBLE_A), b = fr::from_u64(NOBLE_B);
    const g1_affine ag1 = g1_mul(g1, a);
    const g2_affine bg2 = g2_mul(g2, b);
    REQUIRE(ag1 == g1_affine{fp_hex(NOBLE_A_G1[0]), fp_hex(NOBLE_A_G1[1])});
    const fp2 bx = {fp_hex(NOBLE_B_G2[0]), fp_hex(NOBLE_B_G2[1])}, by = {fp_hex(NOBLE_B_G2[2]), fp_hex(NOBLE_B_G2[3])};
    REQUIRE(bg2 == g2_affine{bx, by});
    const fp12 e = cuzk::pairing<C>(ag1, bg2);
    CHECK(fp12_hex(e) == NOBLE_E_AG1_BG2);
    CHECK(e == cuzk::pairing<C>(g1, g2).pow((a * b).to_repr()));
}


} // namespace bn_ref

// ---- both curves ------------------------------------------------------------------------
namespace {

// What the cases over both curves do differently per curve: the seeds and
// rounds each had when the curves were tested apart, the prepared point's
// length, and the factor k of final_exponentiation (e = minimal^k).
template <class Curve>
struct curve_case;
template <>
struct curve_case<bls12_381_curve> {
    static constexpr uint64_t salt_bilinear = 301, salt_multi = 361;
    static constexpr int rounds = 10, pairs = 4;
    static constexpr size_t n_coeffs = 68;
    static bigint<4> k() { return bigint<4>{{3}}; }
};
template <>
struct curve_case<bn254_curve> {
    static constexpr uint64_t salt_bilinear = 481, salt_multi = 501;
    static constexpr int rounds = 6, pairs = 3;
    static constexpr size_t n_coeffs = 88;
    static bigint<4> k() { return test::from_mpz<4>(bn_ref::m_factor()); }
};

template <class P, class F>
P mul(const P& p, const F& k)
{
    return scalar_mul(p, k.to_repr()).to_affine();
}

} // namespace

TEMPLATE_TEST_CASE("pairing: bilinearity, non-degeneracy, order r, identities", "[pairing]", bls12_381_curve,
                   bn254_curve)
{
    using C = TestType;
    using fr = typename C::fr;
    using fp12 = typename C::fp12;
    using g1_affine = typename C::g1_affine;
    using g2_affine = typename C::g2_affine;
    using T = curve_case<C>;
    constexpr auto r = fr::params::modulus;
    std::mt19937_64 rng(test::test_seed() + T::salt_bilinear);
    const g1_affine g1 = g1_affine::generator();
    const g2_affine g2 = g2_affine::generator();
    const fp12 e11 = pairing<C>(g1, g2);
    CHECK(!e11.is_one());
    CHECK(e11.pow(r).is_one());
    CHECK(e11.cyclotomic_pow(r).is_one());
    for (int it = 0; it < T::rounds; ++it) {
        const fr a = fr::random(rng), b = fr::random(rng);
        const g1_affine p = mul(g1, fr::random(rng));
        const g2_affine q = mul(g2, fr::random(rng));
        const fp12 e = pairing<C>(p, q);
        const fp12 eab = e.pow((a * b).to_repr());
        CHECK(pairing<C>(mul(p, a), mul(q, b)) == eab);
        CHECK(pairing<C>(mul(p, a * b), q) == eab);
        CHECK(pairing<C>(p, mul(q, a * b)) == eab);
        // linearity in each argument
        const g1_affine p2 = mul(g1, fr::random(rng));
        CHECK(pairing<C>(p.to_jacobian().add(p2).to_affine(), q) == e * pairing<C>(p2, q));
        const g2_affine q2 = mul(g2, fr::random(rng));
        CHECK(pairing<C>(p, q.to_jacobian().add(q2).to_affine()) == e * pairing<C>(p, q2));
        // the Groth16 check shape, both ways round
        CHECK((e * pairing<C>(-p, q)).is_one());
        CHECK((e * pairing<C>(p, -q)).is_one());
        CHECK(pairing<C>(p, -q) == e.conjugate());
        // the minimal-exponent pairing is bilinear too, and e is its k-th power
        const fp12 m = final_exponentiation_minimal<C>(miller_loop<C>(p, prepare_g2<C>(q)));
        CHECK(m.pow(T::k()) == e);
        CHECK(final_exponentiation_minimal<C>(miller_loop<C>(mul(p, a), prepare_g2<C>(q))) == m.pow(a.to_repr()));
    }
    // identities
    const g1_affine o1 = g1_affine::identity();
    const g2_affine o2 = g2_affine::identity();
    CHECK(pairing<C>(o1, g2).is_one());
    CHECK(pairing<C>(g1, o2).is_one());
    CHECK(pairing<C>(o1, o2).is_one());
    const typename C::g2_prepared po = prepare_g2<C>(o2);
    CHECK(po.infinity);
    CHECK(po.coeffs.empty());
    CHECK(miller_loop<C>(g1, po).is_one());
    CHECK(miller_loop<C>(o1, prepare_g2<C>(g2)).is_one());
    CHECK(prepare_g2<C>(g2).coeffs.size() == T::n_coeffs);
    // [r]P = O gives 1 (scalar_mul by r lands on the identity)
    CHECK(pairing<C>(scalar_mul(g1, r).to_affine(), g2).is_one());
}

TEMPLATE_TEST_CASE("multi_pairing and pairing_check equal the product of pairings", "[pairing]", bls12_381_curve,
                   bn254_curve)
{
    using C = TestType;
    using fr = typename C::fr;
    using fp12 = typename C::fp12;
    using g1_affine = typename C::g1_affine;
    using g2_affine = typename C::g2_affine;
    using g2_prepared = typename C::g2_prepared;
    std::mt19937_64 rng(test::test_seed() + curve_case<C>::salt_multi);
    const g1_affine g1 = g1_affine::generator();
    const g2_affine g2 = g2_affine::generator();
    std::vector<g1_affine> ps;
    std::vector<g2_affine> qs;
    fp12 prod = fp12::one();
    for (int i = 0; i < curve_case<C>::pairs; ++i) {
        ps.push_back(mul(g1, fr::random(rng)));
        qs.push_back(mul(g2, fr::random(rng)));
        prod *= pairing<C>(ps.back(), qs.back());
    }
    // identity pairs in between contribute 1
    ps.push_back(g1_affine::identity());
    qs.push_back(g2);
    ps.push_back(g1);
    qs.push_back(g2_affine::identity());
    CHECK(multi_pairing<C>(ps, qs) == prod);
    // and through prepared points
    std::vector<g2_prepared> prep;
    for (const auto& q : qs) prep.push_back(prepare_g2<C>(q));
    std::vector<const g2_prepared*> ptr;
    for (const auto& q : prep) ptr.push_back(&q);
    fp12 ml = fp12::one();
    for (size_t i = 0; i < ps.size(); ++i) ml *= miller_loop<C>(ps[i], prep[i]);
    CHECK(multi_miller_loop<C>(ps, ptr) == ml);
    CHECK(final_exponentiation<C>(ml) == prod);
    // empty product
    CHECK(multi_pairing<C>({}, {}).is_one());
    CHECK(pairing_check<C>({}, {}));
    // Groth16 shape: e(−A, B)·e(α, β)·e(L, γ)·e(C, δ) = 1 when A·B = α·β + L·γ + C·δ
    // (in the exponent); here with random scalars.
    const fr alpha = fr::random(rng), beta = fr::random(rng), l = fr::random(rng), gamma = fr::random(rng),
             c = fr::random(rng), delta = fr::random(rng), a = fr::random(rng);
    const fr b = (alpha * beta + l * gamma + c * delta) * a.inverse();
    const std::vector<g1_affine> gp = {-mul(g1, a), mul(g1, alpha), mul(g1, l), mul(g1, c)};
    const std::vector<g2_affine> gq = {mul(g2, b), mul(g2, beta), mul(g2, gamma), mul(g2, delta)};
    CHECK(multi_pairing<C>(gp, gq).is_one());
    CHECK(pairing_check<C>(gp, gq));
    std::vector<g2_affine> bad = gq;
    bad[3] = mul(g2, delta + fr::one());
    CHECK(!multi_pairing<C>(gp, bad).is_one());
    CHECK_FALSE(pairing_check<C>(gp, bad));
}

TEMPLATE_TEST_CASE("pairing rejects malformed input with cuzk::error", "[pairing]", bls12_381_curve, bn254_curve)
{
    using C = TestType;
    using g1_affine = typename C::g1_affine;
    using g2_affine = typename C::g2_affine;
    using g2_prepared = typename C::g2_prepared;
    const g1_affine g1 = g1_affine::generator();
    const g2_affine g2 = g2_affine::generator();
    auto code_of = [](auto&& fn) {
        try {
            fn();
        } catch (const error& e) {
            return e.code();
        }
        return errc::ok;
    };
    g1_affine bad1 = g1;
    bad1.y += C::fp::one();
    for (const bool move_x : {true, false}) {   // off the curve by either coordinate
        g2_affine bad2 = g2;
        (move_x ? bad2.x : bad2.y) += C::fp2::one();
        CHECK(code_of([&] { prepare_g2<C>(bad2); }) == errc::not_on_curve);
        CHECK(code_of([&] { pairing<C>(g1, bad2); }) == errc::not_on_curve);
    }
    CHECK(code_of([&] { pairing<C>(bad1, g2); }) == errc::not_on_curve);
    CHECK(code_of([&] { pairing<C>(bad1, g2_affine::identity()); }) == errc::not_on_curve);
    const std::vector<g1_affine> one_p = {g1}, two_p = {g1, g1};
    const std::vector<g2_affine> one_q = {g2}, two_q = {g2, g2};
    CHECK(code_of([&] { multi_pairing<C>(two_p, one_q); }) == errc::invalid_argument);
    CHECK(code_of([&] { multi_pairing<C>(one_p, two_q); }) == errc::invalid_argument);
    g2_prepared broken = prepare_g2<C>(g2);
    broken.coeffs.pop_back();
    CHECK(code_of([&] { miller_loop<C>(g1, broken); }) == errc::invalid_argument);
    const g2_prepared* null_ptr[1] = {nullptr};
    CHECK(code_of([&] { multi_miller_loop<C>(std::span<const g1_affine>(&g1, 1), null_ptr); }) ==
          errc::invalid_argument);
}
