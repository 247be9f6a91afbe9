// One PoRep-shaped partition on the GPU: the synthetic circuit of
// filecoin/porep/synthetic_circuit.hpp (2.4 / 1.0 / 2.2 non-zeros per row in
// A / B / C, aux density 99.7 % in A and 25.4 % in B, ~90 % of the witness 0
// or 1) at a 2^22, 2^24 or 2^27 domain, keys from the device-side setup
// (backend/gpu_setup.hpp), and cuzk::gpu_prove_start_witness with every step
// on the device (witness upload, PCE evaluation and the a·b = c check, the
// NTTs, the five MSMs with their 0/1 batch additions).
//
//   bm_porep_gpu/22, /24    the default run
//   bm_porep_gpu/27         only when --benchmark_filter names 27
//                           (e.g. --benchmark_filter=bm_porep_gpu/27): it
//                           needs ~75 GB of host memory (the key is ~45 GB)
//                           and minutes of setup
//   bm_porep_gpu_packed/…   the same with the aux assignment packed once
//                           beforehand (gpu_packed_witness, as the engine's
//                           synthesis stage does; pack_ms is that host work):
//                           the device part the engine runs under its lock;
//                           the witness MSMs on the second stream beside the
//                           H step and MSM_H (gpu_key_options::overlap,
//                           counter overlapped = 1)
//   bm_porep_gpu_tile/…/T   bm_porep_gpu_packed with the PCE's rows grouped
//                           by shape in tiles of 2^T rows (0: in their own
//                           order, 32: one tile; gpu_key_options::
//                           pce_group_tile_log); a key made anew for each
//                           layout, and again for the next variant
//   bm_porep_gpu_serial/…   bm_porep_gpu_packed with every step on one
//                           stream (the same key, set_overlap(false)): the
//                           overlap's gain, measured in the same run
//   bm_porep_gpu_copies2/…, _copies3/…, _copies/…
//                           bm_porep_gpu_packed with shifted copies of the H
//                           query for MSM_H (gpu_key::set_h_copies with a
//                           budget of 2 or 3 copies of H, or every copy
//                           that fits; built before the timed loop in the
//                           room the fixture's proves left, dropped again
//                           by the next variant); counter free_gb: device
//                           memory free after the timed proves
//   bm_porep_gpu_small/27/G/C
//                           the engine's path on a smaller device: the
//                           resident key is dropped, device memory is
//                           filled until G GiB are free (an 80 GB card
//                           has ~79 free), and a new gpu_key of the same
//                           key is made there, which streams its points
//                           when they do not fit (counter resident), C
//                           million G2 points per chunk buffer (0: the
//                           automatic size); the proof is verified; a
//                           device too small fails with gpu_key's error
//   bm_porep_cpu/16         groth16::prove_start on the CPU at 2^16 of the
//                           same generator shape (a, b, c by r1cs::evaluate,
//                           included in the time), for comparison
//
// Time per iteration (UseManualTime): the host wall time of one
// gpu_prove_start_witness call followed by gpu_synchronize() — the call
// returns the five sums on the host, so this is the whole partition
// including the witness upload. Per-step counters (ms per iteration):
//   h_ms, msm_h_ms, msm_l_ms, msm_a_ms, msm_b1_ms, msm_b2_ms
//       groth16::prove_timings as the GPU prover fills it (device times from
//       CUDA events, gpu_prover.hpp); total_ms its host wall time
//   dev_<STEP>_ms  the device intervals the prover reports through
//       prove_observer::step_span (H2D, PCE_EVAL, NTT, MSM_x, BATCH_ADD)
// Printed once per size (stderr): the generator statistics, the setup times
// (not part of the measurement) and whether prove_finish of the result
// verifies (groth16::verify); a proof that does not verify fails the run.
// Without a device, or while the GPU prover is not available, the GPU
// benchmark reports SkipWithError with the reason.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cuzk/backend/cuda.hpp"
#include "cuzk/backend/gpu_prover.hpp"
#include "cuzk/backend/gpu_setup.hpp"
#include "cuzk/error.hpp"
#include "cuzk/filecoin/porep/synthetic_circuit.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/prover_split.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"

