// Helpers shared by several test programs: random subgroup points, and the
// skip of [gpu] cases on a machine without a usable CUDA device.
#pragma once

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "cuzk/backend/cuda.hpp"
#include "cuzk/ec/bls12_381.hpp"

namespace cuzk::test {

template <class Aff>
using jac_of = decltype(Aff{}.to_jacobian());

// n distinct random points of the prime-order subgroup. The first `base` are
// [k]G for random k; after that block by block P_i = P_{i−base} + P_{i−base+1}
// (indices wrapping inside the previous block), converted to affine in one
// batch per block. Cheap, and distinct with overwhelming probability.
template <class Aff>
std::vector<Aff> random_points(size_t n, std::mt19937_64& rng, size_t base = 64)
{
    using Jac = jac_of<Aff>;
    std::vector<Aff> out(n);
    std::vector<Jac> tmp;
    const size_t first = std::min(n, base);
    tmp.resize(first);
    for (size_t i = 0; i < first; ++i) tmp[i] = scalar_mul(Aff::generator(), fr::random(rng).to_repr());
    batch_to_affine(tmp.data(), out.data(), first);
    for (size_t start = base; start < n; start += base) {
        const size_t len = std::min(base, n - start);
        tmp.resize(len);
        for (size_t j = 0; j < len; ++j)
            tmp[j] = out[start - base + j].to_jacobian().add(out[start - base + (j + 1) % base]);
        batch_to_affine(tmp.data(), out.data() + start, len);
    }
    return out;
}

} // namespace cuzk::test

// In a [gpu] test case: without a usable device, print "SKIPPED: <reason>"
// (ctest's SKIP_REGULAR_EXPRESSION turns that into Skipped) and return.
#define GPU_OR_SKIP()                                           \
    do {                                                        \
        std::string why_;                                       \
        if (!cuzk::cuda_available(&why_)) {                     \
            WARN("skipped: " << why_);                          \
            std::printf("SKIPPED: %s\n", why_.c_str());         \
            return;                                             \
        }                                                       \
    } while (0)
