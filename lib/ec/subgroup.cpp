// Fast subgroup membership tests (see include/cuzk/ec/subgroup.hpp).
#include "cuzk/ec/subgroup.hpp"

#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ff/fp12.hpp"

namespace cuzk {

namespace {

const bigint<1> u_abs{{bls_x_abs}};

// [|u|]·p.
template <class F, class C>
jacobian<F, C> mul_u_abs(const jacobian<F, C>& p)
{
    return scalar_mul(p, u_abs);
}

// −[u²]·p; u² = |u|² whatever the sign of u.
g1_jacobian minus_u2(const g1_affine& p) { return -mul_u_abs(mul_u_abs(p.to_jacobian())); }

// The two primitive cube roots of unity of Fp are ξ^((p²−1)/3) and its
// square, i.e. the Frobenius coefficients γ(2,2) and γ(2,4) (both in Fp).
// β is the one with φ(G) = −[u²]G on the generator; chosen once.
fp pick_beta()
{
    const g1_affine g = g1_affine::generator();
    const g1_jacobian want = minus_u2(g);
    for (unsigned i : {2u, 4u}) {
        const fp beta = frobenius_coeff(2, i).c0;
        if (g1_affine{g.x * beta, g.y}.to_jacobian() == want) return beta;
    }
    return fp::zero();   // unreachable for BLS12-381; every test then fails
}

const fp& beta()
{
    static const fp b = pick_beta();
    return b;
}

// ψ's coefficients ξ^(−(p−1)/3) = 1/γ(1,2) and ξ^(−(p−1)/2) = 1/γ(1,3).
struct psi_coeffs {
    fp2 cx, cy;
};
const psi_coeffs& psi()
{
    static const psi_coeffs c{frobenius_coeff(1, 2).inverse(), frobenius_coeff(1, 3).inverse()};
    return c;
}

} // namespace

g1_affine g1_endomorphism_phi(const g1_affine& p)
{
    if (p.is_identity()) return p;
    return {p.x * beta(), p.y};
}

g2_affine g2_endomorphism_psi(const g2_affine& p)
{
    if (p.is_identity()) return p;
    return {p.x.frobenius() * psi().cx, p.y.frobenius() * psi().cy};
}

bool g1_in_subgroup_fast(const g1_affine& p)
{
    if (p.is_identity()) return true;
    return g1_endomorphism_phi(p).to_jacobian() == minus_u2(p);
}

bool g2_in_subgroup_fast(const g2_affine& p)
{
    if (p.is_identity()) return true;
    g2_jacobian up = mul_u_abs(p.to_jacobian());
    if (bls_x_is_negative) up = -up;
    return g2_endomorphism_psi(p).to_jacobian() == up;
}

} // namespace cuzk
