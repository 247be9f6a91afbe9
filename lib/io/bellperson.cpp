// bellperson .vk / .params files and the 192-byte proof (see include/cuzk/io/bellperson.hpp).
#include "cuzk/io/bellperson.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/io/byte_reader.hpp"
#include "cuzk/util/parallel.hpp"

namespace cuzk::io {

namespace {

template <class F>
void for_chunks(size_t n, unsigned threads, size_t grain, F&& f)
{
    const unsigned t = unsigned(std::min<size_t>(resolve_threads(threads), std::max<size_t>(1, n / grain)));
    parallel_for(t, n, [&](size_t b, size_t e, unsigned) { f(b, e); });
}

// Re-raises a decoding error with the location prepended, keeping its code.
[[noreturn]] void rethrow_at(const error& e, const std::string& where)
{
    throw error(e.code(), fmt::format("{}: {}", where, e.what()));
}

bool all_zero(std::span<const uint8_t> b)
{
    uint8_t acc = 0;
    for (uint8_t v : b) acc |= v;
    return acc == 0;
}
// All-zero bytes are how snarkjs ("zkey export bellman") writes the point at
// infinity; blst reads them as (0, 0), which is not on the curve. Say so.
[[noreturn]] void rethrow_point(const error& e, std::span<const uint8_t> b, const std::string& where)
{
    if (e.code() == errc::not_on_curve && all_zero(b))
        throw error(e.code(), fmt::format("{}: all-zero bytes (snarkjs's point at infinity, which the zcash encoding "
                                          "writes as 0x40 0…; bellperson files leave identity points out): {}",
                                          where, e.what()));
    rethrow_at(e, where);
}

// `where` is a callable returning the location text; it runs only on failure
// (these decoders run once per point of multi-gigabyte files).
template <class Where>
g1_affine decode_g1_at(std::span<const uint8_t> b, subgroup_check chk, bool allow_identity, Where&& where)
{
    g1_affine p;
    try {
        p = g1_deserialize(b, chk);
    } catch (const error& e) {
        rethrow_point(e, b, where());
    }
    if (!allow_identity && p.is_identity())
        throw error(errc::unexpected_identity, fmt::format("{}: point at infinity", where()));
    return p;
}

template <class Where>
g2_affine decode_g2_at(std::span<const uint8_t> b, subgroup_check chk, bool allow_identity, Where&& where)
{
    g2_affine p;
    try {
        p = g2_deserialize(b, chk);
    } catch (const error& e) {
        rethrow_point(e, b, where());
    }
    if (!allow_identity && p.is_identity())
        throw error(errc::unexpected_identity, fmt::format("{}: point at infinity", where()));
    return p;
}

auto text(std::string s)
{
    return [s = std::move(s)] { return s; };
}

template <size_t SZ, class Pt, class Enc>
void write_vector(output_file& out, const std::vector<Pt>& pts, Enc&& enc)
{
    out.write_u32_be(uint32_t(pts.size()));
    constexpr size_t chunk = 4096;
    std::vector<uint8_t> buf(chunk * SZ);
    for (size_t i = 0; i < pts.size(); i += chunk) {
        const size_t n = std::min(chunk, pts.size() - i);
        for (size_t j = 0; j < n; ++j) enc(pts[i + j], std::span<uint8_t, SZ>(buf.data() + j * SZ, SZ));
        out.write(buf.data(), n * SZ);
    }
}

} // namespace

const char* params_query_name(params_query q) noexcept
{
    switch (q) {
    case params_query::h: return "h";
    case params_query::l: return "l";
    case params_query::a: return "a";
    case params_query::b_g1: return "b_g1";
    case params_query::b_g2: return "b_g2";
    }
    return "?";
}

// ---- proof -------------------------------------------------------------------------------

void proof_to_bytes(const groth16::proof& p, std::span<uint8_t, 192> out)
{
    g1_compress(p.a, out.subspan<0, 48>());
    g2_compress(p.b, out.subspan<48, 96>());
    g1_compress(p.c, out.subspan<144, 48>());
}

groth16::proof proof_from_bytes(std::span<const uint8_t> in)
{
    if (in.size() != proof_size)
        throw error(errc::bad_length, fmt::format("proof: {} bytes, expected {}", in.size(), proof_size));
    groth16::proof p;
    p.a = decode_g1_at(in.subspan(0, 48), subgroup_check::check, false, text("proof A"));
    p.b = decode_g2_at(in.subspan(48, 96), subgroup_check::check, false, text("proof B"));
    p.c = decode_g1_at(in.subspan(144, 48), subgroup_check::check, false, text("proof C"));
    return p;
}

namespace {

// Concatenated 192-byte proofs; an error names the one that failed ("<unit> i").
std::vector<groth16::proof> decode_proofs(std::span<const uint8_t> in, unsigned threads, const char* unit)
{
    if (in.size() % proof_size != 0)
        throw error(errc::bad_length,
                    fmt::format("proofs: {} bytes is not a multiple of {}", in.size(), proof_size));
    std::vector<groth16::proof> out(in.size() / proof_size);
    for_chunks(out.size(), threads, 1, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) {
            try {
                out[i] = proof_from_bytes(in.subspan(i * proof_size, proof_size));
            } catch (const error& err) {
                rethrow_at(err, fmt::format("{} {}", unit, i));
            }
        }
    });
    return out;
}

} // namespace