using namespace cuzk;

namespace {

using clock_type = std::chrono::steady_clock;
double ms_since(clock_type::time_point t0)
{
    return std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
}

constexpr uint32_t porep_inputs = 16;   // including ONE

r1cs::synthetic_params params_for(unsigned log2_domain)
{
    r1cs::synthetic_params p;
    p.log2_domain = log2_domain;
    p.num_inputs = porep_inputs;
    p.seed = 0x706f726570ull + log2_domain;
    return p;
}

void print_stats(unsigned L, const r1cs::synthetic_circuit& s, double gen_ms)
{
    const auto st = r1cs::measure_synthetic(s.p, s.inputs, s.aux);
    std::fprintf(stderr,
                 "porep 2^%u: %llu constraints, %u inputs, %u aux, generated in %.0f ms; nnz/row A %.3f B %.3f C "
                 "%.3f; aux density A %.2f %% B %.2f %%; witness 0/1 %.2f %% (zeros %.2f %%, ones %.2f %%)\n",
                 L, (unsigned long long)s.p.num_constraints, s.p.num_inputs, s.p.num_aux, gen_ms, st.nnz_a,
                 st.nnz_b, st.nnz_c, 100 * st.a_aux_density, 100 * st.b_aux_density, 100 * st.frac01,
                 100 * st.frac_zero, 100 * st.frac_one);
}

bool check_proof(const groth16::verifying_key& vk, const groth16::prove_sums& sums,
                 const std::vector<fr>& inputs, const char* what)
{
    const groth16::proof pr = groth16::prove_finish(vk, sums);
    const auto pvk = groth16::prepare_verifying_key(vk);
    const std::vector<fr> pub(inputs.begin() + 1, inputs.end());
    const bool ok = groth16::verify(pvk, pr, pub);
    std::fprintf(stderr, "%s: prove_finish of the result %s\n", what, ok ? "verifies" : "DOES NOT VERIFY");
    return ok;
}

// Sums the device intervals of each step over the timed iterations.
class span_sums final : public groth16::prove_observer {
public:
    void step_begin(std::string_view, std::string_view) noexcept override {}
    void step_end(std::string_view, std::string_view) noexcept override {}
    void step_span(std::string_view step, std::string_view, clock_type::time_point b,
                   clock_type::time_point e) noexcept override
    {
        try {
            ms[std::string(step)] += std::chrono::duration<double, std::milli>(e - b).count();
        } catch (...) {
        }
    }
    std::map<std::string, double> ms;
};

void add_timing_counters(benchmark::State& st, const groth16::prove_timings& sum, double iters)
{
    st.counters["h_ms"] = double(sum.h_ns) / 1e6 / iters;
    st.counters["msm_h_ms"] = double(sum.msm_h_ns) / 1e6 / iters;
    st.counters["msm_l_ms"] = double(sum.msm_l_ns) / 1e6 / iters;
    st.counters["msm_a_ms"] = double(sum.msm_a_ns) / 1e6 / iters;
    st.counters["msm_b1_ms"] = double(sum.msm_b1_ns) / 1e6 / iters;
    st.counters["msm_b2_ms"] = double(sum.msm_b2_ns) / 1e6 / iters;
    st.counters["total_ms"] = double(sum.total_ns) / 1e6 / iters;
}

void accumulate(groth16::prove_timings& sum, const groth16::prove_timings& t)
{
    sum.h_ns += t.h_ns;
    sum.msm_h_ns += t.msm_h_ns;
    sum.msm_l_ns += t.msm_l_ns;
    sum.msm_a_ns += t.msm_a_ns;
    sum.msm_b1_ns += t.msm_b1_ns;
    sum.msm_b2_ns += t.msm_b2_ns;
    sum.total_ns += t.total_ns;
}

// ---- GPU ---------------------------------------------------------------------------------------
struct gpu_fixture {
    r1cs::synthetic_circuit circ;
    std::shared_ptr<const r1cs::pce> pce;
    std::shared_ptr<const groth16::proving_key> pk;
    groth16::query_density dens;
    std::unique_ptr<gpu_key> key;
    unsigned key_tile_log = gpu_key_options{}.pce_group_tile_log;   // the key's pce_group_tile_log
    bool verified = false;
    std::string error;
};

// One fixture at a time (a 2^27 one holds ~75 GB of host memory).
gpu_fixture& gpu_get(unsigned L)
{
    static std::unique_ptr<gpu_fixture> f;
    static unsigned f_L = 0;
    if (f && f_L == L) return *f;
    f.reset();
    f = std::make_unique<gpu_fixture>();
    f_L = L;
    try {
        auto t0 = clock_type::now();
        f->circ = r1cs::synthetic_porep(params_for(L));
        print_stats(L, f->circ, ms_since(t0));
        f->pce = std::make_shared<const r1cs::pce>(f->circ.p);
        groth16::query_density dens;
        gpu_setup_timings tm;
        auto pk = std::make_shared<groth16::proving_key>(
            gpu_setup_bellperson(*f->pce, groth16::toxic_waste::from_seed(L), &dens, {}, &tm));
        std::fprintf(stderr,
                     "porep 2^%u: device setup %.1f s (host scalars %.1f s, window tables %.1f s, points %.1f s "
                     "of which kernels %.1f s); key %zu H, %zu L, %zu A, %zu B points\n",
                     L, tm.total_ns / 1e9, tm.scalars_ns / 1e9, tm.tables_ns / 1e9, tm.points_ns / 1e9,
                     tm.kernel_ms / 1e3, pk->h.size(), pk->l.size(), pk->a.size(), pk->b_g1.size());
        t0 = clock_type::now();
        f->pk = pk;
        f->dens = dens;
        f->key = std::make_unique<gpu_key>(pk, std::move(dens), f->pce);
        std::fprintf(stderr, "porep 2^%u: gpu_key in %.0f ms (%s, %.2f GB on the device)\n", L, ms_since(t0),
                     f->key->resident() ? "resident" : "streamed", f->key->device_bytes() / 1e9);
        const groth16::prove_sums sums = gpu_prove_start_witness(*f->key, f->circ.inputs, f->circ.aux);
        f->verified = check_proof(pk->vk, sums, f->circ.inputs, ("porep 2^" + std::to_string(L)).c_str());
        if (!f->verified) f->error = "the proof of the device result does not verify";
    } catch (const std::exception& e) {
        f->error = e.what();
    }
    return *f;
}

// The fixture of range(0), or null once the benchmark is skipped (no
// device, or the fixture's setup failed).
gpu_fixture* gpu_fixture_for(benchmark::State& st)
{
    std::string why;
    if (!cuda_available(&why)) {
        st.SkipWithError(("no CUDA device: " + why).c_str());
        return nullptr;
    }
    gpu_fixture& f = gpu_get(unsigned(st.range(0)));
    if (!f.error.empty()) {
        st.SkipWithError(f.error.c_str());
        return nullptr;
    }
    return &f;
}

// The timed loop: one prove of the fixture's witness per iteration (packed
// beforehand when pw is given), then the time and span counters; false when
// no iteration ran.
bool timed_proves(benchmark::State& st, gpu_key& key, const gpu_fixture& f, const gpu_packed_witness* pw)
{
    span_sums spans;
    groth16::prove_timings sum{};
    double iters = 0;
    for (auto _ : st) {
        groth16::prove_timings t{};
        const auto t0 = clock_type::now();
        const groth16::prove_sums s = pw ? gpu_prove_start_witness(key, f.circ.inputs, *pw, &spans, &t)
                                         : gpu_prove_start_witness(key, f.circ.inputs, f.circ.aux, &spans, &t);
        gpu_synchronize();
        st.SetIterationTime(ms_since(t0) / 1e3);
        benchmark::DoNotOptimize(s);
        accumulate(sum, t);
        ++iters;
    }
    if (iters == 0) return false;
    add_timing_counters(st, sum, iters);
    for (const auto& [step, ms] : spans.ms) st.counters["dev_" + step + "_ms"] = ms / iters;
    return true;
}

// packed: the aux assignment packed once before the timed loop
// (gpu_packed_witness, as the engine's synthesis stage does), so that the
// time is the device part the engine runs under its device lock. overlap:
// the key's witness MSMs on the second stream (the default) or every step
// on one stream (bm_porep_gpu_serial: the same key, switched).
// tile_log: the key's PCE rows grouped by shape in tiles of 2^tile_log rows
// (gpu_key_options::pce_group_tile_log; bm_porep_gpu_tile); a key of
// another layout is made anew, the device's caches freed first, with a
// warm-up prove.
void bm_porep_gpu_run(benchmark::State& st, bool packed, bool overlap = true, unsigned h_copies = 0,
                      unsigned tile_log = gpu_key_options{}.pce_group_tile_log)
{
    gpu_fixture* fp = gpu_fixture_for(st);
    if (!fp) return;
    gpu_fixture& f = *fp;
    const unsigned L = unsigned(st.range(0));
    if (!f.key || f.key_tile_log != tile_log) {   // after bm_porep_gpu_small, or another layout
        f.key.reset();
        gpu_release_cache();
        gpu_key_options opt;
        opt.pce_group_tile_log = tile_log;
        const auto t0 = clock_type::now();
        f.key = std::make_unique<gpu_key>(f.pk, f.dens, f.pce, opt);
        f.key_tile_log = tile_log;
        std::fprintf(stderr, "porep 2^%u: key made in %.1f s (PCE rows grouped in tiles of 2^%u, 0 = not grouped)\n",
                     L, ms_since(t0) / 1e3, tile_log);
        gpu_prove_start_witness(*f.key, f.circ.inputs, f.circ.aux);   // warm-up: the key's scratch
        gpu_synchronize();
    }
    f.key->set_overlap(overlap);
    if (f.key->h_copies().copies > 1 || h_copies > 0) {
        const size_t nh = f.key->pk().h.size();
        const double free_gb = double(gpu_memory().free) / 1e9;
        const auto t0 = clock_type::now();
        const gpu_msm_table_plan plan = f.key->set_h_copies(uint64_t(h_copies) * nh * sizeof(g1_affine));
        if (h_copies > 0) {
            std::fprintf(stderr,
                         "porep 2^%u: H copies in %.1f GB free: window %u, %u copies, %u rows, %.1f GB, built in "
                         "%.1f s\n",
                         L, free_gb, plan.window_bits, plan.copies, plan.rows, plan.bytes / 1e9, ms_since(t0) / 1e3);
            gpu_prove_start_witness(*f.key, f.circ.inputs, f.circ.aux);   // warm-up: MSM_H's scratch for the copies
            gpu_synchronize();
        }
    }
    gpu_packed_witness pw;
    if (packed) {
        const auto t0 = clock_type::now();
        pw.pack(f.circ.aux);
        st.counters["pack_ms"] = ms_since(t0);
        st.counters["packed_others"] = double(pw.others());
    }
    if (!timed_proves(st, *f.key, f, packed ? &pw : nullptr)) return;
    st.counters["constraints"] = double(f.circ.p.num_constraints);
    st.counters["verified"] = f.verified ? 1 : 0;
    st.counters["overlapped"] = f.key->overlaps() ? 1 : 0;
    st.counters["h_copies"] = f.key->h_copies().copies;
    st.counters["h_window"] = f.key->h_copies().window_bits;
    st.counters["free_gb"] = double(gpu_memory().free) / 1e9;
}
void bm_porep_gpu(benchmark::State& st) { bm_porep_gpu_run(st, false); }
void bm_porep_gpu_packed(benchmark::State& st) { bm_porep_gpu_run(st, true); }
void bm_porep_gpu_serial(benchmark::State& st) { bm_porep_gpu_run(st, true, false); }
void bm_porep_gpu_tile(benchmark::State& st) { bm_porep_gpu_run(st, true, true, 0, unsigned(st.range(1))); }
void bm_porep_gpu_copies2(benchmark::State& st) { bm_porep_gpu_run(st, true, true, 2); }
void bm_porep_gpu_copies3(benchmark::State& st) { bm_porep_gpu_run(st, true, true, 3); }
void bm_porep_gpu_copies(benchmark::State& st) { bm_porep_gpu_run(st, true, true, 64); }

// A smaller device: the fixture's resident key dropped, the device filled
// down to range(1) GiB free, a new key made there (resident or streamed, as
// gpu_key decides), range(2) million G2 points per chunk buffer.
void bm_porep_gpu_small(benchmark::State& st)
{
    gpu_fixture* fp = gpu_fixture_for(st);
    if (!fp) return;
    gpu_fixture& f = *fp;
    const unsigned L = unsigned(st.range(0));
    f.key.reset();
    gpu_release_cache();
    const uint64_t leave = uint64_t(st.range(1)) << 30;
    gpu_buffer filler;
    if (const uint64_t free_b = gpu_memory().free; free_b > leave) filler = gpu_buffer(free_b - leave);
    gpu_key_options opt;
    opt.stream_chunk_points = size_t(st.range(2)) * 1000000;
    const auto t0 = clock_type::now();
    std::unique_ptr<gpu_key> kp;
    try {
        kp = std::make_unique<gpu_key>(f.pk, f.dens, f.pce, opt);
    } catch (const std::exception& e) {
        st.SkipWithError(e.what());
        return;
    }
    gpu_key& key = *kp;
    const double key_ms = ms_since(t0);
    gpu_packed_witness pw;
    pw.pack(f.circ.aux);
    groth16::prove_sums s{};
    try {
        s = gpu_prove_start_witness(key, f.circ.inputs, pw);   // warm-up: the key's scratch
        gpu_synchronize();
    } catch (const std::exception& e) {
        st.SkipWithError((std::string("warm-up prove: ") + e.what()).c_str());
        return;
    }
    const uint64_t free_after = gpu_memory().free;
    const bool ok = check_proof(f.pk->vk, s, f.circ.inputs, "porep small device");
    std::fprintf(stderr,
                 "porep 2^%u on %llu GiB free: key %s in %.0f ms (%.2f GB on the device, chunk buffers of %.2f "
                 "GB), %.2f GB free after a prove\n",
                 L, (unsigned long long)st.range(1), key.resident() ? "resident" : "streamed", key_ms,
                 key.device_bytes() / 1e9, key.chunk_bytes() / 1e9, free_after / 1e9);
    if (!timed_proves(st, key, f, &pw)) return;
    st.counters["verified"] = ok ? 1 : 0;
    st.counters["resident"] = key.resident() ? 1 : 0;
    st.counters["min_free_gb"] = double(free_after) / 1e9;
    st.counters["chunk_gb"] = double(key.chunk_bytes()) / 1e9;
    if (!ok) st.SkipWithError("the proof on the smaller device does not verify");
}

// ---- CPU comparison -----------------------------------------------------------------------
struct cpu_fixture {
    r1cs::synthetic_circuit circ;
    groth16::proving_key pk;
    groth16::query_density dens;
    bool verified = false;
};

const cpu_fixture& cpu_get(unsigned L)
{
    static std::map<unsigned, std::unique_ptr<cpu_fixture>> cache;
    auto& f = cache[L];
    if (!f) {
        f = std::make_unique<cpu_fixture>();
        auto t0 = clock_type::now();
        f->circ = r1cs::synthetic_porep(params_for(L));
        print_stats(L, f->circ, ms_since(t0));
        t0 = clock_type::now();
        auto s = groth16::bellperson_setup_scalars(f->circ.p, groth16::toxic_waste::from_seed(L));
        f->dens = s.density;
        auto be = groth16::cpu_fixed_base();
        f->pk = groth16::bellperson_key_from_scalars(std::move(s), *be);
        std::fprintf(stderr, "porep 2^%u: CPU setup %.1f s\n", L, ms_since(t0) / 1e3);
    }
    return *f;
}

void bm_porep_cpu(benchmark::State& st)
{
    const unsigned L = unsigned(st.range(0));
    const cpu_fixture& f = cpu_get(L);
    const size_t m = f.circ.p.num_constraints;
    groth16::prove_timings sum{};
    double iters = 0, eval_ms = 0;
    groth16::prove_sums last{};
    for (auto _ : st) {
        const auto t0 = clock_type::now();
        std::vector<fr> a(m), b(m), c(m);
        r1cs::evaluate(f.circ.p, f.circ.inputs, f.circ.aux, a, b, c);
        eval_ms += ms_since(t0);
        groth16::prove_timings t{};
        last = groth16::prove_start(f.pk, f.dens, std::move(a), std::move(b), std::move(c), f.circ.inputs,
                                    f.circ.aux, {}, nullptr, &t);
        st.SetIterationTime(ms_since(t0) / 1e3);
        accumulate(sum, t);
        ++iters;
    }
    if (iters == 0) return;
    add_timing_counters(st, sum, iters);
    st.counters["eval_ms"] = eval_ms / iters;
    st.counters["constraints"] = double(m);
    static std::map<unsigned, bool> checked;
    if (!checked[L]) {
        checked[L] = true;
        if (!check_proof(f.pk.vk, last, f.circ.inputs, ("porep cpu 2^" + std::to_string(L)).c_str()))
            st.SkipWithError("the CPU proof does not verify");
    }
}

} // namespace

