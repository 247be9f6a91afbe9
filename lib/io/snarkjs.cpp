// snarkjs / circom binary files: .zkey, .wtns, .r1cs on BLS12-381 and BN254
// (see include/cuzk/io/snarkjs.hpp).
#include "cuzk/io/snarkjs.hpp"

#include <algorithm>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/io/binfile.hpp"
#include "cuzk/io/mapped_file.hpp"
#include "cuzk/util/parallel.hpp"

namespace cuzk::io {

namespace {

constexpr size_t fr_bytes = 32;   // n8r, the same on both curves
constexpr size_t coef_entry = 12 + fr_bytes;
static_assert(fr::nbytes == fr_bytes && bn254::fr::nbytes == fr_bytes);

// The curve whose scalar field is F (the wtns and r1cs templates).
template <class F>
struct curve_of;
template <>
struct curve_of<fr> {
    using type = bls12_381_curve;
};
template <>
struct curve_of<bn254::fr> {
    using type = bn254_curve;
};

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

// ---- the curve of a file: its primes ------------------------------------------------------

const char* snarkjs_curve_name(curve_id c)
{
    return c == curve_id::bn254 ? bn254_curve::snarkjs_name : bls12_381_curve::snarkjs_name;
}

// "0x1a01…aaab": a little-endian integer in big-endian hex, no leading zeros.
std::string hex_of_le(std::span<const uint8_t> le)
{
    std::string s;
    for (size_t i = le.size(); i-- > 0;) {
        if (s.empty() && le[i] == 0) continue;
        s += fmt::format("{:02x}", le[i]);
    }
    if (s.empty()) s = "0";
    else if (s[0] == '0') s.erase(0, 1);
    return "0x" + s;
}

template <class F>
bool is_modulus_of(std::span<const uint8_t> le)
{
    return le.size() == F::nbytes && load_le<F::N>(le.data()) == F::params::modulus;
}

enum class prime_kind { q, r };

// The curve whose base (q) or scalar (r) field has the modulus `le`.
std::optional<curve_id> curve_of_prime(std::span<const uint8_t> le, prime_kind k)
{
    if (k == prime_kind::q) {
        if (is_modulus_of<bls12_381_curve::fp>(le)) return curve_id::bls12_381;
        if (is_modulus_of<bn254_curve::fp>(le)) return curve_id::bn254;
    } else {
        if (is_modulus_of<bls12_381_curve::fr>(le)) return curve_id::bls12_381;
        if (is_modulus_of<bn254_curve::fr>(le)) return curve_id::bn254;
    }
    return std::nullopt;
}

// Reads "u32 n8; prime (n8 bytes LE)" and returns the curve of the prime.
// The field size is checked before the prime is read, so a huge n8 is a
// clear error, not a truncation.
curve_id read_prime(byte_reader& r, const char* label, prime_kind k)
{
    const uint32_t n8 = r.u32_le(fmt::format("{} byte length", label));
    if (n8 != 32 && n8 != 48)
        r.fail(errc::bad_format, fmt::format("unknown field size {} bytes for {} (bls12381 and bn128 use 32 and 48)",
                                             n8, label));
    const auto prime = r.bytes(n8, label);
    const auto c = curve_of_prime(prime, k);
    if (!c)
        r.fail(errc::bad_format, fmt::format("unknown prime: {} = {} is neither bls12381's nor bn128's {}", label,
                                             hex_of_le(prime), k == prime_kind::q ? "q" : "r"));
    return *c;
}

// A zkey's section 2 starts with q and r, which must be one curve's.
curve_id read_zkey_curve(byte_reader& r)
{
    const curve_id cq = read_prime(r, "q", prime_kind::q);
    const curve_id cr = read_prime(r, "r", prime_kind::r);
    if (cq != cr)
        r.fail(errc::bad_format,
               fmt::format("q is {}'s but r is {}'s", snarkjs_curve_name(cq), snarkjs_curve_name(cr)));
    return cq;
}

// A file of curve `got` read as one of `want`: "x.zkey: the key is for bn128,
// expected bls12381".
void expect_curve(curve_id got, curve_id want, const std::string& name, const char* what)
{
    if (got != want)
        throw error(errc::unsupported, fmt::format("{}: the {} is for {}, expected {}", name, what,
                                                   snarkjs_curve_name(got), snarkjs_curve_name(want)));
}

// The containers, with the versions each reader accepts.
binfile zkey_container(std::span<const uint8_t> data, const std::string& name)
{
    return binfile(data, name, "zkey", 1, 2);
}
binfile wtns_container(std::span<const uint8_t> data, const std::string& name)
{
    return binfile(data, name, "wtns", 1, 2);
}
binfile r1cs_container(std::span<const uint8_t> data, const std::string& name)
{
    return binfile(data, name, "r1cs", 1, 1);
}

// Writes "u32 n8; F's modulus (n8 bytes LE)".
template <class F>
void write_prime(binfile_writer& w)
{
    uint8_t buf[F::nbytes];
    store_le(F::params::modulus, buf);
    w.write_u32(uint32_t(F::nbytes));
    w.write(buf, F::nbytes);
}

} // namespace

curve_id parse_snarkjs_file_curve(std::span<const uint8_t> data, const std::string& name)
{
    const std::string_view magic =
        data.size() >= 4 ? std::string_view(reinterpret_cast<const char*>(data.data()), 4) : std::string_view();
    if (magic == "zkey") {
        const binfile bf = zkey_container(data, name);
        auto r = bf.reader(2, "Groth16 header");
        return read_zkey_curve(r);
    }
    const bool wtns = magic == "wtns";
    if (wtns || magic == "r1cs") {
        const binfile bf = wtns ? wtns_container(data, name) : r1cs_container(data, name);
        auto r = bf.reader(1, "header");
        return read_prime(r, "prime", prime_kind::r);
    }
    std::string head;
    for (size_t i = 0; i < std::min<size_t>(4, data.size()); ++i) head += fmt::format("{:02x}", data[i]);
    throw error(errc::bad_format,
                fmt::format("{}: not a snarkjs .zkey, .wtns or .r1cs file (first bytes {})", name, head));
}

curve_id snarkjs_file_curve(const std::string& path)
{
    mapped_file f(path);
    return parse_snarkjs_file_curve(f.bytes(), path);
}

// ---- LEM points ---------------------------------------------------------------------------

namespace {

bool all_zero(const uint8_t* p, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; ++i) acc |= p[i];
    return acc == 0;
}

// An n8q-byte LE Montgomery coordinate: the stored integer is x·R mod q with
// R = 2^(8·n8q), exactly cuzk's Montgomery limbs, so it only needs the < q check.
template <class Fp>
bool fp_from_lem(const uint8_t* in, Fp& out)
{
    const auto v = load_le<Fp::N>(in);
    if (!Fp::is_canonical(v)) return false;
    out = Fp::from_mont(v);
    return true;
}
template <class Fp>
void fp_to_lem(const Fp& a, uint8_t* out)
{
    store_le(a.mont(), out);
}

[[noreturn]] void point_fail(errc code, const std::string& what, const std::string& msg)
{
    throw error(code, fmt::format("{}: {}", what, msg));
}

// Decodes the K coordinates of a point in file order into `dst` (named
// `names` in errors), then runs the tests `t` asks for (curve, subgroup)
// tests on p. `what` is a callable giving the location text, called only on
// failure (this runs once per point of large keys).
// The tests run on each decoded point beyond the coordinates' range: the
// curve equation (unless the caller defers it, zkey_read_options::curve) and
// the subgroup (which implies the curve test).
struct point_tests {
    subgroup_check sub = subgroup_check::skip;
    bool curve = true;
};

template <class C, class Pt, size_t K, class What>
void lem_decode(const uint8_t* in, Pt& p, typename C::fp* const (&dst)[K], const char* const (&names)[K],
                point_tests t, What&& what)
{
    constexpr size_t fq = lem_fq_bytes<C>;
    if (all_zero(in, K * fq)) {
        p = Pt::identity();
        return;
    }
    for (size_t k = 0; k < K; ++k)
        if (!fp_from_lem(in + k * fq, *dst[k]))
            point_fail(errc::non_canonical, what(), fmt::format("{} coordinate is >= q", names[k]));
    const bool sub = t.sub == subgroup_check::check;
    if ((t.curve || sub) && !p.is_on_curve()) point_fail(errc::not_on_curve, what(), "point is not on the curve");
    if (sub && !C::in_subgroup(p))
        point_fail(errc::not_in_subgroup, what(), "point is not in the prime-order subgroup");
}

template <class C, class What>
typename C::g1_affine g1_lem_decode(const uint8_t* in, point_tests t, What&& what)
{
    static constexpr const char* names[2] = {"x", "y"};
    typename C::g1_affine p;
    typename C::fp* const dst[2] = {&p.x, &p.y};
    lem_decode<C>(in, p, dst, names, t, what);
    return p;
}

template <class C, class What>
typename C::g2_affine g2_lem_decode(const uint8_t* in, point_tests t, What&& what)
{
    static constexpr const char* names[4] = {"x.c0", "x.c1", "y.c0", "y.c1"};
    typename C::g2_affine p;
    typename C::fp* const dst[4] = {&p.x.c0, &p.x.c1, &p.y.c0, &p.y.c1};
    lem_decode<C>(in, p, dst, names, t, what);
    return p;
}

} // namespace

