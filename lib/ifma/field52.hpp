// cuzk — the IFMA kernels' view of a field (lib/ifma/ifma.hpp): which
// fields they cover, their constants in 52-bit limbs, and the factor
// between the R' form and the scalar code's Montgomery form. Internal to the
// library (lib/).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/bn254.hpp"
#include "ifma/ifma.hpp"

namespace cuzk::ifma {

// The fields the kernels cover: the base fields (MSM) and the scalar fields
// (NTT) of both curves.
template <class F>
inline constexpr bool vector_capable = std::is_same_v<F, bn254::fp> || std::is_same_v<F, fp> ||
                                       std::is_same_v<F, bn254::fr> || std::is_same_v<F, fr>;

// The 52-bit limbs of a number of W 64-bit words, L of them: limb i holds
// bits [52i, 52i + 52).
template <size_t W>
void to_limbs52(const uint64_t (&w)[W], uint64_t* r, unsigned limbs)
{
    for (unsigned i = 0; i < limbs; ++i) {
        const unsigned bit = 52 * i, word = bit / 64, off = bit % 64;
        uint64_t v = word < W ? w[word] >> off : 0;
        if (off > 12 && word + 1 < W) v |= w[word + 1] << (64 - off);
        r[i] = v & ((uint64_t{1} << 52) - 1);
    }
}

// L for the field F (R' = 2^(52·L) ≥ 2^(64·W)), and d = 52·L − 64·W: a value
// held in the R' form reads, in F's own arithmetic, as x·2^d.
template <class F>
inline constexpr unsigned limbs52 = F::N == 4 ? 5 : 8;
template <class F>
inline constexpr unsigned shift52 = 52 * limbs52<F> - 64 * unsigned(F::N);

template <class F>
F pow2(unsigned e)
{
    F r = F::one(), two = F::from_u64(2);
    for (unsigned i = 0; i < e; ++i) r *= two;
    return r;
}

// The kernels' constants for F, or nullptr where they do not apply (another
// field, or a CPU without AVX-512 IFMA).
template <class F>
const field52* vector_field()
{
    if constexpr (vector_capable<F>) {
        static const field52 f = [] {
            constexpr unsigned L = limbs52<F>, d = shift52<F>;
            field52 r{};
            r.limbs = L;
            to_limbs52(F::params::modulus.l, r.p, L);
            r.pinv = F::params::inv & ((uint64_t{1} << 52) - 1);
            // 2^k mod p as an integer is the Montgomery form (R = 2^(64W))
            // of 2^(k − 64W): R' ↔ 2^d, R'²/R ↔ 2^(2d), R ↔ 1.
            to_limbs52(pow2<F>(d).mont().l, r.one, L);
            to_limbs52(pow2<F>(2 * d).mont().l, r.to_vec, L);
            to_limbs52(F::one().mont().l, r.to_std, L);
            return r;
        }();
        return available() ? &f : nullptr;
    } else {
        return nullptr;
    }
}

// A value held in the R' form, read with F's own arithmetic, is x·2^d:
// this undoes that factor.
template <class F>
F from_rprime(const F& v)
{
    static const F inv = pow2<F>(shift52<F>).inverse();
    return v * inv;
}

} // namespace cuzk::ifma
