// The device-side setup (backend/gpu_setup.hpp) against the CPU development
// setup for the same toxic waste, point for point: the synthetic PoRep-shaped
// circuit at small sizes with the automatic windows, forced windows (13 bits:
// a partial last window; 16 bits: the large-circuit table) and small chunks
// (many chunks, a partial last one, fewer than 16 points per thread), edge
// scalars through the backend alone, and a proof with the device key that
// verifies.
//
// Every case is tagged [gpu] and starts with GPU_OR_SKIP: without a usable
// device (or in a build without CUDA) it prints "SKIPPED: <reason>".
#include <catch2/catch.hpp>

#include <cstdio>
#include <random>
#include <string>

#include "cuzk/backend/cuda.hpp"
#include "cuzk/backend/gpu_setup.hpp"
#include "cuzk/error.hpp"
#include "cuzk/filecoin/porep/synthetic_circuit.hpp"
#include "cuzk/groth16/circuit.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "test_support.hpp"

using namespace cuzk;

namespace {

void require_same_key(const groth16::proving_key& g, const groth16::proving_key& c)
{
    REQUIRE(g.conv == c.conv);
    REQUIRE(g.num_inputs == c.num_inputs);
    REQUIRE(g.num_aux == c.num_aux);
    REQUIRE(g.domain_size == c.domain_size);
    REQUIRE(g.n_constraints == c.n_constraints);
    CHECK(g.vk.alpha_g1 == c.vk.alpha_g1);
    CHECK(g.vk.beta_g1 == c.vk.beta_g1);
    CHECK(g.vk.beta_g2 == c.vk.beta_g2);
    CHECK(g.vk.gamma_g2 == c.vk.gamma_g2);
    CHECK(g.vk.delta_g1 == c.vk.delta_g1);
    CHECK(g.vk.delta_g2 == c.vk.delta_g2);
    const auto same = [](const auto& x, const auto& y, const char* what) {
        INFO(what);
        REQUIRE(x.size() == y.size());
        size_t bad = 0, first = x.size();
        for (size_t i = 0; i < x.size(); ++i)
            if (x[i] != y[i]) {
                if (!bad) first = i;
                ++bad;
            }
        INFO("first differing point " << first);
        CHECK(bad == 0);
    };
    same(g.vk.ic, c.vk.ic, "ic");
    same(g.h, c.h, "h");
    same(g.l, c.l, "l");
    same(g.a, c.a, "a");
    same(g.b_g1, c.b_g1, "b_g1");
    same(g.b_g2, c.b_g2, "b_g2");
}

struct cpu_ref {
    groth16::proving_key pk;
    groth16::query_density d;
};

cpu_ref cpu_key(const r1cs::pce& p, const groth16::toxic_waste& w)
{
    cpu_ref r;
    groth16::setup_options so;
    so.waste = &w;
    r.pk = groth16::setup_bellperson(groth16::describe(p), &r.d, so);
    return r;
}

} // namespace

TEST_CASE("gpu_setup_bellperson equals the CPU setup on the synthetic circuit", "[gpu]")
{
    GPU_OR_SKIP();
    for (unsigned L : {8u, 11u}) {
        r1cs::synthetic_params prm;
        prm.log2_domain = L;
        prm.num_inputs = 5;
        prm.margin = 8;
        const auto s = r1cs::synthetic_porep(prm);
        const auto w = groth16::toxic_waste::from_seed(L);
        const cpu_ref ref = cpu_key(s.p, w);
        groth16::query_density d;
        const groth16::proving_key g = gpu_setup_bellperson(s.p, w, &d);
        INFO("log2 domain " << L);
        require_same_key(g, ref.pk);
        CHECK(d.a_aux == ref.d.a_aux);
        CHECK(d.b_input == ref.d.b_input);
        CHECK(d.b_aux == ref.d.b_aux);
    }
}