std::vector<groth16::proof> proofs_from_bytes(std::span<const uint8_t> in, unsigned threads)
{
    return decode_proofs(in, threads, "proof");
}

std::vector<groth16::proof> partition_proofs_from_bytes(std::span<const uint8_t> in)
{
    return decode_proofs(in, 1, "partition");
}

// ---- verifying key ------------------------------------------------------------------------

std::vector<uint8_t> vk_to_bytes(const groth16::verifying_key& vk)
{
    if (vk.ic.size() > 0xffffffffu) throw error(errc::invalid_argument, "vk: more than 2^32 − 1 IC points");
    for (size_t i = 0; i < vk.ic.size(); ++i)
        if (vk.ic[i].is_identity())
            throw error(errc::invalid_argument,
                        fmt::format("vk: ic[{}] is the point at infinity, which bellperson's reader rejects", i));
    std::vector<uint8_t> out(vk_size(vk.ic.size()));
    uint8_t* p = out.data();
    auto g1 = [&](const g1_affine& a) {
        g1_serialize(a, std::span<uint8_t, 96>(p, 96));
        p += 96;
    };
    auto g2 = [&](const g2_affine& a) {
        g2_serialize(a, std::span<uint8_t, 192>(p, 192));
        p += 192;
    };
    g1(vk.alpha_g1);
    g1(vk.beta_g1);
    g2(vk.beta_g2);
    g2(vk.gamma_g2);
    g1(vk.delta_g1);
    g2(vk.delta_g2);
    const uint32_t n = uint32_t(vk.ic.size());
    for (int i = 3; i >= 0; --i) *p++ = uint8_t(n >> (8 * i));
    for (const auto& a : vk.ic) g1(a);
    return out;
}

