// cuzk — the CPU MSM's batch-affine additions on the eight-lane IFMA kernels
// (ifma.hpp), for the fields they cover (the base fields of BN254 and
// BLS12-381): the field's constants in 52-bit limbs, the shared inversion of
// a batch's eight lane products, and the padding of a batch to a multiple
// of eight. Internal to lib/msm.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "cuzk/ec/point.hpp"
#include "ifma/field52.hpp"
#include "ifma/ifma.hpp"

namespace cuzk::msm_detail {

using ifma::from_rprime;
using ifma::pow2;
using ifma::shift52;
using ifma::vector_capable;
using ifma::vector_field;

// invert8 for the kernels: the eight values are R'-form X'_i, i.e. y_i =
// x_i·2^d in F; the R'-form of 1/x_i is, in F, 2^d/x_i = 2^(2d)/y_i. One
// inversion for the eight (Montgomery's trick).
template <class F>
void invert8_rprime(uint64_t (*v)[6], const void*)
{
    constexpr size_t W = F::N;
    F y[8], pre[8];
    F acc = F::one();
    for (int i = 0; i < 8; ++i) {
        typename F::repr r;
        for (size_t w = 0; w < W; ++w) r.l[w] = v[i][w];
        y[i] = F::from_mont(r);
        pre[i] = acc;
        acc *= y[i];
    }
    static const F k = pow2<F>(2 * shift52<F>);
    F inv = acc.inverse();
    for (int i = 8; i-- > 0;) {
        const F z = inv * pre[i] * k;
        inv *= y[i];
        const auto m = z.mont();
        for (size_t w = 0; w < W; ++w) v[i][w] = m.l[w];
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
    static_assert(sizeof(aff) == 2 * F::N * sizeof(uint64_t), "affine points are x then y, no padding");

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
        if (scratch.size() < ifma::scratch_words(m, field->limbs))
            scratch.resize(ifma::scratch_words(m, field->limbs));
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
