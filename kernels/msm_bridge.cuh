// cuzk kernels — the body of the bridge's MSM entry points (one .cu file per
// group and curve, so that their long ptxas runs build in parallel): the
// backend's context locked, the window sums of msm_device.cuh for the device
// types of the host point type HostAff, and the optional timed copy back.
#pragma once

#include "backend/bridge/cuda_bridge.hpp"
#include "cuda_backend.cuh"

namespace cuzk::cuda_bridge {

template <class HostAff>
void run_msm_windows(const HostAff* points, const fr::repr* scalars, size_t n, unsigned c, unsigned windows,
                     typename dev::device_types<HostAff>::host_xz* window_sums, copy_span* d2h, bool affine)
{
    using Aff = typename dev::device_types<HostAff>::aff;
    using Xz = typename dev::device_types<HostAff>::xz;
    dev::context& cx = dev::ctx();
    std::lock_guard<std::recursive_mutex> lk(cx.mu);
    dev::cuda_be be{cx};
    dev::copy_timer ct(cx, d2h != nullptr);
    be.copy_ev = ct.event();
    dev::msm_windows(be, reinterpret_cast<const Aff*>(points), reinterpret_cast<const uint64_t*>(scalars), n, c,
                     windows, reinterpret_cast<Xz*>(window_sums), affine);
    if (d2h) ct.finish(be.copy_done, &d2h->begin, &d2h->end);
}

} // namespace cuzk::cuda_bridge
