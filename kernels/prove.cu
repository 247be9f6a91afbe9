// cuzk kernels — the device entry points of the GPU prover
// (lib/backend/bridge/prove_bridge.hpp): pinned memory, staged
// uploads, a copy stream and events for streamed keys and step timing, and
// the small element-wise kernels of the H step and the scalar gathers.
// The heavy work (NTT, MSM, PCE evaluation) is behind cuda_bridge and the
// witness entry points; everything here queues on the same backend stream.
#include <cuda_runtime.h>

#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "backend/bridge/prove_bridge.hpp"
#include "backend/bridge/witness_pack.hpp"
#include "cuda_backend.cuh"
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

template <class F>
struct mul_sub_body {
    F* a;
    const F* b;
    const F* c;
    CUZK_HD void operator()(size_t i) const { a[i] = a[i] * b[i] - c[i]; }
};

template <class F>
struct mul_into_body {
    const F* a;
    const F* b;
    F* c;
    CUZK_HD void operator()(size_t i) const { c[i] = a[i] * b[i]; }
};

// dst[i] = src[i]·R⁻¹ (the canonical integer): the Montgomery product with 1.
template <class F>
struct canonical_body {
    const F* src;
    F* dst;
    CUZK_HD void operator()(size_t i) const
    {
        F one_int = F::zero();
        one_int.w[0] = 1;
        dst[i] = src[i] * one_int;
    }
};

// ---- page-locked memory near a device ------------------------------------------------------
// The NUMA node of a device's PCI slot, from sysfs; −1 when the host has
// one node, or the kernel does not say.
int numa_node_of(int device)
{
    if (access("/sys/devices/system/node/node1", F_OK) != 0) return -1;   // one node: nothing to choose
    char bus[32] = {0};
    if (cudaDeviceGetPCIBusId(bus, int(sizeof bus), device) != cudaSuccess) {
        cudaGetLastError();
        return -1;
    }
    std::string path = "/sys/bus/pci/devices/";
    for (const char* q = bus; *q; ++q) path += char(std::tolower(static_cast<unsigned char>(*q)));
    path += "/numa_node";
    std::FILE* f = std::fopen(path.c_str(), "r");
    if (!f) return -1;
    int node = -1;
    if (std::fscanf(f, "%d", &node) != 1) node = -1;
    std::fclose(f);
    return node;
}

// `bytes` of page-locked memory, portable to every device. On a host with
// several NUMA nodes the pages are placed on `device`'s node first (mmap,
// mbind with a preferred node, first touch, then registered with CUDA);
// otherwise, or when that fails, cudaHostAlloc. nullptr when no page-locked
// memory can be had. Kept for the life of the process (the staging pieces).
void* numa_pinned_alloc(size_t bytes, int device)
{
    const int node = numa_node_of(device);
    if (node >= 0 && node < 64) {
        void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p != MAP_FAILED) {
            const unsigned long mask = 1ul << node;
            const long preferred = 1;   // MPOL_PREFERRED
            bool ok = syscall(SYS_mbind, p, bytes, preferred, &mask, 64ul, 0ul) == 0;
            if (ok) {
                std::memset(p, 0, bytes);   // first touch: the pages land on the node
                ok = cudaHostRegister(p, bytes, cudaHostRegisterPortable) == cudaSuccess;
                if (!ok) cudaGetLastError();
            }
            if (ok) return p;
            munmap(p, bytes);
        }
    }
    void* p = nullptr;
    if (cudaHostAlloc(&p, bytes, cudaHostAllocPortable) != cudaSuccess) {
        cudaGetLastError();
        return nullptr;
    }
    return p;
}

// ---- staged uploads ------------------------------------------------------------------------
// Piece k is reused once the DMA that read it (event done[k]) has completed.
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
    // The packed witness upload's tags and tile offsets (pinned, grown on demand).
    void* tags = nullptr;
    size_t tags_bytes = 0;
    cudaEvent_t tags_done = nullptr;
    bool tags_used = false;
};
// One staging state per device and lane (the calling thread's, under its
// context lock), so uploads to different devices or lanes do not share
// buffers or wait on each other.
stage_state& stage()
{
    static stage_state s[max_devices][max_lanes];
    const context& c = ctx();
    return s[c.device][c.lane];
}

