// cuzk — short Weierstrass points y² = x³ + b (a = 0), templates over the
// coordinate field F and a curve description C (C::b(): the constant b).
//
// Three representations, all host+device:
//   affine<F,C>    (x, y); the point at infinity is (0, 0), which is not on
//                  the curve since b ≠ 0. This is also the in-memory layout
//                  of snarkjs points after conversion, so buffers copy bitwise.
//   jacobian<F,C>  (X, Y, Z) ↦ (X/Z², Y/Z³); infinity has Z = 0.
//   xyzz<F,C>      (X, Y, ZZ, ZZZ) ↦ (X/ZZ, Y/ZZZ) with ZZ³ = ZZZ²; infinity
//                  has ZZ = 0. Cheapest for accumulating affine points
//                  (mixed addition 8M + 2S), so MSM buckets use it.
//
// Formula costs (M = multiplication, S = squaring in F), from the
// Explicit-Formulas Database (hyperelliptic.org/EFD, "shortw"):
//   jacobian dbl  dbl-2009-l       2M + 5S
//   jacobian add  add-2007-bl     11M + 5S
//   jacobian madd madd-2007-bl     7M + 4S
//   xyzz     dbl  dbl-2008-s-1     6M + 3S
//   xyzz     add  add-2008-s      12M + 2S
//   xyzz     madd madd-2008-s      8M + 2S
// Additions detect equal and opposite inputs and fall back to doubling or to
// infinity, so every formula is complete over the group.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cuzk/config.hpp"
#include "cuzk/ff/bigint.hpp"

namespace cuzk {

template <class F, class C>
struct jacobian;
template <class F, class C>
struct xyzz;

template <class F, class C>
struct affine {
    F x, y;

    CUZK_HD static constexpr affine identity() { return {F::zero(), F::zero()}; }
    CUZK_HD static constexpr affine generator() { return C::generator(); }
    CUZK_HD constexpr bool is_identity() const { return x.is_zero() && y.is_zero(); }
    CUZK_HD bool is_on_curve() const
    {
        if (is_identity()) return true;
        return y.sqr() == x.sqr() * x + C::b();
    }
    CUZK_HD affine operator-() const
    {
        if (is_identity()) return *this;
        return {x, -y};
    }
    CUZK_HD friend bool operator==(const affine& a, const affine& b) { return a.x == b.x && a.y == b.y; }
    CUZK_HD friend bool operator!=(const affine& a, const affine& b) { return !(a == b); }
    CUZK_HD jacobian<F, C> to_jacobian() const;
    CUZK_HD xyzz<F, C> to_xyzz() const;
};

template <class F, class C>
struct jacobian {
    F x, y, z;

    CUZK_HD static constexpr jacobian identity() { return {F::one(), F::one(), F::zero()}; }
    CUZK_HD constexpr bool is_identity() const { return z.is_zero(); }
    CUZK_HD jacobian operator-() const { return {x, -y, z}; }

    // Projective equality: X1·Z2² = X2·Z1² and Y1·Z2³ = Y2·Z1³.
    CUZK_HD friend bool operator==(const jacobian& a, const jacobian& b)
    {
        if (a.is_identity() || b.is_identity()) return a.is_identity() && b.is_identity();
        const F z1z1 = a.z.sqr(), z2z2 = b.z.sqr();
        if (a.x * z2z2 != b.x * z1z1) return false;
        return a.y * z2z2 * b.z == b.y * z1z1 * a.z;
    }
    CUZK_HD friend bool operator!=(const jacobian& a, const jacobian& b) { return !(a == b); }

    // dbl-2009-l: A = X², B = Y², C = B², D = 2((X + B)² − A − C), E = 3A,
    // X3 = E² − 2D, Y3 = E(D − X3) − 8C, Z3 = 2YZ.
    CUZK_HD jacobian dbl() const
    {
        if (is_identity()) return *this;
        const F A = x.sqr(), B = y.sqr(), Cc = B.sqr();
        const F D = ((x + B).sqr() - A - Cc).dbl();
        const F E = A.dbl() + A;
        const F X3 = E.sqr() - D.dbl();
        const F C8 = Cc.dbl().dbl().dbl();
        return {X3, E * (D - X3) - C8, (y * z).dbl()};
    }

    // add-2007-bl.
    CUZK_HD jacobian add(const jacobian& q) const
    {
        if (is_identity()) return q;
        if (q.is_identity()) return *this;
        const F z1z1 = z.sqr(), z2z2 = q.z.sqr();
        const F u1 = x * z2z2, u2 = q.x * z1z1;
        const F s1 = y * q.z * z2z2, s2 = q.y * z * z1z1;
        const F h = u2 - u1;
        const F r = (s2 - s1).dbl();
        if (h.is_zero()) return r.is_zero() ? dbl() : identity();
        const F i = h.dbl().sqr();
        const F j = h * i;
        const F v = u1 * i;
        const F X3 = r.sqr() - j - v.dbl();
        const F Y3 = r * (v - X3) - (s1 * j).dbl();
        const F Z3 = ((z + q.z).sqr() - z1z1 - z2z2) * h;
        return {X3, Y3, Z3};
    }

