// GPU prover benchmarks: gpu_prove_start_witness (the whole device part from
// a witness: H2D, PCE_EVAL, NTT, the five MSMs) on a random bit-heavy circuit
// and on SHA-256 preimage circuits, domains 2^16, 2^18, 2^20; and
// bm_gpu_prove_bn254: the BN254 prover (gpu_key_t<bn254_curve>, gpu_prover.hpp) on a random
// snarkjs-convention circuit, domains 2^18 and 2^20, manual time = the wall
// time of gpu_prove_start_snarkjs (host evaluation, uploads and device work),
// counters NTT_ms … MSM_B2_ms from the observer's host clock (each MSM ends
// with its copy back, so the steps are synchronous).
//
// Manual time: the device interval of one prove, from the begin of H2D to the
// end of MSM_B2 as the CUDA events measured it (prove_observer::step_span).
// Counters, per step, the mean device milliseconds over the timed iterations:
//   H2D_ms PCE_EVAL_ms NTT_ms MSM_H_ms MSM_L_ms MSM_A_ms MSM_B1_ms MSM_B2_ms
//   BATCH_ADD_ms (the 0/1 batch additions, summed over the queries)
// plus constraints, aux, domain_log, and wall_ms (the host wall time of the
// call). Without a device every benchmark reports SkipWithError.
//
// The proving key is synthetic: its points are distinct random group elements
// (P_i = A_{i mod 1024} + B_{i / 1024}), not a setup's, because a real setup
// of 2^20 constraints costs minutes of CPU and the device work does not
// depend on the points' meaning. Sizes, densities and the PCE are the
// circuit's own.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cuzk/backend/cuda.hpp"
#include "cuzk/backend/gpu_prover.hpp"
#include "cuzk/groth16/circuit.hpp"
#include "cuzk/r1cs/gadgets/sha256.hpp"
#include "cuzk/util/parallel.hpp"

#include "bench_support.hpp"

using namespace cuzk;
using cuzk::bench::gpu_ok;
using cuzk::bench::bench_points;

