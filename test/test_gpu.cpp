// The CUDA backend against the CPU paths, bit for bit, on fresh random inputs
// (seed printed by main): field arithmetic (the CPU field is checked against
// GMP in test_ff), NTTs of every size 2^1 … 2^20 (and 2^22, 2^24) in all four
// kinds and both root conventions plus round trips, and G1/G2 MSMs over many
// sizes with edge scalars (0, 1, r − 1, r, 2^256 − 1), identity, repeated and
// opposite points, skewed scalars (all equal) and forced window sizes.
//
// Every case is tagged [gpu] (ctest label `gpu`) and starts with GPU_OR_SKIP:
// without a usable device (or in a build without CUDA) it prints
// "SKIPPED: <reason>" and returns, so the run passes on machines without a GPU.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "cuzk/backend/cuda.hpp"
#include "cuzk/error.hpp"
#include "cuzk/msm/msm.hpp"
#include "cuzk/ntt/ntt.hpp"
#include "gmp_util.hpp"
#include "test_support.hpp"

using namespace cuzk;
using cuzk::test::jac_of;
using cuzk::test::random_points;

namespace {

using repr = fr::repr;

// Random 256-bit scalars with the edge values mixed in.
std::vector<repr> random_scalars(size_t n, std::mt19937_64& rng)
{
    std::vector<repr> s(n);
    for (auto& k : s) {
        switch (rng() % 16) {
        case 0: k = repr::zero(); break;
        case 1: k = repr::from_u64(1); break;
        case 2: k = sub_small(fr_params::modulus, 1); break;
        case 3: k = repr{{~0ull, ~0ull, ~0ull, ~0ull}}; break;
        case 4: k = fr_params::modulus; break;
        case 5: k = repr::from_u64(rng() % 64); break;
        case 6: k = fr::random(rng).to_repr(); break;
        default: k = repr{{rng(), rng(), rng(), rng()}};
        }
    }
    return s;
}

template <class Aff>
void check_msm(const std::vector<Aff>& p, const std::vector<repr>& k, unsigned c = 0)
{
    msm_options o;   // all threads, automatic window
    const auto want = msm(std::span<const Aff>(p), std::span<const repr>(k), o);
    // Every bucket mode: automatic, XYZZ only, batch-affine rounds forced.
    for (auto b : {msm_buckets::automatic, msm_buckets::xyzz, msm_buckets::batch_affine}) {
        gpu_msm_options g;
        g.window_bits = c;
        g.buckets = b;
        const auto got = gpu_msm(std::span<const Aff>(p), std::span<const repr>(k), g);
        INFO("n = " << p.size() << ", window = " << (c ? c : gpu_msm_window_bits(p.size(), sizeof(Aff) > 96))
                    << ", buckets " << int(b));
        REQUIRE(got == want);
        REQUIRE(got.to_affine() == want.to_affine());
    }
}

template <class F>
std::vector<F> field_inputs(size_t n, std::mt19937_64& rng)
{
    std::vector<F> v(n);
    for (auto& x : v) x = F::random(rng);
    // edges: 0, 1, −1, 2
    v[0] = F::zero();
    v[1] = F::one();
    v[2] = -F::one();
    v[3] = F::one() + F::one();
    return v;
}

template <class F>
void check_field_ops(std::mt19937_64& rng)
{
    const size_t n = 10007;
    auto a = field_inputs<F>(n, rng);
    auto b = field_inputs<F>(n, rng);
    std::shuffle(b.begin(), b.end(), rng);
    std::vector<F> out(n);
    for (auto op : {gpu_field_op::mul, gpu_field_op::sqr, gpu_field_op::add, gpu_field_op::sub, gpu_field_op::neg}) {
        gpu_field_apply(op, std::span<const F>(a), std::span<const F>(b), std::span<F>(out));
        size_t bad = 0;
        for (size_t i = 0; i < n; ++i) {
            F want;
            switch (op) {
            case gpu_field_op::mul: want = a[i] * b[i]; break;
            case gpu_field_op::sqr: want = a[i].sqr(); break;
            case gpu_field_op::add: want = a[i] + b[i]; break;
            case gpu_field_op::sub: want = a[i] - b[i]; break;
            default: want = -a[i]; break;
            }
            if (!(out[i] == want)) ++bad;
        }
        INFO("op " << int(op));
        REQUIRE(bad == 0);
    }
}

const char* kind_name(gpu_ntt_kind k)
{
    switch (k) {
    case gpu_ntt_kind::forward: return "forward";
    case gpu_ntt_kind::inverse: return "inverse";
    case gpu_ntt_kind::coset_forward: return "coset_forward";
    default: return "coset_inverse";
    }
}

// The CPU transform of the same kind.
void cpu_ntt(std::vector<fr>& a, const ntt_domain& d, gpu_ntt_kind k, const fr& shift)
{
    switch (k) {
    case gpu_ntt_kind::forward: ntt(a, d); break;
    case gpu_ntt_kind::inverse: intt(a, d); break;
    case gpu_ntt_kind::coset_forward: coset_ntt(a, d, shift); break;
    default: coset_intt(a, d, shift); break;
    }
}

void check_ntt(unsigned log_n, root_convention conv, gpu_ntt_kind kind, std::mt19937_64& rng)
{
    const size_t n = size_t{1} << log_n;
    std::vector<fr> a(n);
    for (auto& x : a) x = fr::random(rng);
    const fr shift = (rng() & 1) ? fr::from_u64(7) : fr::random(rng);
    ntt_domain d(log_n, conv);
    std::vector<fr> want = a, got = a;
    cpu_ntt(want, d, kind, shift);
    gpu_ntt(got, conv, kind, shift);
    size_t bad = 0, first = n;
    for (size_t i = 0; i < n; ++i)
        if (!(got[i] == want[i])) {
            ++bad;
            first = std::min(first, i);
        }
    INFO("2^" << log_n << " " << (conv == root_convention::snarkjs ? "snarkjs" : "bellperson") << " "
              << kind_name(kind) << ": " << bad << " of " << n << " differ, first at " << first);
    REQUIRE(bad == 0);
}

} // namespace

