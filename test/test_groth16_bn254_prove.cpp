// The snarkjs-convention Groth16 setup and prover on BN254 (bn128): a small
// circuit of multiplication gates and two public inputs, set up with
// setup_snarkjs<bn254_curve>, proved with prove_snarkjs and checked with
// verify<bn254_curve>; a changed public input and an unsatisfying witness are
// rejected; the split prover equals the whole one; compute_h_snarkjs equals
// a direct quadratic-time polynomial computation of H; the witness MSM
// equals the naive sum.
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <random>
#include <tuple>
#include <vector>

#include "cuzk/error.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/prover_split.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/util/random.hpp"
#include "gmp_util.hpp"

using namespace cuzk;
using C = bn254_curve;
using bfr = bn254::fr;

namespace {

// Public inputs y, x; private a, v_1 … v_k (signals 0 = one, 1 = y, 2 = x,
// 3 = a, 4 … = v_i):
//   a · a = v_1;   (v_i + 2x) · a = v_(i+1) for 1 <= i < k;   (v_k + 3x) · 1 = y.
// k + 1 constraints plus 3 input rows: k = 4 fills a domain of 8 exactly.
struct chain_circuit {
    uint32_t k;
    std::vector<std::tuple<int, uint32_t, uint32_t, bfr>> entries;

    explicit chain_circuit(uint32_t k_) : k(k_)
    {
        const bfr two = bfr::from_u64(2), three = bfr::from_u64(3), one = bfr::one();
        add(0, 0, 3, one);   // a · a = v_1
        add(1, 0, 3, one);
        add(2, 0, 4, one);
        for (uint32_t i = 1; i < k; ++i) {   // (v_i + 2x) · a = v_(i+1)
            add(0, i, 3 + i, one);
            add(0, i, 2, two);
            add(1, i, 3, one);
            add(2, i, 4 + i, one);
        }
        add(0, k, 3 + k, one);   // (v_k + 3x) · 1 = y
        add(0, k, 2, three);
        add(1, k, 0, one);
        add(2, k, 1, one);
    }
    void add(int m, uint32_t row, uint32_t col, const bfr& v) { entries.emplace_back(m, row, col, v); }

    groth16::r1cs_description_t<bfr> describe() const
    {
        groth16::r1cs_description_t<bfr> d;
        d.num_inputs = 3;
        d.num_aux = 1 + k;
        d.num_constraints = k + 1;
        d.for_each_entry = [this](const std::function<void(int, uint32_t, uint32_t, const bfr&)>& fn) {
            for (const auto& [m, row, col, v] : entries) fn(m, row, col, v);
        };
        return d;
    }

    // The full witness for private a and public x.
    std::vector<bfr> witness(const bfr& a, const bfr& x) const
    {
        std::vector<bfr> w = {bfr::one(), bfr::zero(), x, a, a * a};
        for (uint32_t i = 1; i < k; ++i) w.push_back((w.back() + x + x) * a);
        w[1] = w.back() + bfr::from_u64(3) * x;
        return w;
    }
};

struct keyed {
    chain_circuit circ;
    groth16::proving_key_t<C> pk;
    groth16::prepared_verifying_key_t<C> pvk;

