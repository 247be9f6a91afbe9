// CPU MSM and the 0/1 sum against the naive Σ k_i·P_i (ec/point.hpp's
// scalar_mul, a plain 4-bit fixed window, unsigned digits, no buckets), over
// many sizes, edge scalars (0, 1, r − 1, 2^256 − 1, …), repeated, opposite
// and identity points, every window size 1 … 16, several thread counts and
// both bucket methods; linearity where the naive sum is too slow.
#include <catch2/catch.hpp>

#include <atomic>
#include <random>
#include <vector>

#include "cuzk/error.hpp"
#include "cuzk/msm/msm.hpp"
#include "cuzk/util/parallel.hpp"
#include "gmp_util.hpp"
#include "ifma/ifma.hpp"
#include "msm/vector_batch.hpp"
#include "test_support.hpp"

using namespace cuzk;
using cuzk::test::jac_of;
using cuzk::test::random_points;

namespace {

using repr = fr::repr;

repr r_minus(uint64_t v)
{
    return sub_small(fr_params::modulus, v);
}
repr all_ones()
{
    return repr{{~0ull, ~0ull, ~0ull, ~0ull}};
}

repr random_repr(std::mt19937_64& rng)
{
    return repr{{rng(), rng(), rng(), rng()}};
}

// Random 256-bit scalars with edge values mixed in.
std::vector<repr> random_scalars(size_t n, std::mt19937_64& rng)
{
    std::vector<repr> s(n);
    for (auto& k : s) {
        switch (rng() % 16) {
        case 0: k = repr::zero(); break;
        case 1: k = repr::from_u64(1); break;
        case 2: k = r_minus(1); break;
        case 3: k = all_ones(); break;
        case 4: k = fr_params::modulus; break;
        case 5: k = repr::from_u64(rng() % 64); break;
        case 6: k = fr::random(rng).to_repr(); break;
        default: k = random_repr(rng);
        }
    }
    return s;
}

template <class Aff>
jac_of<Aff> naive(const std::vector<Aff>& p, const std::vector<repr>& k)
{
    auto acc = jac_of<Aff>::identity();
    for (size_t i = 0; i < p.size(); ++i) acc = acc.add(scalar_mul(p[i], k[i]));
    return acc;
}

template <class Aff>
jac_of<Aff> run(const std::vector<Aff>& p, const std::vector<repr>& k, unsigned threads = 1, unsigned c = 0,
                msm_buckets b = msm_buckets::automatic)
{
    msm_options o;
    o.threads = threads;
    o.window_bits = c;
    o.buckets = b;
    return msm(std::span<const Aff>(p), std::span<const repr>(k), o);
}

const msm_buckets all_modes[] = {msm_buckets::automatic, msm_buckets::xyzz, msm_buckets::batch_affine};

const char* mode_name(msm_buckets b)
{
    return b == msm_buckets::xyzz ? "xyzz" : b == msm_buckets::batch_affine ? "batch_affine" : "automatic";
}

// An input with every special case: repeated points, P next to −P, identity
// points, and the edge scalars.
template <class Aff>
void make_nasty(size_t n, std::mt19937_64& rng, std::vector<Aff>& p, std::vector<repr>& k)
{
    const std::vector<Aff> base = random_points<Aff>(8, rng);
    p.resize(n);
    for (size_t i = 0; i < n; ++i) {
        const Aff& q = base[rng() % base.size()];
        switch (rng() % 5) {
        case 0: p[i] = -q; break;
        case 1: p[i] = Aff::identity(); break;
        default: p[i] = q;
        }
    }
    k = random_scalars(n, rng);
    // A run of equal scalars on equal points: every window digit repeats.
    for (size_t i = 0; i < n / 4; ++i) {
        p[i] = base[0];
        k[i] = repr{{0x123456789abcdefull, 42, 7, 1}};
    }
}

} // namespace