TEST_CASE("gpu: the device is described", "[gpu]")
{
    GPU_OR_SKIP();
    const std::string info = cuda_device_info();
    std::printf("device: %s\n", info.c_str());
    CHECK(cuda_device_count() >= 1);
    CHECK(!info.empty());
}

TEST_CASE("gpu: Fp, Fr and Fp2 arithmetic equal the host's bit for bit", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed());
    SECTION("Fp") { check_field_ops<fp>(rng); }
    SECTION("Fr") { check_field_ops<fr>(rng); }
    SECTION("Fp2") { check_field_ops<fp2>(rng); }
}

TEST_CASE("gpu: NTT equals the CPU NTT for 2^1 … 2^20, all kinds, both conventions", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 1);
    for (auto conv : {root_convention::bellperson, root_convention::snarkjs})
        for (unsigned log_n = 1; log_n <= 20; ++log_n)
            for (auto kind : {gpu_ntt_kind::forward, gpu_ntt_kind::inverse, gpu_ntt_kind::coset_forward,
                              gpu_ntt_kind::coset_inverse})
                check_ntt(log_n, conv, kind, rng);
}

TEST_CASE("gpu: NTT equals the CPU NTT at 2^22 and 2^24", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 2);
    check_ntt(22, root_convention::bellperson, gpu_ntt_kind::coset_forward, rng);
    check_ntt(22, root_convention::snarkjs, gpu_ntt_kind::inverse, rng);
    check_ntt(24, root_convention::bellperson, gpu_ntt_kind::forward, rng);
    check_ntt(24, root_convention::snarkjs, gpu_ntt_kind::coset_inverse, rng);
}

TEST_CASE("gpu: NTT round trips and size one", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 3);
    for (unsigned log_n : {1u, 7u, 11u, 12u, 19u, 23u}) {
        const size_t n = size_t{1} << log_n;
        std::vector<fr> a(n);
        for (auto& x : a) x = fr::random(rng);
        const fr g = fr::random(rng);
        auto b = a;
        gpu_ntt(b, root_convention::snarkjs, gpu_ntt_kind::coset_forward, g);
        gpu_ntt(b, root_convention::snarkjs, gpu_ntt_kind::coset_inverse, g);
        CHECK(b == a);
        gpu_ntt(b, root_convention::bellperson, gpu_ntt_kind::forward);
        CHECK(b != a);
        gpu_ntt(b, root_convention::bellperson, gpu_ntt_kind::inverse);
        CHECK(b == a);
    }
    std::vector<fr> one{fr::random(rng)};
    auto keep = one;
    for (auto kind : {gpu_ntt_kind::forward, gpu_ntt_kind::inverse, gpu_ntt_kind::coset_forward,
                      gpu_ntt_kind::coset_inverse})
        gpu_ntt(one, root_convention::bellperson, kind, fr::from_u64(7));
    CHECK(one == keep);
}

