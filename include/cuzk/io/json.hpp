// cuzk — a small JSON value type with a strict parser and a writer, and the
// snarkjs JSON files built on it: proof.json, public.json and
// verification_key.json (docs/FORMATS.md §2.8).
//
// The value type keeps numbers as their literal text (so nothing is rounded
// through a double) and objects as an ordered list of members (so a written
// file keeps its key order). The parser follows RFC 8259: one value with
// optional surrounding whitespace, no trailing commas, no comments, strings
// with the standard escapes (\uXXXX with surrogate pairs → UTF-8), control
// characters rejected, UTF-8 validated, nesting limited to 256 levels,
// duplicate object keys rejected. Errors are errc::bad_format with
// "<name>: line L, column C: <message>".
//
// snarkjs files: every field element is the decimal string of its canonical
// value; a G1 point is [x, y, "1"], a G2 point [[x.c0, x.c1], [y.c0, y.c1],
// ["1", "0"]]; the point at infinity is ["0", "1", "0"] (G2: [["0","0"],
// ["1","0"],["0","0"]]). The readers check the shapes, that every decimal is
// below its modulus, and that points are on their curves (no subgroup check,
// like snarkjs's verifier); errors name the file and the field
// ("proof.json: pi_b[1][0]: …").
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ff/fp12.hpp"
#include "cuzk/groth16/types.hpp"

namespace cuzk::io {

class json {
public:
    enum class type : uint8_t { null, boolean, number, string, array, object };
    using array_t = std::vector<json>;
    using member = std::pair<std::string, json>;
    using object_t = std::vector<member>;

    json() = default;   // null
    static json boolean(bool b);
    // `literal` must be a JSON number (errc::invalid_argument otherwise).
    static json number(std::string_view literal);
    static json number(uint64_t v);
    static json string(std::string s);
    static json array(array_t items = {});
    static json object(object_t members = {});

    type kind() const noexcept { return type_; }
    bool is_null() const noexcept { return type_ == type::null; }
    bool is_bool() const noexcept { return type_ == type::boolean; }
    bool is_number() const noexcept { return type_ == type::number; }
    bool is_string() const noexcept { return type_ == type::string; }
    bool is_array() const noexcept { return type_ == type::array; }
    bool is_object() const noexcept { return type_ == type::object; }

    // Accessors throw errc::invalid_argument on a type mismatch.
    bool as_bool() const;
    const std::string& as_string() const;
    const std::string& number_text() const;
    const array_t& as_array() const;
    array_t& as_array();
    const object_t& as_object() const;
    object_t& as_object();
    // The number as a non-negative integer, if it is one that fits (no
    // fraction, no exponent, no sign); nullopt otherwise.
    std::optional<uint64_t> as_u64() const;

    // Object member lookup (nullptr when absent or not an object).
    const json* find(std::string_view key) const;
    // Appends to an array / sets (replacing) an object member.
    json& push_back(json v);
    json& set(std::string key, json v);
    size_t size() const noexcept;   // elements or members; 0 for scalars

    static json parse(std::string_view text, const std::string& name = "JSON input");
    // indent < 0: compact, one line. indent >= 0: one value per line, nested
    // levels indented by `indent` spaces (snarkjs uses 1).
    std::string dump(int indent = -1) const;

