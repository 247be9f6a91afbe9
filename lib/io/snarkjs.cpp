// snarkjs / circom binary files: .zkey, .wtns, .r1cs (see include/cuzk/io/snarkjs.hpp).
#include "cuzk/io/snarkjs.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "cuzk/ec/subgroup.hpp"
#include "cuzk/error.hpp"
#include "cuzk/io/binfile.hpp"
#include "cuzk/io/decimal.hpp"
#include "cuzk/io/mapped_file.hpp"
#include "cuzk/util/parallel.hpp"

namespace cuzk::io {

namespace {

constexpr size_t fq_bytes = 48;   // n8q
constexpr size_t fr_bytes = 32;   // n8r
constexpr size_t coef_entry = 12 + fr_bytes;

// Known primes, to turn "wrong q" into a helpful message.
constexpr const char* bn254_q = "21888242871839275222246405745257275088696311157297823662689037894645226208583";
constexpr const char* bn254_r = "21888242871839275222246405745257275088548364400416034343698204186575808495617";

template <size_t N>
bigint<N> load_le(const uint8_t* in)
{
    bigint<N> v = bigint<N>::zero();
    for (size_t i = 0; i < 8 * N; ++i) v.l[i / 8] |= uint64_t(in[i]) << (8 * (i % 8));
    return v;
}
template <size_t N>
void store_le(const bigint<N>& v, uint8_t* out)
{
    for (size_t i = 0; i < 8 * N; ++i) out[i] = uint8_t(v.l[i / 8] >> (8 * (i % 8)));
}

// "q = 2188…583 (bn128)" for a little-endian prime of any byte length.
std::string describe_prime(std::span<const uint8_t> le)
{
    if (le.size() > 64) return fmt::format("a {}-byte prime", le.size());
    uint8_t buf[64] = {};
    std::memcpy(buf, le.data(), le.size());
    const std::string dec = to_decimal(load_le<8>(buf));
    if (dec == bn254_q || dec == bn254_r) return dec + " (bn128)";
    return dec;
}

[[noreturn]] void curve_unsupported(const std::string& name, const char* which, std::span<const uint8_t> prime)
{
    throw error(errc::unsupported, fmt::format("{}: curve not supported: {} = {}; cuzk reads BLS12-381 files only "
                                               "(compile with circom --prime bls12381, snarkjs curve bls12381)",
                                               name, which, describe_prime(prime)));
}

// Checks "u32 n8; prime (n8 bytes LE)" against the expected modulus.
template <size_t N>
void check_prime(byte_reader& r, const std::string& name, const char* which, const bigint<N>& expected)
{
    const uint32_t n8 = r.u32_le(fmt::format("{} byte length", which));
    if (n8 > 64 && n8 != 8 * N)
        r.fail(errc::bad_format, fmt::format("implausible field size {} for {}", n8, which));
    const auto prime = r.bytes(n8, which);
    if (n8 != 8 * N || load_le<N>(prime.data()) != expected) curve_unsupported(name, which, prime);
}

bool all_zero(const uint8_t* p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; ++i) acc |= p[i];
    return acc == 0;
}

// A 48-byte LE Montgomery coordinate: the stored integer is x·R mod q with
// R = 2^384, exactly cuzk's Montgomery limbs, so it only needs the < q check.
bool fp_from_lem(const uint8_t* in, fp& out)
{
    const auto v = load_le<6>(in);
    if (!fp::is_canonical(v)) return false;
    out = fp::from_mont(v);
    return true;
}
void fp_to_lem(const fp& a, uint8_t* out) { store_le(a.mont(), out); }

[[noreturn]] void point_fail(errc code, const std::string& what, const std::string& msg)
{
    throw error(code, fmt::format("{}: {}", what, msg));
}

// zkey coefficient: stored s = v·R² mod r. cuzk's fr keeps v·R in its limbs.
// mont_mul(s, 1) = s·R⁻¹ = v·R, i.e. to_repr() of fr::from_mont(s) yields
// exactly the Montgomery limbs of v. The inverse: from_repr(x) = x·R²·R⁻¹ =
// x·R, so from_repr(v's limbs = v·R) has limbs v·R² = s.
fr coef_from_stored(const bigint<4>& s) { return fr::from_mont(fr::from_mont(s).to_repr()); }
bigint<4> coef_to_stored(const fr& v) { return fr::from_repr(v.mont()).mont(); }

// cuzk::parallel_for with at least `grain` elements per worker, so that
// small arrays are decoded on the calling thread.
template <class F>
void for_chunks(size_t n, unsigned threads, size_t grain, F&& f)
{
    const unsigned t = unsigned(std::min<size_t>(resolve_threads(threads), std::max<size_t>(1, n / grain)));
    parallel_for(t, n, [&](size_t b, size_t e, unsigned) { f(b, e); });
}

bool is_pow2(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

template <class Pt, size_t SZ, class Dec>
std::vector<Pt> decode_section(std::span<const uint8_t> body, size_t count, unsigned threads, Dec&& dec)
{
    std::vector<Pt> out(count);
    for_chunks(count, threads, 4096, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) out[i] = dec(std::span<const uint8_t, SZ>(body.data() + i * SZ, SZ), i);
    });
    return out;
}

