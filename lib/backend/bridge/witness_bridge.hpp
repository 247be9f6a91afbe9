// cuzk — internal: the entry points of kernels/pce.cu, kernels/witness_msm.cu
// and kernels/witness_msm_bn254.cu that lib/backend/cuda_witness.cpp calls (the PCE
// evaluation and the witness MSM of include/cuzk/backend/cuda.hpp). Not part
// of the public API. Plain C++, no CUDA type, as bridge/cuda_bridge.hpp:
// device memory travels as pointers to the host types, every function locks
// the backend's context for its duration and works on the backend's stream,
// and a failing CUDA call throws cuzk::error(errc::device, …); a failed
// allocation throws errc::out_of_memory.
//
// Only declared when the library is built with CUDA (CUZK_WITH_CUDA).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>

#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/bn254.hpp"

namespace cuzk::witness_bridge {

// ---- PCE ------------------------------------------------------------------------------
// One CSR matrix in device memory: rows + 1 offsets (64-bit, or 32-bit when
// row_ptr_32 — every offset below 2^32), the column and coefficient code of
// each entry (codes as r1cs/pce.hpp: 0 = +1, 1 = −1, k >= 2 = table[k − 2]).
struct csr_device {
    const void* row_ptr = nullptr;
    bool row_ptr_32 = false;
    const uint32_t* col = nullptr;
    const uint32_t* code = nullptr;
    // The entry number of col[0] and code[0]: 0 for a whole matrix; a tile
    // of a streamed PCE keeps its rows' offsets as they stand and its entries
    // from base on.
    uint64_t base = 0;
};
// a = A·w, b = B·w, c = C·w for rows 0 … rows−1 (m[0], m[1], m[2] = A, B, C);
// a and b null (both): C only; c null: A and B only (C's rows still read
// when the check needs them);
// w (nw values) indexed by the unified column. order: null, or the rows'
// order (r1cs::pce_shape_order, device memory) in which the three matrices
// are stored: position t of each matrix is row order[t], whose results go to
// a, b, c at index order[t]. Queued on the stream; does not wait.
void pce_eval(const csr_device m[3], const uint32_t* order, const fr* table, uint64_t rows, const fr* w, uint64_t nw,
              fr* a, fr* b, fr* c);
// The same in two parts, for a PCE evaluated tile by tile: the classes of w
// (0, 1, other) into the context's slot, then the evaluation of `rows`
// positions with the classes of the last pce_classify (of this w); both
// queued on the stream. check: the rows with a·b != c kept in a minimum that
// pce_check_begin resets (queued) and pce_check_end reads (−1 when none;
// waits for the stream), across any number of parts in between.
void pce_classify(const fr* w, uint64_t nw);
void pce_eval_classified(const csr_device m[3], const uint32_t* order, const fr* table, uint64_t rows, const fr* w,
                         uint64_t nw, fr* a, fr* b, fr* c, bool check = false);
void pce_check_begin();
int64_t pce_check_end();
// The same, and the smallest row with a·b != c (−1 when none), tested on the
// values as they are made. Waits for the result.
int64_t pce_eval_check(const csr_device m[3], const uint32_t* order, const fr* table, uint64_t rows, const fr* w,
                       uint64_t nw, fr* a, fr* b, fr* c);
// The smallest i < n with a[i]·b[i] != c[i], or −1. Waits for the result.
int64_t first_unsatisfied(const fr* a, const fr* b, const fr* c, size_t n);

// ---- witness MSM: the 0/1 split ---------------------------------------------------------------
// Scalars (Montgomery fr, device memory) are classified zero / one / other
// in tiles of split_tile elements. split_count fills per-tile counts and
// their exclusive prefix sums in `tile_scratch` (split_scratch_words(n)
// uint32 words of device memory) and returns the totals (it waits for them).
// split_scatter then writes, in index order, the indices of the ones to
// one_idx (ones entries) and the points and canonical scalars of the others
// to other_points / other_scalars (others entries); queued, does not wait.
struct split_counts {
    size_t zeros = 0, ones = 0, others = 0;
};
size_t split_scratch_words(size_t n);
split_counts split_count(const fr* scalars, size_t n, uint32_t* tile_scratch);
void split_scatter(const g1_affine* points, const fr* scalars, size_t n, const uint32_t* tile_scratch,
                   uint32_t* one_idx, g1_affine* other_points, fr::repr* other_scalars);
void split_scatter(const g2_affine* points, const fr* scalars, size_t n, const uint32_t* tile_scratch,
                   uint32_t* one_idx, g2_affine* other_points, fr::repr* other_scalars);
// The same over BN254 (Montgomery bn254::fr scalars, classified against
// BN254's one; the canonical scalars of the others are 256-bit words too).
split_counts split_count(const bn254::fr* scalars, size_t n, uint32_t* tile_scratch);
void split_scatter(const bn254::g1_affine* points, const bn254::fr* scalars, size_t n, const uint32_t* tile_scratch,
                   uint32_t* one_idx, bn254::g1_affine* other_points, fr::repr* other_scalars);
void split_scatter(const bn254::g2_affine* points, const bn254::fr* scalars, size_t n, const uint32_t* tile_scratch,
                   uint32_t* one_idx, bn254::g2_affine* other_points, fr::repr* other_scalars);

// ---- witness MSM: BATCH_ADD ------------------------------------------------------------------
// Σ points[idx[j]] for j < k on the device, reduced to at most
// batch_add_max_partials XYZZ partial sums, copied to `partials` (host); the
// return value is their count (0 when k = 0). The caller adds them up.
// Timing: device milliseconds of the kernels from CUDA events, and the same
// interval on the host's steady clock (an event anchored after a synchronise).
constexpr size_t batch_add_max_partials = 64;
struct batch_add_timing {
    double ms = 0;
    std::chrono::steady_clock::time_point begin{}, end{};
};
size_t batch_add(const g1_affine* points, const uint32_t* idx, size_t k, g1_xyzz* partials,
                 batch_add_timing* timing);
size_t batch_add(const g2_affine* points, const uint32_t* idx, size_t k, g2_xyzz* partials,
                 batch_add_timing* timing);
size_t batch_add(const bn254::g1_affine* points, const uint32_t* idx, size_t k, bn254::g1_xyzz* partials,
                 batch_add_timing* timing);
size_t batch_add(const bn254::g2_affine* points, const uint32_t* idx, size_t k, bn254::g2_xyzz* partials,
                 batch_add_timing* timing);

} // namespace cuzk::witness_bridge
