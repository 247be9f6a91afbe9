// cuzk kernels — the device entry points of the GPU prover
// (include/cuzk/backend/detail/prove_bridge.hpp): pinned memory, staged
// uploads, a copy stream and events for streamed keys and step timing, and
// the small element-wise kernels of the H step and the scalar gathers.
// The heavy work (NTT, MSM, PCE evaluation) is behind cuda_bridge and the
// witness entry points; everything here queues on the same backend stream.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "cuda_backend.cuh"
#include "cuzk/backend/detail/prove_bridge.hpp"
#include "cuzk/util/parallel.hpp"

namespace cuzk::dev {
namespace {

// ---- element-wise bodies (run by cuda_be::each) ------------------------------------------
struct gather_body {
    const uint4* src;   // 32-byte elements as two uint4
    const uint32_t* idx;
    uint4* dst;
    CUZK_HD void operator()(size_t k) const
    {
        const size_t j = idx[k];
        dst[2 * k] = src[2 * j];
        dst[2 * k + 1] = src[2 * j + 1];
    }
};

struct h_combine_body {
    dfr* a;
    const dfr* b;
    const dfr* c;
    dfr z;
    CUZK_HD void operator()(size_t i) const { a[i] = (a[i] * b[i] - c[i]) * z; }
};

struct mul_sub_body {
    dfr* a;
    const dfr* b;
    const dfr* c;
    CUZK_HD void operator()(size_t i) const { a[i] = a[i] * b[i] - c[i]; }
};

struct mul_into_body {
    const dfr* a;
    const dfr* b;
    dfr* c;
    CUZK_HD void operator()(size_t i) const { c[i] = a[i] * b[i]; }
};

// Montgomery form x·R → x: one Montgomery multiplication by the integer 1
// (x·R·1·R⁻¹ = x, fully reduced like every product). The words of the result
// are the little-endian 256-bit integer, i.e. fr::repr's layout.
struct canonical_body {
    const dfr* in;
    dfr* out;
    CUZK_HD void operator()(size_t i) const
    {
        dfr one_int = dfr::zero();
        one_int.w[0] = 1;
        out[i] = in[i] * one_int;
    }
};

struct scale_powers_body {
    dfr* x;
    dfr g;
    CUZK_HD void operator()(size_t i) const { x[i] = x[i] * g.pow_u64(uint64_t(i)); }
};

// ---- staged uploads ------------------------------------------------------------------------
// Two pinned pieces of 8 MiB; piece k is reused once the DMA that read it
// (event done[k]) has completed.
// Two 64 MiB pinned pieces: the host copy into one overlaps the DMA from the
// other. The host copy is split over up to 8 threads: one thread's memcpy
// (~8 GB/s measured as the whole H2D of a 2^27 witness, 4.3 GB in 512 ms)
// is slower than the PCIe DMA it feeds.
constexpr size_t stage_bytes = size_t{64} << 20;
constexpr unsigned stage_copy_threads = 8;
struct stage_state {
    void* buf[2] = {nullptr, nullptr};
    cudaEvent_t done[2] = {nullptr, nullptr};
    bool used[2] = {false, false};
};
stage_state& stage()
{
    static stage_state s;
    return s;
}

} // namespace
} // namespace cuzk::dev

namespace cuzk::prove_bridge {

using namespace cuzk::dev;

namespace {
cudaStream_t as_stream(void* s) { return s ? static_cast<cudaStream_t>(s) : ctx().stream; }
} // namespace

void mem_info(size_t* free_bytes, size_t* total_bytes)
{
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    size_t f = 0, t = 0;
    CUZK_CUDA_CHECK(cudaMemGetInfo(&f, &t));
    if (free_bytes) *free_bytes = f;
    if (total_bytes) *total_bytes = t;
}

void* host_alloc_pinned(size_t bytes)
{
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    void* p = nullptr;
    const cudaError_t e = cudaHostAlloc(&p, bytes ? bytes : 1, cudaHostAllocDefault);
    if (e == cudaErrorMemoryAllocation) {
        cudaGetLastError();
        throw error(errc::out_of_memory,
                    "cudaHostAlloc of " + std::to_string(bytes) + " bytes: out of page-locked host memory");
    }
    CUZK_CUDA_CHECK(e);
    return p;
}

void host_free_pinned(void* p) noexcept
{
    if (p) cudaFreeHost(p);
}

bool host_register(const void* p, size_t bytes) noexcept
{
    if (!p || bytes == 0) return false;
    try {
        context& c = ctx();
        std::lock_guard<std::recursive_mutex> lk(c.mu);
        const cudaError_t e = cudaHostRegister(const_cast<void*>(p), bytes, cudaHostRegisterDefault);
        if (e != cudaSuccess) {
            cudaGetLastError();   // not sticky: clear it
            return false;
        }
        return true;
    } catch (...) {
        return false;
    }
}

void host_unregister(const void* p) noexcept
{
    if (p && cudaHostUnregister(const_cast<void*>(p)) != cudaSuccess) cudaGetLastError();
}

void upload_pageable(void* dst, const void* src, size_t bytes)
{
    if (bytes == 0) return;
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    stage_state& st = stage();
    for (int k = 0; k < 2; ++k) {
        if (!st.buf[k]) {
            const cudaError_t e = cudaHostAlloc(&st.buf[k], stage_bytes, cudaHostAllocDefault);
            if (e != cudaSuccess) {
                st.buf[k] = nullptr;
                cudaGetLastError();
                // No pinned memory: a plain (synchronous, slower) copy still works.
                CUZK_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, c.stream));
                CUZK_CUDA_CHECK(cudaStreamSynchronize(c.stream));
                return;
            }
        }
        if (!st.done[k]) CUZK_CUDA_CHECK(cudaEventCreateWithFlags(&st.done[k], cudaEventDisableTiming));
    }
    const char* s = static_cast<const char*>(src);
    char* d = static_cast<char*>(dst);
    int k = 0;
    for (size_t off = 0; off < bytes; off += stage_bytes, k ^= 1) {
        const size_t len = std::min(stage_bytes, bytes - off);
        if (st.used[k]) CUZK_CUDA_CHECK(cudaEventSynchronize(st.done[k]));   // the DMA that read piece k is over
        if (len < (size_t{4} << 20)) {
            std::memcpy(st.buf[k], s + off, len);
        } else {
            char* piece = static_cast<char*>(st.buf[k]);
            const size_t mib = (len + (size_t{1} << 20) - 1) >> 20;
            const unsigned th = std::min(stage_copy_threads, resolve_threads(0));
            parallel_for(th, mib, [&](size_t b, size_t e, unsigned) {
                const size_t lo = b << 20, hi = std::min(len, e << 20);
                std::memcpy(piece + lo, s + off + lo, hi - lo);
            });
        }
        CUZK_CUDA_CHECK(cudaMemcpyAsync(d + off, st.buf[k], len, cudaMemcpyHostToDevice, c.stream));
        CUZK_CUDA_CHECK(cudaEventRecord(st.done[k], c.stream));
        st.used[k] = true;
    }
}

