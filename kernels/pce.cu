// cuzk kernels — the PCE evaluation on the device: a = A·w, b = B·w, c = C·w
// over Fr (Montgomery form), and the satisfaction check a·b = c
// (lib/backend/bridge/witness_bridge.hpp).
//
// Method: a first pass classifies the witness (two bitmaps, one word each per
// 32 values: "not zero" and "neither zero nor one"; 2 bits a value, 33.5 MB
// for 2^27 values, small enough to stay in L2). Then one thread per
// constraint row r computes the three rows A_r·w, B_r·w, C_r·w one after the
// other. Per entry: the column and code (8 bytes, read nearly contiguously by
// a warp, since consecutive rows have consecutive entries, and streamed past
// the cache), the value's class from the bitmaps, then
//   zero          nothing (adding 0 would leave the sum as it is)
//   one           the constant one, no gather
//   other         the witness value (32 bytes, a gather)
// and by the code:
//   code 0 (+1)   one field addition
//   code 1 (−1)   a negation and an addition (branch-free within the warp:
//                 ±1 codes are mixed in every row, so both choices take the
//                 same instruction path)
//   code k >= 2   a Montgomery multiplication by table[k − 2] (the branch is
//                 divergent, but such entries are rare in PoRep circuits)
// Field addition is exact and the result canonical, so any order of the terms
// gives the CPU's r1cs::evaluate bit for bit, and skipping the zeros or
// adding one instead of a loaded one changes nothing. With the check, each
// thread then tests a·b = c on the values it holds and the first failing row
// is kept by an atomic minimum (no second pass over a, b, c).
//
// Cost note (PoRep shape: m ≈ 130 M rows, 2.4 + 1.0 + 2.2 = 5.6 entries per
// row, codes mostly ±1, the witness ~90 % zeros and ones): per row 5.6 × 8 B
// of entries, 3 × 32 B of output and 3 × 4 B of offsets, ≈ 20 GB for the
// whole PCE (≈ 6 ms at the H200's ~3.3 TB/s), plus the gathers: 32-byte
// sectors scattered over a 4 GB vector (≈ 24 GB of them when every entry
// gathered: 43 ms measured), which the classes cut to the ~10 % of values
// that are neither 0 nor 1. Measured after: 32 ms at 2^27, more than these
// bytes explain; more warps and more loads in flight per thread did not
// change it (bench/RESULTS.md, "Tried"). A profile showed 6 of a warp's 32
// threads active on average: neighbouring rows' lengths differ, and a warp
// waits for its longest. So the matrices may be stored with their rows
// grouped by shape (r1cs/pce_order.hpp, over the whole PCE or within tiles
// of rows; the order travels beside them): thread t evaluates position t,
// which is row order[t], and writes that row's results at its own index.
// 16 ms at 2^27 (the real PoRep partition: 78 ms before).
// What remains is the zero / one / gather choice, which still splits a warp,
// and long rows (e.g. a 255-term packing of bits), which cost one thread
// their whole length while its warp waits; they are a small fraction of
// PoRep's rows. Offsets are 32-bit when every offset of a matrix fits
// (PoRep: ~300 M entries), which halves their share and their device memory.
#include <cuda_runtime.h>

#include "backend/bridge/witness_bridge.hpp"
#include "cuda_backend.cuh"
#include "cuzk/r1cs/pce.hpp"

