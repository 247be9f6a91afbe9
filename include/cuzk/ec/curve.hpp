// cuzk — the pairing-friendly curves, as traits structs.
//
// A curve is a traits struct naming its scalar field, groups and target
// group: the pairing (pairing/pairing.hpp), the Groth16 types
// (groth16/types.hpp) and the verifier are templates over it, instantiated
// for BLS12-381 (Filecoin, bellperson, snarkjs's "bls12381") and BN254
// (snarkjs's and circom's default "bn128"). The unqualified Groth16 names
// (groth16::proof, …) are the BLS12-381 ones. The traits sit in the ec layer
// so that the pairing layer can be written over them; groth16/curve.hpp
// adds the pairings.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <variant>

#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/bn254.hpp"
#include "cuzk/ec/subgroup.hpp"
#include "cuzk/ff/bn254.hpp"
#include "cuzk/ff/fp12.hpp"

namespace cuzk {

// A G2 point's Miller-loop lines (pairing/pairing.hpp, which defines it).
template <class Curve>
struct g2_prepared_t;

enum class curve_id : uint8_t { bls12_381 = 0, bn254 = 1 };

// "bls12-381" / "bn254".
const char* curve_name(curve_id c) noexcept;
// The curve of a snarkjs "curve" field or a CLI argument: "bls12381",
// "bls12-381", "bn128", "bn254" (case-insensitive); nullopt otherwise.
std::optional<curve_id> curve_from_name(std::string_view name) noexcept;

struct bls12_381_curve {
    static constexpr curve_id id = curve_id::bls12_381;
    static constexpr const char* snarkjs_name = "bls12381";
    using fr = cuzk::fr;
    using fp = cuzk::fp;
    using fp2 = cuzk::fp2;
    using fp12 = cuzk::fp12;
    using g1_affine = cuzk::g1_affine;
    using g1_jacobian = cuzk::g1_jacobian;
    using g2_affine = cuzk::g2_affine;
    using g2_jacobian = cuzk::g2_jacobian;
    using g2_prepared = g2_prepared_t<bls12_381_curve>;

    // Membership of a point known to be on its curve (endomorphism tests).
    static bool in_subgroup(const g1_affine& p) { return in_subgroup_fast(p); }
    static bool in_subgroup(const g2_affine& p) { return in_subgroup_fast(p); }
};

struct bn254_curve {
    static constexpr curve_id id = curve_id::bn254;
    static constexpr const char* snarkjs_name = "bn128";
    using fr = bn254::fr;
    using fp = bn254::fp;
    using fp2 = bn254::fp2;
    using fp12 = bn254::fp12;
    using g1_affine = bn254::g1_affine;
    using g1_jacobian = bn254::g1_jacobian;
    using g2_affine = bn254::g2_affine;
    using g2_jacobian = bn254::g2_jacobian;
    using g2_prepared = g2_prepared_t<bn254_curve>;

    // G1 = E(Fp) (cofactor 1): every point on the curve; G2 by [r]Q = O.
    static bool in_subgroup(const g1_affine&) { return true; }
    static bool in_subgroup(const g2_affine& q) { return bn254::in_subgroup(q); }
};

// One T<C> of any supported curve, as a variant whose alternative index is
// the curve_id (a proof, a witness or sums whose curve is known at run time).
template <template <class> class T>
using per_curve = std::variant<T<bls12_381_curve>, T<bn254_curve>>;

// f(C{}) for the traits C of curve c: where a run-time curve_id becomes a
// type, so that the code after it is written once as a template.
template <class F>
decltype(auto) with_curve(curve_id c, F&& f)
{
    if (c == curve_id::bn254) return std::forward<F>(f)(bn254_curve{});
    return std::forward<F>(f)(bls12_381_curve{});
}

} // namespace cuzk
