// The proving engine on the CPU backend.
//
//   bm_engine_small_jobs/W/S/K   64 one-partition jobs of a tiny circuit (a
//       chain of 32 squarings, domain 64) through an engine with W prove
//       workers, with (S=1) or without (S=0) a recording timeline sink, K
//       partitions per prove call: the engine's own cost per partition
//       (queues, threads, events, lock hand-overs), next to
//       bm_direct_small_jobs, the same proofs by plain calls.
//   bm_engine_sha256/P/W       one job of P partitions of the 1-block SHA-256
//       circuit (~26k constraints), W prove workers: throughput with the
//       device part under the lock and the tails outside it; counters give
//       seconds per partition and the device-lock utilisation.
// Keys come from the development setup, made once outside the timed loops.
// Times are wall-clock (the work runs on the engine's threads).
#include <benchmark/benchmark.h>

#include <chrono>
#include <memory>
#include <mutex>
#include <random>

#include "cuzk/groth16/circuit.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/pipeline/engine.hpp"
#include "cuzk/r1cs/gadgets/sha256.hpp"

using namespace cuzk;
using r1cs::gadgets::sha256_preimage_circuit;

namespace {

// x public; y0 = x, y_{i+1} = y_i² (one constraint each).
struct square_chain final : r1cs::circuit {
    uint64_t x;
    size_t n;
    square_chain(uint64_t xx, size_t nn) : x(xx), n(nn) {}
    void synthesize(r1cs::constraint_system& cs) const override
    {
        fr v = fr::from_u64(x);
        const auto in = cs.alloc_input(v);
        auto y = cs.alloc(v);
        cs.enforce(r1cs::linear_combination(in), r1cs::linear_combination(r1cs::variable::one()),
                   r1cs::linear_combination(y));
        for (size_t i = 0; i < n; ++i) {
            const fr w = v.sqr();
            const auto z = cs.alloc(w);
            cs.enforce(r1cs::linear_combination(y), r1cs::linear_combination(y), r1cs::linear_combination(z));
            y = z;
            v = w;
        }
    }
};

struct key_fixture {
    std::shared_ptr<const r1cs::pce> pce;
    std::shared_ptr<const groth16::proving_key> pk;
    groth16::query_density density;
};

key_fixture make_key(const r1cs::circuit& blank)
{
    key_fixture f;
    auto p = std::make_shared<r1cs::pce>(r1cs::record(blank));
    f.pk = std::make_shared<groth16::proving_key>(groth16::setup_bellperson(groth16::describe(*p), &f.density));
    f.pce = p;
    return f;
}

const key_fixture& small_key()
{
    static const key_fixture f = make_key(square_chain(0, 32));
    return f;
}

const key_fixture& sha_key()
{
    static const key_fixture f = make_key(sha256_preimage_circuit::blank(1));
    return f;
}

struct null_recorder final : timeline::sink {
    std::mutex m;
    std::vector<timeline::event> ev;
    void record(const timeline::event& e) noexcept override
    {
        std::lock_guard lk(m);
        ev.push_back(e);
    }
};

void bm_engine_small_jobs(benchmark::State& st)
{
    const key_fixture& k = small_key();
    null_recorder rec;
    pipeline::engine_config cfg;
    cfg.synth_workers = 1;
    cfg.workers_per_device = unsigned(st.range(0));
    cfg.device_threads = 1;
    cfg.tail_threads = 1;
    cfg.lookahead = 4;
    cfg.partitions_per_call = unsigned(st.range(2));
    cfg.sink = st.range(1) ? &rec : nullptr;
    pipeline::engine eng(cfg);
    const auto key = eng.add_key(k.pk, k.pce, k.density);
    std::vector<std::shared_ptr<const r1cs::circuit>> circuits;
    for (uint64_t i = 0; i < 64; ++i) circuits.push_back(std::make_shared<square_chain>(i + 2, 32));
    for (auto _ : st) {
        std::vector<pipeline::job_handle> hs;
        for (const auto& c : circuits) hs.push_back(eng.submit({key, {pipeline::circuit_partition{c}}, 0, ""}));
        for (auto& h : hs)
            if (h.wait().status != pipeline::job_status::completed) st.SkipWithError(h.wait().message.c_str());
        rec.ev.clear();
    }
    st.SetItemsProcessed(int64_t(st.iterations()) * 64);
}

void bm_direct_small_jobs(benchmark::State& st)
{
    const key_fixture& k = small_key();
    const auto pvk = groth16::prepare_verifying_key(k.pk->vk);
    groth16::prove_options po;
    po.threads = 1;
    for (auto _ : st) {
        for (uint64_t i = 0; i < 64; ++i) {
            std::vector<fr> pub;
            const auto pr = groth16::prove_circuit(*k.pk, *k.pce, k.density, square_chain(i + 2, 32), po, nullptr, &pub);
            if (!groth16::verify(pvk, pr, pub)) st.SkipWithError("invalid proof");
        }
    }
    st.SetItemsProcessed(int64_t(st.iterations()) * 64);
}

void bm_engine_sha256(benchmark::State& st)
{
    const key_fixture& k = sha_key();
    const unsigned parts = unsigned(st.range(0));
    pipeline::engine_config cfg;
    cfg.synth_workers = 2;
    cfg.workers_per_device = unsigned(st.range(1));
    cfg.lookahead = 2;
    cfg.tail_threads = 1;
    pipeline::engine eng(cfg);
    const auto key = eng.add_key(k.pk, k.pce, k.density);
    std::vector<std::shared_ptr<const r1cs::circuit>> circuits;
    std::mt19937_64 rng(1);
    for (unsigned p = 0; p < parts; ++p) {
        std::vector<uint8_t> m(sha256_preimage_circuit::max_message_bytes(1));
        for (auto& b : m) b = uint8_t(rng());
        circuits.push_back(std::make_shared<sha256_preimage_circuit>(std::move(m)));
    }
    double wall = 0;
    for (auto _ : st) {
        std::vector<pipeline::partition> v;
        for (const auto& c : circuits) v.push_back(pipeline::circuit_partition{c});
        const auto t0 = std::chrono::steady_clock::now();
        auto h = eng.submit({key, std::move(v), 0, ""});
        if (h.wait().status != pipeline::job_status::completed) st.SkipWithError(h.wait().message.c_str());
        wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    }
    const auto s = eng.stats();
    st.counters["s_per_partition"] = wall / double(st.iterations() * parts);
    st.counters["lock_util"] = double(s.device_busy_ns[0]) * 1e-9 / wall;
}

} // namespace

BENCHMARK(bm_engine_small_jobs)
    ->ArgsProduct({{1, 2}, {0, 1}, {1}})
    ->Args({1, 0, 4})
    ->Args({2, 0, 4})
    ->ArgNames({"workers", "sink", "per_call"})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(bm_direct_small_jobs)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(bm_engine_sha256)->Args({4, 1})->Args({4, 2})->ArgNames({"parts", "workers"})->Iterations(1)->UseRealTime()->Unit(benchmark::kSecond);
