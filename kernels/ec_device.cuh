// cuzk kernels — G1 and G2 points over the device fields (BLS12-381 and BN254).
//
// The point formulas are the host templates of ec/point.hpp (affine, xyzz,
// jacobian over any field type), instantiated with the device fields of
// ff_device.cuh; only the curve tags are new. Layouts equal the host types
// (static_asserts below), so host point arrays copy to the device as is.
#pragma once

#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/bn254.hpp"
#include "ff_device.cuh"

namespace cuzk::dev {

// Curve tags: the device kernels never need b or the generator.
struct dg1_curve {};
struct dg2_curve {};

using dg1_affine = affine<dfp, dg1_curve>;
using dg1_xyzz = xyzz<dfp, dg1_curve>;
using dg2_affine = affine<dfp2, dg2_curve>;
using dg2_xyzz = xyzz<dfp2, dg2_curve>;

static_assert(sizeof(dg1_affine) == sizeof(g1_affine) && sizeof(dg1_xyzz) == sizeof(g1_xyzz));
static_assert(sizeof(dg2_affine) == sizeof(g2_affine) && sizeof(dg2_xyzz) == sizeof(g2_xyzz));

// BN254's groups (cuzk::bn254), with their own tags.
struct dbn_g1_curve {};
struct dbn_g2_curve {};
using dbn_g1_affine = affine<dbn_fp, dbn_g1_curve>;
using dbn_g1_xyzz = xyzz<dbn_fp, dbn_g1_curve>;
using dbn_g2_affine = affine<dbn_fp2, dbn_g2_curve>;
using dbn_g2_xyzz = xyzz<dbn_fp2, dbn_g2_curve>;
static_assert(sizeof(dbn_g1_affine) == sizeof(bn254::g1_affine) && sizeof(dbn_g1_xyzz) == sizeof(bn254::g1_xyzz));
static_assert(sizeof(dbn_g2_affine) == sizeof(bn254::g2_affine) && sizeof(dbn_g2_xyzz) == sizeof(bn254::g2_xyzz));

// Host ↔ device type pairs, for the bridges.
template <class HostAff>
struct device_types;
template <>
struct device_types<g1_affine> {
    using aff = dg1_affine;
    using xz = dg1_xyzz;
    using host_xz = g1_xyzz;
};
template <>
struct device_types<g2_affine> {
    using aff = dg2_affine;
    using xz = dg2_xyzz;
    using host_xz = g2_xyzz;
};
template <>
struct device_types<bn254::g1_affine> {
    using aff = dbn_g1_affine;
    using xz = dbn_g1_xyzz;
    using host_xz = bn254::g1_xyzz;
};
template <>
struct device_types<bn254::g2_affine> {
    using aff = dbn_g2_affine;
    using xz = dbn_g2_xyzz;
    using host_xz = bn254::g2_xyzz;
};

// ---- running sums in the redundant form -------------------------------------------------
// The MSM's hot loops add affine points into an XYZZ running sum. Where
// lazy_field<F> holds (a base field with the redundant form of
// ff_device.cuh), the sum's coordinates stay in [0, 2p) and its 8
// multiplications skip their final subtraction (the 2 squares keep theirs);
// acc_finish() makes the sum canonical before it leaves the loop. Each step
// computes the same residues as xyzz::add(affine), so the finished sum equals
// the canonical path's bit for bit. Other fields take the canonical formulas.
// Taken where it measured faster (H200, bench_gpu bm_msm, one run): BN254's
// G1 MSM 2^22 / 2^24 15.8 → 15.5 / 52.1 → 51.3 ms; BLS12-381's G1 MSM got
// slower (2^24 120 → 121, 2^26 428 → 432 ms), so it keeps the canonical
// formulas: there the final subtractions are integer-ALU work beside the
// multiply-adds, which set the pace.
template <class F>
inline constexpr bool lazy_field = false;
template <>
inline constexpr bool lazy_field<dbn_fp> = dbn_fp::has_lazy;

// madd-2008-s (xyzz::add(affine)) over the redundant form: a's coordinates
// in [0, 2p), q canonical; the identity is a with ZZ exactly 0 (a product of
// non-zero residues is never 0 or p, so no other sum has ZZ = 0).
template <class F, class C>
CUZK_INLINE xyzz<F, C> madd_lazy(const xyzz<F, C>& a, const affine<F, C>& q)
{
    if (q.is_identity()) return a;
    if (a.is_identity()) return q.to_xyzz();
    const F u2 = F::mul_lazy(q.x, a.zz), s2 = F::mul_lazy(q.y, a.zzz);
    const F P = F::sub_lazy(u2, a.x), R = F::sub_lazy(s2, a.y);
    if (P.is_zero_mod()) return R.is_zero_mod() ? xyzz<F, C>::dbl_affine(q) : xyzz<F, C>::identity();
    const F PP = F::sqr_lazy(P), PPP = F::mul_lazy(P, PP), Q = F::mul_lazy(a.x, PP);
    const F X3 = F::sub_lazy(F::sub_lazy(F::sqr_lazy(R), PPP), F::add_lazy(Q, Q));
    const F Y3 = F::sub_lazy(F::mul_lazy(R, F::sub_lazy(Q, X3)), F::mul_lazy(a.y, PPP));
    return {X3, Y3, F::mul_lazy(a.zz, PP), F::mul_lazy(a.zzz, PPP)};
}
template <class F, class C>
CUZK_INLINE void acc_add(xyzz<F, C>& acc, const affine<F, C>& q)
{
    if constexpr (lazy_field<F>) acc = madd_lazy(acc, q);
    else acc = acc.add(q);
}
template <class F, class C>
CUZK_INLINE xyzz<F, C> acc_finish(const xyzz<F, C>& acc)
{
    if constexpr (lazy_field<F>) return {acc.x.canonical(), acc.y.canonical(), acc.zz.canonical(), acc.zzz.canonical()};
    else return acc;
}

// Out-of-line point operations for the cold paths (partial sums, bucket
// reduction): ptxas then compiles each formula once per translation unit
// instead of once per call site (an inlined G1 XYZZ addition is ~9000
// instructions; the reduction kernel with four inlined operations took 100 s
// of ptxas and spilled). The hot loop (msm_runs over points) keeps its mixed
// addition inline.
#if defined(__CUDACC__)
#define CUZK_NOINLINE_HD __host__ __device__ __noinline__
#else
#define CUZK_NOINLINE_HD
#endif
template <class Xz>
CUZK_NOINLINE_HD Xz point_add(const Xz& a, const Xz& b)
{
    return a.add(b);
}
template <class Xz>
CUZK_NOINLINE_HD Xz point_dbl(const Xz& a)
{
    return a.dbl();
}

} // namespace cuzk::dev