template <class C>
void g1_to_lem(const typename C::g1_affine& p, std::span<uint8_t, lem_g1_bytes<C>> out)
{
    fp_to_lem(p.x, out.data());
    fp_to_lem(p.y, out.data() + lem_fq_bytes<C>);
}

template <class C>
void g2_to_lem(const typename C::g2_affine& p, std::span<uint8_t, lem_g2_bytes<C>> out)
{
    constexpr size_t fq = lem_fq_bytes<C>;
    fp_to_lem(p.x.c0, out.data());
    fp_to_lem(p.x.c1, out.data() + fq);
    fp_to_lem(p.y.c0, out.data() + 2 * fq);
    fp_to_lem(p.y.c1, out.data() + 3 * fq);
}

template <class C>
typename C::g1_affine g1_from_lem(std::span<const uint8_t, lem_g1_bytes<C>> in, subgroup_check chk,
                                  const std::string& what)
{
    return g1_lem_decode<C>(in.data(), {chk}, [&] { return what; });
}

template <class C>
typename C::g2_affine g2_from_lem(std::span<const uint8_t, lem_g2_bytes<C>> in, subgroup_check chk,
                                  const std::string& what)
{
    return g2_lem_decode<C>(in.data(), {chk}, [&] { return what; });
}

// ---- .zkey ----------------------------------------------------------------------------------

