// cuzk — CPU bucket arithmetic shared by the MSM and the 0/1 sum: the
// complete in-place XYZZ mixed addition, and lane sums (a fixed set of
// accumulators fed by batch-affine additions that share one inversion).
// Internal to lib/msm.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuzk/ec/point.hpp"
#include "vector_batch.hpp"

namespace cuzk::msm_detail {

// In-place XYZZ mixed addition b += (qx, qy), madd-2008-s (8M + 2S); equal x
// falls back to the affine doubling or to the identity, and an empty bucket
// takes the point itself, so the addition is complete.
template <class F, class C>
CUZK_INLINE void xyzz_madd_inplace(xyzz<F, C>& b, const F& qx, const F& qy)
{
    if (b.is_identity()) {
        b = {qx, qy, F::one(), F::one()};
        return;
    }
    const F u2 = qx * b.zz, s2 = qy * b.zzz;
    const F P = u2 - b.x, R = s2 - b.y;
    if (P.is_zero()) {
        if (R.is_zero()) b = xyzz<F, C>::dbl_affine({qx, qy});
        else b.zz = b.zzz = F::zero();
        return;
    }
    const F PP = P.sqr(), PPP = P * PP, Q = b.x * PP;
    const F X3 = R.sqr() - PPP - Q.dbl();
    b.y = R * (Q - X3) - b.y * PPP;
    b.x = X3;
    b.zz *= PP;
    b.zzz *= PPP;
}

// Lanes: L accumulators, each an affine point (when occupied) plus an XYZZ
// side part. Points are added in rounds; the additions of one round must
// name distinct lanes, and end_round() applies them with one inversion of
// the product of their x differences (Montgomery's trick): per addition
// 3M for the trick and 2M + 1S for the affine formulas, plus I/(round size).
// A point with the x of its lane (±the lane's point) goes to the side part,
// whose complete formulas handle doubling and cancellation, so no
// denominator is zero. A lane's value is total(l) = affine + side.
// Added points are read by address at end_round(): they must stay put
// until then.
//
// With vec set (and its field), the affine points added and the lanes are in
// the IFMA kernels' R' form (vector_batch.hpp) and end_round() runs on the
// kernels; to_standard() converts the lanes back before total() or sum_all().
// The side parts stay in the scalar form.
template <class F, class C>
struct lane_sums {
    using aff = affine<F, C>;
    using xz = xyzz<F, C>;

    vector_batch<F, C>* vec = nullptr;

    std::vector<aff> lane;
    std::vector<uint8_t> occ;
    std::vector<xz> side;
    std::vector<uint32_t> bl;     // lane of pending addition j
    std::vector<const aff*> bp;   // its point
    std::vector<F> dx, pre;
    size_t pending = 0;

    // L lanes, all empty; rounds of at most round_max additions.
    void reset(size_t lanes, size_t round_max)
    {
        lane.resize(lanes);
        occ.assign(lanes, 0);
        side.assign(lanes, xz::identity());
        if (bl.size() < round_max) {
            bl.resize(round_max);
            bp.resize(round_max);
            dx.resize(round_max);
            pre.resize(round_max);
        }
        pending = 0;
    }

    void add(size_t l, const aff& p)
    {
        if (!occ[l]) {
            lane[l] = p;
            occ[l] = 1;
        } else if (lane[l].x == p.x) {
            if constexpr (vector_capable<F>) {
                if (vec && vec->field) {
                    xyzz_madd_inplace(side[l], from_rprime(p.x), from_rprime(p.y));
                    return;
                }
            }
            xyzz_madd_inplace(side[l], p.x, p.y);
        } else {
            bl[pending] = uint32_t(l);
            bp[pending] = &p;
            ++pending;
        }
    }

    void add_side(size_t l, const xz& q) { side[l] = side[l].add(q); }

    void end_round()
    {
        const size_t n = pending;
        if (!n) return;
        if constexpr (vector_capable<F>) {
            if (vec && vec->field) {
                vec->run(
                    n, [&](size_t j) -> const aff& { return *bp[j]; }, [&](size_t j) -> aff& { return lane[bl[j]]; },
                    [](size_t) { return false; });
                pending = 0;
                return;
            }
        }
        F acc = F::one();
        for (size_t j = 0; j < n; ++j) {
            dx[j] = bp[j]->x - lane[bl[j]].x;
            pre[j] = acc;
            acc *= dx[j];
        }
        F inv = acc.inverse();
        for (size_t j = n; j-- > 0;) {
            aff& a = lane[bl[j]];
            F ij = inv;
            if (j) {
                ij = inv * pre[j];
                inv *= dx[j];
            }
            const F lambda = (bp[j]->y - a.y) * ij;
            const F x3 = lambda.sqr() - a.x - bp[j]->x;
            a.y = lambda * (a.x - x3) - a.y;
            a.x = x3;
        }
        pending = 0;
    }

    // The lanes from the R' form back to the scalar form (with vec set).
    void to_standard()
    {
        if constexpr (vector_capable<F>)
            if (vec && vec->field && !lane.empty()) ifma::convert(*vec->field, lane[0].x.l, 2 * lane.size(), F::N, false);
    }

    xz total(size_t l) const { return occ[l] ? side[l].add(lane[l]) : side[l]; }

    // Σ_l total(l): the side parts (mostly empty) by full additions, the
    // affine parts by mixed ones.
    xz sum_all() const
    {
        xz s = xz::identity();
        for (const xz& q : side)
            if (!q.is_identity()) s = s.add(q);
        for (size_t l = 0; l < lane.size(); ++l)
            if (occ[l]) xyzz_madd_inplace(s, lane[l].x, lane[l].y);
        return s;
    }
};

} // namespace cuzk::msm_detail