template <class Pt, size_t SZ, class Enc>
void write_points(binfile_writer& w, const std::vector<Pt>& pts, Enc&& enc)
{
    constexpr size_t chunk = 4096;
    std::vector<uint8_t> buf(chunk * SZ);
    for (size_t i = 0; i < pts.size(); i += chunk) {
        const size_t n = std::min(chunk, pts.size() - i);
        for (size_t j = 0; j < n; ++j) enc(pts[i + j], std::span<uint8_t, SZ>(buf.data() + j * SZ, SZ));
        w.write(buf.data(), n * SZ);
    }
}

} // namespace

// ---- LEM points ---------------------------------------------------------------------------

namespace {

// The decoders proper; `what` is a callable giving the location text, called
// only on failure (they run once per point of large keys).
template <class What>
g1_affine g1_lem_decode(const uint8_t* in, subgroup_check chk, What&& what)
{
    if (all_zero(in, 96)) return g1_affine::identity();
    g1_affine p;
    if (!fp_from_lem(in, p.x)) point_fail(errc::non_canonical, what(), "x coordinate is >= q");
    if (!fp_from_lem(in + fq_bytes, p.y)) point_fail(errc::non_canonical, what(), "y coordinate is >= q");
    if (!p.is_on_curve()) point_fail(errc::not_on_curve, what(), "point is not on the curve");
    if (chk == subgroup_check::check && !in_subgroup_fast(p))
        point_fail(errc::not_in_subgroup, what(), "point is not in the prime-order subgroup");
    return p;
}

template <class What>
g2_affine g2_lem_decode(const uint8_t* in, subgroup_check chk, What&& what)
{
    if (all_zero(in, 192)) return g2_affine::identity();
    g2_affine p;
    static constexpr const char* names[4] = {"x.c0", "x.c1", "y.c0", "y.c1"};
    fp* dst[4] = {&p.x.c0, &p.x.c1, &p.y.c0, &p.y.c1};
    for (int k = 0; k < 4; ++k)
        if (!fp_from_lem(in + k * fq_bytes, *dst[k]))
            point_fail(errc::non_canonical, what(), fmt::format("{} coordinate is >= q", names[k]));
    if (!p.is_on_curve()) point_fail(errc::not_on_curve, what(), "point is not on the curve");
    if (chk == subgroup_check::check && !in_subgroup_fast(p))
        point_fail(errc::not_in_subgroup, what(), "point is not in the prime-order subgroup");
    return p;
}

} // namespace

void g1_to_lem(const g1_affine& p, std::span<uint8_t, 96> out)
{
    fp_to_lem(p.x, out.data());
    fp_to_lem(p.y, out.data() + fq_bytes);
}

void g2_to_lem(const g2_affine& p, std::span<uint8_t, 192> out)
{
    fp_to_lem(p.x.c0, out.data());
    fp_to_lem(p.x.c1, out.data() + fq_bytes);
    fp_to_lem(p.y.c0, out.data() + 2 * fq_bytes);
    fp_to_lem(p.y.c1, out.data() + 3 * fq_bytes);
}

g1_affine g1_from_lem(std::span<const uint8_t, 96> in, subgroup_check chk, const std::string& what)
{
    return g1_lem_decode(in.data(), chk, [&] { return what; });
}

