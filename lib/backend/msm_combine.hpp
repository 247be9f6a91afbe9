// cuzk — the last step of the device MSM, on the host: Σ_r 2^(rc)·S_r over
// the window (or row) sums the bridge returns, by Horner from the top.
#pragma once

#include <cstddef>
#include <vector>

namespace cuzk::backend_detail {

template <class Jac, class Xz>
Jac combine_windows(const std::vector<Xz>& ws, unsigned c)
{
    // c doublings between consecutive windows.
    Jac acc = Jac::identity();
    for (size_t w = ws.size(); w-- > 0;) {
        if (!acc.is_identity())
            for (unsigned i = 0; i < c; ++i) acc = acc.dbl();
        acc = acc.add(ws[w].to_jacobian());
    }
    return acc;
}

} // namespace cuzk::backend_detail
