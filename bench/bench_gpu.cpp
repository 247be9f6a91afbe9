// CUDA backend benchmarks: Fp/Fr Montgomery multiply throughput, NTT over Fr
// 2^16 … 2^27, G1 MSM 2^16 … 2^26, G2 MSM 2^16 … 2^20; and on BN254
// (bm_bn254_ntt, bm_bn254_msm): NTT 2^20 … 2^24, G1 MSM 2^20 … 2^24, G2 MSM 2^20. Device time from CUDA
// events (UseManualTime), data already on the device (as sppark's figures in
// docs/PERFORMANCE.md), one warm-up call before the timed ones (it builds the
// twiddle tables and allocates the scratch buffers).
//
// Counters, for scripts/bench-summary.py (scripts/gpu.sh OUT kernels):
//   median_ms, min_ms   over the timed iterations
//   peer_ms             sppark on an H200 (docs/PERFORMANCE.md), 0 where none
//   floor_lo_ms/hi_ms   the documented floors (docs/PERFORMANCE.md), 0 where none
//   model_ms            work / measured rate: multiplications over 17.7 G/s (Fp)
//                       or 37.8 G/s (Fr), the PTX-chain rates of docs/PERFORMANCE.md
//   window              the MSM window c
//   Gmul_per_s          (multiply benchmarks) the measured rate
// Without a device every benchmark reports SkipWithError("no CUDA device: …").
//
// Inputs: NTT data uniform below r (as raw canonical limbs, which are valid
// Montgomery values); MSM scalars uniform below r; G1/G2 points
// P_i = A_{i mod 1024} + B_{i / 1024} with A, B random multiples of the
// generator, so all points are distinct, generated on all host threads.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "cuzk/backend/cuda.hpp"
#include "cuzk/util/parallel.hpp"

#include "bench_support.hpp"

using namespace cuzk;
using cuzk::bench::gpu_ok;
using cuzk::bench::bench_points;

namespace {

constexpr double fp_rate = 17.7e9;   // Fp Montgomery multiplications per second (docs/PERFORMANCE.md)
constexpr double fr_rate = 37.8e9;   // Fr

void report_times(benchmark::State& st, std::vector<double>& ms)
{
    if (ms.empty()) return;
    std::sort(ms.begin(), ms.end());
    st.counters["median_ms"] = ms[ms.size() / 2];
    st.counters["min_ms"] = ms.front();
}

// Random canonical limbs below r (a valid Montgomery value of some element);
// top = the top limb of r (BLS12-381's by default, BN254's for its data).
void fill_below_r(uint64_t* limbs, size_t n, uint64_t seed, uint64_t top = fr_params::modulus.l[3])
{
    parallel_for(0, n, [&](size_t b, size_t e, unsigned) {
        std::mt19937_64 rng(seed ^ (b * 0x9e3779b97f4a7c15ull));
        for (size_t i = b; i < e; ++i) {
            limbs[4 * i] = rng();
            limbs[4 * i + 1] = rng();
            limbs[4 * i + 2] = rng();
            limbs[4 * i + 3] = rng() % top;
        }
    });
}

// ---- multiply throughput ------------------------------------------------------------------
void bm_field_mul(benchmark::State& st)
{
    if (!gpu_ok(st)) return;
    const bool is_fr = st.range(0) != 0;
    const gpu_field f = is_fr ? gpu_field::fr : gpu_field::fp;
    std::vector<double> ms;
    double muls = 0, total_ms = 0;
    for (auto _ : st) {
        const gpu_mul_rate r = gpu_bench_field_mul(f, 4096, 256);
        st.SetIterationTime(r.ms / 1e3);
        ms.push_back(r.ms);
        muls += r.muls;
        total_ms += r.ms;
    }
    report_times(st, ms);
    st.counters["Gmul_per_s"] = muls / (total_ms / 1e3) / 1e9;
    st.counters["peer_Gmul_per_s"] = (is_fr ? fr_rate : fp_rate) / 1e9;
}

// ---- NTT ---------------------------------------------------------------------------------------
// Args: log2 n, kind (0 forward, 1 inverse, 2 coset forward, 3 coset inverse).
// F: BLS12-381's fr or bn254::fr.
template <class F>
void run_ntt(benchmark::State& st)
{
    const unsigned L = unsigned(st.range(0));
    const auto kind = gpu_ntt_kind(st.range(1));
    const size_t n = size_t{1} << L;
    std::vector<F> host(n);
    fill_below_r(reinterpret_cast<uint64_t*>(host.data()), n, 0x6e7474ull + L, F::params::modulus.l[3]);
    gpu_buffer buf(n * sizeof(F));
    buf.upload(std::span<const F>(host));
    const F shift = F::from_u64(7);
    gpu_ntt_device(buf.as<F>(), L, root_convention::snarkjs, kind, shift);   // warm-up
    gpu_timer t;
    std::vector<double> ms;
    for (auto _ : st) {
        t.start();
        gpu_ntt_device(buf.as<F>(), L, root_convention::snarkjs, kind, shift);
        const double m = t.stop_ms();
        st.SetIterationTime(m / 1e3);
        ms.push_back(m);
    }
    report_times(st, ms);
    st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(n));
    gpu_release_cache();
}

