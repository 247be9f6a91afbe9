// The CUDA backend on BN254 against the CPU, bit for bit, on fresh random
// inputs (seed printed by main): NTTs over BN254's Fr of every size 2^1 …
// 2^18 in all four kinds (snarkjs's roots), and G1/G2 MSMs over many sizes
// with edge scalars (0, 1, r − 1, r, 2^256 − 1), identity, repeated and
// opposite points and forced window sizes. The BLS12-381 cases are in
// test_gpu.cpp; the device arithmetic itself is checked on the host in
// test_ff_device.cpp. The witness MSM's 0/1 path on G1 and G2 against
// groth16::msm_witness (all-zero, all-one, 90 % bits, random and edge
// scalars; identity, repeated and opposite points). The device evaluation
// of a key's coefficient list against snarkjs_evaluate_ab (random order,
// repeated entries, empty rows, a long row; bad coefficients refused). Then
// the BN254 prover on the device against the CPU's (the same sums, the same
// proof for the same r and s, proofs that verify), on a chain of squarings
// and on a circuit of bits (mostly 0/1 witness, with its observer steps).
//
// Every case is tagged [gpu] and starts with GPU_OR_SKIP (see test_gpu.cpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "cuzk/backend/cuda.hpp"
#include "cuzk/backend/gpu_prover.hpp"
#include "cuzk/error.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/msm/msm.hpp"
#include "cuzk/ntt/ntt.hpp"
#include "gmp_util.hpp"
#include "recording_observer.hpp"
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
    for (auto b : {msm_buckets::automatic, msm_buckets::xyzz, msm_buckets::batch_affine}) {
        gpu_msm_options g;
        g.window_bits = c;
        g.buckets = b;
        const auto got = gpu_msm(std::span<const Aff>(p), std::span<const repr>(k), g);
        INFO("n = " << p.size() << ", window = " << c << ", buckets " << int(b));
        REQUIRE(got == want);
        REQUIRE(got.to_affine() == want.to_affine());
    }
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
    auto pk = std::make_shared<const groth16::proving_key_t<bn254_curve>>(groth16::setup_snarkjs<bn254_curve>(circ.describe(), so));
    const gpu_key_t<bn254_curve> key(pk);
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

