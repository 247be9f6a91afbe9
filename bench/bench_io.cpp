// Decoding bellperson's uncompressed points on the host, one thread
// (g1_deserialize / g2_deserialize without the subgroup check, as a .params
// file's vectors are read on the CPU backend, with the subgroup check asked
// for, and for keys that stream from host memory): time per point over a
// buffer of 2^16 encodings of distinct points (bench_points), cycled.
// Counters: points_per_s.
#include <benchmark/benchmark.h>

#include <array>
#include <vector>

#include "cuzk/ec/encoding.hpp"

#include "bench_support.hpp"

using namespace cuzk;
using cuzk::bench::bench_points;

namespace {

template <class Aff, size_t Bytes>
void run_decode(benchmark::State& st)
{
    constexpr size_t n = size_t{1} << 16;
    const std::vector<Aff> pts = bench_points<Aff>(n, 3);
    std::vector<std::array<uint8_t, Bytes>> enc(n);
    for (size_t i = 0; i < n; ++i) {
        if constexpr (Bytes == 96) g1_serialize(pts[i], enc[i]);
        else g2_serialize(pts[i], enc[i]);
    }
    size_t i = 0;
    for (auto _ : st) {
        if constexpr (Bytes == 96) benchmark::DoNotOptimize(g1_deserialize(enc[i], subgroup_check::skip));
        else benchmark::DoNotOptimize(g2_deserialize(enc[i], subgroup_check::skip));
        i = (i + 1) & (n - 1);
    }
    st.counters["points_per_s"] = benchmark::Counter(double(st.iterations()), benchmark::Counter::kIsRate);
}

void bm_decode_g1(benchmark::State& st) { run_decode<g1_affine, 96>(st); }
void bm_decode_g2(benchmark::State& st) { run_decode<g2_affine, 192>(st); }

} // namespace

BENCHMARK(bm_decode_g1)->Unit(benchmark::kNanosecond);
BENCHMARK(bm_decode_g2)->Unit(benchmark::kNanosecond);
