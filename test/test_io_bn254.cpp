// snarkjs .zkey / .wtns / .r1cs on BN254 (snarkjs's "bn128"), and the curve
// of a file read from its header (io::snarkjs_file_curve).
//
// References independent of the code under test: byte offsets of the
// headers (docs/FORMATS.md §2.1–2.6) and GMP for the bn128 encodings (LEM
// coordinates x·2^256 mod q, zkey coefficients v·2^512 mod r, primes as
// 32 bytes little-endian); BN254's generator is (1, 2). Headers are
// truncated and corrupted and must be refused with a cuzk::error naming the
// file, like the BLS12-381 files in test_io.cpp.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "cuzk/error.hpp"
#include "cuzk/io/mapped_file.hpp"
#include "cuzk/io/snarkjs.hpp"
#include "gmp_util.hpp"
#include "test_support.hpp"

using namespace cuzk;
using namespace cuzk::io;
using cuzk::test::mpz;
using bytes = std::vector<uint8_t>;
using bn = bn254_curve;

namespace {

const char* const BN_Q = "21888242871839275222246405745257275088696311157297823662689037894645226208583";
const char* const BN_R = "21888242871839275222246405745257275088548364400416034343698204186575808495617";

// Little-endian bytes of an mpz (n bytes).
bytes mpz_le(const mpz& v, size_t n)
{
    bytes out(n, 0);
    size_t count = 0;
    mpz_export(out.data(), &count, -1, 1, -1, 0, v.v);
    REQUIRE(count <= n);
    return out;
}
// v·2^k mod m, little-endian in n bytes.
bytes shifted_le(unsigned long v, unsigned k, const char* m, size_t n)
{
    mpz t, mod(m);
    mpz_set_ui(t.v, v);
    mpz_mul_2exp(t.v, t.v, k);
    mpz_mod(t.v, t.v, mod.v);
    return mpz_le(t, n);
}
uint32_t get_u32(const uint8_t* p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24; }
void put_u32(uint8_t* p, uint32_t v)
{
    for (int i = 0; i < 4; ++i) p[i] = uint8_t(v >> (8 * i));
}

using cuzk::test::expect_error;

struct temp_dir {
    std::filesystem::path path;
    temp_dir()
    {
        path = std::filesystem::temp_directory_path() / ("cuzk_test_io_bn254_" + std::to_string(::getpid()) + "_" +
                                                         std::to_string(test::test_seed() & 0xffffff));
        std::filesystem::create_directories(path);
    }
    ~temp_dir() { std::filesystem::remove_all(path); }
    std::string file(const std::string& n) const { return (path / n).string(); }
};

bytes slurp(const std::string& path)
{
    const mapped_file f(path);
    return bytes(f.data(), f.data() + f.size());
}

// A snarkjs-convention BN254 key with random points k·G: nPublic + 1 inputs,
// some identity points in A/B, random A/B coefficients plus the input
// constraints.
groth16::proving_key_t<bn> random_bn_key(std::mt19937_64& rng, uint32_t n_inputs, uint32_t n_aux,
                                         uint32_t n_constraints)
{
    using G1 = bn::g1_affine;
    using G2 = bn::g2_affine;
    groth16::proving_key_t<bn> pk;
    pk.conv = groth16::convention::snarkjs;
    pk.num_inputs = n_inputs;
    pk.num_aux = n_aux;
    pk.n_constraints = n_constraints;
    pk.domain_size = 1;
    while (pk.domain_size < uint64_t(n_constraints) + n_inputs) pk.domain_size <<= 1;
    const size_t nv = n_inputs + n_aux;
    const auto g1 = test::random_points<G1>(4 + n_inputs + 3 * nv + n_aux + pk.domain_size, rng);
    const auto g2 = test::random_points<G2>(3 + nv, rng);
    auto take1 = [&, i = size_t(0)](size_t n) mutable {
        i += n;
        return std::vector<G1>(g1.begin() + long(i - n), g1.begin() + long(i));
    };
    pk.vk = {g1[0], g1[1], g2[0], g2[1], g1[2], g2[2], {}};
    take1(4);
    pk.vk.ic = take1(n_inputs);
    pk.a = take1(nv);
    pk.b_g1 = take1(nv);
    pk.b_g2.assign(g2.begin() + 3, g2.end());
    pk.l = take1(n_aux);
    pk.h = take1(size_t(pk.domain_size));
    for (size_t i = 0; i < nv; i += 3) pk.b_g1[i] = G1::identity(), pk.b_g2[i] = G2::identity();
    for (uint32_t k = 0; k < 2 * n_constraints; ++k)
        pk.coefs.push_back({uint32_t(rng() % 2), uint32_t(rng() % n_constraints), uint32_t(rng() % nv),
                            bn254::fr::random(rng)});
    for (uint32_t s = 0; s < n_inputs; ++s) pk.coefs.push_back({0, n_constraints + s, s, bn254::fr::one()});
    return pk;
}

void check_same_key(const groth16::proving_key_t<bn>& a, const groth16::proving_key_t<bn>& b)
{
    CHECK(a.conv == b.conv);
    CHECK(a.num_inputs == b.num_inputs);
    CHECK(a.num_aux == b.num_aux);
    CHECK(a.domain_size == b.domain_size);
    CHECK(a.n_constraints == b.n_constraints);
    CHECK((a.vk.alpha_g1 == b.vk.alpha_g1 && a.vk.beta_g1 == b.vk.beta_g1 && a.vk.delta_g1 == b.vk.delta_g1));
    CHECK((a.vk.beta_g2 == b.vk.beta_g2 && a.vk.gamma_g2 == b.vk.gamma_g2 && a.vk.delta_g2 == b.vk.delta_g2));
    CHECK(a.vk.ic == b.vk.ic);
    CHECK(a.h == b.h);
    CHECK(a.l == b.l);
    CHECK(a.a == b.a);
    CHECK(a.b_g1 == b.b_g1);
    CHECK(a.b_g2 == b.b_g2);
    REQUIRE(a.coefs.size() == b.coefs.size());
    for (size_t i = 0; i < a.coefs.size(); ++i) {
        CHECK(a.coefs[i].matrix == b.coefs[i].matrix);
        CHECK(a.coefs[i].constraint == b.coefs[i].constraint);
        CHECK(a.coefs[i].signal == b.coefs[i].signal);
        CHECK(a.coefs[i].value == b.coefs[i].value);
    }
}

// The circuit c <== a·b (wires one, c, a, b), on the scalar field F.
template <class F>
r1cs_file_t<F> mul_r1cs()
{
    r1cs_file_t<F> r;
    r.n_wires = 4;
    r.n_pub_out = 1;
    r.n_prv_in = 2;
    r.n_labels = 4;
    r.n_constraints = 1;
    r.constraints.push_back({r1cs_lc_t<F>{{2, -F::one()}}, r1cs_lc_t<F>{{3, F::one()}}, r1cs_lc_t<F>{{1, -F::one()}}});
    r.wire_to_label = {0, 1, 2, 3};
    return r;
}

// Byte offsets of the primes in the files written by cuzk (sections in
// order, each with a 12-byte header after the 12-byte container header).
constexpr size_t zkey_q_at = 12 + 12 + 4 + 12 + 4;   // section 2 body + n8q
constexpr size_t zkey_r_at = zkey_q_at + 32 + 4;      // bn128: after q and n8r
constexpr size_t wtns_prime_at = 12 + 12 + 4;        // section 1 body + n8
constexpr size_t r1cs_prime_at = 12 + 12 + 4;

// One file of each kind on BN254 and on BLS12-381 (the same small circuit).
struct files {
    temp_dir td;
    std::string bn_zkey = td.file("bn.zkey"), bn_wtns = td.file("bn.wtns"), bn_r1cs = td.file("bn.r1cs");
    std::string bls_zkey = td.file("bls.zkey"), bls_wtns = td.file("bls.wtns"), bls_r1cs = td.file("bls.r1cs");
    explicit files(std::mt19937_64& rng)
    {
        write_zkey(bn_zkey, random_bn_key(rng, 2, 3, 4));
        write_wtns(bn_wtns, std::vector<bn254::fr>{bn254::fr::one(), bn254::fr::random(rng)});
        write_r1cs(bn_r1cs, mul_r1cs<bn254::fr>());
        groth16::proving_key bls;
        bls.conv = groth16::convention::snarkjs;
        bls.num_inputs = 1;
        bls.domain_size = 1;
        bls.vk.ic = {g1_affine::generator()};
        bls.a = {g1_affine::generator()};
        bls.b_g1 = {g1_affine::identity()};
        bls.b_g2 = {g2_affine::identity()};
        bls.h = {g1_affine::generator()};
        bls.coefs = {{0, 0, 0, fr::one()}};
        write_zkey(bls_zkey, bls);
        write_wtns(bls_wtns, std::vector<fr>{fr::one()});
        write_r1cs(bls_r1cs, mul_r1cs<fr>());
    }
};

} // namespace