// ---- the witness MSM (0/1 path) on BN254 -----------------------------------------------------------
namespace {

enum class bn_mix { all_zero, all_one, bits90, random, edge };

const char* bn_mix_name(bn_mix m)
{
    switch (m) {
    case bn_mix::all_zero: return "all zero";
    case bn_mix::all_one: return "all one";
    case bn_mix::bits90: return "90 % bits";
    case bn_mix::random: return "random";
    default: return "edge";
    }
}

// Witness-like Montgomery scalars. edge: 0, 1, −1, 2, the value whose
// Montgomery limbs are the integer 1 (not the field's one: an "other"), and
// random values.
std::vector<bn::fr> bn_witness(size_t n, bn_mix mix, std::mt19937_64& rng)
{
    std::vector<bn::fr> s(n);
    for (auto& x : s) {
        const auto r = rng() % 100;
        switch (mix) {
        case bn_mix::all_zero: x = bn::fr::zero(); break;
        case bn_mix::all_one: x = bn::fr::one(); break;
        case bn_mix::bits90: x = r < 45 ? bn::fr::zero() : r < 90 ? bn::fr::one() : bn::fr::random(rng); break;
        case bn_mix::random: x = bn::fr::random(rng); break;
        default:
            switch (r % 6) {
            case 0: x = bn::fr::zero(); break;
            case 1: x = bn::fr::one(); break;
            case 2: x = -bn::fr::one(); break;
            case 3: x = bn::fr::from_u64(2); break;
            case 4: x = bn::fr::from_mont(repr::from_u64(1)); break;
            default: x = bn::fr::random(rng);
            }
        }
    }
    return s;
}

// Identities, repeated and opposite points, with scalar one for some (the
// batch addition then meets P + P and P + (−P)) unless the mix has no ones.
template <class Aff>
void add_special(std::vector<Aff>& p, std::vector<bn::fr>& s, bn_mix mix)
{
    const size_t n = p.size();
    if (n < 8) return;
    p[1] = Aff::identity();
    p[3] = p[2];
    p[5] = -p[4];
    p[n - 1] = p[0];
    if (mix != bn_mix::all_zero && mix != bn_mix::random) s[1] = s[2] = s[3] = s[4] = s[5] = bn::fr::one();
}

template <class Aff>
void check_bn_witness_msm(size_t n, bn_mix mix, std::mt19937_64& rng)
{
    constexpr bool g2 = std::is_same_v<Aff, bn::g2_affine>;
    auto p = random_points<Aff>(n, rng, g2 ? 32 : 64);
    auto s = bn_witness(n, mix, rng);
    add_special(p, s, mix);
    size_t zeros = 0, ones = 0;
    for (const bn::fr& x : s) {
        zeros += x.is_zero();
        ones += x == bn::fr::one();
    }
    INFO((g2 ? "G2" : "G1") << ", n = " << n << ", scalars " << bn_mix_name(mix));
    const auto want = groth16::msm_witness(std::span<const Aff>(p), std::span<const bn::fr>(s), 0);
    gpu_msm_witness_stats st;
    st.zeros = 999;   // must be overwritten
    const auto got = gpu_msm_witness(std::span<const Aff>(p), std::span<const bn::fr>(s), &st);
    CHECK(got == want);
    CHECK(got.to_affine() == want.to_affine());
    CHECK(st.zeros == zeros);
    CHECK(st.ones == ones);
    CHECK(st.others == n - zeros - ones);
    CHECK(st.batch_add_end >= st.batch_add_begin);
    if (ones == 0) CHECK(st.batch_add_ms == 0);
    if (n - zeros - ones == 0) CHECK(st.msm_ms == 0);
}

} // namespace

TEST_CASE("gpu bn254: witness MSM on G1 equals groth16::msm_witness", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 45);
    for (size_t n : {size_t(1), size_t(2), size_t(3), size_t(1000), size_t(4097), (size_t{1} << 16) + 3})
        for (auto mix : {bn_mix::all_zero, bn_mix::all_one, bn_mix::bits90, bn_mix::random, bn_mix::edge})
            check_bn_witness_msm<bn::g1_affine>(n, mix, rng);
}

TEST_CASE("gpu bn254: witness MSM on G2 equals groth16::msm_witness", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 46);
    for (size_t n : {size_t(1), size_t(3), size_t(1000), size_t(4097)})
        for (auto mix : {bn_mix::all_zero, bn_mix::all_one, bn_mix::bits90, bn_mix::random, bn_mix::edge})
            check_bn_witness_msm<bn::g2_affine>(n, mix, rng);
    check_bn_witness_msm<bn::g2_affine>((size_t{1} << 16) + 3, bn_mix::bits90, rng);
    check_bn_witness_msm<bn::g2_affine>((size_t{1} << 16) + 3, bn_mix::edge, rng);
}

