// The proving part of `cuzk demo`: the built-in SHA-256 preimage circuit,
// recorded into a PCE, a development key (bellperson convention), one proof
// (on the CPU, or its device part on the GPU) with the time of each step,
// verification, and two negative checks.
#include <chrono>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cuzk/backend/gpu_prover.hpp"
#include "cuzk/groth16/circuit.hpp"
#include "cuzk/groth16/prover_split.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/bellperson.hpp"
#include "cuzk/r1cs/gadgets/sha256.hpp"
#include "cuzk/util/random.hpp"
#include "demo_proof.hpp"
#include "progress.hpp"

namespace cuzk::cli {

namespace {

using clock = std::chrono::steady_clock;
using r1cs::gadgets::sha256_preimage_circuit;

double secs(clock::time_point t0) { return std::chrono::duration<double>(clock::now() - t0).count(); }

struct demo_key {
    std::shared_ptr<const r1cs::pce> pce;
    std::shared_ptr<const groth16::proving_key> pk;
    groth16::query_density density;
};

demo_key make_key(unsigned blocks)
{
    demo_key k;
    auto t0 = clock::now();
    progress_step step("cuzk demo", "recording the circuit and setting up its key");
    k.pce = std::make_shared<const r1cs::pce>(r1cs::record(sha256_preimage_circuit::blank(blocks)));
    const double t_rec = secs(t0);
    t0 = clock::now();
    k.density = groth16::density_of(*k.pce);
    k.pk = std::make_shared<const groth16::proving_key>(groth16::setup_bellperson(groth16::describe(*k.pce), nullptr));
    step.end();
    std::printf("  circuit: SHA-256 of a %zu-byte secret message (%u compressions): %llu constraints, %u aux "
                "(private) variables, %zu non-zeros; recorded in %.2f s\n",
                sha256_preimage_circuit::max_message_bytes(blocks), blocks,
                (unsigned long long)k.pce->num_constraints, k.pce->num_aux, k.pce->nnz(), t_rec);
    std::printf("  key: bellperson convention, domain 2^%d, development setup (not a ceremony) in %.2f s\n",
                int(__builtin_ctzll(k.pk->domain_size)), secs(t0));
    return k;
}

// The device part on the GPU (key upload, PCE evaluation, NTTs, MSMs), then
// the CPU tail; the public inputs are the witness's.
groth16::proof prove_gpu(const demo_key& k, const sha256_preimage_circuit& circ, groth16::circuit_timings& tm,
                         std::vector<fr>& pub)
{
    auto t0 = clock::now();
    const groth16::assignment w = groth16::synthesize_witness(circ);
    tm.synth_ns = uint64_t(secs(t0) * 1e9);
    const gpu_key key(k.pk, k.density, k.pce);
    const groth16::prove_sums sums = gpu_prove_start_witness(key, w.inputs, w.aux, nullptr, &tm.prove);
    pub.assign(w.inputs.begin() + 1, w.inputs.end());
    return groth16::prove_finish(k.pk->vk, sums);
}

void print_proof_times(double total, const groth16::circuit_timings& tm, bool gpu)
{
    const std::string eval = gpu ? "" : fmt::format("PCE evaluation (A·w, B·w, C·w) {:.3f}, ", tm.eval_ns * 1e-9);
    std::printf("%s", fmt::format("  proof in {:.3f} s{}: synthesis (the witness) {:.3f}, {}H by 7 NTTs {:.3f}; "
                                  "multi-scalar multiplications (MSM: one per point set of the key) H {:.3f}, L {:.3f}, "
                                  "A {:.3f}, B in G1 {:.3f}, B in G2 {:.3f}\n",
                                  total, gpu ? " on the GPU (with the key's upload)" : " on the CPU",
                                  tm.synth_ns * 1e-9, eval, tm.prove.h_ns * 1e-9, tm.prove.msm_h_ns * 1e-9,
                                  tm.prove.msm_l_ns * 1e-9, tm.prove.msm_a_ns * 1e-9, tm.prove.msm_b1_ns * 1e-9,
                                  tm.prove.msm_b2_ns * 1e-9)
                          .c_str());
}

} // namespace

int demo_proof(unsigned blocks, bool gpu)
{
    int failures = 0;
    auto check = [&](bool ok, const char* what) {
        std::printf("  [%s] %s\n", ok ? " ok " : "FAIL", what);
        if (!ok) ++failures;
    };
    const demo_key k = make_key(blocks);

    std::vector<uint8_t> msg(sha256_preimage_circuit::max_message_bytes(blocks));
    os_random_bytes(msg.data(), msg.size());
    const sha256_preimage_circuit circ(msg);
    groth16::circuit_timings tm;
    std::vector<fr> pub;
    auto t0 = clock::now();
    progress_step step("cuzk demo", gpu ? "proving on the GPU" : "proving on the CPU");
    const groth16::proof pr =
        gpu ? prove_gpu(k, circ, tm, pub) : groth16::prove_circuit(*k.pk, *k.pce, k.density, circ, {}, &tm, &pub);
    step.end();
    print_proof_times(secs(t0), tm, gpu);

    uint8_t bytes[192];
    io::proof_to_bytes(pr, bytes);
    std::printf("  proof (192 bytes, bellperson encoding): ");
    for (int i = 0; i < 24; ++i) std::printf("%02x", bytes[i]);
    std::printf("…\n");
    const groth16::proof back = io::proof_from_bytes(bytes);
    const auto pvk = groth16::prepare_verifying_key(k.pk->vk);
    t0 = clock::now();
    const bool ok = groth16::verify(pvk, back, pub);
    std::printf("  verification in %.1f ms\n", secs(t0) * 1e3);
    check(ok, "the proof verifies");
    auto bad_pub = pub;
    bad_pub[0] += fr::one();
    check(!groth16::verify(pvk, back, bad_pub), "a different digest is rejected");
    groth16::proof bad = back;
    bad.c = bad.c.to_jacobian().add(g1_affine::generator()).to_affine();
    check(!groth16::verify(pvk, bad, pub), "a tampered proof is rejected");
    return failures;
}

} // namespace cuzk::cli