    keyed(uint32_t k, uint64_t seed) : circ(k)
    {
        const auto tw = groth16::toxic_waste_t<bfr>::from_seed(seed);
        groth16::setup_options_t<C> opt;
        opt.threads = 2;
        opt.waste = &tw;
        pk = groth16::setup_snarkjs(circ.describe(), opt);
        pvk = groth16::prepare_verifying_key(pk.vk);
    }
};

// Setup, prove, verify; a changed public input and a witness that breaks a
// constraint are rejected.
void prove_and_check(uint32_t k, uint64_t expect_domain, std::mt19937_64& rng)
{
    const keyed t(k, rng());
    REQUIRE(t.pk.domain_size == expect_domain);
    REQUIRE(groth16::groth16_domain_size(t.circ.describe()) == expect_domain);
    const std::vector<bfr> w = t.circ.witness(bfr::random(rng), bfr::random(rng));
    const std::vector<bfr> pub = {w[1], w[2]};
    const groth16::proof_t<C> pr = groth16::prove_snarkjs(t.pk, w, {2});
    CHECK(groth16::verify<C>(t.pvk, pr, pub));

    std::vector<bfr> other = pub;
    other[1] += bfr::one();
    CHECK_FALSE(groth16::verify<C>(t.pvk, pr, other));
    std::vector<bfr> broken = w;
    broken.back() += bfr::one();   // v_k no longer the product; y still claims the old value
    CHECK_FALSE(groth16::verify<C>(t.pvk, groth16::prove_snarkjs(t.pk, broken, {2}), pub));
}

// ω_2n by definition (snarkjs: 5^((r − 1)/2^28) squared down), independent
// of root_of_unity_of.
bfr omega_2n(unsigned log_2n)
{
    bigint<4> r1 = bn254::fr_params::modulus;
    r1.l[0] -= 1;
    bfr w = bfr::from_u64(5).pow(shr(r1, 28));
    for (unsigned i = log_2n; i < 28; ++i) w = w.sqr();
    return w;
}

bfr horner(const std::vector<bfr>& coef, const bfr& x)
{
    bfr acc = bfr::zero();
    for (size_t i = coef.size(); i-- > 0;) acc = acc * x + coef[i];
    return acc;
}

// Coefficients of the polynomial taking values v over ⟨ω⟩ (n² naive inverse DFT).
std::vector<bfr> interpolate(const std::vector<bfr>& v, const bfr& omega)
{
    const size_t n = v.size();
    const bfr n_inv = bfr::from_u64(n).inverse(), w_inv = omega.inverse();
    std::vector<bfr> c(n, bfr::zero());
    for (size_t j = 0; j < n; ++j) {
        const bfr step = w_inv.pow(uint64_t(j));
        bfr x = bfr::one();
        for (size_t i = 0; i < n; ++i, x *= step) c[j] += v[i] * x;
        c[j] *= n_inv;
    }
    return c;
}

// H = (A·B − C)/(x^n − 1) by schoolbook product and long division; the
// remainder must vanish (c = a∘b on the domain).
std::vector<bfr> h_by_definition(const std::vector<bfr>& a, const std::vector<bfr>& b, const std::vector<bfr>& c,
                                 const bfr& omega)
{
    const size_t n = a.size();
    const std::vector<bfr> A = interpolate(a, omega), B = interpolate(b, omega), Cc = interpolate(c, omega);
    std::vector<bfr> p(2 * n, bfr::zero());
    for (size_t i = 0; i < n; ++i) {
        for (size_t j = 0; j < n; ++j) p[i + j] += A[i] * B[j];
        p[i] -= Cc[i];
    }
    // p = h·(x^n − 1): h_i = p_(i+n) from the top down, then p_i + h_i = 0.
    std::vector<bfr> h(n, bfr::zero());
    for (size_t i = n; i-- > 0;) {
        h[i] = p[i + n];
        p[i] += h[i];
    }
    for (size_t i = 0; i < n; ++i) REQUIRE(p[i].is_zero());
    return h;
}

} // namespace

TEST_CASE("BN254 snarkjs: setup, prove and verify; a changed input or a broken witness is rejected",
          "[groth16][bn254]")
{
    std::mt19937_64 rng(test::test_seed() + 2540);
    prove_and_check(3, 8, rng);    // 7 rows in a domain of 8
    prove_and_check(5, 16, rng);   // 9 rows in a domain of 16

    const chain_circuit c(2);
    auto d = c.describe();
    d.for_each_entry = [](const std::function<void(int, uint32_t, uint32_t, const bfr&)>& fn) {
        fn(0, 0, 99, bfr::one());
    };
    CHECK_THROWS_AS(groth16::setup_snarkjs<C>(d), error);
    // 2^27 + 3 rows need n = 2^28 and ω_(2^29): beyond BN254's 2-adicity 28,
    // refused before anything is allocated.
    d.num_constraints = uint32_t{1} << 27;
    d.for_each_entry = [](const std::function<void(int, uint32_t, uint32_t, const bfr&)>&) {};
    try {
        (void)groth16::setup_snarkjs<C>(d);
        FAIL("a domain of 2^28 was accepted on BN254");
    } catch (const error& e) {
        CHECK(e.code() == errc::invalid_argument);
    }
}

