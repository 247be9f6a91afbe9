// cuzk — Poseidon over BLS12-381 Fr exactly as Filecoin uses it (neptune,
// Strength::Standard).
//
// Width t = arity + 1, S-box x^5, R_F = 8 full rounds (4 before and 4 after
// the R_P partial rounds). The round constants come from the Grain LFSR of
// the Poseidon paper, the MDS matrix is the Cauchy matrix 1/(x_i + y_j) with
// x = 0..t−1, y = t..2t−1. state[0] holds the domain tag, the preimage goes
// into state[1..], and the output is state[1] after the permutation.
//
// Two permutations give the same result:
//  - plain: every round adds its t constants, applies the S-box (to all of
//    the state, or to state[0] only in partial rounds) and multiplies by M;
//  - fast: neptune's optimised form. Constants are pushed through the linear
//    layers so that each partial round adds one constant after its S-box,
//    and the R_P partial-round matrices are factored into one dense
//    "pre-sparse" matrix (used by the last full round of the first half) and
//    R_P sparse matrices that cost 2t−1 multiplications each. The constants
//    of this form are the ones neptune stores (compressed_round_constants,
//    pre_sparse_matrix, sparse_matrixes), so GPU kernels and circuit witness
//    code can consume them as flat arrays.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/ff/bls12_381.hpp"

namespace cuzk::filecoin {

// The arities with constants: 2, 4, 8 (trees), 11 (11-layer columns), 16,
// 24, 36 (hash_md).
bool poseidon_arity_supported(unsigned arity);

// Strength::Standard partial-round count for width t (3, 5, 9, 12, 17, 25,
// 37); throws errc::invalid_argument for other widths.
unsigned poseidon_partial_rounds(unsigned width);

// All constants of one arity. Matrices are t×t, row-major (element [i][j] at
// i·t + j). Build once per arity through poseidon_params().
class poseidon_constants {
public:
    static constexpr unsigned full_rounds = 8;

    explicit poseidon_constants(unsigned arity);   // derives everything (slow: use poseidon_params)

    unsigned arity() const { return arity_; }
    unsigned width() const { return arity_ + 1; }
    unsigned partial_rounds() const { return partial_rounds_; }

    // Plain form. round_constants: (R_F + R_P)·t values, round after round.
    // mds: M (symmetric); mds_inverse: M⁻¹.
    std::span<const fr> round_constants() const { return rc_; }
    std::span<const fr> mds() const { return mds_; }
    std::span<const fr> mds_inverse() const { return mds_inv_; }

    // Fast form (neptune's layout):
    // compressed_round_constants: R_F·t + R_P values, consumed in order:
    //   t added before round 0; t after the S-boxes of each of the first 4
    //   full rounds; 1 after the S-box of each partial round; t after the
    //   S-boxes of each of the last full rounds but the final one (which has
    //   none).
    // pre_sparse: dense t×t matrix P applied (as y_j = Σ_i x_i·P[i][j]) by the
    //   4th full round instead of M.
    // sparse: R_P blocks of 2t−1 values, one per partial round in order:
    //   w (t values) then v (t−1 values); the round computes
    //   y_0 = Σ_i x_i·w_i and y_j = x_j + x_0·v_{j−1} for j ≥ 1.
    std::span<const fr> compressed_round_constants() const { return crc_; }
    std::span<const fr> pre_sparse() const { return pre_sparse_; }
    std::span<const fr> sparse() const { return sparse_; }

private:
    unsigned arity_, partial_rounds_;
    std::vector<fr> rc_, mds_, mds_inv_, crc_, pre_sparse_, sparse_;
};

// The cached constants of `arity` (built on first use, thread-safe); throws
// errc::invalid_argument for an unsupported arity.
const poseidon_constants& poseidon_params(unsigned arity);

// Domain tags (state[0]).
fr poseidon_tag_merkle(unsigned arity);          // 2^arity − 1
fr poseidon_tag_constant_length(uint64_t n);     // n·2^64
fr poseidon_tag_custom(uint64_t id);             // id·2^40, id in 1..256 (neptune's Custom(Arbitrary(id)))

// The widest state of a supported arity (36 + 1).
constexpr unsigned poseidon_max_width = 37;

// The linear layers of the fast form, on the first t ≤ poseidon_max_width
// elements of x, in place (the permutations and the circuit's witness use
// them): x ← x·A for a t×t row-major matrix A (M, the pre-sparse matrix),
// y_j = Σ_i x_i·A[i][j]; and a sparse partial-round matrix block = w (t
// values) ‖ v (t−1 values): x_0 ← Σ_i x_i·w_i, x_j ← x_j + x_0·v_{j−1}.
inline void poseidon_dense_layer(fr* x, const fr* a, unsigned t)
{
    fr y[poseidon_max_width];
    for (unsigned j = 0; j < t; ++j) y[j] = x[0] * a[j];
    for (unsigned i = 1; i < t; ++i) {
        const fr xi = x[i];
        const fr* row = a + size_t(i) * t;
        for (unsigned j = 0; j < t; ++j) y[j] += xi * row[j];
    }
    for (unsigned j = 0; j < t; ++j) x[j] = y[j];
}
inline void poseidon_sparse_layer(fr* x, const fr* block, unsigned t)
{
    const fr* w = block;
    const fr* v = block + t;
    fr y0 = x[0] * w[0];
    for (unsigned i = 1; i < t; ++i) y0 += x[i] * w[i];
    const fr x0 = x[0];
    for (unsigned j = 1; j < t; ++j) x[j] += x0 * v[j - 1];
    x[0] = y0;
}

// The permutations on a state of width() elements.
void poseidon_permute_plain(const poseidon_constants& c, std::span<fr> state);
void poseidon_permute_fast(const poseidon_constants& c, std::span<fr> state);

enum class poseidon_mode { fast, plain };

// MerkleTree hash: arity = preimage.size() (must be supported).
fr poseidon_hash(std::span<const fr> preimage, poseidon_mode mode = poseidon_mode::fast);

// ConstantLength(n) hash with the constants of `arity`: n = preimage.size()
// ≤ arity, the rest of the state zero.
fr poseidon_hash_constant_length(unsigned arity, std::span<const fr> preimage,
                                 poseidon_mode mode = poseidon_mode::fast);

// A hash with neptune's Custom(Arbitrary(id)) domain tag and the constants
// of arity = preimage.size() (SnapDeals' phi, rho and challenge digests use
// id 1 at arity 2).
fr poseidon_hash_custom(uint64_t id, std::span<const fr> preimage, poseidon_mode mode = poseidon_mode::fast);

// Filecoin's hash_md: a Merkle–Damgård fold with the arity-36 MerkleTree
// hash: acc = x0, then acc = P36(acc ‖ next 35 elements), the last chunk
// zero-padded. Needs at least 2 elements.
fr poseidon_hash_md(std::span<const fr> input);

// Batched MerkleTree hashes: out[i] = P_arity(inputs[i·arity .. (i+1)·arity)),
// split over `threads` workers (0 = all cores).
void poseidon_hash_many(unsigned arity, std::span<const fr> inputs, std::span<fr> out, unsigned threads,
                        poseidon_mode mode = poseidon_mode::fast);

} // namespace cuzk::filecoin
