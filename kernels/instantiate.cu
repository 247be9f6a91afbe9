// Compiles the host+device arithmetic templates as device code, so that every
// build with CUDA proves the shared definitions stay device-clean. The real
// kernels (NTT, MSM) come with the CUDA backend.
#include "cuzk/ec/bls12_381.hpp"

namespace cuzk::kernels {

__global__ void fp_mul_kernel(const fp* a, const fp* b, fp* out, size_t n)
{
    const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
    if (i < n) out[i] = a[i] * b[i] + a[i].sqr() - b[i];
}

__global__ void fr_mul_kernel(const fr* a, const fr* b, fr* out, size_t n)
{
    const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
    if (i < n) out[i] = a[i] * b[i];
}

__global__ void g1_madd_kernel(const g1_affine* p, g1_xyzz* acc, size_t n)
{
    const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
    if (i < n) acc[i] = acc[i].add(p[i]).dbl();
}

__global__ void g2_add_kernel(const g2_affine* p, g2_jacobian* acc, size_t n)
{
    const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
    if (i < n) acc[i] = acc[i].add(p[i]).add(acc[i]).dbl();
}

} // namespace cuzk::kernels
