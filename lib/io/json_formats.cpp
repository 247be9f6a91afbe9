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

json g1_to_json(const g1_affine& p)
{
    if (p.is_identity()) return json::array({dec_str("0"), dec_str("1"), dec_str("0")});
    return json::array({dec(p.x), dec(p.y), dec_str("1")});
}
json fp2_to_json(const fp2& a) { return json::array({dec(a.c0), dec(a.c1)}); }
json g2_to_json(const g2_affine& p)
{
    if (p.is_identity())
        return json::array({json::array({dec_str("0"), dec_str("0")}), json::array({dec_str("1"), dec_str("0")}),
                            json::array({dec_str("0"), dec_str("0")})});
    return json::array({fp2_to_json(p.x), fp2_to_json(p.y), json::array({dec_str("1"), dec_str("0")})});
}
json fp12_to_json(const fp12& a)
{
    auto f6 = [](const fp6& b) { return json::array({fp2_to_json(b.c0), fp2_to_json(b.c1), fp2_to_json(b.c2)}); };
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
              fmt::format("value is not below the {} modulus", std::is_same_v<F, fp> ? "base field (p)" : "scalar field (r)"));
    return F::from_repr(v);
}

fp2 parse_fp2(const json& j, const std::string& where)
{
    const auto& a = array_of(j, 2, where);
    return {parse_field<fp>(a[0], where + "[0]"), parse_field<fp>(a[1], where + "[1]")};
}

g1_affine parse_g1(const json& j, const std::string& where)
{
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
    if (!in_subgroup_fast(p)) jfail(errc::not_in_subgroup, where, "point is not in the prime-order subgroup G1");
    return p;
}

g2_affine parse_g2(const json& j, const std::string& where)
{
    const auto& a = array_of(j, 3, where);
    const fp2 x = parse_fp2(a[0], where + "[0]");
    const fp2 y = parse_fp2(a[1], where + "[1]");
    const fp2 z = parse_fp2(a[2], where + "[2]");
    if (z.is_zero()) {
        if (!x.is_zero()) jfail(errc::bad_format, where, "point at infinity must have x = 0");
        return g2_affine::identity();
    }
    if (!z.is_one())
        jfail(errc::bad_format, where + "[2]", "z coordinate must be [\"1\", \"0\"] (affine) or [\"0\", \"0\"] (infinity)");
    const g2_affine p{x, y};
    if (p.is_identity() || !p.is_on_curve()) jfail(errc::not_on_curve, where, "point is not on the G2 curve");
    if (!in_subgroup_fast(p)) jfail(errc::not_in_subgroup, where, "point is not in the prime-order subgroup G2");
    return p;
}

