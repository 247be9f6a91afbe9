// cuzk — internal: the entry point of kernels/snarkjs_eval.cu that
// lib/backend/gpu_prover_snarkjs.cpp calls (A·w and B·w of a snarkjs key's
// coefficient list on the device). Not part of the public API. Plain C++, no
// CUDA type, as bridge/cuda_bridge.hpp: device memory travels as pointers to
// the host types, the function locks the backend's context and works on its
// stream, and a failing CUDA call throws cuzk::error(errc::device, …).
//
// Only declared when the library is built with CUDA (CUZK_WITH_CUDA).
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/ff/bn254.hpp"

namespace cuzk::snarkjs_bridge {

// A coefficient list in CSR form (device memory): rows + 1 offsets, and per
// entry the signal it multiplies and its value (Montgomery form).
struct csr_device {
    const uint32_t* row_ptr = nullptr;
    const uint32_t* signal = nullptr;
    const bn254::fr* value = nullptr;
};
// out[r] = Σ value[j]·w[signal[j]] over row r's entries, for r < rows
// (Montgomery in, Montgomery out; an empty row gives zero). Queued on the
// stream; does not wait.
void eval_rows(const csr_device& m, uint64_t rows, const bn254::fr* w, bn254::fr* out);

} // namespace cuzk::snarkjs_bridge
