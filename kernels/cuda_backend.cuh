// cuzk kernels — the CUDA side of the backend: error checks, the device
// contexts (one per CUDA device: a stream, cached scratch buffers), and the
// launcher `cuda_be` that runs the backend-neutral bodies of msm_device.cuh and
// ntt_device.cuh as kernels. Only .cu files include this header.
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "backend/bridge/handles.hpp"
#include "cuzk/error.hpp"
#include "msm_device.cuh"
#include "ntt_device.cuh"

namespace cuzk::dev {

// Raises cuzk::error(errc::device) with the expression, place and CUDA's text.
[[noreturn]] void cuda_fail(cudaError_t e, const char* expr, const char* file, int line);
#define CUZK_CUDA_CHECK(expr)                                                     \
    do {                                                                          \
        const cudaError_t cuzk_err_ = (expr);                                     \
        if (cuzk_err_ != cudaSuccess) ::cuzk::dev::cuda_fail(cuzk_err_, #expr, __FILE__, __LINE__); \
    } while (0)

// One context per CUDA device and lane (at most max_devices × max_lanes),
// made at its first use. A lane is a stream with its own scratch caches: lane
// 0 is every thread's default; a thread that selects lane 1 queues its work
// on the device's second stream, so that two host threads can keep one device
// busy with independent work (the GPU prover's witness MSMs beside its H
// step). All entry points of the bridge lock the context's `mu` for their
// whole duration, so work from several host threads on one lane is
// serialised; lanes and devices run independently (work on different lanes is
// ordered only by events).
inline constexpr int max_devices = 64;
inline constexpr int max_lanes = 2;
struct context {
    std::recursive_mutex mu;
    bool ready = false;
    int device = 0;
    int lane = 0;
    cudaStream_t stream = nullptr;
    cudaDeviceProp prop{};
    struct buf {
        void* p = nullptr;
        size_t bytes = 0;
    };
    buf slots[slot_count_all];
    // Twiddle tables by (log n, convention id | field << 8; field 0 = BLS12-381, 1 = BN254).
    std::map<std::pair<unsigned, unsigned>, buf> twiddles;
    void* sort_temp = nullptr;
    size_t sort_temp_bytes = 0;
};
// The context of the calling thread's device and lane (cuda_bridge::
// select_device, select_lane; device 0 and lane 0 when the thread never
// chose), initialised on first use (throws errc::device when no device).
context& ctx();
// The calling thread's device and lane, and the choice of them
// (lib/backend/bridge/cuda_bridge.hpp).
int current_device() noexcept;
int select_device(int device);
int current_lane() noexcept;
int select_lane(int lane);
// cudaMalloc that raises errc::out_of_memory (naming `what` and the size)
// when the device has no room or the allocation would pass the device's
// memory cap (gpu_set_memory_cap), errc::device on other failures. Every
// device allocation of the kernels goes through it, and every free through
// scratch_free, so that the device's count (lib/backend/device_ledger.hpp)
// stays exact.
void* scratch_malloc(size_t bytes, const char* what);
// cudaFree of the calling thread's device, the bytes given back to its count.
cudaError_t scratch_free(void* p);
// cudaMemGetInfo seen through the device's memory cap (free ≤ cap − counted).
cudaError_t mem_get_info(size_t* free_bytes, size_t* total_bytes);
// Grows slot s to at least `bytes` (contents are lost when it grows).
void* ctx_slot(int s, size_t bytes);
// Frees the caches of c (its mu held by the caller).
void ctx_release_all(context& c);
// Frees slot s of the calling thread's context (after its stream's work).
void ctx_release_slot(int s);

// The bridge's stream and event handles (lib/backend/bridge/handles.hpp) are
// CUDA's own handles under a host-side name: these are the only conversions
// between the two. A null stream stays null (the callers give it its meaning).
inline cudaStream_t cuda_handle(bridge::stream s) { return reinterpret_cast<cudaStream_t>(s); }
inline cudaEvent_t cuda_handle(bridge::event e) { return reinterpret_cast<cudaEvent_t>(e); }
inline bridge::stream bridge_handle(cudaStream_t s) { return reinterpret_cast<bridge::stream>(s); }
inline bridge::event bridge_handle(cudaEvent_t e) { return reinterpret_cast<bridge::event>(e); }

// Stable radix sort of (key, value) pairs by the low end_bit bits of the key,
// and an exclusive prefix sum; both on the context's stream (kernels/sort.cu).
void cuda_sort_pairs(const uint32_t* kin, uint32_t* kout, const uint32_t* vin, uint32_t* vout, size_t n, int end_bit);
void cuda_exclusive_sum(const uint32_t* in, uint32_t* out, size_t n);
// max over i of the bit length of the 256-bit scalars k[4i … 4i+3] (kernels/backend.cu).
unsigned cuda_scalar_bits(const uint64_t* k, size_t n);

// Times the last device-to-host copy of a piece of work on the context's
// stream: begin() anchors the device clock to the host's (the stream must
// be idle: it synchronises) and arms be.copy_ev; finish() maps the event
// recorded before the last copy onto the host clock. Events freed on exit.
class copy_timer {
public:
    copy_timer(context& c, bool on);
    ~copy_timer();
    copy_timer(const copy_timer&) = delete;
    copy_timer& operator=(const copy_timer&) = delete;
    cudaEvent_t event() const { return ev_[1]; }
    // The last copy's span: from its start on the device to `copy_done`.
    void finish(std::chrono::steady_clock::time_point copy_done, std::chrono::steady_clock::time_point* begin,
                std::chrono::steady_clock::time_point* end);

private:
    cudaEvent_t ev_[2] = {nullptr, nullptr};   // anchor, before the copy
    std::chrono::steady_clock::time_point t0_{};
};

#if defined(__CUDACC__)
template <class B>
__global__ void each_kernel(B body, size_t n)
{
    const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
    if (i < n) body(i);
}

template <class B>
__global__ void __launch_bounds__(ntt_threads, B::min_blocks_per_sm) block_kernel(B body)
{
    extern __shared__ q16 smem[];
    const size_t blk = blockIdx.x;
    body.load(blk, threadIdx.x, smem);
    for (unsigned s = 0; s < body.stages(); ++s) {
        __syncthreads();
        body.stage(s, blk, threadIdx.x, smem);
    }
    __syncthreads();
    body.store(blk, threadIdx.x, smem);
}

struct cuda_be {
    context& c;
    // When set, every to_host records copy_ev before its copy and reads the
    // host clock into copy_done after it (the last copy's D2H span).
    cudaEvent_t copy_ev = nullptr;
    std::chrono::steady_clock::time_point copy_done{};

    template <class T>
    T* buffer(int slot, size_t count)
    {
        return static_cast<T*>(ctx_slot(slot, count * sizeof(T) + 16));
    }
    void zero(void* p, size_t bytes) { CUZK_CUDA_CHECK(cudaMemsetAsync(p, 0, bytes, c.stream)); }
    void to_host(void* dst, const void* src, size_t bytes)
    {
        if (copy_ev) CUZK_CUDA_CHECK(cudaEventRecord(copy_ev, c.stream));
        CUZK_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, c.stream));
        CUZK_CUDA_CHECK(cudaStreamSynchronize(c.stream));
        if (copy_ev) copy_done = std::chrono::steady_clock::now();
    }
    template <class B>
    void each(size_t n, const B& body, unsigned block = 256)
    {
        if (n == 0) return;
        const size_t grid = (n + block - 1) / block;
        each_kernel<B><<<unsigned(grid), block, 0, c.stream>>>(body, n);
        CUZK_CUDA_CHECK(cudaGetLastError());
    }
    template <class B>
    void blocks(size_t nblocks, unsigned threads, size_t smem, const B& body)
    {
        // The attribute is per device: one bit per device, per instantiation.
        static std::atomic<uint64_t> attr_set{0};
        const uint64_t bit = uint64_t{1} << c.device;
        if (!(attr_set.load(std::memory_order_acquire) & bit)) {
            CUZK_CUDA_CHECK(cudaFuncSetAttribute(block_kernel<B>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                 int(size_t(2) << ntt_block_log) * int(sizeof(q16))));
            attr_set.fetch_or(bit, std::memory_order_acq_rel);
        }
        block_kernel<B><<<unsigned(nblocks), threads, smem, c.stream>>>(body);
        CUZK_CUDA_CHECK(cudaGetLastError());
    }
    void sort_pairs(const uint32_t* kin, uint32_t* kout, const uint32_t* vin, uint32_t* vout, size_t n, int end_bit)
    {
        cuda_sort_pairs(kin, kout, vin, vout, n, end_bit);
    }
    void exclusive_sum(const uint32_t* in, uint32_t* out, size_t n) { cuda_exclusive_sum(in, out, n); }
    // Entries (n·windows) sorted at once: a quarter of the free memory / 16 bytes
    // per entry (keys and values, double-buffered), at most 2^30; and, where
    // little memory is free, few enough that the keys and the sort's own
    // scratch (~24 bytes an entry) and step 3's partial sums (48 bytes an
    // entry up to 2^24 entries, where its threads stop growing) take at most
    // 3/4 of it (free/64 alone let them exceed it below ~1.5 GB). Never fewer
    // than the context's key and value buffers hold already: that memory is
    // this MSM's whatever is free beside it (a key's copies of H, built in
    // the room a prove left, must not shrink the next prove's sort groups).
    size_t max_entries() const
    {
        size_t free_b = 0, total_b = 0;
        if (mem_get_info(&free_b, &total_b) != cudaSuccess) return size_t{1} << 26;
        size_t cap = free_b / 4 / 16;
        const size_t room = free_b / 4 * 3, knee = size_t{1} << 24;
        const size_t fit = room <= 72 * knee ? room / 72 : (room - 48 * knee) / 24;
        if (fit < cap) cap = fit;
        size_t held = c.slots[slot_keys_a].bytes;
        for (int s : {slot_keys_b, slot_vals_a, slot_vals_b})
            if (c.slots[s].bytes < held) held = c.slots[s].bytes;
        held = held > 16 ? (held - 16) / sizeof(uint32_t) : 0;   // Be::buffer's 16-byte pad
        if (held > cap) cap = held;
        if (cap > (size_t{1} << 30)) cap = size_t{1} << 30;
        if (cap < (size_t{1} << 20)) cap = size_t{1} << 20;
        return cap;
    }
};
#endif

} // namespace cuzk::dev