    // madd-2007-bl: the second operand is affine (Z2 = 1).
    CUZK_HD jacobian add(const affine<F, C>& q) const
    {
        if (q.is_identity()) return *this;
        if (is_identity()) return q.to_jacobian();
        const F z1z1 = z.sqr();
        const F u2 = q.x * z1z1, s2 = q.y * z * z1z1;
        const F h = u2 - x;
        const F r = (s2 - y).dbl();
        if (h.is_zero()) return r.is_zero() ? dbl() : identity();
        const F hh = h.sqr();
        const F i = hh.dbl().dbl();
        const F j = h * i;
        const F v = x * i;
        const F X3 = r.sqr() - j - v.dbl();
        const F Y3 = r * (v - X3) - (y * j).dbl();
        const F Z3 = (z + h).sqr() - z1z1 - hh;
        return {X3, Y3, Z3};
    }

    CUZK_HD affine<F, C> to_affine() const
    {
        if (is_identity()) return affine<F, C>::identity();
        const F zi = z.inverse(), zi2 = zi.sqr();
        return {x * zi2, y * zi2 * zi};
    }
    CUZK_HD xyzz<F, C> to_xyzz() const
    {
        if (is_identity()) return xyzz<F, C>::identity();
        const F zz = z.sqr();
        return {x, y, zz, zz * z};
    }
};

template <class F, class C>
struct xyzz {
    F x, y, zz, zzz;

    CUZK_HD static constexpr xyzz identity() { return {F::one(), F::one(), F::zero(), F::zero()}; }
    CUZK_HD constexpr bool is_identity() const { return zz.is_zero(); }
    CUZK_HD xyzz operator-() const { return {x, -y, zz, zzz}; }

    // dbl-2008-s-1 (a = 0): U = 2Y, V = U², W = UV, S = XV, M = 3X²,
    // X3 = M² − 2S, Y3 = M(S − X3) − WY, ZZ3 = V·ZZ, ZZZ3 = W·ZZZ.
    CUZK_HD xyzz dbl() const
    {
        if (is_identity()) return *this;
        const F U = y.dbl(), V = U.sqr(), W = U * V, S = x * V;
        const F X2 = x.sqr();
        const F M = X2.dbl() + X2;
        const F X3 = M.sqr() - S.dbl();
        return {X3, M * (S - X3) - W * y, V * zz, W * zzz};
    }

    // mdbl-2008-s-1: doubling of an affine point into xyzz.
    CUZK_HD static xyzz dbl_affine(const affine<F, C>& p)
    {
        if (p.is_identity()) return identity();
        const F U = p.y.dbl(), V = U.sqr(), W = U * V, S = p.x * V;
        const F X2 = p.x.sqr();
        const F M = X2.dbl() + X2;
        const F X3 = M.sqr() - S.dbl();
        return {X3, M * (S - X3) - W * p.y, V, W};
    }

    // add-2008-s: U1 = X1·ZZ2, U2 = X2·ZZ1, S1 = Y1·ZZZ2, S2 = Y2·ZZZ1,
    // P = U2 − U1, R = S2 − S1, PP = P², PPP = P·PP, Q = U1·PP,
    // X3 = R² − PPP − 2Q, Y3 = R(Q − X3) − S1·PPP, ZZ3 = ZZ1·ZZ2·PP, ZZZ3 = ZZZ1·ZZZ2·PPP.
    CUZK_HD xyzz add(const xyzz& q) const
    {
        if (is_identity()) return q;
        if (q.is_identity()) return *this;
        const F u1 = x * q.zz, u2 = q.x * zz;
        const F s1 = y * q.zzz, s2 = q.y * zzz;
        const F P = u2 - u1, R = s2 - s1;
        if (P.is_zero()) return R.is_zero() ? dbl() : identity();
        const F PP = P.sqr(), PPP = P * PP, Q = u1 * PP;
        const F X3 = R.sqr() - PPP - Q.dbl();
        return {X3, R * (Q - X3) - s1 * PPP, zz * q.zz * PP, zzz * q.zzz * PPP};
    }

