// cuzk — fast prime-order subgroup tests for points from untrusted sources.
//
// E(Fp) and the twist E'(Fp2) have cofactors, so a point on the curve can
// have a component of small order (e.g. (0, 2) has order 3 on y² = x³ + 4).
// Such points must be refused before they reach a verifier. The reference
// test [r]P = O (in_subgroup in ec/bls12_381.hpp) costs a 255-bit scalar
// multiplication; the tests here use an endomorphism whose eigenvalue on the
// subgroup is a small multiple of the curve seed u = −0xd201000000010000.
//
// G1: φ(x, y) = (β·x, y) with β a primitive cube root of unity in Fp. On the
//     order-r group φ acts as a cube root of unity mod r; r = u⁴ − u² + 1
//     makes λ = −u² one (λ² + λ + 1 = u⁴ − u² + 1 = r ≡ 0). β is the root
//     whose eigenvalue is −u² (the other root pairs with u² − 1). Test:
//     φ(P) = −[u²]P, two 64-bit multiplications by |u|.
// G2: ψ = (twist ∘ p-power Frobenius ∘ untwist). With the M-type twist
//     (x, y) ↦ (x/w², y/w³) into E(Fp12), w⁶ = ξ = 1 + i, it is
//     ψ(x, y) = (x̄·ξ^(−(p−1)/3), ȳ·ξ^(−(p−1)/2)) (bar: conjugation). On G2 it
//     acts as [p], and p ≡ u (mod r) for BLS12 curves. Test: ψ(P) = [u]P, one
//     64-bit multiplication.
// That these equalities also imply membership (no point outside the subgroup
// satisfies them) is M. Scott's result for BLS12-381 ("A note on group
// membership tests for G1, G2 and GT on BLS pairing-friendly curves", 2021);
// test/test_encoding.cpp checks the fast tests against [r]P on random points
// of the subgroup and on constructed points outside it.
#pragma once

#include "cuzk/ec/bls12_381.hpp"

namespace cuzk {

// True iff p (on the curve; callers check that first) lies in G1 / G2.
// The identity is in the subgroup.
bool g1_in_subgroup_fast(const g1_affine& p);
bool g2_in_subgroup_fast(const g2_affine& p);

inline bool in_subgroup_fast(const g1_affine& p) { return g1_in_subgroup_fast(p); }
inline bool in_subgroup_fast(const g2_affine& p) { return g2_in_subgroup_fast(p); }

// The endomorphisms themselves (exposed for the tests).
g1_affine g1_endomorphism_phi(const g1_affine& p);
g2_affine g2_endomorphism_psi(const g2_affine& p);

} // namespace cuzk