// Allocates the two staging pieces and their events; false when no pinned
// memory can be had (the caller then copies without staging). The pieces
// are placed on the device's NUMA node when the host has several
// (numa_pinned_alloc).
bool ensure_stage(stage_state& st)
{
    for (int k = 0; k < 2; ++k) {
        if (!st.buf[k]) {
            st.buf[k] = numa_pinned_alloc(stage_bytes, ctx().device);
            if (!st.buf[k]) return false;
        }
        if (!st.done[k]) CUZK_CUDA_CHECK(cudaEventCreateWithFlags(&st.done[k], cudaEventDisableTiming));
    }
    return true;
}

// ---- packed witness upload (prove_bridge::upload_witness_packed) ---------------------------
// The format: lib/backend/bridge/witness_pack.hpp (whose host code
// does both host passes; witness_pack::unpack is this kernel on the host).
constexpr unsigned unpack_threads = 256;
constexpr unsigned unpack_steps = unsigned(witness_pack::tile / unpack_threads);   // 16
constexpr size_t tile_words = witness_pack::tile_words;                           // 256
static_assert(witness_pack::tile % (16 * unpack_threads) == 0);

// One block per tile: step s handles values s·256 + threadIdx.x of the tile;
// a ballot over the warp and the 8 warp counts (shared, double-buffered: one
// barrier per step) give an "other" value its rank in the tile.
__global__ void __launch_bounds__(unpack_threads)
    unpack_kernel(const uint32_t* __restrict__ tags, const uint32_t* __restrict__ tile_off,
                  const uint4* __restrict__ others, uint4* __restrict__ dst, size_t n)
{
    __shared__ uint32_t cnt[2][unpack_threads / 32];
    const size_t tile = blockIdx.x;
    const size_t base = tile * witness_pack::tile;
    const unsigned warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    uint32_t off = tile_off[tile];
    const dfr one = dfr::one();
    for (unsigned s = 0; s < unpack_steps; ++s) {
        const unsigned j = s * unpack_threads + threadIdx.x;
        const size_t i = base + j;
        const unsigned tag = i < n ? (tags[tile * tile_words + (j >> 4)] >> (2 * (j & 15))) & 3u : 0u;
        const uint32_t m = __ballot_sync(0xffffffffu, tag == 2);
        const unsigned buf = s & 1;
        if (lane == 0) cnt[buf][warp] = __popc(m);
        __syncthreads();
        uint32_t before = 0, total = 0;
#pragma unroll
        for (unsigned w = 0; w < unpack_threads / 32; ++w) {
            const uint32_t x = cnt[buf][w];
            before += w < warp ? x : 0u;
            total += x;
        }
        if (i < n) {
            uint4 lo, hi;
            if (tag == 2) {
                const size_t src = size_t(off) + before + __popc(m & ((1u << lane) - 1));
                lo = others[2 * src];
                hi = others[2 * src + 1];
            } else {
                const uint32_t z = tag == 1 ? 0xffffffffu : 0u;   // the one, or zero
                lo = make_uint4(one.w[0] & z, one.w[1] & z, one.w[2] & z, one.w[3] & z);
                hi = make_uint4(one.w[4] & z, one.w[5] & z, one.w[6] & z, one.w[7] & z);
            }
            dst[2 * i] = lo;
            dst[2 * i + 1] = hi;
        }
        off += total;
    }
}

} // namespace
} // namespace cuzk::dev

