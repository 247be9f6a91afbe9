// cuzk kernels — the device half of the setup: fixed-base scalar
// multiplication on G1 and G2 in chunks (kernels/fixed_base.cuh), behind
// lib/backend/bridge/setup_bridge.hpp. Runs on the backend's stream
// under its lock; the buffers are the handle's own (not the MSM's cached
// slots), freed by table_destroy.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "backend/bridge/setup_bridge.hpp"
#include "cuda_backend.cuh"
#include "fixed_base.cuh"

namespace cuzk::dev {

namespace {

void* checked_malloc(size_t bytes, const char* what)
{
    return scratch_malloc(bytes, (std::string("gpu setup: ") + what).c_str());
}

} // namespace
} // namespace cuzk::dev

// The bridge's table handle (lib/backend/bridge/handles.hpp): the window
// table and the chunk buffers, all on the device it was made on.
struct cuzk::bridge::fixed_base_handle {
    bool g2 = false;
    unsigned w = 0, windows = 0;
    void* table = nullptr;
    size_t table_bytes = 0;
    void* scalars = nullptr;
    void* xz = nullptr;
    void* aff = nullptr;
    size_t cap = 0;   // points per chunk the buffers hold
    size_t xz_size = 0, aff_size = 0;

    void free_chunks()
    {
        for (void** p : {&scalars, &xz, &aff})
            if (*p) {
                dev::scratch_free(*p);
                *p = nullptr;
            }
        cap = 0;
    }
    void reserve(size_t points)
    {
        if (points <= cap) return;
        CUZK_CUDA_CHECK(cudaStreamSynchronize(dev::ctx().stream));
        free_chunks();
        scalars = dev::checked_malloc(points * sizeof(dev::dfr), "scalars");
        xz = dev::checked_malloc(points * xz_size, "XYZZ results");
        aff = dev::checked_malloc(points * aff_size, "affine results");
        cap = points;
    }
};

namespace cuzk::dev {
namespace {

using fb_handle = bridge::fixed_base_handle;

template <class HostAff>
fb_handle* create(const HostAff* table, unsigned w, unsigned windows, bool g2)
{
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    if (w < 1 || w > 20 || windows == 0)
        throw error(errc::invalid_argument, "gpu setup: window bits must be 1 … 20 and windows > 0");
    auto h = new fb_handle;
    try {
        h->g2 = g2;
        h->w = w;
        h->windows = windows;
        h->xz_size = sizeof(typename device_types<HostAff>::xz);
        h->aff_size = sizeof(HostAff);
        h->table_bytes = size_t(windows) * ((size_t{1} << w) - 1) * sizeof(HostAff);
        h->table = checked_malloc(h->table_bytes, "the window table");
        CUZK_CUDA_CHECK(cudaMemcpyAsync(h->table, table, h->table_bytes, cudaMemcpyHostToDevice, c.stream));
        CUZK_CUDA_CHECK(cudaStreamSynchronize(c.stream));
    } catch (...) {
        if (h->table) scratch_free(h->table);
        delete h;
        throw;
    }
    return h;
}

template <class HostAff>
double run(fb_handle* h, const fr* k, size_t n, HostAff* out, size_t chunk)
{
    using Aff = typename device_types<HostAff>::aff;
    using Xz = typename device_types<HostAff>::xz;
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    if (n == 0) return 0;
    chunk = std::max<size_t>(1, std::min(chunk, n));
    h->reserve(chunk);
    cudaEvent_t e0, e1;
    CUZK_CUDA_CHECK(cudaEventCreate(&e0));
    CUZK_CUDA_CHECK(cudaEventCreate(&e1));
    double ms_total = 0;
    try {
        for (size_t lo = 0; lo < n; lo += chunk) {
            const size_t len = std::min(chunk, n - lo);
            CUZK_CUDA_CHECK(cudaMemcpyAsync(h->scalars, k + lo, len * sizeof(fr), cudaMemcpyHostToDevice, c.stream));
            CUZK_CUDA_CHECK(cudaEventRecord(e0, c.stream));
            const unsigned block = 128;
            fb_mul_kernel<Aff, Xz><<<unsigned((len + block - 1) / block), block, 0, c.stream>>>(
                static_cast<const Aff*>(h->table), h->w, h->windows, static_cast<const dfr*>(h->scalars),
                static_cast<Xz*>(h->xz), len);
            CUZK_CUDA_CHECK(cudaGetLastError());
            // 16 points per thread for the batch inversion (fewer threads when the chunk is small).
            const size_t stride = (len + 15) / 16;
            fb_affine_kernel<Aff, Xz><<<unsigned((stride + block - 1) / block), block, 0, c.stream>>>(
                static_cast<const Xz*>(h->xz), static_cast<Aff*>(h->aff), len, stride);
            CUZK_CUDA_CHECK(cudaGetLastError());
            CUZK_CUDA_CHECK(cudaEventRecord(e1, c.stream));
            CUZK_CUDA_CHECK(cudaMemcpyAsync(out + lo, h->aff, len * sizeof(HostAff), cudaMemcpyDeviceToHost, c.stream));
            CUZK_CUDA_CHECK(cudaStreamSynchronize(c.stream));
            float ms = 0;
            CUZK_CUDA_CHECK(cudaEventElapsedTime(&ms, e0, e1));
            ms_total += ms;
        }
    } catch (...) {
        cudaEventDestroy(e0);
        cudaEventDestroy(e1);
        throw;
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return ms_total;
}

} // namespace

} // namespace cuzk::dev

namespace cuzk::setup_bridge {

using namespace cuzk::dev;

bridge::fixed_base_table table_create_g1(const g1_affine* table, unsigned window_bits, unsigned windows)
{
    return create(table, window_bits, windows, false);
}
bridge::fixed_base_table table_create_g2(const g2_affine* table, unsigned window_bits, unsigned windows)
{
    return create(table, window_bits, windows, true);
}
void table_destroy(bridge::fixed_base_table h) noexcept
{
    if (!h) return;
    try {
        context& c = ctx();
        std::lock_guard<std::recursive_mutex> lk(c.mu);
        cudaStreamSynchronize(c.stream);
        h->free_chunks();
        if (h->table) scratch_free(h->table);
    } catch (...) {
    }
    delete h;
}
uint64_t table_device_bytes(const bridge::fixed_base_handle* h) noexcept
{
    return h ? h->table_bytes + h->cap * (sizeof(dfr) + h->xz_size + h->aff_size) : 0;
}
double fixed_base_g1(bridge::fixed_base_table handle, const fr* k, size_t n, g1_affine* out, size_t chunk)
{
    if (handle->g2) throw error(errc::invalid_argument, "fixed_base_g1: a G2 table");
    return run(handle, k, n, out, chunk);
}
double fixed_base_g2(bridge::fixed_base_table handle, const fr* k, size_t n, g2_affine* out, size_t chunk)
{
    if (!handle->g2) throw error(errc::invalid_argument, "fixed_base_g2: a G1 table");
    return run(handle, k, n, out, chunk);
}

} // namespace cuzk::setup_bridge
