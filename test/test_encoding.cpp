// zcash / blst point encodings: the published generator encodings, round trips
// of random points with the flag bits checked against GMP, and every rejection
// path with its error code. Byte-for-byte agreement with an independent
// implementation is the interop test (test/interop, label `interop`).
#include <catch2/catch.hpp>

#include <array>
#include <random>
#include <string>
#include <vector>

#include "cuzk/ec/encoding.hpp"
#include "cuzk/error.hpp"
#include "gmp_util.hpp"
#include "test_support.hpp"

using namespace cuzk;
using cuzk::test::mpz;

namespace {

const char* const P_DEC =
    "4002409555221667393417789825735904156556882819939007885332058136124031650490837864442687629129015664037894272559787";

// Published encodings (zcash bls12_381 README, blst, noble all agree).
const char* const G1_COMPRESSED =
    "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb";
const char* const G2_COMPRESSED =
    "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
    "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8";
// The generator coordinates as in the comments of include/cuzk/ec/bls12_381.hpp.
const char* const G1_X =
    "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb";
const char* const G1_Y =
    "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1";
const char* const G2_X0 =
    "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8";
const char* const G2_X1 =
    "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e";
const char* const G2_Y0 =
    "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801";
const char* const G2_Y1 =
    "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be";

std::vector<uint8_t> from_hex(const std::string& h)
{
    auto nib = [](char c) -> uint8_t { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; };
    std::vector<uint8_t> r(h.size() / 2);
    for (size_t i = 0; i < r.size(); ++i) r[i] = uint8_t(nib(h[2 * i]) << 4 | nib(h[2 * i + 1]));
    return r;
}
template <class Bytes>
std::string to_hex(const Bytes& b)
{
    static const char* d = "0123456789abcdef";
    std::string s;
    for (uint8_t v : b) {
        s += d[v >> 4];
        s += d[v & 15];
    }
    return s;
}

std::array<uint8_t, 48> cmp1(const g1_affine& p)
{
    std::array<uint8_t, 48> b;
    g1_compress(p, b);
    return b;
}
std::array<uint8_t, 96> cmp2(const g2_affine& p)
{
    std::array<uint8_t, 96> b;
    g2_compress(p, b);
    return b;
}

// The code a decoder throws, or errc::ok.
template <class F>
errc code_of(F&& f)
{
    try {
        f();
    } catch (const cuzk::error& e) {
        INFO(e.what());
        return e.code();
    }
    return errc::ok;
}
errc g1_code(const std::vector<uint8_t>& b, subgroup_check chk = subgroup_check::check)
{
    return code_of([&] { g1_deserialize(b, chk); });
}
errc g2_code(const std::vector<uint8_t>& b, subgroup_check chk = subgroup_check::check)
{
    return code_of([&] { g2_deserialize(b, chk); });
}

// Big-endian bytes → mpz, independent of the field code.
mpz mpz_be(const uint8_t* b, size_t n)
{
    mpz r;
    mpz_import(r.v, n, 1, 1, 1, 0, b);
    return r;
}
// y > (p − 1)/2, computed with GMP from the 48 big-endian bytes of y.
bool gmp_largest(const uint8_t* y)
{
    const mpz p(P_DEC);
    mpz half;
    mpz_sub_ui(half, p, 1);
    mpz_fdiv_q_2exp(half, half, 1);
    return mpz_cmp(mpz_be(y, 48), half) > 0;
}
bool gmp_is_zero(const uint8_t* y)
{
    for (int i = 0; i < 48; ++i)
        if (y[i]) return false;
    return true;
}
// A 48-byte big-endian encoding of an mpz (< 2^384).
std::vector<uint8_t> be48(const mpz& v)
{
    std::vector<uint8_t> out(48, 0);
    size_t count = 0;
    std::vector<uint8_t> tmp(48);
    mpz_export(tmp.data(), &count, 1, 1, 1, 0, v.v);
    std::copy(tmp.begin(), tmp.begin() + count, out.begin() + (48 - count));
    return out;
}

template <class A>
A random_point(std::mt19937_64& rng)
{
    const bigint<4> k = fr::random(rng).to_repr();
    return scalar_mul(A::generator(), k).to_affine();
}

} // namespace