TEST_CASE("bn128 zkey: byte layout and round trips of random keys", "[io]")
{
    std::mt19937_64 rng(test::test_seed() + 60);
    temp_dir td;
    auto pk = random_bn_key(rng, 3, 20, 37);
    pk.vk.alpha_g1 = bn::g1_affine::generator();
    zkey_write_options wo;
    wo.cs_hash[5] = 0xab;
    write_zkey(td.file("k.zkey"), pk, wo);
    const bytes f = slurp(td.file("k.zkey"));
    // Section 2: n8q = 32, q, n8r = 32, r, then nVars, nPublic, domainSize and
    // alpha1 = (1, 2) as x·2^256, y·2^256 mod q.
    const uint8_t* h = f.data() + zkey_q_at - 4;
    CHECK(get_u32(f.data() + 28) == 2);   // the second section's id
    CHECK(get_u32(h) == 32);
    CHECK(bytes(h + 4, h + 36) == mpz_le(mpz(BN_Q), 32));
    CHECK(get_u32(h + 36) == 32);
    CHECK(bytes(h + 40, h + 72) == mpz_le(mpz(BN_R), 32));
    CHECK(get_u32(h + 72) == 23);   // nVars
    CHECK(get_u32(h + 76) == 2);    // nPublic
    CHECK(get_u32(h + 80) == 64);   // domainSize
    CHECK(bytes(h + 84, h + 116) == shifted_le(1, 256, BN_Q, 32));
    CHECK(bytes(h + 116, h + 148) == shifted_le(2, 256, BN_Q, 32));
    // Section 2's size: 4 + 32 + 4 + 32 + 12 + 3 G1 (64) + 3 G2 (128).
    CHECK(get_u32(h - 8) == 4 + 32 + 4 + 32 + 12 + 3 * 64 + 3 * 128);
    CHECK(snarkjs_file_curve(td.file("k.zkey")) == curve_id::bn254);

    for (auto chk : {subgroup_check::skip, subgroup_check::check}) {
        const auto z = read_zkey<bn>(td.file("k.zkey"), {chk, 3});
        CHECK(z.n_vars == 23);
        CHECK(z.n_public == 2);
        CHECK(z.cs_hash == wo.cs_hash);
        check_same_key(z.pk, pk);
    }
    // Section 4 (after sections 1, 2 and IC): the count, then 44-byte entries
    // whose values are v·2^512 mod r.
    const size_t s4 = 12 + (12 + 4) + (12 + 660) + (12 + 3 * 64) + 12;
    REQUIRE(get_u32(f.data() + s4) == pk.coefs.size());
    for (size_t i : {size_t(0), pk.coefs.size() - 1}) {
        const uint8_t* e = f.data() + s4 + 4 + 44 * i;
        CHECK(get_u32(e + 8) == pk.coefs[i].signal);
        mpz v = test::to_mpz(pk.coefs[i].value.to_repr()), r(BN_R);
        mpz_mul_2exp(v.v, v.v, 512);
        mpz_mod(v.v, v.v, r.v);
        CHECK(bytes(e + 12, e + 44) == mpz_le(v, 32));
    }
}