namespace cuzk::dev {

namespace {

// base: the entry number of col[0] and code[0] (a tile of a streamed PCE
// holds its rows' offsets as they stand and its entries from base on).
template <class Off>
struct csr_view {
    const Off* __restrict__ row_ptr;
    const uint32_t* __restrict__ col;
    const uint32_t* __restrict__ code;
    uint64_t base;
};

// The witness classes: word i of `cls` is (nonzero, other) for values
// 32i … 32i+31, bit j of each for value 32i + j.
__global__ void w_class_kernel(const dfr* __restrict__ w, uint64_t n, uint2* __restrict__ cls)
{
    const uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
    unsigned cl = 0;
    if (i < n) {
        const dfr x = w[i];
        cl = x.is_zero() ? 0u : (x == dfr::one() ? 1u : 2u);
    }
    const uint32_t nz = __ballot_sync(0xffffffffu, cl != 0), other = __ballot_sync(0xffffffffu, cl == 2);
    if ((threadIdx.x & 31) == 0 && i < n) cls[i >> 5] = make_uint2(nz, other);
}

struct w_view {
    const dfr* __restrict__ w;
    const uint2* __restrict__ cls;
    uint64_t n;
};

template <class Off>
__device__ __forceinline__ dfr eval_row(const csr_view<Off>& m, const dfr* __restrict__ table, const w_view& v,
                                        uint64_t r)
{
    const uint64_t s = m.row_ptr[r] - m.base, e = m.row_ptr[r + 1] - m.base;
    dfr acc = dfr::zero();
    for (uint64_t k = s; k < e; ++k) {
        const uint32_t c = __ldcs(m.col + k);
        const uint32_t t = __ldcs(m.code + k);
        bool load = true;   // a column past the classes (never in a checked PCE) is read as it stands
        if (c < v.n) {
            const uint2 cl = v.cls[c >> 5];
            const uint32_t bit = 1u << (c & 31);
            if (!(cl.x & bit)) continue;   // zero
            load = (cl.y & bit) != 0;
        }
        dfr x = load ? v.w[c] : dfr::one();
        if (t >= r1cs::coef_table_base) x = table[t - r1cs::coef_table_base] * x;
        if (t == r1cs::coef_minus_one) x = -x;
        acc += x;
    }
    return acc;
}

// best: null, or the smallest row with a·b != c so far (atomic minimum).
// Thread t evaluates the matrices' position t, which is row order[t] (or t
// when order is null).
template <class OffA, class OffB, class OffC>
__global__ void pce_eval_kernel(csr_view<OffA> ma, csr_view<OffB> mb, csr_view<OffC> mc,
                                const uint32_t* __restrict__ order, const dfr* __restrict__ table, w_view v,
                                dfr* __restrict__ a, dfr* __restrict__ b, dfr* __restrict__ c, uint64_t rows,
                                unsigned long long* best)
{
    const uint64_t t = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
    if (t >= rows) return;
    const uint64_t r = order ? uint64_t(order[t]) : t;
    // Parts (uniform across the grid): a and b are both null or neither; C
    // is evaluated when c is kept or the check needs it.
    const bool ab = a != nullptr;
    const dfr ar = ab ? eval_row(ma, table, v, t) : dfr::zero(), br = ab ? eval_row(mb, table, v, t) : dfr::zero();
    const dfr cr = c || best ? eval_row(mc, table, v, t) : dfr::zero();
    if (ab) {
        a[r] = ar;
        b[r] = br;
    }
    if (c) c[r] = cr;
    if (best && ar * br != cr) atomicMin(best, (unsigned long long)r);
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
    return {static_cast<const Off*>(m.row_ptr), m.col, m.code, m.base};
}

template <class OffA, class OffB>
void launch_c(context& cx, const witness_bridge::csr_device m[3], const uint32_t* order, const dfr* table,
              uint64_t rows, const w_view& v, dfr* a, dfr* b, dfr* c, unsigned long long* best)
{
    const unsigned block = 256;
    const uint64_t grid = (rows + block - 1) / block;
    if (m[2].row_ptr_32)
        pce_eval_kernel<OffA, OffB, uint32_t><<<unsigned(grid), block, 0, cx.stream>>>(
            view_of<OffA>(m[0]), view_of<OffB>(m[1]), view_of<uint32_t>(m[2]), order, table, v, a, b, c, rows, best);
    else
        pce_eval_kernel<OffA, OffB, uint64_t><<<unsigned(grid), block, 0, cx.stream>>>(
            view_of<OffA>(m[0]), view_of<OffB>(m[1]), view_of<uint64_t>(m[2]), order, table, v, a, b, c, rows, best);
    CUZK_CUDA_CHECK(cudaGetLastError());
}

uint2* class_slot(uint64_t nw)
{
    return static_cast<uint2*>(ctx_slot(slot_pce_class, ((nw + 31) / 32) * sizeof(uint2) + 16));
}

// The classes of w (its nw values) into the context's class slot; queued.
void classify_queued(context& cx, const fr* w, uint64_t nw)
{
    if ((nw + 255) / 256 > 0x7fffffffull)
        throw error(errc::invalid_argument, "pce_eval: too many witness values for one launch");
    uint2* cls = class_slot(nw);
    if (nw) w_class_kernel<<<unsigned((nw + 255) / 256), 256, 0, cx.stream>>>(reinterpret_cast<const dfr*>(w), nw, cls);
    CUZK_CUDA_CHECK(cudaGetLastError());
}

// The evaluation with the classes in the slot (with the check when best is
// set); queued on the stream.
void eval_classified(context& cx, const witness_bridge::csr_device m[3], const uint32_t* order, const fr* table,
                     uint64_t rows, const fr* w, uint64_t nw, fr* a, fr* b, fr* c, unsigned long long* best)
{
    if ((rows + 255) / 256 > 0x7fffffffull)
        throw error(errc::invalid_argument, "pce_eval: too many rows for one launch");
    const w_view v{reinterpret_cast<const dfr*>(w), class_slot(nw), nw};
    const auto* t = reinterpret_cast<const dfr*>(table);
    auto* da = reinterpret_cast<dfr*>(a);
    auto* db = reinterpret_cast<dfr*>(b);
    auto* dc = reinterpret_cast<dfr*>(c);
    // 32-bit offsets are the rule; the 64-bit forms exist for huge matrices.
    if (m[0].row_ptr_32 && m[1].row_ptr_32) launch_c<uint32_t, uint32_t>(cx, m, order, t, rows, v, da, db, dc, best);
    else if (m[0].row_ptr_32) launch_c<uint32_t, uint64_t>(cx, m, order, t, rows, v, da, db, dc, best);
    else if (m[1].row_ptr_32) launch_c<uint64_t, uint32_t>(cx, m, order, t, rows, v, da, db, dc, best);
    else launch_c<uint64_t, uint64_t>(cx, m, order, t, rows, v, da, db, dc, best);
}

// The classes of w, then the evaluation; queued.
void eval_queued(context& cx, const witness_bridge::csr_device m[3], const uint32_t* order, const fr* table,
                 uint64_t rows, const fr* w, uint64_t nw, fr* a, fr* b, fr* c, unsigned long long* best)
{
    classify_queued(cx, w, nw);
    eval_classified(cx, m, order, table, rows, w, nw, a, b, c, best);
}

// The device minimum back on the host: −1 when no row failed.
int64_t read_best(context& cx, const unsigned long long* best)
{
    unsigned long long h = 0;
    CUZK_CUDA_CHECK(cudaMemcpyAsync(&h, best, sizeof h, cudaMemcpyDeviceToHost, cx.stream));
    CUZK_CUDA_CHECK(cudaStreamSynchronize(cx.stream));
    return h == ~0ull ? int64_t(-1) : int64_t(h);
}

} // namespace

} // namespace cuzk::dev