fp12 parse_fp12(const json& j, const std::string& where)
{
    const auto& a = array_of(j, 2, where);
    fp6 c[2];
    for (size_t i = 0; i < 2; ++i) {
        const std::string w = fmt::format("{}[{}]", where, i);
        const auto& b = array_of(a[i], 3, w);
        c[i] = {parse_fp2(b[0], w + "[0]"), parse_fp2(b[1], w + "[1]"), parse_fp2(b[2], w + "[2]")};
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

} // namespace

// ---- proof.json ------------------------------------------------------------------------

json proof_to_json(const groth16::proof& p)
{
    return json::object({{"pi_a", g1_to_json(p.a)},
                         {"pi_b", g2_to_json(p.b)},
                         {"pi_c", g1_to_json(p.c)},
                         {"protocol", json::string("groth16")},
                         {"curve", json::string("bls12381")}});
}

groth16::proof proof_from_json(const json& j, const std::string& name)
{
    if (!j.is_object()) jfail(errc::bad_format, name, "expected a JSON object");
    expect_string(j, "protocol", "groth16", name, true, errc::unsupported);
    expect_string(j, "curve", "bls12381", name, false, errc::unsupported);
    groth16::proof p;
    p.a = parse_g1(member(j, "pi_a", name), name + ": pi_a");
    p.b = parse_g2(member(j, "pi_b", name), name + ": pi_b");
    p.c = parse_g1(member(j, "pi_c", name), name + ": pi_c");
    return p;
}

void write_proof_json(const std::string& path, const groth16::proof& p)
{
    write_text_file(path, proof_to_json(p).dump(1));
}
groth16::proof read_proof_json(const std::string& path) { return proof_from_json(parse_file(path), path); }

// ---- public.json -----------------------------------------------------------------------

json public_to_json(std::span<const fr> inputs)
{
    json a = json::array();
    for (const fr& v : inputs) a.push_back(dec(v));
    return a;
}

std::vector<fr> public_from_json(const json& j, const std::string& name)
{
    const auto& a = array_of(j, size_t(-1), name);
    std::vector<fr> out;
    out.reserve(a.size());
    for (size_t i = 0; i < a.size(); ++i) out.push_back(parse_field<fr>(a[i], fmt::format("{}: [{}]", name, i)));
    return out;
}

void write_public_json(const std::string& path, std::span<const fr> inputs)
{
    write_text_file(path, public_to_json(inputs).dump(1));
}
std::vector<fr> read_public_json(const std::string& path) { return public_from_json(parse_file(path), path); }

// ---- verification_key.json ---------------------------------------------------------------

groth16::verifying_key snarkjs_vk::to_verifying_key() const
{
    groth16::verifying_key vk;
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
fp12 snarkjs_alphabeta(const g1_affine& alpha_g1, const g2_affine& beta_g2) { return pairing(alpha_g1, beta_g2); }

json vk_to_json(const groth16::verifying_key& vk)
{
    return vk_to_json(vk, snarkjs_alphabeta(vk.alpha_g1, vk.beta_g2));
}

json vk_to_json(const groth16::verifying_key& vk, const fp12& alphabeta_12)
{
    if (vk.ic.empty()) throw error(errc::invalid_argument, "vk_to_json: the key has no IC points");
    json ic = json::array();
    for (const auto& p : vk.ic) ic.push_back(g1_to_json(p));
    return json::object({{"protocol", json::string("groth16")},
                         {"curve", json::string("bls12381")},
                         {"nPublic", json::number(uint64_t(vk.ic.size() - 1))},
                         {"vk_alpha_1", g1_to_json(vk.alpha_g1)},
                         {"vk_beta_2", g2_to_json(vk.beta_g2)},
                         {"vk_gamma_2", g2_to_json(vk.gamma_g2)},
                         {"vk_delta_2", g2_to_json(vk.delta_g2)},
                         {"vk_alphabeta_12", fp12_to_json(alphabeta_12)},
                         {"IC", std::move(ic)}});
}

snarkjs_vk vk_from_json(const json& j, const std::string& name)
{
    if (!j.is_object()) jfail(errc::bad_format, name, "expected a JSON object");
    expect_string(j, "protocol", "groth16", name, true, errc::unsupported);
    expect_string(j, "curve", "bls12381", name, true, errc::unsupported);
    const json& np = member(j, "nPublic", name);
    const auto n_public = np.as_u64();
    if (!n_public || *n_public > 0xfffffffeu)
        jfail(errc::bad_format, name + ": nPublic", "expected a non-negative integer");
    snarkjs_vk vk;
    vk.alpha_g1 = parse_g1(member(j, "vk_alpha_1", name), name + ": vk_alpha_1");
    vk.beta_g2 = parse_g2(member(j, "vk_beta_2", name), name + ": vk_beta_2");
    vk.gamma_g2 = parse_g2(member(j, "vk_gamma_2", name), name + ": vk_gamma_2");
    vk.delta_g2 = parse_g2(member(j, "vk_delta_2", name), name + ": vk_delta_2");
    // vk_alphabeta_12 is redundant; when present it must be e(alpha, beta),
    // so that a tool reading it gets the same key that cuzk verifies with.
    vk.alphabeta_12 = snarkjs_alphabeta(vk.alpha_g1, vk.beta_g2);
    if (const json* ab = j.find("vk_alphabeta_12")) {
        if (parse_fp12(*ab, name + ": vk_alphabeta_12") != vk.alphabeta_12)
            jfail(errc::bad_format, name + ": vk_alphabeta_12", "is not e(vk_alpha_1, vk_beta_2)");
    }
    const auto& ic = array_of(member(j, "IC", name), size_t(*n_public) + 1, name + ": IC");
    vk.ic.reserve(ic.size());
    for (size_t i = 0; i < ic.size(); ++i) vk.ic.push_back(parse_g1(ic[i], fmt::format("{}: IC[{}]", name, i)));
    return vk;
}

void write_vk_json(const std::string& path, const groth16::verifying_key& vk)
{
    write_text_file(path, vk_to_json(vk).dump(1));
}
snarkjs_vk read_vk_json(const std::string& path) { return vk_from_json(parse_file(path), path); }

} // namespace cuzk::io
