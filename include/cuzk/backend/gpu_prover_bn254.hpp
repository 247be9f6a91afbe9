// cuzk — the Groth16 prover for BN254 (snarkjs's and circom's "bn128") on
// the CUDA backend.
//
// A gpu_key_bn254 holds a snarkjs-convention BN254 proving key's five point
// queries in device memory (uploaded once, by the constructor). A proof then
// takes:
//   host     a = A·w, b = B·w from the key's coefficient list
//            (groth16::snarkjs_evaluate_ab), one pass over the coefficients;
//   device   c = a∘b, then for a, b, c the inverse NTT and the coset NTT on
//            the odd coset ω_2n·⟨ω_n⟩ (six transforms), h = a·b − c there;
//            MSM_H over the key's n Lagrange points, then MSM_L, MSM_A,
//            MSM_B1 (G1) and MSM_B2 (G2) over the witness (every scalar
//            through Pippenger: this prover has no 0/1 path yet);
//   host     groth16::prove_finish folds in α, β, δ, r and s.
// The sums equal groth16::prove_start_snarkjs's (the same group elements),
// and the proof equals groth16::prove_snarkjs's for the same r and s.
//
// The BLS12-381 prover (gpu_prover.hpp) has more: keys streamed from host
// memory when they do not fit, the constraint evaluation on the device, the
// packed witness upload. A BN254 key must fit the device (device_bytes()).
//
// Thread safety: proofs on one key are serialised by the key; keys are
// independent. Every device call runs on the device that was current when the
// key was made.
#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/prover_split.hpp"
#include "cuzk/groth16/types.hpp"

namespace cuzk {

using bn254_proving_key = groth16::proving_key_t<bn254_curve>;

class gpu_key_bn254 {
public:
    // Uploads the key's points. Throws errc::invalid_argument for a
    // bellperson-convention key or point sections that do not match the key's
    // sizes, errc::unsupported without a usable device, errc::out_of_memory
    // when the points do not fit.
    explicit gpu_key_bn254(std::shared_ptr<const bn254_proving_key> pk);
    ~gpu_key_bn254();
    gpu_key_bn254(const gpu_key_bn254&) = delete;
    gpu_key_bn254& operator=(const gpu_key_bn254&) = delete;

    const bn254_proving_key& pk() const noexcept;
    int device() const noexcept;
    // Device memory held: the points, and the scratch of a proof (3n + n_vars
    // scalars) once the first proof has run.
    uint64_t device_bytes() const noexcept;

    struct impl;

private:
    std::unique_ptr<impl> p_;
    friend struct gpu_bn254_access;
};

// The device part: the five sums, for groth16::prove_finish. witness: w[0] =
// 1, the public signals, the private ones (the .wtns order). Throws
// errc::invalid_argument for a witness of the wrong size or w[0] != 1. The
// observer sees NTT, MSM_H, MSM_L, MSM_A, MSM_B1 and MSM_B2; timings get h_ns
// (evaluation, uploads and transforms) and the msm_*_ns.
groth16::prove_sums_t<bn254_curve> gpu_prove_start_snarkjs(const gpu_key_bn254& k, std::span<const bn254::fr> witness,
                                                           groth16::prove_observer* observer = nullptr,
                                                           groth16::prove_timings* timings = nullptr);
// The same from a = A·w and b = B·w as groth16::snarkjs_evaluate_ab gives them
// (pk.domain_size values each), for a pipeline that evaluates them before it
// takes the device: the call only uploads and runs the device steps.
groth16::prove_sums_t<bn254_curve> gpu_prove_start_snarkjs(const gpu_key_bn254& k, std::span<const bn254::fr> a,
                                                           std::span<const bn254::fr> b,
                                                           std::span<const bn254::fr> witness,
                                                           groth16::prove_observer* observer = nullptr,
                                                           groth16::prove_timings* timings = nullptr);
// The whole proof with explicit blinding factors (tests), or with r and s
// drawn from the OS CSPRNG.
groth16::proof_t<bn254_curve> gpu_prove_snarkjs(const gpu_key_bn254& k, std::span<const bn254::fr> witness,
                                                const bn254::fr& r, const bn254::fr& s,
                                                groth16::prove_observer* observer = nullptr,
                                                groth16::prove_timings* timings = nullptr);
groth16::proof_t<bn254_curve> gpu_prove_snarkjs(const gpu_key_bn254& k, std::span<const bn254::fr> witness,
                                                groth16::prove_observer* observer = nullptr,
                                                groth16::prove_timings* timings = nullptr);

} // namespace cuzk
