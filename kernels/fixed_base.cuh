// cuzk kernels — fixed-base scalar multiplication k·G on G1 and G2 for the
// device-side setup (backend/gpu_setup.hpp; the bridge:
// lib/backend/bridge/setup_bridge.hpp).
//
// Table: for W = ⌈255/w⌉ windows of w bits (scalars are below r < 2^255),
// table[k·(2^w − 1) + d − 1] = d·2^(wk)·G in affine form, built on the host
// and kept in device memory (w = 16: 16·65535 points, 6.3 MB per window in
// G1, 101 MB in all; 201 MB in G2).
//
// fb_mul_kernel: one thread per scalar. The Montgomery scalar is made
// canonical by one multiplication with the raw integer 1 (a·R·1·R⁻¹ = a),
// then acc = Σ_k table[k][digit_k] by W − 1 mixed XYZZ additions (8M + 2S
// each, no doubling), the result stored in XYZZ form.
//
// fb_affine_kernel: batch conversion to affine. Thread t owns the points
// t, t + T, t + 2T, … (T threads; the warp's loads are coalesced) and runs
// Montgomery's trick over them: prefix products of d = ZZ·ZZZ (kept in the
// output's x slot, the same field type), one inversion (Fermat, ~381
// squarings + ~190 multiplications in Fp), then per point 1/d and
// x = X·ZZZ/d = X/ZZ, y = Y·ZZ/d = Y/ZZZ. With 16 points per thread the
// inversion costs ~36 Fp multiplications per point and every thread works
// (a per-block inversion leaves all but one thread idle during the ~570
// multiplications of the inversion; G1 registers allow 1–2 blocks per SM,
// so nothing hides it). Identity points (zero scalars) give (0, 0).
//
// Cost per G1 point with w = 16: 15 mixed additions (~150 Fp M) + ~45 M for
// the affine form; G2 the same count of Fp2 operations (~3 Fp M each).
#pragma once

#include <cstddef>
#include <cstdint>

#include "ec_device.cuh"
#include "ff_device.cuh"

namespace cuzk::dev {

// a^(p − 2) = a⁻¹ in the base field (0 ↦ 0). Out of line: one body per field.
template <class F>
CUZK_NOINLINE_HD F field_inverse(const F& a)
{
    uint32_t e[F::n];
    uint32_t borrow = 2;
    for (int i = 0; i < F::n; ++i) {
        const uint32_t p = F::pw(i);
        e[i] = p - borrow;
        borrow = p < borrow ? 1u : 0u;
    }
    F r = F::one();
    for (int i = F::n * 32 - 1; i >= 0; --i) {
        r = r.sqr();
        if ((e[i >> 5] >> (i & 31)) & 1u) r = r * a;
    }
    return r;
}
CUZK_HD inline dfp inverse_of(const dfp& a) { return field_inverse(a); }
// (c0 + c1·u)⁻¹ = (c0 − c1·u)/(c0² + c1²) since u² = −1.
CUZK_HD inline dfp2 inverse_of(const dfp2& a)
{
    const dfp t = field_inverse(a.c0.sqr() + a.c1.sqr());
    return {a.c0 * t, -(a.c1 * t)};
}

// Bits [pos, pos + w) of a canonical scalar held as 8 little-endian words (w ≤ 24).
CUZK_HD inline uint32_t scalar_digit(const uint32_t* k, unsigned pos, unsigned w)
{
    const unsigned lo = pos >> 5, sh = pos & 31;
    if (lo >= 8) return 0;
    uint64_t v = k[lo];
    if (lo + 1 < 8) v |= uint64_t(k[lo + 1]) << 32;
    return uint32_t(v >> sh) & ((1u << w) - 1);
}

#if defined(__CUDACC__)
template <class Aff, class Xz>
__global__ void fb_mul_kernel(const Aff* table, unsigned w, unsigned windows, const dfr* k, Xz* out, size_t n)
{
    const size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
    if (i >= n) return;
    dfr raw_one = dfr::zero();
    raw_one.w[0] = 1;
    const dfr c = k[i] * raw_one;   // canonical
    const size_t per = (size_t{1} << w) - 1;
    Xz acc = Xz::identity();
    for (unsigned win = 0; win < windows; ++win) {
        const uint32_t d = scalar_digit(c.w, win * w, w);
        if (d) acc = acc.add(table[win * per + d - 1]);
    }
    out[i] = acc;
}

template <class Aff, class Xz>
__global__ void fb_affine_kernel(const Xz* in, Aff* out, size_t n, size_t stride)
{
    using F = decltype(Aff{}.x);
    const size_t t = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
    if (t >= stride) return;
    F acc = F::one();
    size_t cnt = 0;
    for (size_t idx = t; idx < n; idx += stride, ++cnt) {
        const Xz& p = in[idx];
        out[idx].x = acc;
        if (!p.is_identity()) acc = acc * (p.zz * p.zzz);
    }
    F inv = inverse_of(acc);
    for (size_t j = cnt; j-- > 0;) {
        const size_t idx = t + j * stride;
        const Xz p = in[idx];
        if (p.is_identity()) {
            out[idx] = Aff::identity();
            continue;
        }
        const F d = p.zz * p.zzz;
        const F di = inv * out[idx].x;   // 1/(ZZ·ZZZ)
        inv = inv * d;
        out[idx].x = p.x * (di * p.zzz);
        out[idx].y = p.y * (di * p.zz);
    }
}
#endif

} // namespace cuzk::dev