namespace {

// zkey coefficient: stored s = v·R² mod r. cuzk's fr keeps v·R in its limbs.
// mont_mul(s, 1) = s·R⁻¹ = v·R, i.e. to_repr() of F::from_mont(s) yields
// exactly the Montgomery limbs of v. The inverse: from_repr(x) = x·R²·R⁻¹ =
// x·R, so from_repr(v's limbs = v·R) has limbs v·R² = s. R = 2^256 on both
// curves (snarkjs: 2^(8·n8r) mod r).
template <class F>
F coef_from_stored(const bigint<4>& s)
{
    return F::from_mont(F::from_mont(s).to_repr());
}
template <class F>
bigint<4> coef_to_stored(const F& v)
{
    return F::from_repr(v.mont()).mont();
}

// cuzk::parallel_for with at least `grain` elements per worker, so that
// small arrays are decoded on the calling thread.
template <class Fn>
void for_chunks(size_t n, unsigned threads, size_t grain, Fn&& f)
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
        for (size_t i = b; i < e; ++i) out[i] = dec(body.data() + i * SZ, i);
    });
    return out;
}

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

// Section 2 after the primes: the sizes.
template <class C>
void read_zkey_sizes(byte_reader& r, zkey_t<C>& z)
{
    auto& pk = z.pk;
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
}