groth16::verifying_key vk_from_bytes(std::span<const uint8_t> in, const std::string& name, size_t* consumed)
{
    byte_reader r(in, name + " (verifying key)");
    groth16::verifying_key vk;
    auto g1 = [&](const char* what) {
        const auto b = r.bytes(96, what);
        return decode_g1_at(b, subgroup_check::check, true, [&] { return fmt::format("{}: vk {}", name, what); });
    };
    auto g2 = [&](const char* what) {
        const auto b = r.bytes(192, what);
        return decode_g2_at(b, subgroup_check::check, true, [&] { return fmt::format("{}: vk {}", name, what); });
    };
    vk.alpha_g1 = g1("alpha_g1");
    vk.beta_g1 = g1("beta_g1");
    vk.beta_g2 = g2("beta_g2");
    vk.gamma_g2 = g2("gamma_g2");
    vk.delta_g1 = g1("delta_g1");
    vk.delta_g2 = g2("delta_g2");
    const uint32_t n = r.u32_be("IC length");
    if (n == 0) r.fail(errc::bad_format, "IC length is 0; a Groth16 verifying key has at least IC[0]");
    r.need_array(n, 96, "IC points");
    vk.ic.resize(n);
    for (uint32_t i = 0; i < n; ++i)
        vk.ic[i] = decode_g1_at(r.bytes(96, "IC point"), subgroup_check::check, false,
                                [&] { return fmt::format("{}: vk ic[{}]", name, i); });
    if (consumed) *consumed = r.pos();
    return vk;
}

void write_vk(const std::string& path, const groth16::verifying_key& vk)
{
    const auto bytes = vk_to_bytes(vk);
    output_file out(path);
    out.write(bytes);
    out.close();
}

groth16::verifying_key read_vk(const std::string& path)
{
    const mapped_file f(path);
    size_t used = 0;
    auto vk = vk_from_bytes(f.bytes(), path, &used);
    if (used != f.size())
        throw error(errc::bad_length, fmt::format("{}: {} bytes after the verifying key ({} bytes expected in all)",
                                                  path, f.size() - used, used));
    return vk;
}

// ---- parameters -----------------------------------------------------------------------------

void write_params(const std::string& path, const groth16::proving_key& pk)
{
    auto bad = [&](const std::string& m) {
        throw error(errc::invalid_argument, fmt::format("write_params {}: {}", path, m));
    };
    if (pk.conv != groth16::convention::bellperson)
        bad("the key follows the snarkjs convention (Lagrange H, unfiltered A/B); only bellperson-convention keys "
            "can be written as .params");
    auto no_identity = [&](const char* what, const auto& v) {
        if (v.size() > 0xffffffffu) bad(fmt::format("{} has more than 2^32 − 1 points", what));
        for (size_t i = 0; i < v.size(); ++i)
            if (v[i].is_identity())
                bad(fmt::format("{}[{}] is the point at infinity, which bellperson's reader rejects (filter A/B by "
                                "density)",
                                what, i));
    };
    no_identity("h", pk.h);
    no_identity("l", pk.l);
    no_identity("a", pk.a);
    no_identity("b_g1", pk.b_g1);
    no_identity("b_g2", pk.b_g2);
    const auto vkb = vk_to_bytes(pk.vk);

    output_file out(path);
    out.write(vkb);
    auto enc1 = [](const g1_affine& p, std::span<uint8_t, 96> o) { g1_serialize(p, o); };
    auto enc2 = [](const g2_affine& p, std::span<uint8_t, 192> o) { g2_serialize(p, o); };
    write_vector<96>(out, pk.h, enc1);
    write_vector<96>(out, pk.l, enc1);
    write_vector<96>(out, pk.a, enc1);
    write_vector<96>(out, pk.b_g1, enc1);
    write_vector<192>(out, pk.b_g2, enc2);
    out.close();
}

mapped_params::mapped_params(const std::string& path, subgroup_check check) : mapped_params(mapped_file(path), check)
{
}

mapped_params::mapped_params(mapped_file file, subgroup_check check) : file_(std::move(file)), check_(check)
{
    parse();
}

void mapped_params::parse()
{
    const auto data = file_.bytes();
    size_t used = 0;
    vk_ = vk_from_bytes(data, file_.path(), &used);
    byte_reader r(data.subspan(used), file_.path() + " (parameters)", used);
    for (size_t q = 0; q < 5; ++q) {
        const auto qq = params_query(q);
        const char* qn = params_query_name(qq);
        const uint32_t n = r.u32_be(fmt::format("{} length", qn));
        r.need_array(n, point_size(qq), fmt::format("{} points", qn));
        vec_[q].offset = used + r.pos();
        vec_[q].count = n;
        r.skip(size_t(n) * point_size(qq), qn);
    }
    trailing_ = r.remaining();
}

