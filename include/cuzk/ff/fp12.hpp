// cuzk — the tower above Fp2 used by the BLS12-381 pairing (the templates of
// ff/tower.hpp with ξ = 1 + u):
//
//   Fp6  = Fp2[v]/(v³ − ξ),  ξ = 1 + u        element c0 + c1·v + c2·v²
//   Fp12 = Fp6[w]/(w² − v)                     element c0 + c1·w
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/ff/tower.hpp"

namespace cuzk {

using fp6 = fp6_t<bls12_381_tower>;
using fp12 = fp12_t<bls12_381_tower>;

// Frobenius coefficients γ(k, i) = ξ^(i·(p^k − 1)/6) ∈ Fp2 for k = 1, 2, 3 and
// i = 1..5 (γ(k, 0) = 1), derived at compile time (ff/tower_constants.hpp);
// test/test_pairing.cpp re-derives every one with fp2::pow and a GMP-computed
// exponent.
CUZK_HD constexpr fp2 frobenius_coeff(unsigned k, unsigned i)
{
    return tower_frobenius_coeff<bls12_381_tower>(k, i);
}

// 576 bytes: see fp12_to_bytes_be in ff/tower.hpp (the order of @noble/curves'
// Fp12.toBytes), each Fp 48 bytes big-endian canonical.
inline constexpr size_t fp12_nbytes = fp12_nbytes_of<bls12_381_tower>;

} // namespace cuzk
