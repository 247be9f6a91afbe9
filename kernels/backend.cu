// cuzk kernels — the device context and the small entry points of the bridge
// (lib/backend/bridge/cuda_bridge.hpp): discovery, memory, timers, field
// arithmetic checks and the multiply-throughput kernel, the scalar bit length.
#include <cuda_runtime.h>

#include <cstdio>
#include <string>

#include "backend/bridge/cuda_bridge.hpp"
#include "backend/device_ledger.hpp"
#include "cuda_backend.cuh"

namespace cuzk::dev {

void cuda_fail(cudaError_t e, const char* expr, const char* file, int line)
{
    std::string msg = std::string(expr) + "@" + file + ":" + std::to_string(line) + ": " + cudaGetErrorName(e) +
                      " (" + cudaGetErrorString(e) + ")";
    throw error(errc::device, msg);
}

namespace {
// The device each host thread works on (set by select_device; −1: not yet
// chosen, which means device 0 at the first use), and its lane.
thread_local int t_device = -1;
thread_local int t_lane = 0;
std::mutex init_mu;
context contexts[max_devices][max_lanes];
} // namespace

int current_device() noexcept { return t_device < 0 ? 0 : t_device; }
int current_lane() noexcept { return t_lane; }

int select_lane(int lane)
{
    if (lane < 0 || lane >= max_lanes)
        throw error(errc::invalid_argument,
                    "backend lane " + std::to_string(lane) + " does not exist (" + std::to_string(max_lanes) + ")");
    const int prev = t_lane;
    t_lane = lane;
    return prev;
}

int select_device(int device)
{
    int count = 0;
    CUZK_CUDA_CHECK(cudaGetDeviceCount(&count));
    if (device < 0 || device >= count || device >= max_devices)
        throw error(errc::invalid_argument, "CUDA device " + std::to_string(device) + " does not exist (" +
                                                std::to_string(count) + " visible)");
    const int prev = current_device();
    CUZK_CUDA_CHECK(cudaSetDevice(device));
    t_device = device;
    return prev;
}

context& ctx()
{
    if (t_device < 0) select_device(0);
    context& c = contexts[t_device][t_lane];
    std::lock_guard<std::mutex> lk(init_mu);
    if (!c.ready) {
        c.device = t_device;
        c.lane = t_lane;
        CUZK_CUDA_CHECK(cudaGetDeviceProperties(&c.prop, c.device));
        CUZK_CUDA_CHECK(cudaStreamCreateWithFlags(&c.stream, cudaStreamNonBlocking));
        c.ready = true;
    }
    return c;
}

copy_timer::copy_timer(context& c, bool on)
{
    if (!on) return;
    for (auto& e : ev_) CUZK_CUDA_CHECK(cudaEventCreate(&e));
    CUZK_CUDA_CHECK(cudaStreamSynchronize(c.stream));
    CUZK_CUDA_CHECK(cudaEventRecord(ev_[0], c.stream));
    CUZK_CUDA_CHECK(cudaEventSynchronize(ev_[0]));
    t0_ = std::chrono::steady_clock::now();
}

copy_timer::~copy_timer()
{
    for (auto& e : ev_)
        if (e) cudaEventDestroy(e);
}

void copy_timer::finish(std::chrono::steady_clock::time_point copy_done, std::chrono::steady_clock::time_point* begin,
                        std::chrono::steady_clock::time_point* end)
{
    if (!ev_[0]) return;
    float ms = 0;
    CUZK_CUDA_CHECK(cudaEventElapsedTime(&ms, ev_[0], ev_[1]));
    const auto b = t0_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                             std::chrono::duration<double, std::milli>(ms));
    *begin = b;
    *end = copy_done > b ? copy_done : b;
}

