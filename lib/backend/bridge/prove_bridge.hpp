// cuzk — internal: the device entry points of the GPU prover
// (lib/backend/gpu_prover.cpp, gpu_key.cpp) that kernels/prove.cu implements. Not part of
// the public API; include cuzk/backend/gpu_prover.hpp instead. Plain C++, no
// CUDA type: streams and events travel as typed opaque handles
// (bridge/handles.hpp), device memory as pointers to the host types (bitwise
// identical to the device types).
//
// "The backend stream" is the one stream of cuda_bridge (kernels/
// cuda_backend.cuh): the NTT, the MSMs and the PCE evaluation run on it, so
// work queued here on it is ordered with theirs. Unless a function says it
// synchronises, it only queues work and returns.
//
// Every function throws cuzk::error(errc::device, …) with CUDA's message when
// a CUDA call fails, errc::out_of_memory when an allocation fails.
//
// Only declared when the library is built with CUDA (CUZK_WITH_CUDA).
#pragma once

#include <cstddef>
#include <cstdint>

#include "backend/bridge/handles.hpp"
#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ff/bn254.hpp"

namespace cuzk::prove_bridge {

// ---- memory ----------------------------------------------------------------------------
// Free and total device memory (cudaMemGetInfo).
void mem_info(size_t* free_bytes, size_t* total_bytes);
// Page-locked host memory (cudaHostAlloc); throws errc::out_of_memory.
void* host_alloc_pinned(size_t bytes);
void host_free_pinned(void* p) noexcept;
// Page-locks existing host memory (cudaHostRegister). Returns false (and
// clears CUDA's error state) when the range cannot be registered, e.g. when
// it overlaps a registered range; the caller then copies into pinned memory.
bool host_register(const void* p, size_t bytes) noexcept;
void host_unregister(const void* p) noexcept;

// ---- copies and fills on the backend stream -------------------------------------------------
// Host → device from pageable memory: staged through two cached pinned
// buffers, so the host memcpy of one piece overlaps the DMA of the previous
// one. Returns when the last piece is queued (the source may then be reused).
void upload_pageable(void* dst, const void* src, size_t bytes);
// Host → device of a witness vector (Montgomery values, mostly 0 and 1): the
// host sends 2 bits per value (0, 1, other) and the other values only, and a
// kernel expands them into dst[0 … n). Same contents as upload_pageable.
//   format   bridge/witness_pack.hpp (tiles of 4096 values: tags, offsets,
//            the other values in index order)
//   host     pass 1 (witness_pack::tag, all threads): tags and offsets into
//            a pinned buffer, one DMA. Pass 2 (witness_pack::gather_others):
//            the other values, tile by tile, into the pinned staging pieces
//            of upload_pageable and on to others_tmp
//   device   one block per tile: warp ballots rank the others (as the split
//            of the witness MSM does), each value is written once
// others_tmp: device scratch of at least n fr; tag_tmp: packed_scratch_words(n)
// words. Returns the number of other values. Returns when the last copy and
// the expansion are queued (src may then be reused).
size_t packed_scratch_words(size_t n);
size_t upload_witness_packed(fr* dst, const fr* src, size_t n, fr* others_tmp, uint32_t* tag_tmp);
// The device half alone, for a witness packed beforehand in page-locked
// memory (tags: packed_scratch_words(n) words, tags then offsets; others:
// `others` values): two DMAs and the expansion into dst[0 … n), queued on the
// backend stream. The host buffers must stay untouched until the stream has
// finished with them.
void upload_packed(fr* dst, size_t n, const uint32_t* tags, const fr* others_host, uint64_t others, fr* others_tmp,
                   uint32_t* tag_tmp);
// The expansion alone, from a compact form already on the device (tags and
// offsets in tags_dev, the other values in others_dev; both only read).
void expand_packed(fr* dst, size_t n, const fr* others_dev, const uint32_t* tags_dev);
// Device → device, and memset; queued on the backend stream.
void copy_d2d(void* dst, const void* src, size_t bytes);
void fill_zero(void* dst, size_t bytes);

// ---- streams and events ----------------------------------------------------------------
// A second stream for the chunk copies of streamed keys (non-blocking).
bridge::stream stream_create();
void stream_destroy(bridge::stream s) noexcept;
// Host → device on stream s (nullptr = the backend stream); src should be
// page-locked for the copy to be asynchronous.
void copy_h2d_on(bridge::stream s, void* dst, const void* src, size_t bytes);

bridge::event event_create();
void event_destroy(bridge::event e) noexcept;
// Records e on stream s (nullptr = the backend stream).
void event_record(bridge::event e, bridge::stream s);
void event_synchronize(bridge::event e);
// Work queued on the backend stream (the calling thread's lane) after this
// call starts once e's last record has completed; e must have been recorded
// before the call (a never-recorded event is no wait).
void stream_wait(bridge::event e);
// Milliseconds from a to b (both recorded and completed).
double event_elapsed_ms(bridge::event a, bridge::event b);
// Waits on the host for all work queued on the backend stream and on s
// (if not null). Used after errors too: it does not throw.
void drain(bridge::stream s) noexcept;

// ---- kernels (backend stream) ---------------------------------------------------------------
// dst[k] = src[idx[k]], k < n.
void gather(const fr* src, const uint32_t* idx, size_t n, fr* dst);
// a[i] = a[i]·b[i] − c[i].
void mul_sub(fr* a, const fr* b, const fr* c, size_t n);
// c[i] = a[i]·b[i] (c may equal a or b).
void mul_into(const fr* a, const fr* b, fr* c, size_t n);
// The same two over BN254's Fr, and dst[i] = the canonical integer of src[i]
// (Montgomery form out; dst may equal src).
void mul_sub(bn254::fr* a, const bn254::fr* b, const bn254::fr* c, size_t n);
void mul_into(const bn254::fr* a, const bn254::fr* b, bn254::fr* c, size_t n);
void to_canonical(const bn254::fr* src, fr::repr* dst, size_t n);

} // namespace cuzk::prove_bridge
