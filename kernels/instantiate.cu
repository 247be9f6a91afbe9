// Compiles the host+device arithmetic templates (ff/field.hpp with its
// portable limb code, fp2, the point templates over the host fields) as device
// code, so that every build with CUDA proves the shared definitions stay
// device-clean. The kernels that run use the device fields of ff_device.cuh.
//
// Compile time: each kernel is kept to a few dozen field multiplications; a
// G2 kernel chaining two Jacobian additions and a doubling (~120 inlined
// portable Fp multiplications) took 130 s of ptxas and 1.3 GB on its own.
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

__global__ void fp2_mul_kernel(const fp2* a, const fp2* b, fp2* out, size_t n)
{
    const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
    if (i < n) out[i] = a[i] * b[i] - a[i].sqr();
}

__global__ void g1_madd_kernel(const g1_affine* p, g1_xyzz* acc, size_t n)
{
    const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
    if (i < n) acc[i] = acc[i].add(p[i]);
}

__global__ void g2_dbl_kernel(g2_jacobian* acc, size_t n)
{
    const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
    if (i < n) acc[i] = acc[i].dbl();
}

} // namespace cuzk::kernels