TEST_CASE("gpu bn254: witness MSM over device memory, and the empty MSM", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 47);
    const size_t n = 3001;
    auto p = random_points<bn::g1_affine>(n, rng);
    auto s = bn_witness(n, bn_mix::bits90, rng);
    gpu_buffer dp(n * sizeof(bn::g1_affine)), ds(n * sizeof(bn::fr));
    dp.upload(std::span<const bn::g1_affine>(p));
    ds.upload(std::span<const bn::fr>(s));
    const auto want = groth16::msm_witness(std::span<const bn::g1_affine>(p), std::span<const bn::fr>(s), 0);
    gpu_msm_witness_stats st;
    CHECK(gpu_msm_witness_device(dp.as<bn::g1_affine>(), ds.as<bn::fr>(), n, &st) == want);
    CHECK(st.ones + st.zeros + st.others == n);
    // twice in a row (cached scratch reused), and a prefix
    CHECK(gpu_msm_witness_device(dp.as<bn::g1_affine>(), ds.as<bn::fr>(), n) == want);
    const auto want_prefix = groth16::msm_witness(std::span<const bn::g1_affine>(p).first(100),
                                                  std::span<const bn::fr>(s).first(100), 0);
    CHECK(gpu_msm_witness_device(dp.as<bn::g1_affine>(), ds.as<bn::fr>(), 100) == want_prefix);
    // the same sum through the plain MSM with canonical scalars
    std::vector<repr> canon(n);
    for (size_t i = 0; i < n; ++i) canon[i] = s[i].to_repr();
    CHECK(gpu_msm(std::span<const bn::g1_affine>(p), std::span<const repr>(canon)) == want);

    gpu_msm_witness_stats e;
    CHECK(gpu_msm_witness(std::span<const bn::g1_affine>(), std::span<const bn::fr>(), &e).is_identity());
    CHECK(e.zeros + e.ones + e.others == 0);
    CHECK(gpu_msm_witness_device(static_cast<const bn::g2_affine*>(nullptr), nullptr, 0).is_identity());
    CHECK_THROWS_AS(gpu_msm_witness(std::span<const bn::g1_affine>(p), std::span<const bn::fr>(s).first(10)), error);
}

// ---- A·w and B·w on the device ---------------------------------------------------------------------
namespace {

using bn_coef = groth16::sparse_coef_t<bn254_curve>;

// A snarkjs-convention key whose points are generators (only their sizes
// matter here) around a given coefficient list.
std::shared_ptr<const groth16::proving_key_t<bn254_curve>> eval_key(unsigned log_n, uint32_t ni, uint32_t na, std::vector<bn_coef> cs)
{
    auto pk = std::make_shared<groth16::proving_key_t<bn254_curve>>();
    pk->conv = groth16::convention::snarkjs;
    pk->num_inputs = ni;
    pk->num_aux = na;
    pk->domain_size = uint64_t{1} << log_n;
    const size_t nv = size_t(ni) + na;
    pk->h.assign(pk->domain_size, bn::g1_affine::generator());
    pk->l.assign(na, bn::g1_affine::generator());
    pk->a.assign(nv, bn::g1_affine::generator());
    pk->b_g1.assign(nv, bn::g1_affine::generator());
    pk->b_g2.assign(nv, bn::g2_affine::generator());
    pk->coefs = std::move(cs);
    return pk;
}

bn::fr coef_value(std::mt19937_64& rng)
{
    switch (rng() % 5) {
    case 0: return bn::fr::one();
    case 1: return -bn::fr::one();
    case 2: return bn::fr::zero();
    default: return bn::fr::random(rng);
    }
}

// m coefficients on the constraints below `used` (the rows above stay
// empty; some below too), in random order, a tenth of them repeated
// verbatim or with another value at the same (matrix, constraint, signal).
std::vector<bn_coef> random_coefs(size_t m, uint32_t used, uint32_t nv, std::mt19937_64& rng)
{
    std::vector<bn_coef> cs;
    const uint32_t hole = uint32_t(rng() % used);   // a row left empty in both matrices
    while (cs.size() < m) {
        uint32_t c = uint32_t(rng() % used);
        if (c == hole && used > 1) continue;
        cs.push_back({uint32_t(rng() & 1), c, uint32_t(rng() % nv), coef_value(rng)});
        if (rng() % 10 == 0) cs.push_back(cs.back());
        if (rng() % 10 == 0) cs.push_back({cs.back().matrix, c, cs.back().signal, bn::fr::random(rng)});
    }
    std::shuffle(cs.begin(), cs.end(), rng);
    return cs;
}

std::vector<bn::fr> eval_witness(size_t nv, std::mt19937_64& rng)
{
    auto w = bn_witness(nv, bn_mix::edge, rng);
    w[0] = bn::fr::one();
    return w;
}

void check_device_eval(const std::shared_ptr<const groth16::proving_key_t<bn254_curve>>& pk, std::mt19937_64& rng, const char* what)
{
    const gpu_key_t<bn254_curve> key(pk);
    const auto w = eval_witness(size_t(pk->num_inputs) + pk->num_aux, rng);
    std::vector<bn::fr> wa, wb, ga{bn::fr::one()}, gb;   // ga non-empty: must be overwritten
    groth16::snarkjs_evaluate_ab(*pk, std::span<const bn::fr>(w), wa, wb);
    gpu_snarkjs_evaluate_ab(key, w, ga, gb);
    size_t bad = 0, nonzero = 0;
    for (size_t i = 0; i < wa.size() && i < ga.size() && i < gb.size(); ++i) {
        bad += !(ga[i] == wa[i]) + !(gb[i] == wb[i]);
        nonzero += !wa[i].is_zero() + !wb[i].is_zero();
    }
    INFO(what << ": domain " << pk->domain_size << ", " << pk->coefs.size() << " coefficients, " << bad
              << " values differ");
    REQUIRE(ga.size() == pk->domain_size);
    REQUIRE(gb.size() == pk->domain_size);
    CHECK(bad == 0);
    if (pk->coefs.size() >= 64) CHECK(nonzero > 0);   // the comparison is not between zeros only
    // the evaluation leaves the key usable: a second witness
    const auto w2 = eval_witness(w.size(), rng);
    groth16::snarkjs_evaluate_ab(*pk, std::span<const bn::fr>(w2), wa, wb);
    gpu_snarkjs_evaluate_ab(key, w2, ga, gb);
    CHECK(ga == wa);
    CHECK(gb == wb);
}

} // namespace

