// NTT over Fr (CPU). Arguments: {log2 n, threads} with threads 0 = all.
// Items processed = butterflies (n/2·log n), so items/s compares sizes.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "cuzk/groth16/prover.hpp"
#include "cuzk/ntt/ntt.hpp"

using namespace cuzk;

namespace {

template <class F = fr>
std::vector<F> random_vec(size_t n)
{
    std::mt19937_64 rng(n);
    std::vector<F> v(n);
    for (auto& x : v) x = F::random(rng);
    return v;
}

void set_counters(benchmark::State& st, unsigned k)
{
    st.SetItemsProcessed(int64_t(st.iterations()) * int64_t((size_t{1} << k) / 2 * k));
    st.counters["threads"] = st.range(1);
}

void bm_ntt(benchmark::State& st)
{
    const unsigned k = unsigned(st.range(0)), threads = unsigned(st.range(1));
    const ntt_domain d(k, root_convention::bellperson);
    auto a = random_vec(d.size());
    for (auto _ : st) {
        ntt(a, d, threads);
        benchmark::ClobberMemory();
    }
    set_counters(st, k);
}

void bm_intt(benchmark::State& st)
{
    const unsigned k = unsigned(st.range(0)), threads = unsigned(st.range(1));
    const ntt_domain d(k, root_convention::bellperson);
    auto a = random_vec(d.size());
    for (auto _ : st) {
        intt(a, d, threads);
        benchmark::ClobberMemory();
    }
    set_counters(st, k);
}

void bm_coset_ntt(benchmark::State& st)
{
    const unsigned k = unsigned(st.range(0)), threads = unsigned(st.range(1));
    const ntt_domain d(k, root_convention::snarkjs);
    const fr shift = root_of_unity(k + 1, root_convention::snarkjs);
    auto a = random_vec(d.size());
    for (auto _ : st) {
        coset_ntt(a, d, shift, threads);
        benchmark::ClobberMemory();
    }
    set_counters(st, k);
}

// Values on ⟨ω⟩ to values on the snarkjs odd coset (the prover's H step does
// this three times): intt then coset_ntt (Fused = false) against
// values_on_coset, same inputs and outputs.
template <class F, bool Fused>
void bm_to_coset(benchmark::State& st)
{
    const unsigned k = unsigned(st.range(0)), threads = unsigned(st.range(1));
    const ntt_domain_t<F> d(k, root_convention::snarkjs);
    const F shift = root_of_unity_of<F>(k + 1, root_convention::snarkjs);
    auto a = random_vec<F>(d.size());
    for (auto _ : st) {
        if constexpr (Fused) {
            values_on_coset(a, d, shift, threads);
        } else {
            intt(a, d, threads);
            coset_ntt(a, d, shift, threads);
        }
        benchmark::ClobberMemory();
    }
    set_counters(st, k);
}

void bm_bit_reverse(benchmark::State& st)
{
    const unsigned k = unsigned(st.range(0)), threads = unsigned(st.range(1));
    auto a = random_vec(size_t{1} << k);
    for (auto _ : st) {
        bit_reverse(a, threads);
        benchmark::ClobberMemory();
    }
    st.SetItemsProcessed(int64_t(st.iterations()) << k);
    st.counters["threads"] = st.range(1);
}

void bm_domain(benchmark::State& st)
{
    const unsigned k = unsigned(st.range(0)), threads = unsigned(st.range(1));
    for (auto _ : st) {
        ntt_domain d(k, root_convention::bellperson, threads);
        benchmark::DoNotOptimize(d.twiddles().data());
    }
    st.SetItemsProcessed(int64_t(st.iterations()) << (k - 1));
    st.counters["threads"] = st.range(1);
}

// The bellperson H step (compute_h_bellperson): n − 1 satisfied rows of
// random a, b and c = a·b, domain 2^k; args: k, threads (0 = all).
void bm_h_bellperson(benchmark::State& st)
{
    const unsigned k = unsigned(st.range(0)), threads = unsigned(st.range(1));
    const size_t n = size_t{1} << k;
    std::mt19937_64 rng(11);
    std::vector<fr> a(n - 1), b(n - 1), c(n - 1);
    for (size_t i = 0; i + 1 < n; ++i) {
        a[i] = fr::random(rng);
        b[i] = fr::random(rng);
        c[i] = a[i] * b[i];
    }
    for (auto _ : st) {
        auto h = groth16::compute_h_bellperson(a, b, c, n, threads);
        benchmark::DoNotOptimize(h.data());
    }
    st.SetItemsProcessed(int64_t(st.iterations()) << k);
    st.counters["threads"] = st.range(1);
}

} // namespace

BENCHMARK(bm_ntt)->ArgsProduct({{16, 18, 20}, {1, 0}})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_intt)->ArgsProduct({{18}, {1, 0}})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_coset_ntt)->ArgsProduct({{18}, {1, 0}})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_to_coset<fr, false>)->ArgsProduct({{19}, {0}})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_to_coset<fr, true>)->ArgsProduct({{19}, {0}})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_to_coset<bn254::fr, false>)->ArgsProduct({{19}, {0}})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_to_coset<bn254::fr, true>)->ArgsProduct({{19}, {0}})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_bit_reverse)->ArgsProduct({{18, 20}, {1, 0}})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_h_bellperson)->ArgsProduct({{18, 20}, {0}})->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_domain)->ArgsProduct({{20}, {1, 0}})->Unit(benchmark::kMillisecond)->UseRealTime();
