// Pairing micro-benchmarks (CPU, one thread): the full pairing, its two
// halves, a 4-pair multi-pairing (the Groth16 verifier's shape), and the Fp12
// products they are made of.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ff/fp12.hpp"
#include "cuzk/pairing/pairing.hpp"

using namespace cuzk;
using C = bls12_381_curve;   // the pairing benchmarked

namespace {

g1_affine random_g1(std::mt19937_64& rng)
{
    return scalar_mul(g1_affine::generator(), fr::random(rng).to_repr()).to_affine();
}
g2_affine random_g2(std::mt19937_64& rng)
{
    return scalar_mul(g2_affine::generator(), fr::random(rng).to_repr()).to_affine();
}

void bm_pairing(benchmark::State& st)
{
    std::mt19937_64 rng(1);
    const g1_affine p = random_g1(rng);
    const g2_affine q = random_g2(rng);
    for (auto _ : st) benchmark::DoNotOptimize(pairing<C>(p, q));
    st.SetItemsProcessed(st.iterations());
}

void bm_prepare_g2(benchmark::State& st)
{
    std::mt19937_64 rng(2);
    const g2_affine q = random_g2(rng);
    for (auto _ : st) benchmark::DoNotOptimize(prepare_g2<C>(q));
    st.SetItemsProcessed(st.iterations());
}

void bm_miller_loop(benchmark::State& st)
{
    std::mt19937_64 rng(3);
    const g1_affine p = random_g1(rng);
    const C::g2_prepared q = prepare_g2<C>(random_g2(rng));
    for (auto _ : st) benchmark::DoNotOptimize(miller_loop<C>(p, q));
    st.SetItemsProcessed(st.iterations());
}

void bm_final_exponentiation(benchmark::State& st)
{
    std::mt19937_64 rng(4);
    fp12 f = fp12::random(rng);
    for (auto _ : st) {
        f = final_exponentiation<C>(f);
        benchmark::DoNotOptimize(f);
    }
    st.SetItemsProcessed(st.iterations());
}

// n pairs with one shared squaring chain and one final exponentiation.
void bm_multi_pairing(benchmark::State& st)
{
    std::mt19937_64 rng(5);
    const size_t n = size_t(st.range(0));
    std::vector<g1_affine> ps;
    std::vector<g2_affine> qs;
    for (size_t i = 0; i < n; ++i) {
        ps.push_back(random_g1(rng));
        qs.push_back(random_g2(rng));
    }
    for (auto _ : st) benchmark::DoNotOptimize(multi_pairing<C>(ps, qs));
    st.SetItemsProcessed(st.iterations() * int64_t(n));
}

void bm_fp12_mul(benchmark::State& st)
{
    std::mt19937_64 rng(6);
    fp12 a = fp12::random(rng);
    const fp12 b = fp12::random(rng);
    for (auto _ : st) {
        a = a * b;
        benchmark::DoNotOptimize(a);
    }
    st.SetItemsProcessed(st.iterations());
}

void bm_fp12_sqr(benchmark::State& st)
{
    std::mt19937_64 rng(7);
    fp12 a = fp12::random(rng);
    for (auto _ : st) {
        a = a.sqr();
        benchmark::DoNotOptimize(a);
    }
    st.SetItemsProcessed(st.iterations());
}

void bm_fp12_cyclotomic_sqr(benchmark::State& st)
{
    std::mt19937_64 rng(8);
    const fp12 f = fp12::random(rng);
    const fp12 t = f.conjugate() * f.inverse();
    fp12 a = t.frobenius_map(2) * t;
    for (auto _ : st) {
        a = a.cyclotomic_sqr();
        benchmark::DoNotOptimize(a);
    }
    st.SetItemsProcessed(st.iterations());
}

void bm_fp12_mul_by_014(benchmark::State& st)
{
    std::mt19937_64 rng(9);
    fp12 a = fp12::random(rng);
    const fp2 o0 = fp2::random(rng), o1 = fp2::random(rng), o4 = fp2::random(rng);
    for (auto _ : st) {
        a = a.mul_by_014(o0, o1, o4);
        benchmark::DoNotOptimize(a);
    }
    st.SetItemsProcessed(st.iterations());
}

void bm_fp12_inverse(benchmark::State& st)
{
    std::mt19937_64 rng(10);
    fp12 a = fp12::random(rng);
    for (auto _ : st) {
        a = a.inverse();
        benchmark::DoNotOptimize(a);
    }
    st.SetItemsProcessed(st.iterations());
}

} // namespace

BENCHMARK(bm_pairing)->Name("pairing")->Unit(benchmark::kMicrosecond);
BENCHMARK(bm_prepare_g2)->Name("prepare_g2")->Unit(benchmark::kMicrosecond);
BENCHMARK(bm_miller_loop)->Name("miller_loop_prepared")->Unit(benchmark::kMicrosecond);
BENCHMARK(bm_final_exponentiation)->Name("final_exponentiation")->Unit(benchmark::kMicrosecond);
BENCHMARK(bm_multi_pairing)->Name("multi_pairing")->Arg(4)->Unit(benchmark::kMicrosecond);
BENCHMARK(bm_fp12_mul)->Name("fp12_mul");
BENCHMARK(bm_fp12_sqr)->Name("fp12_sqr");
BENCHMARK(bm_fp12_cyclotomic_sqr)->Name("fp12_cyclotomic_sqr");
BENCHMARK(bm_fp12_mul_by_014)->Name("fp12_mul_by_014");
BENCHMARK(bm_fp12_inverse)->Name("fp12_inverse");