TEST_CASE("gpu: NTT on device memory", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 4);
    const unsigned log_n = 16;
    std::vector<fr> a(size_t{1} << log_n);
    for (auto& x : a) x = fr::random(rng);
    gpu_buffer buf(a.size() * sizeof(fr));
    buf.upload(std::span<const fr>(a));
    gpu_ntt_device(buf.as<fr>(), log_n, root_convention::snarkjs, gpu_ntt_kind::forward);
    std::vector<fr> got(a.size());
    buf.download(std::span<fr>(got));
    ntt(a, ntt_domain(log_n, root_convention::snarkjs));
    CHECK(got == a);
}

TEST_CASE("gpu: NTT with a scale equals scale times the CPU NTT, every kind", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 14);
    for (unsigned log_n : {0u, 1u, 5u, 11u, 12u, 17u}) {
        const size_t n = size_t{1} << log_n;
        const ntt_domain d(log_n, root_convention::bellperson);
        const fr shift = fr::from_u64(7);
        // The scales the GPU prover uses (n, 1/n), a random one, and one.
        const fr nn = fr::from_u64(n);
        for (const fr& scale : {nn, nn.inverse(), fr::random(rng), fr::one()}) {
            for (auto kind : {gpu_ntt_kind::forward, gpu_ntt_kind::inverse, gpu_ntt_kind::coset_forward,
                              gpu_ntt_kind::coset_inverse}) {
                std::vector<fr> a(n);
                for (auto& x : a) x = fr::random(rng);
                std::vector<fr> want = a;
                cpu_ntt(want, d, kind, shift);
                for (auto& x : want) x = x * scale;
                gpu_buffer buf(n * sizeof(fr));
                buf.upload(std::span<const fr>(a));
                gpu_ntt_device(buf.as<fr>(), log_n, root_convention::bellperson, kind, shift, scale);
                std::vector<fr> got(n);
                buf.download(std::span<fr>(got));
                INFO("2^" << log_n << " " << kind_name(kind));
                CHECK(got == want);
            }
        }
    }
}

TEST_CASE("gpu: G1 MSM equals the CPU MSM", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 5);
    for (size_t n : {size_t{1}, size_t{2}, size_t{3}, size_t{100}, size_t{1000}, size_t{4097}, size_t{1} << 16}) {
        auto p = random_points<g1_affine>(n, rng);
        auto k = random_scalars(n, rng);
        check_msm(p, k);
    }
    SECTION("edge scalars, identity, repeated and opposite points")
    {
        const size_t n = 777;
        auto p = random_points<g1_affine>(n, rng);
        p[10] = g1_affine::identity();
        p[11] = p[12];
        p[13] = -p[14];
        p[20] = p[21] = p[22] = p[23];
        auto k = random_scalars(n, rng);
        k[11] = k[12];
        k[13] = k[14];
        for (unsigned c : {0u, 1u, 2u, 7u, 16u}) check_msm(p, k, c);
        std::vector<repr> zeros(n, repr::zero()), ones(n, repr::from_u64(1)), rm1(n, sub_small(fr_params::modulus, 1));
        check_msm(p, zeros);
        check_msm(p, ones);   // every point in one bucket of window 0
        check_msm(p, rm1);
        std::vector<repr> same(n, fr::random(rng).to_repr());
        check_msm(p, same, 9);
    }
    SECTION("device memory")
    {
        const size_t n = 5000;
        auto p = random_points<g1_affine>(n, rng);
        auto k = random_scalars(n, rng);
        gpu_buffer dp(n * sizeof(g1_affine)), dk(n * sizeof(repr));
        dp.upload(std::span<const g1_affine>(p));
        dk.upload(std::span<const repr>(k));
        const auto got = gpu_msm_device(dp.as<g1_affine>(), dk.as<repr>(), n);
        CHECK(got == msm(std::span<const g1_affine>(p), std::span<const repr>(k)));
        CHECK(gpu_msm_device(dp.as<g1_affine>(), dk.as<repr>(), 0).is_identity());
    }
}