// Section 2: curve, sizes, verifying key.
template <class C>
void read_groth16_header(const binfile& bf, const std::string& name, zkey_t<C>& z)
{
    constexpr size_t g1b = lem_g1_bytes<C>, g2b = lem_g2_bytes<C>;
    auto& vk = z.pk.vk;
    const std::string s2 = fmt::format("{} section 2 (Groth16 header)", name);
    auto r = bf.reader(2, "Groth16 header");
    expect_curve(read_zkey_curve(r), C::id, name, "key");
    read_zkey_sizes(r, z);
    // The verifying key's points are few and reach the verifier: always
    // checked in the subgroup, whatever opt.check says for the big sections.
    auto g1 = [&](const char* what) {
        return g1_from_lem<C>(r.bytes(g1b, what).template subspan<0, g1b>(), subgroup_check::check, s2 + " " + what);
    };
    auto g2 = [&](const char* what) {
        return g2_from_lem<C>(r.bytes(g2b, what).template subspan<0, g2b>(), subgroup_check::check, s2 + " " + what);
    };
    vk.alpha_g1 = g1("alpha1");
    vk.beta_g1 = g1("beta1");
    vk.beta_g2 = g2("beta2");
    vk.gamma_g2 = g2("gamma2");
    vk.delta_g1 = g1("delta1");
    vk.delta_g2 = g2("delta2");
    r.expect_end("Groth16 header");
}

// A section of `count` G1 points.
template <class C>
std::vector<typename C::g1_affine> read_g1_section(const binfile& bf, const std::string& name, uint32_t id,
                                                   const char* sname, size_t count, point_tests t,
                                                   unsigned threads)
{
    using G1 = typename C::g1_affine;
    const auto body = bf.section(id, sname);
    return decode_section<G1, lem_g1_bytes<C>>(body, count, threads, [&](const uint8_t* b, size_t i) {
        return g1_lem_decode<C>(b, t, [&] { return fmt::format("{} section {} ({}) point {}", name, id, sname, i); });
    });
}

// Section 7: B's G2 points.
template <class C>
std::vector<typename C::g2_affine> read_g2_section(const binfile& bf, const std::string& name, size_t count,
                                                   point_tests t, unsigned threads)
{
    using G2 = typename C::g2_affine;
    const auto body = bf.section(7, "PointsB2");
    return decode_section<G2, lem_g2_bytes<C>>(body, count, threads, [&](const uint8_t* b, size_t i) {
        return g2_lem_decode<C>(b, t, [&] { return fmt::format("{} section 7 (PointsB2) point {}", name, i); });
    });
}

// One 44-byte entry of section 4: matrix, constraint, signal (u32 LE each)
// and the stored coefficient, each checked against the header's sizes.
template <class F, class Coef>
void decode_coef(const uint8_t* p, size_t i, const std::string& name, uint64_t domain, uint64_t n_vars, Coef& c)
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
    if (!F::is_canonical(s)) throw error(errc::non_canonical, fmt::format("{}: coefficient is >= r", where()));
    c.value = coef_from_stored<F>(s);
}

// The input constraints: A-entry 1 on signal s in row n_constraints + s,
// s = 0..nPublic; they are the last rows, so the largest row index is
// n_constraints + nPublic. Sets pk.n_constraints from them.
template <class C>
void check_input_constraints(const std::string& name, zkey_t<C>& z)
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
template <class C>
void read_coefs(const binfile& bf, const std::string& name, unsigned threads, zkey_t<C>& z)
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
        for (size_t i = b; i < e; ++i)
            decode_coef<typename C::fr>(body.data() + i * coef_entry, i, name, domain, n_vars, pk.coefs[i]);
    });
    check_input_constraints(name, z);
}

// Section 10 (optional), the MPC contributions: keep the hash, walk the records
// (each: three G1 points, a G2 point, a 64-byte transcript, a u32 type, then
// length-prefixed parameters).
template <class C>
void read_contributions(const binfile& bf, zkey_t<C>& z)
{
    if (!bf.has(10)) return;
    auto r = bf.reader(10, "Contributions");
    const auto h = r.bytes(64, "csHash");
    std::copy(h.begin(), h.end(), z.cs_hash.begin());
    z.n_contributions = r.u32_le("number of contributions");
    for (uint32_t i = 0; i < z.n_contributions; ++i) {
        r.skip(3 * lem_g1_bytes<C> + lem_g2_bytes<C> + 64 + 4, fmt::format("contribution {}", i));
        const uint32_t plen = r.u32_le(fmt::format("contribution {} parameter length", i));
        r.skip(plen, fmt::format("contribution {} parameters", i));
    }
    r.expect_end("Contributions");
}

