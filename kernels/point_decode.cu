// cuzk kernels — a .params file's points decoded in place on the device
// (kernels/point_decode.cuh) behind lib/backend/bridge/decode_bridge.hpp.
#include <cuda_runtime.h>

#include "backend/bridge/decode_bridge.hpp"
#include "cuda_backend.cuh"
#include "point_decode.cuh"

namespace cuzk::dev {

namespace {

// One thread per point: its raw words in (16-byte loads: a point's bytes are
// a multiple of 16 and the buffers 256-byte aligned), its affine point out
// over the same bytes.
template <int Words, class Aff, bool (*Decode)(const uint32_t*, Aff&)>
__global__ void decode_in_place(uint32_t* data, size_t n, uint64_t first, unsigned long long* bad)
{
    static_assert(sizeof(Aff) == Words * 4 && Words % 4 == 0);
    const size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uint4* p = reinterpret_cast<uint4*>(data + i * Words);
    uint32_t raw[Words];
CUZK_UNROLL
    for (int k = 0; k < Words / 4; ++k) {
        const uint4 v = p[k];
        raw[4 * k] = v.x;
        raw[4 * k + 1] = v.y;
        raw[4 * k + 2] = v.z;
        raw[4 * k + 3] = v.w;
    }
    Aff out;
    if (!Decode(raw, out)) {
        atomicMin(bad, static_cast<unsigned long long>(first + i));
        return;
    }
    const uint32_t* o = reinterpret_cast<const uint32_t*>(&out);
CUZK_UNROLL
    for (int k = 0; k < Words / 4; ++k) p[k] = make_uint4(o[4 * k], o[4 * k + 1], o[4 * k + 2], o[4 * k + 3]);
}

template <int Words, class Aff, bool (*Decode)(const uint32_t*, Aff&)>
void launch(bridge::stream s, void* dev, size_t n, uint64_t first, uint64_t* bad)
{
    if (n == 0) return;
    (void)ctx();   // the calling thread's device
    constexpr unsigned block = 128;
    const size_t blocks = (n + block - 1) / block;
    decode_in_place<Words, Aff, Decode><<<unsigned(blocks), block, 0, cuda_handle(s)>>>(
        static_cast<uint32_t*>(dev), n, first, reinterpret_cast<unsigned long long*>(bad));
    CUZK_CUDA_CHECK(cudaGetLastError());
}

} // namespace

} // namespace cuzk::dev

namespace cuzk::decode_bridge {

using namespace cuzk::dev;

void g1_in_place(bridge::stream s, void* dev, size_t n, uint64_t first, uint64_t* bad)
{
    launch<g1_raw_words, dg1_affine, decode_g1_raw>(s, dev, n, first, bad);
}

void g2_in_place(bridge::stream s, void* dev, size_t n, uint64_t first, uint64_t* bad)
{
    launch<g2_raw_words, dg2_affine, decode_g2_raw>(s, dev, n, first, bad);
}

void bad_reset(bridge::stream s, uint64_t* bad)
{
    CUZK_CUDA_CHECK(cudaMemsetAsync(bad, 0xff, sizeof(uint64_t), cuda_handle(s)));
}

uint64_t bad_read(bridge::stream s, const uint64_t* bad)
{
    uint64_t v = 0;
    CUZK_CUDA_CHECK(cudaMemcpyAsync(&v, bad, sizeof v, cudaMemcpyDeviceToHost, cuda_handle(s)));
    CUZK_CUDA_CHECK(cudaStreamSynchronize(cuda_handle(s)));
    return v;
}

} // namespace cuzk::decode_bridge