TEST_CASE("gpu: G1 MSM over shifted copies equals the CPU MSM", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 7);
    // Plans: the chosen one with room for every copy, with room for one, and
    // explicit ones (several rows, the last copy short of windows; one copy).
    for (size_t n : {size_t{1}, size_t{100}, size_t{4097}, size_t{1} << 16}) {
        auto p = random_points<g1_affine>(n, rng);
        p[n / 2] = g1_affine::identity();
        auto k = random_scalars(n, rng);   // edge values: 0, 1, r − 1, r, 2^256 − 1
        gpu_buffer dp(n * sizeof(g1_affine)), dk(n * sizeof(repr));
        dp.upload(std::span<const g1_affine>(p));
        dk.upload(std::span<const repr>(k));
        const auto want = msm(std::span<const g1_affine>(p), std::span<const repr>(k));
        const uint64_t one_copy = n * sizeof(g1_affine);
        for (gpu_msm_table_plan plan : {gpu_msm_table_choose(n, ~uint64_t{0}), gpu_msm_table_choose(n, one_copy),
                                        gpu_msm_table_plan{7, 3, 13}, gpu_msm_table_plan{16, 2, 9},
                                        gpu_msm_table_plan{11, 1, 24}}) {
            INFO("n = " << n << ", window " << plan.window_bits << ", copies " << plan.copies << ", rows "
                        << plan.rows);
            const gpu_msm_table t(dp.as<g1_affine>(), n, plan);
            REQUIRE(gpu_msm_device(t, dk.as<repr>()) == want);
            if (n == 4097) {   // the copies themselves: 2^(rows·c)·P
                std::vector<g1_affine> q(n);
                if (plan.copies > 1) {
                    t.copies().download(std::span<g1_affine>(q));
                    fr e = fr::one();
                    for (unsigned d = 0; d < plan.rows * plan.window_bits; ++d) e = e + e;
                    CHECK(q[7] == scalar_mul(p[7], e.to_repr()).to_affine());
                    CHECK(q[n / 2].is_identity());
                }
            }
        }
        std::vector<repr> zeros(n, repr::zero());
        dk.upload(std::span<const repr>(zeros));
        CHECK(gpu_msm_device(gpu_msm_table(dp.as<g1_affine>(), n, gpu_msm_table_choose(n, ~uint64_t{0})),
                             dk.as<repr>())
                  .is_identity());
    }
    SECTION("with the device nearly full: window groups, the later ones merged into shared rows")
    {
        // The backend sorts at most (3/4 of the free memory)/72 entries at
        // once when little is free (kernels/cuda_backend.cuh, max_entries):
        // with 300 MB beside the two sets of buckets the 2^19·W entries go in
        // groups, and every group after the first fills a second set of rows
        // that is then merged.
        const size_t n = size_t{1} << 19;
        auto p = random_points<g1_affine>(n, rng);
        auto k = random_scalars(n, rng);
        gpu_buffer dp(n * sizeof(g1_affine)), dk(n * sizeof(repr));
        dp.upload(std::span<const g1_affine>(p));
        dk.upload(std::span<const repr>(k));
        const auto want = msm(std::span<const g1_affine>(p), std::span<const repr>(k));
        for (gpu_msm_table_plan plan : {gpu_msm_table_choose(n, ~uint64_t{0}), gpu_msm_table_plan{16, 4, 5}}) {
            INFO("window " << plan.window_bits << ", copies " << plan.copies << ", rows " << plan.rows);
            const gpu_msm_table t(dp.as<g1_affine>(), n, plan);
            const uint64_t W = (256 + plan.window_bits) / plan.window_bits;
            const uint64_t buckets = uint64_t(plan.rows) * (uint64_t{1} << (plan.window_bits - 1)) * sizeof(g1_xyzz);
            REQUIRE(plan.copies > 1);
            const uint64_t room = uint64_t{300} << 20;
            REQUIRE(room / 4 * 3 / 72 < uint64_t(n) * W);   // so the windows do go in groups
            gpu_release_cache();
            gpu_buffer filler;
            const uint64_t leave = room + 2 * buckets, free_b = gpu_memory().free;
            REQUIRE(free_b > leave);
            filler = gpu_buffer(free_b - leave);
            CHECK(gpu_msm_device(t, dk.as<repr>()) == want);
        }
        gpu_release_cache();
    }
    SECTION("plans that do not fit, and options the table does not take")
    {
        gpu_buffer dp(64 * sizeof(g1_affine)), dk(64 * sizeof(repr));
        auto code = [&](const gpu_msm_table_plan& plan, const gpu_msm_options& o = {}) {
            try {
                const gpu_msm_table t(dp.as<g1_affine>(), 64, plan);
                (void)gpu_msm_device(t, dk.as<repr>(), o);
            } catch (const cuzk::error& e) {
                return e.code();
            }
            return errc::ok;
        };
        CHECK(code({0, 1, 1}) == errc::invalid_argument);     // window 0
        CHECK(code({25, 1, 11}) == errc::invalid_argument);   // window above 24
        CHECK(code({16, 2, 8}) == errc::invalid_argument);    // 2·8 rows < 17 windows (257 bits)
        CHECK(code({16, 18, 1}) == errc::invalid_argument);   // more copies than windows
        CHECK(code({16, 0, 16}) == errc::invalid_argument);
        gpu_msm_options o;
        o.window_bits = 15;
        CHECK(code({16, 2, 9}, o) == errc::invalid_argument);
        o = {};
        o.buckets = msm_buckets::batch_affine;
        CHECK(code({16, 2, 9}, o) == errc::invalid_argument);
        CHECK(code({16, 2, 9}) == errc::ok);
    }
}