// The point sections' sizes, checked before anything is allocated.
template <class C>
void check_point_sections(const binfile& bf, const zkey_t<C>& z)
{
    constexpr uint64_t g1b = lem_g1_bytes<C>, g2b = lem_g2_bytes<C>;
    const uint64_t n_vars = z.n_vars, n_pub1 = uint64_t(z.n_public) + 1;
    bf.expect_size(3, "IC", n_pub1 * g1b);
    bf.expect_size(5, "PointsA", n_vars * g1b);
    bf.expect_size(6, "PointsB1", n_vars * g1b);
    bf.expect_size(7, "PointsB2", n_vars * g2b);
    bf.expect_size(8, "PointsC", uint64_t(z.pk.num_aux) * g1b);
    bf.expect_size(9, "PointsH", z.pk.domain_size * g1b);
}

} // namespace

template <class C>
zkey_t<C> read_zkey(const std::string& path, const zkey_read_options& opt)
{
    mapped_file f(path);
    f.advise_sequential();
    return parse_zkey<C>(f.bytes(), path, opt);
}

template <class C>
zkey_t<C> parse_zkey(std::span<const uint8_t> data, const std::string& name, const zkey_read_options& opt)
{
    const binfile bf = zkey_container(data, name);
    zkey_t<C> z;
    auto& pk = z.pk;
    pk.conv = groth16::convention::snarkjs;
    read_zkey_protocol(bf, name);
    read_groth16_header(bf, name, z);
    check_point_sections(bf, z);

    auto g1_section = [&](uint32_t id, const char* sname, size_t count, point_tests t) {
        return read_g1_section<C>(bf, name, id, sname, count, t, opt.threads);
    };
    pk.vk.ic = g1_section(3, "IC", size_t(z.n_public) + 1, {subgroup_check::check});   // part of the verifying key
    read_coefs(bf, name, opt.threads, z);
    const point_tests bulk{opt.check, opt.curve == curve_check::check};
    pk.a = g1_section(5, "PointsA", z.n_vars, bulk);
    pk.b_g1 = g1_section(6, "PointsB1", z.n_vars, bulk);
    pk.b_g2 = read_g2_section<C>(bf, name, z.n_vars, bulk, opt.threads);
    pk.l = g1_section(8, "PointsC", pk.num_aux, bulk);
    pk.h = g1_section(9, "PointsH", size_t(pk.domain_size), bulk);
    read_contributions(bf, z);
    return z;
}

