// The fast subgroup tests of ec/subgroup.hpp against the reference [r]P = O:
// random subgroup points, random curve points (almost never in the
// subgroup), and constructed points of order 3 added to subgroup points.
#include <catch2/catch.hpp>

#include <random>

#include "cuzk/ec/subgroup.hpp"
#include "cuzk/pairing/pairing.hpp"

using namespace cuzk;

namespace {

// A random point of E(Fp) (y² = x³ + 4), not multiplied by the cofactor.
g1_affine random_curve_point_g1(std::mt19937_64& rng)
{
    for (;;) {
        const fp x = fp::random(rng);
        fp y;
        if ((x.sqr() * x + g1_curve::b()).sqrt(y)) return {x, y};
    }
}

g2_affine random_curve_point_g2(std::mt19937_64& rng)
{
    for (;;) {
        const fp2 x = fp2::random(rng);
        fp2 y;
        if ((x.sqr() * x + g2_curve::b()).sqrt(y)) return {x, y};
    }
}

template <class A>
A random_subgroup_point(std::mt19937_64& rng)
{
    return scalar_mul(A::generator(), fr::random(rng).to_repr()).to_affine();
}

template <class A>
bool slow(const A& p)
{
    return in_subgroup(p);
}

} // namespace

TEST_CASE("the endomorphisms act as -u^2 and u on the generators", "[subgroup]")
{
    const g1_affine g1 = g1_affine::generator();
    const g1_affine phi = g1_endomorphism_phi(g1);
    REQUIRE(phi.is_on_curve());
    REQUIRE(phi != g1);
    // φ has order 3: φ(φ(φ(P))) = P.
    REQUIRE(g1_endomorphism_phi(g1_endomorphism_phi(phi)) == g1);
    const g2_affine g2 = g2_affine::generator();
    const g2_affine psi = g2_endomorphism_psi(g2);
    REQUIRE(psi.is_on_curve());
    // [u]G2 with u negative.
    REQUIRE(psi.to_jacobian() == -scalar_mul(g2, bigint<1>{{bls_x_abs}}));
    REQUIRE(g1_in_subgroup_fast(g1));
    REQUIRE(g2_in_subgroup_fast(g2));
    REQUIRE(g1_in_subgroup_fast(g1_affine::identity()));
    REQUIRE(g2_in_subgroup_fast(g2_affine::identity()));
}

TEST_CASE("fast subgroup tests agree with [r]P on random points", "[subgroup]")
{
    std::mt19937_64 rng(20240601);
    int outside1 = 0, outside2 = 0;
    for (int i = 0; i < 24; ++i) {
        const auto a = random_subgroup_point<g1_affine>(rng);
        REQUIRE(slow(a));
        REQUIRE(g1_in_subgroup_fast(a));
        const auto b = random_subgroup_point<g2_affine>(rng);
        REQUIRE(slow(b));
        REQUIRE(g2_in_subgroup_fast(b));
        const auto c = random_curve_point_g1(rng);
        REQUIRE(g1_in_subgroup_fast(c) == slow(c));
        outside1 += !slow(c);
        const auto d = random_curve_point_g2(rng);
        REQUIRE(g2_in_subgroup_fast(d) == slow(d));
        outside2 += !slow(d);
    }
    // Random curve points lie outside the subgroup except with probability ~1/h.
    REQUIRE(outside1 == 24);
    REQUIRE(outside2 == 24);
}

TEST_CASE("points with a component of order 3 are refused", "[subgroup]")
{
    std::mt19937_64 rng(7);
    // (0, 2) has order 3 on y² = x³ + 4: x = 0 is an inflection point.
    const g1_affine t{fp::zero(), fp::from_u64(2)};
    REQUIRE(t.is_on_curve());
    REQUIRE(scalar_mul(t, bigint<1>{{3}}).is_identity());
    REQUIRE_FALSE(g1_in_subgroup_fast(t));
    for (int i = 0; i < 8; ++i) {
        const auto p = random_subgroup_point<g1_affine>(rng);
        const g1_affine q = p.to_jacobian().add(t).to_affine();
        REQUIRE(q.is_on_curve());
        REQUIRE_FALSE(slow(q));
        REQUIRE_FALSE(g1_in_subgroup_fast(q));
    }
    // On the twist: (0, √(4ξ)) has order 3 when 4ξ is a square in Fp2.
    fp2 y;
    if (g2_curve::b().sqrt(y)) {
        const g2_affine t2{fp2::zero(), y};
        REQUIRE(scalar_mul(t2, bigint<1>{{3}}).is_identity());
        REQUIRE_FALSE(g2_in_subgroup_fast(t2));
        const auto p = random_subgroup_point<g2_affine>(rng);
        const g2_affine q = p.to_jacobian().add(t2).to_affine();
        REQUIRE_FALSE(slow(q));
        REQUIRE_FALSE(g2_in_subgroup_fast(q));
    }
    // A point of E'(Fp2) times the part of the cofactor prime to 3 still has
    // small-order components: [r]·(random point) is a pure non-subgroup point.
    for (int i = 0; i < 4; ++i) {
        const auto c = random_curve_point_g2(rng);
        const g2_affine torsion = scalar_mul(c, fr_params::modulus).to_affine();
        if (torsion.is_identity()) continue;
        REQUIRE_FALSE(g2_in_subgroup_fast(torsion));
        const auto c1 = random_curve_point_g1(rng);
        const g1_affine torsion1 = scalar_mul(c1, fr_params::modulus).to_affine();
        if (!torsion1.is_identity()) REQUIRE_FALSE(g1_in_subgroup_fast(torsion1));
    }
}