TEST_CASE("bn128 wtns and r1cs: layout and round trips", "[io]")
{
    std::mt19937_64 rng(test::test_seed() + 61);
    temp_dir td;
    std::vector<bn254::fr> w(1 + rng() % 40);
    w[0] = bn254::fr::one();
    for (size_t i = 1; i < w.size(); ++i) w[i] = bn254::fr::random(rng);
    w.back() = -bn254::fr::one();
    write_wtns(td.file("w.wtns"), w);
    const bytes f = slurp(td.file("w.wtns"));
    CHECK(get_u32(f.data() + wtns_prime_at - 4) == 32);
    CHECK(bytes(f.begin() + wtns_prime_at, f.begin() + wtns_prime_at + 32) == mpz_le(mpz(BN_R), 32));
    // The last value, r − 1, is stored plain (not Montgomery).
    mpz rm1(BN_R);
    mpz_sub_ui(rm1.v, rm1.v, 1);
    CHECK(bytes(f.end() - 32, f.end()) == mpz_le(rm1, 32));
    CHECK(read_wtns<bn254::fr>(td.file("w.wtns")) == w);
    CHECK(snarkjs_file_curve(td.file("w.wtns")) == curve_id::bn254);

    const auto r = mul_r1cs<bn254::fr>();
    write_r1cs(td.file("c.r1cs"), r);
    const bytes g = slurp(td.file("c.r1cs"));
    CHECK(bytes(g.begin() + r1cs_prime_at, g.begin() + r1cs_prime_at + 32) == mpz_le(mpz(BN_R), 32));
    const auto back = read_r1cs<bn254::fr>(td.file("c.r1cs"));
    CHECK(back.n_wires == 4);
    CHECK(back.n_pub_out == 1);
    CHECK(back.n_prv_in == 2);
    CHECK(back.n_labels == 4);
    CHECK(back.constraints == r.constraints);
    CHECK(back.wire_to_label == r.wire_to_label);
    // C = {1: −1}, the last term, as a plain value: r − 1.
    const size_t s2 = r1cs_prime_at + 32 + 28 + 12;   // past nWires … nConstraints and a section header
    CHECK(get_u32(&g[s2 - 12]) == 2);
    CHECK(bytes(g.begin() + long(s2 + 2 * 40 + 8), g.begin() + long(s2 + 3 * 40)) == mpz_le(rm1, 32));
    CHECK(snarkjs_file_curve(td.file("c.r1cs")) == curve_id::bn254);
}