namespace {

// The key's sizes and coefficients against what a zkey can hold.
template <class C>
void check_writable(const std::string& path, const groth16::proving_key_t<C>& pk)
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

template <class C>
void put_g1(binfile_writer& w, const typename C::g1_affine& p)
{
    uint8_t buf[lem_g1_bytes<C>];
    g1_to_lem<C>(p, buf);
    w.write(buf, sizeof buf);
}
template <class C>
void put_g2(binfile_writer& w, const typename C::g2_affine& p)
{
    uint8_t buf[lem_g2_bytes<C>];
    g2_to_lem<C>(p, buf);
    w.write(buf, sizeof buf);
}

// Section 2: both primes, the sizes and the verifying key.
template <class C>
void write_groth16_header(binfile_writer& w, const groth16::proving_key_t<C>& pk)
{
    const uint64_t n_vars = uint64_t(pk.num_inputs) + pk.num_aux;
    w.begin_section(2);
    write_prime<typename C::fp>(w);
    write_prime<typename C::fr>(w);
    w.write_u32(uint32_t(n_vars));
    w.write_u32(pk.num_inputs - 1);
    w.write_u32(uint32_t(pk.domain_size));
    put_g1<C>(w, pk.vk.alpha_g1);
    put_g1<C>(w, pk.vk.beta_g1);
    put_g2<C>(w, pk.vk.beta_g2);
    put_g2<C>(w, pk.vk.gamma_g2);
    put_g1<C>(w, pk.vk.delta_g1);
    put_g2<C>(w, pk.vk.delta_g2);
    w.end_section();
}

// Section 4: the coefficient count, then 44-byte entries, written 4096 at a time.
template <class C>
void write_coefs(binfile_writer& w, const std::vector<groth16::sparse_coef_t<C>>& coefs)
{
    w.begin_section(4);
    w.write_u32(uint32_t(coefs.size()));
    std::vector<uint8_t> cb;
    cb.reserve(4096 * coef_entry);
    for (const auto& c : coefs) {
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

template <class C>
void write_g1_section(binfile_writer& w, uint32_t id, const std::vector<typename C::g1_affine>& pts)
{
    constexpr size_t g1b = lem_g1_bytes<C>;
    w.begin_section(id);
    write_points<typename C::g1_affine, g1b>(
        w, pts, [](const typename C::g1_affine& p, std::span<uint8_t, g1b> o) { g1_to_lem<C>(p, o); });
    w.end_section();
}

template <class C>
void write_g2_section(binfile_writer& w, uint32_t id, const std::vector<typename C::g2_affine>& pts)
{
    constexpr size_t g2b = lem_g2_bytes<C>;
    w.begin_section(id);
    write_points<typename C::g2_affine, g2b>(
        w, pts, [](const typename C::g2_affine& p, std::span<uint8_t, g2b> o) { g2_to_lem<C>(p, o); });
    w.end_section();
}

} // namespace

template <class C>
void write_zkey(const std::string& path, const groth16::proving_key_t<C>& pk, const zkey_write_options& opt)
{
    check_writable(path, pk);
    binfile_writer w(path, "zkey", 1, 10);
    w.begin_section(1);
    w.write_u32(1);   // Groth16
    w.end_section();
    write_groth16_header(w, pk);
    write_g1_section<C>(w, 3, pk.vk.ic);
    write_coefs(w, pk.coefs);
    write_g1_section<C>(w, 5, pk.a);
    write_g1_section<C>(w, 6, pk.b_g1);
    write_g2_section<C>(w, 7, pk.b_g2);
    write_g1_section<C>(w, 8, pk.l);
    write_g1_section<C>(w, 9, pk.h);

    w.begin_section(10);
    w.write(opt.cs_hash.data(), opt.cs_hash.size());
    w.write_u32(0);   // no contributions
    w.end_section();
    w.close();
}

// ---- .wtns ----------------------------------------------------------------------------------

template <class F>
std::vector<F> read_wtns(const std::string& path)
{
    mapped_file f(path);
    return parse_wtns<F>(f.bytes(), path);
}

template <class F>
std::vector<F> parse_wtns(std::span<const uint8_t> data, const std::string& name)
{
    const binfile bf = wtns_container(data, name);
    auto r = bf.reader(1, "header");
    expect_curve(read_prime(r, "prime", prime_kind::r), curve_of<F>::type::id, name, "witness");
    const uint32_t n = r.u32_le("nWitness");
    r.expect_end("header");
    bf.expect_size(2, "witness", uint64_t(n) * fr_bytes);
    const auto body = bf.section(2, "witness");
    std::vector<F> w(n);
    for_chunks(n, 0, 65536, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i)
            if (!F::from_bytes_le(body.data() + i * fr_bytes, w[i]))
                throw error(errc::non_canonical,
                            fmt::format("{} section 2 (witness) value {}: not below r", name, i));
    });
    return w;
}

