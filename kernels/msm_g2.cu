// cuzk kernels — the G2 MSM entry point of the bridge (kernels/msm_device.cuh).
#include "msm_bridge.cuh"

namespace cuzk::cuda_bridge {

void msm_windows(const g2_affine* points, const fr::repr* scalars, size_t n, unsigned c, unsigned windows,
                 g2_xyzz* window_sums, copy_span* d2h, bool affine)
{
    run_msm_windows(points, scalars, n, c, windows, window_sums, d2h, affine);
}

} // namespace cuzk::cuda_bridge
