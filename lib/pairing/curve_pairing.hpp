// cuzk — internal: each curve's own part of the pairing, which the templates
// of pairing/pairing.hpp (defined in lib/pairing/pairing.cpp over the curve)
// are built from. lib/pairing/<curve>_pairing.cpp specialises
// curve_pairing<C> with
//   n_coeffs            the line triples of a prepared G2 point
//   inv_k_mod_r         k⁻¹ mod r for the factor k of final_exponentiation
//   prefix              of the function names in messages ("", "bn254::")
//   g1_curve, g2_curve  the equations, for not_on_curve messages
//   prepare(q)          the lines of q (on the curve, not the identity)
//   miller(ps, qs, n)   the shared Miller loop over n pairs whose inputs
//                       were checked (check_inputs)
//   final_exp(f)        the final exponentiation
#pragma once

#include <cstddef>

#include "cuzk/pairing/pairing.hpp"

namespace cuzk::pairing_detail {

template <class C>
struct curve_pairing;

template <>
struct curve_pairing<bls12_381_curve> {
    using C = bls12_381_curve;
    static constexpr size_t n_coeffs = 68;
    static const bigint<4> inv_k_mod_r;
    static constexpr const char* prefix = "";
    static constexpr const char* g1_curve = "y² = x³ + 4";
    static constexpr const char* g2_curve = "y² = x³ + 4(1 + u)";
    static g2_prepared_t<C> prepare(const C::g2_affine& q);
    static C::fp12 miller(const C::g1_affine* ps, const g2_prepared_t<C>* const* qs, size_t n);
    static C::fp12 final_exp(const C::fp12& f);
};

template <>
struct curve_pairing<bn254_curve> {
    using C = bn254_curve;
    static constexpr size_t n_coeffs = 88;
    static const bigint<4> inv_k_mod_r;
    static constexpr const char* prefix = "bn254::";
    static constexpr const char* g1_curve = "y² = x³ + 3";
    static constexpr const char* g2_curve = "y² = x³ + 3/(9 + u)";
    static g2_prepared_t<C> prepare(const C::g2_affine& q);
    static C::fp12 miller(const C::g1_affine* ps, const g2_prepared_t<C>* const* qs, size_t n);
    static C::fp12 final_exp(const C::fp12& f);
};

} // namespace cuzk::pairing_detail
