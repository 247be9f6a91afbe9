// cuzk — randomness: the operating system's CSPRNG (getrandom(2)) for the
// prover's blinding factors r and s and the development setup; and splitmix64,
// a seeded generator for reproducible test inputs only (synthetic circuits,
// seeded toxic waste in tests and benchmarks) — never for anything secret.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/ff/bls12_381.hpp"

namespace cuzk {

// Fills buf with n bytes from the OS CSPRNG; throws cuzk::error(errc::io) on failure.
void os_random_bytes(void* buf, size_t n);

// A 64-bit URBG over the OS CSPRNG, for templates that take a generator.
struct os_rng {
    using result_type = uint64_t;
    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return ~result_type{0}; }
    result_type operator()();
};

// A uniformly random element of a scalar field F (rejection sampling on
// draws of the modulus' bit length): BLS12-381's Fr by default, BN254's with
// os_random_fr<bn254::fr>().
template <class F = fr>
F os_random_fr()
{
    os_rng rng;
    return F::random(rng);
}

// splitmix64 (Steele, Lea, Flood 2014): a small, fast, seedable 64-bit URBG
// (for fr::random and the like). Reproducible, NOT cryptographic.
struct splitmix64 {
    using result_type = uint64_t;
    uint64_t s;
    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return ~result_type{0}; }
    result_type operator()()
    {
        uint64_t z = (s += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    // Uniform below n (n >= 1), by a 32×32 multiply-shift.
    uint32_t below(uint32_t n) { return uint32_t((uint64_t(uint32_t((*this)())) * n) >> 32); }
    // Uniform in [0, 1).
    double unit() { return double((*this)() >> 11) * 0x1.0p-53; }
};

} // namespace cuzk
