// cuzk — randomness from the operating system's CSPRNG (getrandom(2)).
// Used for the prover's blinding factors r and s and for the development
// setup. Never a seeded PRNG.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/ff/bls12_381.hpp"

namespace cuzk {

// Fills buf with n bytes from the OS CSPRNG; throws cuzk::error(errc::io) on failure.
void os_random_bytes(void* buf, size_t n);

// A uniformly random element of Fr (rejection sampling on 255-bit draws).
fr os_random_fr();

// A 64-bit URBG over the OS CSPRNG, for templates that take a generator.
struct os_rng {
    using result_type = uint64_t;
    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return ~result_type{0}; }
    result_type operator()();
};

} // namespace cuzk
