// The proving part of `cuzk demo`: the built-in SHA-256 preimage circuit,
// recorded into a PCE, a development key (bellperson convention), one proof
// with the time of each step, verification, and two negative checks.
#include <chrono>
#include <cstdio>
#include <random>

#include "cuzk/groth16/circuit.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/bellperson.hpp"
#include "cuzk/r1cs/gadgets/sha256.hpp"
#include "cuzk/util/random.hpp"
#include "demo_proof.hpp"

namespace cuzk::cli {

int demo_proof(unsigned blocks)
{
    using clock = std::chrono::steady_clock;
    using r1cs::gadgets::sha256_preimage_circuit;
    auto secs = [](clock::time_point t0) { return std::chrono::duration<double>(clock::now() - t0).count(); };
    int failures = 0;
    auto check = [&](bool ok, const char* what) {
        std::printf("  [%s] %s\n", ok ? " ok " : "FAIL", what);
        if (!ok) ++failures;
    };

    auto t0 = clock::now();
    const r1cs::pce p = r1cs::record(sha256_preimage_circuit::blank(blocks));
    std::printf("  circuit: SHA-256 of a %zu-byte secret message (%u compressions): %llu constraints, %u aux, "
                "%zu non-zeros; recorded in %.2f s\n",
                sha256_preimage_circuit::max_message_bytes(blocks), blocks, (unsigned long long)p.num_constraints,
                p.num_aux, p.nnz(), secs(t0));
    t0 = clock::now();
    const groth16::query_density d = groth16::density_of(p);
    const groth16::proving_key pk = groth16::setup_bellperson(groth16::describe(p), nullptr);
    std::printf("  key: bellperson convention, domain 2^%d, development setup (not a ceremony) in %.2f s\n",
                int(__builtin_ctzll(pk.domain_size)), secs(t0));

    std::vector<uint8_t> msg(sha256_preimage_circuit::max_message_bytes(blocks));
    os_random_bytes(msg.data(), msg.size());
    const sha256_preimage_circuit circ(msg);
    groth16::circuit_timings tm;
    std::vector<fr> pub;
    t0 = clock::now();
    const groth16::proof pr = groth16::prove_circuit(pk, p, d, circ, {}, &tm, &pub);
    const double total = secs(t0);
    std::printf("  proof in %.3f s: synthesis %.3f, PCE eval %.3f, H (7 NTTs) %.3f, MSM H %.3f, L %.3f, A %.3f, "
                "B1 %.3f, B2 (G2) %.3f\n",
                total, tm.synth_ns * 1e-9, tm.eval_ns * 1e-9, tm.prove.h_ns * 1e-9, tm.prove.msm_h_ns * 1e-9,
                tm.prove.msm_l_ns * 1e-9, tm.prove.msm_a_ns * 1e-9, tm.prove.msm_b1_ns * 1e-9,
                tm.prove.msm_b2_ns * 1e-9);

    uint8_t bytes[192];
    io::proof_to_bytes(pr, bytes);
    std::printf("  proof (192 bytes, bellperson encoding): ");
    for (int i = 0; i < 24; ++i) std::printf("%02x", bytes[i]);
    std::printf("…\n");
    const groth16::proof back = io::proof_from_bytes(bytes);
    const auto pvk = groth16::prepare_verifying_key(pk.vk);
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
