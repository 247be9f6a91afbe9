// File formats: the iden3 binary container, snarkjs .zkey / .wtns / .r1cs on
// BLS12-381 and BN254 (snarkjs's "bn128"; the cases over both curves are
// templates, the curve's reference values in ref<C>) and the curve of such a
// file read from its header (io::snarkjs_file_curve), bellperson .vk /
// .params and the 192-byte proof.
//
// References independent of the code under test: byte layouts are checked by
// a small container walker written here and by GMP (LEM coordinates are
// x·2^384 mod q on BLS12-381 and x·2^256 mod q on BN254, zkey coefficients
// v·2^512 mod r, wtns/r1cs values plain), the worked sizes of docs/FORMATS.md
// (snarkjs c <== a*b, §2.3; bellperson's 2136-byte parameters, §1.3), and
// the published generators (BN254's is (1, 2)). Every reader is fed
// truncated, resized, re-labelled and corrupted files and must answer with a
// cuzk::error naming the file — never a crash (run under
// -DCUZK_SANITIZE=address,undefined too).
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "cuzk/ec/encoding.hpp"
#include "cuzk/error.hpp"
#include "cuzk/io/bellperson.hpp"
#include "cuzk/io/binfile.hpp"
#include "cuzk/io/decimal.hpp"
#include "cuzk/io/mapped_file.hpp"
#include "cuzk/io/snarkjs.hpp"
#include "gmp_util.hpp"

using namespace cuzk;
using namespace cuzk::io;
using cuzk::test::mpz;
using bytes = std::vector<uint8_t>;

