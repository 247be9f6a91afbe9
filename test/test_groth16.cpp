// Groth16 end to end on the CPU: both H conventions against a direct
// evaluation of the QAP at a random point, proofs of random circuits under
// both conventions, negative cases (tampered proof or input, wrong key,
// unsatisfied witness) and batch verification.
#include <catch2/catch.hpp>

#include <random>

#include "cuzk/error.hpp"
#include "cuzk/groth16/circuit.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/ntt/ntt.hpp"
#include "cuzk/r1cs/gadgets/sha256.hpp"
#include "gmp_util.hpp"

using namespace cuzk;
using namespace cuzk::groth16;

namespace {

// A random satisfiable circuit: n_inputs public inputs, then n_constraints
// constraints a·b = c where a and b are random combinations of earlier
// variables (coefficients ±1 or random) and c is a fresh aux variable.
// Witness values are drawn from the seed, so recording and witness
// generation see the same circuit. `break_at` makes that constraint's c wrong.
struct random_circuit final : r1cs::circuit {
    uint64_t seed;
    size_t n_inputs, n_constraints;
    long break_at = -1;

    random_circuit(uint64_t s, size_t ni, size_t nc, long brk = -1) : seed(s), n_inputs(ni), n_constraints(nc), break_at(brk) {}

    void synthesize(r1cs::constraint_system& cs) const override
    {
        std::mt19937_64 rng(seed);
        std::vector<r1cs::variable> vars{r1cs::variable::one()};
        std::vector<fr> vals{fr::one()};
        auto value = [&](uint64_t kind) {
            return kind % 4 == 0 ? fr::zero() : kind % 4 == 1 ? fr::one() : fr::random(rng);
        };
        for (size_t i = 0; i < n_inputs; ++i) {
            const fr v = value(rng());
            vars.push_back(cs.alloc_input(v));
            vals.push_back(v);
        }
        for (size_t i = 0; i < 3; ++i) {
            const fr v = value(rng());
            vars.push_back(cs.alloc(v));
            vals.push_back(v);
        }
        auto random_lc = [&](fr& val) {
            r1cs::linear_combination lc;
            val = fr::zero();
            const size_t terms = 1 + rng() % 3;
            for (size_t t = 0; t < terms; ++t) {
                const size_t k = rng() % vars.size();
                const uint64_t kind = rng() % 3;
                const fr c = kind == 0 ? fr::one() : kind == 1 ? -fr::one() : fr::random(rng);
                lc.add(vars[k], c);
                val += c * vals[k];
            }
            return lc;
        };
        for (size_t k = 0; k < n_constraints; ++k) {
            fr va, vb;
            const auto a = random_lc(va);
            const auto b = random_lc(vb);
            fr vc = va * vb;
            if (long(k) == break_at) vc += fr::one();
            const auto c = cs.alloc(vc);
            cs.enforce(a, b, c);
            vars.push_back(c);
            vals.push_back(vc);
        }
    }
};

r1cs::pce record_pce(const r1cs::circuit& c)
{
    r1cs::recording_cs rec;
    c.synthesize(rec);
    return rec.finish();
}

// Σ v_j·L_j(z) over ⟨ω⟩ of size n, straight from the Lagrange formula.
fr interpolate_at(const std::vector<fr>& v, const fr& z, uint64_t n, const fr& omega)
{
    const fr zn1 = z.pow(bigint<1>{{n}}) - fr::one();
    const fr ninv = fr::from_u64(n).inverse();
    fr acc = fr::zero(), w = fr::one();
    for (uint64_t j = 0; j < n; ++j) {
        const fr lj = zn1 * ninv * w * (z - w).inverse();
        if (j < v.size()) acc += v[j] * lj;
        w *= omega;
    }
    return acc;
}

} // namespace

