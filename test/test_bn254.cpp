// BN254: fields, tower, curves and the optimal ate pairing.
//
// References that do not share code with what they test:
//   - GMP on the decimal moduli (and on the seed polynomials p(x), r(x)) for
//     every Montgomery constant, field operation and exponent;
//   - ξ raised to GMP-computed exponents for the compile-time Frobenius
//     coefficients, pow(p^k) for the Frobenius maps;
//   - schoolbook products in the bases 1, v, v² and 1, w for the tower;
//   - byte-exact values of @noble/curves 1.9.7 bn254 (points and pairings);
//   - a plain pow by m·(p^12 − 1)/r for the final exponentiation.
#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "cuzk/ec/bn254.hpp"
#include "cuzk/error.hpp"
#include "cuzk/ff/bn254.hpp"
#include "cuzk/pairing/bn254.hpp"
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
fp fp_hex(const char* h)
{
    mpz m;
    mpz_set_str(m, h, 16);
    return fp::from_repr(test::from_mpz<4>(m));
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
// coordinates (hex) of [A]G1 and [B]G2, and Fp12.toBytes(pairing([A]G1, [B]G2)).
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

TEST_CASE("BN254 final exponentiation equals a plain pow by m(p^12 - 1)/r", "[bn254]")
{
    std::mt19937_64 rng(test::test_seed() + 461);
    const big em = final_exp_exponent(true), e1 = final_exp_exponent(false);
    const bigint<4> m = test::from_mpz<4>(m_factor());
    for (int it = 0; it < 3; ++it) {
        const fp12 f = fp12::random(rng);
        const fp12 fe = final_exponentiation(f);
        REQUIRE(fe == f.pow(em));
        const fp12 fm = final_exponentiation_minimal(f);
        REQUIRE(fm == f.pow(e1));
        REQUIRE(fm.pow(m) == fe);
    }
    CHECK(final_exponentiation(fp12::one()).is_one());
}

TEST_CASE("BN254 pairing equals @noble/curves byte for byte", "[bn254]")
{
    const g1_affine g1 = g1_affine::generator();
    const g2_affine g2 = g2_affine::generator();
    CHECK(fp12_hex(pairing(g1, g2)) == NOBLE_E_G1_G2);
    const fr a = fr::from_u64(NOBLE_A), b = fr::from_u64(NOBLE_B);
    const g1_affine ag1 = g1_mul(g1, a);
    const g2_affine bg2 = g2_mul(g2, b);
    REQUIRE(ag1 == g1_affine{fp_hex(NOBLE_A_G1[0]), fp_hex(NOBLE_A_G1[1])});
    const fp2 bx = {fp_hex(NOBLE_B_G2[0]), fp_hex(NOBLE_B_G2[1])}, by = {fp_hex(NOBLE_B_G2[2]), fp_hex(NOBLE_B_G2[3])};
    REQUIRE(bg2 == g2_affine{bx, by});
    const fp12 e = pairing(ag1, bg2);
    CHECK(fp12_hex(e) == NOBLE_E_AG1_BG2);
    CHECK(e == pairing(g1, g2).pow((a * b).to_repr()));
}

TEST_CASE("BN254 pairing: bilinearity, non-degeneracy, order r, identities", "[bn254]")
{
    std::mt19937_64 rng(test::test_seed() + 481);
    const g1_affine g1 = g1_affine::generator();
    const g2_affine g2 = g2_affine::generator();
    const fp12 e11 = pairing(g1, g2);
    CHECK(!e11.is_one());
    CHECK(e11.pow(fr_params::modulus).is_one());
    for (int it = 0; it < 6; ++it) {
        const fr a = fr::random(rng), b = fr::random(rng);
        const g1_affine p = g1_mul(g1, fr::random(rng));
        const g2_affine q = g2_mul(g2, fr::random(rng));
        const fp12 e = pairing(p, q);
        const fp12 eab = e.pow((a * b).to_repr());
        CHECK(pairing(g1_mul(p, a), g2_mul(q, b)) == eab);
        CHECK(pairing(p, g2_mul(q, a * b)) == eab);
        const g2_affine q2 = g2_mul(g2, fr::random(rng));
        CHECK(pairing(p, q.to_jacobian().add(q2).to_affine()) == e * pairing(p, q2));
        CHECK((e * pairing(-p, q)).is_one());
        CHECK(pairing(p, -q) == e.conjugate());
        const fp12 m = final_exponentiation_minimal(miller_loop(p, prepare_g2(q)));
        CHECK(final_exponentiation_minimal(miller_loop(g1_mul(p, a), prepare_g2(q))) == m.pow(a.to_repr()));
    }
    const g1_affine o1 = g1_affine::identity();
    const g2_affine o2 = g2_affine::identity();
    CHECK(pairing(o1, g2).is_one());
    CHECK(pairing(g1, o2).is_one());
    const g2_prepared po = prepare_g2(o2);
    CHECK(po.infinity);
    CHECK(po.coeffs.empty());
    CHECK(miller_loop(g1, po).is_one());
    CHECK(miller_loop(o1, prepare_g2(g2)).is_one());
    CHECK(prepare_g2(g2).coeffs.size() == 88);
}

TEST_CASE("BN254 multi_pairing and pairing_check", "[bn254]")
{
    std::mt19937_64 rng(test::test_seed() + 501);
    const g1_affine g1 = g1_affine::generator();
    const g2_affine g2 = g2_affine::generator();
    std::vector<g1_affine> ps;
    std::vector<g2_affine> qs;
    fp12 prod = fp12::one();
    for (int i = 0; i < 3; ++i) {
        ps.push_back(g1_mul(g1, fr::random(rng)));
        qs.push_back(g2_mul(g2, fr::random(rng)));
        prod *= pairing(ps.back(), qs.back());
    }
    ps.push_back(g1_affine::identity());
    qs.push_back(g2);
    CHECK(multi_pairing(ps, qs) == prod);
    std::vector<g2_prepared> prep;
    for (const auto& q : qs) prep.push_back(prepare_g2(q));
    std::vector<const g2_prepared*> ptr;
    for (const auto& q : prep) ptr.push_back(&q);
    fp12 ml = fp12::one();
    for (size_t i = 0; i < ps.size(); ++i) ml *= miller_loop(ps[i], prep[i]);
    CHECK(multi_miller_loop(ps, ptr) == ml);
    CHECK(pairing_check({}, {}));
    // Groth16 shape: e(−A, B)·e(α, β)·e(L, γ)·e(C, δ) = 1 when ab = αβ + lγ + cδ
    const fr alpha = fr::random(rng), beta = fr::random(rng), l = fr::random(rng), gamma = fr::random(rng),
             c = fr::random(rng), delta = fr::random(rng), a = fr::random(rng);
    const fr b = (alpha * beta + l * gamma + c * delta) * a.inverse();
    const std::vector<g1_affine> gp = {-g1_mul(g1, a), g1_mul(g1, alpha), g1_mul(g1, l), g1_mul(g1, c)};
    std::vector<g2_affine> gq = {g2_mul(g2, b), g2_mul(g2, beta), g2_mul(g2, gamma), g2_mul(g2, delta)};
    CHECK(pairing_check(gp, gq));
    gq[3] = g2_mul(g2, delta + fr::one());
    CHECK_FALSE(pairing_check(gp, gq));
}

TEST_CASE("BN254 pairing rejects malformed input with cuzk::error", "[bn254]")
{
    const g1_affine g1 = g1_affine::generator();
    const g2_affine g2 = g2_affine::generator();
    auto code_of = [](auto&& fn) {
        try {
            fn();
        } catch (const cuzk::error& e) {
            return e.code();
        }
        return errc::ok;
    };
    g1_affine bad1 = g1;
    bad1.y += fp::one();
    g2_affine bad2 = g2;
    bad2.y += fp2::one();
    CHECK(code_of([&] { pairing(bad1, g2); }) == errc::not_on_curve);
    CHECK(code_of([&] { pairing(g1, bad2); }) == errc::not_on_curve);
    CHECK(code_of([&] { prepare_g2(bad2); }) == errc::not_on_curve);
    CHECK(code_of([&] { pairing(bad1, g2_affine::identity()); }) == errc::not_on_curve);
    const std::vector<g1_affine> one_p = {g1};
    const std::vector<g2_affine> two_q = {g2, g2};
    CHECK(code_of([&] { multi_pairing(one_p, two_q); }) == errc::invalid_argument);
    g2_prepared truncated = prepare_g2(g2);
    truncated.coeffs.pop_back();
    CHECK(code_of([&] { miller_loop(g1, truncated); }) == errc::invalid_argument);
    const g2_prepared* null_q[1] = {nullptr};
    CHECK(code_of([&] { multi_miller_loop(one_p, null_q); }) == errc::invalid_argument);
}
