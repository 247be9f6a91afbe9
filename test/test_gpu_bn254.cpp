// The CUDA backend on BN254 against the CPU, bit for bit, on fresh random
// inputs (seed printed by main): NTTs over BN254's Fr of every size 2^1 …
// 2^18 in all four kinds (snarkjs's roots), and G1/G2 MSMs over many sizes
// with edge scalars (0, 1, r − 1, r, 2^256 − 1), identity, repeated and
// opposite points and forced window sizes. The BLS12-381 cases are in
// test_gpu.cpp; the device arithmetic itself is checked on the host in
// test_ff_device.cpp. Then the BN254 prover on the device against the CPU's
// (the same sums, the same proof for the same r and s, proofs that verify).
//
// Every case is tagged [gpu] and starts with GPU_OR_SKIP (see test_gpu.cpp).
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "cuzk/backend/cuda.hpp"
#include "cuzk/backend/gpu_prover_bn254.hpp"
#include "cuzk/error.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/msm/msm.hpp"
#include "cuzk/ntt/ntt.hpp"
#include "gmp_util.hpp"
#include "test_support.hpp"

using namespace cuzk;
using cuzk::test::random_points;
namespace bn = cuzk::bn254;

namespace {

using repr = fr::repr;

std::vector<repr> bn_scalars(size_t n, std::mt19937_64& rng)
{
    std::vector<repr> s(n);
    for (auto& k : s) {
        switch (rng() % 12) {
        case 0: k = repr::zero(); break;
        case 1: k = repr::from_u64(1); break;
        case 2: k = sub_small(bn::fr_params::modulus, 1); break;
        case 3: k = bn::fr_params::modulus; break;
        case 4: k = repr{{~0ull, ~0ull, ~0ull, ~0ull}}; break;
        case 5: k = repr::from_u64(rng() % 64); break;
        default: k = bn::fr::random(rng).to_repr();
        }
    }
    return s;
}

template <class Aff>
void check_bn_msm(const std::vector<Aff>& p, const std::vector<repr>& k, unsigned c = 0)
{
    const auto want = msm(std::span<const Aff>(p), std::span<const repr>(k));
    gpu_msm_options g;
    g.window_bits = c;
    const auto got = gpu_msm(std::span<const Aff>(p), std::span<const repr>(k), g);
    INFO("n = " << p.size() << ", window = " << c);
    REQUIRE(got == want);
    REQUIRE(got.to_affine() == want.to_affine());
}

void cpu_bn_ntt(std::vector<bn::fr>& a, const ntt_domain_t<bn::fr>& d, gpu_ntt_kind k, const bn::fr& shift)
{
    switch (k) {
    case gpu_ntt_kind::forward: ntt<bn::fr>(a, d); break;
    case gpu_ntt_kind::inverse: intt<bn::fr>(a, d); break;
    case gpu_ntt_kind::coset_forward: coset_ntt<bn::fr>(a, d, shift); break;
    default: coset_intt<bn::fr>(a, d, shift); break;
    }
}

void check_bn_ntt(unsigned log_n, gpu_ntt_kind kind, std::mt19937_64& rng)
{
    const size_t n = size_t{1} << log_n;
    std::vector<bn::fr> a(n);
    for (auto& x : a) x = bn::fr::random(rng);
    const bn::fr shift = (rng() & 1) ? bn::fr::from_u64(5) : bn::fr::random(rng);
    const ntt_domain_t<bn::fr> d(log_n, root_convention::snarkjs);
    std::vector<bn::fr> want = a, got = a;
    cpu_bn_ntt(want, d, kind, shift);
    gpu_ntt(std::span<bn::fr>(got), root_convention::snarkjs, kind, shift);
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i) bad += !(got[i] == want[i]);
    INFO("2^" << log_n << " kind " << int(kind) << ": " << bad << " of " << n << " differ");
    REQUIRE(bad == 0);
}

} // namespace

TEST_CASE("gpu bn254: NTT equals the CPU NTT for 2^1 … 2^18, all kinds", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 40);
    for (unsigned log_n = 1; log_n <= 18; ++log_n)
        for (auto kind : {gpu_ntt_kind::forward, gpu_ntt_kind::inverse, gpu_ntt_kind::coset_forward,
                          gpu_ntt_kind::coset_inverse})
            check_bn_ntt(log_n, kind, rng);
}

TEST_CASE("gpu bn254: NTT on device memory with a scale, and a round trip", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 41);
    const unsigned log_n = 20;
    std::vector<bn::fr> a(size_t{1} << log_n);
    for (auto& x : a) x = bn::fr::random(rng);
    const bn::fr scale = bn::fr::random(rng), g = bn::fr::random(rng);
    gpu_buffer buf(a.size() * sizeof(bn::fr));
    buf.upload(std::span<const bn::fr>(a));
    gpu_ntt_device(buf.as<bn::fr>(), log_n, root_convention::snarkjs, gpu_ntt_kind::inverse, bn::fr::one(), scale);
    std::vector<bn::fr> got(a.size()), want = a;
    buf.download(std::span<bn::fr>(got));
    intt<bn::fr>(want, ntt_domain_t<bn::fr>(log_n, root_convention::snarkjs));
    for (auto& x : want) x = x * scale;
    CHECK(got == want);
    auto b = a;
    gpu_ntt(std::span<bn::fr>(b), root_convention::snarkjs, gpu_ntt_kind::coset_forward, g);
    CHECK(b != a);
    gpu_ntt(std::span<bn::fr>(b), root_convention::snarkjs, gpu_ntt_kind::coset_inverse, g);
    CHECK(b == a);
}

