// cuzk kernels — the witness MSM's entry points for BLS12-381
// (lib/backend/bridge/witness_bridge.hpp): the zero / one / other split of
// Montgomery Fr scalars and BATCH_ADD on G1 and G2. The kernels and their
// method are in witness_msm.cuh (shared with BN254, witness_msm_bn254.cu).
#include "witness_msm.cuh"

namespace cuzk::witness_bridge {

using namespace cuzk::dev;
using namespace cuzk::dev::witness_msm;

// Layout of the scratch: cnt_one, cnt_other, pos_one, pos_other (tiles words each).
size_t split_scratch_words(size_t n) { return 4 * std::max<size_t>(tiles_of(n), 1); }

split_counts split_count(const fr* scalars, size_t n, uint32_t* scratch)
{
    return count_impl(reinterpret_cast<const dfr*>(scalars), n, scratch);
}

void split_scatter(const g1_affine* points, const fr* scalars, size_t n, const uint32_t* scratch, uint32_t* one_idx,
                   g1_affine* other_points, fr::repr* other_scalars)
{
    scatter_impl(points, reinterpret_cast<const dfr*>(scalars), n, scratch, one_idx, other_points, other_scalars);
}
void split_scatter(const g2_affine* points, const fr* scalars, size_t n, const uint32_t* scratch, uint32_t* one_idx,
                   g2_affine* other_points, fr::repr* other_scalars)
{
    scatter_impl(points, reinterpret_cast<const dfr*>(scalars), n, scratch, one_idx, other_points, other_scalars);
}

size_t batch_add(const g1_affine* points, const uint32_t* idx, size_t k, g1_xyzz* partials, batch_add_timing* timing)
{
    return batch_add_impl(points, idx, k, partials, timing);
}
size_t batch_add(const g2_affine* points, const uint32_t* idx, size_t k, g2_xyzz* partials, batch_add_timing* timing)
{
    return batch_add_impl(points, idx, k, partials, timing);
}

} // namespace cuzk::witness_bridge
