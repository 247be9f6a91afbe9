// snarkjs JSON files: proof.json, public.json, verification_key.json
// (see include/cuzk/io/json.hpp and docs/FORMATS.md §2.8).
#include <type_traits>

#include <fmt/format.h>

#include "cuzk/ec/subgroup.hpp"
#include "cuzk/error.hpp"
#include "cuzk/io/decimal.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/io/mapped_file.hpp"
#include "cuzk/pairing/pairing.hpp"

namespace cuzk::io {

namespace {

template <class F>
json dec(const F& a)
{
    return json::string(to_decimal(a.to_repr()));
}
json dec_str(const char* s) { return json::string(s); }

template <class G1>
json g1_to_json(const G1& p)
{
    if (p.is_identity()) return json::array({dec_str("0"), dec_str("1"), dec_str("0")});
    return json::array({dec(p.x), dec(p.y), dec_str("1")});
}
template <class F2>
json fp2_to_json(const F2& a)
{
    return json::array({dec(a.c0), dec(a.c1)});
}
template <class G2>
json g2_to_json(const G2& p)
{
    if (p.is_identity())
        return json::array({json::array({dec_str("0"), dec_str("0")}), json::array({dec_str("1"), dec_str("0")}),
                            json::array({dec_str("0"), dec_str("0")})});
    return json::array({fp2_to_json(p.x), fp2_to_json(p.y), json::array({dec_str("1"), dec_str("0")})});
}
template <class F12>
json fp12_to_json(const F12& a)
{
    auto f6 = [](const auto& b) { return json::array({fp2_to_json(b.c0), fp2_to_json(b.c1), fp2_to_json(b.c2)}); };
    return json::array({f6(a.c0), f6(a.c1)});
}

// ---- checked readers; `where` is "<file>: <field path>" --------------------------------

[[noreturn]] void jfail(errc code, const std::string& where, const std::string& msg)
{
    throw error(code, fmt::format("{}: {}", where, msg));
}

const json& member(const json& obj, const char* key, const std::string& name)
{
    const json* v = obj.find(key);
    if (!v) jfail(errc::bad_format, name, fmt::format("missing field \"{}\"", key));
    return *v;
}

const json::array_t& array_of(const json& j, size_t n, const std::string& where)
{
    if (!j.is_array()) jfail(errc::bad_format, where, "expected an array");
    const auto& a = j.as_array();
    if (n != size_t(-1) && a.size() != n)
        jfail(errc::bad_format, where, fmt::format("expected an array of {} elements, got {}", n, a.size()));
    return a;
}

// A decimal string below the modulus of F.
template <class F>
F parse_field(const json& j, const std::string& where)
{
    if (!j.is_string()) jfail(errc::bad_format, where, "expected a decimal string");
    const std::string& s = j.as_string();
    if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
        jfail(errc::bad_format, where, fmt::format("\"{}\" is not a decimal string", s.size() > 40 ? s.substr(0, 40) + "…" : s));
    typename F::repr v;
    if (!from_decimal(s, v) || !F::is_canonical(v))
        jfail(errc::non_canonical, where,
              fmt::format("value is not below the {} modulus",
                          std::is_same_v<F, fp> || std::is_same_v<F, bn254::fp> ? "base field (p)" : "scalar field (r)"));
    return F::from_repr(v);
}

template <class C>
typename C::fp2 parse_fp2(const json& j, const std::string& where)
{
    using fp = typename C::fp;
    const auto& a = array_of(j, 2, where);
    return {parse_field<fp>(a[0], where + "[0]"), parse_field<fp>(a[1], where + "[1]")};
}

template <class C>
typename C::g1_affine parse_g1(const json& j, const std::string& where)
{
    using fp = typename C::fp;
    using g1_affine = typename C::g1_affine;
    const auto& a = array_of(j, 3, where);
    const fp x = parse_field<fp>(a[0], where + "[0]");
    const fp y = parse_field<fp>(a[1], where + "[1]");
    const fp z = parse_field<fp>(a[2], where + "[2]");
    if (z.is_zero()) {
        if (!x.is_zero()) jfail(errc::bad_format, where, "point at infinity must be [\"0\", \"1\", \"0\"]");
        return g1_affine::identity();
    }
    if (!z.is_one()) jfail(errc::bad_format, where + "[2]", "z coordinate must be \"1\" (affine) or \"0\" (infinity)");
    const g1_affine p{x, y};
    if (p.is_identity() || !p.is_on_curve()) jfail(errc::not_on_curve, where, "point is not on the G1 curve");
    if (!C::in_subgroup(p)) jfail(errc::not_in_subgroup, where, "point is not in the prime-order subgroup G1");
    return p;
}

template <class C>
typename C::g2_affine parse_g2(const json& j, const std::string& where)
{
    using fp2 = typename C::fp2;
    using g2_affine = typename C::g2_affine;
    const auto& a = array_of(j, 3, where);
    const fp2 x = parse_fp2<C>(a[0], where + "[0]");
    const fp2 y = parse_fp2<C>(a[1], where + "[1]");
    const fp2 z = parse_fp2<C>(a[2], where + "[2]");
    if (z.is_zero()) {
        if (!x.is_zero()) jfail(errc::bad_format, where, "point at infinity must have x = 0");
        return g2_affine::identity();
    }
    if (!z.is_one())
        jfail(errc::bad_format, where + "[2]", "z coordinate must be [\"1\", \"0\"] (affine) or [\"0\", \"0\"] (infinity)");
    const g2_affine p{x, y};
    if (p.is_identity() || !p.is_on_curve()) jfail(errc::not_on_curve, where, "point is not on the G2 curve");
    if (!C::in_subgroup(p)) jfail(errc::not_in_subgroup, where, "point is not in the prime-order subgroup G2");
    return p;
}

template <class C>
typename C::fp12 parse_fp12(const json& j, const std::string& where)
{
    const auto& a = array_of(j, 2, where);
    decltype(C::fp12::c0) c[2];
    for (size_t i = 0; i < 2; ++i) {
        const std::string w = fmt::format("{}[{}]", where, i);
        const auto& b = array_of(a[i], 3, w);
        c[i] = {parse_fp2<C>(b[0], w + "[0]"), parse_fp2<C>(b[1], w + "[1]"), parse_fp2<C>(b[2], w + "[2]")};
    }
    return {c[0], c[1]};
}

void expect_string(const json& obj, const char* key, const char* want, const std::string& name, bool required,
                   errc code)
{
    const json* v = obj.find(key);
    if (!v) {
        if (required) jfail(errc::bad_format, name, fmt::format("missing field \"{}\"", key));
        return;
    }
    if (!v->is_string() || v->as_string() != want)
        jfail(code, fmt::format("{}: {}", name, key),
              fmt::format("expected \"{}\", got {}", want, v->dump().substr(0, 60)));
}

json parse_file(const std::string& path) { return json::parse(read_text_file(path), path); }

// "curve" must name C when present (required: a missing field is an error).
template <class C>
void expect_curve(const json& obj, const std::string& name, bool required)
{
    const std::optional<curve_id> c = json_curve(obj, name);
    if (!c) {
        if (required) jfail(errc::bad_format, name, "missing field \"curve\"");
        return;
    }
    if (*c != C::id)
        jfail(errc::unsupported, name + ": curve",
              fmt::format("the file is for {} (\"{}\"), expected {} (\"{}\")", curve_name(*c),
                          *c == curve_id::bn254 ? bn254_curve::snarkjs_name : bls12_381_curve::snarkjs_name,
                          curve_name(C::id), C::snarkjs_name));
}

} // namespace

std::optional<curve_id> json_curve(const json& j, const std::string& name)
{
    if (!j.is_object()) return std::nullopt;
    const json* v = j.find("curve");
    if (!v) return std::nullopt;
    if (!v->is_string()) jfail(errc::bad_format, name + ": curve", "expected a string");
    const std::optional<curve_id> c = curve_from_name(v->as_string());
    if (!c)
        jfail(errc::unsupported, name + ": curve",
              fmt::format("curve not supported: \"{}\" (cuzk reads \"bls12381\" and \"bn128\")",
                          v->as_string().substr(0, 40)));
    return c;
}

// ---- proof.json ------------------------------------------------------------------------

template <class C>
json proof_to_json(const groth16::proof_t<C>& p)
{
    return json::object({{"pi_a", g1_to_json(p.a)},
                         {"pi_b", g2_to_json(p.b)},
                         {"pi_c", g1_to_json(p.c)},
                         {"protocol", json::string("groth16")},
                         {"curve", json::string(C::snarkjs_name)}});
}

template <class C>
groth16::proof_t<C> proof_from_json(const json& j, const std::string& name)
{
    if (!j.is_object()) jfail(errc::bad_format, name, "expected a JSON object");
    expect_string(j, "protocol", "groth16", name, true, errc::unsupported);
    expect_curve<C>(j, name, false);
    groth16::proof_t<C> p;
    p.a = parse_g1<C>(member(j, "pi_a", name), name + ": pi_a");
    p.b = parse_g2<C>(member(j, "pi_b", name), name + ": pi_b");
    p.c = parse_g1<C>(member(j, "pi_c", name), name + ": pi_c");
    return p;
}

template <class C>
void write_proof_json(const std::string& path, const groth16::proof_t<C>& p)
{
    write_text_file(path, proof_to_json(p).dump(1));
}
template <class C>
groth16::proof_t<C> read_proof_json(const std::string& path)
{
    return proof_from_json<C>(parse_file(path), path);
}

// ---- public.json -----------------------------------------------------------------------

template <class F>
json public_to_json(std::span<const F> inputs)
{
    json a = json::array();
    for (const F& v : inputs) a.push_back(dec(v));
    return a;
}

template <class C>
std::vector<typename C::fr> public_from_json(const json& j, const std::string& name)
{
    using fr = typename C::fr;
    const auto& a = array_of(j, size_t(-1), name);
    std::vector<fr> out;
    out.reserve(a.size());
    for (size_t i = 0; i < a.size(); ++i) out.push_back(parse_field<fr>(a[i], fmt::format("{}: [{}]", name, i)));
    return out;
}

template <class F>
void write_public_json(const std::string& path, std::span<const F> inputs)
{
    write_text_file(path, public_to_json(inputs).dump(1));
}
template <class C>
std::vector<typename C::fr> read_public_json(const std::string& path)
{
    return public_from_json<C>(parse_file(path), path);
}

// ---- verification_key.json ---------------------------------------------------------------

template <class C>
groth16::verifying_key_t<C> snarkjs_vk_t<C>::to_verifying_key() const
{
    using g1_affine = typename C::g1_affine;
    groth16::verifying_key_t<C> vk;
    vk.alpha_g1 = alpha_g1;
    vk.beta_g1 = g1_affine::identity();
    vk.beta_g2 = beta_g2;
    vk.gamma_g2 = gamma_g2;
    vk.delta_g1 = g1_affine::identity();
    vk.delta_g2 = delta_g2;
    vk.ic = ic;
    return vk;
}

// ffjavascript's bls12381 pairing uses the same final exponentiation as
// @noble/curves and cuzk::pairing (3·(p^12 − 1)/r, see pairing/pairing.hpp):
// vk_alphabeta_12 of a snarkjs-made verification_key.json equals
// pairing(alpha, beta) exactly (test/test_json.cpp keeps such a file's values).
fp12 snarkjs_alphabeta(const g1_affine& alpha_g1, const g2_affine& beta_g2)
{
    return pairing<bls12_381_curve>(alpha_g1, beta_g2);
}

template <class C>
json vk_to_json(const groth16::verifying_key_t<C>& vk)
{
    return vk_to_json(vk, pairing<C>(vk.alpha_g1, vk.beta_g2));
}

template <class C>
json vk_to_json(const groth16::verifying_key_t<C>& vk, const typename C::fp12& alphabeta_12)
{
    if (vk.ic.empty()) throw error(errc::invalid_argument, "vk_to_json: the key has no IC points");
    json ic = json::array();
    for (const auto& p : vk.ic) ic.push_back(g1_to_json(p));
    return json::object({{"protocol", json::string("groth16")},
                         {"curve", json::string(C::snarkjs_name)},
                         {"nPublic", json::number(uint64_t(vk.ic.size() - 1))},
                         {"vk_alpha_1", g1_to_json(vk.alpha_g1)},
                         {"vk_beta_2", g2_to_json(vk.beta_g2)},
                         {"vk_gamma_2", g2_to_json(vk.gamma_g2)},
                         {"vk_delta_2", g2_to_json(vk.delta_g2)},
                         {"vk_alphabeta_12", fp12_to_json(alphabeta_12)},
                         {"IC", std::move(ic)}});
}

template <class C>
snarkjs_vk_t<C> vk_from_json(const json& j, const std::string& name)
{
    if (!j.is_object()) jfail(errc::bad_format, name, "expected a JSON object");
    expect_string(j, "protocol", "groth16", name, true, errc::unsupported);
    expect_curve<C>(j, name, true);
    const json& np = member(j, "nPublic", name);
    const auto n_public = np.as_u64();
    if (!n_public || *n_public > 0xfffffffeu)
        jfail(errc::bad_format, name + ": nPublic", "expected a non-negative integer");
    snarkjs_vk_t<C> vk;
    vk.alpha_g1 = parse_g1<C>(member(j, "vk_alpha_1", name), name + ": vk_alpha_1");
    vk.beta_g2 = parse_g2<C>(member(j, "vk_beta_2", name), name + ": vk_beta_2");
    vk.gamma_g2 = parse_g2<C>(member(j, "vk_gamma_2", name), name + ": vk_gamma_2");
    vk.delta_g2 = parse_g2<C>(member(j, "vk_delta_2", name), name + ": vk_delta_2");
    // vk_alphabeta_12 is redundant; when present it must be e(alpha, beta),
    // so that a tool reading it gets the same key that cuzk verifies with.
    vk.alphabeta_12 = pairing<C>(vk.alpha_g1, vk.beta_g2);
    if (const json* ab = j.find("vk_alphabeta_12")) {
        const typename C::fp12 given = parse_fp12<C>(*ab, name + ": vk_alphabeta_12");
        if (given != vk.alphabeta_12)
            jfail(errc::bad_format, name + ": vk_alphabeta_12", "is not e(vk_alpha_1, vk_beta_2)");
    }
    const auto& ic = array_of(member(j, "IC", name), size_t(*n_public) + 1, name + ": IC");
    vk.ic.reserve(ic.size());
    for (size_t i = 0; i < ic.size(); ++i) vk.ic.push_back(parse_g1<C>(ic[i], fmt::format("{}: IC[{}]", name, i)));
    return vk;
}

template <class C>
void write_vk_json(const std::string& path, const groth16::verifying_key_t<C>& vk)
{
    write_text_file(path, vk_to_json(vk).dump(1));
}
template <class C>
snarkjs_vk_t<C> read_vk_json(const std::string& path)
{
    return vk_from_json<C>(parse_file(path), path);
}

#define CUZK_JSON_FORMATS(C)                                                                            \
    template json proof_to_json<C>(const groth16::proof_t<C>&);                                         \
    template groth16::proof_t<C> proof_from_json<C>(const json&, const std::string&);                   \
    template void write_proof_json<C>(const std::string&, const groth16::proof_t<C>&);                  \
    template groth16::proof_t<C> read_proof_json<C>(const std::string&);                                \
    template json public_to_json<C::fr>(std::span<const C::fr>);                                        \
    template std::vector<C::fr> public_from_json<C>(const json&, const std::string&);                   \
    template void write_public_json<C::fr>(const std::string&, std::span<const C::fr>);                 \
    template std::vector<C::fr> read_public_json<C>(const std::string&);                                \
    template struct snarkjs_vk_t<C>;                                                                    \
    template json vk_to_json<C>(const groth16::verifying_key_t<C>&);                                    \
    template json vk_to_json<C>(const groth16::verifying_key_t<C>&, const C::fp12&);                    \
    template snarkjs_vk_t<C> vk_from_json<C>(const json&, const std::string&);                          \
    template void write_vk_json<C>(const std::string&, const groth16::verifying_key_t<C>&);             \
    template snarkjs_vk_t<C> read_vk_json<C>(const std::string&);
CUZK_JSON_FORMATS(bls12_381_curve)
CUZK_JSON_FORMATS(bn254_curve)
#undef CUZK_JSON_FORMATS

} // namespace cuzk::io