g2_affine g2_from_lem(std::span<const uint8_t, 192> in, subgroup_check chk, const std::string& what)
{
    return g2_lem_decode(in.data(), chk, [&] { return what; });
}

// ---- .zkey ----------------------------------------------------------------------------------

zkey read_zkey(const std::string& path, const zkey_read_options& opt)
{
    mapped_file f(path);
    f.advise_sequential();
    return parse_zkey(f.bytes(), path, opt);
}

namespace {

// Section 1: the protocol, Groth16 only.
void read_zkey_protocol(const binfile& bf, const std::string& name)
{
    auto r = bf.reader(1, "header");
    const uint32_t protocol = r.u32_le("protocol id");
    if (protocol != 1) {
        const char* pname = protocol == 2 ? "PLONK" : protocol == 10 ? "FFLONK" : "unknown";
        throw error(errc::unsupported, fmt::format("{}: protocol {} ({}) is not supported; cuzk reads Groth16 "
                                                   "zkeys (protocol 1)",
                                                   name, protocol, pname));
    }
    r.expect_end("header");
}

// Section 2: curve, sizes, verifying key.
void read_groth16_header(const binfile& bf, const std::string& name, zkey& z)
{
    auto& pk = z.pk;
    const std::string s2 = fmt::format("{} section 2 (Groth16 header)", name);
    auto r = bf.reader(2, "Groth16 header");
    check_prime(r, name, "q", fp_params::modulus);
    check_prime(r, name, "r", fr_params::modulus);
    z.n_vars = r.u32_le("nVars");
    z.n_public = r.u32_le("nPublic");
    const uint32_t domain = r.u32_le("domainSize");
    if (uint64_t(z.n_public) + 1 > z.n_vars)
        r.fail(errc::bad_format, fmt::format("nPublic = {} needs at least {} variables, nVars = {}", z.n_public,
                                             uint64_t(z.n_public) + 1, z.n_vars));
    if (!is_pow2(domain)) r.fail(errc::bad_format, fmt::format("domainSize = {} is not a power of two", domain));
    pk.num_inputs = z.n_public + 1;
    pk.num_aux = z.n_vars - z.n_public - 1;
    pk.domain_size = domain;
    // The verifying key's points are few and reach the verifier: always
    // checked in the subgroup, whatever opt.check says for the big sections.
    auto g1 = [&](const char* what) {
        return g1_from_lem(r.bytes(96, what).subspan<0, 96>(), subgroup_check::check, s2 + " " + what);
    };
    auto g2 = [&](const char* what) {
        return g2_from_lem(r.bytes(192, what).subspan<0, 192>(), subgroup_check::check, s2 + " " + what);
    };
    pk.vk.alpha_g1 = g1("alpha1");
    pk.vk.beta_g1 = g1("beta1");
    pk.vk.beta_g2 = g2("beta2");
    pk.vk.gamma_g2 = g2("gamma2");
    pk.vk.delta_g1 = g1("delta1");
    pk.vk.delta_g2 = g2("delta2");
    r.expect_end("Groth16 header");
}

// A section of `count` G1 points.
std::vector<g1_affine> read_g1_section(const binfile& bf, const std::string& name, uint32_t id, const char* sname,
                                       size_t count, subgroup_check chk, unsigned threads)
{
    const auto body = bf.section(id, sname);
    return decode_section<g1_affine, 96>(body, count, threads, [&](std::span<const uint8_t, 96> b, size_t i) {
        return g1_lem_decode(b.data(), chk,
                             [&] { return fmt::format("{} section {} ({}) point {}", name, id, sname, i); });
    });
}

// Section 7: B's G2 points.
std::vector<g2_affine> read_g2_section(const binfile& bf, const std::string& name, size_t count, subgroup_check chk,
                                       unsigned threads)
{
    const auto body = bf.section(7, "PointsB2");
    return decode_section<g2_affine, 192>(body, count, threads, [&](std::span<const uint8_t, 192> b, size_t i) {
        return g2_lem_decode(b.data(), chk, [&] { return fmt::format("{} section 7 (PointsB2) point {}", name, i); });
    });
}

// One 44-byte entry of section 4: matrix, constraint, signal (u32 LE each)
// and the stored coefficient, each checked against the header's sizes.
void decode_coef(const uint8_t* p, size_t i, const std::string& name, uint64_t domain, uint64_t n_vars,
                 groth16::sparse_coef& c)
{
    auto u32 = [&](size_t o) {
        return uint32_t(p[o]) | uint32_t(p[o + 1]) << 8 | uint32_t(p[o + 2]) << 16 | uint32_t(p[o + 3]) << 24;
    };
    c.matrix = u32(0);
    c.constraint = u32(4);
    c.signal = u32(8);
    const auto where = [&] { return fmt::format("{} section 4 (Coefs) entry {}", name, i); };
    if (c.matrix > 1)
        throw error(errc::bad_format, fmt::format("{}: matrix {} (expected 0 = A or 1 = B)", where(), c.matrix));
    if (c.constraint >= domain)
        throw error(errc::bad_format,
                    fmt::format("{}: constraint {} >= domainSize {}", where(), c.constraint, domain));
    if (c.signal >= n_vars)
        throw error(errc::bad_format, fmt::format("{}: signal {} >= nVars {}", where(), c.signal, n_vars));
    const auto s = load_le<4>(p + 12);
    if (!fr::is_canonical(s)) throw error(errc::non_canonical, fmt::format("{}: coefficient is >= r", where()));
    c.value = coef_from_stored(s);
}

// The input constraints: A-entry 1 on signal s in row n_constraints + s,
// s = 0..nPublic; they are the last rows, so the largest row index is
// n_constraints + nPublic. Sets pk.n_constraints from them.
void check_input_constraints(const std::string& name, zkey& z)
{
    auto& pk = z.pk;
    const uint64_t n_pub1 = uint64_t(z.n_public) + 1;
    uint64_t max_row = 0;
    for (const auto& c : pk.coefs) max_row = std::max<uint64_t>(max_row, c.constraint);
    if (pk.coefs.empty() || max_row < z.n_public)
        throw error(errc::bad_format,
                    fmt::format("{} section 4 (Coefs): the {} input constraints are missing", name, n_pub1));
    pk.n_constraints = uint32_t(max_row - z.n_public);
    std::vector<uint8_t> seen(size_t(n_pub1), 0);
    for (const auto& c : pk.coefs)
        if (c.matrix == 0 && c.constraint >= pk.n_constraints && c.signal == c.constraint - pk.n_constraints &&
            c.value.is_one())
            seen[c.signal] = 1;
    for (size_t s = 0; s < seen.size(); ++s)
        if (!seen[s])
            throw error(errc::bad_format,
                        fmt::format("{} section 4 (Coefs): missing the input constraint for signal {} (an A "
                                    "coefficient 1 in row {})",
                                    name, s, pk.n_constraints + s));
}

// Section 4: the A and B matrices.
void read_coefs(const binfile& bf, const std::string& name, unsigned threads, zkey& z)
{
    auto& pk = z.pk;
    auto r = bf.reader(4, "Coefs");
    const uint32_t n = r.u32_le("nCoefs");
    if (r.remaining() != uint64_t(n) * coef_entry)
        r.fail(errc::bad_length, fmt::format("nCoefs = {} needs {} bytes, the section has {}", n,
                                             uint64_t(n) * coef_entry, r.remaining()));
    const auto body = r.bytes(r.remaining(), "coefficients");
    pk.coefs.resize(n);
    const uint64_t domain = pk.domain_size, n_vars = z.n_vars;
    for_chunks(n, threads, 8192, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) decode_coef(body.data() + i * coef_entry, i, name, domain, n_vars, pk.coefs[i]);
    });
    check_input_constraints(name, z);
}

