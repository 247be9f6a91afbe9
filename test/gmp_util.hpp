// Test helpers: GMP as the independent reference for field arithmetic.
#pragma once

#include <gmp.h>

#include <cstdint>
#include <random>
#include <string>

#include "cuzk/ff/bigint.hpp"

namespace cuzk::test {

// RAII mpz_t.
struct mpz {
    mpz_t v;
    mpz() { mpz_init(v); }
    explicit mpz(const char* dec) { mpz_init_set_str(v, dec, 10); }
    mpz(const mpz& o) { mpz_init_set(v, o.v); }
    mpz& operator=(const mpz& o) { mpz_set(v, o.v); return *this; }
    ~mpz() { mpz_clear(v); }
    operator mpz_ptr() { return v; }
    operator mpz_srcptr() const { return v; }
    std::string hex() const
    {
        char* s = mpz_get_str(nullptr, 16, v);
        std::string r(s);
        void (*freefunc)(void*, size_t);
        mp_get_memory_functions(nullptr, nullptr, &freefunc);
        freefunc(s, r.size() + 1);
        return r;
    }
};

template <size_t N>
mpz to_mpz(const bigint<N>& b)
{
    mpz r;
    mpz_import(r.v, N, -1, sizeof(uint64_t), 0, 0, b.l);
    return r;
}

template <size_t N>
bigint<N> from_mpz(const mpz& m)
{
    bigint<N> b = bigint<N>::zero();
    size_t count = 0;
    mpz_export(b.l, &count, -1, sizeof(uint64_t), 0, 0, m.v);
    return b;
}

// Seed printed by each test that uses randomness, so failures reproduce.
inline uint64_t test_seed()
{
    static const uint64_t seed = [] {
        const char* e = std::getenv("CUZK_TEST_SEED");
        return e ? std::strtoull(e, nullptr, 0) : uint64_t(std::random_device{}()) << 32 | std::random_device{}();
    }();
    return seed;
}

} // namespace cuzk::test