TEST_CASE("gpu: G2 MSM equals the CPU MSM", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 6);
    for (size_t n : {size_t{1}, size_t{2}, size_t{3}, size_t{100}, size_t{1000}, size_t{4097}, size_t{1} << 16}) {
        auto p = random_points<g2_affine>(n, rng, 32);
        auto k = random_scalars(n, rng);
        check_msm(p, k);
    }
    SECTION("edge scalars, identity and opposite points, small windows")
    {
        const size_t n = 300;
        auto p = random_points<g2_affine>(n, rng, 32);
        p[5] = g2_affine::identity();
        p[6] = -p[7];
        p[8] = p[9];
        auto k = random_scalars(n, rng);
        k[6] = k[7];
        k[8] = k[9];
        for (unsigned c : {1u, 4u, 11u}) check_msm(p, k, c);
        std::vector<repr> ones(n, repr::from_u64(1));
        check_msm(p, ones);
    }
}

TEST_CASE("gpu: bad arguments throw invalid_argument", "[gpu]")
{
    GPU_OR_SKIP();
    std::vector<fr> three(3);
    auto code = [](auto&& f) {
        try {
            f();
        } catch (const cuzk::error& e) {
            return e.code();
        }
        return errc::ok;
    };
    CHECK(code([&] { gpu_ntt(three, root_convention::snarkjs); }) == errc::invalid_argument);
    std::vector<fr> four(4);
    CHECK(code([&] { gpu_ntt(four, root_convention::snarkjs, gpu_ntt_kind::coset_inverse, fr::zero()); }) ==
          errc::invalid_argument);
    std::vector<g1_affine> p(3, g1_affine::generator());
    std::vector<repr> k(2, repr::from_u64(1));
    CHECK(code([&] { gpu_msm(std::span<const g1_affine>(p), std::span<const repr>(k)); }) == errc::invalid_argument);
    gpu_msm_options o;
    o.window_bits = 25;
    k.resize(3);
    CHECK(code([&] { gpu_msm(std::span<const g1_affine>(p), std::span<const repr>(k), o); }) ==
          errc::invalid_argument);
    std::vector<fp> a(3), out(2);
    CHECK(code([&] { gpu_field_apply(gpu_field_op::mul, std::span<const fp>(a), std::span<const fp>(a), std::span<fp>(out)); }) ==
          errc::invalid_argument);
}
