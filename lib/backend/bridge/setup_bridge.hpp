// cuzk — internal: the device half of the setup (fixed-base scalar
// multiplication on G1 and G2), implemented in kernels/fixed_base.cu and
// called by lib/backend/gpu_setup.cpp. Not part of the public API; use
// cuzk/backend/gpu_setup.hpp. Plain C++, no CUDA type (the table is a typed
// opaque handle, bridge/handles.hpp); only declared when the library is built
// with CUDA (CUZK_WITH_CUDA; always in the .cu files). A failing CUDA call
// throws cuzk::error(errc::device, …), a failed allocation errc::out_of_memory.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backend/bridge/handles.hpp"
#include "cuzk/ec/bls12_381.hpp"

#if CUZK_WITH_CUDA || defined(__CUDACC__)
namespace cuzk::setup_bridge {

// Uploads a window table (kernels/fixed_base.cuh): windows·(2^window_bits − 1)
// affine points, entry k·(2^w − 1) + d − 1 = d·2^(wk)·G. Returns a handle that
// also owns the chunk buffers of the calls below.
bridge::fixed_base_table table_create_g1(const g1_affine* table, unsigned window_bits, unsigned windows);
bridge::fixed_base_table table_create_g2(const g2_affine* table, unsigned window_bits, unsigned windows);
void table_destroy(bridge::fixed_base_table handle) noexcept;
// Device bytes the handle holds now (table and chunk buffers).
uint64_t table_device_bytes(const bridge::fixed_base_handle* handle) noexcept;

// out[i] = k[i]·G (affine, identity for 0) for n scalars in Montgomery form;
// k and out are host memory. Runs in device chunks of at most chunk points
// (scalars 32 B, XYZZ 192/384 B, affine 96/192 B of device memory per point
// of a chunk, G1/G2). Returns device milliseconds (CUDA events, kernels only).
double fixed_base_g1(bridge::fixed_base_table handle, const fr* k, size_t n, g1_affine* out, size_t chunk);
double fixed_base_g2(bridge::fixed_base_table handle, const fr* k, size_t n, g2_affine* out, size_t chunk);

} // namespace cuzk::setup_bridge
#endif
