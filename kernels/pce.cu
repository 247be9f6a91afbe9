// cuzk kernels — the PCE evaluation on the device: a = A·w, b = B·w, c = C·w
// over Fr (Montgomery form), and the satisfaction check a·b = c
// (lib/backend/bridge/witness_bridge.hpp).
//
// Method: one thread per constraint row r computes the three rows A_r·w,
// B_r·w, C_r·w one after the other (the rows of one constraint read nearby
// witness values, so the second and third gathers often hit L2). Per entry:
// the column and code (8 bytes, read nearly contiguously by a warp, since
// consecutive rows have consecutive entries), the witness value (32 bytes, a
// gather), then
//   code 0 (+1)   one field addition
//   code 1 (−1)   a negation and an addition (branch-free within the warp:
//                 ±1 codes are mixed in every row, so both choices take the
//                 same instruction path)
//   code k >= 2   a Montgomery multiplication by table[k − 2] (the branch is
//                 divergent, but such entries are rare in PoRep circuits)
// Field addition is exact and the result canonical, so any order of the terms
// gives the CPU's r1cs::evaluate bit for bit.
//
// Cost note (PoRep shape: m ≈ 130 M rows, 2.4 + 1.0 + 2.2 = 5.6 entries per
// row, codes mostly ±1): per row 5.6 × (8 B entry + 32 B witness sector) +
// 3 × 32 B output + 3 × 4 B offsets ≈ 330 B, so ≈ 43 GB of traffic for the
// whole PCE, ≈ 13 ms at the H200's ~3.3 TB/s if the gathers were perfect;
// the witness gathers are 32-byte sectors scattered over a 4 GB vector, so
// expect 1.5–2× that (20–30 ms). Arithmetic is ~50 integer instructions per
// ±1 entry (~40 G instructions in all, a few ms): the kernel is memory bound.
// Long rows (e.g. a 255-term packing of bits) cost one thread their whole
// length while its warp waits; they are a small fraction of PoRep's rows.
// Offsets are 32-bit when every offset of a matrix fits (PoRep: ~300 M
// entries), which halves their share and their device memory.
#include <cuda_runtime.h>

#include "backend/bridge/witness_bridge.hpp"
#include "cuda_backend.cuh"
#include "cuzk/r1cs/pce.hpp"

namespace cuzk::dev {

namespace {

template <class Off>
struct csr_view {
    const Off* __restrict__ row_ptr;
    const uint32_t* __restrict__ col;
    const uint32_t* __restrict__ code;
};

template <class Off>
__device__ __forceinline__ dfr eval_row(const csr_view<Off>& m, const dfr* __restrict__ table,
                                        const dfr* __restrict__ w, uint64_t r)
{
    const uint64_t s = m.row_ptr[r], e = m.row_ptr[r + 1];
    dfr acc = dfr::zero();
    for (uint64_t k = s; k < e; ++k) {
        const uint32_t c = m.col[k];
        const uint32_t t = m.code[k];
        dfr x = w[c];
        if (t >= r1cs::coef_table_base) x = table[t - r1cs::coef_table_base] * x;
        if (t == r1cs::coef_minus_one) x = -x;
        acc += x;
    }
    return acc;
}

template <class OffA, class OffB, class OffC>
__global__ void pce_eval_kernel(csr_view<OffA> ma, csr_view<OffB> mb, csr_view<OffC> mc,
                                const dfr* __restrict__ table, const dfr* __restrict__ w, dfr* __restrict__ a,
                                dfr* __restrict__ b, dfr* __restrict__ c, uint64_t rows)
{
    const uint64_t r = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
    if (r >= rows) return;
    a[r] = eval_row(ma, table, w, r);
    b[r] = eval_row(mb, table, w, r);
    c[r] = eval_row(mc, table, w, r);
}

// Grid-stride over i; a thread stops once its i passes the best index found
// so far (indices only grow along its loop).
__global__ void first_unsat_kernel(const dfr* __restrict__ a, const dfr* __restrict__ b,
                                   const dfr* __restrict__ c, size_t n, unsigned long long* best)
{
    const size_t stride = size_t(gridDim.x) * blockDim.x;
    for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += stride) {
        if (i > *static_cast<volatile unsigned long long*>(best)) return;
        if (a[i] * b[i] != c[i]) {
            atomicMin(best, (unsigned long long)i);
            return;
        }
    }
}

template <class Off>
csr_view<Off> view_of(const witness_bridge::csr_device& m)
{
    return {static_cast<const Off*>(m.row_ptr), m.col, m.code};
}

template <class OffA, class OffB>
void launch_c(context& cx, const witness_bridge::csr_device m[3], const dfr* table, uint64_t rows, const dfr* w,
              dfr* a, dfr* b, dfr* c)
{
    const unsigned block = 256;
    const uint64_t grid = (rows + block - 1) / block;
    if (m[2].row_ptr_32)
        pce_eval_kernel<OffA, OffB, uint32_t><<<unsigned(grid), block, 0, cx.stream>>>(
            view_of<OffA>(m[0]), view_of<OffB>(m[1]), view_of<uint32_t>(m[2]), table, w, a, b, c, rows);
    else
        pce_eval_kernel<OffA, OffB, uint64_t><<<unsigned(grid), block, 0, cx.stream>>>(
            view_of<OffA>(m[0]), view_of<OffB>(m[1]), view_of<uint64_t>(m[2]), table, w, a, b, c, rows);
    CUZK_CUDA_CHECK(cudaGetLastError());
}

} // namespace

} // namespace cuzk::dev