void bm_ntt(benchmark::State& st)
{
    if (!gpu_ok(st)) return;
    run_ntt<fr>(st);
    const unsigned L = unsigned(st.range(0));
    const auto kind = gpu_ntt_kind(st.range(1));
    const size_t n = size_t{1} << L;
    // n/2·(L − 1) − n/4 butterflies with an Fr multiplication (none in stage 0, half of
    // stage 1's at radix 4 and up), plus n for scaling.
    const double skipped = L >= 2 ? double(n) / 4 : 0.0;
    const double muls = double(n) / 2 * (L - 1) - skipped + (kind == gpu_ntt_kind::forward ? 0.0 : double(n));
    st.counters["model_ms"] = muls / fr_rate * 1e3;
    double peer = 0, flo = 0, fhi = 0;
    if (kind == gpu_ntt_kind::forward) {
        if (L == 24) peer = 4.47;
        if (L == 27) {
            peer = 44.4;   // sppark with bit reversal (42.4 without); ours reverses
            flo = 34;
            fhi = 56;
        }
    }
    st.counters["peer_ms"] = peer;
    st.counters["floor_lo_ms"] = flo;
    st.counters["floor_hi_ms"] = fhi;
}

void bm_bn254_ntt(benchmark::State& st)
{
    if (gpu_ok(st)) run_ntt<bn254::fr>(st);
}


// The device copies are kept between benchmarks of growing size (the largest
// host array is regenerated only when a larger size comes).
template <class Aff>
struct msm_inputs {
    size_t n = 0;
    gpu_buffer points, scalars;
};

// The top limb of the scalar field's modulus of the curve of Aff.
template <class Aff>
uint64_t scalar_top()
{
    if constexpr (std::is_same_v<Aff, bn254::g1_affine> || std::is_same_v<Aff, bn254::g2_affine>)
        return bn254::fr_params::modulus.l[3];
    else
        return fr_params::modulus.l[3];
}

template <class Aff>
msm_inputs<Aff>& inputs_for(size_t n)
{
    static msm_inputs<Aff> in;
    if (in.n != n) {
        in.points = gpu_buffer();
        in.scalars = gpu_buffer();
        const std::vector<Aff> p = bench_points<Aff>(n);
        std::vector<fr::repr> k(n);
        fill_below_r(reinterpret_cast<uint64_t*>(k.data()), n, 0x7363616c6172ull, scalar_top<Aff>());
        in.points = gpu_buffer(n * sizeof(Aff));
        in.scalars = gpu_buffer(n * sizeof(fr::repr));
        in.points.upload(std::span<const Aff>(p));
        in.scalars.upload(std::span<const fr::repr>(k));
        in.n = n;
    }
    return in;
}

