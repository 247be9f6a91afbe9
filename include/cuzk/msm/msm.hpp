// cuzk — multi-scalar multiplication Σ k_i·P_i on the CPU, for G1 and G2 of
// BLS12-381 and of BN254 (the same code, overloads by point type), and the
// 0/1-scalar special case (a plain sum of selected points).
//
// Method (lib/msm/msm_cpu.cpp has the derivations and cost notes): Pippenger
// with signed (Booth) window digits in [−2^(c−1), 2^(c−1)], so a window needs
// 2^(c−1) buckets and a negative digit adds the negated point. Buckets are
// filled with mixed additions, either in XYZZ coordinates or — when the
// windows are large enough to amortise one field inversion over many
// additions — in affine coordinates with Montgomery's batch-inversion trick.
// Each window's buckets are reduced by a running sum or, for large windows,
// by splitting the bucket index in two digits; the window sums are
// combined by c doublings each. Work is split into (window, chunk of points)
// tasks, each with its own buckets, handed out to an explicit number of
// threads; no global pool.
//
// Scalars are canonical (non-Montgomery) little-endian integers of four
// 64-bit limbs — what fr::to_repr() gives. Every value below 2^256 is
// accepted, not only those below r: the result is then Σ k_i·P_i for the
// integers k_i (which, for points of order r, equals the sum with k_i mod r).
// Points are affine; the affine identity (0, 0) may appear and contributes
// nothing. Points need not be in the prime-order subgroup: the computation is
// exact in the group of the curve (the additions are complete).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/bn254.hpp"

namespace cuzk {

// How the buckets accumulate points.
enum class msm_buckets : uint8_t {
    automatic,      // chosen by the cost model (see msm_plan in msm_cpu.cpp)
    xyzz,           // XYZZ buckets, one mixed addition (8M + 2S) per point
    batch_affine,   // affine buckets, additions batched around one inversion (~6M per point)
};

struct msm_options {
    unsigned threads = 0;       // worker threads; 0 = all hardware threads
    unsigned window_bits = 0;   // Pippenger window c in 1 … 24; 0 = chosen from n (msm_window_bits)
    msm_buckets buckets = msm_buckets::automatic;   // a knob for tests and benchmarks
    // Batch-affine additions on G1 (both curves) run eight at a time on AVX-512 IFMA
    // (52-bit multiply-add) where the CPU has it; false keeps the scalar
    // code everywhere (same results; for tests and benchmarks). The kernels
    // work on a copy of the points: an MSM of more than 2^22 points runs in
    // blocks of 2^22, so the copy stays below 384 MiB.
    bool avx512 = true;
};

// The window size c the automatic choice takes for n points whose scalars
// have at most scalar_bits significant bits, run on `threads` workers (0 = all
// hardware threads). Cost model, in field multiplications M (S counted as M):
//   per task (one window over a chunk of m points):  m·A(c) + 2^(c−1)·R(c)
//   A(c) = cost of adding one point into a bucket: 10 (XYZZ mixed addition)
//          or 6.5 + I·(m/K + 2)/m (batch-affine: batches of K = 2^(c−1)/4 ≤ 2048
//          additions share one inversion of cost I ≈ 1000 M; two more
//          inversions flush the last batches); the cheaper one is used
//   R(c) = cost per bucket of the reduction: the running sum's two
//          additions, 28 M (XYZZ buckets) or 24 M (affine buckets), or for
//          affine buckets where it is cheaper (large windows) the digit
//          split: each filled bucket added to two of ~2·2^(c/2) lane sums by
//          batch-affine additions, ~2·6.5 M plus a share of ~64 inversions
//   windows W = ceil((scalar_bits + 1)/c); the W·C tasks run in
//   ceil(W·C/T) rounds on T workers, with C (the chunks per window) chosen
//   with c. The c (and C) of smallest estimated time wins.
// Single-thread results for 255-bit scalars: 2^10 → 8, 2^14 → 12, 2^16 → 13,
// 2^18 → 14, 2^20 → 16, 2^24 and above → 20 (16 threads: 2^16 → 12, 2^20 → 16).
unsigned msm_window_bits(size_t n, unsigned threads = 1, unsigned scalar_bits = 255);

// Σ scalars[i]·points[i]. Throws cuzk::error(errc::invalid_argument) when the
// spans differ in length or opt.window_bits > 24. n = 0 gives the identity.
g1_jacobian msm(std::span<const g1_affine> points, std::span<const fr::repr> scalars, const msm_options& opt = {});
g2_jacobian msm(std::span<const g2_affine> points, std::span<const fr::repr> scalars, const msm_options& opt = {});

// Σ points[i] over the i with mask[i] != 0 (the 0/1 scalars of Groth16
// witnesses): plain batch addition, split over `threads` workers (0 = all).
// Throws cuzk::error(errc::invalid_argument) when the lengths differ.
g1_jacobian sum_points(std::span<const g1_affine> points, std::span<const uint8_t> mask, unsigned threads = 0);
g2_jacobian sum_points(std::span<const g2_affine> points, std::span<const uint8_t> mask, unsigned threads = 0);
g1_jacobian sum_points(std::span<const g1_affine> points, const std::vector<bool>& mask, unsigned threads = 0);
g2_jacobian sum_points(std::span<const g2_affine> points, const std::vector<bool>& mask, unsigned threads = 0);

// The same on BN254 (scalars are BN254 Fr's canonical integers, also four
// limbs).
bn254::g1_jacobian msm(std::span<const bn254::g1_affine> points, std::span<const fr::repr> scalars,
                       const msm_options& opt = {});
bn254::g2_jacobian msm(std::span<const bn254::g2_affine> points, std::span<const fr::repr> scalars,
                       const msm_options& opt = {});
bn254::g1_jacobian sum_points(std::span<const bn254::g1_affine> points, std::span<const uint8_t> mask,
                              unsigned threads = 0);
bn254::g2_jacobian sum_points(std::span<const bn254::g2_affine> points, std::span<const uint8_t> mask,
                              unsigned threads = 0);

} // namespace cuzk
