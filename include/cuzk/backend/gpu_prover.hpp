// cuzk — the Groth16 device part on the GPU: a proving key resident in device
// memory, the PCE evaluated on the device, and groth16::prove_start's work
// (H by NTTs, the five MSMs with their 0/1 batch additions) without host
// round trips. The result is a groth16::prove_sums, so the CPU tail
// (groth16::prove_finish) and the engine stay as they are.
//
// Plain C++: no CUDA header or type appears here. Every function exists in
// every build; built without CUDA they throw cuzk::error(errc::unsupported).
// A failing CUDA call throws errc::device with the call and CUDA's message; a
// failed allocation, or a prove whose scratch does not fit the device budget,
// throws errc::out_of_memory. The device stays usable after either.
//
// Device: the first CUDA device. Calls on one gpu_key from several threads are
// serialised by the backend; the engine holds its device lock around them.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "cuzk/groth16/prover_split.hpp"
#include "cuzk/groth16/types.hpp"
#include "cuzk/r1cs/pce.hpp"

namespace cuzk {

struct gpu_key_options {
    // Bytes of device memory this key may keep resident (point queries and
    // PCE matrices). 0 = the device's free memory less a reserve for one
    // prove's scratch. A key whose queries do not fit is not resident: its
    // points are streamed through pinned host buffers in chunks at every prove.
    uint64_t device_budget = 0;
    bool force_streaming = false;   // tests: stream even when the key would fit
};

// A proving key (bellperson convention) prepared for the GPU: the H, L, A,
// B_G1 and B_G2 queries (A and B filtered by the density, as prove_start
// uses them) and, when a PCE is given, its three CSR matrices, uploaded once
// and kept in device memory for the life of the object.
class gpu_key {
public:
    // pk and pce are shared (kept alive); pce may be null (then only
    // gpu_prove_start with a, b, c works). Throws errc::invalid_argument when
    // the PCE or density does not match the key.
    gpu_key(std::shared_ptr<const groth16::proving_key> pk, groth16::query_density density,
            std::shared_ptr<const r1cs::pce> pce, const gpu_key_options& opt = {});
    ~gpu_key();
    gpu_key(const gpu_key&) = delete;
    gpu_key& operator=(const gpu_key&) = delete;

    const groth16::proving_key& pk() const noexcept;
    const groth16::query_density& density() const noexcept;
    bool has_pce() const noexcept;
    bool resident() const noexcept;          // false: points are streamed per prove
    uint64_t device_bytes() const noexcept;  // device memory held by this key now
    // Device scratch one prove needs on top of device_bytes() (a, b, c, h,
    // witness, scalars, MSM buckets and sort buffers, streaming chunks).
    uint64_t prove_scratch_bytes() const noexcept;

    struct impl;

private:
    std::unique_ptr<impl> p_;
    friend struct gpu_prover_access;
};

// Step timing reported by the GPU prover: the observer's step_begin/step_end
// are called on the calling thread around each kernel group, and
// prove_observer::step_span (if overridden) receives the device interval
// measured by CUDA events, mapped to std::chrono::steady_clock. Steps: H2D
// (uploads), PCE_EVAL, NTT, MSM_H, MSM_L, MSM_A, MSM_B1, MSM_B2, BATCH_ADD
// (query = "h", "l", "a", "b1", "b2" inside the MSMs).

// The device part from a, b, c given by the host (one value per constraint,
// as groth16::prove_start). Equal to groth16::prove_start(k.pk(), k.density(),
// …) point for point.
groth16::prove_sums gpu_prove_start(const gpu_key& k, std::span<const fr> a, std::span<const fr> b,
                                    std::span<const fr> c, std::span<const fr> inputs, std::span<const fr> aux,
                                    groth16::prove_observer* observer = nullptr,
                                    groth16::prove_timings* timings = nullptr);

// The device part from witness assignments only: a, b, c are evaluated on the
// device from the key's PCE (PCE_EVAL), the satisfaction check a·b = c runs on
// the device (errc::unsatisfied naming the first failing constraint). Throws
// errc::invalid_argument when the key has no PCE or the sizes differ.
groth16::prove_sums gpu_prove_start_witness(const gpu_key& k, std::span<const fr> inputs, std::span<const fr> aux,
                                            groth16::prove_observer* observer = nullptr,
                                            groth16::prove_timings* timings = nullptr);

} // namespace cuzk