TEST_CASE("bellperson H: h(z)·Z(z) = A(z)·B(z) − C(z) at a random point", "[groth16]")
{
    std::mt19937_64 rng(test::test_seed());
    for (uint64_t n : {4u, 16u, 64u}) {
        const size_t rows = n - 1;
        std::vector<fr> a(rows), b(rows), c(rows);
        for (size_t i = 0; i < rows; ++i) {
            a[i] = fr::random(rng);
            b[i] = fr::random(rng);
            c[i] = a[i] * b[i];   // satisfied rows: Z divides A·B − C
        }
        const std::vector<fr> h = compute_h_bellperson(a, b, c, n, 2);
        REQUIRE(h.size() == n - 1);
        const fr z = fr::random(rng);
        const fr omega = root_of_unity(unsigned(__builtin_ctzll(n)), root_convention::bellperson);
        fr hz = fr::zero(), zi = fr::one();
        for (const fr& coeff : h) {
            hz += coeff * zi;
            zi *= z;
        }
        const fr lhs = hz * (z.pow(bigint<1>{{n}}) - fr::one());
        const fr rhs = interpolate_at(a, z, n, omega) * interpolate_at(b, z, n, omega) - interpolate_at(c, z, n, omega);
        CHECK(lhs == rhs);
    }
}

TEST_CASE("snarkjs H: the odd-coset values of A·B − C", "[groth16]")
{
    std::mt19937_64 rng(test::test_seed() + 1);
    for (uint64_t n : {4u, 32u}) {
        const unsigned k = unsigned(__builtin_ctzll(n));
        std::vector<fr> a(n - 1), b(n - 1), c(n - 1);
        for (size_t i = 0; i + 1 < n; ++i) {
            a[i] = fr::random(rng);
            b[i] = fr::random(rng);
            c[i] = a[i] * b[i];
        }
        const std::vector<fr> p = compute_h_snarkjs(a, b, n, 3);
        REQUIRE(p.size() == n);
        const fr omega = root_of_unity(k, root_convention::snarkjs);
        const fr w2n = root_of_unity(k + 1, root_convention::snarkjs);
        fr x = w2n;
        for (uint64_t i = 0; i < n; ++i) {
            const fr expect = interpolate_at(a, x, n, omega) * interpolate_at(b, x, n, omega) -
                              interpolate_at(c, x, n, omega);
            REQUIRE(p[i] == expect);
            x *= w2n.sqr();
        }
    }
}

TEST_CASE("bellperson-convention proofs of random circuits verify and tampered ones do not", "[groth16]")
{
    const uint64_t seed = test::test_seed();
    for (size_t nc : {1u, 5u, 40u}) {
        const random_circuit circ(seed + nc, 3, nc);
        const r1cs::pce p = record_pce(circ);
        query_density d;
        const proving_key pk = setup_bellperson(describe(p), &d, {2});
        REQUIRE(d.a_aux.size() == p.num_aux);
        std::vector<fr> pub;
        const proof pr = prove_circuit(pk, p, density_of(p), circ, {2}, nullptr, &pub);
        REQUIRE(pub.size() == 3);
        const auto pvk = prepare_verifying_key(pk.vk);
        CHECK(verify(pvk, pr, pub));

        // a tampered public input
        auto bad_pub = pub;
        bad_pub[1] += fr::one();
        CHECK_FALSE(verify(pvk, pr, bad_pub));
        // a tampered proof: C replaced by C + G
        proof bad = pr;
        bad.c = pr.c.to_jacobian().add(g1_affine::generator()).to_affine();
        CHECK_FALSE(verify(pvk, bad, pub));
        // A and C swapped
        bad = pr;
        std::swap(bad.a, bad.c);
        CHECK_FALSE(verify(pvk, bad, pub));
        // another key for the same circuit
        const proving_key pk2 = setup_bellperson(describe(p), nullptr, {2});
        CHECK_FALSE(verify(prepare_verifying_key(pk2.vk), pr, pub));
        // wrong number of public inputs is an error, not a verdict
        CHECK_THROWS_AS(verify(pvk, pr, std::vector<fr>(2)), cuzk::error);
    }
}

