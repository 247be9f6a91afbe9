// cuzk — the GPU prover (include/cuzk/backend/gpu_prover.hpp).
// Placeholder until the device implementation lands: every entry point
// throws errc::unsupported, so callers can be written and built against the
// contract.
#include "cuzk/backend/gpu_prover.hpp"

#include "cuzk/error.hpp"

namespace cuzk {

struct gpu_key::impl {};

gpu_key::gpu_key(std::shared_ptr<const groth16::proving_key>, groth16::query_density,
                 std::shared_ptr<const r1cs::pce>, const gpu_key_options&)
{
    throw error(errc::unsupported, "gpu_key: the GPU prover is not implemented yet");
}
gpu_key::~gpu_key() = default;
const groth16::proving_key& gpu_key::pk() const noexcept { std::terminate(); }
const groth16::query_density& gpu_key::density() const noexcept { std::terminate(); }
bool gpu_key::has_pce() const noexcept { return false; }
bool gpu_key::resident() const noexcept { return false; }
uint64_t gpu_key::device_bytes() const noexcept { return 0; }
uint64_t gpu_key::prove_scratch_bytes() const noexcept { return 0; }

groth16::prove_sums gpu_prove_start(const gpu_key&, std::span<const fr>, std::span<const fr>, std::span<const fr>,
                                    std::span<const fr>, std::span<const fr>, groth16::prove_observer*,
                                    groth16::prove_timings*)
{
    throw error(errc::unsupported, "gpu_prove_start: the GPU prover is not implemented yet");
}
groth16::prove_sums gpu_prove_start_witness(const gpu_key&, std::span<const fr>, std::span<const fr>,
                                            groth16::prove_observer*, groth16::prove_timings*)
{
    throw error(errc::unsupported, "gpu_prove_start_witness: the GPU prover is not implemented yet");
}

} // namespace cuzk
