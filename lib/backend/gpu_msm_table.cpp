// cuzk — the G1 MSM over shifted copies of resident points
// (include/cuzk/backend/cuda.hpp, gpu_msm_table): the plan's cost model, the
// checks, the copies' construction and the MSM over them. The device work is
// kernels/msm_device.cuh (msm_table_build, msm_windows with copies).
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "cuzk/backend/cuda.hpp"
#include "cuzk/error.hpp"

#if CUZK_WITH_CUDA
#include "backend/bridge/cuda_bridge.hpp"
#include "backend/msm_combine.hpp"
#endif

namespace cuzk {

namespace {

constexpr unsigned max_window = 24;

// Windows for any 256-bit scalar: W·c >= 257 (the top digit non-negative),
// as the MSM takes (bits + c)/c of them.
unsigned windows_of(unsigned c) { return (256 + c) / c; }

unsigned bit_width(uint64_t v)
{
    unsigned b = 0;
    for (; v; v >>= 1) ++b;
    return b;
}

// Bits of a point index (at least 1) and whether copy numbers below m fit
// above it in 31 bits.
unsigned index_bits(size_t n) { return std::max(1u, bit_width(n > 0 ? n - 1 : 0)); }
bool copies_fit(size_t n, unsigned m) { return index_bits(n) + bit_width(m - 1) <= 31; }

} // namespace

// Estimated device time in Fp multiplications (as gpu_msm_window_bits):
// n·W·11 for the additions, sort and gathers, s·2^(c−1)·30 for reducing s
// rows of buckets. For each window the fewest copies that give s rows;
// the least cost wins, then the fewer copies. Buckets stay within 8 GiB.
gpu_msm_table_plan gpu_msm_table_choose(size_t n, uint64_t budget_bytes)
{
    gpu_msm_table_plan best;
    double best_cost = -1;
    for (unsigned c = 1; c <= max_window && n > 0; ++c) {
        const unsigned W = windows_of(c);
        const double H = double(uint64_t{1} << (c - 1));
        unsigned prev_s = 0;
        for (unsigned m = 1; m <= W; ++m) {
            const unsigned s = (W + m - 1) / m;
            if (s == prev_s) continue;   // fewer copies gave the same rows
            prev_s = s;
            const uint64_t bytes = uint64_t(m - 1) * n * sizeof(g1_affine);
            if (bytes > budget_bytes || !copies_fit(n, m)) break;   // more copies only take more
            if (double(s) * H * sizeof(g1_xyzz) > 8.0 * double(uint64_t{1} << 30)) continue;
            const double cost = double(n) * W * 11.0 + double(s) * H * 30.0;
            if (best_cost < 0 || cost < best_cost || (cost == best_cost && m < best.copies)) {
                best_cost = cost;
                best = {c, m, s, bytes};
            }
        }
    }
    return best;
}

#if CUZK_WITH_CUDA

gpu_msm_table::gpu_msm_table(const g1_affine* points, size_t n, const gpu_msm_table_plan& plan)
{
    const unsigned c = plan.window_bits;
    if (c < 1 || c > max_window)
        throw error(errc::invalid_argument, fmt::format("gpu_msm_table: window_bits = {} is not in 1 … 24", c));
    const unsigned W = windows_of(c);
    if (plan.copies < 1 || plan.copies > W || uint64_t(plan.rows) * plan.copies < W || plan.rows > W)
        throw error(errc::invalid_argument,
                    fmt::format("gpu_msm_table: {} copies of {} rows do not cover the {} windows of {} bits",
                                plan.copies, plan.rows, W, c));
    if (n >= (size_t{1} << 31) || !copies_fit(n, plan.copies))
        throw error(errc::invalid_argument,
                    fmt::format("gpu_msm_table: {} copies of {} points do not fit 31-bit entry values", plan.copies,
                                n));
    if (n > 0 && !points) throw error(errc::invalid_argument, "gpu_msm_table: no points");
    points_ = points;
    plan_ = plan;
    plan_.bytes = uint64_t(plan.copies - 1) * n * sizeof(g1_affine);
    if (plan.copies > 1 && n > 0) {
        copies_ = gpu_buffer(plan_.bytes);
        cuda_bridge::msm_table_build(points, n, plan.rows * c, plan.copies, copies_.as<g1_affine>());
    }
    n_ = n;
}

g1_jacobian gpu_msm_device(const gpu_msm_table& t, const fr::repr* scalars, const gpu_msm_options& opt)
{
    const gpu_msm_table_plan& p = t.plan();
    if (opt.window_bits != 0 && opt.window_bits != p.window_bits)
        throw error(errc::invalid_argument, fmt::format("gpu_msm_device: window_bits = {} but the table's window is {}",
                                                        opt.window_bits, p.window_bits));
    if (opt.buckets == msm_buckets::batch_affine)
        throw error(errc::invalid_argument, "gpu_msm_device: a table's rows take XYZZ additions, not batch-affine rounds");
    if (t.empty()) return g1_jacobian::identity();
    const size_t n = t.size();
    const unsigned bits = cuda_bridge::scalar_bits(scalars, n);
    if (bits == 0) return g1_jacobian::identity();
    const unsigned c = p.window_bits;
    const unsigned windows = (bits + c) / c;
    if (windows > p.copies * p.rows)   // the constructor's checks exclude it: never a read past the copies
        throw error(errc::internal, fmt::format("gpu_msm_device: {} windows but {} copies of {} rows", windows,
                                                p.copies, p.rows));
    std::vector<g1_xyzz> rows(p.rows);
    cuda_bridge::copy_span span;
    const cuda_bridge::msm_table_view view{t.points(), t.copies().as<g1_affine>(), p.rows, index_bits(n)};
    cuda_bridge::msm_rows(view, scalars, n, c, windows, rows.data(), opt.window_copy ? &span : nullptr);
    if (opt.window_copy) *opt.window_copy = gpu_copy_span{span.begin, span.end};
    return backend_detail::combine_windows<g1_jacobian>(rows, c);
}

#else // !CUZK_WITH_CUDA

gpu_msm_table::gpu_msm_table(const g1_affine*, size_t, const gpu_msm_table_plan&)
{
    throw error(errc::unsupported, "gpu_msm_table: cuzk was built without CUDA (CUZK_CUDA=OFF or no nvcc)");
}
g1_jacobian gpu_msm_device(const gpu_msm_table&, const fr::repr*, const gpu_msm_options&)
{
    throw error(errc::unsupported, "gpu_msm_device: cuzk was built without CUDA (CUZK_CUDA=OFF or no nvcc)");
}

#endif

} // namespace cuzk