// Section 10 (optional), the MPC contributions: keep the hash, walk the records.
void read_contributions(const binfile& bf, zkey& z)
{
    if (!bf.has(10)) return;
    auto r = bf.reader(10, "Contributions");
    const auto h = r.bytes(64, "csHash");
    std::copy(h.begin(), h.end(), z.cs_hash.begin());
    z.n_contributions = r.u32_le("number of contributions");
    for (uint32_t i = 0; i < z.n_contributions; ++i) {
        r.skip(3 * 96 + 192 + 64 + 4, fmt::format("contribution {}", i));
        const uint32_t plen = r.u32_le(fmt::format("contribution {} parameter length", i));
        r.skip(plen, fmt::format("contribution {} parameters", i));
    }
    r.expect_end("Contributions");
}

} // namespace

zkey parse_zkey(std::span<const uint8_t> data, const std::string& name, const zkey_read_options& opt)
{
    const binfile bf(data, name, "zkey", 1, 2);
    zkey z;
    auto& pk = z.pk;
    pk.conv = groth16::convention::snarkjs;
    read_zkey_protocol(bf, name);
    read_groth16_header(bf, name, z);

    // Sizes of the point sections, checked before anything is allocated.
    const uint64_t n_vars = z.n_vars, n_pub1 = uint64_t(z.n_public) + 1, n_aux = pk.num_aux;
    bf.expect_size(3, "IC", n_pub1 * 96);
    bf.expect_size(5, "PointsA", n_vars * 96);
    bf.expect_size(6, "PointsB1", n_vars * 96);
    bf.expect_size(7, "PointsB2", n_vars * 192);
    bf.expect_size(8, "PointsC", n_aux * 96);
    bf.expect_size(9, "PointsH", pk.domain_size * 96);

    auto g1_section = [&](uint32_t id, const char* sname, size_t count, subgroup_check chk) {
        return read_g1_section(bf, name, id, sname, count, chk, opt.threads);
    };
    pk.vk.ic = g1_section(3, "IC", size_t(n_pub1), subgroup_check::check);   // part of the verifying key
    read_coefs(bf, name, opt.threads, z);
    pk.a = g1_section(5, "PointsA", size_t(n_vars), opt.check);
    pk.b_g1 = g1_section(6, "PointsB1", size_t(n_vars), opt.check);
    pk.b_g2 = read_g2_section(bf, name, size_t(n_vars), opt.check, opt.threads);
    pk.l = g1_section(8, "PointsC", size_t(n_aux), opt.check);
    pk.h = g1_section(9, "PointsH", size_t(pk.domain_size), opt.check);
    read_contributions(bf, z);
    return z;
}

