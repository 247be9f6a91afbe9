// cuzk — the Frobenius coefficients of the sextic/12 tower, derived at compile
// time from the modulus p and the non-residue ξ of a tower-parameter struct T
// (see ff/fp2.hpp):
//
//   γ(k, i) = ξ^(i·(p^k − 1)/6) ∈ Fp2,  k = 1, 2, 3,  i = 1..5.
//
// Only γ(1, 1) = ξ^((p − 1)/6) takes an exponentiation; the rest follow from
// it because γ(1, i) lies in Fp2, where x^p = conj(x) and x^(p²) = x:
//   γ(1, i) = γ(1, 1)^i
//   γ(2, i) = γ(1, i)^(p + 1)        = conj(γ(1, i))·γ(1, i)
//   γ(3, i) = γ(1, i)^(p² + p + 1)   = γ(1, i)·γ(2, i)
// (p^k − 1 = (p − 1)(p^(k−1) + … + 1)). The arithmetic runs on the constexpr
// portable limb code of field.hpp, so the host and the device get the same
// literal values; test/test_pairing.cpp and test/test_bn254.cpp compare every
// coefficient with ξ raised to a GMP-computed exponent.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuzk/ff/fp2.hpp"

namespace cuzk {

template <class T>
struct frobenius_table {
    fp2_t<T> g[3][5];   // g[k − 1][i − 1] = γ(k, i)
};

namespace tower_detail {

// Fp and Fp2 operations usable in constant expressions (the operators of
// field/fp2_t may take the x86 assembly path, which is not constexpr).
template <class F>
constexpr F mul(const F& a, const F& b)
{
    F r{};
    F::mont_mul_portable(r.l, a.l, b.l);
    return r;
}
template <class F>
constexpr F add(const F& a, const F& b)
{
    F r{};
    F::add_mod_portable(r.l, a.l, b.l);
    return r;
}
template <class F>
constexpr F sub(const F& a, const F& b)
{
    F r{};
    F::sub_mod_portable(r.l, a.l, b.l);
    return r;
}
// Karatsuba as in fp2_t::operator*.
template <class T>
constexpr fp2_t<T> mul2(const fp2_t<T>& a, const fp2_t<T>& b)
{
    const auto t0 = mul(a.c0, b.c0), t1 = mul(a.c1, b.c1);
    const auto t2 = mul(add(a.c0, a.c1), add(b.c0, b.c1));
    return {sub(t0, t1), sub(sub(t2, t0), t1)};
}
template <class T>
constexpr fp2_t<T> conj2(const fp2_t<T>& a)
{
    return {a.c0, sub(decltype(a.c1)::zero(), a.c1)};
}
template <class T, size_t N>
constexpr fp2_t<T> pow2(const fp2_t<T>& a, const bigint<N>& e)
{
    fp2_t<T> r = fp2_t<T>::one();
    for (size_t i = e.num_bits(); i-- > 0;) {
        r = mul2(r, r);
        if (e.bit(i)) r = mul2(r, a);
    }
    return r;
}
// a / d and a mod d for a small d: schoolbook long division.
template <size_t N>
constexpr bigint<N> div_small(const bigint<N>& a, uint64_t d, uint64_t* rem_out = nullptr)
{
    bigint<N> q = bigint<N>::zero();
    u128 rem = 0;
    for (size_t i = N; i-- > 0;) {
        const u128 cur = (rem << 64) | a.l[i];
        q.l[i] = uint64_t(cur / d);
        rem = cur % d;
    }
    if (rem_out) *rem_out = uint64_t(rem);
    return q;
}
template <size_t N>
constexpr uint64_t mod_small(const bigint<N>& a, uint64_t d)
{
    uint64_t r = 0;
    div_small(a, d, &r);
    return r;
}
// ξ = xi_c0 + u in Montgomery form: xi_c0·R is xi_c0 additions of R = one().
template <class T>
constexpr fp2_t<T> xi()
{
    using F = typename T::base;
    F c0 = F::zero();
    for (uint64_t i = 0; i < T::xi_c0; ++i) c0 = add(c0, F::one());
    return {c0, F::one()};
}

} // namespace tower_detail

template <class T>
constexpr frobenius_table<T> derive_frobenius_table()
{
    using namespace tower_detail;
    constexpr auto p = T::base::params::modulus;
    static_assert(mod_small(p, 6) == 1, "the sextic tower's coefficients need 6 | p − 1");
    frobenius_table<T> t{};
    const fp2_t<T> g11 = pow2(xi<T>(), div_small(sub_small(p, 1), 6));
    fp2_t<T> g = g11;
    for (int i = 0; i < 5; ++i) {
        t.g[0][i] = g;
        t.g[1][i] = mul2(conj2(g), g);
        t.g[2][i] = mul2(g, t.g[1][i]);
        g = mul2(g, g11);
    }
    return t;
}

// γ(k, i) for k = 1, 2, 3 and i = 1..5, γ(k, 0) = 1 (any other (k, i): 1).
// The table is a constant expression; each case is a literal after folding,
// host and device alike.
template <class T>
CUZK_HD constexpr fp2_t<T> tower_frobenius_coeff(unsigned k, unsigned i)
{
    constexpr frobenius_table<T> t = derive_frobenius_table<T>();
    switch (10 * k + i) {
    case 11: return t.g[0][0];
    case 12: return t.g[0][1];
    case 13: return t.g[0][2];
    case 14: return t.g[0][3];
    case 15: return t.g[0][4];
    case 21: return t.g[1][0];
    case 22: return t.g[1][1];
    case 23: return t.g[1][2];
    case 24: return t.g[1][3];
    case 25: return t.g[1][4];
    case 31: return t.g[2][0];
    case 32: return t.g[2][1];
    case 33: return t.g[2][2];
    case 34: return t.g[2][3];
    case 35: return t.g[2][4];
    default: return fp2_t<T>::one();
    }
}

} // namespace cuzk