void* scratch_malloc(size_t bytes, const char* what)
{
    int device = 0;
    CUZK_CUDA_CHECK(cudaGetDevice(&device));
    detail::memory_ledger& ledger = detail::device_ledger(device);
    if (!ledger.reserve(bytes)) {
        const gpu_memory_use u = ledger.use();
        throw error(errc::out_of_memory,
                    std::string(what) + ": " + std::to_string(bytes) + " bytes would pass device " +
                        std::to_string(device) + "'s memory cap of " + std::to_string(u.cap) + " bytes (" +
                        std::to_string(u.used) + " in use)");
    }
    void* p = nullptr;
    const cudaError_t e = cudaMalloc(&p, bytes);
    if (e != cudaSuccess) ledger.unreserve(bytes);
    if (e == cudaErrorMemoryAllocation) {
        cudaGetLastError();
        throw error(errc::out_of_memory,
                    std::string(what) + ": cudaMalloc of " + std::to_string(bytes) + " bytes: out of device memory");
    }
    CUZK_CUDA_CHECK(e);
    ledger.bind(p, bytes);
    return p;
}

cudaError_t scratch_free(void* p)
{
    if (!p) return cudaSuccess;
    int device = 0;
    const cudaError_t d = cudaGetDevice(&device);
    const cudaError_t e = cudaFree(p);
    if (d == cudaSuccess && e == cudaSuccess) detail::device_ledger(device).release(p);
    return e;
}

cudaError_t mem_get_info(size_t* free_bytes, size_t* total_bytes)
{
    int device = 0;
    cudaError_t e = cudaGetDevice(&device);
    if (e == cudaSuccess) e = cudaMemGetInfo(free_bytes, total_bytes);
    if (e != cudaSuccess) return e;
    uint64_t f = *free_bytes, t = *total_bytes;
    detail::device_ledger(device).clip(&f, &t);
    *free_bytes = size_t(f);
    *total_bytes = size_t(t);
    return cudaSuccess;
}

namespace {
// What an out-of-memory message about slot s adds: the device's free and
// total memory and what this lane's cached scratch holds (its largest slot).
std::string scratch_held(const context& c, int s)
{
    size_t free_b = 0, total_b = 0;
    if (mem_get_info(&free_b, &total_b) != cudaSuccess) cudaGetLastError();
    size_t held = c.sort_temp_bytes;
    int largest = -1;
    for (int i = 0; i < slot_count_all; ++i) {
        held += c.slots[i].bytes;
        if (c.slots[i].bytes && (largest < 0 || c.slots[i].bytes > c.slots[largest].bytes)) largest = i;
    }
    for (const auto& t : c.twiddles) held += t.second.bytes;
    char buf[320];
    std::snprintf(buf, sizeof buf,
                  "slot %s; device %d lane %d: %.2f GB free of %.2f GB; this lane's cached scratch holds %.2f GB, "
                  "the largest slot %s %.2f GB",
                  scratch_slot_name(s), c.device, c.lane, free_b / 1e9, total_b / 1e9, held / 1e9,
                  largest < 0 ? "none" : scratch_slot_name(largest), largest < 0 ? 0.0 : c.slots[largest].bytes / 1e9);
    return buf;
}
} // namespace

void* ctx_slot(int s, size_t bytes)
{
    context& c = ctx();
    auto& b = c.slots[s];
    if (b.bytes < bytes) {
        if (b.p) {
            CUZK_CUDA_CHECK(cudaStreamSynchronize(c.stream));
            CUZK_CUDA_CHECK(scratch_free(b.p));
            b = {};
        }
        try {
            b.p = scratch_malloc(bytes, "backend scratch");
        } catch (const error& e) {
            if (e.code() != errc::out_of_memory) throw;
            throw error(errc::out_of_memory, std::string(e.what()) + " (" + scratch_held(c, s) + ")");
        }
        b.bytes = bytes;
    }
    return b.p;
}