TEST_CASE("gpu bn254: G1 MSM equals the CPU MSM", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 42);
    for (size_t n : {size_t{1}, size_t{2}, size_t{3}, size_t{100}, size_t{4097}, size_t{1} << 16})
        check_bn_msm(random_points<bn::g1_affine>(n, rng), bn_scalars(n, rng));
    const size_t n = 777;
    auto p = random_points<bn::g1_affine>(n, rng);
    p[10] = bn::g1_affine::identity();
    p[11] = p[12];
    p[13] = -p[14];
    auto k = bn_scalars(n, rng);
    k[11] = k[12];
    k[13] = k[14];
    for (unsigned c : {0u, 1u, 7u, 16u}) check_bn_msm(p, k, c);
    check_bn_msm(p, std::vector<repr>(n, repr::from_u64(1)));
    check_bn_msm(p, std::vector<repr>(n, sub_small(bn::fr_params::modulus, 1)));
}

TEST_CASE("gpu bn254: G2 MSM equals the CPU MSM", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 43);
    for (size_t n : {size_t{1}, size_t{3}, size_t{1000}, size_t{1} << 14})
        check_bn_msm(random_points<bn::g2_affine>(n, rng, 32), bn_scalars(n, rng));
    const size_t n = 300;
    auto p = random_points<bn::g2_affine>(n, rng, 32);
    p[5] = bn::g2_affine::identity();
    p[6] = -p[7];
    auto k = bn_scalars(n, rng);
    k[6] = k[7];
    for (unsigned c : {1u, 4u, 11u}) check_bn_msm(p, k, c);
}

namespace {

// A chain of n squarings v_{i+1} = v_i² with the last value public: signals
// 0 = ONE, 1 = out, 2 … n + 1 = v_0 … v_{n−1}; constraint i: v_i·v_i = v_{i+1}
// (the last one's right side is `out`).
struct square_chain {
    uint32_t n;
    groth16::r1cs_description_t<bn::fr> describe() const
    {
        groth16::r1cs_description_t<bn::fr> d;
        d.num_inputs = 2;
        d.num_aux = n;
        d.num_constraints = n;
        const uint32_t nn = n;
        d.for_each_entry = [nn](const auto& fn) {
            for (uint32_t i = 0; i < nn; ++i) {
                fn(0, i, 2 + i, bn::fr::one());
                fn(1, i, 2 + i, bn::fr::one());
                fn(2, i, i + 1 < nn ? 3 + i : 1, bn::fr::one());
            }
        };
        return d;
    }
    std::vector<bn::fr> witness(const bn::fr& x0) const
    {
        std::vector<bn::fr> w(size_t(n) + 2);
        w[0] = bn::fr::one();
        w[2] = x0;
        for (uint32_t i = 1; i < n; ++i) w[2 + i] = w[1 + i].sqr();
        w[1] = w[1 + n].sqr();
        return w;
    }
};

} // namespace

TEST_CASE("gpu bn254: the prover equals the CPU prover, and its proofs verify", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 44);
    const square_chain circ{5000};   // domain 2^13: NTTs of more than one pass
    const auto waste = groth16::toxic_waste_t<bn::fr>::from_seed(rng());
    groth16::setup_options_t<bn254_curve> so;
    so.waste = &waste;
    auto pk = std::make_shared<const bn254_proving_key>(groth16::setup_snarkjs<bn254_curve>(circ.describe(), so));
    const gpu_key_bn254 key(pk);
    const auto w = circ.witness(bn::fr::random(rng));
    const auto cpu = groth16::prove_start_snarkjs(*pk, std::span<const bn::fr>(w));
    const auto gpu = gpu_prove_start_snarkjs(key, w);
    CHECK(gpu.h == cpu.h);
    CHECK(gpu.l == cpu.l);
    CHECK(gpu.a == cpu.a);
    CHECK(gpu.b1 == cpu.b1);
    CHECK(gpu.b2 == cpu.b2);
    const bn::fr r = bn::fr::random(rng), s = bn::fr::random(rng);
    const auto pr = gpu_prove_snarkjs(key, w, r, s);
    const auto want = groth16::prove_snarkjs(*pk, std::span<const bn::fr>(w), r, s);
    CHECK((pr.a == want.a && pr.b == want.b && pr.c == want.c));
    const auto pvk = groth16::prepare_verifying_key(pk->vk);
    std::vector<bn::fr> pub{w[1]};
    CHECK(groth16::verify<bn254_curve>(pvk, pr, pub));
    pub[0] += bn::fr::one();
    CHECK_FALSE(groth16::verify<bn254_curve>(pvk, pr, pub));
    auto bad = w;
    bad[3] += bn::fr::one();   // breaks v_1 = v_0²
    CHECK_FALSE(groth16::verify<bn254_curve>(pvk, gpu_prove_snarkjs(key, bad), std::vector<bn::fr>{w[1]}));
    CHECK_THROWS_AS(gpu_prove_snarkjs(key, std::span<const bn::fr>(w).first(w.size() - 1)), cuzk::error);
}