TEST_CASE("gpu bn254: A·w and B·w on the device equal snarkjs_evaluate_ab", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 48);
    for (unsigned log_n : {1u, 2u, 5u, 10u, 13u}) {
        const uint32_t n = uint32_t{1} << log_n;
        const uint32_t ni = 1 + uint32_t(rng() % 4), na = 1 + uint32_t(rng() % (2 * n + 5));
        const uint32_t nv = ni + na;
        // the upper quarter of the rows without coefficients
        const uint32_t used = std::max<uint32_t>(1, n - n / 4);
        check_device_eval(eval_key(log_n, ni, na, random_coefs(3 * size_t(n) + 1, used, nv, rng)), rng,
                          "random order, repeats, empty rows");
        check_device_eval(eval_key(log_n, ni, na, random_coefs(n / 2 + 1, n, nv, rng)), rng, "sparse");
    }
    // no coefficients at all: a and b are zero
    check_device_eval(eval_key(4, 2, 5, {}), rng, "empty list");
    // ordered by constraint (A and B interleaved) and long enough for the
    // host's threaded evaluation; one long row of 3000 entries
    const unsigned log_n = 15;
    const uint32_t n = uint32_t{1} << log_n, ni = 3, na = 40000;
    auto cs = random_coefs(size_t(3) * n, n - 7, ni + na, rng);
    for (uint32_t j = 0; j < 3000; ++j) cs.push_back({0, 17, j % (ni + na), coef_value(rng)});
    std::stable_sort(cs.begin(), cs.end(),
                     [](const bn_coef& x, const bn_coef& y) { return x.constraint < y.constraint; });
    check_device_eval(eval_key(log_n, ni, na, std::move(cs)), rng, "ordered by constraint");
}

