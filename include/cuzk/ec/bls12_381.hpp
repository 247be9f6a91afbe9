// cuzk — the BLS12-381 groups G1 ⊂ E(Fp): y² = x³ + 4 and
// G2 ⊂ E'(Fp2): y² = x³ + 4(1 + u) (the M-type sextic twist), both of prime
// order r (the Fr modulus). Constants are in Montgomery form; the canonical
// values are in the comments and test/test_encoding.cpp checks the generators'
// zcash encodings against the published ones.
#pragma once

#include "cuzk/ec/point.hpp"
#include "cuzk/ff/bls12_381.hpp"

namespace cuzk {

// |x| for the BLS12-381 seed x = −0xd201000000010000 (the curve's parameter:
// the subgroup tests and the pairing's Miller loop and final exponentiation
// use it).
inline constexpr uint64_t bls_x_abs = 0xd201000000010000ull;
inline constexpr bool bls_x_is_negative = true;

struct g1_curve;
struct g2_curve;

using g1_affine = affine<fp, g1_curve>;
using g1_jacobian = jacobian<fp, g1_curve>;
using g1_xyzz = xyzz<fp, g1_curve>;
using g2_affine = affine<fp2, g2_curve>;
using g2_jacobian = jacobian<fp2, g2_curve>;
using g2_xyzz = xyzz<fp2, g2_curve>;

struct g1_curve {
    using field_type = fp;
    /* b = 4 */
    CUZK_HD static constexpr fp b()
    {
        return fp::from_mont({{0xaa270000000cfff3, 0x53cc0032fc34000a, 0x478fe97a6b0a807f,
                               0xb1d37ebee6ba24d7, 0x8ec9733bbf78ab2f, 0x09d645513d83de7e}});
    }
    /* x = 0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb
       y = 0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1 */
    CUZK_HD static constexpr g1_affine generator();
};

struct g2_curve {
    using field_type = fp2;
    /* b' = 4(1 + u) */
    CUZK_HD static constexpr fp2 b() { return {g1_curve::b(), g1_curve::b()}; }
    /* x = x0 + x1·u, y = y0 + y1·u with
       x0 = 0x024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8
       x1 = 0x13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e
       y0 = 0x0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801
       y1 = 0x0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be */
    CUZK_HD static constexpr g2_affine generator();
};

CUZK_HD constexpr g1_affine g1_curve::generator()
{
    return {fp::from_mont({{0x5cb38790fd530c16, 0x7817fc679976fff5, 0x154f95c7143ba1c1, 0xf0ae6acdf3d0e747,
                            0xedce6ecc21dbf440, 0x120177419e0bfb75}}),
            fp::from_mont({{0xbaac93d50ce72271, 0x8c22631a7918fd8e, 0xdd595f13570725ce, 0x51ac582950405194,
                            0x0e1c8c3fad0059c0, 0x0bbc3efc5008a26a}})};
}

CUZK_HD constexpr g2_affine g2_curve::generator()
{
    return {{fp::from_mont({{0xf5f28fa202940a10, 0xb3f5fb2687b4961a, 0xa1a893b53e2ae580, 0x9894999d1a3caee9,
                             0x6f67b7631863366b, 0x058191924350bcd7}}),
             fp::from_mont({{0xa5a9c0759e23f606, 0xaaa0c59dbccd60c3, 0x3bb17e18e2867806, 0x1b1ab6cc8541b367,
                             0xc2b6ed0ef2158547, 0x11922a097360edf3}})},
            {fp::from_mont({{0x4c730af860494c4a, 0x597cfa1f5e369c5a, 0xe7e6856caa0a635a, 0xbbefb5e96e0d495f,
                             0x07d3a975f0ef25a2, 0x0083fd8e7e80dae5}}),
             fp::from_mont({{0xadc0fc92df64b05d, 0x18aa270a2b1461dc, 0x86adac6a3be4eba0, 0x79495c4ec93da33a,
                             0xe7175850a43ccaed, 0x0b2bc2a163de1bf2}})}};
}

// Subgroup membership: [r]P = O. Costs one 255-bit scalar multiplication;
// Filecoin skips it for large parameter files (see ec/encoding.hpp).
template <class F, class C>
CUZK_HD bool in_subgroup(const affine<F, C>& p)
{
    if (p.is_identity()) return true;
    return scalar_mul(p, fr_params::modulus).is_identity();
}

} // namespace cuzk