TEST_CASE("BN254 snarkjs: rows filling the domain exactly (input constraints included)", "[groth16][bn254]")
{
    std::mt19937_64 rng(test::test_seed() + 2541);
    prove_and_check(4, 8, rng);   // 5 constraints + 3 input rows = 8
}

TEST_CASE("BN254 snarkjs: prove_finish(prove_start_snarkjs) equals prove_snarkjs", "[groth16][bn254]")
{
    std::mt19937_64 rng(test::test_seed() + 2542);
    const keyed t(4, rng());
    const std::vector<bfr> w = t.circ.witness(bfr::random(rng), bfr::random(rng));
    const bfr r = bfr::random(rng), s = bfr::random(rng);
    const groth16::proof_t<C> whole = groth16::prove_snarkjs(t.pk, w, r, s, {1});
    const groth16::proof_t<C> split = groth16::prove_finish(t.pk.vk, groth16::prove_start_snarkjs(t.pk, w, {2}), r, s);
    std::vector<bfr> a, b;
    groth16::snarkjs_evaluate_ab(t.pk, w, a, b);
    const groth16::proof_t<C> split2 =
        groth16::prove_finish(t.pk.vk, groth16::prove_start_snarkjs(t.pk, std::move(a), std::move(b), w), r, s);
    CHECK(whole.a == split.a);
    CHECK(whole.b == split.b);
    CHECK(whole.c == split.c);
    CHECK(split2.a == split.a);
    CHECK(split2.b == split.b);
    CHECK(split2.c == split.c);
    const std::vector<bfr> pub = {w[1], w[2]};
    CHECK(groth16::verify<C>(t.pvk, split, pub));
    // random r, s: a different proof that still verifies
    const groth16::proof_t<C> fresh = groth16::prove_finish(t.pk.vk, groth16::prove_start_snarkjs(t.pk, w));
    CHECK_FALSE(fresh.a == whole.a);
    CHECK(groth16::verify<C>(t.pvk, fresh, pub));
    CHECK_THROWS_AS(groth16::prove_snarkjs(t.pk, std::vector<bfr>(w.begin(), w.end() - 1)), error);
}

TEST_CASE("BN254 compute_h_snarkjs: A·B − C on the odd coset equals H·Z from a direct computation",
          "[groth16][bn254]")
{
    std::mt19937_64 rng(test::test_seed() + 2543);
    for (unsigned log_n : {1u, 2u, 3u, 5u}) {
        const size_t n = size_t{1} << log_n;
        for (size_t rows : {n - 1, n}) {
            std::vector<bfr> a(n, bfr::zero()), b(n, bfr::zero()), c(n, bfr::zero());
            for (size_t i = 0; i < rows; ++i) {
                a[i] = bfr::random(rng);
                b[i] = bfr::random(rng);
                c[i] = a[i] * b[i];
            }
            std::vector<bfr> a_rows(a.begin(), a.begin() + rows), b_rows(b.begin(), b.begin() + rows);
            const std::vector<bfr> got = groth16::compute_h_snarkjs(std::move(a_rows), std::move(b_rows), n, 2);
            REQUIRE(got.size() == n);
            const bfr w2n = omega_2n(log_n + 1);
            const std::vector<bfr> h = h_by_definition(a, b, c, w2n.sqr());
            for (size_t i = 0; i < n; ++i) {
                const bfr x = w2n.pow(uint64_t(2 * i + 1));   // the odd coset ω_2n·⟨ω_n⟩
                CHECK(got[i] == horner(h, x) * (x.pow(uint64_t(n)) - bfr::one()));
            }
        }
    }
    CHECK_THROWS_AS(groth16::compute_h_snarkjs(std::vector<bfr>(3), std::vector<bfr>(3), 6, 1), error);
    CHECK_THROWS_AS(groth16::compute_h_snarkjs(std::vector<bfr>(9), std::vector<bfr>(9), 8, 1), error);
}

