// cuzk — the Groth16 prover for BN254 (snarkjs's and circom's "bn128") on
// the CUDA backend.
//
// A gpu_key_bn254 holds a snarkjs-convention BN254 proving key's five point
// queries in device memory, and its coefficient list (pk.coefs: the A and B
// matrices) as a CSR with one row per (matrix, constraint), all uploaded
// once by the constructor. A proof from the witness then takes:
//   device   a = A·w, b = B·w from the CSR (PCE_EVAL: one thread per row,
//            equal to groth16::snarkjs_evaluate_ab bit for bit); c = a∘b,
//            then for a, b, c the inverse NTT and the coset NTT on the odd
//            coset ω_2n·⟨ω_n⟩ (six transforms), h = a·b − c there (NTT);
//            MSM_H over the key's n Lagrange points (full Pippenger: h is
//            random); MSM_L, MSM_A, MSM_B1 (G1) and MSM_B2 (G2) over the
//            witness through the 0/1 witness MSM (gpu_msm_witness_device:
//            zeros skipped, ones summed by BATCH_ADD, the others through
//            Pippenger);
//   host     groth16::prove_finish folds in α, β, δ, r and s.
// The sums equal groth16::prove_start_snarkjs's (the same group elements),
// and the proof equals groth16::prove_snarkjs's for the same r and s.
//
// The BLS12-381 prover (gpu_prover.hpp) has more: keys streamed from host
// memory when they do not fit, the packed witness upload. A BN254 key must
// fit the device (device_bytes(); each witness MSM also takes transient
// buffers for the compacted others, freed on return).
//
// Thread safety: proofs on one key are serialised by the key; keys are
// independent. Every device call runs on the device that was current when the
// key was made.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/prover_split.hpp"
#include "cuzk/groth16/types.hpp"

namespace cuzk {

using bn254_proving_key = groth16::proving_key_t<bn254_curve>;

class gpu_key_bn254 {
public:
    // Uploads the key's points and its coefficient list (CSR, built on the
    // host in one pass: entries keep their list order inside a row; the list
    // need not be sorted, and repeated (row, signal) entries simply add).
    // Throws errc::invalid_argument for a bellperson-convention key or point
    // sections that do not match the key's sizes, errc::bad_format for a
    // coefficient out of range (matrix > 1, constraint >= domain, signal >=
    // signals), errc::unsupported without a usable device or for 2^32
    // coefficients or more, errc::out_of_memory when the key does not fit.
    explicit gpu_key_bn254(std::shared_ptr<const bn254_proving_key> pk);
    ~gpu_key_bn254();
    gpu_key_bn254(const gpu_key_bn254&) = delete;
    gpu_key_bn254& operator=(const gpu_key_bn254&) = delete;

    const bn254_proving_key& pk() const noexcept;
    int device() const noexcept;
    // Device memory held: the points, the coefficient CSR (4 B per row
    // offset, 36 B per coefficient), and the scratch of a proof (3n + n_vars
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
// observer's step_begin/step_end bracket, on the host, PCE_EVAL (the witness
// upload and the evaluation), NTT, MSM_H, MSM_L, MSM_A, MSM_B1 and MSM_B2
// (queries "h", "l", "a", "b1", "b2"; the device has finished each step when
// it ends); inside MSM_L … MSM_B2, step_span reports BATCH_ADD (the device
// interval of the batch addition of the ones, as the BLS12-381 prover does;
// only when there were ones). timings: h_ns = PCE_EVAL and NTT (uploads,
// evaluation, transforms), the msm_*_ns, total_ns.
groth16::prove_sums_t<bn254_curve> gpu_prove_start_snarkjs(const gpu_key_bn254& k, std::span<const bn254::fr> witness,
                                                           groth16::prove_observer* observer = nullptr,
                                                           groth16::prove_timings* timings = nullptr);
// The same from a = A·w and b = B·w as groth16::snarkjs_evaluate_ab gives them
// (pk.domain_size values each), for a pipeline that evaluates them on the
// host: no PCE_EVAL step; the uploads of a, b and w are in the NTT step.
groth16::prove_sums_t<bn254_curve> gpu_prove_start_snarkjs(const gpu_key_bn254& k, std::span<const bn254::fr> a,
                                                           std::span<const bn254::fr> b,
                                                           std::span<const bn254::fr> witness,
                                                           groth16::prove_observer* observer = nullptr,
                                                           groth16::prove_timings* timings = nullptr);
// A·w and B·w on the device from the key's CSR (PCE_EVAL alone), copied back
// into a and b (pk.domain_size values each): equal to
// groth16::snarkjs_evaluate_ab bit for bit (tests, tools). Throws as
// gpu_prove_start_snarkjs for a bad witness.
void gpu_snarkjs_evaluate_ab(const gpu_key_bn254& k, std::span<const bn254::fr> witness, std::vector<bn254::fr>& a,
                             std::vector<bn254::fr>& b);
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