namespace {

// The key's sizes and coefficients against what a zkey can hold.
void check_writable(const std::string& path, const groth16::proving_key& pk)
{
    auto bad = [&](const std::string& m) { throw error(errc::invalid_argument, fmt::format("write_zkey {}: {}", path, m)); };
    if (pk.conv != groth16::convention::snarkjs)
        bad("the key follows the bellperson convention (monomial H, filtered A/B); only snarkjs-convention keys can "
            "be written as a zkey");
    if (pk.num_inputs == 0) bad("num_inputs must be at least 1 (the constant one)");
    const uint64_t n_vars = uint64_t(pk.num_inputs) + pk.num_aux;
    if (n_vars > 0xffffffffu) bad("more than 2^32 − 1 variables");
    if (!is_pow2(pk.domain_size) || pk.domain_size > 0x80000000u)
        bad(fmt::format("domain_size {} is not a power of two below 2^32", pk.domain_size));
    auto want = [&](const char* what, size_t have, uint64_t need) {
        if (have != need) bad(fmt::format("{} has {} entries, expected {}", what, have, need));
    };
    want("vk.ic", pk.vk.ic.size(), pk.num_inputs);
    want("a", pk.a.size(), n_vars);
    want("b_g1", pk.b_g1.size(), n_vars);
    want("b_g2", pk.b_g2.size(), n_vars);
    want("l", pk.l.size(), pk.num_aux);
    want("h", pk.h.size(), pk.domain_size);
    if (pk.coefs.size() > 0xffffffffu) bad("more than 2^32 − 1 coefficients");
    for (size_t i = 0; i < pk.coefs.size(); ++i) {
        const auto& c = pk.coefs[i];
        if (c.matrix > 1 || c.constraint >= pk.domain_size || c.signal >= n_vars)
            bad(fmt::format("coefficient {} (matrix {}, constraint {}, signal {}) is out of range", i, c.matrix,
                            c.constraint, c.signal));
    }
}

// Section 2: both primes, the sizes and the verifying key.
void write_groth16_header(binfile_writer& w, const groth16::proving_key& pk)
{
    const uint64_t n_vars = uint64_t(pk.num_inputs) + pk.num_aux;
    w.begin_section(2);
    uint8_t buf[192];
    w.write_u32(uint32_t(fq_bytes));
    store_le(fp_params::modulus, buf);
    w.write(buf, fq_bytes);
    w.write_u32(uint32_t(fr_bytes));
    store_le(fr_params::modulus, buf);
    w.write(buf, fr_bytes);
    w.write_u32(uint32_t(n_vars));
    w.write_u32(pk.num_inputs - 1);
    w.write_u32(uint32_t(pk.domain_size));
    auto put_g1 = [&](const g1_affine& p) {
        g1_to_lem(p, std::span<uint8_t, 96>(buf, 96));
        w.write(buf, 96);
    };
    auto put_g2 = [&](const g2_affine& p) {
        g2_to_lem(p, std::span<uint8_t, 192>(buf, 192));
        w.write(buf, 192);
    };
    put_g1(pk.vk.alpha_g1);
    put_g1(pk.vk.beta_g1);
    put_g2(pk.vk.beta_g2);
    put_g2(pk.vk.gamma_g2);
    put_g1(pk.vk.delta_g1);
    put_g2(pk.vk.delta_g2);
    w.end_section();
}

// Section 4: the coefficient count, then 44-byte entries, written 4096 at a time.
void write_coefs(binfile_writer& w, const std::vector<groth16::sparse_coef>& coefs)
{
    w.begin_section(4);
    w.write_u32(uint32_t(coefs.size()));
    std::vector<uint8_t> cb;
    cb.reserve(4096 * coef_entry);
    for (size_t i = 0; i < coefs.size(); ++i) {
        const auto& c = coefs[i];
        uint8_t e[coef_entry];
        for (int k = 0; k < 4; ++k) {
            e[k] = uint8_t(c.matrix >> (8 * k));
            e[4 + k] = uint8_t(c.constraint >> (8 * k));
            e[8 + k] = uint8_t(c.signal >> (8 * k));
        }
        store_le(coef_to_stored(c.value), e + 12);
        cb.insert(cb.end(), e, e + coef_entry);
        if (cb.size() >= 4096 * coef_entry) {
            w.write(cb.data(), cb.size());
            cb.clear();
        }
    }
    w.write(cb.data(), cb.size());
    w.end_section();
}

void write_g1_section(binfile_writer& w, uint32_t id, const std::vector<g1_affine>& pts)
{
    w.begin_section(id);
    write_points<g1_affine, 96>(w, pts, [](const g1_affine& p, std::span<uint8_t, 96> o) { g1_to_lem(p, o); });
    w.end_section();
}

} // namespace

