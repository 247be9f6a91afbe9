// cuzk — the BLS12-381 base field Fp, scalar field Fr and the quadratic
// extension Fp2 = Fp[u]/(u² + 1) (the template of ff/fp2.hpp).
//
// Every constant below is re-derived from the decimal modulus with GMP by
// test/test_ff.cpp; a change here that is not a correct derivation fails there.
#pragma once

#include "cuzk/ff/field.hpp"
#include "cuzk/ff/fp2.hpp"

namespace cuzk {

struct fp_params {
    static constexpr size_t limbs = 6;
    static constexpr unsigned bits = 381;
    /* p = 4002409555221667393417789825735904156556882819939007885332058136124031650490837864442687629129015664037894272559787
         = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab */
    static constexpr bigint<6> modulus = {{0xb9feffffffffaaab, 0x1eabfffeb153ffff, 0x6730d2a0f6b0f624,
                                           0x64774b84f38512bf, 0x4b1ba7b6434bacd7, 0x1a0111ea397fe69a}};
    /* R = 2^384 mod p: the Montgomery form of 1 */
    static constexpr bigint<6> one = {{0x760900000002fffd, 0xebf4000bc40c0002, 0x5f48985753c758ba,
                                       0x77ce585370525745, 0x5c071a97a256ec6d, 0x15f65ec3fa80e493}};
    /* R² = 2^768 mod p: multiplying by it converts into Montgomery form */
    static constexpr bigint<6> r2 = {{0xf4df1f341c341746, 0x0a76e6a609d104f1, 0x8de5476c4c95b6d5,
                                      0x67eb88a9939d83c0, 0x9a793e85b519952d, 0x11988fe592cae3aa}};
    /* −p⁻¹ mod 2^64 */
    static constexpr uint64_t inv = 0x89f3fffcfffcfffd;
    /* p − 1 = 2·odd; p ≡ 3 (mod 4), so square roots are a^((p+1)/4) */
    static constexpr unsigned two_adicity = 1;
    /* −1 is a quadratic non-residue since p ≡ 3 (mod 4); unused by sqrt */
    static constexpr uint64_t nonresidue = 0;
};

struct fr_params {
    static constexpr size_t limbs = 4;
    static constexpr unsigned bits = 255;
    /* r = 52435875175126190479447740508185965837690552500527637822603658699938581184513
         = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001 */
    static constexpr bigint<4> modulus = {{0xffffffff00000001, 0x53bda402fffe5bfe, 0x3339d80809a1d805,
                                           0x73eda753299d7d48}};
    /* R = 2^256 mod r: the Montgomery form of 1 */
    static constexpr bigint<4> one = {{0x00000001fffffffe, 0x5884b7fa00034802, 0x998c4fefecbc4ff5,
                                       0x1824b159acc5056f}};
    /* R² = 2^512 mod r */
    static constexpr bigint<4> r2 = {{0xc999e990f3f29c6d, 0x2b6cedcb87925c23, 0x05d314967254398f,
                                      0x0748d9d99f59ff11}};
    /* −r⁻¹ mod 2^64 */
    static constexpr uint64_t inv = 0xfffffffeffffffff;
    /* r − 1 = 2^32·t with t odd */
    static constexpr unsigned two_adicity = 32;
    /* 5 is the smallest quadratic non-residue mod r (snarkjs's nqr; bellperson
       uses the multiplicative generator 7, also a non-residue) */
    static constexpr uint64_t nonresidue = 5;
};

using fp = field<fp_params>;
using fr = field<fr_params>;

// The tower-parameter struct of BLS12-381 (see ff/fp2.hpp): Fp2 = Fp[u]/(u² + 1)
// and the sextic non-residue ξ = 1 + u of Fp6/Fp12 (ff/fp12.hpp).
struct bls12_381_tower {
    using base = fp;
    static constexpr uint64_t xi_c0 = 1;
};

// Fp2 = Fp[u]/(u² + 1); an element is c0 + c1·u.
using fp2 = fp2_t<bls12_381_tower>;

} // namespace cuzk
