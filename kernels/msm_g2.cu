// cuzk kernels — the G2 MSM entry point of the bridge (kernels/msm_device.cuh).
#include "backend/bridge/cuda_bridge.hpp"
#include "cuda_backend.cuh"

namespace cuzk::cuda_bridge {

using namespace cuzk::dev;

void msm_windows(const g2_affine* points, const fr::repr* scalars, size_t n, unsigned c, unsigned windows,
                 g2_xyzz* window_sums, copy_span* d2h)
{
    context& cx = ctx();
    std::lock_guard<std::recursive_mutex> lk(cx.mu);
    cuda_be be{cx};
    copy_timer ct(cx, d2h != nullptr);
    be.copy_ev = ct.event();
    dev::msm_windows(be, reinterpret_cast<const dg2_affine*>(points), reinterpret_cast<const uint64_t*>(scalars), n, c,
                     windows, reinterpret_cast<dg2_xyzz*>(window_sums));
    if (d2h) ct.finish(be.copy_done, &d2h->begin, &d2h->end);
}

} // namespace cuzk::cuda_bridge
