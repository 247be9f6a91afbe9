// cuzk — the PCE evaluation and the witness MSM of the CUDA backend
// (include/cuzk/backend/cuda.hpp, sections "sparse constraint evaluation" and
// "witness MSM"). Placeholder until the device implementation lands: every
// entry point throws errc::unsupported.
#include "cuzk/backend/cuda.hpp"

#include "cuzk/error.hpp"

namespace cuzk {

namespace {
[[noreturn]] void not_yet(const char* fn)
{
    throw error(errc::unsupported, std::string(fn) + ": not implemented yet");
}
} // namespace

struct gpu_pce::impl {};
gpu_pce::gpu_pce(const r1cs::pce&) { not_yet("gpu_pce"); }
gpu_pce::~gpu_pce() = default;
gpu_pce::gpu_pce(gpu_pce&&) noexcept = default;
gpu_pce& gpu_pce::operator=(gpu_pce&&) noexcept = default;
uint32_t gpu_pce::num_inputs() const noexcept { return 0; }
uint32_t gpu_pce::num_aux() const noexcept { return 0; }
uint64_t gpu_pce::num_constraints() const noexcept { return 0; }
uint64_t gpu_pce::device_bytes() const noexcept { return 0; }

void gpu_pce_eval_device(const gpu_pce&, const fr*, fr*, fr*, fr*) { not_yet("gpu_pce_eval_device"); }
void gpu_pce_eval(const gpu_pce&, std::span<const fr>, std::span<const fr>, std::span<fr>, std::span<fr>, std::span<fr>)
{
    not_yet("gpu_pce_eval");
}
int64_t gpu_first_unsatisfied_device(const fr*, const fr*, const fr*, size_t) { not_yet("gpu_first_unsatisfied_device"); }

g1_jacobian gpu_msm_witness_device(const g1_affine*, const fr*, size_t, gpu_msm_witness_stats*)
{
    not_yet("gpu_msm_witness_device");
}
g2_jacobian gpu_msm_witness_device(const g2_affine*, const fr*, size_t, gpu_msm_witness_stats*)
{
    not_yet("gpu_msm_witness_device");
}
g1_jacobian gpu_msm_witness(std::span<const g1_affine>, std::span<const fr>, gpu_msm_witness_stats*)
{
    not_yet("gpu_msm_witness");
}
g2_jacobian gpu_msm_witness(std::span<const g2_affine>, std::span<const fr>, gpu_msm_witness_stats*)
{
    not_yet("gpu_msm_witness");
}

} // namespace cuzk