namespace cuzk::witness_bridge {

using namespace cuzk::dev;

void pce_eval(const csr_device m[3], const uint32_t* order, const fr* table, uint64_t rows, const fr* w, uint64_t nw,
              fr* a, fr* b, fr* c)
{
    if (rows == 0) return;
    context& cx = ctx();
    std::lock_guard<std::recursive_mutex> lk(cx.mu);
    eval_queued(cx, m, order, table, rows, w, nw, a, b, c, nullptr);
}

void pce_classify(const fr* w, uint64_t nw)
{
    context& cx = ctx();
    std::lock_guard<std::recursive_mutex> lk(cx.mu);
    classify_queued(cx, w, nw);
}

void pce_eval_classified(const csr_device m[3], const uint32_t* order, const fr* table, uint64_t rows, const fr* w,
                         uint64_t nw, fr* a, fr* b, fr* c, bool check)
{
    if (rows == 0) return;
    context& cx = ctx();
    std::lock_guard<std::recursive_mutex> lk(cx.mu);
    auto* best = check ? static_cast<unsigned long long*>(ctx_slot(slot_count, 64)) : nullptr;
    eval_classified(cx, m, order, table, rows, w, nw, a, b, c, best);
}

void pce_check_begin()
{
    context& cx = ctx();
    std::lock_guard<std::recursive_mutex> lk(cx.mu);
    auto* best = static_cast<unsigned long long*>(ctx_slot(slot_count, 64));
    CUZK_CUDA_CHECK(cudaMemsetAsync(best, 0xff, sizeof(unsigned long long), cx.stream));
}

int64_t pce_check_end()
{
    context& cx = ctx();
    std::lock_guard<std::recursive_mutex> lk(cx.mu);
    return read_best(cx, static_cast<const unsigned long long*>(ctx_slot(slot_count, 64)));
}

int64_t pce_eval_check(const csr_device m[3], const uint32_t* order, const fr* table, uint64_t rows, const fr* w,
                       uint64_t nw, fr* a, fr* b, fr* c)
{
    if (rows == 0) return -1;
    context& cx = ctx();
    std::lock_guard<std::recursive_mutex> lk(cx.mu);
    auto* best = static_cast<unsigned long long*>(ctx_slot(slot_count, 64));
    CUZK_CUDA_CHECK(cudaMemsetAsync(best, 0xff, sizeof(unsigned long long), cx.stream));
    eval_queued(cx, m, order, table, rows, w, nw, a, b, c, best);
    return read_best(cx, best);
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
    return read_best(cx, best);
}

} // namespace cuzk::witness_bridge
