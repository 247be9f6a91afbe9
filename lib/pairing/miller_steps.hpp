// cuzk — internal: the Miller loop's steps on a sextic twist E': y² = x³ + b'
// over Fp2, shared by the BLS12-381 and BN254 pairings (lib/pairing/). Each
// step moves the running point T and returns the three parts of its line
// before the curve places them in Fp12 (the M-type BLS12-381 twist and the
// D-type BN254 twist order them differently; see each pairing's file).
//
// T = (X : Y : Z) is homogeneous: x = X/Z, y = Y/Z.
//
// Doubling (tangent at T): with B = Y², C = Z², E = 3b'C, F = 3E,
// H = 2YZ = (Y + Z)² − B − C,
//   X3 = (XY/2)·(B − F),  Y3 = ((B + F)/2)² − 3E²,  Z3 = B·H;
// check: x3 = λ² − 2x = X(9X³ − 8BZ)/(4BZ²) = X(B − 9b'C)/(4BZ) = X3/Z3 and
// y3 = λ(x − x3) − y = (B² + 18b'BC − 27b'²C²)/(8YBZ) = Y3/Z3, both using
// X³ = Z(B − b'C). Cost 3m̃ + 6s̃ (the Costello–Lange–Naehrig shape). The
// tangent's slope on E' is λ' = 3X²/(2YZ) and λ'x' − y' = (Y² − 3b'Z²)/(2YZ);
// scaled by −2YZ its parts are
//   constant 3b'Z² − Y² = E − B,  x_P coefficient 3X²,  y_P coefficient −H.
//
// Addition (chord through T and an affine Q): with θ = Y − y_Q·Z,
// Λ = X − x_Q·Z (slope λ' = θ/Λ), C = Λ², D = Λ³, E = C·X,
// F = θ²Z + D − 2E:
//   X3 = Λ·F,  Y3 = θ·(E − F) − D·Y,  Z3 = Z·D;
// check: x3 = λ'² − x − x_Q, and Λ²x_Q·Z = Λ²X − Λ³ turns it into
// F/(Λ²Z) = X3/Z3; y3 = λ'(x − x3) − y = (θ(E − F) − DY)/(DZ). Cost
// 11m̃ + 2s̃. The chord scaled by Λ has the parts
//   constant θ·x_Q − Λ·y_Q,  x_P coefficient −θ,  y_P coefficient Λ.
// T = ±Q must not happen (each pairing's loop shows it cannot).
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/ff/field.hpp"

namespace cuzk::pairing_detail {

template <class F2>
struct g2_proj {
    F2 x, y, z;
};

// A line's parts: the constant term and the coefficients of x_P and y_P.
template <class F2>
struct line_parts {
    F2 c, x, y;
};

// a/2 in Fp: the stored integer is a·R and (a/2)·R = (a·R)/2 mod p. When it
// is odd, add p first (a + p < 2p fits the limbs: both moduli leave the top
// bit free), then shift right by one.
template <class Fp>
Fp halve(const Fp& a)
{
    constexpr size_t n = Fp::N;
    constexpr auto p = Fp::params::modulus;
    const uint64_t mask = 0 - (a.l[0] & 1);
    uint64_t t[n];
    uint64_t c = 0;
    for (size_t i = 0; i < n; ++i) {
        const u128 s = u128(a.l[i]) + (p.l[i] & mask) + c;
        t[i] = uint64_t(s);
        c = uint64_t(s >> 64);
    }
    Fp r;
    for (size_t i = 0; i + 1 < n; ++i) r.l[i] = (t[i] >> 1) | (t[i + 1] << 63);
    r.l[n - 1] = t[n - 1] >> 1;
    return r;
}
template <class F2>
F2 halve2(const F2& a)
{
    return {halve(a.c0), halve(a.c1)};
}

// T ← 2T; mul_by_3b(a) = 3b'·a for the curve's b'.
template <class F2, class Mul3b>
line_parts<F2> doubling_step(g2_proj<F2>& t, Mul3b mul_by_3b)
{
    const F2 A = halve2(t.x * t.y);
    const F2 B = t.y.sqr();
    const F2 C = t.z.sqr();
    const F2 E = mul_by_3b(C);
    const F2 F = E.dbl() + E;
    const F2 G = halve2(B + F);
    const F2 H = (t.y + t.z).sqr() - (B + C);
    const F2 X2 = t.x.sqr();
    const F2 E2 = E.sqr();
    const line_parts<F2> l{E - B, X2.dbl() + X2, -H};
    t.x = A * (B - F);
    t.y = G.sqr() - (E2.dbl() + E2);
    t.z = B * H;
    return l;
}

// T ← T + Q.
template <class F2, class Aff>
line_parts<F2> addition_step(g2_proj<F2>& t, const Aff& q)
{
    const F2 theta = t.y - q.y * t.z;
    const F2 lam = t.x - q.x * t.z;
    const line_parts<F2> l{theta * q.x - lam * q.y, -theta, lam};
    const F2 C = lam.sqr();
    const F2 D = C * lam;
    const F2 E = C * t.x;
    const F2 F = theta.sqr() * t.z + D - E.dbl();
    t.x = lam * F;
    t.y = theta * (E - F) - D * t.y;
    t.z = t.z * D;
    return l;
}

} // namespace cuzk::pairing_detail
