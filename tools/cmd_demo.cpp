// `cuzk demo`: self-checks of the arithmetic, a Groth16 proof of the built-in
// SHA-256 circuit, and a few timing figures. The figures are indicative
// (wall-clock, one run); bench/RESULTS.md holds the benchmark numbers.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "cli_util.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "progress.hpp"
#include "cuzk/backend/cuda.hpp"
#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/encoding.hpp"
#include "cuzk/msm/msm.hpp"
#include "cuzk/pairing/pairing.hpp"
#include "cuzk/util/hex.hpp"
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
    std::fflush(stdout);
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

std::string hex(const uint8_t* p, size_t n) { return to_hex(std::span<const uint8_t>(p, n)); }

void self_checks(std::mt19937_64& rng)
{
    std::printf("self-checks of the arithmetic\n");
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
          "G1 multi-scalar multiplication (MSM) of 1000 random points equals the naive sum");

    const fr s = fr::random(rng), t = fr::random(rng);
    const fp12 lhs =
        pairing<bls12_381_curve>(scalar_mul(g, s.to_repr()).to_affine(), scalar_mul(h, t.to_repr()).to_affine());
    const fp12 rhs = pairing<bls12_381_curve>(g, h).pow((s * t).to_repr());
    check(lhs == rhs && !pairing<bls12_381_curve>(g, h).is_one(), "pairing: e(sP, tQ) = e(P, Q)^(st) != 1");
}

void figures(bool quick, std::mt19937_64& rng)
{
    std::printf("\nfigures on the CPU (one wall-clock run each; bench/RESULTS.md holds the benchmarks)\n");
    fp x = fp::random(rng), y = fp::random(rng);
    const int reps = 2'000'000;
    auto t0 = clock::now();
    for (int i = 0; i < reps; ++i) x = x * y;
    const double ns = ms_since(t0) * 1e6 / reps;
    std::printf("  Fp multiplication            %8.1f ns   (each product feeds the next, so this is latency)%s\n",
                ns, x.is_zero() ? " !" : "");

    const size_t n = quick ? (size_t{1} << 12) : (size_t{1} << 16);
    progress_step step("cuzk demo", "timing a G1 MSM");
    const auto pts = random_g1(n, rng);
    std::vector<fr::repr> ks(n);
    for (auto& k : ks) k = fr::random(rng).to_repr();
    msm_options one;
    one.threads = 1;
    t0 = clock::now();
    (void)msm(std::span<const g1_affine>(pts), std::span<const fr::repr>(ks), one);
    const double t1 = ms_since(t0);
    t0 = clock::now();
    (void)msm(std::span<const g1_affine>(pts), std::span<const fr::repr>(ks));
    const double tn = ms_since(t0);
    step.end();
    std::printf("  G1 MSM of 2^%-2d points, 1 thread    %8.1f ms\n", int(__builtin_ctzll(n)), t1);
    std::printf("  G1 MSM of 2^%-2d points, %u threads   %8.1f ms\n", int(__builtin_ctzll(n)), resolve_threads(0), tn);
    t0 = clock::now();
    (void)pairing<bls12_381_curve>(g1_affine::generator(), g2_affine::generator());
    std::printf("  pairing                      %8.2f ms\n", ms_since(t0));
}

constexpr flag_spec demo_flags[] = {
    {"--quick", nullptr, "a 1-block circuit and a 2^12-point MSM figure (default: 2 blocks, 2^16)"},
    {"--backend", "auto|cpu|cuda", "where the proof runs (default auto: the GPU when one is usable)"},
};

} // namespace

int cmd_demo(args a)
{
    const options o(a, demo_flags, 0, 0);
    if (o.help())
        return show_help("demo [--quick] [--backend auto|cpu|cuda]",
                         "Self-checks of the arithmetic against published values, one Groth16 proof of the built-in "
                         "SHA-256 circuit with the time of each step and its verification, and a few CPU figures.",
                         demo_flags);
    const bool quick = o.has("--quick");
    const bool gpu = choose_gpu(o);
    std::mt19937_64 rng(os_rng{}());
    if (gpu)
        std::printf("cuzk demo: Groth16 over BLS12-381; the proof on the GPU (%s)\n\n", cuda_device_info().c_str());
    else
        std::printf("cuzk demo: Groth16 over BLS12-381 on the CPU (%u hardware threads; %s)\n\n",
                    std::thread::hardware_concurrency(),
                    o.get_or("--backend", "auto") == "cpu" ? "--backend cpu" : no_gpu_reason().c_str());
    std::fflush(stdout);
    self_checks(rng);
    std::printf("\nGroth16 proof of the built-in SHA-256 circuit\n");
    std::fflush(stdout);
    failures += demo_proof(quick ? 1 : 2, gpu);
    figures(quick, rng);
    std::printf("\n%s\n", failures ? "demo FAILED" : "demo ok");
    return failures ? 1 : 0;
}

} // namespace cuzk::cli
