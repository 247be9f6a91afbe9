// cuzk kernels — the witness MSM's entry points for BN254
// (lib/backend/bridge/witness_bridge.hpp): the zero / one / other split of
// Montgomery bn254::fr scalars (against BN254's Montgomery one) and
// BATCH_ADD on BN254's G1 and G2. The kernels are witness_msm.cuh's, as for
// BLS12-381 (witness_msm.cu).
#include "witness_msm.cuh"

namespace cuzk::witness_bridge {

using namespace cuzk::dev;
using namespace cuzk::dev::witness_msm;

split_counts split_count(const bn254::fr* scalars, size_t n, uint32_t* scratch)
{
    return count_impl(reinterpret_cast<const dbn_fr*>(scalars), n, scratch);
}

void split_scatter(const bn254::g1_affine* points, const bn254::fr* scalars, size_t n, const uint32_t* scratch,
                   uint32_t* one_idx, bn254::g1_affine* other_points, fr::repr* other_scalars)
{
    scatter_impl(points, reinterpret_cast<const dbn_fr*>(scalars), n, scratch, one_idx, other_points, other_scalars);
}
void split_scatter(const bn254::g2_affine* points, const bn254::fr* scalars, size_t n, const uint32_t* scratch,
                   uint32_t* one_idx, bn254::g2_affine* other_points, fr::repr* other_scalars)
{
    scatter_impl(points, reinterpret_cast<const dbn_fr*>(scalars), n, scratch, one_idx, other_points, other_scalars);
}

size_t batch_add(const bn254::g1_affine* points, const uint32_t* idx, size_t k, bn254::g1_xyzz* partials,
                 batch_add_timing* timing)
{
    return batch_add_impl(points, idx, k, partials, timing);
}
size_t batch_add(const bn254::g2_affine* points, const uint32_t* idx, size_t k, bn254::g2_xyzz* partials,
                 batch_add_timing* timing)
{
    return batch_add_impl(points, idx, k, partials, timing);
}

} // namespace cuzk::witness_bridge
