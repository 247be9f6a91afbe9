// CPU MSM benchmarks: G1 at 2^10, 2^14, 2^16, 2^18 on one thread and on all
// hardware threads, G2 at 2^10 and 2^14 on one thread, BN254 G1 at 2^16 (one
// thread) and 2^19 (all threads), the 0/1 sum, and the
// two bucket methods and neighbouring windows side by side at 2^16. Items are
// points; items/s is points per second of wall-clock time (UseRealTime, so
// the multi-threaded runs are measured fairly; on a loaded machine compare
// the CPU column of the one-thread runs).
//
// Inputs: 1024 points [k]G for random k, then block by block
// P_i = P_{i−1024} + P_{i−1023} (the second index wrapping inside the
// previous block), converted to affine once per block. These are linear
// combinations of the random base points with distinct coefficient vectors,
// so the points are distinct, and costing one addition each instead of a
// scalar multiplication they take about a second for 2^18. Scalars are
// uniform in [0, r) (canonical integers, as a witness gives them). Seeds are
// fixed, so runs are comparable.
#include <benchmark/benchmark.h>

#include <random>
#include <type_traits>
#include <vector>

#include "cuzk/msm/msm.hpp"
#include "cuzk/util/parallel.hpp"

using namespace cuzk;

namespace {

template <class Aff>
const std::vector<Aff>& points(size_t n)
{
    using Jac = decltype(Aff{}.to_jacobian());
    static std::vector<Aff> pts;
    constexpr size_t base = 1024;
    if (pts.size() >= n) return pts;
    std::mt19937_64 rng(0x62656e6368ull);
    std::vector<Jac> tmp(base);
    const size_t first = std::min(n, base);
    pts.resize(n);
    for (size_t i = 0; i < first; ++i) tmp[i] = scalar_mul(Aff::generator(), fr::random(rng).to_repr());
    batch_to_affine(tmp.data(), pts.data(), first);
    for (size_t start = base; start < n; start += base) {
        const size_t len = std::min(base, n - start);
        for (size_t j = 0; j < len; ++j)
            tmp[j] = pts[start - base + j].to_jacobian().add(pts[start - base + (j + 1) % base]);
        batch_to_affine(tmp.data(), pts.data() + start, len);
    }
    return pts;
}

// Uniform scalars of the curve's own group order (Fr of BLS12-381 or BN254).
template <class Fr>
const std::vector<fr::repr>& scalars(size_t n)
{
    static std::vector<fr::repr> sc;
    if (sc.size() >= n) return sc;
    std::mt19937_64 rng(0x7363616c6172ull);
    sc.clear();
    sc.reserve(n);
    for (size_t i = 0; i < n; ++i) sc.push_back(Fr::random(rng).to_repr());
    return sc;
}

template <class Aff>
using scalar_field_of = std::conditional_t<std::is_same_v<Aff, bn254::g1_affine>, bn254::fr, fr>;

// Args: log2 n, threads (0 = all hardware threads), bucket method
// (0 automatic, 1 xyzz, 2 batch_affine), window bits (0 = automatic), the
// AVX-512 IFMA kernels allowed (1) or not (0; they apply to the G1
// batch-affine buckets on a CPU that has them).
template <class Aff>
void bm_msm(benchmark::State& st)
{
    const size_t n = size_t{1} << st.range(0);
    msm_options o;
    o.threads = unsigned(st.range(1));
    o.buckets = msm_buckets(st.range(2));
    o.window_bits = st.range(3) > 0 ? unsigned(st.range(3)) : 0;
    o.avx512 = st.range(4) != 0;
    const std::span<const Aff> p(points<Aff>(n).data(), n);
    const std::span<const fr::repr> k(scalars<scalar_field_of<Aff>>(n).data(), n);
    for (auto _ : st) {
        auto r = msm(p, k, o);
        benchmark::DoNotOptimize(r);
    }
    st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(n));
    st.counters["threads"] = resolve_threads(o.threads);
    st.counters["window"] = o.window_bits ? o.window_bits : msm_window_bits(n, o.threads);
}

// Args: log2 n, threads. About two thirds of the points selected.
void bm_sum_points(benchmark::State& st)
{
    const size_t n = size_t{1} << st.range(0);
    const std::span<const g1_affine> p(points<g1_affine>(n).data(), n);
    std::vector<uint8_t> mask(n);
    std::mt19937_64 rng(5);
    for (auto& m : mask) m = rng() % 3 != 0;
    for (auto _ : st) {
        auto r = sum_points(p, std::span<const uint8_t>(mask), unsigned(st.range(1)));
        benchmark::DoNotOptimize(r);
    }
    st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(n));
}

constexpr int64_t autob = int64_t(msm_buckets::automatic);
constexpr int64_t xyzzb = int64_t(msm_buckets::xyzz);
constexpr int64_t affb = int64_t(msm_buckets::batch_affine);

} // namespace

BENCHMARK(bm_msm<g1_affine>)
    ->Name("g1_msm")
    ->ArgNames({"log_n", "threads", "buckets", "window", "avx512"})
    ->Args({10, 1, autob, 0, 1})
    ->Args({10, 0, autob, 0, 1})
    ->Args({14, 1, autob, 0, 1})
    ->Args({14, 0, autob, 0, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(bm_msm<g1_affine>)
    ->Name("g1_msm")
    ->ArgNames({"log_n", "threads", "buckets", "window", "avx512"})
    ->Args({16, 1, autob, 0, 1})
    ->Args({16, 1, autob, 0, 0})
    ->Args({16, 0, autob, 0, 1})
    ->Args({16, 1, xyzzb, 0, 1})
    ->Args({16, 1, affb, 0, 1})
    ->Args({16, 1, affb, 12, 1})
    ->Args({16, 1, affb, 14, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(2);
BENCHMARK(bm_msm<g1_affine>)
    ->Name("g1_msm")
    ->ArgNames({"log_n", "threads", "buckets", "window", "avx512"})
    ->Args({18, 1, autob, 0, 1})
    ->Args({18, 0, autob, 0, 1})
    ->Args({18, 0, autob, 0, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);
BENCHMARK(bm_msm<g2_affine>)
    ->Name("g2_msm")
    ->ArgNames({"log_n", "threads", "buckets", "window", "avx512"})
    ->Args({10, 1, autob, 0, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(bm_msm<g2_affine>)
    ->Name("g2_msm")
    ->ArgNames({"log_n", "threads", "buckets", "window", "avx512"})
    ->Args({14, 1, autob, 0, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);
// BN254 G1 at the size of the H query of a 2^19-domain circom circuit
// (Sha256 of 4096 bits), the MSM that dominates a snarkjs-convention prove.
BENCHMARK(bm_msm<bn254::g1_affine>)
    ->Name("bn254_g1_msm")
    ->ArgNames({"log_n", "threads", "buckets", "window", "avx512"})
    ->Args({16, 1, autob, 0, 1})
    ->Args({16, 1, autob, 0, 0})
    ->Args({19, 0, autob, 0, 1})
    ->Args({19, 0, autob, 0, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(2);
BENCHMARK(bm_sum_points)
    ->Name("g1_sum_points")
    ->ArgNames({"log_n", "threads"})
    ->Args({16, 1})
    ->Args({16, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