TEST_CASE("generator encodings match the published ones", "[encoding]")
{
    const g1_affine g1 = g1_affine::generator();
    const g2_affine g2 = g2_affine::generator();
    CHECK(to_hex(cmp1(g1)) == G1_COMPRESSED);
    CHECK(to_hex(test::g1_bytes(g1)) == std::string(G1_X) + G1_Y);
    CHECK(to_hex(cmp2(g2)) == G2_COMPRESSED);
    CHECK(to_hex(test::g2_bytes(g2)) == std::string(G2_X1) + G2_X0 + G2_Y1 + G2_Y0);

    // −G: same x, S flag set (0x80 | 0x20 | top bits of x).
    std::string neg1 = G1_COMPRESSED;
    neg1.replace(0, 2, "b7");
    CHECK(to_hex(cmp1(-g1)) == neg1);
    std::string neg2 = G2_COMPRESSED;
    neg2.replace(0, 2, "b3");
    CHECK(to_hex(cmp2(-g2)) == neg2);

    CHECK(g1_deserialize(from_hex(G1_COMPRESSED)) == g1);
    CHECK(g1_deserialize(from_hex(std::string(G1_X) + G1_Y)) == g1);
    CHECK(g1_deserialize(from_hex(neg1)) == -g1);
    CHECK(g2_deserialize(from_hex(G2_COMPRESSED)) == g2);
    CHECK(g2_deserialize(from_hex(std::string(G2_X1) + G2_X0 + G2_Y1 + G2_Y0)) == g2);
    CHECK(g2_deserialize(from_hex(neg2)) == -g2);
}

TEST_CASE("identity encodings", "[encoding]")
{
    const auto u1 = test::g1_bytes(g1_affine::identity());
    const auto c1 = cmp1(g1_affine::identity());
    const auto u2 = test::g2_bytes(g2_affine::identity());
    const auto c2 = cmp2(g2_affine::identity());
    CHECK(to_hex(u1) == "40" + std::string(190, '0'));
    CHECK(to_hex(c1) == "c0" + std::string(94, '0'));
    CHECK(to_hex(u2) == "40" + std::string(382, '0'));
    CHECK(to_hex(c2) == "c0" + std::string(190, '0'));
    CHECK(g1_deserialize(u1).is_identity());
    CHECK(g1_deserialize(c1).is_identity());
    CHECK(g2_deserialize(u2).is_identity());
    CHECK(g2_deserialize(c2).is_identity());
}

TEST_CASE("random points round-trip through both forms", "[encoding]")
{
    std::mt19937_64 rng(test::test_seed() + 11);
    int s_set = 0;
    // Each random point is taken with its negation: y and −y = p − y, so
    // exactly one of the two is the larger and has the S flag.
    g1_affine q;
    for (int i = 0; i < 32; ++i) {
        if (!(i & 1)) q = random_point<g1_affine>(rng);
        const g1_affine p = (i & 1) ? -q : q;
        const auto u = test::g1_bytes(p);
        const auto c = cmp1(p);
        REQUIRE((u[0] & 0xe0) == 0);
        REQUIRE((c[0] & 0xc0) == 0x80);
        // x bytes agree between the forms once the flags are cleared.
        auto cx = c;
        cx[0] &= 0x1f;
        REQUIRE(std::equal(cx.begin(), cx.end(), u.begin()));
        // S flag against GMP on y.
        REQUIRE(bool(c[0] & 0x20) == gmp_largest(u.data() + 48));
        s_set += bool(c[0] & 0x20);
        REQUIRE(g1_deserialize(u) == p);
        REQUIRE(g1_deserialize(c) == p);
        REQUIRE(g1_deserialize(c, subgroup_check::skip) == p);
    }
    CHECK(s_set == 16);

    s_set = 0;
    g2_affine q2;
    for (int i = 0; i < 8; ++i) {
        if (!(i & 1)) q2 = random_point<g2_affine>(rng);
        const g2_affine p = (i & 1) ? -q2 : q2;
        const auto u = test::g2_bytes(p);
        const auto c = cmp2(p);
        REQUIRE((u[0] & 0xe0) == 0);
        REQUIRE((c[0] & 0xc0) == 0x80);
        auto cx = c;
        cx[0] &= 0x1f;
        REQUIRE(std::equal(cx.begin(), cx.end(), u.begin()));
        // y on the wire is y.c1 ‖ y.c0; the sign is y.c1's unless y.c1 = 0.
        const uint8_t* y1 = u.data() + 96;
        const uint8_t* y0 = u.data() + 144;
        REQUIRE(bool(c[0] & 0x20) == (gmp_is_zero(y1) ? gmp_largest(y0) : gmp_largest(y1)));
        s_set += bool(c[0] & 0x20);
        REQUIRE(g2_deserialize(u) == p);
        REQUIRE(g2_deserialize(c) == p);
    }
    CHECK(s_set == 4);
}