void ctx_release_slot(int s)
{
    context& c = ctx();
    auto& b = c.slots[s];
    if (!b.p) return;
    CUZK_CUDA_CHECK(cudaStreamSynchronize(c.stream));
    CUZK_CUDA_CHECK(scratch_free(b.p));
    b = {};
}

void ctx_release_all(context& c)
{
    CUZK_CUDA_CHECK(cudaStreamSynchronize(c.stream));
    for (auto& b : c.slots) {
        if (b.p) CUZK_CUDA_CHECK(scratch_free(b.p));
        b = {};
    }
    for (auto& [k, b] : c.twiddles)
        if (b.p) CUZK_CUDA_CHECK(scratch_free(b.p));
    c.twiddles.clear();
    if (c.sort_temp) CUZK_CUDA_CHECK(scratch_free(c.sort_temp));
    c.sort_temp = nullptr;
    c.sort_temp_bytes = 0;
}

// ---- the scalar bit length ------------------------------------------------------------
// OR of all limbs, per limb index: a grid-stride loop per thread, a warp
// shuffle reduction, one atomicOr per warp and limb. The bit length follows
// from the highest non-zero OR.
__global__ void scalar_or_kernel(const uint64_t* k, size_t n, unsigned long long* out)
{
    unsigned long long acc[4] = {0, 0, 0, 0};
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
        for (int j = 0; j < 4; ++j) acc[j] |= k[4 * i + j];
    for (int j = 0; j < 4; ++j) {
        for (int o = 16; o > 0; o >>= 1) acc[j] |= __shfl_xor_sync(0xffffffffu, acc[j], o);
        if ((threadIdx.x & 31) == 0 && acc[j]) atomicOr(&out[j], acc[j]);
    }
}

unsigned cuda_scalar_bits(const uint64_t* k, size_t n)
{
    context& c = ctx();
    auto* d = static_cast<unsigned long long*>(ctx_slot(slot_count, 64));
    CUZK_CUDA_CHECK(cudaMemsetAsync(d, 0, 4 * sizeof(unsigned long long), c.stream));
    const unsigned grid = unsigned(std::min<size_t>((n + 255) / 256, size_t(c.prop.multiProcessorCount) * 8));
    if (n) scalar_or_kernel<<<grid, 256, 0, c.stream>>>(k, n, d);
    CUZK_CUDA_CHECK(cudaGetLastError());
    unsigned long long h[4];
    CUZK_CUDA_CHECK(cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, c.stream));
    CUZK_CUDA_CHECK(cudaStreamSynchronize(c.stream));
    for (int j = 3; j >= 0; --j)
        if (h[j]) return unsigned(64 * j + 64 - __builtin_clzll(h[j]));
    return 0;
}

// ---- field checks and throughput ------------------------------------------------------
template <class F>
struct field_apply_body {
    const F* a;
    const F* b;
    F* out;
    gpu_field_op op;
    CUZK_HD void operator()(size_t i) const
    {
        switch (op) {
        case gpu_field_op::mul: out[i] = a[i] * b[i]; break;
        case gpu_field_op::sqr: out[i] = a[i].sqr(); break;
        case gpu_field_op::add: out[i] = a[i] + b[i]; break;
        case gpu_field_op::sub: out[i] = a[i] - b[i]; break;
        default: out[i] = -a[i]; break;   // gpu_field_op::neg
        }
    }
};

// Four independent chains x_j ← x_j·y per thread, so that a warp always has
// independent multiplications in flight; the sum is stored so nothing is
// optimised away.
template <class F>
__global__ void mul_chain_kernel(const F* in, F* out, unsigned iters)
{
    const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
    F x0 = in[4 * i], x1 = in[4 * i + 1], x2 = in[4 * i + 2], x3 = in[4 * i + 3];
    const F y = in[4 * i] + in[4 * i + 1];
    for (unsigned it = 0; it < iters; ++it) {
        x0 = x0 * y;
        x1 = x1 * y;
        x2 = x2 * y;
        x3 = x3 * y;
    }
    out[i] = (x0 + x1) + (x2 + x3);
}