    // madd-2008-s: U2 = X2·ZZ1, S2 = Y2·ZZZ1, P = U2 − X1, R = S2 − Y1,
    // PP = P², PPP = P·PP, Q = X1·PP, X3 = R² − PPP − 2Q,
    // Y3 = R(Q − X3) − Y1·PPP, ZZ3 = ZZ1·PP, ZZZ3 = ZZZ1·PPP.
    CUZK_HD xyzz add(const affine<F, C>& q) const
    {
        if (q.is_identity()) return *this;
        if (is_identity()) return q.to_xyzz();
        const F u2 = q.x * zz, s2 = q.y * zzz;
        const F P = u2 - x, R = s2 - y;
        if (P.is_zero()) return R.is_zero() ? dbl_affine(q) : identity();
        const F PP = P.sqr(), PPP = P * PP, Q = x * PP;
        const F X3 = R.sqr() - PPP - Q.dbl();
        return {X3, R * (Q - X3) - y * PPP, zz * PP, zzz * PPP};
    }
    // Mixed subtraction: add the negated affine point.
    CUZK_HD xyzz sub(const affine<F, C>& q) const { return add(-q); }

    CUZK_HD affine<F, C> to_affine() const
    {
        if (is_identity()) return affine<F, C>::identity();
        // One inversion: 1/ZZ = ZZZ/(ZZ·ZZZ) and 1/ZZZ = ZZ/(ZZ·ZZZ).
        const F t = (zz * zzz).inverse();   // 1/(ZZ·ZZZ)
        const F izz = t * zzz;               // 1/ZZ
        const F izzz = t * zz;               // 1/ZZZ
        return {x * izz, y * izzz};
    }
    CUZK_HD jacobian<F, C> to_jacobian() const
    {
        if (is_identity()) return jacobian<F, C>::identity();
        // No inversion: take Z = ZZ·ZZZ; then X' = X·Z²/ZZ = X·ZZ·ZZZ² and
        // Y' = Y·Z³/ZZZ = Y·ZZ³·ZZZ² describe the same point.
        const F Z = zz * zzz;
        const F zzz2 = zzz.sqr();
        return {x * zz * zzz2, y * zz.sqr() * zz * zzz2, Z};
    }
    CUZK_HD friend bool operator==(const xyzz& a, const xyzz& b)
    {
        if (a.is_identity() || b.is_identity()) return a.is_identity() && b.is_identity();
        return a.x * b.zz == b.x * a.zz && a.y * b.zzz == b.y * a.zzz;
    }
};

template <class F, class C>
CUZK_HD jacobian<F, C> affine<F, C>::to_jacobian() const
{
    if (is_identity()) return jacobian<F, C>::identity();
    return {x, y, F::one()};
}
template <class F, class C>
CUZK_HD xyzz<F, C> affine<F, C>::to_xyzz() const
{
    if (is_identity()) return xyzz<F, C>::identity();
    return {x, y, F::one(), F::one()};
}

// [k]P by a fixed 4-bit window, most significant window first:
// 15 precomputed multiples (7 doublings-or-additions), then per 4 bits
// 4 doublings and at most one addition. k is any unsigned bigint.
template <class F, class C, size_t M>
CUZK_HD jacobian<F, C> scalar_mul(const jacobian<F, C>& p, const bigint<M>& k)
{
    jacobian<F, C> tbl[16];
    tbl[0] = jacobian<F, C>::identity();
    tbl[1] = p;
    for (int i = 2; i < 16; ++i) tbl[i] = (i & 1) ? tbl[i - 1].add(p) : tbl[i / 2].dbl();
    jacobian<F, C> r = jacobian<F, C>::identity();
    const size_t nb = k.num_bits();
    for (size_t w = (nb + 3) / 4; w-- > 0;) {
        r = r.dbl().dbl().dbl().dbl();
        const uint32_t d = k.bits(4 * w, 4);
        if (d) r = r.add(tbl[d]);
    }
    return r;
}
template <class F, class C, size_t M>
CUZK_HD jacobian<F, C> scalar_mul(const affine<F, C>& p, const bigint<M>& k)
{
    return scalar_mul(p.to_jacobian(), k);
}

// Batch conversion to affine with one inversion (Montgomery's trick):
// 3(n−1) multiplications plus one inversion instead of n inversions.
// Identity points map to the affine identity. Host only.
template <class F, class C>
void batch_to_affine(const jacobian<F, C>* in, affine<F, C>* out, size_t n)
{
    std::vector<F> acc(n);
    F run = F::one();
    for (size_t i = 0; i < n; ++i) {
        acc[i] = run;
        if (!in[i].is_identity()) run *= in[i].z;
    }
    F inv = run.inverse();
    for (size_t i = n; i-- > 0;) {
        if (in[i].is_identity()) {
            out[i] = affine<F, C>::identity();
            continue;
        }
        const F zi = inv * acc[i];
        inv *= in[i].z;
        const F zi2 = zi.sqr();
        out[i] = {in[i].x * zi2, in[i].y * zi2 * zi};
    }
}

} // namespace cuzk
