// Field and group micro-benchmarks (CPU, one thread).
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "cuzk/ec/bls12_381.hpp"

using namespace cuzk;

namespace {

template <class F>
void bm_mul(benchmark::State& st)
{
    std::mt19937_64 rng(1);
    F a = F::random(rng), b = F::random(rng);
    for (auto _ : st) {
        a = a * b;
        benchmark::DoNotOptimize(a);
    }
    st.SetItemsProcessed(st.iterations());
}

template <class F>
void bm_sqr(benchmark::State& st)
{
    std::mt19937_64 rng(2);
    F a = F::random(rng);
    for (auto _ : st) {
        a = a.sqr();
        benchmark::DoNotOptimize(a);
    }
    st.SetItemsProcessed(st.iterations());
}

template <class F>
void bm_inverse(benchmark::State& st)
{
    std::mt19937_64 rng(3);
    F a = F::random(rng);
    for (auto _ : st) {
        a = a.inverse();
        benchmark::DoNotOptimize(a);
    }
    st.SetItemsProcessed(st.iterations());
}

// The portable limb code (what devices run; the host default without the
// x86-64 assembly), for comparison in the same run.
template <class F>
void bm_mul_portable(benchmark::State& st)
{
    std::mt19937_64 rng(1);
    F a = F::random(rng), b = F::random(rng);
    for (auto _ : st) {
        F::mont_mul_portable(a.l, a.l, b.l);
        benchmark::DoNotOptimize(a);
    }
    st.SetItemsProcessed(st.iterations());
}

// Four independent products per iteration: throughput rather than latency.
template <class F>
void bm_mul_x4(benchmark::State& st)
{
    std::mt19937_64 rng(8);
    F a[4], b = F::random(rng);
    for (auto& x : a) x = F::random(rng);
    for (auto _ : st) {
        for (auto& x : a) x = x * b;
        benchmark::DoNotOptimize(a);
    }
    st.SetItemsProcessed(4 * st.iterations());
}

template <class F>
void bm_sub(benchmark::State& st)
{
    std::mt19937_64 rng(9);
    F a = F::random(rng), b = F::random(rng);
    for (auto _ : st) {
        a = a - b;
        benchmark::DoNotOptimize(a);
    }
    st.SetItemsProcessed(st.iterations());
}

template <class F>
void bm_neg(benchmark::State& st)
{
    std::mt19937_64 rng(10);
    F a = F::random(rng);
    for (auto _ : st) {
        a = -a;
        benchmark::DoNotOptimize(a);
    }
    st.SetItemsProcessed(st.iterations());
}

void bm_fp_add(benchmark::State& st)
{
    std::mt19937_64 rng(4);
    fp a = fp::random(rng), b = fp::random(rng);
    for (auto _ : st) {
        a = a + b;
        benchmark::DoNotOptimize(a);
    }
    st.SetItemsProcessed(st.iterations());
}

void bm_g1_mixed_add(benchmark::State& st)
{
    std::mt19937_64 rng(5);
    const g1_affine p = scalar_mul(g1_affine::generator(), fr::random(rng).to_repr()).to_affine();
    g1_xyzz acc = scalar_mul(g1_affine::generator(), fr::random(rng).to_repr()).to_xyzz();
    for (auto _ : st) {
        acc = acc.add(p);
        benchmark::DoNotOptimize(acc);
    }
    st.SetItemsProcessed(st.iterations());
}

void bm_g1_jacobian_mixed_add(benchmark::State& st)
{
    std::mt19937_64 rng(6);
    const g1_affine p = scalar_mul(g1_affine::generator(), fr::random(rng).to_repr()).to_affine();
    g1_jacobian acc = scalar_mul(g1_affine::generator(), fr::random(rng).to_repr());
    for (auto _ : st) {
        acc = acc.add(p);
        benchmark::DoNotOptimize(acc);
    }
    st.SetItemsProcessed(st.iterations());
}

void bm_g2_add(benchmark::State& st)
{
    std::mt19937_64 rng(7);
    const g2_jacobian p = scalar_mul(g2_affine::generator(), fr::random(rng).to_repr());
    g2_jacobian acc = scalar_mul(g2_affine::generator(), fr::random(rng).to_repr());
    for (auto _ : st) {
        acc = acc.add(p);
        benchmark::DoNotOptimize(acc);
    }
    st.SetItemsProcessed(st.iterations());
}

} // namespace

BENCHMARK(bm_mul<fp>)->Name("fp_mul");
BENCHMARK(bm_mul_x4<fp>)->Name("fp_mul_x4");
BENCHMARK(bm_mul_portable<fp>)->Name("fp_mul_portable");
BENCHMARK(bm_sqr<fp>)->Name("fp_sqr");
BENCHMARK(bm_fp_add)->Name("fp_add");
BENCHMARK(bm_sub<fp>)->Name("fp_sub");
BENCHMARK(bm_neg<fp>)->Name("fp_neg");
BENCHMARK(bm_inverse<fp>)->Name("fp_inverse");
BENCHMARK(bm_mul<fr>)->Name("fr_mul");
BENCHMARK(bm_mul_x4<fr>)->Name("fr_mul_x4");
BENCHMARK(bm_mul_portable<fr>)->Name("fr_mul_portable");
BENCHMARK(bm_sqr<fr>)->Name("fr_sqr");
BENCHMARK(bm_sub<fr>)->Name("fr_sub");
BENCHMARK(bm_inverse<fr>)->Name("fr_inverse");
BENCHMARK(bm_mul<fp2>)->Name("fp2_mul");
BENCHMARK(bm_g1_mixed_add)->Name("g1_xyzz_mixed_add");
BENCHMARK(bm_g1_jacobian_mixed_add)->Name("g1_jacobian_mixed_add");
BENCHMARK(bm_g2_add)->Name("g2_jacobian_add");