TEST_CASE("gpu_setup_bellperson with forced windows and small chunks", "[gpu]")
{
    GPU_OR_SKIP();
    r1cs::synthetic_params prm;
    prm.log2_domain = 9;
    prm.num_inputs = 3;
    prm.margin = 8;
    const auto s = r1cs::synthetic_porep(prm);
    const auto w = groth16::toxic_waste::from_seed(99);
    const cpu_ref ref = cpu_key(s.p, w);
    for (unsigned wb : {13u, 16u, 5u}) {
        for (uint64_t chunk : {uint64_t{0}, uint64_t{37}, uint64_t{1000}}) {
            gpu_setup_options o;
            o.window_bits_g1 = wb;
            o.window_bits_g2 = wb == 16 ? 12 : wb;
            o.chunk_points = chunk;
            INFO("window " << wb << " chunk " << chunk);
            require_same_key(gpu_setup_bellperson(s.p, w, nullptr, o), ref.pk);
        }
    }
}

TEST_CASE("gpu fixed base with edge scalars equals the CPU backend", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(7);
    std::vector<fr> k = {fr::zero(), fr::one(), -fr::one(), fr::from_u64(2), -fr::from_u64(2),
                         fr::from_u64(uint64_t(1) << 63)};
    fr::repr top{};
    top.l[3] = uint64_t(1) << 62;   // 2^254, the highest bit a scalar below r can have
    k.push_back(fr::from_repr(top));
    for (int i = 0; i < 300; ++i) k.push_back(fr::random(rng));
    auto cpu = groth16::cpu_fixed_base(2);
    std::vector<g1_affine> c1(k.size()), d1(k.size());
    std::vector<g2_affine> c2(k.size()), d2(k.size());
    cpu->g1(k, c1);
    cpu->g2(k, c2);
    for (unsigned wb : {1u, 8u, 11u, 17u}) {
        gpu_setup_options o;
        o.window_bits_g1 = o.window_bits_g2 = wb;
        o.chunk_points = 100;
        auto gpu = gpu_fixed_base(o);
        gpu->g1(k, d1);
        gpu->g2(k, d2);
        INFO("window " << wb);
        CHECK(d1 == c1);
        CHECK(d2 == c2);
    }
    CHECK(d1[0].is_identity());
    CHECK(d1[1] == g1_affine::generator());
    CHECK(d2[1] == g2_affine::generator());
}

TEST_CASE("a proof with the device key verifies", "[gpu]")
{
    GPU_OR_SKIP();
    r1cs::synthetic_params prm;
    prm.log2_domain = 10;
    prm.num_inputs = 4;
    prm.margin = 8;
    const auto s = r1cs::synthetic_porep(prm);
    groth16::query_density d;
    const auto pk = gpu_setup_bellperson(s.p, groth16::toxic_waste::from_seed(5), &d);
    std::vector<fr> a(s.p.num_constraints), b(s.p.num_constraints), c(s.p.num_constraints);
    r1cs::evaluate(s.p, s.inputs, s.aux, a, b, c);
    const auto pr = groth16::prove_bellperson(pk, d, std::move(a), std::move(b), std::move(c), s.inputs, s.aux);
    const auto pvk = groth16::prepare_verifying_key(pk.vk);
    const std::vector<fr> pub(s.inputs.begin() + 1, s.inputs.end());
    CHECK(groth16::verify(pvk, pr, pub));
    std::vector<fr> wrong = pub;
    wrong[0] += fr::one();
    CHECK_FALSE(groth16::verify(pvk, pr, wrong));
}

TEST_CASE("gpu_setup_bellperson without a device or CUDA fails cleanly", "[gpu]")
{
    std::string why;
    if (cuda_available(&why)) {
        std::printf("SKIPPED: a device is present (this case checks the no-device path)\n");
        return;
    }
    r1cs::synthetic_params prm;
    prm.log2_domain = 7;
    prm.num_inputs = 2;
    prm.margin = 8;
    const auto s = r1cs::synthetic_porep(prm);
    try {
        (void)gpu_setup_bellperson(s.p, groth16::toxic_waste::from_seed(1));
        FAIL("no error");
    } catch (const error& e) {
        CHECK((e.code() == errc::unsupported || e.code() == errc::device));
    }
    std::printf("SKIPPED: %s (checked the error path only)\n", why.c_str());
}