TEST_CASE("Fp2 sign uses c0 when c1 is zero", "[encoding]")
{
    const fp small = fp::from_u64(5);
    CHECK(!lexicographically_largest(fp2{small, fp::zero()}));
    CHECK(lexicographically_largest(fp2{-small, fp::zero()}));
    // c1 decides whenever it is non-zero, whatever c0 is.
    CHECK(!lexicographically_largest(fp2{-small, small}));
    CHECK(lexicographically_largest(fp2{small, -small}));
    // The boundary (p − 1)/2 itself is not "largest"; (p + 1)/2 is.
    const mpz p(P_DEC);
    mpz half;
    mpz_sub_ui(half, p, 1);
    mpz_fdiv_q_2exp(half, half, 1);
    fp h;
    REQUIRE(fp::from_bytes_be(be48(half).data(), h));
    CHECK(!lexicographically_largest(h));
    CHECK(lexicographically_largest(h + fp::one()));
}

TEST_CASE("G1 decoding rejects malformed input with the right code", "[encoding]")
{
    const auto gc = from_hex(G1_COMPRESSED);
    const auto gu = from_hex(std::string(G1_X) + G1_Y);

    SECTION("wrong length")
    {
        for (size_t n : {0, 1, 47, 49, 95, 97, 144, 192}) {
            std::vector<uint8_t> b(n, 0);
            if (n) b[0] = 0xc0;
            INFO(n);
            CHECK(g1_code(b) == errc::bad_length);
        }
    }
    SECTION("coordinate >= p")
    {
        const mpz p(P_DEC);
        std::vector<uint8_t> c = be48(p);
        c[0] |= 0x80;
        CHECK(g1_code(c) == errc::non_canonical);
        // all 381 value bits set
        std::vector<uint8_t> m(48, 0xff);
        m[0] = 0x9f;
        CHECK(g1_code(m) == errc::non_canonical);
        // uncompressed: x = p, y valid
        std::vector<uint8_t> u = gu;
        auto pb = be48(p);
        std::copy(pb.begin(), pb.end(), u.begin());
        CHECK(g1_code(u) == errc::non_canonical);
        // uncompressed: y = y_G + p (same residue, not canonical)
        mpz y = mpz_be(gu.data() + 48, 48);
        mpz_add(y, y, p);
        auto yb = be48(y);
        u = gu;
        std::copy(yb.begin(), yb.end(), u.begin() + 48);
        CHECK(g1_code(u) == errc::non_canonical);
        // a flag bit in y's top byte makes y >= 2^381 > p
        u = gu;
        u[48] |= 0x80;
        CHECK(g1_code(u) == errc::non_canonical);
    }
    SECTION("flag combinations")
    {
        auto c = gc;
        c[0] &= 0x1f;   // 48 bytes without C
        CHECK(g1_code(c) == errc::bad_flags);
        c[0] |= 0x20;   // S alone
        CHECK(g1_code(c) == errc::bad_flags);
        auto u = gu;
        u[0] |= 0x80;   // 96 bytes with C (blst would read the first 48; cuzk rejects)
        CHECK(g1_code(u) == errc::bad_flags);
        u = gu;
        u[0] |= 0x20;   // S in an uncompressed encoding
        CHECK(g1_code(u) == errc::bad_flags);
        // S together with I
        std::vector<uint8_t> inf_c(48, 0);
        inf_c[0] = 0xe0;
        CHECK(g1_code(inf_c) == errc::bad_flags);
        std::vector<uint8_t> inf_u(96, 0);
        inf_u[0] = 0x60;
        CHECK(g1_code(inf_u) == errc::bad_flags);
        // I with C on a 96-byte buffer / I without C on a 48-byte buffer
        inf_u[0] = 0xc0;
        CHECK(g1_code(inf_u) == errc::bad_flags);
        inf_c[0] = 0x40;
        CHECK(g1_code(inf_c) == errc::bad_flags);
    }
    SECTION("infinity with garbage bits")
    {
        std::vector<uint8_t> c(48, 0);
        c[0] = 0xc1;
        CHECK(g1_code(c) == errc::bad_flags);
        c[0] = 0xc0;
        c[47] = 1;
        CHECK(g1_code(c) == errc::bad_flags);
        // the generator's x under the infinity flag
        c = gc;
        c[0] |= 0x40;
        CHECK(g1_code(c) == errc::bad_flags);
        std::vector<uint8_t> u(96, 0);
        u[0] = 0x40;
        u[95] = 1;
        CHECK(g1_code(u) == errc::bad_flags);
        u[95] = 0;
        u[0] = 0x41;
        CHECK(g1_code(u) == errc::bad_flags);
    }
    SECTION("off-curve uncompressed point")
    {
        auto u = gu;
        u[95] ^= 1;   // y + 1 or y − 1
        CHECK(g1_code(u) == errc::not_on_curve);
        CHECK(g1_code(u, subgroup_check::skip) == errc::not_on_curve);
        std::vector<uint8_t> z(96, 0);   // (0, 0) without the infinity flag
        CHECK(g1_code(z) == errc::not_on_curve);
    }
    SECTION("x without a square root, and a point outside G1")
    {
        // Smallest x >= 1 with x³ + 4 a non-residue, and with it a residue, by GMP.
        const mpz p(P_DEC);
        unsigned x_nonsq = 0, x_sq = 0;
        for (unsigned x = 1; x < 1000 && (!x_nonsq || !x_sq); ++x) {
            mpz t;
            mpz_set_ui(t, x);
            mpz_pow_ui(t, t, 3);
            mpz_add_ui(t, t, 4);
            const int l = mpz_legendre(t, p);
            if (l == -1 && !x_nonsq) x_nonsq = x;
            if (l == 1 && !x_sq) x_sq = x;
        }
        REQUIRE(x_nonsq != 0);
        REQUIRE(x_sq != 0);
        std::vector<uint8_t> c(48, 0);
        c[46] = uint8_t(x_nonsq >> 8);
        c[47] = uint8_t(x_nonsq);
        c[0] = 0x80;
        CHECK(g1_code(c) == errc::no_square_root);
        CHECK(g1_code(c, subgroup_check::skip) == errc::no_square_root);

        c[46] = uint8_t(x_sq >> 8);
        c[47] = uint8_t(x_sq);
        for (uint8_t s : {uint8_t(0x80), uint8_t(0xa0)}) {
            c[0] = s;
            CHECK(g1_code(c) == errc::not_in_subgroup);
            const g1_affine q = g1_deserialize(c, subgroup_check::skip);
            CHECK(q.is_on_curve());
            CHECK(q.x == fp::from_u64(x_sq));
            CHECK(!in_subgroup(q));
            // the same point uncompressed
            const auto u = test::g1_bytes(q);
            CHECK(g1_code(std::vector<uint8_t>(u.begin(), u.end())) == errc::not_in_subgroup);
            CHECK(g1_deserialize(u, subgroup_check::skip) == q);
        }
        // (0, ±2): on the curve, order 3.
        std::vector<uint8_t> z(48, 0);
        z[0] = 0x80;
        CHECK(g1_code(z) == errc::not_in_subgroup);
        CHECK(g1_deserialize(z, subgroup_check::skip).y == fp::from_u64(2));
    }
}