namespace cuzk::witness_bridge {

using namespace cuzk::dev;

void pce_eval(const csr_device m[3], const fr* table, uint64_t rows, const fr* w, fr* a, fr* b, fr* c)
{
    if (rows == 0) return;
    context& cx = ctx();
    std::lock_guard<std::recursive_mutex> lk(cx.mu);
    if ((rows + 255) / 256 > 0x7fffffffull)
        throw error(errc::invalid_argument, "pce_eval: too many rows for one launch");
    const auto* t = reinterpret_cast<const dfr*>(table);
    const auto* dw = reinterpret_cast<const dfr*>(w);
    auto* da = reinterpret_cast<dfr*>(a);
    auto* db = reinterpret_cast<dfr*>(b);
    auto* dc = reinterpret_cast<dfr*>(c);
    // 32-bit offsets are the rule; the 64-bit forms exist for huge matrices.
    if (m[0].row_ptr_32 && m[1].row_ptr_32) launch_c<uint32_t, uint32_t>(cx, m, t, rows, dw, da, db, dc);
    else if (m[0].row_ptr_32) launch_c<uint32_t, uint64_t>(cx, m, t, rows, dw, da, db, dc);
    else if (m[1].row_ptr_32) launch_c<uint64_t, uint32_t>(cx, m, t, rows, dw, da, db, dc);
    else launch_c<uint64_t, uint64_t>(cx, m, t, rows, dw, da, db, dc);
}

int64_t first_unsatisfied(const fr* a, const fr* b, const fr* c, size_t n)
{
    if (n == 0) return -1;
    context& cx = ctx();
    std::lock_guard<std::recursive_mutex> lk(cx.mu);
    auto* best = static_cast<unsigned long long*>(ctx_slot(slot_count, 64));
    CUZK_CUDA_CHECK(cudaMemsetAsync(best, 0xff, sizeof(unsigned long long), cx.stream));
    const unsigned grid =
        unsigned(std::min<size_t>((n + 255) / 256, size_t(cx.prop.multiProcessorCount) * 16));
    first_unsat_kernel<<<grid, 256, 0, cx.stream>>>(reinterpret_cast<const dfr*>(a), reinterpret_cast<const dfr*>(b),
                                                     reinterpret_cast<const dfr*>(c), n, best);
    CUZK_CUDA_CHECK(cudaGetLastError());
    unsigned long long h = 0;
    CUZK_CUDA_CHECK(cudaMemcpyAsync(&h, best, sizeof h, cudaMemcpyDeviceToHost, cx.stream));
    CUZK_CUDA_CHECK(cudaStreamSynchronize(cx.stream));
    return h == ~0ull ? int64_t(-1) : int64_t(h);
}

} // namespace cuzk::witness_bridge