void copy_d2d(void* dst, const void* src, size_t bytes)
{
    if (bytes == 0) return;
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    CUZK_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, c.stream));
}

void fill_zero(void* dst, size_t bytes)
{
    if (bytes == 0) return;
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    CUZK_CUDA_CHECK(cudaMemsetAsync(dst, 0, bytes, c.stream));
}

void* stream_create()
{
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    cudaStream_t s = nullptr;
    CUZK_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    return s;
}

void stream_destroy(void* s) noexcept
{
    if (s) cudaStreamDestroy(static_cast<cudaStream_t>(s));
}

void copy_h2d_on(void* s, void* dst, const void* src, size_t bytes)
{
    if (bytes == 0) return;
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    CUZK_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, as_stream(s)));
}

void* event_create()
{
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    cudaEvent_t e = nullptr;
    CUZK_CUDA_CHECK(cudaEventCreate(&e));
    return e;
}

void event_destroy(void* e) noexcept
{
    if (e) cudaEventDestroy(static_cast<cudaEvent_t>(e));
}

void event_record(void* e, void* s)
{
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    CUZK_CUDA_CHECK(cudaEventRecord(static_cast<cudaEvent_t>(e), as_stream(s)));
}

void event_synchronize(void* e) { CUZK_CUDA_CHECK(cudaEventSynchronize(static_cast<cudaEvent_t>(e))); }

double event_elapsed_ms(void* a, void* b)
{
    float ms = 0;
    CUZK_CUDA_CHECK(cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(a), static_cast<cudaEvent_t>(b)));
    return double(ms);
}

void drain(void* s) noexcept
{
    try {
        context& c = ctx();
        cudaStreamSynchronize(c.stream);
        if (s) cudaStreamSynchronize(static_cast<cudaStream_t>(s));
        cudaGetLastError();   // clear a non-sticky error left by the failed call
    } catch (...) {
    }
}

void gather(const fr* src, const uint32_t* idx, size_t n, fr* dst)
{
    static_assert(sizeof(fr) == 2 * sizeof(uint4));
    if (n == 0) return;
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    cuda_be be{c};
    be.each(n, gather_body{reinterpret_cast<const uint4*>(src), idx, reinterpret_cast<uint4*>(dst)});
}

void h_combine(fr* a, const fr* b, const fr* c_, size_t n, const fr& z_inv)
{
    if (n == 0) return;
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    cuda_be be{c};
    be.each(n, h_combine_body{reinterpret_cast<dfr*>(a), reinterpret_cast<const dfr*>(b),
                              reinterpret_cast<const dfr*>(c_), dfr::from_host(z_inv)});
}

void to_canonical(const fr* in, fr::repr* out, size_t n)
{
    static_assert(sizeof(fr) == sizeof(fr::repr) && sizeof(dfr) == sizeof(fr));
    if (n == 0) return;
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    cuda_be be{c};
    be.each(n, canonical_body{reinterpret_cast<const dfr*>(in), reinterpret_cast<dfr*>(out)});
}

void scale_by_powers(fr* x, size_t n, const fr& g)
{
    if (n == 0) return;
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    cuda_be be{c};
    be.each(n, scale_powers_body{reinterpret_cast<dfr*>(x), dfr::from_host(g)});
}

void mul_sub(fr* a, const fr* b, const fr* c_, size_t n)
{
    if (n == 0) return;
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    cuda_be be{c};
    be.each(n, mul_sub_body{reinterpret_cast<dfr*>(a), reinterpret_cast<const dfr*>(b),
                            reinterpret_cast<const dfr*>(c_)});
}

void mul_into(const fr* a, const fr* b, fr* c_, size_t n)
{
    if (n == 0) return;
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    cuda_be be{c};
    be.each(n, mul_into_body{reinterpret_cast<const dfr*>(a), reinterpret_cast<const dfr*>(b),
                             reinterpret_cast<dfr*>(c_)});
}

} // namespace cuzk::prove_bridge
