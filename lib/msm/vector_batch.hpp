// cuzk — the CPU MSM's batch-affine additions on the eight-lane IFMA kernels
// (ifma.hpp), for fields they cover (BN254's Fp): the field's constants in
// 52-bit limbs, the shared inversion of a batch's eight lane products, and
// the padding of a batch to a multiple of eight. Internal to lib/msm.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "cuzk/ec/bn254.hpp"
#include "ifma.hpp"

namespace cuzk::msm_detail {

// The fields the kernels cover.
template <class F>
inline constexpr bool vector_capable = std::is_same_v<F, bn254::fp>;

// Four 64-bit limbs → five 52-bit limbs.
inline void to_limbs52(const uint64_t (&w)[4], uint64_t (&r)[5])
{
    constexpr uint64_t m = (uint64_t{1} << 52) - 1;
    r[0] = w[0] & m;
    r[1] = ((w[0] >> 52) | (w[1] << 12)) & m;
    r[2] = ((w[1] >> 40) | (w[2] << 24)) & m;
    r[3] = ((w[2] >> 28) | (w[3] << 36)) & m;
    r[4] = w[3] >> 16;
}

// The kernels' constants for F, or nullptr where they do not apply (another
// field, or a CPU without AVX-512 IFMA).
template <class F>
const ifma::field52* vector_field()
{
    if constexpr (vector_capable<F>) {
        static const ifma::field52 f = [] {
            ifma::field52 r{};
            to_limbs52(F::params::modulus.l, r.p);
            r.pinv = F::params::inv & ((uint64_t{1} << 52) - 1);
            // x·2^k mod p as an integer is the Montgomery form (R = 2^256)
            // of 2^(k−256): 2^260 ↔ 16, 2^264 ↔ 256, 2^256 ↔ 1.
            to_limbs52(F::from_u64(16).mont().l, r.one);
            to_limbs52(F::from_u64(256).mont().l, r.to_vec);
            to_limbs52(F::one().mont().l, r.to_std);
            return r;
        }();
        return ifma::available() ? &f : nullptr;
    } else {
        return nullptr;
    }
}

// A value held in the R' form (x·2^260), read with F's own arithmetic,
// is 16·x: these undo and redo that factor.
template <class F>
F from_rprime(const F& v)
{
    static const F inv16 = F::from_u64(16).inverse();
    return v * inv16;
}

// invert8 for the kernels: the eight values are R'-form X'_i, i.e. y_i = 16·x_i
// in F; the R'-form of 1/x_i is, in F, 16/x_i = 256/y_i. One inversion for
// the eight (Montgomery's trick).
template <class F>
void invert8_rprime(uint64_t (*v)[4], const void*)
{
    F y[8], pre[8];
    F acc = F::one();
    for (int i = 0; i < 8; ++i) {
        typename F::repr r;
        for (int w = 0; w < 4; ++w) r.l[w] = v[i][w];
        y[i] = F::from_mont(r);
        pre[i] = acc;
        acc *= y[i];
    }
    static const F k256 = F::from_u64(256);
    F inv = acc.inverse();
    for (int i = 8; i-- > 0;) {
        const F z = inv * pre[i] * k256;
        inv *= y[i];
        const auto m = z.mont();
        for (int w = 0; w < 4; ++w) v[i][w] = m.l[w];
    }
}

// Batches handed to ifma::batch_add: pointer arrays padded to a multiple of
// eight with additions of a fixed point to a scratch bucket (x differ, so
// the shared product stays non-zero; the scratch bucket's result is
// dropped).
template <class F, class C, bool = vector_capable<F>>
struct vector_batch {
    const ifma::field52* field = nullptr;   // never set: F is not covered
};

template <class F, class C>
struct vector_batch<F, C, true> {
    using aff = affine<F, C>;
    static_assert(sizeof(aff) == 8 * sizeof(uint64_t), "affine points of four-limb coordinates");

    const ifma::field52* field = nullptr;
    std::vector<const uint64_t*> pt;
    std::vector<uint64_t*> bk;
    std::vector<uint8_t> neg;
    std::vector<uint64_t> scratch;
    aff pad_point{F::one(), F::zero()}, pad_bucket{};

    // Adds, for each j < n, point(j) (negated when negate(j)) to bucket(j).
    template <class Point, class Bucket, class Negate>
    void run(size_t n, Point&& point, Bucket&& bucket, Negate&& negate)
    {
        const size_t m = (n + 7) / 8 * 8;
        pt.resize(m);
        bk.resize(m);
        neg.resize(m);
        if (scratch.size() < ifma::scratch_words(m)) scratch.resize(ifma::scratch_words(m));
        for (size_t j = 0; j < n; ++j) {
            pt[j] = point(j).x.l;
            bk[j] = bucket(j).x.l;
            neg[j] = negate(j) ? 1 : 0;
        }
        pad_bucket = aff{};
        for (size_t j = n; j < m; ++j) {
            pt[j] = pad_point.x.l;
            bk[j] = pad_bucket.x.l;
            neg[j] = 0;
        }
        ifma::batch_add(*field, {m, pt.data(), bk.data(), neg.data()}, scratch.data(), &invert8_rprime<F>, nullptr);
    }
};

} // namespace cuzk::msm_detail