namespace {

constexpr const char* Q_DEC =
    "4002409555221667393417789825735904156556882819939007885332058136124031650490837864442687629129015664037894272559787";
constexpr const char* R_DEC = "52435875175126190479447740508185965837690552500527637822603658699938581184513";
constexpr const char* BN254_Q = "21888242871839275222246405745257275088696311157297823662689037894645226208583";
constexpr const char* BN254_R = "21888242871839275222246405745257275088548364400416034343698204186575808495617";
// Generator coordinates as published (zcash bls12_381 README).
constexpr const char* G1_X =
    "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb";
constexpr const char* G1_Y =
    "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1";
constexpr const char* G2_X0 =
    "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8";
constexpr const char* G2_X1 =
    "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e";

std::string hex(const uint8_t* p, size_t n)
{
    static const char* d = "0123456789abcdef";
    std::string s;
    for (size_t i = 0; i < n; ++i) {
        s += d[p[i] >> 4];
        s += d[p[i] & 15];
    }
    return s;
}

// Little-endian bytes of an mpz (n bytes).
bytes mpz_le(const mpz& v, size_t n)
{
    bytes out(n, 0);
    size_t count = 0;
    mpz_export(out.data(), &count, -1, 1, -1, 0, v.v);
    REQUIRE(count <= n);
    return out;
}
bytes dec_le(const char* dec, size_t n) { return mpz_le(mpz(dec), n); }

using cuzk::test::expect_error;

struct temp_dir {
    std::filesystem::path path;
    temp_dir()
    {
        path = std::filesystem::temp_directory_path() /
               ("cuzk_test_io_" + std::to_string(::getpid()) + "_" + std::to_string(test::test_seed() & 0xffffff));
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
void spit(const std::string& path, const bytes& b)
{
    output_file o(path);
    o.write(b);
    o.close();
}

// ---- a container walker and builder written independently of binfile.cpp ----------------
struct section {
    uint32_t id;
    bytes body;
};
struct container {
    std::string magic;
    uint32_t version;
    std::vector<section> sections;
};
uint32_t get_u32(const uint8_t* p) { return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24; }
uint64_t get_u64(const uint8_t* p) { return uint64_t(get_u32(p)) | uint64_t(get_u32(p + 4)) << 32; }
void put_u32(bytes& b, uint32_t v)
{
    for (int i = 0; i < 4; ++i) b.push_back(uint8_t(v >> (8 * i)));
}
void put_u64(bytes& b, uint64_t v)
{
    for (int i = 0; i < 8; ++i) b.push_back(uint8_t(v >> (8 * i)));
}
container split(const bytes& f)
{
    container c;
    REQUIRE(f.size() >= 12);
    c.magic.assign(f.begin(), f.begin() + 4);
    c.version = get_u32(&f[4]);
    const uint32_t n = get_u32(&f[8]);
    size_t pos = 12;
    for (uint32_t i = 0; i < n; ++i) {
        REQUIRE(pos + 12 <= f.size());
        const uint32_t id = get_u32(&f[pos]);
        const uint64_t size = get_u64(&f[pos + 4]);
        pos += 12;
        REQUIRE(pos + size <= f.size());
        c.sections.push_back({id, bytes(f.begin() + long(pos), f.begin() + long(pos + size))});
        pos += size;
    }
    REQUIRE(pos == f.size());
    return c;
}
bytes join(const container& c)
{
    bytes f(c.magic.begin(), c.magic.end());
    put_u32(f, c.version);
    put_u32(f, uint32_t(c.sections.size()));
    for (const auto& s : c.sections) {
        put_u32(f, s.id);
        put_u64(f, s.body.size());
        f.insert(f.end(), s.body.begin(), s.body.end());
    }
    return f;
}
section& sec(container& c, uint32_t id)
{
    for (auto& s : c.sections)
        if (s.id == id) return s;
    FAIL("no section " << id);
    return c.sections.front();
}

// ---- the two curves' reference values ---------------------------------------------------------
// Per curve: its primes (decimal), the G1 generator's coordinates (hex), the
// bytes of a base field element (n8q) and the section sizes of the worked
// example c <== a*b (docs/FORMATS.md §2.3; bn128's with 32-byte coordinates:
// section 2 is 4 + 32 + 4 + 32 + 12 + 3·64 + 3·128).
template <class C>
struct ref;
template <>
struct ref<bls12_381_curve> {
    static constexpr const char* q = Q_DEC;
    static constexpr const char* r = R_DEC;
    static constexpr const char* g1_x = G1_X;
    static constexpr const char* g1_y = G1_Y;
    static constexpr size_t n8q = 48;
    static constexpr size_t mul_sections[10] = {4, 964, 288, 224, 384, 384, 768, 96, 384, 68};
};
template <>
struct ref<bn254_curve> {
    static constexpr const char* q = BN254_Q;
    static constexpr const char* r = BN254_R;
    static constexpr const char* g1_x = "1";
    static constexpr const char* g1_y = "2";
    static constexpr size_t n8q = 32;
    static constexpr size_t mul_sections[10] = {4, 660, 192, 224, 256, 256, 512, 64, 256, 68};
};

// A coordinate in LEM as a zkey stores it: x·2^(8·n8) mod q, little-endian
// in n8 bytes (x in hex, q in decimal).
bytes lem(const char* x_hex, const char* q_dec, size_t n8)
{
    mpz x, q(q_dec), t;
    mpz_set_str(x.v, x_hex, 16);
    mpz_mul_2exp(t.v, x.v, unsigned(8 * n8));
    mpz_mod(t.v, t.v, q.v);
    return mpz_le(t, n8);
}

// ---- random keys ------------------------------------------------------------------------
template <class C = bls12_381_curve>
typename C::g1_affine random_g1(std::mt19937_64& rng)
{
    return scalar_mul(C::g1_affine::generator(), C::fr::random(rng).to_repr()).to_affine();
}
template <class C = bls12_381_curve>
typename C::g2_affine random_g2(std::mt19937_64& rng)
{
    return scalar_mul(C::g2_affine::generator(), C::fr::random(rng).to_repr()).to_affine();
}
// The n points start + i·step, cheaply (one addition each).
template <class Aff>
std::vector<Aff> run_from(const Aff& start, const Aff& step, size_t n)
{
    std::vector<decltype(start.to_jacobian())> j(n);
    auto acc = start.to_jacobian();
    for (auto& p : j) {
        p = acc;
        acc = acc.add(step);
    }
    std::vector<Aff> out(n);
    batch_to_affine(j.data(), out.data(), n);
    return out;
}
// n distinct non-identity points from a random start and step.
template <class C = bls12_381_curve>
std::vector<typename C::g1_affine> g1_run(std::mt19937_64& rng, size_t n)
{
    const auto step = random_g1<C>(rng);
    return run_from(random_g1<C>(rng), step, n);
}
template <class C = bls12_381_curve>
std::vector<typename C::g2_affine> g2_run(std::mt19937_64& rng, size_t n)
{
    const auto step = random_g2<C>(rng);
    return run_from(random_g2<C>(rng), step, n);
}

template <class C = bls12_381_curve>
groth16::verifying_key_t<C> random_vk(std::mt19937_64& rng, size_t n_ic)
{
    groth16::verifying_key_t<C> vk;
    vk.alpha_g1 = random_g1<C>(rng);
    vk.beta_g1 = random_g1<C>(rng);
    vk.beta_g2 = random_g2<C>(rng);
    vk.gamma_g2 = random_g2<C>(rng);
    vk.delta_g1 = random_g1<C>(rng);
    vk.delta_g2 = random_g2<C>(rng);
    vk.ic = g1_run<C>(rng, n_ic);
    return vk;
}

// A snarkjs-convention key with the zkey shape: n_inputs = nPublic + 1,
// domain = smallest power of two >= n_constraints + n_inputs, some identity
// points in A/B (unused signals), random A/B coefficients plus the input
// constraints.
template <class C = bls12_381_curve>
groth16::proving_key_t<C> random_snarkjs_key(std::mt19937_64& rng, uint32_t n_inputs, uint32_t n_aux,
                                             uint32_t n_constraints, size_t n_coefs)
{
    using F = typename C::fr;
    groth16::proving_key_t<C> pk;
    pk.conv = groth16::convention::snarkjs;
    pk.num_inputs = n_inputs;
    pk.num_aux = n_aux;
    pk.n_constraints = n_constraints;
    uint64_t d = 1;
    while (d < uint64_t(n_constraints) + n_inputs) d <<= 1;
    pk.domain_size = d;
    pk.vk = random_vk<C>(rng, n_inputs);
    const size_t nv = n_inputs + n_aux;
    pk.a = g1_run<C>(rng, nv);
    pk.b_g1 = g1_run<C>(rng, nv);
    pk.b_g2 = g2_run<C>(rng, nv);
    for (size_t i = 0; i < nv; ++i) {
        if (rng() % 4 == 0) pk.b_g1[i] = C::g1_affine::identity(), pk.b_g2[i] = C::g2_affine::identity();
        if (i >= n_inputs && rng() % 5 == 0) pk.a[i] = C::g1_affine::identity();
    }
    pk.l = g1_run<C>(rng, n_aux);
    pk.h = g1_run<C>(rng, size_t(d));
    for (size_t i = 0; i < n_coefs; ++i) {
        const uint32_t c = uint32_t(rng() % std::max<uint32_t>(n_constraints, 1));
        pk.coefs.push_back({uint32_t(rng() % 2), c, uint32_t(rng() % nv), F::random(rng)});
    }
    if (!pk.coefs.empty()) pk.coefs[0].value = -F::one();
    for (uint32_t s = 0; s < n_inputs; ++s) pk.coefs.push_back({0, n_constraints + s, s, F::one()});
    return pk;
}

template <class C = bls12_381_curve>
void check_same_key(const groth16::proving_key_t<C>& a, const groth16::proving_key_t<C>& b)
{
    CHECK(a.conv == b.conv);
    CHECK(a.num_inputs == b.num_inputs);
    CHECK(a.num_aux == b.num_aux);
    CHECK(a.domain_size == b.domain_size);
    CHECK(a.n_constraints == b.n_constraints);
    CHECK(a.vk.alpha_g1 == b.vk.alpha_g1);
    CHECK(a.vk.beta_g1 == b.vk.beta_g1);
    CHECK(a.vk.beta_g2 == b.vk.beta_g2);
    CHECK(a.vk.gamma_g2 == b.vk.gamma_g2);
    CHECK(a.vk.delta_g1 == b.vk.delta_g1);
    CHECK(a.vk.delta_g2 == b.vk.delta_g2);
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

// Parses a byte image through an exactly-sized heap copy, so that any read
// past the end is caught by AddressSanitizer.
template <class C = bls12_381_curve>
zkey_t<C> parse_zkey_copy(const bytes& f, zkey_read_options opt = {})
{
    const std::unique_ptr<uint8_t[]> p(new uint8_t[f.size() + (f.empty() ? 1 : 0)]);
    if (!f.empty()) std::memcpy(p.get(), f.data(), f.size());
    return parse_zkey<C>({p.get(), f.size()}, "k.zkey", opt);
}
template <class F = fr>
std::vector<F> parse_wtns_copy(const bytes& f)
{
    const std::unique_ptr<uint8_t[]> p(new uint8_t[f.size() + (f.empty() ? 1 : 0)]);
    if (!f.empty()) std::memcpy(p.get(), f.data(), f.size());
    return parse_wtns<F>({p.get(), f.size()}, "w.wtns");
}
template <class F = fr>
r1cs_file_t<F> parse_r1cs_copy(const bytes& f)
{
    const std::unique_ptr<uint8_t[]> p(new uint8_t[f.size() + (f.empty() ? 1 : 0)]);
    if (!f.empty()) std::memcpy(p.get(), f.data(), f.size());
    return parse_r1cs<F>({p.get(), f.size()}, "c.r1cs");
}

// The shape of docs/FORMATS.md §2.3's worked example c <== a*b with a public: wires
// one, c, a, b; nPublic = 2; one constraint; five coefficients.
template <class C = bls12_381_curve>
groth16::proving_key_t<C> mul_circuit_key(std::mt19937_64& rng)
{
    using F = typename C::fr;
    auto pk = random_snarkjs_key<C>(rng, 3, 1, 1, 0);
    pk.coefs.clear();
    pk.coefs.push_back({0, 0, 2, -F::one()});
    pk.coefs.push_back({1, 0, 3, F::one()});
    for (uint32_t s = 0; s < 3; ++s) pk.coefs.push_back({0, 1 + s, s, F::one()});
    return pk;
}

} // namespace

// ---- mapped_file / output_file -------------------------------------------------------------

TEST_CASE("mapped_file maps, moves and names the file in errors", "[io]")
{
    temp_dir td;
    spit(td.file("a.bin"), bytes{1, 2, 3});
    mapped_file f(td.file("a.bin"));
    REQUIRE(f.size() == 3);
    CHECK(f.data()[2] == 3);
    CHECK(f.path() == td.file("a.bin"));
    mapped_file g(std::move(f));
    CHECK(g.size() == 3);
    CHECK(f.size() == 0);
    CHECK_FALSE(f.is_open());
    mapped_file h;
    h = std::move(g);
    CHECK(h.bytes()[0] == 1);
    spit(td.file("empty.bin"), {});
    mapped_file e(td.file("empty.bin"));
    CHECK(e.size() == 0);
    CHECK(e.is_open());
    expect_error([&] { mapped_file m(td.file("missing.bin")); }, errc::io, {"missing.bin"});
    expect_error([&] { mapped_file m(td.path.string()); }, errc::io, {"is a directory", "regular files only"});
    // A writer destroyed before close() leaves no partial file behind.
    {
        output_file o(td.file("partial.bin"));
        o.write_u32_le(7);
    }
    CHECK_FALSE(std::filesystem::exists(td.file("partial.bin")));
    expect_error([&] { output_file o(td.file("no/such/dir/x.bin")); }, errc::io, {"x.bin"});
}

// ---- binfile ----------------------------------------------------------------------------------

TEST_CASE("binfile: sections by id, any order, writer output", "[io]")
{
    temp_dir td;
    {
        binfile_writer w(td.file("t.bin"), "test", 3, 3);
        w.begin_section(2);
        w.write_u32(0xdeadbeef);
        w.end_section();
        w.begin_section(1);
        w.end_section();
        w.begin_section(7);
        w.write_u64(42);
        w.write(bytes{9, 9});
        w.end_section();
        w.close();
    }
    const bytes f = slurp(td.file("t.bin"));
    // Independent walk of the bytes.
    const container c = split(f);
    CHECK(c.magic == "test");
    CHECK(c.version == 3);
    REQUIRE(c.sections.size() == 3);
    CHECK(c.sections[0].id == 2);
    CHECK(c.sections[0].body == bytes{0xef, 0xbe, 0xad, 0xde});
    CHECK(c.sections[1].body.empty());
    CHECK(c.sections[2].body.size() == 10);
    const binfile bf(f, "t.bin", "test", 1, 3);
    CHECK(bf.version() == 3);
    CHECK(bf.has(7));
    CHECK_FALSE(bf.has(3));
    CHECK(bf.section(2, "two").size() == 4);
    auto r = bf.reader(7, "seven");
    CHECK(r.u64_le("x") == 42);
    CHECK(r.u8("y") == 9);
    expect_error([&] { (void)bf.section(3, "three"); }, errc::bad_format, {"t.bin", "missing section 3 (three)"});
    expect_error([&] { bf.expect_size(2, "two", 5); }, errc::bad_length, {"t.bin", "section 2 (two)", "expected 5"});
    expect_error(
        [&] {
            auto rr = bf.reader(2, "two");
            rr.u64_le("a u64");
        },
        errc::bad_length, {"t.bin section 2 (two)", "a u64"});

    // Rejections: magic, version, duplicate, truncation at every offset,
    // sizes past the end, trailing bytes.
    expect_error([&] { binfile b(f, "t.bin", "zkey", 1, 3); }, errc::bad_format, {"t.bin", "wrong magic 'test'"});
    expect_error([&] { binfile b(f, "t.bin", "test", 1, 2); }, errc::bad_format, {"version 3"});
    container dup = c;
    dup.sections[2].id = 2;
    expect_error([&] { binfile b(join(dup), "t.bin", "test", 1, 3); }, errc::bad_format, {"section 2 appears twice"});
    for (size_t cut = 0; cut < f.size(); ++cut) {
        const bytes t(f.begin(), f.begin() + long(cut));
        expect_error([&] { binfile b(t, "t.bin", "test", 1, 3); }, {errc::bad_format, errc::bad_length}, {"t.bin"});
    }
    bytes big = f;
    big[12 + 4] = 5;   // first section claims 5 bytes, has 4
    expect_error([&] { binfile b(big, "t.bin", "test", 1, 3); }, {errc::bad_length, errc::bad_format}, {"t.bin"});
    big = f;
    big[12 + 4 + 7] = 0x80;   // 2^63 bytes
    expect_error([&] { binfile b(big, "t.bin", "test", 1, 3); }, errc::bad_length, {"section 2", "size"});
    big = f;
    big.push_back(0);
    expect_error([&] { binfile b(big, "t.bin", "test", 1, 3); }, errc::bad_format, {"after the last section"});
    big = f;
    big[8] = 200;   // more sections than bytes
    expect_error([&] { binfile b(big, "t.bin", "test", 1, 3); }, errc::bad_format, {"200 sections"});
    // The writer refuses a wrong number of sections.
    {
        binfile_writer w(td.file("u.bin"), "test", 1, 2);
        w.begin_section(1);
        w.end_section();
        expect_error([&] { w.close(); }, errc::internal);
    }
    CHECK_FALSE(std::filesystem::exists(td.file("u.bin")));
}

// ---- zkey ---------------------------------------------------------------------------------------

TEMPLATE_TEST_CASE("zkey: worked example sizes and the byte encodings", "[io]", bls12_381_curve, bn254_curve)
{
    using C = TestType;
    using F = typename C::fr;
    using R = ref<C>;
    constexpr size_t nq = R::n8q, g1 = 2 * nq;
    std::mt19937_64 rng(test::test_seed() + 10);
    temp_dir td;
    auto pk = mul_circuit_key<C>(rng);
    pk.vk.alpha_g1 = C::g1_affine::generator();
    pk.coefs[1].value = F::from_u64(123456789);
    write_zkey(td.file("mul.zkey"), pk);
    CHECK(snarkjs_file_curve(td.file("mul.zkey")) == C::id);
    const bytes f = slurp(td.file("mul.zkey"));
    const container c = split(f);
    CHECK(c.magic == "zkey");
    CHECK(c.version == 1);
    REQUIRE(c.sections.size() == 10);
    size_t total = 12 + 10 * 12;
    for (uint32_t i = 0; i < 10; ++i) {
        CHECK(c.sections[i].id == i + 1);
        CHECK(c.sections[i].body.size() == R::mul_sections[i]);
        total += R::mul_sections[i];
    }
    CHECK(f.size() == total);

    const bytes& h = c.sections[1].body;
    CHECK(get_u32(&h[0]) == nq);
    CHECK(bytes(h.begin() + 4, h.begin() + long(4 + nq)) == dec_le(R::q, nq));
    CHECK(get_u32(&h[4 + nq]) == 32);
    CHECK(bytes(h.begin() + long(8 + nq), h.begin() + long(40 + nq)) == dec_le(R::r, 32));
    CHECK(get_u32(&h[40 + nq]) == 4);   // nVars
    CHECK(get_u32(&h[44 + nq]) == 2);   // nPublic
    CHECK(get_u32(&h[48 + nq]) == 4);   // domainSize
    // alpha1 = the G1 generator in LEM.
    const auto alpha = h.begin() + long(52 + nq);
    CHECK(bytes(alpha, alpha + long(nq)) == lem(R::g1_x, R::q, nq));
    CHECK(bytes(alpha + long(nq), alpha + long(g1)) == lem(R::g1_y, R::q, nq));

    // Coefficients: v·2^512 mod r. Entry 0 is −1, entry 1 is 123456789.
    const bytes& k = c.sections[3].body;
    CHECK(get_u32(&k[0]) == 5);
    mpz r(R::r), v;
    auto stored = [&](const mpz& val) {
        mpz s;
        mpz_mul_2exp(s.v, val.v, 512);
        mpz_mod(s.v, s.v, r.v);
        return mpz_le(s, 32);
    };
    mpz_sub_ui(v.v, r.v, 1);
    CHECK(get_u32(&k[4]) == 0);
    CHECK(get_u32(&k[8]) == 0);
    CHECK(get_u32(&k[12]) == 2);
    CHECK(bytes(k.begin() + 16, k.begin() + 48) == stored(v));
    mpz_set_ui(v.v, 123456789);
    CHECK(get_u32(&k[48]) == 1);
    CHECK(bytes(k.begin() + 60, k.begin() + 92) == stored(v));
    mpz_set_ui(v.v, 1);
    CHECK(bytes(k.begin() + 192, k.begin() + 224) == stored(v));

    // Identity points are all-zero bytes.
    const bytes& b1 = c.sections[5].body;
    for (size_t i = 0; i < 4; ++i) {
        const bool zero_b1 = std::all_of(b1.begin() + long(g1 * i), b1.begin() + long(g1 * i + g1),
                                         [](uint8_t b) { return !b; });
        CHECK(zero_b1 == pk.b_g1[i].is_identity());
    }
    // Section 10: the 64-byte hash, then zero contributions.
    CHECK(std::all_of(c.sections[9].body.begin(), c.sections[9].body.end(), [](uint8_t b) { return !b; }));

    const zkey_t<C> z = read_zkey<C>(td.file("mul.zkey"));
    CHECK(z.n_vars == 4);
    CHECK(z.n_public == 2);
    CHECK(z.n_contributions == 0);
    check_same_key(z.pk, pk);
    CHECK(z.pk.coefs[0].value == -F::one());
}

TEMPLATE_TEST_CASE("zkey: round trips of random keys, threaded decoding, cs_hash", "[io]", bls12_381_curve,
                   bn254_curve)
{
    using C = TestType;
    constexpr size_t nq = ref<C>::n8q, g1 = 2 * nq;
    std::mt19937_64 rng(test::test_seed() + 11);
    temp_dir td;
    for (int it = 0; it < 3; ++it) {
        const uint32_t ni = 1 + uint32_t(rng() % 4), na = uint32_t(rng() % 6), nc = 1 + uint32_t(rng() % 9);
        const auto pk = random_snarkjs_key<C>(rng, ni, na, nc, rng() % 20);
        zkey_write_options wo;
        for (size_t i = 0; i < 64; ++i) wo.cs_hash[i] = uint8_t(i * 7 + it);
        write_zkey(td.file("k.zkey"), pk, wo);
        const zkey_t<C> z = read_zkey<C>(td.file("k.zkey"), {subgroup_check::check, 2});
        check_same_key(z.pk, pk);
        CHECK(z.cs_hash == wo.cs_hash);
        CHECK(z.n_vars == ni + na);
        CHECK(z.n_public == ni - 1);
    }
    // Big enough for the threaded path (> 4096 points per section).
    const auto pk = random_snarkjs_key<C>(rng, 2, 9000, 8000, 3000);
    write_zkey(td.file("big.zkey"), pk);
    const zkey_t<C> z1 = read_zkey<C>(td.file("big.zkey"), {subgroup_check::skip, 1});
    const zkey_t<C> z4 = read_zkey<C>(td.file("big.zkey"), {subgroup_check::skip, 4});
    CHECK(z1.pk.domain_size == 8192);
    check_same_key(z1.pk, pk);
    check_same_key(z4.pk, pk);
    // A bad point deep in a threaded section is reported with its index.
    container c = split(slurp(td.file("big.zkey")));
    auto& hs = sec(c, 9).body;
    hs[g1 * 7001 + nq] ^= 1;   // y of H[7001]
    expect_error([&] { parse_zkey_copy<C>(join(c), {subgroup_check::skip, 4}); }, errc::not_on_curve,
                 {"k.zkey section 9 (PointsH) point 7001"});
    // With the curve test deferred (the caller verifies its proofs), the
    // same file reads and keeps the bad point as it is; the subgroup test
    // brings the curve test back.
    const zkey_t<C> zs = parse_zkey_copy<C>(join(c), {subgroup_check::skip, 4, curve_check::skip});
    CHECK(!zs.pk.h[7001].is_on_curve());
    CHECK(zs.pk.h[7000] == z1.pk.h[7000]);
    expect_error([&] { parse_zkey_copy<C>(join(c), {subgroup_check::check, 4, curve_check::skip}); },
                 errc::not_on_curve, {"k.zkey section 9 (PointsH) point 7001"});
    // The verifying key's points are tested whatever the options say.
    container v = split(slurp(td.file("big.zkey")));
    sec(v, 3).body[g1 * 1 + nq] ^= 1;   // y of IC[1]
    expect_error([&] { parse_zkey_copy<C>(join(v), {subgroup_check::skip, 4, curve_check::skip}); },
                 errc::not_on_curve, {"k.zkey section 3 (IC) point 1"});
}

TEST_CASE("zkey: the reader rejects malformed files with a clear error", "[io]")
{
    std::mt19937_64 rng(test::test_seed() + 12);
    temp_dir td;
    const auto pk = mul_circuit_key(rng);
    write_zkey(td.file("k.zkey"), pk);
    const bytes f = slurp(td.file("k.zkey"));
    const container c0 = split(f);
    REQUIRE_NOTHROW(parse_zkey_copy(f));

    // Truncated anywhere.
    for (size_t cut = 0; cut < f.size(); cut += (cut < 200 ? 1 : 13)) {
        INFO("cut at " << cut);
        expect_error([&] { parse_zkey_copy(bytes(f.begin(), f.begin() + long(cut))); },
                     {errc::bad_format, errc::bad_length}, {"k.zkey"});
    }
    // A section body shortened or lengthened (the container stays consistent).
    for (uint32_t id = 1; id <= 10; ++id) {
        const size_t n = sec(const_cast<container&>(c0), id).body.size();
        for (size_t cut : {size_t(0), size_t(1), n / 2, n - 1}) {
            if (cut >= n) continue;
            container c = c0;
            sec(c, id).body.resize(cut);
            INFO("section " << id << " cut to " << cut);
            expect_error([&] { parse_zkey_copy(join(c)); }, {errc::bad_format, errc::bad_length},
                         {"k.zkey", "section " + std::to_string(id)});
        }
        container c = c0;
        sec(c, id).body.push_back(0);
        INFO("section " << id << " one byte longer");
        expect_error([&] { parse_zkey_copy(join(c)); }, {errc::bad_format, errc::bad_length},
                     {"k.zkey", "section " + std::to_string(id)});
    }
    // Corrupted section sizes in the container.
    for (uint64_t delta : {uint64_t(1), uint64_t(1) << 40}) {
        bytes g = f;
        uint64_t s = get_u64(&g[12 + 4]);
        s += delta;
        for (int i = 0; i < 8; ++i) g[16 + size_t(i)] = uint8_t(s >> (8 * i));
        expect_error([&] { parse_zkey_copy(g); }, {errc::bad_format, errc::bad_length}, {"k.zkey"});
    }
    // Magic, version, missing and duplicated sections.
    {
        container c = c0;
        c.magic = "zkez";
        expect_error([&] { parse_zkey_copy(join(c)); }, errc::bad_format, {"wrong magic"});
        c = c0;
        c.version = 3;
        expect_error([&] { parse_zkey_copy(join(c)); }, errc::bad_format, {"version 3"});
        for (uint32_t id = 1; id <= 9; ++id) {
            c = c0;
            sec(c, id).id = 99;
            expect_error([&] { parse_zkey_copy(join(c)); }, errc::bad_format,
                         {"missing section " + std::to_string(id)});
        }
        c = c0;
        c.sections.erase(c.sections.begin() + 9);   // section 10 is optional
        CHECK(parse_zkey_copy(join(c)).n_contributions == 0);
        c = c0;
        c.sections.push_back(c.sections[3]);
        expect_error([&] { parse_zkey_copy(join(c)); }, errc::bad_format, {"section 4 appears twice"});
    }
    // Header contents.
    {
        container c = c0;
        sec(c, 1).body[0] = 2;
        expect_error([&] { parse_zkey_copy(join(c)); }, errc::unsupported, {"PLONK"});
        // bn254's q (n8q = 32) with BLS12-381's r, then both of bn254's primes.
        c = c0;
        bytes h;
        h.reserve(2048);   // (also keeps GCC 12's -Wstringop-overflow false positive away)
        put_u32(h, 32);
        const bytes q = dec_le(BN254_Q, 32);
        h.insert(h.end(), q.begin(), q.end());
        h.insert(h.end(), sec(c, 2).body.begin() + 52, sec(c, 2).body.end());
        sec(c, 2).body = h;
        expect_error([&] { parse_zkey_copy(join(c)); }, errc::bad_format,
                     {"k.zkey section 2", "q is bn128's but r is bls12381's"});
        const bytes r = dec_le(BN254_R, 32);
        std::copy(r.begin(), r.end(), sec(c, 2).body.begin() + 40);
        expect_error([&] { parse_zkey_copy(join(c)); }, errc::unsupported,
                     {"k.zkey: the key is for bn128, expected bls12381"});
        c = c0;
        sec(c, 2).body[60] ^= 1;   // r
        expect_error([&] { parse_zkey_copy(join(c)); }, errc::bad_format,
                     {"k.zkey section 2", "unknown prime: r = 0x73eda753"});
        c = c0;
        sec(c, 2).body[96] = 3;   // domainSize = 3
        expect_error([&] { parse_zkey_copy(join(c)); }, errc::bad_format, {"power of two"});
        c = c0;
        sec(c, 2).body[92] = 4;   // nPublic = nVars
        expect_error([&] { parse_zkey_copy(join(c)); }, errc::bad_format, {"nPublic"});
    }
    // Non-canonical coordinates and off-curve points.
    {
        container c = c0;
        const bytes q = dec_le(Q_DEC, 48);
        std::copy(q.begin(), q.end(), sec(c, 2).body.begin() + 100);   // alpha1.x = q
        expect_error([&] { parse_zkey_copy(join(c)); }, errc::non_canonical, {"alpha1", "x coordinate"});
        c = c0;
        std::copy(q.begin(), q.end(), sec(c, 7).body.begin() + 192 + 48);   // B2[1].x.c1 = q
        if (pk.b_g2[1].is_identity()) sec(c, 7).body[192] = 1;
        expect_error([&] { parse_zkey_copy(join(c)); }, errc::non_canonical, {"section 7 (PointsB2) point 1", "x.c1"});
        c = c0;
        sec(c, 3).body[96 + 50] ^= 4;   // IC[1].y
        expect_error([&] { parse_zkey_copy(join(c)); }, errc::not_on_curve, {"section 3 (IC) point 1"});
        c = c0;
        sec(c, 8).body[0] ^= 1;   // L[0].x
        expect_error([&] { parse_zkey_copy(join(c)); }, errc::not_on_curve, {"section 8 (PointsC) point 0"});
        c = c0;
        sec(c, 2).body[100 + 96 + 96 + 5] ^= 1;   // beta2.x.c0
        expect_error([&] { parse_zkey_copy(join(c)); }, errc::not_on_curve, {"beta2"});
    }
    // Coefficients.
    {
        const auto with_coef = [&](size_t entry, size_t off, std::initializer_list<uint8_t> b) {
            container c = c0;
            std::copy(b.begin(), b.end(), sec(c, 4).body.begin() + long(4 + 44 * entry + off));
            return join(c);
        };
        expect_error([&] { parse_zkey_copy(with_coef(1, 0, {2})); }, errc::bad_format, {"entry 1", "matrix 2"});
        expect_error([&] { parse_zkey_copy(with_coef(1, 4, {4})); }, errc::bad_format, {"entry 1", "constraint 4"});
        expect_error([&] { parse_zkey_copy(with_coef(0, 8, {4})); }, errc::bad_format, {"entry 0", "signal 4"});
        container c = c0;
        const bytes r = dec_le(R_DEC, 32);
        std::copy(r.begin(), r.end(), sec(c, 4).body.begin() + 4 + 44 * 2 + 12);
        expect_error([&] { parse_zkey_copy(join(c)); }, errc::non_canonical, {"entry 2", ">= r"});
        // An input constraint with a coefficient other than 1.
        expect_error([&] { parse_zkey_copy(with_coef(3, 12, {0x55})); }, errc::bad_format,
                     {"input constraint for signal 1"});
        c = c0;
        sec(c, 4).body[0] = 200;   // nCoefs
        expect_error([&] { parse_zkey_copy(join(c)); }, errc::bad_length, {"nCoefs = 200"});
    }
    // Contributions section with a record running past its end.
    {
        container c = c0;
        sec(c, 10).body[64] = 1;
        expect_error([&] { parse_zkey_copy(join(c)); }, errc::bad_length, {"section 10", "contribution 0"});
    }
    // A point on the curve but outside G1 passes the default (snarkjs) check
    // and fails the subgroup check.
    {
        fp xx = fp::from_u64(1);
        g1_affine p;
        for (;;) {
            fp y;
            if ((xx.sqr() * xx + g1_curve::b()).sqrt(y)) {
                p = {xx, y};
                break;
            }
            xx += fp::one();
        }
        REQUIRE_FALSE(in_subgroup(p));
        container c = c0;
        g1_to_lem(p, std::span<uint8_t, 96>(sec(c, 8).body.data(), 96));
        CHECK_NOTHROW(parse_zkey_copy(join(c)));
        expect_error([&] { parse_zkey_copy(join(c), {subgroup_check::check, 1}); }, errc::not_in_subgroup,
                     {"section 8 (PointsC) point 0"});
    }
}

TEST_CASE("zkey: the writer checks the key", "[io]")
{
    std::mt19937_64 rng(test::test_seed() + 13);
    temp_dir td;
    auto pk = mul_circuit_key(rng);
    auto bad = pk;
    bad.conv = groth16::convention::bellperson;
    expect_error([&] { write_zkey(td.file("x.zkey"), bad); }, errc::invalid_argument, {"bellperson"});
    bad = pk;
    bad.h.pop_back();
    expect_error([&] { write_zkey(td.file("x.zkey"), bad); }, errc::invalid_argument, {"h has 3 entries"});
    bad = pk;
    bad.coefs[0].signal = 4;
    expect_error([&] { write_zkey(td.file("x.zkey"), bad); }, errc::invalid_argument, {"coefficient 0"});
    bad = pk;
    bad.domain_size = 6;
    expect_error([&] { write_zkey(td.file("x.zkey"), bad); }, errc::invalid_argument, {"power of two"});
    CHECK_FALSE(std::filesystem::exists(td.file("x.zkey")));
}

// ---- wtns ----------------------------------------------------------------------------------------

TEMPLATE_TEST_CASE("wtns: layout, round trip and rejections", "[io]", bls12_381_curve, bn254_curve)
{
    using F = typename TestType::fr;
    const char* const r_dec = ref<TestType>::r;
    std::mt19937_64 rng(test::test_seed() + 20);
    temp_dir td;
    std::vector<F> w(1 + rng() % 50);
    w[0] = F::one();
    for (size_t i = 1; i < w.size(); ++i) w[i] = F::random(rng);
    w.back() = -F::one();
    write_wtns(td.file("w.wtns"), w);
    CHECK(snarkjs_file_curve(td.file("w.wtns")) == TestType::id);
    const bytes f = slurp(td.file("w.wtns"));
    const container c = split(f);
    CHECK(c.magic == "wtns");
    CHECK(c.version == 2);
    REQUIRE(c.sections.size() == 2);
    CHECK(c.sections[0].body.size() == 40);
    CHECK(get_u32(&c.sections[0].body[0]) == 32);
    CHECK(bytes(c.sections[0].body.begin() + 4, c.sections[0].body.begin() + 36) == dec_le(r_dec, 32));
    CHECK(get_u32(&c.sections[0].body[36]) == w.size());
    REQUIRE(c.sections[1].body.size() == 32 * w.size());
    for (size_t i = 0; i < w.size(); ++i)   // plain little-endian values (not Montgomery)
        CHECK(bytes(c.sections[1].body.begin() + long(32 * i), c.sections[1].body.begin() + long(32 * i + 32)) ==
              mpz_le(test::to_mpz(w[i].to_repr()), 32));
    CHECK(read_wtns<F>(td.file("w.wtns")) == w);

    for (size_t cut = 0; cut < f.size(); ++cut)
        expect_error([&] { parse_wtns_copy<F>(bytes(f.begin(), f.begin() + long(cut))); },
                     {errc::bad_format, errc::bad_length}, {"w.wtns"});
    container b = c;
    b.sections[0].body[10] ^= 1;
    expect_error([&] { parse_wtns_copy<F>(join(b)); }, errc::bad_format, {"w.wtns section 1", "unknown prime"});
    b = c;
    b.sections[0].body[36] += 1;   // nWitness one too many
    expect_error([&] { parse_wtns_copy<F>(join(b)); }, errc::bad_length, {"section 2 (witness)"});
    b = c;
    const bytes r = dec_le(r_dec, 32);
    std::copy(r.begin(), r.end(), b.sections[1].body.begin());
    expect_error([&] { parse_wtns_copy<F>(join(b)); }, errc::non_canonical, {"value 0"});
    b = c;
    b.magic = "r1cs";
    expect_error([&] { parse_wtns_copy<F>(join(b)); }, errc::bad_format, {"wrong magic 'r1cs', expected 'wtns'"});
    b = c;
    std::swap(b.sections[0], b.sections[1]);   // order does not matter
    CHECK(parse_wtns_copy<F>(join(b)) == w);
}

// ---- r1cs ----------------------------------------------------------------------------------------

TEMPLATE_TEST_CASE("r1cs: the c <== a*b file as circom writes it, round trips, rejections", "[io]", bls12_381_curve,
                   bn254_curve)
{
    using F = typename TestType::fr;
    const char* const r_dec = ref<TestType>::r;
    // Built by hand as circom 2.2.3 writes it (sections 2, 1, 3): wires one,
    // c, a, b; A = {2: −1}, B = {3: 1}, C = {1: −1}.
    const bytes r = dec_le(r_dec, 32);
    mpz rm1(r_dec);
    mpz_sub_ui(rm1.v, rm1.v, 1);
    const bytes minus1 = mpz_le(rm1, 32);
    bytes one(32, 0);
    one[0] = 1;
    container c{"r1cs", 1, {}};
    bytes s2;
    auto term = [&](uint32_t wire, const bytes& v) {
        put_u32(s2, wire);
        s2.insert(s2.end(), v.begin(), v.end());
    };
    put_u32(s2, 1);
    term(2, minus1);
    put_u32(s2, 1);
    term(3, one);
    put_u32(s2, 1);
    term(1, minus1);
    bytes s1;
    s1.reserve(128);
    put_u32(s1, 32);
    s1.insert(s1.end(), r.begin(), r.end());
    for (uint32_t v : {4u, 1u, 1u, 1u}) put_u32(s1, v);
    put_u64(s1, 4);
    put_u32(s1, 1);
    bytes s3;
    for (uint64_t l : {0, 1, 2, 3}) put_u64(s3, l);
    c.sections = {{2, s2}, {1, s1}, {3, s3}};
    const bytes f = join(c);
    const r1cs_file_t<F> rf = parse_r1cs_copy<F>(f);
    CHECK(rf.n_wires == 4);
    CHECK(rf.n_pub_out == 1);
    CHECK(rf.n_pub_in == 1);
    CHECK(rf.n_prv_in == 1);
    CHECK(rf.n_labels == 4);
    REQUIRE(rf.n_constraints == 1);
    REQUIRE(rf.constraints.size() == 1);
    const auto& k = rf.constraints[0];
    REQUIRE(k[0].size() == 1);
    CHECK(k[0][0].first == 2);
    CHECK(k[0][0].second == -F::one());
    CHECK(k[1][0].first == 3);
    CHECK(k[1][0].second == F::one());
    CHECK(k[2][0].first == 1);
    CHECK(k[2][0].second == -F::one());
    CHECK(rf.wire_to_label == std::vector<uint64_t>{0, 1, 2, 3});

    // Writer → reader → same content; the writer's bytes equal circom's
    // sections (in the order 1, 2, 3).
    temp_dir td;
    write_r1cs(td.file("c.r1cs"), rf);
    const container w = split(slurp(td.file("c.r1cs")));
    REQUIRE(w.sections.size() == 3);
    for (uint32_t i = 0; i < 3; ++i) CHECK(w.sections[i].id == i + 1);
    CHECK(w.sections[0].body == s1);
    CHECK(w.sections[1].body == s2);
    CHECK(w.sections[2].body == s3);
    const r1cs_file_t<F> rb = read_r1cs<F>(td.file("c.r1cs"));
    CHECK(rb.constraints[0][2][0].second == -F::one());
    CHECK(snarkjs_file_curve(td.file("c.r1cs")) == TestType::id);

    // Random system round trip.
    std::mt19937_64 rng(test::test_seed() + 30);
    r1cs_file_t<F> big;
    big.n_wires = 50;
    big.n_pub_out = 2;
    big.n_pub_in = 3;
    big.n_prv_in = 4;
    big.n_labels = 77;
    big.n_constraints = 40;
    big.constraints.resize(40);
    for (auto& con : big.constraints)
        for (auto& lc : con) {
            lc.resize(rng() % 4);
            for (auto& [wire, v] : lc) wire = uint32_t(rng() % 50), v = F::random(rng);
        }
    write_r1cs(td.file("big.r1cs"), big);
    const r1cs_file_t<F> bb = read_r1cs<F>(td.file("big.r1cs"));
    CHECK(bb.n_labels == 77);
    CHECK(bb.wire_to_label.empty());
    REQUIRE(bb.constraints.size() == 40);
    for (size_t i = 0; i < 40; ++i)
        for (int m = 0; m < 3; ++m) CHECK(bb.constraints[i][size_t(m)] == big.constraints[i][size_t(m)]);

    // Rejections.
    for (size_t cut = 0; cut < f.size(); ++cut)
        expect_error([&] { parse_r1cs_copy<F>(bytes(f.begin(), f.begin() + long(cut))); },
                     {errc::bad_format, errc::bad_length}, {"c.r1cs"});
    for (size_t cut = 0; cut < s2.size(); ++cut) {
        container t = c;
        t.sections[0].body.resize(cut);
        expect_error([&] { parse_r1cs_copy<F>(join(t)); }, errc::bad_length, {"c.r1cs section 2 (constraints)"});
    }
    container t = c;
    t.sections[0].body[4] = 4;   // wire 4 >= nWires
    expect_error([&] { parse_r1cs_copy<F>(join(t)); }, errc::bad_format, {"constraint 0 A term 0", "wire 4"});
    t = c;
    std::copy(r.begin(), r.end(), t.sections[0].body.begin() + 48);   // B coefficient = r
    expect_error([&] { parse_r1cs_copy<F>(join(t)); }, errc::non_canonical, {"constraint 0 B term 0"});
    t = c;
    t.sections[0].body[0] = 0xff;   // A term count
    expect_error([&] { parse_r1cs_copy<F>(join(t)); }, errc::bad_length, {"constraint 0 A", "do not fit"});
    t = c;
    t.sections[1].body[t.sections[1].body.size() - 1] = 0x7f;   // nConstraints huge: no huge allocation
    expect_error([&] { parse_r1cs_copy<F>(join(t)); }, errc::bad_length, {"constraints"});
    t = c;
    t.sections[1].body[36] = 2;   // nWires = 2 < 1 + 1 + 1 + 1
    expect_error([&] { parse_r1cs_copy<F>(join(t)); }, errc::bad_format, {"nWires"});
    t = c;
    t.sections[1].body[0] = 48;   // n8 = 48
    expect_error([&] { parse_r1cs_copy<F>(join(t)); }, {errc::bad_format, errc::bad_length}, {"c.r1cs"});
    t = c;
    t.sections[2].body.pop_back();
    expect_error([&] { parse_r1cs_copy<F>(join(t)); }, errc::bad_length, {"section 3"});
    t = c;
    t.sections.erase(t.sections.begin() + 1);
    expect_error([&] { parse_r1cs_copy<F>(join(t)); }, errc::bad_format, {"missing section 1"});
}

// ---- the curve of a file -------------------------------------------------------------------------

namespace {

// Overwrites the 4 bytes at p with v, little-endian.
void set_u32(uint8_t* p, uint32_t v)
{
    for (int i = 0; i < 4; ++i) p[i] = uint8_t(v >> (8 * i));
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

// Byte offsets of the primes in the bn128 files written by cuzk (sections in
// order, each with a 12-byte header after the 12-byte container header).
constexpr size_t zkey_q_at = 12 + 12 + 4 + 12 + 4;   // section 2 body + n8q
constexpr size_t zkey_r_at = zkey_q_at + 32 + 4;      // after q and n8r
constexpr size_t wtns_prime_at = 12 + 12 + 4;        // section 1 body + n8

// One file of each kind on BN254 and on BLS12-381 (the same small circuit).
struct curve_files {
    temp_dir td;
    std::string bn_zkey = td.file("bn.zkey"), bn_wtns = td.file("bn.wtns"), bn_r1cs = td.file("bn.r1cs");
    std::string bls_zkey = td.file("bls.zkey"), bls_wtns = td.file("bls.wtns"), bls_r1cs = td.file("bls.r1cs");
    explicit curve_files(std::mt19937_64& rng)
    {
        write_zkey(bn_zkey, random_snarkjs_key<bn254_curve>(rng, 2, 3, 4, 8));
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

TEST_CASE("snarkjs_file_curve reads the curve of each kind of file, or names what it does not know", "[io]")
{
    std::mt19937_64 rng(test::test_seed() + 62);
    curve_files fs(rng);
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
    set_u32(&b[zkey_q_at - 4], 40);   // n8q = 40
    expect_error([&] { curve_of(b); }, {errc::bad_format}, {"x.zkey section 2", "unknown field size 40"});
    b = z;
    set_u32(&b[zkey_q_at - 4], 0xffffffffu);
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
    curve_files fs(rng);
    expect_error([&] { read_zkey(fs.bn_zkey); }, {errc::unsupported},
                 {fs.bn_zkey + ": the key is for bn128, expected bls12381"});
    expect_error([&] { read_zkey<bn254_curve>(fs.bls_zkey); }, {errc::unsupported},
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
    CHECK_NOTHROW(read_zkey<bn254_curve>(fs.bn_zkey));
    CHECK(read_wtns(fs.bls_wtns).size() == 1);
    CHECK(read_r1cs<bn254::fr>(fs.bn_r1cs).n_wires == 4);
}

TEST_CASE("bn128 zkey: hostile headers and points are refused before allocating", "[io]")
{
    std::mt19937_64 rng(test::test_seed() + 64);
    curve_files fs(rng);
    const bytes z = slurp(fs.bn_zkey);
    auto parse = [](const bytes& b) { return parse_zkey_copy<bn254_curve>(b); };
    REQUIRE_NOTHROW(parse(z));
    for (size_t cut = 0; cut < z.size(); cut += (cut < 400 ? 1 : 7))
        expect_error([&] { parse(bytes(z.begin(), z.begin() + long(cut))); }, {errc::bad_format, errc::bad_length},
                     {"k.zkey"});
    const size_t sizes_at = zkey_r_at + 32;   // nVars, nPublic, domainSize
    bytes b = z;
    set_u32(&b[sizes_at], 0xfffffff0u);   // nVars: the point sections cannot hold it
    expect_error([&] { parse(b); }, {errc::bad_length}, {"k.zkey", "section 5"});
    b = z;
    set_u32(&b[sizes_at + 8], 1u << 31);   // domainSize 2^31: section 9 would be 128 GiB
    expect_error([&] { parse(b); }, {errc::bad_length}, {"k.zkey", "section 9"});
    // alpha1's x = q (non-canonical), then y changed (off the curve), then
    // beta2's x.c1 >= q.
    const size_t alpha_at = sizes_at + 12;
    b = z;
    const bytes q = mpz_le(mpz(BN254_Q), 32);
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

// ---- bellperson ---------------------------------------------------------------------------------

TEST_CASE("bellperson vk: layout, round trip and rejections", "[io]")
{
    std::mt19937_64 rng(test::test_seed() + 40);
    temp_dir td;
    auto vk = random_vk(rng, 5);
    vk.alpha_g1 = g1_affine::generator();
    vk.gamma_g2 = g2_affine::generator();
    write_vk(td.file("k.vk"), vk);
    const bytes f = slurp(td.file("k.vk"));
    REQUIRE(f.size() == 868 + 96 * 5);
    CHECK(vk_size(5) == f.size());
    // alpha = G1 generator: x ‖ y big-endian as published; gamma = G2
    // generator: x.c1 then x.c0.
    CHECK(hex(&f[0], 48) == G1_X);
    CHECK(hex(&f[48], 48) == G1_Y);
    CHECK(hex(&f[384], 48) == G2_X1);
    CHECK(hex(&f[432], 48) == G2_X0);
    CHECK(hex(&f[864], 4) == "00000005");   // u32 big-endian
    const auto r = read_vk(td.file("k.vk"));
    CHECK(r.alpha_g1 == vk.alpha_g1);
    CHECK(r.beta_g1 == vk.beta_g1);
    CHECK(r.beta_g2 == vk.beta_g2);
    CHECK(r.gamma_g2 == vk.gamma_g2);
    CHECK(r.delta_g1 == vk.delta_g1);
    CHECK(r.delta_g2 == vk.delta_g2);
    CHECK(r.ic == vk.ic);

    // Every point boundary ± 1, and a stride through the rest (the checked
    // decoding of the points before each cut costs subgroup checks).
    std::vector<size_t> cuts;
    for (size_t b : {size_t(0), size_t(96), size_t(192), size_t(384), size_t(576), size_t(672), size_t(864),
                     size_t(868), size_t(868 + 96), size_t(868 + 4 * 96)})
        for (size_t d : {size_t(0), size_t(1), size_t(2)})
            if (b + d > 0 && b + d - 1 < f.size()) cuts.push_back(b + d - 1);
    for (size_t cut = 5; cut < f.size(); cut += 41) cuts.push_back(cut);
    for (size_t cut : cuts) {
        const bytes t(f.begin(), f.begin() + long(cut));
        expect_error([&] { vk_from_bytes(t, "k.vk"); }, errc::bad_length, {"k.vk"});
    }
    bytes t = f;
    t.push_back(0);
    spit(td.file("long.vk"), t);
    expect_error([&] { read_vk(td.file("long.vk")); }, errc::bad_length, {"long.vk", "1 bytes after"});
    // Identity IC: refused by the writer, rejected by the reader.
    t = f;
    std::fill(t.begin() + 868 + 96, t.begin() + 868 + 192, 0);
    t[868 + 96] = 0x40;
    expect_error([&] { vk_from_bytes(t, "k.vk"); }, errc::unexpected_identity, {"k.vk: vk ic[1]"});
    auto vz = vk;
    vz.ic[2] = g1_affine::identity();
    expect_error([&] { write_vk(td.file("z.vk"), vz); }, errc::invalid_argument, {"ic[2]"});
    // Off-curve, non-canonical, flags, out-of-subgroup.
    t = f;
    t[95] ^= 1;
    expect_error([&] { vk_from_bytes(t, "k.vk"); }, errc::not_on_curve, {"k.vk: vk alpha_g1"});
    t = f;
    t[192] |= 0x1f;
    t[193] = 0xff;   // beta_g2.x.c1 >= p
    expect_error([&] { vk_from_bytes(t, "k.vk"); }, errc::non_canonical, {"vk beta_g2"});
    t = f;
    t[576] |= 0x80;
    expect_error([&] { vk_from_bytes(t, "k.vk"); }, errc::bad_flags, {"vk delta_g1"});
    t = f;
    t[864 + 3] = 200;   // IC length past the end
    expect_error([&] { vk_from_bytes(t, "k.vk"); }, errc::bad_length, {"IC points"});
}

TEST_CASE("bellperson params: the 2136-byte shape, mapped access, round trips", "[io]")
{
    std::mt19937_64 rng(test::test_seed() + 41);
    temp_dir td;
    // bellperson's serialization test circuit: a·b = c with c public, a and b
    // private; 1 + 2 input constraints → domain 4, h = 3 points; A has one,
    // c and a; B only b.
    groth16::proving_key pk;
    pk.conv = groth16::convention::bellperson;
    pk.vk = random_vk(rng, 2);
    pk.num_inputs = 2;
    pk.num_aux = 2;
    pk.domain_size = 4;
    pk.h = g1_run(rng, 3);
    pk.l = g1_run(rng, 2);
    pk.a = g1_run(rng, 3);
    pk.b_g1 = g1_run(rng, 1);
    pk.b_g2 = g2_run(rng, 1);
    write_params(td.file("p.params"), pk);
    const bytes f = slurp(td.file("p.params"));
    CHECK(f.size() == 2136);
    // Layout: vk (1060 bytes), then u32 BE lengths.
    CHECK(hex(&f[1060], 4) == "00000003");
    CHECK(hex(&f[1060 + 4 + 288], 4) == "00000002");
    CHECK(hex(&f[1060 + 4 + 288 + 4 + 192], 4) == "00000003");
    CHECK(hex(&f[2136 - 196 - 100], 4) == "00000001");
    CHECK(hex(&f[2136 - 196], 4) == "00000001");
    bytes enc(96);
    g1_serialize(pk.h[1], std::span<uint8_t, 96>(enc.data(), 96));
    CHECK(bytes(f.begin() + 1064 + 96, f.begin() + 1064 + 192) == enc);

    const mapped_params mp(td.file("p.params"));
    CHECK(mp.count(params_query::h) == 3);
    CHECK(mp.count(params_query::l) == 2);
    CHECK(mp.count(params_query::a) == 3);
    CHECK(mp.count(params_query::b_g1) == 1);
    CHECK(mp.count(params_query::b_g2) == 1);
    CHECK(mp.offset(params_query::h) == 1064);
    CHECK(mp.offset(params_query::l) == 1064 + 288 + 4);
    CHECK(mp.offset(params_query::b_g2) == 2136 - 192);
    CHECK(mp.raw(params_query::b_g2).size() == 192);
    CHECK(mp.trailing_bytes() == 0);
    CHECK(mp.vk().ic == pk.vk.ic);
    std::vector<g1_affine> two(2);
    mp.decode_g1(params_query::a, 1, two, 1);
    CHECK(two[0] == pk.a[1]);
    CHECK(two[1] == pk.a[2]);
    expect_error([&] { mp.decode_g1(params_query::a, 2, two, 1); }, errc::invalid_argument, {"a range [2, 4)"});
    expect_error([&] { (void)mp.decode_g1(params_query::b_g2); }, errc::invalid_argument);
    const auto back = mp.to_proving_key();
    check_same_key(back, pk);
    const auto back2 = read_params(td.file("p.params"), subgroup_check::check, 2);
    check_same_key(back2, pk);

    // Trailing data (a phase-2 transcript) is allowed and ignored.
    bytes t = f;
    t.insert(t.end(), 100, 0xab);
    spit(td.file("t.params"), t);
    CHECK(mapped_params(td.file("t.params")).trailing_bytes() == 100);

    // Writer refusals.
    auto bad = pk;
    bad.a[1] = g1_affine::identity();
    expect_error([&] { write_params(td.file("x.params"), bad); }, errc::invalid_argument, {"a[1]", "infinity"});
    bad = pk;
    bad.conv = groth16::convention::snarkjs;
    expect_error([&] { write_params(td.file("x.params"), bad); }, errc::invalid_argument, {"snarkjs"});

    // Larger vectors, decoded with several threads and in ranges.
    groth16::proving_key big = pk;
    big.domain_size = 8192;
    big.h = g1_run(rng, 8191);
    big.l = g1_run(rng, 3000);
    big.num_aux = 3000;
    big.b_g2 = g2_run(rng, 1500);
    write_params(td.file("big.params"), big);
    const mapped_params mb(td.file("big.params"));
    check_same_key(mb.to_proving_key(4), big);
    std::vector<g1_affine> part(5000);
    mb.decode_g1(params_query::h, 3000, part, 3);
    CHECK(std::equal(part.begin(), part.end(), big.h.begin() + 3000));
    std::vector<g2_affine> part2(700);
    mb.decode_g2(800, part2, 2);
    CHECK(std::equal(part2.begin(), part2.end(), big.b_g2.begin() + 800));
}

TEST_CASE("bellperson params: malformed files", "[io]")
{
    std::mt19937_64 rng(test::test_seed() + 42);
    temp_dir td;
    groth16::proving_key pk;
    pk.conv = groth16::convention::bellperson;
    pk.vk = random_vk(rng, 2);
    pk.num_inputs = 2;
    pk.num_aux = 2;
    pk.domain_size = 8;
    pk.h = g1_run(rng, 7);
    pk.l = g1_run(rng, 2);
    pk.a = g1_run(rng, 3);
    pk.b_g1 = g1_run(rng, 2);
    pk.b_g2 = g2_run(rng, 2);
    write_params(td.file("p.params"), pk);
    const bytes f = slurp(td.file("p.params"));
    // Truncations: the constructor (vk and lengths) or the decoders fail,
    // never read past the map.
    const size_t lens[] = {1060, 1060 + 4 + 7 * 96, 1060 + 8 + 9 * 96, 1060 + 12 + 12 * 96, 1060 + 16 + 14 * 96};
    std::vector<size_t> cuts;
    for (size_t b : lens)
        for (size_t d = 0; d < 6; ++d) cuts.push_back(b + d - 1);
    for (size_t cut = 0; cut < f.size(); cut += 29) cuts.push_back(cut);
    cuts.push_back(f.size() - 1);
    for (size_t cut : cuts) {
        spit(td.file("cut.params"), bytes(f.begin(), f.begin() + long(cut)));
        INFO("cut at " << cut);
        expect_error([&] { read_params(td.file("cut.params")); }, errc::bad_length, {"cut.params"});
    }
    const size_t h0 = 1060 + 4, l0 = h0 + 7 * 96 + 4, b2 = f.size() - 2 * 192;
    auto with = [&](size_t off, std::initializer_list<uint8_t> b) {
        bytes t = f;
        std::copy(b.begin(), b.end(), t.begin() + long(off));
        spit(td.file("bad.params"), t);
        return td.file("bad.params");
    };
    // Identity in h: the map opens (h is not decoded yet), decoding h fails.
    {
        bytes t = f;
        std::fill(t.begin() + long(h0 + 5 * 96), t.begin() + long(h0 + 6 * 96), 0);
        t[h0 + 5 * 96] = 0x40;
        spit(td.file("id.params"), t);
        const mapped_params mp(td.file("id.params"));
        CHECK_NOTHROW(mp.decode_g1(params_query::l));
        expect_error([&] { (void)mp.decode_g1(params_query::h, 2); }, errc::unexpected_identity,
                     {"id.params: h[5]", "infinity"});
    }
    expect_error([&] { read_params(with(l0 + 96 + 95, {0x00})); }, errc::not_on_curve, {"bad.params: l[1]"});
    expect_error([&] { read_params(with(b2 + 192, {0x1f, 0xff, 0xff})); }, errc::non_canonical, {"b_g2[1]"});
    expect_error([&] { read_params(with(h0, {0xa0})); }, errc::bad_flags, {"h[0]"});
    expect_error([&] { read_params(with(h0 - 4, {0, 0, 0, 8})); }, errc::bad_length, {"bad.params"});
    expect_error([&] { read_params(with(h0 - 4, {0xff, 0xff, 0xff, 0xff})); }, errc::bad_length, {"h points"});
    // h of 6 points: domain size 7 is not a power of two.
    {
        bytes t(f.begin(), f.begin() + long(h0 - 4));
        t.insert(t.end(), {0, 0, 0, 6});
        t.insert(t.end(), f.begin() + long(h0), f.begin() + long(h0 + 6 * 96));
        t.insert(t.end(), f.begin() + long(h0 + 7 * 96), f.end());
        spit(td.file("h6.params"), t);
        const mapped_params mp(td.file("h6.params"));
        CHECK(mp.count(params_query::h) == 6);
        expect_error([&] { (void)mp.to_proving_key(); }, errc::bad_format, {"power of two"});
    }
    // Out of the subgroup: accepted unchecked (Filecoin's mode), rejected checked.
    {
        fp xx = fp::from_u64(3);
        g1_affine p;
        for (;;) {
            fp y;
            if ((xx.sqr() * xx + g1_curve::b()).sqrt(y)) {
                p = {xx, y};
                break;
            }
            xx += fp::one();
        }
        REQUIRE_FALSE(in_subgroup(p));
        bytes t = f;
        g1_serialize(p, std::span<uint8_t, 96>(t.data() + l0, 96));
        spit(td.file("sg.params"), t);
        CHECK_NOTHROW(read_params(td.file("sg.params"), subgroup_check::skip));
        expect_error([&] { read_params(td.file("sg.params"), subgroup_check::check); }, errc::not_in_subgroup,
                     {"l[0]"});
        // The verifying key is always checked.
        bytes v = f;
        g1_serialize(p, std::span<uint8_t, 96>(v.data() + 96, 96));
        spit(td.file("sgv.params"), v);
        expect_error([&] { mapped_params m(td.file("sgv.params")); }, errc::not_in_subgroup, {"vk beta_g1"});
    }
    expect_error([&] { mapped_params m(td.file("none.params")); }, errc::io, {"none.params"});
}

TEST_CASE("192-byte proofs: layout, round trip and rejections", "[io]")
{
    std::mt19937_64 rng(test::test_seed() + 43);
    for (int it = 0; it < 4; ++it) {
        const groth16::proof p{random_g1(rng), random_g2(rng), random_g1(rng)};
        uint8_t b[192];
        proof_to_bytes(p, b);
        CHECK((b[0] & 0xc0) == 0x80);
        CHECK((b[48] & 0xc0) == 0x80);
        CHECK((b[144] & 0xc0) == 0x80);
        // The S bit says whether y > (p − 1)/2 (checked with GMP).
        mpz y = test::to_mpz(p.a.y.to_repr()), half(Q_DEC);
        mpz_sub_ui(half.v, half.v, 1);
        mpz_fdiv_q_2exp(half.v, half.v, 1);
        CHECK(bool(b[0] & 0x20) == (mpz_cmp(y.v, half.v) > 0));
        // x of A as big-endian bytes.
        bytes xa(48);
        p.a.x.to_bytes_be(xa.data());
        xa[0] |= b[0] & 0xe0;
        CHECK(bytes(b, b + 48) == xa);
        const auto q = proof_from_bytes(b);
        CHECK(q.a == p.a);
        CHECK(q.b == p.b);
        CHECK(q.c == p.c);
    }
    const groth16::proof g{g1_affine::generator(), g2_affine::generator(), g1_affine::generator()};
    uint8_t b[192];
    proof_to_bytes(g, b);
    CHECK(hex(b, 48) == "97" + std::string(G1_X).substr(2));
    CHECK(hex(b + 48, 48).substr(2) == std::string(G2_X1).substr(2));
    CHECK(hex(b + 96, 48) == G2_X0);

    std::vector<uint8_t> many(3 * 192);
    std::vector<groth16::proof> ps;
    for (int i = 0; i < 3; ++i) {
        ps.push_back({random_g1(rng), random_g2(rng), random_g1(rng)});
        proof_to_bytes(ps.back(), std::span<uint8_t, 192>(many.data() + 192 * i, 192));
    }
    const auto back = proofs_from_bytes(many, 2);
    REQUIRE(back.size() == 3);
    CHECK(back[2].b == ps[2].b);
    many[192 + 144] ^= 0x20;   // flip the sign of proof 1's C: still valid, different point
    CHECK(proofs_from_bytes(many)[1].c == -ps[1].c);
    many[192 + 48] &= 0x7f;   // proof 1's B without the compression flag
    expect_error([&] { proofs_from_bytes(many); }, errc::bad_flags, {"proof 1", "proof B"});
    expect_error([&] { proofs_from_bytes(std::span<const uint8_t>(many.data(), 200)); }, errc::bad_length);
    // A Filecoin multi-partition proof names the partition.
    expect_error([&] { partition_proofs_from_bytes(many); }, errc::bad_flags, {"partition 1: ", "proof B"});
    CHECK(partition_proofs_from_bytes(std::span<const uint8_t>(many.data(), 192)).size() == 1);

    expect_error([&] { proof_from_bytes(std::span<const uint8_t>(b, 191)); }, errc::bad_length, {"191"});
    const groth16::proof z{g1_affine::identity(), g2_affine::generator(), g1_affine::generator()};
    proof_to_bytes(z, b);
    CHECK(b[0] == 0xc0);
    expect_error([&] { proof_from_bytes(b); }, errc::unexpected_identity, {"proof A"});
    proof_to_bytes(g, b);
    b[150] ^= 0x55;   // C's x: almost surely no point, or off the subgroup
    expect_error([&] { proof_from_bytes(b); }, {errc::no_square_root, errc::not_in_subgroup}, {"proof C"});
}

TEST_CASE("random corruption never crashes a reader", "[io]")
{
    // Flip 1–3 random bytes (or cut, or extend) and parse: the outcome is a
    // value or a cuzk::error; anything else (another exception, a crash, an
    // AddressSanitizer report) fails the test.
    std::mt19937_64 rng(test::test_seed() + 50);
    temp_dir td;
    const auto pk = random_snarkjs_key(rng, 3, 5, 6, 12);
    write_zkey(td.file("k.zkey"), pk);
    const bytes zk = slurp(td.file("k.zkey"));
    std::vector<fr> w(9, fr::one());
    write_wtns(td.file("w.wtns"), w);
    const bytes wt = slurp(td.file("w.wtns"));
    r1cs_file rf;
    rf.n_wires = 6;
    rf.n_constraints = 3;
    rf.constraints.resize(3);
    for (auto& c : rf.constraints)
        for (auto& lc : c) lc = {{uint32_t(rng() % 6), fr::random(rng)}, {uint32_t(rng() % 6), fr::random(rng)}};
    rf.wire_to_label = {0, 1, 2, 3, 4, 5};
    write_r1cs(td.file("c.r1cs"), rf);
    const bytes rc = slurp(td.file("c.r1cs"));
    const bytes vk = vk_to_bytes(random_vk(rng, 3));

    auto mutate = [&](bytes b) {
        switch (rng() % 4) {
        case 0: b.resize(size_t(rng() % (b.size() + 1))); break;
        case 1: b.push_back(uint8_t(rng())); break;
        default:
            for (int k = 0, n = 1 + int(rng() % 3); k < n && !b.empty(); ++k) {
                // Bias toward the headers, where lengths live.
                const size_t pos = (rng() % 2) ? size_t(rng() % std::min<size_t>(b.size(), 64)) : size_t(rng() % b.size());
                b[pos] ^= uint8_t(1u << (rng() % 8));
            }
        }
        return b;
    };
    int errors = 0, ok = 0;
    for (int it = 0; it < 300; ++it) {
        try {
            (void)parse_zkey_copy(mutate(zk));
            ++ok;
        } catch (const cuzk::error&) {
            ++errors;
        }
        try {
            (void)parse_wtns_copy(mutate(wt));
            ++ok;
        } catch (const cuzk::error&) {
            ++errors;
        }
        try {
            (void)parse_r1cs_copy(mutate(rc));
            ++ok;
        } catch (const cuzk::error&) {
            ++errors;
        }
        try {
            const bytes m = mutate(vk);
            (void)vk_from_bytes(m, "m.vk");
            ++ok;
        } catch (const cuzk::error&) {
            ++errors;
        }
    }
    CHECK(errors > 0);
    CHECK(ok + errors == 1200);
}

TEST_CASE("a circom r1cs records into a PCE that evaluates its constraints", "[io]")
{
    // x·x = y, y·x + 2 = z with public output z: wires 0 = ONE, 1 = z, 2 = x, 3 = y.
    using cuzk::fr;
    cuzk::io::r1cs_file r;
    r.n_wires = 4;
    r.n_pub_out = 1;
    r.n_constraints = 2;
    r.constraints.resize(2);
    r.constraints[0] = {cuzk::io::r1cs_lc{{2, fr::one()}}, cuzk::io::r1cs_lc{{2, fr::one()}},
                        cuzk::io::r1cs_lc{{3, fr::one()}}};
    r.constraints[1] = {cuzk::io::r1cs_lc{{3, fr::one()}}, cuzk::io::r1cs_lc{{2, fr::one()}},
                        cuzk::io::r1cs_lc{{1, fr::one()}, {0, -fr::from_u64(2)}}};
    const cuzk::r1cs::pce p = cuzk::io::r1cs_to_pce(r);
    CHECK(p.num_inputs == 2);
    CHECK(p.num_aux == 2);
    CHECK(p.num_constraints == 2);
    const fr x = fr::from_u64(5), y = x * x, z = y * x + fr::from_u64(2);
    const std::vector<fr> inputs{fr::one(), z}, aux{x, y};
    CHECK_FALSE(cuzk::r1cs::first_unsatisfied(p, inputs, aux).has_value());
    const std::vector<fr> bad_inputs{fr::one(), z + fr::one()};
    CHECK(cuzk::r1cs::first_unsatisfied(p, bad_inputs, aux) == std::optional<size_t>(1));
}

TEST_CASE("an r1cs with 2^32 - 1 wires records into a PCE with full-size density maps", "[io]")
{
    // num_aux = 2^32 − 2: the bitmap word count (num_aux + 63)/64 must not be
    // computed in 32 bits (it wrapped to 0 and the loop wrote past the map).
    using cuzk::fr;
    cuzk::io::r1cs_file r;
    r.n_wires = 0xFFFF'FFFFu;
    r.n_constraints = 1;
    r.constraints.resize(1);
    const uint32_t top = 0xFFFF'FFFEu;
    r.constraints[0] = {cuzk::io::r1cs_lc{{top, fr::one()}}, cuzk::io::r1cs_lc{{top, fr::one()}},
                        cuzk::io::r1cs_lc{{top, fr::one()}}};
    const cuzk::r1cs::pce p = cuzk::io::r1cs_to_pce(r);
    REQUIRE(p.num_aux == 0xFFFF'FFFEu);
    CHECK(p.a_aux_density.words.size() == size_t(0xFFFF'FFFEull + 63) / 64);
    CHECK(p.a_aux_density.test(top - 1));
    CHECK(p.b_aux_density.test(top - 1));
    CHECK_FALSE(p.a_aux_density.test(0));
    CHECK(p.a_aux_density.popcount == 1);
}

TEST_CASE("counts in a file are checked against its bytes before anything is allocated", "[io]")
{
    const bytes r = dec_le(R_DEC, 32);
    bytes one(32, 0);
    one[0] = 1;
    // A 340-byte-class r1cs: one constraint, no wire map, nWires = 2^28.
    auto r1cs_with = [&](uint32_t n_wires, bool with_map) {
        container c{"r1cs", 1, {}};
        bytes s1, s2;
        put_u32(s1, 32);
        s1.insert(s1.end(), r.begin(), r.end());
        for (uint32_t v : {n_wires, 1u, 0u, 0u}) put_u32(s1, v);
        put_u64(s1, n_wires);
        put_u32(s1, 1);
        for (int m = 0; m < 3; ++m) {
            put_u32(s2, 1);
            put_u32(s2, 1);
            s2.insert(s2.end(), one.begin(), one.end());
        }
        c.sections = {{1, s1}, {2, s2}};
        if (with_map) {
            bytes s3;
            for (uint32_t w = 0; w < n_wires; ++w) put_u64(s3, w);
            c.sections.push_back({3, s3});
        }
        return join(c);
    };
    const bytes big = r1cs_with(1u << 28, false);
    CHECK(big.size() < 400);
    expect_error([&] { parse_r1cs_copy(big); }, errc::bad_length, {"nWires", "268435456"});
    // Wires backed by the terms, or by a wire map: accepted.
    CHECK(parse_r1cs_copy(r1cs_with(2, false)).n_wires == 2);
    CHECK(parse_r1cs_copy(r1cs_with(40, true)).n_wires == 40);
    expect_error([&] { parse_r1cs_copy(r1cs_with(40, false)); }, errc::bad_length, {"nWires"});

    // wtns: nWitness beyond section 2.
    {
        container c{"wtns", 2, {}};
        bytes s1, s2(64, 0);
        put_u32(s1, 32);
        s1.insert(s1.end(), r.begin(), r.end());
        put_u32(s1, 1u << 30);
        c.sections = {{1, s1}, {2, s2}};
        expect_error([&] { parse_wtns_copy(join(c)); }, errc::bad_length, {"witness"});
    }
    // bellperson vk: an IC count past the end.
    {
        std::mt19937_64 rng(5);
        bytes vk = vk_to_bytes(random_vk(rng, 2));
        const size_t at = vk.size() - 2 * 96 - 4;
        vk[at] = 0x7f;
        expect_error([&] { vk_from_bytes(vk, "x.vk"); }, errc::bad_length, {"IC"});
    }
}

TEST_CASE("only regular files are opened: FIFOs and devices are refused by name", "[io]")
{
    temp_dir td;
    const std::string fifo = td.file("pipe.json");
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    // Opening a FIFO for reading blocks until a writer comes; the readers
    // must refuse it without blocking.
    expect_error([&] { mapped_file f(fifo); }, errc::io, {"pipe.json", "FIFO"});
    expect_error([&] { read_text_file(fifo); }, errc::io, {"pipe.json", "FIFO"});
    expect_error([&] { read_wtns(fifo); }, errc::io, {"FIFO"});
    // /dev/zero never ends: a text reader without a limit would eat memory.
    expect_error([&] { read_text_file("/dev/zero"); }, errc::io, {"/dev/zero", "character device"});
    expect_error([&] { mapped_file f("/dev/zero"); }, errc::io, {"character device"});
    expect_error([&] { read_text_file(td.path.string()); }, errc::io, {"directory"});
    // An ordinary file still reads.
    write_text_file(td.file("a.txt"), "hello");
    CHECK(read_text_file(td.file("a.txt")) == "hello");
}

// ---- output_file: a failed write never destroys what it would replace ----------------------

namespace {
std::string slurp_text(const std::string& p)
{
    std::ifstream f(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
}
size_t temp_files(const std::filesystem::path& dir)
{
    size_t n = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir))
        n += e.path().filename().string().find(".cuzk-tmp-") != std::string::npos;
    return n;
}
} // namespace

TEST_CASE("output_file: written in place only when complete; other kinds of path refused", "[io]")
{
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("cuzk-output-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string file = (dir / "out.bin").string();
    io::write_text_file(file, "old contents");
    ::chmod(file.c_str(), 0640);
    {
        io::output_file out(file);
        out.write("new", 3);
        CHECK(slurp_text(file) == "old contents");   // not in place before close()
        out.close();
    }
    CHECK(slurp_text(file) == "new");
    struct stat st {};
    REQUIRE(::stat(file.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0640);   // the permissions of the file it replaced
    {   // abandoned (an exception in the writer): the old file stays, the temporary goes
        io::output_file out(file);
        out.write("partial", 7);
    }
    CHECK(slurp_text(file) == "new");
    CHECK(temp_files(dir) == 0);
    SECTION("a write that fails (the file size limit) leaves the old file")
    {
        struct sigaction ign {}, old_sa {};
        ign.sa_handler = SIG_IGN;
        ::sigaction(SIGXFSZ, &ign, &old_sa);
        rlimit old_lim {};
        ::getrlimit(RLIMIT_FSIZE, &old_lim);
        rlimit lim = old_lim;
        lim.rlim_cur = 1 << 20;
        ::setrlimit(RLIMIT_FSIZE, &lim);
        std::string what;
        try {
            io::output_file out(file);
            const std::vector<uint8_t> big(size_t{3} << 20, 7);
            out.write(big);
            out.close();
        } catch (const error& e) {
            what = e.what();
        }
        ::setrlimit(RLIMIT_FSIZE, &old_lim);
        ::sigaction(SIGXFSZ, &old_sa, nullptr);
        CHECK(what.find(file) != std::string::npos);
        CHECK(slurp_text(file) == "new");
        CHECK(temp_files(dir) == 0);
    }
    SECTION("a FIFO, a directory and a device are refused by name and left alone")
    {
        const std::string fifo = (dir / "fifo").string(), sub = (dir / "sub").string(), dev = (dir / "full").string();
        REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
        fs::create_directories(sub);
        const bool have_dev = ::mknod(dev.c_str(), S_IFCHR | 0600, makedev(1, 7)) == 0;   // /dev/full, where allowed
        std::vector<std::string> paths{fifo, sub};
        if (have_dev) paths.push_back(dev);
        for (const std::string& p : paths) {
            INFO(p);
            std::string what;
            try {
                io::output_file out(p);
            } catch (const error& e) {
                CHECK(e.code() == errc::invalid_argument);
                what = e.what();
            }
            CHECK(what.find(p + ": exists and is not a regular file") != std::string::npos);
        }
        struct stat s1 {};
        CHECK((::stat(fifo.c_str(), &s1) == 0 && S_ISFIFO(s1.st_mode)));
        CHECK(fs::is_directory(sub));
        if (have_dev) CHECK((::stat(dev.c_str(), &s1) == 0 && S_ISCHR(s1.st_mode)));
        CHECK(temp_files(dir) == 0);
    }
    SECTION("a symbolic link is kept and its target replaced")
    {
        const std::string link = (dir / "link.bin").string();
        fs::create_symlink(file, link);
        io::write_text_file(link, "through the link");
        CHECK(fs::is_symlink(link));
        CHECK(slurp_text(file) == "through the link");
    }
    SECTION("a folder that cannot be written: errc::io naming the file, nothing changed")
    {
        if (::geteuid() != 0) {   // root writes anywhere
            const std::string ro = (dir / "ro").string();
            fs::create_directories(ro);
            io::write_text_file(ro + "/x", "x");
            ::chmod(ro.c_str(), 0500);
            CHECK_THROWS_AS(io::write_text_file(ro + "/x", "y"), error);
            ::chmod(ro.c_str(), 0700);
            CHECK(slurp_text(ro + "/x") == "x");
        }
    }
    fs::remove_all(dir);
}