void write_zkey(const std::string& path, const groth16::proving_key& pk, const zkey_write_options& opt)
{
    check_writable(path, pk);
    binfile_writer w(path, "zkey", 1, 10);
    w.begin_section(1);
    w.write_u32(1);   // Groth16
    w.end_section();
    write_groth16_header(w, pk);
    write_g1_section(w, 3, pk.vk.ic);
    write_coefs(w, pk.coefs);
    write_g1_section(w, 5, pk.a);
    write_g1_section(w, 6, pk.b_g1);
    w.begin_section(7);
    write_points<g2_affine, 192>(w, pk.b_g2, [](const g2_affine& p, std::span<uint8_t, 192> o) { g2_to_lem(p, o); });
    w.end_section();
    write_g1_section(w, 8, pk.l);
    write_g1_section(w, 9, pk.h);

    w.begin_section(10);
    w.write(opt.cs_hash.data(), opt.cs_hash.size());
    w.write_u32(0);   // no contributions
    w.end_section();
    w.close();
}

// ---- .wtns ----------------------------------------------------------------------------------

std::vector<fr> read_wtns(const std::string& path)
{
    mapped_file f(path);
    return parse_wtns(f.bytes(), path);
}

std::vector<fr> parse_wtns(std::span<const uint8_t> data, const std::string& name)
{
    const binfile bf(data, name, "wtns", 1, 2);
    auto r = bf.reader(1, "header");
    check_prime(r, name, "prime", fr_params::modulus);
    const uint32_t n = r.u32_le("nWitness");
    r.expect_end("header");
    bf.expect_size(2, "witness", uint64_t(n) * fr_bytes);
    const auto body = bf.section(2, "witness");
    std::vector<fr> w(n);
    for_chunks(n, 0, 65536, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i)
            if (!fr::from_bytes_le(body.data() + i * fr_bytes, w[i]))
                throw error(errc::non_canonical,
                            fmt::format("{} section 2 (witness) value {}: not below r", name, i));
    });
    return w;
}

