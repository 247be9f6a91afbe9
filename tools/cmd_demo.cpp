// `cuzk demo`: self-checks of the arithmetic, a Groth16 proof of the built-in
// SHA-256 circuit, and a few timing figures. The figures are indicative
// (wall-clock, one run); bench/RESULTS.md holds the benchmark numbers.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "commands.hpp"
#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/encoding.hpp"
#include "cuzk/msm/msm.hpp"
#include "cuzk/pairing/pairing.hpp"
#include "cuzk/util/parallel.hpp"
#include "cuzk/util/random.hpp"
#include "demo_proof.hpp"

namespace cuzk::cli {

namespace {

using clock = std::chrono::steady_clock;

double ms_since(clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(clock::now() - t0).count();
}

int failures = 0;

void check(bool ok, const char* what)
{
    std::printf("  [%s] %s\n", ok ? " ok " : "FAIL", what);
    if (!ok) ++failures;
}

std::vector<g1_affine> random_g1(size_t n, std::mt19937_64& rng)
{
    // A few random points, the rest by cheap additions, converted in batch.
    std::vector<g1_jacobian> j(n);
    const size_t seeds = std::min<size_t>(n, 64);
    for (size_t i = 0; i < seeds; ++i) j[i] = scalar_mul(g1_affine::generator(), fr::random(rng).to_repr());
    for (size_t i = seeds; i < n; ++i) j[i] = j[i - seeds].add(j[i - seeds + 1]);
    std::vector<g1_affine> out(n);
    batch_to_affine(j.data(), out.data(), n);
    return out;
}

std::string hex(const uint8_t* p, size_t n)
{
    std::string s;
    char b[3];
    for (size_t i = 0; i < n; ++i) {
        std::snprintf(b, sizeof b, "%02x", p[i]);
        s += b;
    }
    return s;
}

} // namespace

int cmd_demo(args a)
{
    bool quick = false;
    for (char* arg : a)
        if (!std::strcmp(arg, "--quick")) quick = true;
    std::mt19937_64 rng(os_rng{}());

    std::printf("cuzk demo — Groth16 over BLS12-381 (CPU backend, %u hardware threads)\n\n",
                std::thread::hardware_concurrency());
    std::printf("self-checks\n");
    {
        const fp m1 = -fp::one();
        check((m1 * m1).is_one(), "Fp: (p-1)^2 = 1");
        const fr x = fr::random(rng);
        check((x * x.inverse()).is_one(), "Fr: x * x^-1 = 1 for a random x");
        const g1_affine g = g1_affine::generator();
        const g2_affine h = g2_affine::generator();
        check(g.is_on_curve() && in_subgroup(g), "G1 generator on the curve and of order r");
        check(h.is_on_curve() && in_subgroup(h), "G2 generator on the curve and of order r");
        uint8_t enc[48];
        g1_compress(g, enc);
        check(hex(enc, 48) ==
                  "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb",
              "G1 generator encodes to the published zcash bytes");
        check(g1_deserialize(enc) == g, "G1 compressed encoding round trip");

        const size_t n = 1000;
        const auto pts = random_g1(n, rng);
        std::vector<fr::repr> ks(n);
        g1_jacobian naive = g1_jacobian::identity();
        for (size_t i = 0; i < n; ++i) {
            ks[i] = fr::random(rng).to_repr();
            naive = naive.add(scalar_mul(pts[i], ks[i]));
        }
        check(msm(std::span<const g1_affine>(pts), std::span<const fr::repr>(ks)) == naive,
              "G1 MSM of 1000 random points equals the naive sum");

        const fr s = fr::random(rng), t = fr::random(rng);
        const fp12 lhs = pairing(scalar_mul(g, s.to_repr()).to_affine(), scalar_mul(h, t.to_repr()).to_affine());
        const fp12 rhs = pairing(g, h).pow((s * t).to_repr());
        check(lhs == rhs && !pairing(g, h).is_one(), "pairing: e(sP, tQ) = e(P, Q)^(st) != 1");
    }

    std::printf("\nGroth16 proof of the built-in SHA-256 circuit\n");
    failures += demo_proof(quick ? 1 : 2);

    std::printf("\nfigures (one wall-clock run each; see bench/RESULTS.md for benchmarks)\n");
    {
        fp x = fp::random(rng), y = fp::random(rng);
        const int reps = 2'000'000;
        auto t0 = clock::now();
        for (int i = 0; i < reps; ++i) x = x * y;
        const double ns = ms_since(t0) * 1e6 / reps;
        std::printf("  Fp multiplication            %8.1f ns   (%s)\n", ns, x.is_zero() ? "!" : "chained");

        const size_t n = quick ? (size_t{1} << 12) : (size_t{1} << 16);
        const auto pts = random_g1(n, rng);
        std::vector<fr::repr> ks(n);
        for (auto& k : ks) k = fr::random(rng).to_repr();
        msm_options one;
        one.threads = 1;
        t0 = clock::now();
        (void)msm(std::span<const g1_affine>(pts), std::span<const fr::repr>(ks), one);
        std::printf("  G1 MSM 2^%-2d, 1 thread        %8.1f ms\n", int(__builtin_ctzll(n)), ms_since(t0));
        t0 = clock::now();
        (void)msm(std::span<const g1_affine>(pts), std::span<const fr::repr>(ks));
        std::printf("  G1 MSM 2^%-2d, %u threads       %8.1f ms\n", int(__builtin_ctzll(n)), resolve_threads(0),
                    ms_since(t0));
        t0 = clock::now();
        (void)pairing(g1_affine::generator(), g2_affine::generator());
        std::printf("  pairing                      %8.2f ms\n", ms_since(t0));
    }
    std::printf("\n%s\n", failures ? "demo FAILED" : "demo ok");
    return failures ? 1 : 0;
}

} // namespace cuzk::cli