template <class F>
struct bench_fill {
    F* p;
    CUZK_HD void operator()(size_t i) const
    {
        F v = F::one();
        v = v + v;
        p[i] = v.pow_u64(i % 251 + 3);
    }
};

template <class F>
double mul_bench(unsigned blocks, unsigned iters, double* muls)
{
    context& c = ctx();
    const size_t threads = size_t(blocks) * 256;
    F* in = static_cast<F*>(ctx_slot(slot_io, 4 * threads * sizeof(F)));
    F* out = static_cast<F*>(ctx_slot(slot_seg_a, threads * sizeof(F)));
    // Inputs: powers of 2 in Montgomery form (any elements will do).
    each_kernel<<<blocks * 4, 256, 0, c.stream>>>(bench_fill<F>{in}, 4 * threads);
    CUZK_CUDA_CHECK(cudaGetLastError());
    mul_chain_kernel<F><<<blocks, 256, 0, c.stream>>>(in, out, 2);   // warm-up
    CUZK_CUDA_CHECK(cudaGetLastError());
    cudaEvent_t e0, e1;
    CUZK_CUDA_CHECK(cudaEventCreate(&e0));
    CUZK_CUDA_CHECK(cudaEventCreate(&e1));
    CUZK_CUDA_CHECK(cudaEventRecord(e0, c.stream));
    mul_chain_kernel<F><<<blocks, 256, 0, c.stream>>>(in, out, iters);
    CUZK_CUDA_CHECK(cudaGetLastError());
    CUZK_CUDA_CHECK(cudaEventRecord(e1, c.stream));
    CUZK_CUDA_CHECK(cudaEventSynchronize(e1));
    float ms = 0;
    CUZK_CUDA_CHECK(cudaEventElapsedTime(&ms, e0, e1));
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    *muls = double(threads) * 4.0 * double(iters);
    return ms;
}

} // namespace cuzk::dev

// The bridge's timer handle (lib/backend/bridge/handles.hpp): its start and stop events.
struct cuzk::bridge::timer_handle {
    cudaEvent_t a = nullptr, b = nullptr;
};

namespace cuzk::cuda_bridge {

using namespace cuzk::dev;

int select_device(int device) { return dev::select_device(device); }
int current_device() noexcept { return dev::current_device(); }
int select_lane(int lane) { return dev::select_lane(lane); }
int current_lane() noexcept { return dev::current_lane(); }

int device_count(std::string* why)
{
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        if (why) *why = std::string("cudaGetDeviceCount: ") + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")";
        cudaGetLastError();   // clear
        return -1;
    }
    if (count == 0 && why) *why = "no CUDA device is visible";
    return count;
}

std::string device_info()
{
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    size_t free_b = 0, total_b = 0;
    CUZK_CUDA_CHECK(mem_get_info(&free_b, &total_b));
    int rt = 0, drv = 0;
    cudaRuntimeGetVersion(&rt);
    cudaDriverGetVersion(&drv);
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "%s, compute capability %d.%d, %d SMs, %.1f GiB (%.1f GiB free), L2 %.0f MiB, runtime %d, driver %d",
                  c.prop.name, c.prop.major, c.prop.minor, c.prop.multiProcessorCount, double(total_b) / (1u << 30),
                  double(free_b) / (1u << 30), double(c.prop.l2CacheSize) / (1u << 20), rt, drv);
    return buf;
}

void* alloc(size_t bytes)
{
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    return scratch_malloc(bytes ? bytes : 1, "device buffer");
}

void release(void* p, int device) noexcept
{
    if (!p) return;
    const int cur = current_device();
    if (device == cur) {
        scratch_free(p);
        return;
    }
    // Free it on its own device, then return to the thread's choice.
    if (cudaSetDevice(device) == cudaSuccess) scratch_free(p);
    cudaSetDevice(cur);
    cudaGetLastError();
}

