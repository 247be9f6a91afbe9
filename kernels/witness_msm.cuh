// cuzk kernels — the witness MSM's device parts (lib/backend/bridge/
// witness_bridge.hpp), templated over the curve: the zero / one / other
// split of Montgomery scalars of any device scalar field, and BATCH_ADD, the
// sum of the points whose scalar is one. The others go through the Pippenger
// of msm_device.cuh (called by the host code in lib/backend/cuda_witness.cpp
// through gpu_msm_device). The entry points are instantiated per curve in
// kernels/witness_msm.cu (BLS12-381) and kernels/witness_msm_bn254.cu (BN254),
// so that their ptxas runs build in parallel.
//
// Split (stream compaction in index order, two passes over the scalars):
//   count    one block of 256 threads per tile of 4096 scalars: each thread
//            classifies 16 scalars (is zero / equals the field's Montgomery
//            one), a block reduction gives the tile's counts of ones and
//            others.
//   scan     exclusive prefix sums of the tile counts (CUB, kernels/sort.cu):
//            each tile's first output position; the totals go to the host,
//            which sizes the output buffers exactly.
//   scatter  the tile again, 256 scalars per step: a warp ballot per class
//            gives each element its rank inside the warp, the 8 warp counts
//            in shared memory its rank inside the step; ones write their
//            index, others their point and canonical scalar (s·R⁻¹, one
//            Montgomery multiplication by the plain integer 1).
//   Traffic: 2 × 32 B per scalar read, plus the outputs; no per-element
//   scratch (8 B per tile only), so the split adds little memory next to
//   the compacted points of the others.
//
// BATCH_ADD (Σ P_idx[j], j < k): T = min(2^17, ⌈k/8⌉) threads; thread t adds
// the points idx[t], idx[t + T], idx[t + 2T], … (interleaved, so that a warp
// reads 32 consecutive indices and, where the ones are dense, neighbouring
// points) with XYZZ mixed additions (8M + 2S, complete: identity, equal and
// opposite points handled). The T partial sums are then summed in groups of 8
// (full XYZZ additions, msm_sum_groups) until at most 64 remain, which the
// host adds. Work: k mixed additions + ~T/7 full ones, k/T ≥ 8 per thread.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>

#include "backend/bridge/witness_bridge.hpp"
#include "cuda_backend.cuh"

