// cuzk — the bellperson-convention prover split in two halves, for a pipeline
// that holds a device lock only while device work runs.
//
//   prove_start   the "device part": H = (a·b − c)/Z by NTTs, and the five
//                 MSMs Σ h·H, Σ aux·L, Σ w·A, Σ w·B_G1, Σ w·B_G2 (zeros
//                 skipped, ones summed by batch addition, the rest Pippenger).
//                 It returns the five sums; nothing in them depends on the
//                 blinding factors r and s.
//   prove_finish  the "CPU tail": a handful of fixed-base scalar
//                 multiplications that fold in α, β, δ, r and s:
//                   A  = α₁ + Σ w·A + r·δ₁
//                   B  = β₂ + Σ w·B₂ + s·δ₂         (and B₁ the same in G1)
//                   C  = Σ aux·L + Σ h·H + s·A + r·B₁ − r·s·δ₁
//                 Cost: five scalar multiplications (~255 doublings and
//                 ~128 additions each, one of them in G2) plus three
//                 inversions for the affine results, i.e. about a
//                 millisecond on one core, independent of the circuit size.
//
// prove_finish(vk, prove_start(pk, …), r, s) equals prove_bellperson(pk, …, r, s)
// point for point (test_engine checks it).
//
// The snarkjs convention splits the same way, on BLS12-381 and on BN254
// (templates over the curve): snarkjs_evaluate_ab is the
// host-side evaluation of A·w and B·w from the key's coefficient list (the
// engine runs it in its synthesis stage), prove_start_snarkjs the device part
// (the six NTTs giving A·B − C on the odd coset, MSM_H over the Lagrange H
// points, MSM_L, MSM_A, MSM_B1, MSM_B2 over the full witness), and the same
// prove_finish the tail; prove_snarkjs is the three back to back.
#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "cuzk/groth16/prover.hpp"

namespace cuzk::groth16 {

// Receives the steps of prove_start as they begin and end, on the calling
// thread. Step names are the timeline's span names: NTT (the H computation),
// MSM_H, MSM_L, MSM_A, MSM_B1, MSM_B2, and BATCH_ADD nested inside each MSM_x
// for the sum of the points whose scalar is 1 (`query` is "h", "l", "a", "b1"
// or "b2"; empty for NTT). Must not throw.
class prove_observer {
public:
    virtual ~prove_observer() = default;
    virtual void step_begin(std::string_view step, std::string_view query) noexcept = 0;
    virtual void step_end(std::string_view step, std::string_view query) noexcept = 0;
    // A step's interval as the device measured it (CUDA events mapped to the
    // steady clock); only the GPU prover calls it, after the step has ended.
    // The default ignores it.
    virtual void step_span(std::string_view step, std::string_view query,
                           std::chrono::steady_clock::time_point begin,
                           std::chrono::steady_clock::time_point end) noexcept
    {
        (void)step, (void)query, (void)begin, (void)end;
    }
    // A copy between host and device that the GPU prover timed with CUDA
    // events on its copy stream (step "H2D": a streamed key's chunk of
    // points for `query`), with its bytes. The default reports it as a
    // step_span.
    virtual void copy_span(std::string_view step, std::string_view query, uint64_t bytes,
                           std::chrono::steady_clock::time_point begin,
                           std::chrono::steady_clock::time_point end) noexcept
    {
        (void)bytes;
        step_span(step, query, begin, end);
    }
};

// The device part's results: the five query sums, before blinding (a
// template over the curve; prove_sums is BLS12-381's).
template <class C>
struct prove_sums_t {
    typename C::g1_jacobian h;    // Σ h_i·H_i
    typename C::g1_jacobian l;    // Σ aux_j·L_j
    typename C::g1_jacobian a;    // Σ w·A over the A density
    typename C::g1_jacobian b1;   // Σ w·B over the B density, in G1
    typename C::g2_jacobian b2;   // the same in G2
};
using prove_sums = prove_sums_t<bls12_381_curve>;

// The bellperson device part (BLS12-381 only).
// The device part. Arguments and checks as prove_bellperson (a, b, c hold
// one value per constraint; the input constraints are appended here; inputs
// start with ONE). a, b, c are consumed and freed before the MSMs run.
// Throws errc::invalid_argument / errc::bad_format like prove_bellperson.
// timings (optional) gets h_ns and the msm_*_ns; total_ns covers this call.
prove_sums prove_start(const proving_key& pk, const query_density& density, std::vector<fr> a,
                       std::vector<fr> b, std::vector<fr> c, std::span<const fr> inputs,
                       std::span<const fr> aux, const prove_options& opt = {}, prove_observer* observer = nullptr,
                       prove_timings* timings = nullptr);

// ---- snarkjs convention (both curves) ------------------------------------------------
// The functions below and prove_finish are templates over the curve C,
// deduced from the key; they are instantiated for bls12_381_curve and
// bn254_curve in lib/groth16/prover_split.cpp.
//
// a = A·w and b = B·w from pk.coefs (the zkey's section 4, input constraints
// included), pk.domain_size values each (rows without coefficients are zero).
// w is the full witness: w[0] = 1, the public signals, then the private ones
// (the .wtns order). a and b are overwritten. Throws errc::invalid_argument
// when the key is not snarkjs-convention, w has the wrong size or w[0] != 1,
// errc::bad_format for an out-of-range coefficient or point section.
// Cost: one multiply-add per coefficient, on `threads` threads (0 = all)
// when the list is ordered by constraint (as snarkjs and cuzk write it: the
// list is then cut between rows), on one thread otherwise.
template <class C>
void snarkjs_evaluate_ab(const proving_key_t<C>& pk, std::span<const typename C::fr> w,
                         std::vector<typename C::fr>& a, std::vector<typename C::fr>& b, unsigned threads = 0);

// The device part for a snarkjs-convention key from a, b as
// snarkjs_evaluate_ab gives them (pk.domain_size values each, consumed).
// Observer steps and timings as prove_start (NTT, then MSM_H … MSM_B2 with
// BATCH_ADD nested). The returned sums go to prove_finish.
template <class C>
prove_sums_t<C> prove_start_snarkjs(const proving_key_t<C>& pk, std::vector<typename C::fr> a,
                                    std::vector<typename C::fr> b, std::span<const typename C::fr> w,
                                    const prove_options& opt = {}, prove_observer* observer = nullptr,
                                    prove_timings* timings = nullptr);
// The same, evaluating a, b first (counted in timings->h_ns).
template <class C>
prove_sums_t<C> prove_start_snarkjs(const proving_key_t<C>& pk, std::span<const typename C::fr> w,
                                    const prove_options& opt = {}, prove_observer* observer = nullptr,
                                    prove_timings* timings = nullptr);

// The CPU tail (either convention, either curve) with explicit blinding
// factors (tests), or with r, s drawn from the OS CSPRNG.
template <class C>
proof_t<C> prove_finish(const verifying_key_t<C>& vk, const prove_sums_t<C>& sums, const typename C::fr& r,
                        const typename C::fr& s);
template <class C>
proof_t<C> prove_finish(const verifying_key_t<C>& vk, const prove_sums_t<C>& sums);

} // namespace cuzk::groth16