TEST_CASE("an unsatisfied witness is reported with its constraint before any MSM", "[groth16]")
{
    const random_circuit good(test::test_seed(), 2, 20);
    const random_circuit bad(test::test_seed(), 2, 20, 7);
    const r1cs::pce p = record_pce(good);
    query_density d;
    const proving_key pk = setup_bellperson(describe(p), &d, {2});
    try {
        (void)prove_circuit(pk, p, d, bad, {2});
        FAIL("an unsatisfied witness was proved");
    } catch (const cuzk::error& e) {
        CHECK(e.code() == errc::unsatisfied);
        CHECK(std::string(e.what()).find("constraint 7") != std::string::npos);
    }
}

TEST_CASE("snarkjs-convention proofs of random circuits verify", "[groth16]")
{
    const uint64_t seed = test::test_seed() + 99;
    for (size_t nc : {1u, 13u, 60u}) {
        const random_circuit circ(seed + nc, 2, nc);
        const r1cs::pce p = record_pce(circ);
        const proving_key pk = setup_snarkjs(describe(p), {2});
        const assignment w = synthesize_witness(circ);
        std::vector<fr> full = w.inputs;
        full.insert(full.end(), w.aux.begin(), w.aux.end());
        const proof pr = prove_snarkjs(pk, full, {2});
        const auto pvk = prepare_verifying_key(pk.vk);
        const std::vector<fr> pub(w.inputs.begin() + 1, w.inputs.end());
        CHECK(verify(pvk, pr, pub));
        auto bad_pub = pub;
        bad_pub[0] += fr::one();
        CHECK_FALSE(verify(pvk, pr, bad_pub));
        // a witness that breaks a constraint gives a proof that does not verify
        std::vector<fr> broken = full;
        broken.back() += fr::one();
        CHECK_FALSE(verify(pvk, prove_snarkjs(pk, broken, {2}), pub));
    }
}

TEST_CASE("batch verification accepts valid batches and rejects one bad proof", "[groth16]")
{
    const random_circuit c0(test::test_seed() + 5, 2, 10);
    const r1cs::pce p = record_pce(c0);
    query_density d;
    const proving_key pk = setup_bellperson(describe(p), &d, {2});
    const auto pvk = prepare_verifying_key(pk.vk);
    std::vector<proof> proofs;
    std::vector<std::vector<fr>> pubs;
    for (int i = 0; i < 4; ++i) {
        std::vector<fr> pub;
        proofs.push_back(prove_circuit(pk, p, d, c0, {2}, nullptr, &pub));
        pubs.push_back(pub);
    }
    CHECK(verify_batch(pvk, proofs, pubs));
    pubs[2][0] += fr::one();
    CHECK_FALSE(verify_batch(pvk, proofs, pubs));
    pubs[2][0] -= fr::one();
    proofs[3].c = proofs[0].c;
    CHECK_FALSE(verify_batch(pvk, proofs, pubs));
}

TEST_CASE("SHA-256 preimage circuit: prove and verify one block", "[groth16][sha256]")
{
    std::vector<uint8_t> msg(r1cs::gadgets::sha256_preimage_circuit::max_message_bytes(1));
    for (size_t i = 0; i < msg.size(); ++i) msg[i] = uint8_t(i * 7 + 1);
    const r1cs::gadgets::sha256_preimage_circuit circ(msg);
    const r1cs::pce p = record_pce(r1cs::gadgets::sha256_preimage_circuit::blank(1));
    query_density d;
    const proving_key pk = setup_bellperson(describe(p), &d);
    std::vector<fr> pub;
    circuit_timings tm;
    const proof pr = prove_circuit(pk, p, d, circ, {}, &tm, &pub);
    CHECK(verify(prepare_verifying_key(pk.vk), pr, pub));
}