void write_wtns(const std::string& path, std::span<const fr> witness)
{
    if (witness.size() > 0xffffffffu) throw error(errc::invalid_argument, fmt::format("write_wtns {}: too many values", path));
    binfile_writer w(path, "wtns", 2, 2);
    uint8_t buf[fr_bytes];
    w.begin_section(1);
    w.write_u32(uint32_t(fr_bytes));
    store_le(fr_params::modulus, buf);
    w.write(buf, fr_bytes);
    w.write_u32(uint32_t(witness.size()));
    w.end_section();
    w.begin_section(2);
    for (const fr& v : witness) {
        v.to_bytes_le(buf);
        w.write(buf, fr_bytes);
    }
    w.end_section();
    w.close();
}

// ---- .r1cs ----------------------------------------------------------------------------------

namespace {

// nWires sizes everything a setup allocates (a point per wire), so it must be
// backed by bytes of the file like every other count: by the wire map
// (section 3, 8 bytes per wire, its size checked by the caller) or, without
// a map, by the constraint terms (36 bytes each): a wire that no term uses
// and no map names carries nothing but cost.
void check_wires_backed(const r1cs_file& f, bool has_map, uint64_t total_terms, const std::string& name)
{
    if (has_map || f.n_wires <= total_terms + 1) return;
    throw error(errc::bad_length,
                fmt::format("{} section 1 (header): nWires = {} but the file backs at most {} wires (ONE and one per "
                            "constraint term, or a wire map: section 3)",
                            name, f.n_wires, total_terms + 1));
}

} // namespace

r1cs_file read_r1cs(const std::string& path)
{
    mapped_file f(path);
    return parse_r1cs(f.bytes(), path);
}

r1cs_file parse_r1cs(std::span<const uint8_t> data, const std::string& name)
{
    const binfile bf(data, name, "r1cs", 1, 1);
    r1cs_file out;
    uint64_t total_terms = 0;
    {
        auto r = bf.reader(1, "header");
        check_prime(r, name, "prime", fr_params::modulus);
        out.n_wires = r.u32_le("nWires");
        out.n_pub_out = r.u32_le("nPubOut");
        out.n_pub_in = r.u32_le("nPubIn");
        out.n_prv_in = r.u32_le("nPrvIn");
        out.n_labels = r.u64_le("nLabels");
        out.n_constraints = r.u32_le("nConstraints");
        r.expect_end("header");
        const uint64_t named = 1ull + out.n_pub_out + out.n_pub_in + out.n_prv_in;
        if (named > out.n_wires)
            throw error(errc::bad_format,
                        fmt::format("{} section 1 (header): 1 + {} outputs + {} public inputs + {} private inputs "
                                    "exceeds nWires = {}",
                                    name, out.n_pub_out, out.n_pub_in, out.n_prv_in, out.n_wires));
    }
    {
        auto r = bf.reader(2, "constraints");
        r.need_array(out.n_constraints, 12, "constraints");   // three empty LCs at least
        total_terms = 0;
        out.constraints.resize(out.n_constraints);
        static constexpr const char* lc_name[3] = {"A", "B", "C"};
        for (uint32_t c = 0; c < out.n_constraints; ++c) {
            for (int m = 0; m < 3; ++m) {
                // Messages are formatted only on failure (this loop runs per LC).
                if (r.remaining() < 4)
                    r.fail(errc::bad_length, fmt::format("constraint {} {}: term count truncated", c, lc_name[m]));
                const uint32_t nt = r.u32_le("term count");
                if (nt > r.remaining() / (4 + fr_bytes))
                    r.fail(errc::bad_length, fmt::format("constraint {} {}: {} terms do not fit in the {} bytes left",
                                                         c, lc_name[m], nt, r.remaining()));
                auto& lc = out.constraints[c][size_t(m)];
                total_terms += nt;
                lc.resize(nt);
                for (uint32_t t = 0; t < nt; ++t) {
                    const uint32_t wire = r.u32_le("wire id");
                    if (wire >= out.n_wires)
                        r.fail(errc::bad_format, fmt::format("constraint {} {} term {}: wire {} >= nWires {}", c,
                                                             lc_name[m], t, wire, out.n_wires));
                    const auto cb = r.bytes(fr_bytes, "coefficient");
                    fr v;
                    if (!fr::from_bytes_le(cb.data(), v))
                        r.fail(errc::non_canonical,
                               fmt::format("constraint {} {} term {}: coefficient is >= r", c, lc_name[m], t));
                    lc[t] = {wire, v};
                }
            }
        }
        r.expect_end("constraints");
    }
    check_wires_backed(out, bf.has(3), total_terms, name);
    if (bf.has(3)) {
        auto r = bf.reader(3, "wire to label map");
        bf.expect_size(3, "wire to label map", uint64_t(out.n_wires) * 8);
        out.wire_to_label.resize(out.n_wires);
        for (auto& l : out.wire_to_label) l = r.u64_le("label id");
    }
    return out;
}