TEST_CASE("snarkjs_file_curve reads the curve of each kind of file, or names what it does not know", "[io]")
{
    std::mt19937_64 rng(test::test_seed() + 62);
    files fs(rng);
    for (const auto& p : {fs.bn_zkey, fs.bn_wtns, fs.bn_r1cs}) CHECK(snarkjs_file_curve(p) == curve_id::bn254);
    for (const auto& p : {fs.bls_zkey, fs.bls_wtns, fs.bls_r1cs}) CHECK(snarkjs_file_curve(p) == curve_id::bls12_381);

    const bytes z = slurp(fs.bn_zkey);
    auto curve_of = [](const bytes& b) { return parse_snarkjs_file_curve(b, "x.zkey"); };
    bytes b = z;
    b[0] = 'p';   // "pkey"
    expect_error([&] { curve_of(b); }, {errc::bad_format}, {"x.zkey", "not a snarkjs"});
    b = z;
    b[zkey_q_at] ^= 1;   // q's low byte
    expect_error([&] { curve_of(b); }, {errc::bad_format}, {"x.zkey section 2", "unknown prime: q = 0x30644e72e131a029"});
    b = z;
    put_u32(&b[zkey_q_at - 4], 40);   // n8q = 40
    expect_error([&] { curve_of(b); }, {errc::bad_format}, {"x.zkey section 2", "unknown field size 40"});
    b = z;
    put_u32(&b[zkey_q_at - 4], 0xffffffffu);
    expect_error([&] { curve_of(b); }, {errc::bad_format}, {"x.zkey section 2", "field size 4294967295"});
    b = z;
    b[zkey_r_at + 31] ^= 0x10;   // r's top byte
    expect_error([&] { curve_of(b); }, {errc::bad_format}, {"x.zkey section 2", "unknown prime: r = 0x20644e72"});
    const bytes w = slurp(fs.bls_wtns);
    b = w;
    b[wtns_prime_at + 3] ^= 1;
    expect_error([&] { parse_snarkjs_file_curve(b, "w.wtns"); }, {errc::bad_format}, {"w.wtns section 1", "unknown prime"});
    // Truncated anywhere in the headers: refused with the file's name.
    for (size_t cut = 0; cut < zkey_r_at + 32; ++cut)
        expect_error([&] { curve_of(bytes(z.begin(), z.begin() + long(cut))); }, {errc::bad_format, errc::bad_length},
                     {"x.zkey"});
}

