// Groth16 prove of the built-in SHA-256 preimage circuit on the CPU backend,
// at about 2^16, 2^18 and 2^20 constraints (2, 9 and 38 compressions), with
// the share of each step as counters. The key comes from the development
// setup, made once per size outside the timed loop.
#include <benchmark/benchmark.h>

#include <chrono>
#include <map>
#include <memory>
#include <random>

#include "cuzk/groth16/circuit.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/r1cs/gadgets/sha256.hpp"

using namespace cuzk;
using r1cs::gadgets::sha256_preimage_circuit;

namespace {

struct fixture {
    r1cs::pce p;
    groth16::query_density d;
    groth16::proving_key pk;
};

const fixture& get(unsigned blocks)
{
    static std::map<unsigned, std::unique_ptr<fixture>> cache;
    auto& f = cache[blocks];
    if (!f) {
        f = std::make_unique<fixture>();
        f->p = r1cs::record(sha256_preimage_circuit::blank(blocks));
        f->d = groth16::density_of(f->p);
        f->pk = groth16::setup_bellperson(groth16::describe(f->p), nullptr);
    }
    return *f;
}

void bm_prove_sha256(benchmark::State& st)
{
    const unsigned blocks = unsigned(st.range(0));
    const unsigned threads = unsigned(st.range(1));
    const fixture& f = get(blocks);
    std::mt19937_64 rng(blocks);
    std::vector<uint8_t> msg(sha256_preimage_circuit::max_message_bytes(blocks));
    for (auto& b : msg) b = uint8_t(rng());
    const sha256_preimage_circuit circ(msg);
    groth16::prove_options opt;
    opt.threads = threads;
    groth16::circuit_timings sum{};
    double total = 0;
    std::vector<fr> pub;
    groth16::proof pr{};
    for (auto _ : st) {
        groth16::circuit_timings tm;
        const auto t0 = std::chrono::steady_clock::now();
        pr = groth16::prove_circuit(f.pk, f.p, f.d, circ, opt, &tm, &pub);
        total += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        sum.synth_ns += tm.synth_ns;
        sum.eval_ns += tm.eval_ns;
        sum.prove.h_ns += tm.prove.h_ns;
        sum.prove.msm_h_ns += tm.prove.msm_h_ns;
        sum.prove.msm_l_ns += tm.prove.msm_l_ns;
        sum.prove.msm_a_ns += tm.prove.msm_a_ns;
        sum.prove.msm_b1_ns += tm.prove.msm_b1_ns;
        sum.prove.msm_b2_ns += tm.prove.msm_b2_ns;
    }
    if (!groth16::verify(groth16::prepare_verifying_key(f.pk.vk), pr, pub)) st.SkipWithError("proof did not verify");
    const double tot_ns = total * 1e9;
    st.counters["constraints"] = double(f.p.num_constraints);
    st.counters["domain_log2"] = double(__builtin_ctzll(f.pk.domain_size));
    st.counters["pct_synth"] = 100.0 * double(sum.synth_ns + sum.eval_ns) / tot_ns;
    st.counters["pct_ntt"] = 100.0 * double(sum.prove.h_ns) / tot_ns;
    st.counters["pct_msm_h"] = 100.0 * double(sum.prove.msm_h_ns) / tot_ns;
    st.counters["pct_msm_l"] = 100.0 * double(sum.prove.msm_l_ns) / tot_ns;
    st.counters["pct_msm_a"] = 100.0 * double(sum.prove.msm_a_ns) / tot_ns;
    st.counters["pct_msm_b1"] = 100.0 * double(sum.prove.msm_b1_ns) / tot_ns;
    st.counters["pct_msm_b2"] = 100.0 * double(sum.prove.msm_b2_ns) / tot_ns;
}

} // namespace

// Args: compressions, threads (0 = all).
BENCHMARK(bm_prove_sha256)->Name("groth16_prove_sha256")
    ->Args({2, 0})->Args({9, 0})->Args({38, 0})->Args({2, 1})
    ->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