TEST_CASE("parallel_for covers the range exactly once", "[msm][parallel]")
{
    for (unsigned threads : {0u, 1u, 2u, 3u, 8u}) {
        for (size_t n : {size_t(0), size_t(1), size_t(2), size_t(7), size_t(1000)}) {
            std::vector<int> hits(n, 0);
            std::vector<int> worker_used(resolve_threads(threads), 0);
            parallel_for(threads, n, [&](size_t b, size_t e, unsigned w) {
                worker_used[w] += 1;   // each worker writes only its own slot
                for (size_t i = b; i < e; ++i) hits[i] += 1;
            });
            for (size_t i = 0; i < n; ++i) REQUIRE(hits[i] == 1);
            for (int u : worker_used) REQUIRE(u <= 1);
            // Catch2's assertions are not thread-safe: record, check afterwards.
            std::vector<std::atomic<int>> task_hits(n);
            std::atomic<bool> bad_worker{false};
            parallel_tasks(threads, n, [&](size_t t, unsigned w) {
                if (w >= resolve_threads(threads)) bad_worker = true;
                task_hits[t] += 1;
            });
            CHECK(!bad_worker);
            for (size_t i = 0; i < n; ++i) REQUIRE(task_hits[i].load() == 1);
        }
    }
    // Exceptions reach the caller.
    CHECK_THROWS_AS(parallel_for(3, 10, [](size_t b, size_t, unsigned) {
                        if (b > 0) throw error(errc::internal, "x");
                    }),
                    error);
    CHECK_THROWS_AS(parallel_tasks(3, 10, [](size_t t, unsigned) {
                        if (t == 5) throw error(errc::internal, "x");
                    }),
                    error);
}

TEST_CASE("MSM G1 equals the naive sum over many sizes", "[msm]")
{
    std::mt19937_64 rng(test::test_seed() ^ 0x6d736d31);
    for (size_t n : {0, 1, 2, 3, 7, 31, 100, 257, 1000, 4097}) {
        INFO("n = " << n);
        const auto p = random_points<g1_affine>(n, rng);
        const auto k = random_scalars(n, rng);
        const auto expect = naive(p, k);
        CHECK(run(p, k, 1) == expect);
        CHECK(run(p, k, 0) == expect);
        CHECK(run(p, k, 1, 0, msm_buckets::xyzz) == expect);
        CHECK(run(p, k, 3, 0, msm_buckets::batch_affine) == expect);
        if (n == 4097) {
            // Windows that the batch-affine method uses for real batches.
            for (unsigned c : {11u, 13u})
                for (auto b : all_modes) {
                    INFO("c = " << c << " " << mode_name(b));
                    CHECK(run(p, k, 2, c, b) == expect);
                }
        }
    }
}

TEST_CASE("MSM G1 edge scalars and points", "[msm]")
{
    std::mt19937_64 rng(test::test_seed() ^ 0x6d736d32);
    const size_t n = 40;
    const auto p = random_points<g1_affine>(n, rng);
    using J = g1_jacobian;
    J sum = J::identity();
    for (const auto& q : p) sum = sum.add(q);

    auto constant = [&](const repr& v) { return std::vector<repr>(n, v); };
    for (auto b : all_modes) {
        INFO(mode_name(b));
        CHECK(run(p, constant(repr::zero()), 1, 0, b).is_identity());
        CHECK(run(p, constant(repr::from_u64(1)), 1, 0, b) == sum);
        CHECK(run(p, constant(r_minus(1)), 2, 0, b) == -sum);
        CHECK(run(p, constant(fr_params::modulus), 1, 0, b).is_identity());   // points of order r
        CHECK(run(p, constant(all_ones()), 1, 0, b) == naive(p, constant(all_ones())));
        // 2^255: only the top window is non-zero.
        repr top = repr::zero();
        top.l[3] = 1ull << 63;
        CHECK(run(p, constant(top), 1, 0, b) == naive(p, constant(top)));
        // Identity points only.
        const std::vector<g1_affine> ids(n, g1_affine::identity());
        CHECK(run(ids, random_scalars(n, rng), 1, 0, b).is_identity());
        // P and −P with equal scalars cancel.
        std::vector<g1_affine> pm;
        for (const auto& q : p) {
            pm.push_back(q);
            pm.push_back(-q);
        }
        std::vector<repr> kk;
        for (size_t i = 0; i < n; ++i) {
            const repr v = random_repr(rng);
            kk.push_back(v);
            kk.push_back(v);
        }
        CHECK(run(pm, kk, 1, 0, b).is_identity());
        CHECK(run(pm, kk, 3, 7, b).is_identity());
        // All points equal, random scalars.
        const std::vector<g1_affine> same(300, p[0]);
        const auto ks = random_scalars(300, rng);
        CHECK(run(same, ks, 1, 0, b) == naive(same, ks));
        CHECK(run(same, ks, 2, 12, b) == naive(same, ks));
        // All points equal with scalar 1: every addition hits the same bucket.
        const std::vector<repr> ones(300, repr::from_u64(1));
        CHECK(run(same, ones, 1, 0, b) == scalar_mul(p[0], repr::from_u64(300)));
    }
}