std::span<const uint8_t> mapped_params::raw(params_query q) const noexcept
{
    const auto& v = vec_[size_t(q)];
    return file_.bytes().subspan(size_t(v.offset), v.count * point_size(q));
}

void mapped_params::decode_g1(params_query q, size_t first, std::span<g1_affine> out, unsigned threads) const
{
    if (q == params_query::b_g2)
        throw error(errc::invalid_argument, "mapped_params::decode_g1: b_g2 is a G2 vector (use decode_g2)");
    const size_t n = count(q);
    if (first > n || out.size() > n - first)
        throw error(errc::invalid_argument, fmt::format("{}: {} range [{}, {}) outside its {} points", path(),
                                                        params_query_name(q), first, first + out.size(), n));
    const auto raw_bytes = raw(q);
    for_chunks(out.size(), threads, 1024, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i)
            out[i] = decode_g1_at(raw_bytes.subspan((first + i) * 96, 96), check_, false,
                                  [&] { return fmt::format("{}: {}[{}]", path(), params_query_name(q), first + i); });
    });
}

void mapped_params::decode_g2(size_t first, std::span<g2_affine> out, unsigned threads) const
{
    const size_t n = count(params_query::b_g2);
    if (first > n || out.size() > n - first)
        throw error(errc::invalid_argument,
                    fmt::format("{}: b_g2 range [{}, {}) outside its {} points", path(), first, first + out.size(), n));
    const auto raw_bytes = raw(params_query::b_g2);
    for_chunks(out.size(), threads, 512, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i)
            out[i] = decode_g2_at(raw_bytes.subspan((first + i) * 192, 192), check_, false,
                                  [&] { return fmt::format("{}: b_g2[{}]", path(), first + i); });
    });
}

std::vector<g1_affine> mapped_params::decode_g1(params_query q, unsigned threads) const
{
    if (q == params_query::b_g2)
        throw error(errc::invalid_argument, "mapped_params::decode_g1: b_g2 is a G2 vector (use decode_b_g2)");
    std::vector<g1_affine> out(count(q));
    decode_g1(q, 0, out, threads);
    return out;
}

std::vector<g2_affine> mapped_params::decode_b_g2(unsigned threads) const
{
    std::vector<g2_affine> out(count(params_query::b_g2));
    decode_g2(0, out, threads);
    return out;
}

groth16::proving_key mapped_params::key_shell() const
{
    groth16::proving_key pk;
    pk.conv = groth16::convention::bellperson;
    pk.vk = vk_;
    const uint64_t n = uint64_t(count(params_query::h)) + 1;
    if ((n & (n - 1)) != 0)
        throw error(errc::bad_format,
                    fmt::format("{}: h has {} points, so the domain size {} is not a power of two (a bellperson "
                                "key has n − 1 h points)",
                                path(), n - 1, n));
    if (vk_.ic.empty()) throw error(errc::bad_format, fmt::format("{}: the verifying key has no IC points", path()));
    pk.num_inputs = uint32_t(vk_.ic.size());
    pk.num_aux = uint32_t(count(params_query::l));
    pk.domain_size = n;
    return pk;
}

groth16::proving_key mapped_params::to_proving_key(unsigned threads) const
{
    groth16::proving_key pk = key_shell();
    pk.h = decode_g1(params_query::h, threads);
    pk.l = decode_g1(params_query::l, threads);
    pk.a = decode_g1(params_query::a, threads);
    pk.b_g1 = decode_g1(params_query::b_g1, threads);
    pk.b_g2 = decode_b_g2(threads);
    return pk;
}

groth16::proving_key read_params(const std::string& path, subgroup_check check, unsigned threads)
{
    return mapped_params(path, check).to_proving_key(threads);
}

} // namespace cuzk::io