TEST_CASE("BN254 msm_witness equals the naive sum; os_random_fr draws BN254 scalars", "[groth16][bn254]")
{
    std::mt19937_64 rng(test::test_seed() + 2544);
    const size_t n = 40;
    std::vector<bn254::g1_affine> p1(n);
    std::vector<bn254::g2_affine> p2(n);
    std::vector<bfr> k(n);
    bn254::g1_jacobian want1 = bn254::g1_jacobian::identity();
    bn254::g2_jacobian want2 = bn254::g2_jacobian::identity();
    for (size_t i = 0; i < n; ++i) {
        const bfr e = bfr::random(rng);
        p1[i] = scalar_mul(bn254::g1_affine::generator(), e.to_repr()).to_affine();
        p2[i] = scalar_mul(bn254::g2_affine::generator(), e.to_repr()).to_affine();
        k[i] = i % 3 == 0 ? bfr::zero() : (i % 3 == 1 ? bfr::one() : bfr::random(rng));
        want1 = want1.add(scalar_mul(p1[i], k[i].to_repr()));
        want2 = want2.add(scalar_mul(p2[i], k[i].to_repr()));
    }
    CHECK(groth16::msm_witness(std::span<const bn254::g1_affine>(p1), std::span<const bfr>(k), 2) == want1);
    CHECK(groth16::msm_witness(std::span<const bn254::g2_affine>(p2), std::span<const bfr>(k), 2) == want2);
    const bfr r1 = os_random_fr<bfr>(), r2 = os_random_fr<bfr>();
    CHECK_FALSE(r1 == r2);
}

TEST_CASE("snarkjs_evaluate_ab: threads and coefficient order do not change a and b", "[groth16][bn254]")
{
    // A key shell with 2^17 rows of 3 A and 2 B coefficients on random signals
    // (ordered by row, as snarkjs writes them), and the same list shuffled.
    std::mt19937_64 rng(test::test_seed() + 2549);
    groth16::proving_key_t<C> pk;
    pk.conv = groth16::convention::snarkjs;
    pk.domain_size = uint64_t{1} << 17;
    pk.num_inputs = 2;
    pk.num_aux = 5000;
    const uint32_t nv = pk.num_inputs + pk.num_aux;
    pk.h.resize(pk.domain_size);
    pk.a.resize(nv);
    pk.b_g1.resize(nv);
    pk.b_g2.resize(nv);
    pk.l.resize(pk.num_aux);
    for (uint32_t row = 0; row < pk.domain_size; ++row)
        for (uint32_t m : {0u, 0u, 0u, 1u, 1u}) pk.coefs.push_back({m, row, uint32_t(rng() % nv), bfr::random(rng)});
    std::vector<bfr> w(nv);
    for (auto& x : w) x = bfr::random(rng);
    w[0] = bfr::one();
    std::vector<bfr> a1, b1, a4, b4, as, bs;
    groth16::snarkjs_evaluate_ab(pk, w, a1, b1, 1);
    groth16::snarkjs_evaluate_ab(pk, w, a4, b4, 4);
    CHECK(a4 == a1);
    CHECK(b4 == b1);
    std::shuffle(pk.coefs.begin(), pk.coefs.end(), rng);
    groth16::snarkjs_evaluate_ab(pk, w, as, bs, 4);
    CHECK(as == a1);   // sums of the same products in another order: the same field elements
    CHECK(bs == b1);
    pk.coefs.back().signal = nv;
    CHECK_THROWS_AS(groth16::snarkjs_evaluate_ab(pk, w, as, bs, 4), error);
}