TEST_CASE("MSM G1 thread counts and window sizes agree", "[msm]")
{
    std::mt19937_64 rng(test::test_seed() ^ 0x6d736d33);
    std::vector<g1_affine> p;
    std::vector<repr> k;
    make_nasty(200, rng, p, k);
    // Plus ordinary random points.
    const auto extra = random_points<g1_affine>(100, rng);
    const auto kx = random_scalars(100, rng);
    p.insert(p.end(), extra.begin(), extra.end());
    k.insert(k.end(), kx.begin(), kx.end());
    const auto expect = naive(p, k);
    for (unsigned c = 1; c <= 16; ++c) {
        for (auto b : {msm_buckets::xyzz, msm_buckets::batch_affine}) {
            INFO("c = " << c << " " << mode_name(b));
            CHECK(run(p, k, 1, c, b) == expect);
        }
    }
    for (unsigned threads : {1u, 2u, 3u, 8u}) {
        for (unsigned c : {0u, 1u, 4u, 9u}) {
            for (auto b : all_modes) {
                INFO("threads = " << threads << " c = " << c << " " << mode_name(b));
                CHECK(run(p, k, threads, c, b) == expect);
            }
        }
    }
}

TEST_CASE("MSM G1 linearity at 2^14", "[msm]")
{
    std::mt19937_64 rng(test::test_seed() ^ 0x6d736d34);
    const size_t n = size_t{1} << 14;
    const auto p = random_points<g1_affine>(n, rng, 256);
    // a, b < 2^255, so a + b < 2^256 is an integer sum without wrap-around.
    std::vector<repr> a(n), b(n), s(n), sr(n);
    for (size_t i = 0; i < n; ++i) {
        a[i] = random_repr(rng);
        b[i] = random_repr(rng);
        a[i].l[3] >>= 1;
        b[i].l[3] >>= 1;
        s[i] = a[i];
        s[i].add_assign(b[i]);
        // The same sum reduced mod r: equal on points of order r.
        repr t = s[i];
        while (t >= fr_params::modulus) t.sub_assign(fr_params::modulus);
        sr[i] = t;
    }
    const auto ma = run(p, a, 2), mb = run(p, b, 2);
    const auto ms = run(p, s, 2);
    CHECK(ms == ma.add(mb));
    CHECK(run(p, sr, 2, 0, msm_buckets::xyzz) == ms);
    CHECK(run(p, s, 1, 13, msm_buckets::batch_affine) == ms);
    CHECK(run(p, s, 3, 15, msm_buckets::xyzz) == ms);
    CHECK(run(p, s, 8, 11, msm_buckets::automatic) == ms);
    // Scaling: msm(P, 2^7·a) = 2^7·msm(P, a) for a < 2^248.
    std::vector<repr> small(n), shifted(n);
    for (size_t i = 0; i < n; ++i) {
        small[i] = a[i];
        small[i].l[3] &= (1ull << 56) - 1;
        shifted[i] = small[i];
        for (int j = 0; j < 7; ++j) shifted[i].add_assign(shifted[i]);
    }
    auto m = run(p, small, 2);
    for (int j = 0; j < 7; ++j) m = m.dbl();
    CHECK(run(p, shifted, 2) == m);
}

