// Helpers shared by the benchmark programs.
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cuzk/backend/cuda.hpp"
#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/util/parallel.hpp"

namespace cuzk::bench {

// Whether a CUDA device can be used; when not, marks the benchmark skipped
// with the reason (SkipWithError), so the GPU benchmarks report instead of
// failing on a machine without one.
inline bool gpu_ok(benchmark::State& st)
{
    static std::string why;
    static const bool ok = cuda_available(&why);
    if (!ok) st.SkipWithError(("no CUDA device: " + why).c_str());
    return ok;
}

// n distinct points of the subgroup, cheaply: P_i = A_{i mod 1024} + B_{i / 1024}
// with A and B random multiples of the generator (from `seed`), converted to
// affine in batches of 1024. About n additions and n/1024 + 1024 scalar
// multiplications, on all cores.
template <class Aff>
std::vector<Aff> bench_points(size_t n, uint64_t seed = 0x62656e6368ull)
{
    using Jac = decltype(Aff{}.to_jacobian());
    constexpr size_t base = 1024;
    const size_t nb = std::max<size_t>((n + base - 1) / base, 1);
    std::vector<Aff> a(base), b(nb), out(n);
    {
        std::vector<Jac> ja(base), jb(nb);
        std::vector<fr::repr> ka(base), kb(nb);
        std::mt19937_64 rng(seed);
        for (auto& k : ka) k = fr::random(rng).to_repr();
        for (auto& k : kb) k = fr::random(rng).to_repr();
        parallel_for(0, base, [&](size_t s, size_t e, unsigned) {
            for (size_t i = s; i < e; ++i) ja[i] = scalar_mul(Aff::generator(), ka[i]);
        });
        parallel_for(0, nb, [&](size_t s, size_t e, unsigned) {
            for (size_t i = s; i < e; ++i) jb[i] = scalar_mul(Aff::generator(), kb[i]);
        });
        batch_to_affine(ja.data(), a.data(), base);
        batch_to_affine(jb.data(), b.data(), nb);
    }
    parallel_for(0, nb, [&](size_t s, size_t e, unsigned) {
        std::vector<Jac> tmp(base);
        for (size_t blk = s; blk < e; ++blk) {
            if (blk * base >= n) break;
            const size_t len = std::min(base, n - blk * base);
            for (size_t j = 0; j < len; ++j) tmp[j] = a[j].to_jacobian().add(b[blk]);
            batch_to_affine(tmp.data(), out.data() + blk * base, len);
        }
    });
    return out;
}

} // namespace cuzk::bench
