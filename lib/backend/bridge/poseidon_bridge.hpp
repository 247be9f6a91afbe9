// cuzk — internal: the device half of Poseidon hashing (kernels/poseidon.cu),
// called by lib/filecoin/common/gpu_poseidon.cpp. Not part of the public API;
// use cuzk/filecoin/common/gpu_poseidon.hpp. Plain C++, no CUDA type; only
// declared when the library is built with CUDA (CUZK_WITH_CUDA; always in the
// .cu files). A failing CUDA call throws cuzk::error(errc::device, …), a
// failed allocation errc::out_of_memory.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/ff/bls12_381.hpp"

#if CUZK_WITH_CUDA || defined(__CUDACC__)
namespace cuzk::poseidon_bridge {

// The fast-form constants of one arity in host memory (the spans of
// filecoin::poseidon_constants; they must outlive the process's use of the
// device: the first call per arity copies them to the device and keeps that
// copy), and the hash's domain tag.
struct constants {
    unsigned arity = 0;
    unsigned partial_rounds = 0;
    const fr* crc = nullptr;          // 8·t + R_P
    const fr* mds = nullptr;          // t²
    const fr* pre_sparse = nullptr;   // t²
    const fr* sparse = nullptr;       // R_P·(2t − 1)
    fr tag;
};

// out[i] = P(tag ‖ in[i·arity …]) for i < n; in and out in device memory.
// Returns when the device has finished. Arity 2, 4, 8 or 11.
void hash_device(const constants& c, const fr* in, fr* out, size_t n);

// The levels of a tree in one device array: nodes[0 … leaves) the leaves,
// level k + 1 (hashing level k per[k].arity nodes at a time) written right
// after level k, for k < count. Returns when the device has finished.
void levels_device(const constants* per, unsigned count, fr* nodes, uint64_t leaves);

} // namespace cuzk::poseidon_bridge
#endif