TEST_CASE("MSM G2 equals the naive sum", "[msm]")
{
    std::mt19937_64 rng(test::test_seed() ^ 0x6d736d35);
    for (size_t n : {0, 1, 2, 3, 7, 31, 100}) {
        INFO("n = " << n);
        const auto p = random_points<g2_affine>(n, rng, 32);
        const auto k = random_scalars(n, rng);
        const auto expect = naive(p, k);
        CHECK(run(p, k, 1) == expect);
        CHECK(run(p, k, 3) == expect);
        CHECK(run(p, k, 2, 0, msm_buckets::batch_affine) == expect);
        CHECK(run(p, k, 1, 0, msm_buckets::xyzz) == expect);
    }
    std::vector<g2_affine> p;
    std::vector<repr> k;
    make_nasty(120, rng, p, k);
    const auto expect = naive(p, k);
    for (unsigned c : {1u, 2u, 3u, 5u, 8u, 11u}) {
        for (auto b : {msm_buckets::xyzz, msm_buckets::batch_affine}) {
            INFO("c = " << c << " " << mode_name(b));
            CHECK(run(p, k, 1, c, b) == expect);
            CHECK(run(p, k, 3, c, b) == expect);
        }
    }
}

TEST_CASE("sum_points equals the naive sum", "[msm]")
{
    std::mt19937_64 rng(test::test_seed() ^ 0x6d736d36);
    auto check = [&](auto tag, size_t n, size_t distinct) {
        using Aff = decltype(tag);
        const auto base = random_points<Aff>(distinct, rng, 64);
        std::vector<Aff> p(n);
        std::vector<uint8_t> mask(n);
        std::vector<bool> vmask(n);
        auto expect = jac_of<Aff>::identity();
        for (size_t i = 0; i < n; ++i) {
            const Aff& q = base[rng() % distinct];
            const unsigned kind = unsigned(rng() % 8);
            p[i] = kind == 0 ? -q : kind == 1 ? Aff::identity() : q;
            mask[i] = uint8_t(rng() % 3 != 0 ? 1 + rng() % 200 : 0);
            vmask[i] = mask[i] != 0;
            if (mask[i]) expect = expect.add(p[i]);
        }
        INFO("n = " << n << " distinct = " << distinct);
        for (unsigned threads : {1u, 2u, 3u, 8u, 0u}) {
            INFO("threads = " << threads);
            CHECK(sum_points(std::span<const Aff>(p), std::span<const uint8_t>(mask), threads) == expect);
            CHECK(sum_points(std::span<const Aff>(p), vmask, threads) == expect);
        }
    };
    for (size_t n : {0, 1, 2, 5, 100, 1000}) check(g1_affine{}, n, std::max<size_t>(n, 1));
    check(g1_affine{}, 20000, 5000);   // batch path, several workers
    check(g1_affine{}, 20000, 3);      // batch path, mostly equal and opposite points
    check(g1_affine{}, 12000, 1);
    for (size_t n : {0, 1, 3, 50}) check(g2_affine{}, n, std::max<size_t>(n, 1));
    check(g2_affine{}, 3000, 500);
    check(g2_affine{}, 3000, 2);
}

