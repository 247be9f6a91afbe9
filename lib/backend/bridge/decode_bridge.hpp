// cuzk — internal: decoding a .params file's points on the device
// (kernels/point_decode.cu), called by lib/backend/gpu_key.cpp for a mapped
// key's resident upload. Not part of the public API. Plain C++, no CUDA type;
// only declared when the library is built with CUDA (CUZK_WITH_CUDA; always in
// the .cu files). A failing CUDA call throws cuzk::error(errc::device, …).
//
// The work is queued on a stream of the caller's own (prove_bridge::
// stream_create) and takes no context lock, like the copies on such a stream.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backend/bridge/handles.hpp"

#if CUZK_WITH_CUDA || defined(__CUDACC__)
namespace cuzk::decode_bridge {

// Rewrites in place the n points at dev, each the raw bytes of one
// uncompressed bellperson encoding (96 bytes for G1, 192 for G2), as affine
// points in Montgomery form (g1_affine / g2_affine: the same sizes). A point
// that fails a check (kernels/point_decode.cuh: a flag, a coordinate ≥ p, off
// the curve) lowers *bad (device memory) to first + its index, if smaller.
void g1_in_place(bridge::stream s, void* dev, size_t n, uint64_t first, uint64_t* bad);
void g2_in_place(bridge::stream s, void* dev, size_t n, uint64_t first, uint64_t* bad);

// *bad = UINT64_MAX (no failure yet), queued on s.
void bad_reset(bridge::stream s, uint64_t* bad);
// Waits for s, then returns *bad.
uint64_t bad_read(bridge::stream s, const uint64_t* bad);

} // namespace cuzk::decode_bridge
#endif