TEST_CASE("a file of the other curve is refused, naming both curves", "[io]")
{
    std::mt19937_64 rng(test::test_seed() + 63);
    files fs(rng);
    expect_error([&] { read_zkey(fs.bn_zkey); }, {errc::unsupported},
                 {fs.bn_zkey + ": the key is for bn128, expected bls12381"});
    expect_error([&] { read_zkey<bn>(fs.bls_zkey); }, {errc::unsupported},
                 {fs.bls_zkey + ": the key is for bls12381, expected bn128"});
    expect_error([&] { read_wtns(fs.bn_wtns); }, {errc::unsupported},
                 {fs.bn_wtns + ": the witness is for bn128, expected bls12381"});
    expect_error([&] { read_wtns<bn254::fr>(fs.bls_wtns); }, {errc::unsupported},
                 {fs.bls_wtns + ": the witness is for bls12381, expected bn128"});
    expect_error([&] { read_r1cs(fs.bn_r1cs); }, {errc::unsupported},
                 {fs.bn_r1cs + ": the circuit is for bn128, expected bls12381"});
    expect_error([&] { read_r1cs<bn254::fr>(fs.bls_r1cs); }, {errc::unsupported},
                 {fs.bls_r1cs + ": the circuit is for bls12381, expected bn128"});
    // The right curve reads them.
    CHECK_NOTHROW(read_zkey<bn>(fs.bn_zkey));
    CHECK(read_wtns(fs.bls_wtns).size() == 1);
    CHECK(read_r1cs<bn254::fr>(fs.bn_r1cs).n_wires == 4);
}

TEST_CASE("bn128 zkey: hostile headers and points are refused before allocating", "[io]")
{
    std::mt19937_64 rng(test::test_seed() + 64);
    files fs(rng);
    const bytes z = slurp(fs.bn_zkey);
    auto parse = [](const bytes& b) {
        // An exactly-sized heap copy, so that a read past the end is caught by
        // AddressSanitizer (one byte for an empty input, whose data() may be null).
        const std::unique_ptr<uint8_t[]> p(new uint8_t[b.size() + (b.empty() ? 1 : 0)]);
        if (!b.empty()) std::memcpy(p.get(), b.data(), b.size());
        return parse_zkey<bn>({p.get(), b.size()}, "k.zkey");
    };
    REQUIRE_NOTHROW(parse(z));
    for (size_t cut = 0; cut < z.size(); cut += (cut < 400 ? 1 : 7))
        expect_error([&] { parse(bytes(z.begin(), z.begin() + long(cut))); }, {errc::bad_format, errc::bad_length},
                     {"k.zkey"});
    const size_t sizes_at = zkey_r_at + 32;   // nVars, nPublic, domainSize
    bytes b = z;
    put_u32(&b[sizes_at], 0xfffffff0u);   // nVars: the point sections cannot hold it
    expect_error([&] { parse(b); }, {errc::bad_length}, {"k.zkey", "section 5"});
    b = z;
    put_u32(&b[sizes_at + 8], 1u << 31);   // domainSize 2^31: section 9 would be 128 GiB
    expect_error([&] { parse(b); }, {errc::bad_length}, {"k.zkey", "section 9"});
    // alpha1's x = q (non-canonical), then y changed (off the curve), then
    // beta2's x.c1 >= q.
    const size_t alpha_at = sizes_at + 12;
    b = z;
    const bytes q = mpz_le(mpz(BN_Q), 32);
    std::copy(q.begin(), q.end(), b.begin() + long(alpha_at));
    expect_error([&] { parse(b); }, {errc::non_canonical}, {"k.zkey section 2 (Groth16 header) alpha1", "x coordinate"});
    b = z;
    b[alpha_at + 32] ^= 1;
    expect_error([&] { parse(b); }, {errc::not_on_curve}, {"k.zkey section 2 (Groth16 header) alpha1"});
    b = z;
    std::fill(b.begin() + long(alpha_at + 2 * 64 + 32), b.begin() + long(alpha_at + 2 * 64 + 64), 0xff);
    expect_error([&] { parse(b); }, {errc::non_canonical}, {"beta2", "x.c1 coordinate"});
    // A point of section 5 (PointsA) moved off the curve: named by section and index.
    const size_t s4 = 12 + (12 + 4) + (12 + 660) + (12 + 2 * 64) + 12;   // section 4's body
    const size_t pa = s4 + 4 + 44 * size_t(get_u32(&z[s4])) + 12 + 64 * 4;   // PointsA[4]
    b = z;
    b[pa + 40] ^= 1;
    expect_error([&] { parse(b); }, {errc::not_on_curve}, {"k.zkey section 5 (PointsA) point 4"});
}