TEST_CASE("MSM input checks and the window choice", "[msm]")
{
    std::mt19937_64 rng(test::test_seed() ^ 0x6d736d37);
    const auto p = random_points<g1_affine>(4, rng);
    const auto k = random_scalars(3, rng);
    try {
        run(p, k);
        FAIL("no exception for mismatched sizes");
    } catch (const error& e) {
        CHECK(e.code() == errc::invalid_argument);
    }
    const auto k4 = random_scalars(4, rng);
    CHECK_THROWS_AS(run(p, k4, 1, 25), error);
    const std::vector<uint8_t> mask(3, 1);
    CHECK_THROWS_AS(sum_points(std::span<const g1_affine>(p), std::span<const uint8_t>(mask), 1), error);

    unsigned prev = 0;
    for (unsigned lg = 4; lg <= 26; ++lg) {   // below 16 points the choice hardly matters
        const unsigned c = msm_window_bits(size_t{1} << lg);
        INFO("log n = " << lg << " c = " << c);
        CHECK(c >= 1);
        CHECK(c <= 20);
        CHECK(c >= prev);   // larger inputs never take smaller windows
        prev = c;
    }
    CHECK(msm_window_bits(1u << 16, 1, 1) <= msm_window_bits(1u << 16, 1, 255));
}

TEST_CASE("MSM and sum_points on BN254 G1 and G2 equal the naive sums", "[msm][bn254]")
{
    std::mt19937_64 rng(test::test_seed() ^ 0x6d736d37);
    auto check = [&](auto tag, std::initializer_list<size_t> sizes) {
        using Aff = decltype(tag);
        for (size_t n : sizes) {
            INFO("n = " << n);
            const auto p = random_points<Aff>(n, rng, 32);
            std::vector<repr> k = random_scalars(n, rng);
            for (size_t i = 0; i < n; i += 5) k[i] = bn254::fr::random(rng).to_repr();
            const auto expect = naive(p, k);
            CHECK(run(p, k, 1) == expect);
            CHECK(run(p, k, 3) == expect);
            CHECK(run(p, k, 2, 0, msm_buckets::batch_affine) == expect);
            CHECK(run(p, k, 1, 5, msm_buckets::xyzz) == expect);
            std::vector<uint8_t> mask(n);
            auto sum = jac_of<Aff>::identity();
            for (size_t i = 0; i < n; ++i) {
                mask[i] = uint8_t(rng() % 2);
                if (mask[i]) sum = sum.add(p[i]);
            }
            CHECK(sum_points(std::span<const Aff>(p), std::span<const uint8_t>(mask), 3) == sum);
        }
    };
    check(bn254::g1_affine{}, {0, 1, 7, 100, 3000});
    check(bn254::g2_affine{}, {0, 1, 31, 300});
}

// ---- the AVX-512 IFMA kernels (lib/ifma/ifma.hpp) ------------------------------------
// Checked against the scalar field and curve code; skipped, saying so, on a
// CPU without AVX-512 IFMA (the MSM then never takes that path).
#define IFMA_OR_SKIP()                                                                   \
    do {                                                                                 \
        if (!ifma::available()) {                                            \
            WARN("skipped: this CPU has no AVX-512 IFMA");                                \
            std::printf("SKIPPED: this CPU has no AVX-512 IFMA\n");                      \
            return;                                                                      \
        }                                                                                \
    } while (0)

// Conversion round trips and a batch of additions against the scalar code.
template <class F, class C>
void check_ifma_kernels(std::mt19937_64& rng)
{
    using Aff = affine<F, C>;
    const ifma::field52* vf = msm_detail::vector_field<F>();
    REQUIRE(vf != nullptr);
    constexpr size_t W = F::N;
    const F scale = msm_detail::pow2<F>(msm_detail::shift52<F>);   // an R'-form value reads as x·2^d
    // Conversion, with 0, 1 and p − 1 and a count that is not a multiple of 8.
    std::vector<F> v(37);
    for (auto& x : v) x = F::random(rng);
    v[0] = F::zero();
    v[1] = F::one();
    v[2] = -F::one();
    std::vector<F> w = v;
    ifma::convert(*vf, w[0].l, w.size(), W, true);
    for (size_t i = 0; i < v.size(); ++i) CHECK(w[i] == v[i] * scale);
    ifma::convert(*vf, w[0].l, w.size(), W, false);
    for (size_t i = 0; i < v.size(); ++i) CHECK(w[i] == v[i]);
    // B_j += ±P_j for 8·k + 3 distinct buckets (padding), in the R' form.
    const size_t n = 8 * 5 + 3;
    const auto pts = random_points<Aff>(2 * n, rng);
    std::vector<Aff> p(pts.begin(), pts.begin() + n), b(pts.begin() + n, pts.end());
    std::vector<uint8_t> neg(n);
    std::vector<Aff> expect(n);
    for (size_t j = 0; j < n; ++j) {
        neg[j] = uint8_t(rng() % 2);
        expect[j] = b[j].to_jacobian().add(neg[j] ? -p[j] : p[j]).to_affine();
    }
    ifma::convert(*vf, p[0].x.l, 2 * n, W, true);
    ifma::convert(*vf, b[0].x.l, 2 * n, W, true);
    msm_detail::vector_batch<F, C> vb;
    vb.field = vf;
    vb.run(
        n, [&](size_t j) -> const Aff& { return p[j]; }, [&](size_t j) -> Aff& { return b[j]; },
        [&](size_t j) { return neg[j] != 0; });
    ifma::convert(*vf, b[0].x.l, 2 * n, W, false);
    for (size_t j = 0; j < n; ++j) {
        INFO("j = " << j);
        CHECK(b[j] == expect[j]);
    }
}