namespace cuzk::prove_bridge {

using namespace cuzk::dev;

namespace {
// A bridge stream, nullptr meaning the backend stream.
cudaStream_t as_stream(bridge::stream s) { return s ? cuda_handle(s) : ctx().stream; }
} // namespace

void mem_info(size_t* free_bytes, size_t* total_bytes)
{
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    size_t f = 0, t = 0;
    CUZK_CUDA_CHECK(mem_get_info(&f, &t));
    if (free_bytes) *free_bytes = f;
    if (total_bytes) *total_bytes = t;
}

void* host_alloc_pinned(size_t bytes)
{
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    void* p = nullptr;
    const cudaError_t e = cudaHostAlloc(&p, bytes ? bytes : 1, cudaHostAllocPortable);
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
        const cudaError_t e = cudaHostRegister(const_cast<void*>(p), bytes, cudaHostRegisterPortable);
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
    if (!ensure_stage(st)) {
        // No pinned memory: a plain (synchronous, slower) copy still works.
        CUZK_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, c.stream));
        CUZK_CUDA_CHECK(cudaStreamSynchronize(c.stream));
        return;
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

size_t packed_scratch_words(size_t n) { return witness_pack::scratch_words(n); }

namespace {
// The expansion of n packed values (tags and offsets in tag_tmp, others in others_tmp) into dst.
void launch_unpack(context& c, fr* dst, size_t n, const fr* others_tmp, const uint32_t* tag_tmp)
{
    const size_t tiles = witness_pack::tiles_of(n);
    unpack_kernel<<<unsigned(tiles), unpack_threads, 0, c.stream>>>(
        tag_tmp, tag_tmp + tiles * tile_words, reinterpret_cast<const uint4*>(others_tmp),
        reinterpret_cast<uint4*>(dst), n);
    CUZK_CUDA_CHECK(cudaGetLastError());
}
} // namespace

size_t upload_witness_packed(fr* dst, const fr* src, size_t n, fr* others_tmp, uint32_t* tag_tmp)
{
    namespace wp = witness_pack;
    if (n == 0) return 0;
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    stage_state& st = stage();
    const size_t tiles = wp::tiles_of(n);
    const size_t words = wp::scratch_words(n);   // tags, then the tile offsets
    // Threads: all of them for large vectors, one per 2^16 values below that.
    const unsigned th = unsigned(std::min<size_t>(resolve_threads(0), (n + 65535) / 65536));
    if (!ensure_stage(st)) {
        upload_pageable(dst, src, n * sizeof(fr));
        std::vector<uint32_t> tags(words), cnt;
        return size_t(wp::tag(src, n, tags.data(), tags.data() + tiles * tile_words, cnt, th));
    }
    if (st.tags_used) CUZK_CUDA_CHECK(cudaEventSynchronize(st.tags_done));   // its last DMA is over
    if (st.tags_bytes < words * sizeof(uint32_t)) {
        host_free_pinned(st.tags);
        st.tags = nullptr;
        st.tags_bytes = 0;
        st.tags = host_alloc_pinned(words * sizeof(uint32_t));
        st.tags_bytes = words * sizeof(uint32_t);
    }
    if (!st.tags_done) CUZK_CUDA_CHECK(cudaEventCreateWithFlags(&st.tags_done, cudaEventDisableTiming));
    uint32_t* tags = static_cast<uint32_t*>(st.tags);
    uint32_t* off = tags + tiles * tile_words;

    // Pass 1: tags, counts and offsets; one DMA for tags and offsets.
    std::vector<uint32_t> cnt;
    const uint64_t total = wp::tag(src, n, tags, off, cnt, th);
    CUZK_CUDA_CHECK(cudaMemcpyAsync(tag_tmp, tags, words * sizeof(uint32_t), cudaMemcpyHostToDevice, c.stream));
    CUZK_CUDA_CHECK(cudaEventRecord(st.tags_done, c.stream));
    st.tags_used = true;

    // Pass 2: the others, in pieces of whole tiles that fit one staging buffer.
    const size_t piece_vals = stage_bytes / sizeof(fr);
    int k = 0;
    for (size_t t0 = 0; t0 < tiles; k ^= 1) {
        size_t t1 = t0;
        while (t1 < tiles && uint64_t(off[t1]) + cnt[t1] - off[t0] <= piece_vals) ++t1;
        const uint64_t base = off[t0], len = (t1 < tiles ? uint64_t(off[t1]) : total) - base;
        if (len > 0) {
            if (st.used[k]) CUZK_CUDA_CHECK(cudaEventSynchronize(st.done[k]));
            fr* piece = static_cast<fr*>(st.buf[k]);
            wp::gather_others(src, tags, off, t0, t1, piece, th);
            CUZK_CUDA_CHECK(cudaMemcpyAsync(others_tmp + base, piece, len * sizeof(fr), cudaMemcpyHostToDevice,
                                            c.stream));
            CUZK_CUDA_CHECK(cudaEventRecord(st.done[k], c.stream));
            st.used[k] = true;
        }
        t0 = t1;
    }
    launch_unpack(c, dst, n, others_tmp, tag_tmp);
    return size_t(total);
}

void upload_packed(fr* dst, size_t n, const uint32_t* tags, const fr* others_host, uint64_t others, fr* others_tmp,
                   uint32_t* tag_tmp)
{
    if (n == 0) return;
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    const size_t words = witness_pack::scratch_words(n);
    CUZK_CUDA_CHECK(cudaMemcpyAsync(tag_tmp, tags, words * sizeof(uint32_t), cudaMemcpyHostToDevice, c.stream));
    if (others)
        CUZK_CUDA_CHECK(
            cudaMemcpyAsync(others_tmp, others_host, others * sizeof(fr), cudaMemcpyHostToDevice, c.stream));
    launch_unpack(c, dst, n, others_tmp, tag_tmp);
}

void expand_packed(fr* dst, size_t n, const fr* others_dev, const uint32_t* tags_dev)
{
    if (n == 0) return;
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    launch_unpack(c, dst, n, others_dev, tags_dev);
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

// Streams, events and copies on a stream of the caller's own take no lock:
// they touch no context state, and a thread staging a copy must not wait for
// an MSM holding the context's lock.
bridge::stream stream_create()
{
    (void)ctx();   // the calling thread's device
    cudaStream_t s = nullptr;
    CUZK_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    return bridge_handle(s);
}

void stream_destroy(bridge::stream s) noexcept
{
    if (s) cudaStreamDestroy(cuda_handle(s));
}

void copy_h2d_on(bridge::stream s, void* dst, const void* src, size_t bytes)
{
    if (bytes == 0) return;
    context& c = ctx();
    std::unique_lock<std::recursive_mutex> lk(c.mu, std::defer_lock);
    if (!s) lk.lock();
    CUZK_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, as_stream(s)));
}

