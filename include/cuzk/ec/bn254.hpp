// cuzk — the BN254 groups G1 = E(Fp): y² = x³ + 3 (cofactor 1) and
// G2 ⊂ E'(Fp2): y² = x³ + 3/ξ, ξ = 9 + u (the D-type sextic twist), both of
// prime order r (the Fr modulus), with the generators of EIP-196/197, snarkjs
// and @noble/curves. Same point templates as BLS12-381 (ec/point.hpp).
// Constants are in Montgomery form with the canonical values in the comments;
// test/test_bn254.cpp checks them against GMP and the curve equations.
#pragma once

#include "cuzk/ec/point.hpp"
#include "cuzk/ff/bn254.hpp"

namespace cuzk::bn254 {

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
    /* b = 3 */
    CUZK_HD static constexpr fp b()
    {
        return fp::from_mont({{0x7a17caa950ad28d7, 0x1f6ac17ae15521b9, 0x334bea4e696bd284, 0x2a1f6744ce179d8e}});
    }
    /* (1, 2) */
    CUZK_HD static constexpr g1_affine generator();
};

struct g2_curve {
    using field_type = fp2;
    /* b' = 3/ξ = 3(9 − u)/82
          = 19485874751759354771024239261021720505790618469301721065564631296452457478373
          + 266929791119991161246907387137283842545076965332900288569378510910307636690·u */
    CUZK_HD static constexpr fp2 b()
    {
        return {fp::from_mont({{0x3bf938e377b802a8, 0x020b1b273633535d, 0x26b7edf049755260, 0x2514c6324384a86d}}),
                fp::from_mont({{0x38e7ecccd1dcff67, 0x65f0b37d93ce0d3e, 0xd749d0dd22ac00aa, 0x0141b9ce4a688d4d}})};
    }
    /* x = x0 + x1·u, y = y0 + y1·u with
       x0 = 0x1800deef121f1e76426a00665e5c4479674322d4f75edadd46debd5cd992f6ed
       x1 = 0x198e9393920d483a7260bfb731fb5d25f1aa493335a9e71297e485b7aef312c2
       y0 = 0x12c85ea5db8c6deb4aab71808dcb408fe3d1e7690c43d37b4ce6cc0166fa7daa
       y1 = 0x090689d0585ff075ec9e99ad690c3395bc4b313370b38ef355acdadcd122975b */
    CUZK_HD static constexpr g2_affine generator();
};

CUZK_HD constexpr g1_affine g1_curve::generator()
{
    return {fp::from_mont({{0xd35d438dc58f0d9d, 0x0a78eb28f5c70b3d, 0x666ea36f7879462c, 0x0e0a77c19a07df2f}}),
            fp::from_mont({{0xa6ba871b8b1e1b3a, 0x14f1d651eb8e167b, 0xccdd46def0f28c58, 0x1c14ef83340fbe5e}})};
}

CUZK_HD constexpr g2_affine g2_curve::generator()
{
    return {{fp::from_mont({{0x8e83b5d102bc2026, 0xdceb1935497b0172, 0xfbb8264797811adf, 0x19573841af96503b}}),
             fp::from_mont({{0xafb4737da84c6140, 0x6043dd5a5802d8c4, 0x09e950fc52a02f86, 0x14fef0833aea7b6b}})},
            {fp::from_mont({{0x619dfa9d886be9f6, 0xfe7fd297f59e9b78, 0xff9e1a62231b7dfe, 0x28fd7eebae9e4206}}),
             fp::from_mont({{0x64095b56c71856ee, 0xdc57f922327d3cbb, 0x55f935be33351076, 0x0da4a0e693fd6482}})}};
}

// Subgroup membership by [r]P = O (one 254-bit scalar multiplication), for
// points already known to be on their curve. E(Fp) has cofactor 1, so every
// such G1 point passes; E'(Fp2) has a cofactor of 254 bits, so for G2 the
// test matters (EIP-197 requires it of G2 inputs).
// Non-template overloads, so that they win over the BLS12-381 template
// cuzk::in_subgroup (found by argument-dependent lookup too).
inline bool in_subgroup(const g1_affine& p)
{
    return p.is_identity() || scalar_mul(p, fr_params::modulus).is_identity();
}
inline bool in_subgroup(const g2_affine& p)
{
    return p.is_identity() || scalar_mul(p, fr_params::modulus).is_identity();
}

} // namespace cuzk::bn254