TEST_CASE("IFMA kernels: the R' form conversion and batch additions equal the scalar code", "[msm]")
{
    IFMA_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() ^ 0x69666d61);
    check_ifma_kernels<bn254::fp, bn254::g1_curve>(rng);
    check_ifma_kernels<fp, g1_curve>(rng);
}

// The MSM with the kernels against the scalar path and the naive sum.
template <class Aff>
void check_ifma_msm(std::mt19937_64& rng, size_t big)
{
    auto both = [&](const std::vector<Aff>& p, const std::vector<repr>& k, unsigned threads, unsigned c) {
        msm_options o;
        o.threads = threads;
        o.window_bits = c;
        o.buckets = msm_buckets::batch_affine;
        const auto fast = msm(std::span<const Aff>(p), std::span<const repr>(k), o);
        o.avx512 = false;
        CHECK(fast == msm(std::span<const Aff>(p), std::span<const repr>(k), o));
        return fast;
    };
    // Repeated points, P next to −P, identities, runs of equal digits: the
    // side buckets and deferred additions, across window sizes and threads.
    std::vector<Aff> p;
    std::vector<repr> k;
    make_nasty(600, rng, p, k);
    for (auto& s : k) s.l[3] &= (uint64_t{1} << 61) - 1;   // keeps the naive sum cheap
    const auto expect = naive(p, k);
    for (unsigned c : {2u, 5u, 8u, 11u, 13u, 16u}) {
        INFO("c = " << c);
        CHECK(both(p, k, 1, c) == expect);
    }
    CHECK(both(p, k, 3, 0) == expect);
    // Random points (digit-split reduction, full batches).
    const auto q = random_points<Aff>(big, rng, 256);
    const auto kq = random_scalars(q.size(), rng);
    both(q, kq, 2, 0);
    both(q, kq, 1, 14);
}

TEST_CASE("G1 MSM on the IFMA kernels equals the scalar path and the naive sum", "[msm]")
{
    IFMA_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() ^ 0x69666d62);
    check_ifma_msm<bn254::g1_affine>(rng, size_t{1} << 14);
    check_ifma_msm<g1_affine>(rng, size_t{1} << 13);
}

TEST_CASE("G1 MSM on the IFMA kernels above one block of 2^22 points", "[msm][slow]")
{
    IFMA_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() ^ 0x69666d63);
    const size_t n = (size_t{1} << 22) + 1000;   // two blocks, the second short
    const auto p = random_points<bn254::g1_affine>(n, rng, 1024);
    std::vector<repr> k(n);
    for (auto& s : k) s = bn254::fr::random(rng).to_repr();
    msm_options o;
    o.buckets = msm_buckets::batch_affine;
    const auto fast = msm(std::span<const bn254::g1_affine>(p), std::span<const repr>(k), o);
    o.avx512 = false;
    CHECK(fast == msm(std::span<const bn254::g1_affine>(p), std::span<const repr>(k), o));
}
