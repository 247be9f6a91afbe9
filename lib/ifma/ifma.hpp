// cuzk — eight-lane Montgomery arithmetic with AVX-512 IFMA (52-bit limb
// multiply-add) for the CPU MSM's batch-affine additions (G1 only), on the
// base fields of BN254
// (L = 5 limbs of 52 bits, W = 4 words of 64) and BLS12-381's Fp (L = 8,
// W = 6). Internal to the library (lib/).
//
// Representation: a field element x is held as X' = x·R' mod p with
// R' = 2^(52·L) (the Montgomery form of the 52-bit limbs), stored like the
// scalar code's X = x·2^(64·W) mod p, in W 64-bit words; convert() maps
// whole arrays between the two. Values are always canonical (< p), so
// equality of x coordinates can be tested on either form.
//
// The kernels are compiled for AVX-512F + IFMA by function attributes only
// (ifma.cpp holds nothing else), and run only where available() says the CPU
// has both; elsewhere the MSM keeps its scalar path.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cuzk::ifma {

struct field52 {
    unsigned limbs = 0;      // L: 5 or 8 (W = 4 or 6)
    uint64_t p[8];           // the modulus, 52-bit limbs
    uint64_t pinv;           // −p⁻¹ mod 2^52
    uint64_t one[8];         // R' mod p: one in the R' form
    uint64_t to_vec[8];      // R'²/2^(64W) mod p: the Montgomery product with it maps X to X'
    uint64_t to_std[8];      // 2^(64W) mod p: … maps X' to X
};

// True when the CPU runs AVX-512F and AVX-512 IFMA (checked once).
bool available() noexcept;

// v[i·stride … i·stride + W) for i < n: from the scalar form to the R' form
// (to_vec) or back, in place.
void convert(const field52& f, uint64_t* v, size_t n, size_t stride, bool to_vec);

// A batch of affine additions B_j += ±P_j (j < n, n a multiple of 8), all
// in the R' form, with x(P_j) ≠ x(B_j): pt[j] points at P_j's x (y follows
// at +W words), bk[j] at B_j's, which is overwritten; neg[j] ≠ 0 adds −P_j.
// The buckets of one batch are distinct. invert8 replaces its eight values
// (R' form, the first W words of each row, non-zero) by their inverses (R'
// form).
struct batch {
    size_t n = 0;
    const uint64_t* const* pt = nullptr;
    uint64_t* const* bk = nullptr;
    const uint8_t* neg = nullptr;
};
using invert8_fn = void (*)(uint64_t (*v)[6], const void* ctx);

// Scratch words batch_add needs for n additions of a field of L limbs
// (64-byte alignment is handled inside).
constexpr size_t scratch_words(size_t n, unsigned limbs) { return (n / 8) * 6 * limbs * 8 + 8; }

void batch_add(const field52& f, const batch& b, uint64_t* scratch, invert8_fn invert8, const void* ctx);

} // namespace cuzk::ifma