int main(int argc, char** argv)
{
    // The 2^27 size only when the filter asks for it.
    bool want27 = false;
    for (int i = 1; i < argc; ++i)
        if (std::strncmp(argv[i], "--benchmark_filter=", 19) == 0 && std::strstr(argv[i] + 19, "27")) want27 = true;
    for (auto* g : {benchmark::RegisterBenchmark("bm_porep_gpu", bm_porep_gpu),
                    benchmark::RegisterBenchmark("bm_porep_gpu_packed", bm_porep_gpu_packed),
                    benchmark::RegisterBenchmark("bm_porep_gpu_serial", bm_porep_gpu_serial),
                    benchmark::RegisterBenchmark("bm_porep_gpu_copies2", bm_porep_gpu_copies2),
                    benchmark::RegisterBenchmark("bm_porep_gpu_copies3", bm_porep_gpu_copies3),
                    benchmark::RegisterBenchmark("bm_porep_gpu_copies", bm_porep_gpu_copies)}) {
        g->Arg(22)->Arg(24);
        if (want27) g->Arg(27);
        g->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(5);
    }
    {
        auto* g = benchmark::RegisterBenchmark("bm_porep_gpu_tile", bm_porep_gpu_tile)->ArgNames({"log", "tile"});
        for (int64_t L : {22, 24, 27})
            if (L != 27 || want27)
                for (int64_t t : {0, 10, 14, 18}) g->Args({L, t});
        g->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(5);
    }
    if (want27)
        benchmark::RegisterBenchmark("bm_porep_gpu_small", bm_porep_gpu_small)
            ->ArgNames({"log", "free_gb", "chunk_m"})
            ->Args({27, 79, 0})
            ->Args({27, 79, 24})
            ->Args({27, 46, 0})
            ->Args({27, 30, 0})
            ->UseManualTime()
            ->Unit(benchmark::kMillisecond)
            ->Iterations(2);
    benchmark::RegisterBenchmark("bm_porep_cpu", bm_porep_cpu)
        ->Arg(16)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond)
        ->Iterations(3);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