    friend bool operator==(const json& a, const json& b);
    friend bool operator!=(const json& a, const json& b) { return !(a == b); }

private:
    type type_ = type::null;
    bool bool_ = false;
    std::string text_;   // string value or number literal
    array_t arr_;
    object_t obj_;
};

// ---- the curve of a snarkjs file ------------------------------------------------------
// A snarkjs JSON object's "curve" field ("bls12381", "bn128"): the curve it
// names, nullopt when the field is absent (rapidsnark's proofs); an unknown
// name is errc::unsupported naming the file.
std::optional<curve_id> json_curve(const json& j, const std::string& name);

// Every function below is a template over the curve (groth16/curve.hpp),
// instantiated for bls12_381_curve and bn254_curve; readers take the curve
// as their template argument (BLS12-381 when left out), writers take it from
// their argument. Field elements are checked against the curve's moduli and
// points against its equations and subgroups.

// ---- snarkjs proof.json ------------------------------------------------------------------
// {"pi_a": G1, "pi_b": G2, "pi_c": G1, "protocol": "groth16", "curve": "bls12381"|"bn128"}
// On read, "curve" may be absent (rapidsnark omits it); if present it must
// name C (errc::unsupported otherwise), and "protocol" must be "groth16".
template <class C>
json proof_to_json(const groth16::proof_t<C>& p);
template <class C = bls12_381_curve>
groth16::proof_t<C> proof_from_json(const json& j, const std::string& name);
template <class C>
void write_proof_json(const std::string& path, const groth16::proof_t<C>& p);
template <class C = bls12_381_curve>
groth16::proof_t<C> read_proof_json(const std::string& path);

// ---- snarkjs public.json -----------------------------------------------------------------
// ["<decimal>", …]: the public signals (outputs, then public inputs), each < r.
template <class F>
json public_to_json(std::span<const F> inputs);
template <class F>
json public_to_json(const std::vector<F>& inputs)
{
    return public_to_json(std::span<const F>(inputs));
}
template <class C = bls12_381_curve>
std::vector<typename C::fr> public_from_json(const json& j, const std::string& name);
template <class F>
void write_public_json(const std::string& path, std::span<const F> inputs);
template <class F>
void write_public_json(const std::string& path, const std::vector<F>& inputs)
{
    write_public_json(path, std::span<const F>(inputs));
}
template <class C = bls12_381_curve>
std::vector<typename C::fr> read_public_json(const std::string& path);

// ---- snarkjs verification_key.json -------------------------------------------------------
// {"protocol":"groth16", "curve":"bls12381"|"bn128", "nPublic": n, "vk_alpha_1": G1,
//  "vk_beta_2": G2, "vk_gamma_2": G2, "vk_delta_2": G2, "vk_alphabeta_12": Fp12,
//  "IC": [G1 × (n+1)]}
// Fp12 is [[c0.c0, c0.c1, c0.c2], [c1.c0, c1.c1, c1.c2]] with each Fp2 as
// [c0, c1] (the towers of ff/tower.hpp, the same as ffjavascript's).
// vk_alphabeta_12 is snarkjs's e(α₁, β₂); no verifier reads it (snarkjs's
// verifier recomputes everything), so the reader checks that it equals
// e(α₁, β₂): ffjavascript's final exponents are cuzk's on both curves (the
// same values as @noble/curves; a snarkjs-made file of each curve is checked
// in test/test_json.cpp and by the interop test).
template <class C = bls12_381_curve>
struct snarkjs_vk_t {
    typename C::g1_affine alpha_g1;
    typename C::g2_affine beta_g2;
    typename C::g2_affine gamma_g2;
    typename C::g2_affine delta_g2;
    std::vector<typename C::g1_affine> ic;   // nPublic + 1 points
    typename C::fp12 alphabeta_12;
    uint32_t n_public() const noexcept { return uint32_t(ic.size() - 1); }
    // A groth16::verifying_key for the verifier. The JSON file carries no
    // beta_g1 / delta_g1 (only the prover uses them): they are set to the
    // identity.
    groth16::verifying_key_t<C> to_verifying_key() const;
};
using snarkjs_vk = snarkjs_vk_t<bls12_381_curve>;

// snarkjs's vk_alphabeta_12 for (alpha_g1, beta_g2) on BLS12-381:
// pairing(α₁, β₂).
fp12 snarkjs_alphabeta(const g1_affine& alpha_g1, const g2_affine& beta_g2);

template <class C>
json vk_to_json(const groth16::verifying_key_t<C>& vk);   // computes vk_alphabeta_12 (C's pairing)
template <class C>
json vk_to_json(const groth16::verifying_key_t<C>& vk, const typename C::fp12& alphabeta_12);
template <class C = bls12_381_curve>
snarkjs_vk_t<C> vk_from_json(const json& j, const std::string& name);
template <class C>
void write_vk_json(const std::string& path, const groth16::verifying_key_t<C>& vk);
template <class C = bls12_381_curve>
snarkjs_vk_t<C> read_vk_json(const std::string& path);

} // namespace cuzk::io