TEST_CASE("G2 decoding rejects malformed input with the right code", "[encoding]")
{
    const auto gc = from_hex(G2_COMPRESSED);
    const auto gu = from_hex(std::string(G2_X1) + G2_X0 + G2_Y1 + G2_Y0);

    SECTION("wrong length")
    {
        for (size_t n : {0, 48, 95, 97, 191, 193, 384}) {
            std::vector<uint8_t> b(n, 0);
            if (n) b[0] = 0xc0;
            INFO(n);
            CHECK(g2_code(b) == errc::bad_length);
        }
    }
    SECTION("coordinate >= p")
    {
        const mpz p(P_DEC);
        const auto pb = be48(p);
        auto c = gc;   // x.c1 = p
        std::copy(pb.begin(), pb.end(), c.begin());
        c[0] |= 0x80;
        CHECK(g2_code(c) == errc::non_canonical);
        c = gc;        // x.c0 = p
        std::copy(pb.begin(), pb.end(), c.begin() + 48);
        CHECK(g2_code(c) == errc::non_canonical);
        auto u = gu;   // y.c0 = p
        std::copy(pb.begin(), pb.end(), u.begin() + 144);
        CHECK(g2_code(u) == errc::non_canonical);
        u = gu;        // y.c1 top bit
        u[96] |= 0x80;
        CHECK(g2_code(u) == errc::non_canonical);
    }
    SECTION("flag combinations and infinity garbage")
    {
        auto c = gc;
        c[0] &= 0x1f;
        CHECK(g2_code(c) == errc::bad_flags);
        auto u = gu;
        u[0] |= 0x80;
        CHECK(g2_code(u) == errc::bad_flags);
        u = gu;
        u[0] |= 0x20;
        CHECK(g2_code(u) == errc::bad_flags);
        std::vector<uint8_t> ic(96, 0);
        ic[0] = 0xe0;
        CHECK(g2_code(ic) == errc::bad_flags);
        ic[0] = 0xc0;
        ic[60] = 4;   // garbage in x.c0
        CHECK(g2_code(ic) == errc::bad_flags);
        std::vector<uint8_t> iu(192, 0);
        iu[0] = 0x40;
        iu[191] = 1;
        CHECK(g2_code(iu) == errc::bad_flags);
    }
    SECTION("off-curve, no square root, outside G2")
    {
        auto u = gu;
        u[191] ^= 1;
        CHECK(g2_code(u) == errc::not_on_curve);

        // x = k ∈ Fp: x³ + 4(1 + u) = (k³ + 4) + 4u is a square in Fp2 iff its
        // norm (k³ + 4)² + 16 is a square in Fp (GMP decides).
        const mpz p(P_DEC);
        int x_nonsq = -1, x_sq = -1;
        for (unsigned k = 0; k < 1000 && (x_nonsq < 0 || x_sq < 0); ++k) {
            mpz t;
            mpz_set_ui(t, k);
            mpz_pow_ui(t, t, 3);
            mpz_add_ui(t, t, 4);
            mpz_mul(t, t, t);
            mpz_add_ui(t, t, 16);
            const int l = mpz_legendre(t, p);
            if (l == -1 && x_nonsq < 0) x_nonsq = int(k);
            if (l == 1 && x_sq < 0) x_sq = int(k);
        }
        REQUIRE(x_nonsq >= 0);
        REQUIRE(x_sq >= 0);
        std::vector<uint8_t> c(96, 0);   // x.c1 = 0, x.c0 = k
        c[0] = 0x80;
        c[94] = uint8_t(x_nonsq >> 8);
        c[95] = uint8_t(x_nonsq);
        CHECK(g2_code(c) == errc::no_square_root);
        c[94] = uint8_t(x_sq >> 8);
        c[95] = uint8_t(x_sq);
        CHECK(g2_code(c) == errc::not_in_subgroup);
        const g2_affine q = g2_deserialize(c, subgroup_check::skip);
        CHECK(q.is_on_curve());
        CHECK(q.x == fp2{fp::from_u64(x_sq), fp::zero()});
        CHECK(!in_subgroup(q));
        const auto qu = test::g2_bytes(q);
        CHECK(g2_code(std::vector<uint8_t>(qu.begin(), qu.end())) == errc::not_in_subgroup);
        CHECK(g2_deserialize(qu, subgroup_check::skip) == q);
    }
}

TEST_CASE("error messages name the function and the check", "[encoding]")
{
    std::vector<uint8_t> b(47, 0);
    try {
        g1_deserialize(b);
        FAIL("no throw");
    } catch (const cuzk::error& e) {
        const std::string w = e.what();
        CHECK(w.find("g1_deserialize") != std::string::npos);
        CHECK(w.find("bad_length") != std::string::npos);
    }
    // G2: the coordinate out of range is named, component included.
    const mpz p(P_DEC);
    const auto pb = be48(p);
    const auto gu = from_hex(std::string(G2_X1) + G2_X0 + G2_Y1 + G2_Y0);
    const char* names[4] = {"x.c1", "x.c0", "y.c1", "y.c0"};
    for (size_t k = 0; k < 4; ++k) {
        auto u = gu;
        std::copy(pb.begin(), pb.end(), u.begin() + std::ptrdiff_t(48 * k));
        try {
            g2_deserialize(u);
            FAIL("no throw");
        } catch (const cuzk::error& e) {
            CHECK_THAT(e.what(), Catch::Contains(std::string(names[k]) + " coordinate is >= p"));
        }
    }
}