bridge::event event_create()
{
    (void)ctx();
    cudaEvent_t e = nullptr;
    CUZK_CUDA_CHECK(cudaEventCreate(&e));
    return bridge_handle(e);
}

void event_destroy(bridge::event e) noexcept
{
    if (e) cudaEventDestroy(cuda_handle(e));
}

void event_record(bridge::event e, bridge::stream s)
{
    context& c = ctx();
    std::unique_lock<std::recursive_mutex> lk(c.mu, std::defer_lock);
    if (!s) lk.lock();
    CUZK_CUDA_CHECK(cudaEventRecord(cuda_handle(e), as_stream(s)));
}

void stream_wait(bridge::event e)
{
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    CUZK_CUDA_CHECK(cudaStreamWaitEvent(c.stream, cuda_handle(e), 0));
}

void event_synchronize(bridge::event e) { CUZK_CUDA_CHECK(cudaEventSynchronize(cuda_handle(e))); }

double event_elapsed_ms(bridge::event a, bridge::event b)
{
    float ms = 0;
    CUZK_CUDA_CHECK(cudaEventElapsedTime(&ms, cuda_handle(a), cuda_handle(b)));
    return double(ms);
}

void drain(bridge::stream s) noexcept
{
    try {
        context& c = ctx();
        cudaStreamSynchronize(c.stream);
        if (s) cudaStreamSynchronize(cuda_handle(s));
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

namespace {

// body(i) for i < n on the backend's stream (queued; returns at once).
template <class Body>
void each_on_stream(size_t n, const Body& body)
{
    if (n == 0) return;
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    cuda_be be{c};
    be.each(n, body);
}

template <class D, class H>
D* dev_of(H* p)
{
    return reinterpret_cast<D*>(p);
}
template <class D, class H>
const D* dev_of(const H* p)
{
    return reinterpret_cast<const D*>(p);
}

} // namespace

void mul_sub(fr* a, const fr* b, const fr* c, size_t n)
{
    each_on_stream(n, mul_sub_body<dfr>{dev_of<dfr>(a), dev_of<dfr>(b), dev_of<dfr>(c)});
}
void mul_into(const fr* a, const fr* b, fr* c, size_t n)
{
    each_on_stream(n, mul_into_body<dfr>{dev_of<dfr>(a), dev_of<dfr>(b), dev_of<dfr>(c)});
}
void mul_sub(bn254::fr* a, const bn254::fr* b, const bn254::fr* c, size_t n)
{
    each_on_stream(n, mul_sub_body<dbn_fr>{dev_of<dbn_fr>(a), dev_of<dbn_fr>(b), dev_of<dbn_fr>(c)});
}
void mul_into(const bn254::fr* a, const bn254::fr* b, bn254::fr* c, size_t n)
{
    each_on_stream(n, mul_into_body<dbn_fr>{dev_of<dbn_fr>(a), dev_of<dbn_fr>(b), dev_of<dbn_fr>(c)});
}
void to_canonical(const bn254::fr* src, fr::repr* dst, size_t n)
{
    each_on_stream(n, canonical_body<dbn_fr>{dev_of<dbn_fr>(src), dev_of<dbn_fr>(dst)});
}

} // namespace cuzk::prove_bridge