void write_r1cs(const std::string& path, const r1cs_file& in)
{
    auto bad = [&](const std::string& m) { throw error(errc::invalid_argument, fmt::format("write_r1cs {}: {}", path, m)); };
    if (in.constraints.size() != in.n_constraints)
        bad(fmt::format("{} constraints but n_constraints = {}", in.constraints.size(), in.n_constraints));
    if (!in.wire_to_label.empty() && in.wire_to_label.size() != in.n_wires)
        bad(fmt::format("wire_to_label has {} entries, n_wires = {}", in.wire_to_label.size(), in.n_wires));
    for (size_t c = 0; c < in.constraints.size(); ++c)
        for (const auto& lc : in.constraints[c])
            for (const auto& [wire, v] : lc)
                if (wire >= in.n_wires) bad(fmt::format("constraint {}: wire {} >= n_wires {}", c, wire, in.n_wires));

    binfile_writer w(path, "r1cs", 1, in.wire_to_label.empty() ? 2 : 3);
    uint8_t buf[fr_bytes];
    w.begin_section(1);
    w.write_u32(uint32_t(fr_bytes));
    store_le(fr_params::modulus, buf);
    w.write(buf, fr_bytes);
    w.write_u32(in.n_wires);
    w.write_u32(in.n_pub_out);
    w.write_u32(in.n_pub_in);
    w.write_u32(in.n_prv_in);
    w.write_u64(in.n_labels);
    w.write_u32(in.n_constraints);
    w.end_section();
    w.begin_section(2);
    for (const auto& con : in.constraints)
        for (const auto& lc : con) {
            w.write_u32(uint32_t(lc.size()));
            for (const auto& [wire, v] : lc) {
                w.write_u32(wire);
                v.to_bytes_le(buf);
                w.write(buf, fr_bytes);
            }
        }
    w.end_section();
    if (!in.wire_to_label.empty()) {
        w.begin_section(3);
        for (uint64_t l : in.wire_to_label) w.write_u64(l);
        w.end_section();
    }
    w.close();
}

} // namespace cuzk::io

namespace cuzk::io {

r1cs::pce r1cs_to_pce(const r1cs_file& r)
{
    const uint64_t num_inputs = uint64_t(1) + r.n_pub_out + r.n_pub_in;
    if (r.n_wires < num_inputs)
        throw error(errc::bad_format,
                    fmt::format("r1cs: {} wires cannot hold {} public signals and ONE", r.n_wires, num_inputs - 1));
    std::vector<std::array<r1cs::pce_row, 3>> rows(r.constraints.size());
    for (size_t k = 0; k < r.constraints.size(); ++k)
        for (int m = 0; m < 3; ++m) rows[k][m].assign(r.constraints[k][m].begin(), r.constraints[k][m].end());
    return r1cs::pce_from_constraints(uint32_t(num_inputs), uint32_t(r.n_wires - num_inputs), rows);
}

} // namespace cuzk::io
