// cuzk — the BN254 (alt_bn128, the Ethereum/EIP-196/197 and snarkjs curve)
// fields: base field Fp, scalar field Fr and the tower
//
//   Fp2  = Fp[u]/(u² + 1)
//   Fp6  = Fp2[v]/(v³ − ξ),  ξ = 9 + u
//   Fp12 = Fp6[w]/(w² − v)
//
// the same templates as BLS12-381 (ff/field.hpp, ff/fp2.hpp, ff/tower.hpp),
// in the namespace cuzk::bn254 so that the names read as the BLS ones do
// (bn254::fp, bn254::fp12, …) without colliding with them.
//
// The curve seed is x = 4965661367192848881 (bn254::seed below):
//   p = 36x⁴ + 36x³ + 24x² + 6x + 1,  r = 36x⁴ + 36x³ + 18x² + 6x + 1.
// Every Montgomery constant below is re-derived from the decimal moduli with
// GMP by test/test_bn254.cpp; the Frobenius coefficients are derived at
// compile time (ff/tower_constants.hpp) and checked there too.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/ff/field.hpp"
#include "cuzk/ff/fp2.hpp"
#include "cuzk/ff/tower.hpp"

namespace cuzk::bn254 {

// The BN seed; 6x + 2 is the optimal ate loop length (pairing/pairing.hpp).
inline constexpr uint64_t seed = 4965661367192848881ull;

struct fp_params {
    static constexpr size_t limbs = 4;
    static constexpr unsigned bits = 254;
    /* p = 21888242871839275222246405745257275088696311157297823662689037894645226208583
         = 0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47 */
    static constexpr bigint<4> modulus = {{0x3c208c16d87cfd47, 0x97816a916871ca8d, 0xb85045b68181585d,
                                           0x30644e72e131a029}};
    /* R = 2^256 mod p: the Montgomery form of 1 */
    static constexpr bigint<4> one = {{0xd35d438dc58f0d9d, 0x0a78eb28f5c70b3d, 0x666ea36f7879462c,
                                       0x0e0a77c19a07df2f}};
    /* R² = 2^512 mod p */
    static constexpr bigint<4> r2 = {{0xf32cfc5b538afa89, 0xb5e71911d44501fb, 0x47ab1eff0a417ff6,
                                      0x06d89f71cab8351f}};
    /* −p⁻¹ mod 2^64 */
    static constexpr uint64_t inv = 0x87d20782e4866389;
    /* p − 1 = 2·odd; p ≡ 3 (mod 4), so square roots are a^((p+1)/4) */
    static constexpr unsigned two_adicity = 1;
    /* −1 is a quadratic non-residue since p ≡ 3 (mod 4); unused by sqrt */
    static constexpr uint64_t nonresidue = 0;
};

struct fr_params {
    static constexpr size_t limbs = 4;
    static constexpr unsigned bits = 254;
    /* r = 21888242871839275222246405745257275088548364400416034343698204186575808495617
         = 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001 */
    static constexpr bigint<4> modulus = {{0x43e1f593f0000001, 0x2833e84879b97091, 0xb85045b68181585d,
                                           0x30644e72e131a029}};
    /* R = 2^256 mod r */
    static constexpr bigint<4> one = {{0xac96341c4ffffffb, 0x36fc76959f60cd29, 0x666ea36f7879462e,
                                       0x0e0a77c19a07df2f}};
    /* R² = 2^512 mod r */
    static constexpr bigint<4> r2 = {{0x1bb8e645ae216da7, 0x53fe3ab1e35c59e3, 0x8c49833d53bb8085,
                                      0x0216d0b17f4e44a5}};
    /* −r⁻¹ mod 2^64 */
    static constexpr uint64_t inv = 0xc2e1f593efffffff;
    /* r − 1 = 2^28·t with t odd */
    static constexpr unsigned two_adicity = 28;
    /* 5 is the smallest quadratic non-residue mod r (also snarkjs's nqr and the
       multiplicative generator arkworks uses) */
    static constexpr uint64_t nonresidue = 5;
};

using fp = field<fp_params>;
using fr = field<fr_params>;

// The tower-parameter struct (see ff/fp2.hpp): ξ = 9 + u.
struct tower {
    using base = fp;
    static constexpr uint64_t xi_c0 = 9;
};

using fp2 = fp2_t<tower>;
using fp6 = fp6_t<tower>;
using fp12 = fp12_t<tower>;

// γ(k, i) = ξ^(i·(p^k − 1)/6), k = 1, 2, 3, i = 1..5 (γ(k, 0) = 1).
CUZK_HD constexpr fp2 frobenius_coeff(unsigned k, unsigned i)
{
    return tower_frobenius_coeff<tower>(k, i);
}

// 384 bytes: twelve 32-byte big-endian Fp coefficients in the order of
// @noble/curves' Fp12.toBytes (fp12_to_bytes_be in ff/tower.hpp).
inline constexpr size_t fp12_nbytes = fp12_nbytes_of<tower>;

} // namespace cuzk::bn254
