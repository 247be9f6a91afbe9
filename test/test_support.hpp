// Helpers shared by several test programs: random subgroup points, their
// uncompressed encodings, and the skip of [gpu] cases on a machine without a
// usable CUDA device.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "cuzk/backend/cuda.hpp"
#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/encoding.hpp"
#include "cuzk/r1cs/constraint_system.hpp"

namespace cuzk::test {

// The uncompressed (zcash / bellperson) encodings of a point.
inline std::array<uint8_t, 96> g1_bytes(const g1_affine& p)
{
    std::array<uint8_t, 96> b;
    g1_serialize(p, b);
    return b;
}
inline std::array<uint8_t, 192> g2_bytes(const g2_affine& p)
{
    std::array<uint8_t, 192> b;
    g2_serialize(p, b);
    return b;
}

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

// A witness-like vector of n values for the packed upload's tests, by
// pattern: 0 all zero, 1 all one (Montgomery), 2 all random, 3 90 % bits
// (45 % zeros, 45 % ones), 4 runs of 1 … 300 values of one kind. *others
// counts the values that are neither 0 nor 1.
inline std::vector<fr> witness_pattern(size_t n, int pattern, std::mt19937_64& rng, size_t* others)
{
    std::vector<fr> v(n);
    size_t run = 0, cnt = 0;
    int run_kind = 0;
    for (size_t i = 0; i < n; ++i) {
        int kind = pattern < 3 ? pattern : 0;
        if (pattern == 3) {
            const auto r = rng() % 100;
            kind = r < 45 ? 0 : r < 90 ? 1 : 2;
        } else if (pattern == 4) {
            if (run == 0) {
                run = 1 + rng() % 300;
                run_kind = int(rng() % 3);
            }
            --run;
            kind = run_kind;
        }
        v[i] = kind == 0 ? fr::zero() : kind == 1 ? fr::one() : fr::random(rng);
        cnt += !v[i].is_zero() && !v[i].is_one();
    }
    if (others) *others = cnt;
    return v;
}

// "" when the circuit's parallel witness on `threads` threads equals a
// sequential synthesis on a witness_cs, else where they first differ.
inline std::string witness_mismatch(const r1cs::circuit& c, unsigned threads)
{
    r1cs::witness_cs w;
    c.synthesize(w);
    std::vector<fr> inputs, aux;
    if (!c.witness(inputs, aux, threads)) return "witness() returned false";
    auto first = [](std::span<const fr> a, std::span<const fr> b, const char* what) -> std::string {
        if (a.size() != b.size())
            return std::string(what) + ": " + std::to_string(a.size()) + " values, sequential " + std::to_string(b.size());
        for (size_t i = 0; i < a.size(); ++i)
            if (a[i] != b[i]) return std::string(what) + " differ first at " + std::to_string(i);
        return "";
    };
    const std::string in = first(inputs, w.inputs(), "inputs");
    return in.empty() ? first(aux, w.aux(), "aux") : in;
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