template <class F>
void write_wtns(const std::string& path, std::span<const F> witness)
{
    if (witness.size() > 0xffffffffu) throw error(errc::invalid_argument, fmt::format("write_wtns {}: too many values", path));
    binfile_writer w(path, "wtns", 2, 2);
    w.begin_section(1);
    write_prime<F>(w);
    w.write_u32(uint32_t(witness.size()));
    w.end_section();
    w.begin_section(2);
    uint8_t buf[fr_bytes];
    for (const F& v : witness) {
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
void check_wires_backed(uint32_t n_wires, bool has_map, uint64_t total_terms, const std::string& name)
{
    if (has_map || n_wires <= total_terms + 1) return;
    throw error(errc::bad_length,
                fmt::format("{} section 1 (header): nWires = {} but the file backs at most {} wires (ONE and one per "
                            "constraint term, or a wire map: section 3)",
                            name, n_wires, total_terms + 1));
}

// Section 1: the prime (F's), the counts.
template <class F>
void read_r1cs_header(const binfile& bf, const std::string& name, r1cs_file_t<F>& out)
{
    auto r = bf.reader(1, "header");
    expect_curve(read_prime(r, "prime", prime_kind::r), curve_of<F>::type::id, name, "circuit");
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

// One linear combination: u32 term count, then (u32 wire, 32-byte value)
// per term. Messages are formatted only on failure (this runs per LC).
template <class F>
void read_lc(byte_reader& r, uint32_t n_wires, uint32_t c, const char* m, r1cs_lc_t<F>& lc)
{
    if (r.remaining() < 4) r.fail(errc::bad_length, fmt::format("constraint {} {}: term count truncated", c, m));
    const uint32_t nt = r.u32_le("term count");
    if (nt > r.remaining() / (4 + fr_bytes))
        r.fail(errc::bad_length,
               fmt::format("constraint {} {}: {} terms do not fit in the {} bytes left", c, m, nt, r.remaining()));
    lc.resize(nt);
    for (uint32_t t = 0; t < nt; ++t) {
        const uint32_t wire = r.u32_le("wire id");
        if (wire >= n_wires)
            r.fail(errc::bad_format,
                   fmt::format("constraint {} {} term {}: wire {} >= nWires {}", c, m, t, wire, n_wires));
        const auto cb = r.bytes(fr_bytes, "coefficient");
        F v;
        if (!F::from_bytes_le(cb.data(), v))
            r.fail(errc::non_canonical, fmt::format("constraint {} {} term {}: coefficient is >= r", c, m, t));
        lc[t] = {wire, v};
    }
}

// Section 2: the constraints; returns the number of terms.
template <class F>
uint64_t read_r1cs_constraints(const binfile& bf, r1cs_file_t<F>& out)
{
    static constexpr const char* lc_name[3] = {"A", "B", "C"};
    auto r = bf.reader(2, "constraints");
    r.need_array(out.n_constraints, 12, "constraints");   // three empty LCs at least
    out.constraints.resize(out.n_constraints);
    uint64_t total_terms = 0;
    for (uint32_t c = 0; c < out.n_constraints; ++c)
        for (size_t m = 0; m < 3; ++m) {
            read_lc<F>(r, out.n_wires, c, lc_name[m], out.constraints[c][m]);
            total_terms += out.constraints[c][m].size();
        }
    r.expect_end("constraints");
    return total_terms;
}

} // namespace

template <class F>
r1cs_file_t<F> read_r1cs(const std::string& path)
{
    mapped_file f(path);
    return parse_r1cs<F>(f.bytes(), path);
}

template <class F>
r1cs_file_t<F> parse_r1cs(std::span<const uint8_t> data, const std::string& name)
{
    const binfile bf = r1cs_container(data, name);
    r1cs_file_t<F> out;
    read_r1cs_header(bf, name, out);
    const uint64_t total_terms = read_r1cs_constraints(bf, out);
    check_wires_backed(out.n_wires, bf.has(3), total_terms, name);
    if (bf.has(3)) {
        auto r = bf.reader(3, "wire to label map");
        bf.expect_size(3, "wire to label map", uint64_t(out.n_wires) * 8);
        out.wire_to_label.resize(out.n_wires);
        for (auto& l : out.wire_to_label) l = r.u64_le("label id");
    }
    return out;
}

namespace {

template <class F>
void check_r1cs_writable(const std::string& path, const r1cs_file_t<F>& in)
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
}

} // namespace

template <class F>
void write_r1cs(const std::string& path, const r1cs_file_t<F>& in)
{
    check_r1cs_writable(path, in);
    binfile_writer w(path, "r1cs", 1, in.wire_to_label.empty() ? 2 : 3);
    w.begin_section(1);
    write_prime<F>(w);
    w.write_u32(in.n_wires);
    w.write_u32(in.n_pub_out);
    w.write_u32(in.n_pub_in);
    w.write_u32(in.n_prv_in);
    w.write_u64(in.n_labels);
    w.write_u32(in.n_constraints);
    w.end_section();
    w.begin_section(2);
    uint8_t buf[fr_bytes];
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

CUZK_IO_SNARKJS_TEMPLATES(template, bls12_381_curve)
CUZK_IO_SNARKJS_TEMPLATES(template, bn254_curve)

} // namespace cuzk::io