TEST_CASE("gpu bn254: a key with a coefficient out of range is refused; bad witnesses are refused", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 49);
    auto code_of = [](auto&& f) {
        try {
            f();
        } catch (const error& e) {
            return e.code();
        }
        return errc::ok;
    };
    const uint32_t ni = 2, na = 6;
    for (bn_coef bad : {bn_coef{2, 0, 0, bn::fr::one()}, bn_coef{0, 8, 0, bn::fr::one()},
                        bn_coef{1, 0, 8, bn::fr::one()}}) {
        auto cs = random_coefs(20, 8, ni + na, rng);
        cs.insert(cs.begin() + 7, bad);
        const auto pk = eval_key(3, ni, na, std::move(cs));
        CHECK(code_of([&] { gpu_key_t<bn254_curve> k(pk); }) == errc::bad_format);
    }
    const gpu_key_t<bn254_curve> key(eval_key(3, ni, na, random_coefs(20, 8, ni + na, rng)));
    std::vector<bn::fr> a, b;
    auto w = eval_witness(ni + na, rng);
    CHECK(code_of([&] { gpu_snarkjs_evaluate_ab(key, std::span<const bn::fr>(w).first(ni + na - 1), a, b); }) ==
          errc::invalid_argument);
    w[0] = bn::fr::from_u64(2);
    CHECK(code_of([&] { gpu_snarkjs_evaluate_ab(key, w, a, b); }) == errc::invalid_argument);
    CHECK(code_of([&] { (void)gpu_prove_start_snarkjs(key, w); }) == errc::invalid_argument);
}

// ---- the prover with the 0/1 path ---------------------------------------------------------------------
namespace {

// k bits b_i of a public x, then a chain of m squarings (random values):
// signals 0 = ONE, 1 = x, 2 … k + 1 = b_i, k + 2 … k + m + 1 = v_j.
// Constraints: b_i·(b_i − ONE) = 0 (B has a −1 coefficient); (Σ 2^i·b_i)·ONE
// = x (coefficients 2^i); v_j·v_j = v_{j+1}. The witness is mostly 0 and 1.
struct bits_circuit {
    uint32_t k, m;
    groth16::r1cs_description_t<bn::fr> describe() const
    {
        groth16::r1cs_description_t<bn::fr> d;
        d.num_inputs = 2;
        d.num_aux = k + m;
        d.num_constraints = k + 1 + (m - 1);
        const uint32_t kk = k, mm = m;
        d.for_each_entry = [kk, mm](const auto& fn) {
            for (uint32_t i = 0; i < kk; ++i) {
                fn(0, i, 2 + i, bn::fr::one());
                fn(1, i, 2 + i, bn::fr::one());
                fn(1, i, 0, -bn::fr::one());
            }
            bn::fr p = bn::fr::one();
            for (uint32_t i = 0; i < kk; ++i, p = p + p) fn(0, kk, 2 + i, p);
            fn(1, kk, 0, bn::fr::one());
            fn(2, kk, 1, bn::fr::one());
            for (uint32_t j = 0; j + 1 < mm; ++j) {
                fn(0, kk + 1 + j, 2 + kk + j, bn::fr::one());
                fn(1, kk + 1 + j, 2 + kk + j, bn::fr::one());
                fn(2, kk + 1 + j, 3 + kk + j, bn::fr::one());
            }
        };
        return d;
    }
    std::vector<bn::fr> witness(std::mt19937_64& rng) const
    {
        std::vector<bn::fr> w(size_t(k) + m + 2);
        w[0] = bn::fr::one();
        bn::fr x = bn::fr::zero(), p = bn::fr::one();
        for (uint32_t i = 0; i < k; ++i, p = p + p) {
            w[2 + i] = (rng() % 10 < 9) ? bn::fr::from_u64(rng() & 1) : bn::fr::zero();
            x += w[2 + i] * p;
        }
        w[1] = x;
        w[2 + k] = bn::fr::random(rng);
        for (uint32_t j = 1; j < m; ++j) w[2 + k + j] = w[1 + k + j].sqr();
        return w;
    }
};

using cuzk::test::recording_observer;

} // namespace