namespace {

// A random circuit with mostly-bit witness values: 2 public inputs, n/8 free
// aux variables (80 % of them 0 or 1), then products of random combinations
// of earlier variables, as many as fit the domain with the input rows.
struct bench_circuit final : r1cs::circuit {
    uint64_t seed;
    size_t n_constraints;
    bench_circuit(uint64_t s, size_t nc) : seed(s), n_constraints(nc) {}
    void synthesize(r1cs::constraint_system& cs) const override
    {
        std::mt19937_64 rng(seed);
        std::vector<r1cs::variable> vars{r1cs::variable::one()};
        std::vector<fr> vals{fr::one()};
        auto value = [&] {
            const uint64_t k = rng() % 10;
            return k < 4 ? fr::zero() : k < 8 ? fr::one() : fr::random(rng);
        };
        for (int i = 0; i < 2; ++i) {
            const fr v = value();
            vars.push_back(cs.alloc_input(v));
            vals.push_back(v);
        }
        for (size_t i = 0; i < n_constraints / 8 + 3; ++i) {
            const fr v = value();
            vars.push_back(cs.alloc(v));
            vals.push_back(v);
        }
        for (size_t k = 0; k < n_constraints; ++k) {
            r1cs::linear_combination la, lb;
            fr va = fr::zero(), vb = fr::zero();
            for (int t = 0; t < 2; ++t) {
                const size_t i = rng() % vars.size(), j = rng() % vars.size();
                la.add(vars[i], fr::one());
                va += vals[i];
                lb.add(vars[j], -fr::one());
                vb -= vals[j];
            }
            const fr vc = va * vb;
            const auto c = cs.alloc(vc);
            cs.enforce(la, lb, c);
            vars.push_back(c);
            vals.push_back(vc);
        }
    }
};


struct prepared {
    std::shared_ptr<const r1cs::pce> pce;
    std::shared_ptr<const groth16::proving_key> pk;
    groth16::query_density density;
    groth16::assignment w;
    std::unique_ptr<gpu_key> key;
};

r1cs::pce record_pce(const r1cs::circuit& c)
{
    r1cs::recording_cs rec;
    c.synthesize(rec);
    return rec.finish();
}

// kind 0: random circuit; 1: SHA-256 with as many blocks as fit.
prepared& prepare(unsigned log_n, int kind)
{
    static std::map<std::pair<unsigned, int>, std::unique_ptr<prepared>> cache;
    auto& slot = cache[{log_n, kind}];
    if (slot) return *slot;
    // Keep one prepared key at a time (device memory).
    for (auto& [k, v] : cache)
        if (v && &v != &slot) v.reset();
    auto p = std::make_unique<prepared>();
    const size_t n = size_t{1} << log_n;
    if (kind == 0) {
        const bench_circuit c(0x62656e6368ull + log_n, n - 3);
        p->pce = std::make_shared<r1cs::pce>(record_pce(c));
        p->w = groth16::synthesize_witness(c);
    } else {
        const size_t per_block = record_pce(r1cs::gadgets::sha256_preimage_circuit::blank(1)).num_constraints;
        size_t blocks = std::max<size_t>(1, (n - 3) / per_block);
        // The 1-block count includes the padding/digest constraints once: shrink until it fits.
        for (;;) {
            auto pce = std::make_shared<r1cs::pce>(record_pce(r1cs::gadgets::sha256_preimage_circuit::blank(blocks)));
            if (pce->num_constraints + pce->num_inputs <= n || blocks == 1) {
                p->pce = pce;
                break;
            }
            --blocks;
        }
        std::vector<uint8_t> msg(r1cs::gadgets::sha256_preimage_circuit::max_message_bytes(blocks));
        std::mt19937_64 rng(log_n);
        for (auto& b : msg) b = uint8_t(rng());
        p->w = groth16::synthesize_witness(r1cs::gadgets::sha256_preimage_circuit(msg));
    }
    p->density = groth16::density_of(*p->pce);
    auto pk = std::make_shared<groth16::proving_key>();
    pk->conv = groth16::convention::bellperson;
    pk->num_inputs = p->pce->num_inputs;
    pk->num_aux = p->pce->num_aux;
    pk->domain_size = 1;
    while (pk->domain_size < p->pce->num_constraints + p->pce->num_inputs) pk->domain_size *= 2;
    const size_t na = pk->num_aux, ni = pk->num_inputs;
    const size_t n_a = ni + size_t(std::count(p->density.a_aux.begin(), p->density.a_aux.end(), true));
    const size_t n_b = size_t(std::count(p->density.b_input.begin(), p->density.b_input.end(), true)) +
                       size_t(std::count(p->density.b_aux.begin(), p->density.b_aux.end(), true));
    const size_t g1_needed = std::max({size_t(pk->domain_size - 1), na, n_a, n_b});
    const std::vector<g1_affine> g1 = bench_points<g1_affine>(g1_needed, 1);
    pk->h.assign(g1.begin(), g1.begin() + (pk->domain_size - 1));
    pk->l.assign(g1.rbegin(), g1.rbegin() + na);
    pk->a.assign(g1.begin(), g1.begin() + n_a);
    pk->b_g1.assign(g1.rbegin(), g1.rbegin() + n_b);
    pk->b_g2 = bench_points<g2_affine>(n_b, 2);
    p->pk = pk;
    p->key = std::make_unique<gpu_key>(p->pk, p->density, p->pce);
    slot = std::move(p);
    return *slot;
}

struct span_observer final : groth16::prove_observer {
    std::map<std::string, double> ms;
    std::chrono::steady_clock::time_point first{}, last{};
    void step_begin(std::string_view, std::string_view) noexcept override {}
    void step_end(std::string_view, std::string_view) noexcept override {}
    void step_span(std::string_view s, std::string_view, std::chrono::steady_clock::time_point b,
                   std::chrono::steady_clock::time_point e) noexcept override
    {
        ms[std::string(s)] += std::chrono::duration<double, std::milli>(e - b).count();
        if (s == "BATCH_ADD") return;
        if (first == std::chrono::steady_clock::time_point{} || b < first) first = b;
        if (e > last) last = e;
    }
};

// Args: log2 of the domain, circuit kind (0 random, 1 SHA-256).
void bm_gpu_prove_witness(benchmark::State& st)
{
    if (!gpu_ok(st)) return;
    const unsigned log_n = unsigned(st.range(0));
    const int kind = int(st.range(1));
    prepared& p = prepare(log_n, kind);
    gpu_prove_start_witness(*p.key, p.w.inputs, p.w.aux);   // warm-up: scratch, twiddles
    std::map<std::string, double> total;
    double wall = 0;
    for (auto _ : st) {
        span_observer obs;
        const auto t0 = std::chrono::steady_clock::now();
        const auto sums = gpu_prove_start_witness(*p.key, p.w.inputs, p.w.aux, &obs);
        wall += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        benchmark::DoNotOptimize(sums);
        st.SetIterationTime(std::chrono::duration<double>(obs.last - obs.first).count());
        for (const auto& [k, v] : obs.ms) total[k] += v;
    }
    const double it = double(std::max<int64_t>(int64_t(st.iterations()), 1));
    for (const char* s : {"H2D", "PCE_EVAL", "NTT", "MSM_H", "MSM_L", "MSM_A", "MSM_B1", "MSM_B2", "BATCH_ADD"})
        st.counters[std::string(s) + "_ms"] = total[s] / it;
    st.counters["wall_ms"] = wall / it;
    st.counters["constraints"] = double(p.pce->num_constraints);
    st.counters["aux"] = double(p.pce->num_aux);
    st.counters["domain_log"] = double(log_n);
    st.counters["resident"] = p.key->resident() ? 1 : 0;
    st.SetLabel(kind == 0 ? "random circuit" : "sha256");
}

// ---- BN254 ------------------------------------------------------------------------------
// A random snarkjs-convention BN254 key for a domain of 2^log_n: every row
// but the input rows has 3 A and 2 B coefficients on random signals; as many
// private signals as rows; random distinct points (not a setup's); a witness
// of 80 % bits.
struct bn254_prepared {
    std::unique_ptr<gpu_key_t<bn254_curve>> key;
    std::vector<bn254::fr> w;
};

std::shared_ptr<groth16::proving_key_t<bn254_curve>> bn254_bench_key(unsigned log_n, std::mt19937_64& rng)
{
    auto pk = std::make_shared<groth16::proving_key_t<bn254_curve>>();
    pk->conv = groth16::convention::snarkjs;
    pk->domain_size = uint64_t{1} << log_n;
    pk->num_inputs = 3;
    pk->n_constraints = uint32_t(pk->domain_size - pk->num_inputs);
    pk->num_aux = pk->n_constraints;
    const uint32_t nv = pk->num_inputs + pk->num_aux;
    for (uint32_t row = 0; row < pk->n_constraints; ++row) {
        for (int k = 0; k < 3; ++k) pk->coefs.push_back({0, row, uint32_t(rng() % nv), bn254::fr::random(rng)});
        for (int k = 0; k < 2; ++k) pk->coefs.push_back({1, row, uint32_t(rng() % nv), bn254::fr::random(rng)});
    }
    for (uint32_t s = 0; s < pk->num_inputs; ++s)
        pk->coefs.push_back({0, pk->n_constraints + s, s, bn254::fr::one()});
    pk->h = bench_points<bn254::g1_affine>(size_t(pk->domain_size), 1);
    pk->l = bench_points<bn254::g1_affine>(pk->num_aux, 2);
    pk->a = bench_points<bn254::g1_affine>(nv, 3);
    pk->b_g1 = bench_points<bn254::g1_affine>(nv, 4);
    pk->b_g2 = bench_points<bn254::g2_affine>(nv, 5);
    return pk;
}

bn254_prepared& prepare_bn254(unsigned log_n)
{
    static std::map<unsigned, bn254_prepared> cache;
    auto it = cache.find(log_n);
    if (it != cache.end()) return it->second;
    bn254_prepared& p = cache[log_n];
    std::mt19937_64 rng(0x626e323534ull + log_n);
    auto pk = bn254_bench_key(log_n, rng);
    p.w.resize(size_t(pk->num_inputs) + pk->num_aux);
    for (auto& x : p.w) {
        const uint64_t r = rng() % 10;
        x = r < 4 ? bn254::fr::zero() : r < 8 ? bn254::fr::one() : bn254::fr::random(rng);
    }
    p.w[0] = bn254::fr::one();
    p.key = std::make_unique<gpu_key_t<bn254_curve>>(std::move(pk));
    return p;
}

struct host_step_observer final : groth16::prove_observer {
    std::map<std::string, double> ms;
    std::map<std::string, std::chrono::steady_clock::time_point> open;
    void step_begin(std::string_view step, std::string_view) noexcept override
    {
        open[std::string(step)] = std::chrono::steady_clock::now();
    }
    void step_end(std::string_view step, std::string_view) noexcept override
    {
        const auto t = open[std::string(step)];
        ms[std::string(step)] += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
    }
};

// Args: log2 of the domain.
void bm_gpu_prove_bn254(benchmark::State& st)
{
    if (!gpu_ok(st)) return;
    const unsigned log_n = unsigned(st.range(0));
    bn254_prepared& p = prepare_bn254(log_n);
    gpu_prove_start_snarkjs(*p.key, p.w);   // warm-up: scratch, twiddles
    host_step_observer obs;
    for (auto _ : st) {
        const auto t0 = std::chrono::steady_clock::now();
        const auto sums = gpu_prove_start_snarkjs(*p.key, p.w, &obs);
        benchmark::DoNotOptimize(sums);
        st.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    const double it = double(std::max<int64_t>(int64_t(st.iterations()), 1));
    for (const char* s : {"NTT", "MSM_H", "MSM_L", "MSM_A", "MSM_B1", "MSM_B2"})
        st.counters[std::string(s) + "_ms"] = obs.ms[s] / it;
    st.counters["constraints"] = double(p.key->pk().n_constraints);
    st.counters["domain_log"] = double(log_n);
    st.SetLabel("bn254 random circuit");
}

} // namespace

BENCHMARK(bm_gpu_prove_bn254)->Arg(18)->Arg(20)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(5);

BENCHMARK(bm_gpu_prove_witness)
    ->ArgsProduct({{16, 18, 20}, {0, 1}})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(5);