// Args: log2 n, window (0 = automatic), batch-affine rounds (1) or XYZZ
// additions only (0).
template <class Aff>
void bm_msm(benchmark::State& st)
{
    if (!gpu_ok(st)) return;
    constexpr bool g2 = std::is_same_v<Aff, g2_affine> || std::is_same_v<Aff, bn254::g2_affine>;
    constexpr bool bn = !std::is_same_v<Aff, g1_affine> && !std::is_same_v<Aff, g2_affine>;
    const unsigned L = unsigned(st.range(0));
    const size_t n = size_t{1} << L;
    auto& in = inputs_for<Aff>(n);
    gpu_msm_options o;
    o.window_bits = unsigned(st.range(1));
    o.buckets = st.range(2) ? msm_buckets::batch_affine : msm_buckets::xyzz;
    const unsigned c = o.window_bits ? o.window_bits : gpu_msm_window_bits(n, g2);
    auto r = gpu_msm_device(in.points.template as<Aff>(), in.scalars.template as<fr::repr>(), n, o);   // warm-up
    benchmark::DoNotOptimize(r);
    gpu_timer t;
    std::vector<double> ms;
    for (auto _ : st) {
        t.start();
        r = gpu_msm_device(in.points.template as<Aff>(), in.scalars.template as<fr::repr>(), n, o);
        const double m = t.stop_ms();
        benchmark::DoNotOptimize(r);
        st.SetIterationTime(m / 1e3);
        ms.push_back(m);
    }
    report_times(st, ms);
    // n·W mixed additions (10 M) and W·2^(c−1) buckets × 2 full additions (14 M);
    // for G2 an M is an Fp2 multiplication, 3 Fp multiplications.
    const double W = double((255 + c) / c);
    const double M = double(n) * W * 10 + W * double(size_t{1} << (c - 1)) * 28;
    st.counters["model_ms"] = bn ? 0.0 : M * (g2 ? 3.0 : 1.0) / fp_rate * 1e3;   // the rates are BLS12-381's
    st.counters["window"] = c;
    double peer = 0, flo = 0, fhi = 0;
    if (!g2 && !bn) {
        if (L == 20) peer = 21.1;
        if (L == 22) peer = 54.4;
        if (L == 24) peer = 157.6;
        if (L == 26) {
            peer = 567.7;
            flo = 310;
            fhi = 500;
        }
    }
    st.counters["peer_ms"] = peer;
    st.counters["floor_lo_ms"] = flo;
    st.counters["floor_hi_ms"] = fhi;
    st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(n));
}

// G1 MSM over shifted copies of the points (gpu_msm_table). Args: log2 n,
// budget of the copies in units of n points (0: none, the plain MSM's plan;
// 100: every copy the plan wants), window (0: the plan's; otherwise that
// window with every copy, one row), GB of device memory left free once the
// copies are built (0: all there is; otherwise a buffer takes the rest, as
// a large resident key and a prove's other scratch would, so the sorts run
// in several window groups). The copies are built outside the timing.
void bm_msm_table(benchmark::State& st)
{
    if (!gpu_ok(st)) return;
    const size_t n = size_t{1} << st.range(0);
    auto& in = inputs_for<g1_affine>(n);
    gpu_release_cache();
    auto plan = gpu_msm_table_choose(n, uint64_t(st.range(1)) * n * sizeof(g1_affine));
    if (st.range(2) > 0) {
        const unsigned c = unsigned(st.range(2)), W = (256 + c) / c;
        plan = {c, W, 1, 0};
    }
    const auto t0 = std::chrono::steady_clock::now();
    const gpu_msm_table t(in.points.as<g1_affine>(), n, plan);
    gpu_synchronize();
    const double build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    gpu_release_cache();
    gpu_buffer filler;
    const uint64_t leave = uint64_t(st.range(3)) << 30, free_b = gpu_memory().free;
    if (leave > 0 && free_b > leave) filler = gpu_buffer(free_b - leave);
    auto r = gpu_msm_device(t, in.scalars.as<fr::repr>());   // warm-up
    benchmark::DoNotOptimize(r);
    gpu_timer tm;
    std::vector<double> ms;
    for (auto _ : st) {
        tm.start();
        r = gpu_msm_device(t, in.scalars.as<fr::repr>());
        const double m = tm.stop_ms();
        benchmark::DoNotOptimize(r);
        st.SetIterationTime(m / 1e3);
        ms.push_back(m);
    }
    report_times(st, ms);
    st.counters["window"] = plan.window_bits;
    st.counters["copies"] = plan.copies;
    st.counters["rows"] = plan.rows;
    st.counters["copies_GB"] = double(plan.bytes) / 1e9;
    st.counters["build_s"] = build_s;
    st.counters["free_GB"] = double(gpu_memory().free) / 1e9;   // after the timed runs' scratch
    st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(n));
}

} // namespace