TEST_CASE("gpu bn254: the prover on a circuit of bits (0/1 witness, coefficients other than 1), its steps", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 50);
    const bits_circuit circ{3000, 900};   // 3901 rows + 2 input rows: domain 2^12
    const auto waste = groth16::toxic_waste_t<bn::fr>::from_seed(rng());
    groth16::setup_options_t<bn254_curve> so;
    so.waste = &waste;
    auto pk = std::make_shared<const groth16::proving_key_t<bn254_curve>>(groth16::setup_snarkjs<bn254_curve>(circ.describe(), so));
    const gpu_key_t<bn254_curve> key(pk);
    CHECK(key.device_bytes() >= pk->coefs.size() * (sizeof(bn::fr) + sizeof(uint32_t)));
    const auto w = circ.witness(rng);
    const auto cpu = groth16::prove_start_snarkjs(*pk, std::span<const bn::fr>(w));

    recording_observer obs;
    obs.log_spans = true;
    groth16::prove_timings tm;
    const auto gpu = gpu_prove_start_snarkjs(key, w, &obs, &tm);
    CHECK(gpu.h == cpu.h);
    CHECK(gpu.l == cpu.l);
    CHECK(gpu.a == cpu.a);
    CHECK(gpu.b1 == cpu.b1);
    CHECK(gpu.b2 == cpu.b2);
    // the steps in order, each BATCH_ADD inside its MSM (every witness query has ones)
    const std::vector<std::string> want_log{
        "+PCE_EVAL:", "-PCE_EVAL:", "+NTT:",     "-NTT:",      "+MSM_H:h",   "-MSM_H:h",   "+MSM_L:l",
        "=BATCH_ADD:l", "-MSM_L:l", "+MSM_A:a",  "=BATCH_ADD:a", "-MSM_A:a", "+MSM_B1:b1", "=BATCH_ADD:b1",
        "-MSM_B1:b1", "+MSM_B2:b2", "=BATCH_ADD:b2", "-MSM_B2:b2"};
    CHECK(obs.log == want_log);
    for (const auto& s : obs.spans) CHECK(s.e >= s.b);
    CHECK(tm.h_ns > 0);
    CHECK(tm.total_ns >= tm.h_ns);

    // from host a, b: the same sums, no PCE_EVAL step
    std::vector<bn::fr> ha, hb;
    groth16::snarkjs_evaluate_ab(*pk, std::span<const bn::fr>(w), ha, hb);
    recording_observer obs2;
    obs2.log_spans = true;
    const auto gpu2 = gpu_prove_start_snarkjs(key, ha, hb, w, &obs2);
    CHECK((gpu2.h == cpu.h && gpu2.l == cpu.l && gpu2.a == cpu.a && gpu2.b1 == cpu.b1 && gpu2.b2 == cpu.b2));
    REQUIRE(!obs2.log.empty());
    CHECK(obs2.log.front() == "+NTT:");

    // proofs: equal to the CPU's for the same r, s; verify; a wrong witness fails
    const bn::fr r = bn::fr::random(rng), s = bn::fr::random(rng);
    const auto pr = gpu_prove_snarkjs(key, w, r, s);
    const auto want = groth16::prove_snarkjs(*pk, std::span<const bn::fr>(w), r, s);
    CHECK((pr.a == want.a && pr.b == want.b && pr.c == want.c));
    const auto pvk = groth16::prepare_verifying_key(pk->vk);
    CHECK(groth16::verify<bn254_curve>(pvk, pr, std::vector<bn::fr>{w[1]}));
    auto bad = w;
    bad[2] = bn::fr::from_u64(2);   // not a bit
    CHECK_FALSE(groth16::verify<bn254_curve>(pvk, gpu_prove_snarkjs(key, bad), std::vector<bn::fr>{w[1]}));
}
