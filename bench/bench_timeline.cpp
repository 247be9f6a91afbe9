// Cost of the timeline sinks: ns per record() for each sink, alone and from
// several threads at once, and the CSV sink's share of a small proof.
//
// bm_csv_overhead_vs_proof proves the built-in SHA-256 circuit (1 block,
// ~30k constraints) and, per proof, records `events` events — what the engine
// emits for one partition (6 stage events and 12 begin/end span pairs ≈ 30;
// 40 by default to be generous) — timing the record() calls separately.
// Counters: proof_cpu_ms / proof_wall_ms, sink_cpu_us (per proof),
// ns_per_record, overhead_pct = sink CPU / proof CPU, and pct_at_10k_ev_s =
// the fraction of one core that 10 000 events per second cost at the
// measured ns/record.
#include <benchmark/benchmark.h>

#include <chrono>
#include <ctime>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cuzk/groth16/circuit.hpp"
#include "cuzk/r1cs/gadgets/sha256.hpp"
#include "cuzk/timeline/sinks.hpp"
#include "cuzk/util/random.hpp"

using namespace cuzk;
using namespace cuzk::timeline;

namespace {

// A typical stage event: GPU_END of partition 7 with its gpu_ms.
event typical_event(int worker, uint64_t i)
{
    event e;
    e.t_ns = 1'234'567'890 + i * 1000;
    e.name = "GPU_END";
    e.job = "job-000042";
    e.partition = int32_t(i % 16);
    e.worker = worker;
    e.device = 0;
    e.details = {{"gpu_ms", "1234.5"}};
    return e;
}

// A sink shared by the benchmark's threads, made by the first.
template <class S>
struct shared_sink {
    std::ofstream devnull{"/dev/null"};
    S sink{devnull};
};

void bm_csv_record(benchmark::State& st)
{
    static shared_sink<csv_sink> s;
    const event e = typical_event(st.thread_index(), 7);
    for (auto _ : st) s.sink.record(e);
    st.SetItemsProcessed(st.iterations());
}
BENCHMARK(bm_csv_record)->Threads(1)->Threads(2)->Threads(8)->UseRealTime();

void bm_csv_format_only(benchmark::State& st)
{
    const event e = typical_event(0, 7);
    for (auto _ : st) benchmark::DoNotOptimize(format_csv_line(e));
    st.SetItemsProcessed(st.iterations());
}
BENCHMARK(bm_csv_format_only);

void bm_chrome_record(benchmark::State& st)
{
    static shared_sink<chrome_trace_sink> s;
    event e = typical_event(st.thread_index(), 7);
    e.ph = phase::begin;
    e.name = "MSM_H";
    for (auto _ : st) s.sink.record(e);
    st.SetItemsProcessed(st.iterations());
}
BENCHMARK(bm_chrome_record)->Threads(1)->Threads(8)->UseRealTime();

void bm_recorder_record(benchmark::State& st)
{
    static recorder r;
    const event e = typical_event(st.thread_index(), 7);
    uint64_t n = 0;
    for (auto _ : st) {
        r.record(e);
        if (++n % 65536 == 0 && st.thread_index() == 0) r.clear();   // bound the memory
    }
    st.SetItemsProcessed(st.iterations());
}
BENCHMARK(bm_recorder_record)->Threads(1)->Threads(8)->UseRealTime();

struct small_circuit {
    r1cs::pce p;
    groth16::query_density d;
    groth16::proving_key pk;
    std::unique_ptr<r1cs::gadgets::sha256_preimage_circuit> circ;
    explicit small_circuit(unsigned blocks)
        : p(r1cs::record(r1cs::gadgets::sha256_preimage_circuit::blank(blocks))), d(groth16::density_of(p)),
          pk(groth16::setup_bellperson(groth16::describe(p), nullptr))
    {
        std::vector<uint8_t> msg(r1cs::gadgets::sha256_preimage_circuit::max_message_bytes(blocks));
        os_random_bytes(msg.data(), msg.size());
        circ = std::make_unique<r1cs::gadgets::sha256_preimage_circuit>(msg);
    }
};

double cpu_seconds(clockid_t id)
{
    timespec ts{};
    clock_gettime(id, &ts);
    return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

// CPU time, not wall time: on a shared, overloaded machine a thread can be
// descheduled for milliseconds in the middle of a 40-event burst, which says
// nothing about the sink. The sink's cost is this thread's CPU time in
// record(); the proof's is the process CPU time (all prover threads) and,
// for reference, its wall time.
void bm_csv_overhead_vs_proof(benchmark::State& st)
{
    static small_circuit c(1);
    const int events = int(st.range(0));
    std::ofstream devnull("/dev/null");
    csv_sink sink(devnull);
    std::vector<event> evs;
    for (int i = 0; i < events; ++i) evs.push_back(typical_event(i % 4, uint64_t(i)));
    double proof_cpu = 0, proof_wall = 0, sink_cpu = 0;
    for (auto _ : st) {
        const double s0 = cpu_seconds(CLOCK_THREAD_CPUTIME_ID);
        for (int i = 0; i < events / 2; ++i) sink.record(evs[size_t(i)]);
        const double s1 = cpu_seconds(CLOCK_THREAD_CPUTIME_ID);
        const double p0 = cpu_seconds(CLOCK_PROCESS_CPUTIME_ID);
        const auto w0 = std::chrono::steady_clock::now();
        auto proof = groth16::prove_circuit(c.pk, c.p, c.d, *c.circ);
        benchmark::DoNotOptimize(proof);
        proof_wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
        proof_cpu += cpu_seconds(CLOCK_PROCESS_CPUTIME_ID) - p0;
        const double s2 = cpu_seconds(CLOCK_THREAD_CPUTIME_ID);
        for (int i = events / 2; i < events; ++i) sink.record(evs[size_t(i)]);
        const double s3 = cpu_seconds(CLOCK_THREAD_CPUTIME_ID);
        sink_cpu += (s1 - s0) + (s3 - s2);
    }
    const double n = double(st.iterations());
    st.counters["proof_cpu_ms"] = 1e3 * proof_cpu / n;
    st.counters["proof_wall_ms"] = 1e3 * proof_wall / n;
    st.counters["sink_cpu_us"] = 1e6 * sink_cpu / n;
    st.counters["ns_per_record"] = 1e9 * sink_cpu / (n * events);
    st.counters["overhead_pct"] = 100.0 * sink_cpu / proof_cpu;
    st.counters["pct_at_10k_ev_s"] = 100.0 * 1e4 * sink_cpu / (n * events);
}
BENCHMARK(bm_csv_overhead_vs_proof)->Arg(40)->Unit(benchmark::kMillisecond)->MinTime(2.0);

} // namespace