void copy_to_device(void* dst, const void* src, size_t bytes)
{
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    CUZK_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, c.stream));
    CUZK_CUDA_CHECK(cudaStreamSynchronize(c.stream));
}

void copy_to_host(void* dst, const void* src, size_t bytes)
{
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    CUZK_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, c.stream));
    CUZK_CUDA_CHECK(cudaStreamSynchronize(c.stream));
}

void synchronize()
{
    context& c = ctx();
    CUZK_CUDA_CHECK(cudaStreamSynchronize(c.stream));
}

void release_cache()
{
    // Every lane of the calling thread's device made so far.
    const int device = ctx().device;
    for (int lane = 0; lane < max_lanes; ++lane) {
        context& c = contexts[device][lane];
        {
            std::lock_guard<std::mutex> lk(init_mu);
            if (!c.ready) continue;
        }
        std::lock_guard<std::recursive_mutex> lk(c.mu);
        ctx_release_all(c);
    }
}

bridge::timer timer_create()
{
    context& c = ctx();
    (void)c;
    auto* t = new bridge::timer_handle;
    if (cudaEventCreate(&t->a) != cudaSuccess || cudaEventCreate(&t->b) != cudaSuccess) {
        timer_destroy(t);
        throw error(errc::device, "cudaEventCreate failed");
    }
    return t;
}

void timer_destroy(bridge::timer t) noexcept
{
    if (!t) return;
    if (t->a) cudaEventDestroy(t->a);
    if (t->b) cudaEventDestroy(t->b);
    delete t;
}

void timer_start(bridge::timer t)
{
    context& c = ctx();
    CUZK_CUDA_CHECK(cudaEventRecord(t->a, c.stream));
}

double timer_stop_ms(bridge::timer t)
{
    context& c = ctx();
    CUZK_CUDA_CHECK(cudaEventRecord(t->b, c.stream));
    CUZK_CUDA_CHECK(cudaEventSynchronize(t->b));
    float ms = 0;
    CUZK_CUDA_CHECK(cudaEventElapsedTime(&ms, t->a, t->b));
    return ms;
}

template <class F>
static void apply(gpu_field_op op, const void* a, const void* b, void* out, size_t n)
{
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    cuda_be be{c};
    F* da = be.buffer<F>(slot_io, 3 * n);
    F* db = da + n;
    F* dout = da + 2 * n;
    CUZK_CUDA_CHECK(cudaMemcpyAsync(da, a, n * sizeof(F), cudaMemcpyHostToDevice, c.stream));
    CUZK_CUDA_CHECK(cudaMemcpyAsync(db, b, n * sizeof(F), cudaMemcpyHostToDevice, c.stream));
    CUZK_CUDA_CHECK(cudaMemsetAsync(dout, 0xA5, n * sizeof(F), c.stream));   // poison
    be.each(n, field_apply_body<F>{da, db, dout, op});
    be.to_host(out, dout, n * sizeof(F));
}

void field_apply(bridge::field field, gpu_field_op op, const void* a, const void* b, void* out, size_t n)
{
    if (n == 0) return;
    switch (field) {
    case bridge::field::fp: apply<dfp>(op, a, b, out, n); break;
    case bridge::field::fr: apply<dfr>(op, a, b, out, n); break;
    case bridge::field::fp2: apply<dfp2>(op, a, b, out, n); break;
    }
}

double field_mul_bench(bridge::field field, unsigned blocks, unsigned iters, double* muls)
{
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    return field == bridge::field::fp ? mul_bench<dfp>(blocks, iters, muls) : mul_bench<dfr>(blocks, iters, muls);
}

unsigned scalar_bits(const fr::repr* scalars, size_t n)
{
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    return cuda_scalar_bits(reinterpret_cast<const uint64_t*>(scalars), n);
}

} // namespace cuzk::cuda_bridge