BENCHMARK(bm_msm_table)
    ->ArgNames({"log_n", "budget", "c", "leave_gb"})
    ->Args({20, 0, 0, 0})
    ->Args({20, 100, 0, 0})
    ->Args({22, 0, 0, 0})
    ->Args({22, 100, 0, 0})
    ->Args({24, 0, 0, 0})
    ->Args({24, 1, 0, 0})
    ->Args({24, 3, 0, 0})
    ->Args({24, 100, 0, 0})
    ->Args({24, 100, 22, 0})
    ->Args({24, 100, 24, 0})
    ->Args({26, 0, 0, 0})
    ->Args({26, 1, 0, 0})
    ->Args({26, 3, 0, 0})
    ->Args({26, 100, 0, 0})
    ->Args({26, 100, 22, 0})
    ->Args({26, 0, 0, 12})
    ->Args({26, 3, 0, 12})
    ->Args({26, 100, 0, 12})
    ->UseManualTime()
    ->Iterations(4)
    ->Unit(benchmark::kMillisecond);

BENCHMARK(bm_field_mul)->ArgName("fr")->Arg(0)->Arg(1)->UseManualTime()->Iterations(5)->Unit(benchmark::kMillisecond);

BENCHMARK(bm_ntt)
    ->ArgNames({"log_n", "kind"})
    ->Args({16, 0})
    ->Args({18, 0})
    ->Args({20, 0})
    ->Args({22, 0})
    ->Args({24, 0})
    ->Args({24, 1})
    ->Args({24, 2})
    ->Args({24, 3})
    ->Args({26, 0})
    ->Args({27, 0})
    ->Args({27, 3})
    ->UseManualTime()
    ->Iterations(10)
    ->Unit(benchmark::kMillisecond);

BENCHMARK_TEMPLATE(bm_msm, g1_affine)
    ->ArgNames({"log_n", "c", "affine"})
    ->Args({16, 0, 0})
    ->Args({16, 0, 1})
    ->Args({18, 0, 0})
    ->Args({18, 0, 1})
    ->Args({20, 0, 0})
    ->Args({20, 0, 1})
    ->Args({22, 0, 0})
    ->Args({22, 0, 1})
    ->Args({24, 0, 0})
    ->Args({24, 0, 1})
    ->Args({24, 18, 1})
    ->Args({24, 19, 1})
    ->Args({26, 0, 0})
    ->Args({26, 0, 1})
    ->Args({26, 20, 1})
    ->Args({26, 21, 1})
    ->UseManualTime()
    ->Iterations(4)
    ->Unit(benchmark::kMillisecond);

BENCHMARK_TEMPLATE(bm_msm, g2_affine)
    ->ArgNames({"log_n", "c", "affine"})
    ->Args({16, 0, 0})
    ->Args({16, 0, 1})
    ->Args({18, 0, 0})
    ->Args({18, 0, 1})
    ->Args({20, 0, 0})
    ->Args({20, 0, 1})
    ->Args({22, 0, 0})
    ->Args({22, 0, 1})
    ->Args({24, 0, 0})
    ->Args({24, 0, 1})
    ->UseManualTime()
    ->Iterations(3)
    ->Unit(benchmark::kMillisecond);

BENCHMARK(bm_bn254_ntt)
    ->ArgNames({"log_n", "kind"})
    ->Args({20, 0})
    ->Args({24, 0})
    ->Args({24, 3})
    ->UseManualTime()
    ->Iterations(10)
    ->Unit(benchmark::kMillisecond);

BENCHMARK_TEMPLATE(bm_msm, bn254::g1_affine)
    ->ArgNames({"log_n", "c", "affine"})
    ->Args({20, 0, 0})
    ->Args({20, 0, 1})
    ->Args({22, 0, 0})
    ->Args({22, 0, 1})
    ->Args({24, 0, 0})
    ->Args({24, 0, 1})
    ->UseManualTime()
    ->Iterations(4)
    ->Unit(benchmark::kMillisecond);

BENCHMARK_TEMPLATE(bm_msm, bn254::g2_affine)
    ->ArgNames({"log_n", "c", "affine"})
    ->Args({20, 0, 0})
    ->Args({20, 0, 1})
    ->UseManualTime()
    ->Iterations(3)
    ->Unit(benchmark::kMillisecond);