namespace cuzk::dev::witness_msm {

constexpr unsigned split_threads = 256;
constexpr unsigned split_steps = 16;
constexpr size_t split_tile = size_t(split_threads) * split_steps;   // scalars per tile
constexpr unsigned split_warps = split_threads / 32;

inline size_t tiles_of(size_t n) { return (n + split_tile - 1) / split_tile; }

// 0 zero, 1 one (Montgomery), 2 other; 0 past the end.
template <class F>
__device__ __forceinline__ unsigned classify(const F* __restrict__ k, size_t i, size_t n)
{
    if (i >= n) return 0;
    const F s = k[i];
    return s.is_zero() ? 0u : (s == F::one() ? 1u : 2u);
}

// Per tile: counts of ones and others (cnt_one[tile], cnt_other[tile]).
template <class F>
__global__ void __launch_bounds__(split_threads) split_count_kernel(const F* __restrict__ k, size_t n,
                                                                    uint32_t* cnt_one, uint32_t* cnt_other)
{
    __shared__ uint32_t s1[split_warps], s2[split_warps];
    const size_t base = blockIdx.x * split_tile;
    uint32_t c1 = 0, c2 = 0;
    for (unsigned s = 0; s < split_steps; ++s) {
        const unsigned cl = classify(k, base + s * split_threads + threadIdx.x, n);
        c1 += cl == 1;
        c2 += cl == 2;
    }
    for (int o = 16; o > 0; o >>= 1) {
        c1 += __shfl_xor_sync(0xffffffffu, c1, o);
        c2 += __shfl_xor_sync(0xffffffffu, c2, o);
    }
    const unsigned warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    if (lane == 0) {
        s1[warp] = c1;
        s2[warp] = c2;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        uint32_t t1 = 0, t2 = 0;
        for (unsigned w = 0; w < split_warps; ++w) {
            t1 += s1[w];
            t2 += s2[w];
        }
        cnt_one[blockIdx.x] = t1;
        cnt_other[blockIdx.x] = t2;
    }
}

// totals[0] = ones, totals[1] = others (last prefix + last count). A
// template (W = uint32_t) so that each including file has its own copy.
template <class W>
__global__ void split_totals_kernel(const W* cnt_one, const W* cnt_other, const W* pos_one, const W* pos_other,
                                    size_t tiles, W* totals)
{
    totals[0] = pos_one[tiles - 1] + cnt_one[tiles - 1];
    totals[1] = pos_other[tiles - 1] + cnt_other[tiles - 1];
}

template <class Aff, class F>
__global__ void __launch_bounds__(split_threads)
    split_scatter_kernel(const Aff* __restrict__ points, const F* __restrict__ k, size_t n,
                         const uint32_t* __restrict__ pos_one, const uint32_t* __restrict__ pos_other,
                         uint32_t* __restrict__ one_idx, Aff* __restrict__ other_pts, F* __restrict__ other_sc)
{
    __shared__ uint32_t s1[2][split_warps], s2[2][split_warps];
    const size_t base = blockIdx.x * split_tile;
    const unsigned warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const uint32_t lt = (1u << lane) - 1;   // lanes below this one
    uint32_t o1 = pos_one[blockIdx.x], o2 = pos_other[blockIdx.x];
    for (unsigned s = 0; s < split_steps; ++s) {
        const size_t i = base + s * split_threads + threadIdx.x;
        const unsigned cl = classify(k, i, n);
        const uint32_t m1 = __ballot_sync(0xffffffffu, cl == 1);
        const uint32_t m2 = __ballot_sync(0xffffffffu, cl == 2);
        const unsigned buf = s & 1;   // double-buffered: one barrier per step
        if (lane == 0) {
            s1[buf][warp] = __popc(m1);
            s2[buf][warp] = __popc(m2);
        }
        __syncthreads();
        uint32_t b1 = 0, b2 = 0, t1 = 0, t2 = 0;
        for (unsigned w = 0; w < split_warps; ++w) {
            const uint32_t x1 = s1[buf][w], x2 = s2[buf][w];
            if (w < warp) {
                b1 += x1;
                b2 += x2;
            }
            t1 += x1;
            t2 += x2;
        }
        if (cl == 1) {
            one_idx[o1 + b1 + __popc(m1 & lt)] = uint32_t(i);
        } else if (cl == 2) {
            const uint32_t p = o2 + b2 + __popc(m2 & lt);
            other_pts[p] = points[i];
            // canonical = s·R⁻¹: the Montgomery product with the integer 1
            F one_int = F::zero();
            one_int.w[0] = 1;
            other_sc[p] = k[i] * one_int;
        }
        o1 += t1;
        o2 += t2;
    }
}

// The split's first pass: per-tile counts and their prefix sums in `scratch`
// (cnt_one, cnt_other, pos_one, pos_other: tiles words each), totals back.
template <class F>
witness_bridge::split_counts count_impl(const F* k, size_t n, uint32_t* scratch)
{
    witness_bridge::split_counts r;
    if (n == 0) return r;
    context& cx = ctx();
    std::lock_guard<std::recursive_mutex> lk(cx.mu);
    const size_t tiles = tiles_of(n);
    uint32_t* cnt_one = scratch;
    uint32_t* cnt_other = scratch + tiles;
    uint32_t* pos_one = scratch + 2 * tiles;
    uint32_t* pos_other = scratch + 3 * tiles;
    split_count_kernel<F><<<unsigned(tiles), split_threads, 0, cx.stream>>>(k, n, cnt_one, cnt_other);
    CUZK_CUDA_CHECK(cudaGetLastError());
    cuda_exclusive_sum(cnt_one, pos_one, tiles);
    cuda_exclusive_sum(cnt_other, pos_other, tiles);
    auto* totals = static_cast<uint32_t*>(ctx_slot(slot_count, 64));
    split_totals_kernel<<<1, 1, 0, cx.stream>>>(cnt_one, cnt_other, pos_one, pos_other, tiles, totals);
    CUZK_CUDA_CHECK(cudaGetLastError());
    uint32_t h[2] = {0, 0};
    cuda_be{cx}.to_host(h, totals, sizeof h);
    r.ones = h[0];
    r.others = h[1];
    r.zeros = n - r.ones - r.others;
    return r;
}

// The second pass (queued): HAff a host point type, F the device scalar field.
template <class HAff, class F>
void scatter_impl(const HAff* points, const F* scalars, size_t n, const uint32_t* scratch, uint32_t* one_idx,
                  HAff* other_points, fr::repr* other_scalars)
{
    using Aff = typename device_types<HAff>::aff;
    static_assert(sizeof(F) == sizeof(fr::repr), "the canonical scalars are 256-bit words");
    if (n == 0) return;
    context& cx = ctx();
    std::lock_guard<std::recursive_mutex> lk(cx.mu);
    const size_t tiles = tiles_of(n);
    split_scatter_kernel<Aff, F><<<unsigned(tiles), split_threads, 0, cx.stream>>>(
        reinterpret_cast<const Aff*>(points), scalars, n, scratch + 2 * tiles, scratch + 3 * tiles, one_idx,
        reinterpret_cast<Aff*>(other_points), reinterpret_cast<F*>(other_scalars));
    CUZK_CUDA_CHECK(cudaGetLastError());
}

// BATCH_ADD, first step: thread t sums points[idx[t + s·T]] for all s.
template <class Aff, class Xz>
struct batch_add_first {
    const Aff* points;
    const uint32_t* idx;
    size_t k, T;
    Xz* out;
    CUZK_HD void operator()(size_t t) const
    {
        Xz acc = Xz::identity();
        for (size_t j = t; j < k; j += T) acc_add(acc, points[idx[j]]);
        out[t] = acc_finish(acc);
    }
};

constexpr size_t batch_add_max_threads = size_t{1} << 17;

struct event_set {
    cudaEvent_t e[3] = {nullptr, nullptr, nullptr};
    event_set()
    {
        for (auto& x : e)
            if (cudaEventCreate(&x) != cudaSuccess) {
                cudaGetLastError();
                throw error(errc::device, "batch_add: cudaEventCreate failed");
            }
    }
    ~event_set()
    {
        for (auto x : e)
            if (x) cudaEventDestroy(x);
    }
    event_set(const event_set&) = delete;
    event_set& operator=(const event_set&) = delete;
};

template <class HAff, class HXz>
size_t batch_add_impl(const HAff* points, const uint32_t* idx, size_t k, HXz* partials,
                      witness_bridge::batch_add_timing* timing)
{
    using Aff = typename device_types<HAff>::aff;
    using Xz = typename device_types<HAff>::xz;
    static_assert(sizeof(Xz) == sizeof(HXz), "the partial sums are copied to the host as they are");
    context& cx = ctx();
    std::lock_guard<std::recursive_mutex> lk(cx.mu);
    if (k == 0) {
        if (timing) {
            timing->ms = 0;
            timing->begin = timing->end = std::chrono::steady_clock::now();
        }
        return 0;
    }
    cuda_be be{cx};
    const size_t T = std::min(batch_add_max_threads, (k + 7) / 8);
    Xz* a = be.buffer<Xz>(slot_seg_a, T);
    Xz* b = be.buffer<Xz>(slot_seg_b, (T + 7) / 8);

    // Anchor: the stream is idle after the synchronise, so the anchor event
    // completes at once; the host clock read right after its completion maps
    // event times to steady_clock (to within the wake-up latency, µs).
    event_set ev;
    CUZK_CUDA_CHECK(cudaStreamSynchronize(cx.stream));
    CUZK_CUDA_CHECK(cudaEventRecord(ev.e[0], cx.stream));
    CUZK_CUDA_CHECK(cudaEventSynchronize(ev.e[0]));
    const auto t0 = std::chrono::steady_clock::now();
    CUZK_CUDA_CHECK(cudaEventRecord(ev.e[1], cx.stream));

    be.each(T, batch_add_first<Aff, Xz>{reinterpret_cast<const Aff*>(points), idx, k, T, a}, 128);
    size_t m = T;
    while (m > witness_bridge::batch_add_max_partials) {
        const size_t m2 = (m + 7) / 8;
        be.each(m2, msm_sum_groups<Xz>{a, b, m, m2, 8}, 128);
        std::swap(a, b);
        m = m2;
    }
    CUZK_CUDA_CHECK(cudaEventRecord(ev.e[2], cx.stream));
    be.to_host(partials, a, m * sizeof(Xz));   // synchronises

    if (timing) {
        float to_begin = 0, to_end = 0;
        CUZK_CUDA_CHECK(cudaEventElapsedTime(&to_begin, ev.e[0], ev.e[1]));
        CUZK_CUDA_CHECK(cudaEventElapsedTime(&to_end, ev.e[0], ev.e[2]));
        using dms = std::chrono::duration<double, std::milli>;
        timing->ms = double(to_end) - double(to_begin);
        timing->begin = t0 + std::chrono::duration_cast<std::chrono::steady_clock::duration>(dms(to_begin));
        timing->end = t0 + std::chrono::duration_cast<std::chrono::steady_clock::duration>(dms(to_end));
    }
    return m;
}

} // namespace cuzk::dev::witness_msm
