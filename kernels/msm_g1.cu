// cuzk kernels — the G1 MSM entry points of the bridge (kernels/msm_device.cuh):
// the plain window sums, and the row sums over shifted copies of the points.
#include "msm_bridge.cuh"

namespace cuzk::cuda_bridge {

void msm_windows(const g1_affine* points, const fr::repr* scalars, size_t n, unsigned c, unsigned windows,
                 g1_xyzz* window_sums, copy_span* d2h, bool affine)
{
    run_msm_windows(points, scalars, n, c, windows, window_sums, d2h, affine);
}

void msm_table_build(const g1_affine* points, size_t n, unsigned dbls, unsigned copies, g1_affine* table)
{
    dev::context& cx = dev::ctx();
    std::lock_guard<std::recursive_mutex> lk(cx.mu);
    dev::cuda_be be{cx};
    dev::msm_table_build(be, reinterpret_cast<const dev::dg1_affine*>(points), n, dbls, copies,
                         reinterpret_cast<dev::dg1_affine*>(table));
    CUZK_CUDA_CHECK(cudaStreamSynchronize(cx.stream));
    // a one-off: its scratch is not kept among the caches
    dev::ctx_release_slot(dev::slot_aff_pre);
    dev::ctx_release_slot(dev::slot_aff_tot);
}

void msm_rows(const msm_table_view& t, const fr::repr* scalars, size_t n, unsigned c, unsigned windows,
              g1_xyzz* row_sums, copy_span* d2h)
{
    dev::context& cx = dev::ctx();
    std::lock_guard<std::recursive_mutex> lk(cx.mu);
    dev::cuda_be be{cx};
    dev::copy_timer ct(cx, d2h != nullptr);
    be.copy_ev = ct.event();
    const dev::msm_copies<dev::dg1_affine> cp{reinterpret_cast<const dev::dg1_affine*>(t.table), t.stride, t.shift};
    dev::msm_windows<true>(be, reinterpret_cast<const dev::dg1_affine*>(t.points),
                           reinterpret_cast<const uint64_t*>(scalars), n, c, windows,
                           reinterpret_cast<dev::dg1_xyzz*>(row_sums), false, cp);
    if (d2h) ct.finish(be.copy_done, &d2h->begin, &d2h->end);
}

} // namespace cuzk::cuda_bridge
