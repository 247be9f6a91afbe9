// The GPU prover (backend/gpu_prover.hpp) against the CPU's split prover,
// sum by sum (== on the group elements): random circuits with domains 2^3 …
// 2^14 (odd constraint counts, rows filling the domain exactly, witnesses
// with many 0s and 1s, a zero witness, rows that do not satisfy the
// constraints), the PCE path, streamed keys (forced, tiny device budget,
// chunks of 7 points, one chunk), the unsatisfied witness, invalid sizes
// followed by a working prove, proofs of the GPU sums that verify, the
// observer's steps and spans, and the snarkjs convention.
//
// Every case is tagged [gpu] and starts with GPU_OR_SKIP: without a usable
// device (or in a build without CUDA) it prints "SKIPPED: <reason>".
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cuzk/backend/cuda.hpp"
#include "backend/fault.hpp"
#include "cuzk/backend/gpu_prover.hpp"
#include "cuzk/error.hpp"
#include "cuzk/groth16/circuit.hpp"
#include "cuzk/groth16/prover_split.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "gmp_util.hpp"
#include "recording_observer.hpp"
#include "test_support.hpp"

using namespace cuzk;

namespace {

// A satisfiable circuit whose shape comes from `shape` and whose values come
// from `values` (same R1CS for every value seed): n_inputs public inputs,
// n_free free aux variables, then n_constraints constraints a·b = c with a, b
// random combinations (1–3 terms, coefficients ±1 or random) of earlier
// variables and c a fresh aux variable. Free values are 0 or 1 with
// probability `bits` (half each), random otherwise; `zero` makes every free
// value and input 0 (a "zero witness": only ONE is non-zero). `break_at`
// makes that constraint's c wrong. Some variables never occur in A or B, so
// the density filters something.
struct gen_circuit final : r1cs::circuit {
    uint64_t shape = 0, values = 0;
    size_t n_inputs = 2, n_free = 3, n_constraints = 1;
    double bits = 0.8;
    bool zero = false;
    long break_at = -1;

    void synthesize(r1cs::constraint_system& cs) const override
    {
        std::mt19937_64 srng(shape), vrng(values);
        std::uniform_real_distribution<double> u(0, 1);
        std::vector<r1cs::variable> vars{r1cs::variable::one()};
        std::vector<fr> vals{fr::one()};
        auto value = [&] {
            if (zero) return fr::zero();
            if (u(vrng) < bits) return (vrng() & 1) ? fr::one() : fr::zero();
            return fr::random(vrng);
        };
        for (size_t i = 0; i < n_inputs; ++i) {
            const fr v = value();
            vars.push_back(cs.alloc_input(v));
            vals.push_back(v);
        }
        for (size_t i = 0; i < n_free; ++i) {
            const fr v = value();
            vars.push_back(cs.alloc(v));
            vals.push_back(v);
        }
        // Only the first 3/4 of the variables feed the combinations, so the
        // last free variables (and late products) are not dense in A or B.
        auto random_lc = [&](fr& val, size_t limit) {
            r1cs::linear_combination lc;
            val = fr::zero();
            const size_t terms = 1 + srng() % 3;
            for (size_t t = 0; t < terms; ++t) {
                const size_t k = srng() % limit;
                const uint64_t kind = srng() % 3;
                const fr c = kind == 0 ? fr::one() : kind == 1 ? -fr::one() : fr::random(srng);
                lc.add(vars[k], c);
                val += c * vals[k];
            }
            return lc;
        };
        for (size_t k = 0; k < n_constraints; ++k) {
            const size_t limit = std::max<size_t>(1, vars.size() * 3 / 4);
            fr va, vb;
            const auto a = random_lc(va, limit);
            const auto b = random_lc(vb, std::max<size_t>(1, limit - limit / 3));
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

// A key for one circuit shape: PCE, bellperson key, density, prepared vk.
struct fixture {
    gen_circuit shape;
    std::shared_ptr<const r1cs::pce> pce;
    std::shared_ptr<const groth16::proving_key> pk;
    groth16::query_density density;
    groth16::prepared_verifying_key pvk;

    fixture(uint64_t seed, size_t ni, size_t nc, size_t nfree = 0)
    {
        shape.shape = seed;
        shape.n_inputs = ni;
        shape.n_constraints = nc;
        shape.n_free = nfree ? nfree : 3 + nc / 4;
        auto p = std::make_shared<r1cs::pce>(record_pce(shape));
        pk = std::make_shared<groth16::proving_key>(groth16::setup_bellperson(groth16::describe(*p), &density, {}));
        pce = p;
        pvk = groth16::prepare_verifying_key(pk->vk);
    }
    gen_circuit circuit(uint64_t values, double bits = 0.8, bool zero = false, long brk = -1) const
    {
        gen_circuit c = shape;
        c.values = values;
        c.bits = bits;
        c.zero = zero;
        c.break_at = brk;
        return c;
    }
    struct abc {
        std::vector<fr> a, b, c;
    };
    abc evaluate(const groth16::assignment& w) const
    {
        const size_t m = pce->num_constraints;
        abc r{std::vector<fr>(m), std::vector<fr>(m), std::vector<fr>(m)};
        r1cs::evaluate(*pce, w.inputs, w.aux, r.a, r.b, r.c, 0);
        return r;
    }
    std::vector<fr> public_inputs(const groth16::assignment& w) const
    {
        return {w.inputs.begin() + 1, w.inputs.end()};
    }
};

unsigned log2u(uint64_t n)
{
    unsigned l = 0;
    while ((uint64_t{1} << l) < n) ++l;
    return l;
}

// The five sums, each checked with its name.
void check_sums(const groth16::prove_sums& gpu, const groth16::prove_sums& cpu)
{
    CHECK(gpu.h == cpu.h);
    CHECK(gpu.l == cpu.l);
    CHECK(gpu.a == cpu.a);
    CHECK(gpu.b1 == cpu.b1);
    CHECK(gpu.b2 == cpu.b2);
}

groth16::prove_sums cpu_sums(const fixture& f, const fixture::abc& x, const groth16::assignment& w)
{
    return groth16::prove_start(*f.pk, f.density, x.a, x.b, x.c, w.inputs, w.aux, {});
}

using cuzk::test::recording_observer;

errc code_of(const std::function<void()>& f, std::string* what = nullptr)
{
    try {
        f();
    } catch (const error& e) {
        if (what) *what = e.what();
        return e.code();
    }
    return errc::ok;
}

} // namespace

TEST_CASE("gpu_prove_start equals prove_start on random circuits, domains 2^3 … 2^14", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed());
    // (inputs, constraints): odd counts; some fill the domain exactly.
    const std::vector<std::pair<size_t, size_t>> shapes = {
        {1, 3},    {2, 5},     {2, 13},    {3, 29},    {1, 61},     {2, 125},     {4, 251},
        {2, 509},  {3, 1021},  {2, 2045},  {1, 4093},  {5, 8187},   {2, 16379},   {3, 16381}};
    for (const auto& [ni, nc] : shapes) {
        const fixture f(rng(), ni, nc);
        INFO("inputs " << ni << " (+ONE), constraints " << nc << ", aux " << f.pk->num_aux << ", domain 2^"
                       << log2u(f.pk->domain_size) << ", |A| " << f.pk->a.size() << ", |B| " << f.pk->b_g1.size());
        const gpu_key key(f.pk, f.density, f.pce);
        CHECK(key.resident());
        CHECK(key.has_pce());
        CHECK(key.device_bytes() > 0);
        CHECK(key.prove_scratch_bytes() >= 3 * f.pk->domain_size * sizeof(fr));

        struct variant {
            const char* name;
            double bits;
            bool zero;
        };
        for (const variant v : {variant{"mostly 0/1", 0.9, false}, variant{"random values", 0.1, false},
                                variant{"zero witness", 0, true}}) {
            INFO("witness: " << v.name);
            const auto w = groth16::synthesize_witness(f.circuit(rng(), v.bits, v.zero));
            const auto x = f.evaluate(w);
            const groth16::prove_sums cpu = cpu_sums(f, x, w);
            const groth16::prove_sums gpu = gpu_prove_start(key, x.a, x.b, x.c, w.inputs, w.aux);
            check_sums(gpu, cpu);
            // A proof from the GPU sums verifies and equals the CPU's for the same r, s.
            const fr r = fr::random(rng), s = fr::random(rng);
            const groth16::proof pg = groth16::prove_finish(f.pk->vk, gpu, r, s);
            const groth16::proof pc = groth16::prove_finish(f.pk->vk, cpu, r, s);
            CHECK(pg.a == pc.a);
            CHECK(pg.b == pc.b);
            CHECK(pg.c == pc.c);
            CHECK(groth16::verify(f.pvk, pg, f.public_inputs(w)));
        }
        // Rows that are not a witness's (random a, b, c; a·b != c): the H step
        // still has to agree coefficient for coefficient.
        {
            INFO("random rows (not satisfying)");
            const auto w = groth16::synthesize_witness(f.circuit(rng()));
            fixture::abc x{std::vector<fr>(nc), std::vector<fr>(nc), std::vector<fr>(nc)};
            for (size_t i = 0; i < nc; ++i) {
                x.a[i] = fr::random(rng);
                x.b[i] = (i % 3 == 0) ? fr::one() : fr::random(rng);
                x.c[i] = (i % 5 == 0) ? fr::zero() : fr::random(rng);
            }
            check_sums(gpu_prove_start(key, x.a, x.b, x.c, w.inputs, w.aux), cpu_sums(f, x, w));
            // Fewer rows than the circuit has constraints is legal for prove_start too.
            const size_t half = nc / 2;
            fixture::abc y{std::vector<fr>(x.a.begin(), x.a.begin() + half), std::vector<fr>(x.b.begin(), x.b.begin() + half),
                           std::vector<fr>(x.c.begin(), x.c.begin() + half)};
            check_sums(gpu_prove_start(key, y.a, y.b, y.c, w.inputs, w.aux), cpu_sums(f, y, w));
        }
    }
}

TEST_CASE("gpu_prove_start_witness (PCE on the device) equals prove_start", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 1);
    gpu_packed_witness packed;
    for (const auto& [ni, nc] : std::vector<std::pair<size_t, size_t>>{{1, 3}, {2, 29}, {3, 253}, {2, 4093}, {2, 16381}}) {
        const fixture f(rng(), ni, nc);
        INFO("inputs " << ni << ", constraints " << nc << ", domain 2^" << log2u(f.pk->domain_size));
        const gpu_key key(f.pk, f.density, f.pce);
        for (int rep = 0; rep < 3; ++rep) {
            INFO("witness " << rep << (rep == 2 ? " (zero)" : ""));
            const auto w = groth16::synthesize_witness(f.circuit(rng(), rep == 1 ? 0.2 : 0.9, rep == 2));
            const auto x = f.evaluate(w);
            groth16::prove_timings tm;
            const groth16::prove_sums gpu = gpu_prove_start_witness(key, w.inputs, w.aux, nullptr, &tm);
            const groth16::prove_sums want = cpu_sums(f, x, w);
            check_sums(gpu, want);
            CHECK(tm.total_ns > 0);
            CHECK(groth16::verify(f.pvk, groth16::prove_finish(f.pk->vk, gpu), f.public_inputs(w)));
            // The same aux packed beforehand (one object refilled across circuits and witnesses).
            packed.pack(w.aux, 2);
            CHECK(packed.size() == w.aux.size());
            check_sums(gpu_prove_start_witness(key, w.inputs, packed), want);
        }
    }
}

TEST_CASE("gpu prover: a packed aux of the wrong size is refused, the next prove works", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 21);
    const fixture f(rng(), 2, 29);
    const gpu_key key(f.pk, f.density, f.pce);
    const auto w = groth16::synthesize_witness(f.circuit(rng(), 0.9, false));
    gpu_packed_witness packed;
    std::vector<fr> short_aux(w.aux.begin(), w.aux.end() - 1);
    packed.pack(short_aux);
    std::string what;
    CHECK(code_of([&] { gpu_prove_start_witness(key, w.inputs, packed); }, &what) == errc::invalid_argument);
    CHECK(what.find("packed aux") != std::string::npos);
    packed.pack(w.aux);
    check_sums(gpu_prove_start_witness(key, w.inputs, packed), cpu_sums(f, f.evaluate(w), w));
    CHECK(packed.host_bytes() > 0);
}

TEST_CASE("gpu prover: a packed aux staged on the device gives the same sums", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 22);
    const fixture f(rng(), 3, 4093);
    const gpu_key key(f.pk, f.density, f.pce);
    gpu_packed_witness packed;
    CHECK_FALSE(packed.staged_on(key.device()));
    for (int rep = 0; rep < 3; ++rep) {
        INFO("witness " << rep);
        // Mostly bits, then mostly other values (the staged buffer grows), then bits again.
        const auto w = groth16::synthesize_witness(f.circuit(rng(), rep == 1 ? 0.2 : 0.9));
        const auto want = cpu_sums(f, f.evaluate(w), w);
        packed.pack(w.aux);
        CHECK_FALSE(packed.staged_on(key.device()));   // a new packing is not staged yet
        packed.stage(key);
        CHECK(packed.staged_on(key.device()));
        CHECK(packed.device_bytes() >= packed.others() * sizeof(fr));
        check_sums(gpu_prove_start_witness(key, w.inputs, packed), want);
        check_sums(gpu_prove_start_witness(key, w.inputs, packed), want);   // the staged copy is kept
    }
    // Packed again and proved without staging: the host copy, not the stale staged one.
    const auto w = groth16::synthesize_witness(f.circuit(rng(), 0.5));
    packed.pack(w.aux);
    CHECK_FALSE(packed.staged_on(key.device()));
    check_sums(gpu_prove_start_witness(key, w.inputs, packed), cpu_sums(f, f.evaluate(w), w));
}

TEST_CASE("gpu prover: more A/B points than the domain (gathers into b and c, or a buffer of their own)", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 8);
    // 13 constraints (domain 16), shapes chosen for their sizes (the shape
    // seed fixes them): over 44 free variables |A| and |B| lie in (n, 2n], so
    // the gathers use b and c once the H step is done with both; the other
    // shape's |A| (33) exceeds 2n, and its gathers have a buffer of their own.
    for (const auto& [shape, free_vars] : {std::pair<uint64_t, size_t>{9, 44}, {31, 200}}) {
        const fixture f(shape, 2, 13, free_vars);
        const size_t n = f.pk->domain_size, most = std::max(f.pk->a.size(), f.pk->b_g1.size());
        INFO("domain " << n << ", |A| " << f.pk->a.size() << ", |B| " << f.pk->b_g1.size());
        REQUIRE(most > n);
        REQUIRE((most <= 2 * n) == (free_vars == 44));
        for (int mode = 0; mode < 3; ++mode) {   // resident overlapped, resident serial, streamed
            INFO((mode == 0 ? "resident, overlapped" : mode == 1 ? "resident, one stream" : "streamed"));
            gpu_key_options opt;
            opt.force_streaming = mode == 2;
            opt.stream_chunk_points = mode == 2 ? 9 : 0;
            opt.overlap = mode == 0;
            const gpu_key key(f.pk, f.density, f.pce, opt);
            CHECK(key.overlaps() == (mode == 0));
            const auto w = groth16::synthesize_witness(f.circuit(rng(), 0.7));
            const auto x = f.evaluate(w);
            const auto cpu = cpu_sums(f, x, w);
            check_sums(gpu_prove_start_witness(key, w.inputs, w.aux), cpu);
            check_sums(gpu_prove_start(key, x.a, x.b, x.c, w.inputs, w.aux), cpu);
        }
    }
}

TEST_CASE("gpu prover: one key from several threads", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 9);
    const fixture f(rng(), 2, 500);
    const gpu_key key(f.pk, f.density, f.pce);
    std::vector<groth16::assignment> ws;
    std::vector<groth16::prove_sums> expect;
    for (int i = 0; i < 4; ++i) {
        ws.push_back(groth16::synthesize_witness(f.circuit(rng(), 0.8)));
        expect.push_back(cpu_sums(f, f.evaluate(ws.back()), ws.back()));
    }
    std::vector<groth16::prove_sums> got(ws.size());
    std::vector<std::string> errors(ws.size());
    std::vector<std::thread> th;
    for (size_t i = 0; i < ws.size(); ++i)
        th.emplace_back([&, i] {
            try {
                got[i] = gpu_prove_start_witness(key, ws[i].inputs, ws[i].aux);
            } catch (const std::exception& e) {
                errors[i] = e.what();
            }
        });
    for (auto& t : th) t.join();
    for (size_t i = 0; i < ws.size(); ++i) {
        INFO("thread " << i << ": " << errors[i]);
        CHECK(errors[i].empty());
        check_sums(got[i], expect[i]);
    }
}

// The steps of one stream: begins and ends in order, spans in order, inside
// the call (a little slack for the event/host clock mapping), not overlapping
// each other; BATCH_ADD and D2H spans lie inside the MSM of their query (90%
// of the values are bits, so every witness MSM copies partial sums back: D2H
// for l, a, b1, b2).
void check_stream_steps(const recording_observer& obs, const std::vector<std::string>& chain,
                        std::chrono::steady_clock::time_point t_before, std::chrono::steady_clock::time_point t_after)
{
    const auto slack = std::chrono::milliseconds(2);
    std::vector<std::string> log, steps;
    for (const auto& l : obs.log)
        for (const auto& c : chain)
            if (l.substr(1) == c) log.push_back(l);
    std::vector<std::string> expect_log;
    for (const auto& c : chain) {
        expect_log.push_back("+" + c);
        expect_log.push_back("-" + c);
    }
    CHECK(log == expect_log);
    std::map<std::string, const recording_observer::span*> msm_of;
    for (const auto& s : obs.spans)
        if (s.step.rfind("MSM_", 0) == 0) msm_of[s.query] = &s;
    auto prev_end = t_before - slack;
    for (const auto& s : obs.spans) {
        INFO("span " << s.step << ":" << s.query);
        CHECK(s.e >= s.b);
        CHECK(s.b >= t_before - slack);
        CHECK(s.e <= t_after + slack);
        if (s.step == "BATCH_ADD" || s.step == "D2H") {
            REQUIRE(msm_of.count(s.query));
            CHECK(s.b >= msm_of[s.query]->b - slack);
            CHECK(s.e <= msm_of[s.query]->e + slack);
            continue;
        }
        const std::string name = s.step + ":" + s.query;
        if (std::find(chain.begin(), chain.end(), name) == chain.end()) continue;
        steps.push_back(name);
        CHECK(s.b >= prev_end - slack);
        prev_end = s.e;
    }
    CHECK(steps == chain);
}

TEST_CASE("gpu prover: observer steps, device spans and timings", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 2);
    const fixture f(rng(), 2, 1000);
    gpu_key key(f.pk, f.density, f.pce);
    REQUIRE(key.resident());
    const std::vector<std::string> first = {"H2D:", "PCE_EVAL:", "NTT:", "MSM_H:h"};
    const std::vector<std::string> witness = {"MSM_L:l", "MSM_A:a", "MSM_B1:b1", "MSM_B2:b2"};
    for (bool overlap : {false, true}) {
        INFO((overlap ? "overlapped: witness MSMs on the second stream" : "one stream"));
        key.set_overlap(overlap);
        CHECK(key.overlaps() == overlap);
        const auto w = groth16::synthesize_witness(f.circuit(rng(), 0.9));
        recording_observer obs;
        groth16::prove_timings tm;
        const auto t_before = std::chrono::steady_clock::now();
        const auto sums = gpu_prove_start_witness(key, w.inputs, w.aux, &obs, &tm);
        const auto t_after = std::chrono::steady_clock::now();
        check_sums(sums, cpu_sums(f, f.evaluate(w), w));
        CHECK(obs.log.size() == 2 * (first.size() + witness.size()));
        if (overlap) {
            check_stream_steps(obs, first, t_before, t_after);
            check_stream_steps(obs, witness, t_before, t_after);
        } else {
            std::vector<std::string> all = first;
            all.insert(all.end(), witness.begin(), witness.end());
            check_stream_steps(obs, all, t_before, t_after);
        }
        // Every MSM copies sums back: the Pippenger's window sums (h, and the
        // others of l, a, b1, b2) and the batch addition's partial sums.
        std::set<std::string> d2h;
        for (const auto& s : obs.spans)
            if (s.step == "D2H") d2h.insert(s.query);
        CHECK(d2h == std::set<std::string>{"h", "l", "a", "b1", "b2"});
        CHECK(tm.h_ns > 0);
        CHECK(tm.msm_h_ns > 0);
        CHECK(tm.msm_b2_ns > 0);
        if (!overlap)
            CHECK(tm.total_ns >= tm.h_ns + tm.msm_h_ns + tm.msm_l_ns + tm.msm_a_ns + tm.msm_b1_ns + tm.msm_b2_ns);
        else
            CHECK(tm.total_ns >= tm.h_ns + tm.msm_h_ns);
    }
}

TEST_CASE("gpu prover: an overlapped prove short of memory runs again on one stream", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 10);
    const fixture f(rng(), 2, 700);
    const gpu_key key(f.pk, f.density, f.pce);
    REQUIRE(key.overlaps());
    struct disarm_at_exit {
        ~disarm_at_exit() { fault::disarm(); }
    } guard;
    fault::disarm();
    fault::arm(fault::point::lane, 0, 1);   // the second stream's first step fails
    for (int rep = 0; rep < 2; ++rep) {
        INFO("prove " << rep);
        const auto w = groth16::synthesize_witness(f.circuit(rng(), 0.8));
        check_sums(gpu_prove_start_witness(key, w.inputs, w.aux), cpu_sums(f, f.evaluate(w), w));
        CHECK(fault::fired(fault::point::lane) == 1);
        CHECK_FALSE(key.overlaps());   // serial from the first shortage on
    }
}

TEST_CASE("gpu prover: a prove short of memory gives up the H copies first", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 11);
    const fixture f(rng(), 2, 700);
    gpu_key_options o;
    o.h_copies_budget = ~uint64_t{0};
    const gpu_key key(f.pk, f.density, f.pce, o);
    REQUIRE(key.overlaps());
    auto prove = [&](bool builds) {
        const auto w = groth16::synthesize_witness(f.circuit(rng(), 0.8));
        recording_observer obs;
        check_sums(gpu_prove_start_witness(key, w.inputs, w.aux, &obs), cpu_sums(f, f.evaluate(w), w));
        CHECK(std::count(obs.log.begin(), obs.log.end(), "+H_COPIES:h") == (builds ? 1 : 0));
    };
    prove(true);
    REQUIRE(key.h_copies().copies > 1);
    struct disarm_at_exit {
        ~disarm_at_exit() { fault::disarm(); }
    } guard;
    fault::disarm();
    fault::arm(fault::point::lane, 0, 1);   // the second stream's first step fails once
    prove(false);
    CHECK(fault::fired(fault::point::lane) == 1);
    CHECK(key.h_copies().copies == 1);   // dropped, and not built again
    CHECK(key.overlaps());               // the second stream kept
    prove(false);
    CHECK(key.h_copies().copies == 1);
}

TEST_CASE("gpu prover: streamed keys give the same sums", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 3);
    size_t lean_keys = 0;
    for (const auto& [ni, nc] : std::vector<std::pair<size_t, size_t>>{{2, 13}, {3, 1021}, {2, 700}, {2, 4093}}) {
        const fixture f(rng(), ni, nc);
        INFO("inputs " << ni << ", constraints " << nc << ", domain 2^" << log2u(f.pk->domain_size));
        const gpu_key resident(f.pk, f.density, f.pce);
        REQUIRE(resident.resident());
        CHECK(resident.chunk_bytes() == 0);
        struct variant {
            const char* name;
            gpu_key_options opt;
        };
        std::vector<variant> vs;
        vs.push_back({"force_streaming, automatic chunks", {0, true, 0}});
        // Many chunk boundaries, but not thousands of MSM calls on the larger keys.
        vs.push_back({"force_streaming, chunks of 7 (or 331) points", {0, true, nc < 2000 ? size_t(7) : size_t(331)}});
        vs.push_back({"force_streaming, chunks of 1 point", {0, true, nc < 100 ? size_t(1) : size_t(97)}});
        vs.push_back({"device_budget 1 byte", {1, false, 0}});
        vs.push_back({"device_budget 1 byte, chunks of 64", {1, false, 64}});
        gpu_key_options host_pce{0, true, 64};
        host_pce.host_pce = true;
        vs.push_back({"force_streaming, the PCE on the host", host_pce});
        gpu_key_options pce_streamed{0, true, 64};
        pce_streamed.force_pce_streamed = true;
        pce_streamed.pce_stream_tile_bytes = uint64_t{32} << 10;   // many tiles
        vs.push_back({"force_streaming, the PCE streamed from host memory in tiles of 32 KiB", pce_streamed});
        gpu_key_options kept_hb{0, true, 64};
        kept_hb.keep_queries = int(gpu_query_h | gpu_query_b);
        vs.push_back({"force_streaming, H and B kept on the device", kept_hb});
        gpu_key_options kept_la{0, true, 7};
        kept_la.keep_queries = int(gpu_query_l | gpu_query_a);
        vs.push_back({"force_streaming, L and A kept on the device, chunks of 7", kept_la});
        // Lean where the witness fits c and the A/B scalars b (here 2 + 700 +
        // 178 values in a domain of 1024); elsewhere the key is refused.
        gpu_key_options lean{0, false, nc < 2000 ? size_t(7) : size_t(331)};
        lean.force_lean = true;
        gpu_key_options lean_host = lean;
        lean_host.host_pce = true;
        const uint64_t n = f.pk->domain_size;
        if (f.pk->num_inputs + f.pk->num_aux <= n && f.pk->a.size() <= n && f.pk->b_g1.size() <= n) {
            vs.push_back({"lean, the PCE on the device: the witness for PCE_EVAL, then in c", lean});
            vs.push_back({"lean, the PCE on the host: the witness in c, the NTT's buffers freed before the MSMs",
                          lean_host});
            gpu_key_options lean_streamed = lean;
            lean_streamed.force_pce_streamed = true;
            lean_streamed.pce_stream_tile_bytes = uint64_t{32} << 10;
            vs.push_back({"lean, the PCE streamed from host memory in tiles of 32 KiB", lean_streamed});
            gpu_key_options lean_low_streamed = lean_streamed;
            lean_low_streamed.force_low_ntt = true;
            vs.push_back({"lean, the PCE streamed, the low-memory NTT: C evaluated late into b, the witness in b",
                          lean_low_streamed});
            gpu_key_options lean_low = lean_host;
            lean_low.force_low_ntt = true;
            vs.push_back({"lean, the PCE on the host, the low-memory NTT: c for the H step only, the witness in a",
                          lean_low});
            ++lean_keys;
        } else {
            std::string what;
            CHECK(code_of([&] { gpu_key k(f.pk, f.density, f.pce, lean); }, &what) == errc::out_of_memory);
            CHECK(what.find("within the domain") != std::string::npos);
        }
        for (const variant& v : vs) {
            INFO(v.name);
            const gpu_key key(f.pk, f.density, f.pce, v.opt);
            CHECK_FALSE(key.resident());
            const bool host = v.opt.host_pce;
            CHECK(key.has_pce() == !host);
            CHECK(key.plan().pce_on_host == host);
            CHECK(key.plan().pce_streamed == v.opt.force_pce_streamed);
            CHECK(key.plan().lean == v.opt.force_lean);
            CHECK(key.plan().low_ntt == v.opt.force_low_ntt);
            CHECK(key.plan().kept == (v.opt.keep_queries >= 0 ? unsigned(v.opt.keep_queries) : 0u));
            CHECK(key.device_bytes() < resident.device_bytes());
            CHECK(key.prove_scratch_bytes() > 0);
            // Chunk buffers: the option's G2 points, else the largest query
            // here (the automatic size is at least 128 MiB, at most that).
            const auto& pk = *f.pk;
            const uint64_t largest = std::max<uint64_t>(
                {std::max({pk.h.size(), pk.l.size(), pk.a.size(), pk.b_g1.size()}) * sizeof(g1_affine),
                 pk.b_g2.size() * sizeof(g2_affine)});
            if (v.opt.stream_chunk_points)
                CHECK(key.chunk_bytes() == v.opt.stream_chunk_points * sizeof(g2_affine));
            else
                CHECK(key.chunk_bytes() == largest);
            for (int rep = 0; rep < 2; ++rep) {
                const auto w = groth16::synthesize_witness(f.circuit(rng(), rep ? 0.3 : 0.9));
                const auto x = f.evaluate(w);
                const auto cpu = cpu_sums(f, x, w);
                if (host) {   // a, b, c from the host only
                    std::string what;
                    CHECK(code_of([&] { gpu_prove_start_witness(key, w.inputs, w.aux); }, &what) ==
                          errc::invalid_argument);
                    CHECK(what.find("stays on the host") != std::string::npos);
                } else {
                    check_sums(gpu_prove_start_witness(key, w.inputs, w.aux), cpu);
                }
                if (!host && v.opt.force_lean) {   // packed: copied with the prove (a lean key takes no staged copy)
                    gpu_packed_witness pw;
                    pw.pack(w.aux);
                    check_sums(gpu_prove_start_witness(key, w.inputs, pw), cpu);
                    pw.stage(key);
                    CHECK_FALSE(pw.staged_on(key.device()));
                    check_sums(gpu_prove_start_witness(key, w.inputs, pw), cpu);
                }
                check_sums(gpu_prove_start(key, x.a, x.b, x.c, w.inputs, w.aux), cpu);
            }
        }
    }
    CHECK(lean_keys >= 1);
}

TEST_CASE("gpu prover: a batch of partitions equals each partition proved alone", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 31);
    for (const auto& [ni, nc] : std::vector<std::pair<size_t, size_t>>{{2, 29}, {3, 4093}}) {
        const fixture f(rng(), ni, nc);
        INFO("inputs " << ni << ", constraints " << nc);
        // Streamed with chunks of 7 (or 331) G2 points: many chunks, each serving every partition.
        const gpu_key key(f.pk, f.density, f.pce, {0, true, nc < 2000 ? size_t(7) : size_t(331)});
        REQUIRE_FALSE(key.resident());
        CHECK(key.batch_slot_bytes() == (f.pk->num_inputs + f.pk->num_aux + f.pk->domain_size) * sizeof(fr));
        for (size_t parts : {size_t(2), size_t(3)}) {
            INFO(parts << " partitions");
            std::vector<groth16::assignment> ws;
            std::vector<groth16::prove_sums> want;
            for (size_t p = 0; p < parts; ++p) {
                ws.push_back(groth16::synthesize_witness(f.circuit(rng(), p == 1 ? 0.3 : 0.9)));
                want.push_back(cpu_sums(f, f.evaluate(ws.back()), ws.back()));
            }
            gpu_packed_witness packed;   // the second partition comes packed and staged
            packed.pack(ws[1].aux);
            packed.stage(key);
            std::vector<recording_observer> obs(parts);
            std::vector<gpu_batch_part> bp;
            for (size_t p = 0; p < parts; ++p)
                bp.push_back(p == 1 ? gpu_batch_part{ws[p].inputs, {}, &packed, &obs[p]}
                                    : gpu_batch_part{ws[p].inputs, ws[p].aux, nullptr, &obs[p]});
            const auto got = gpu_prove_start_witness_batch(key, bp);
            REQUIRE(got.size() == parts);
            for (size_t p = 0; p < parts; ++p) {
                INFO("partition " << p);
                check_sums(got[p], want[p]);
                std::set<std::string> steps;
                for (const auto& sp : obs[p].spans) steps.insert(sp.step + ":" + sp.query);
                for (const char* s : {"H2D:", "PCE_EVAL:", "NTT:", "MSM_H:h", "MSM_L:l", "MSM_A:a", "MSM_B1:b1", "MSM_B2:b2"})
                    CHECK(steps.count(s) == 1);
            }
        }
        // A resident key takes the same call (one partition after the other).
        const gpu_key resident(f.pk, f.density, f.pce);
        const auto w0 = groth16::synthesize_witness(f.circuit(rng(), 0.9));
        const auto w1 = groth16::synthesize_witness(f.circuit(rng(), 0.5));
        const std::vector<gpu_batch_part> two{{w0.inputs, w0.aux, nullptr, nullptr}, {w1.inputs, w1.aux, nullptr, nullptr}};
        const auto r = gpu_prove_start_witness_batch(resident, two);
        check_sums(r[0], cpu_sums(f, f.evaluate(w0), w0));
        check_sums(r[1], cpu_sums(f, f.evaluate(w1), w1));
        // So does a streamed key that keeps H and B on the device (read in
        // place by every partition) and streams L and A.
        gpu_key_options kept{0, true, 7};
        kept.keep_queries = int(gpu_query_h | gpu_query_b);
        const gpu_key partial(f.pk, f.density, f.pce, kept);
        REQUIRE_FALSE(partial.resident());
        CHECK(partial.plan().kept == (gpu_query_h | gpu_query_b));
        const auto pr = gpu_prove_start_witness_batch(partial, two);
        check_sums(pr[0], cpu_sums(f, f.evaluate(w0), w0));
        check_sums(pr[1], cpu_sums(f, f.evaluate(w1), w1));
        // A partition of the wrong size is refused, naming it.
        std::vector<fr> short_aux(w1.aux.begin(), w1.aux.end() - 1);
        const std::vector<gpu_batch_part> bad{{w0.inputs, w0.aux, nullptr, nullptr}, {w1.inputs, short_aux, nullptr, nullptr}};
        std::string what;
        CHECK(code_of([&] { gpu_prove_start_witness_batch(key, bad); }, &what) == errc::invalid_argument);
        CHECK(what.find("partition 1") != std::string::npos);
    }
}

TEST_CASE("gpu prover: an unsatisfied partition fails the batch with errc::unsatisfied", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 32);
    const fixture f(rng(), 2, 1021);
    const gpu_key key(f.pk, f.density, f.pce, {0, true, 64});
    const auto good = groth16::synthesize_witness(f.circuit(rng(), 0.9));
    auto bad_c = f.circuit(rng(), 0.9);
    bad_c.break_at = 17;
    const auto bad = groth16::synthesize_witness(bad_c);
    const std::vector<gpu_batch_part> bp{{good.inputs, good.aux, nullptr, nullptr}, {bad.inputs, bad.aux, nullptr, nullptr}};
    CHECK(code_of([&] { gpu_prove_start_witness_batch(key, bp); }) == errc::unsatisfied);
    const std::vector<gpu_batch_part> ok{{good.inputs, good.aux, nullptr, nullptr}, {good.inputs, good.aux, nullptr, nullptr}};
    const auto r = gpu_prove_start_witness_batch(key, ok);
    check_sums(r[1], cpu_sums(f, f.evaluate(good), good));
}

TEST_CASE("gpu memory cap: allocations past it are refused, the high-water mark is measured", "[gpu]")
{
    GPU_OR_SKIP();
    const int dev = cuda_current_device();
    struct uncap {
        int d;
        ~uncap() { gpu_set_memory_cap(d, 0); }
    } restore{dev};
    const gpu_memory_use before = gpu_memory_use_of(dev);
    gpu_reset_memory_peak(dev);
    {
        gpu_buffer a(uint64_t{64} << 20);
        CHECK(gpu_memory_use_of(dev).used == before.used + (uint64_t{64} << 20));
    }
    CHECK(gpu_memory_use_of(dev).used == before.used);
    CHECK(gpu_memory_use_of(dev).peak >= before.used + (uint64_t{64} << 20));
    gpu_set_memory_cap(dev, before.used + (uint64_t{100} << 20));
    CHECK(gpu_memory().free <= uint64_t{100} << 20);
    CHECK(gpu_memory().total == before.used + (uint64_t{100} << 20));
    std::string what;
    CHECK(code_of([&] { gpu_buffer b(uint64_t{128} << 20); }, &what) == errc::out_of_memory);
    CHECK(what.find("memory cap") != std::string::npos);
    gpu_buffer c(uint64_t{32} << 20);   // within the cap
    CHECK(gpu_memory_use_of(dev).used <= gpu_memory_use_of(dev).cap);
}

TEST_CASE("gpu prover: a streamed key whose proves cannot fit the device is refused with the figures", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 21);
    const fixture f(rng(), 2, 29);
    // Chunk buffers of the whole free memory each: no prove could fit.
    gpu_key_options opt{0, true, size_t(gpu_memory().free / sizeof(g2_affine))};
    std::string what;
    CHECK(code_of([&] { gpu_key key(f.pk, f.density, f.pce, opt); }, &what) == errc::out_of_memory);
    INFO(what);
    CHECK(what.find("too small for this key: a prove needs") != std::string::npos);
    CHECK(what.find("chunk buffers") != std::string::npos);
    // The device is left as it was: a key that fits proves.
    opt.stream_chunk_points = 7;
    const gpu_key key(f.pk, f.density, f.pce, opt);
    const auto w = groth16::synthesize_witness(f.circuit(rng(), 0.9));
    const auto x = f.evaluate(w);
    check_sums(gpu_prove_start_witness(key, w.inputs, w.aux), cpu_sums(f, x, w));
}

TEST_CASE("gpu prover: shifted copies of the H query give the same sums", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 9);
    for (const auto& [ni, nc] : std::vector<std::pair<size_t, size_t>>{{2, 29}, {3, 4093}}) {
        const fixture f(rng(), ni, nc);
        INFO("inputs " << ni << ", constraints " << nc << ", domain 2^" << log2u(f.pk->domain_size));
        gpu_key_options o;
        o.h_copies_budget = ~uint64_t{0};   // every copy the plan wants
        gpu_key key(f.pk, f.density, f.pce, o);
        REQUIRE(key.resident());
        CHECK(key.h_copies().copies == 1);   // built at the end of the first prove
        {
            const auto w = groth16::synthesize_witness(f.circuit(rng(), 0.9));
            recording_observer obs;
            check_sums(gpu_prove_start_witness(key, w.inputs, w.aux, &obs), cpu_sums(f, f.evaluate(w), w));
            CHECK(std::count(obs.log.begin(), obs.log.end(), "+H_COPIES:h") == 1);
        }
        const gpu_msm_table_plan full = key.h_copies();
        CHECK(full.copies > 1);
        CHECK(full.copies * full.rows >= (256 + full.window_bits) / full.window_bits);
        for (int variant = 0; variant < 3; ++variant) {
            // every copy; one copy (set_h_copies with its size); none
            const uint64_t one = f.pk->h.size() * sizeof(g1_affine);
            const gpu_msm_table_plan plan =
                variant == 0 ? key.h_copies() : key.set_h_copies(variant == 1 ? one : 0);
            INFO("copies " << plan.copies << ", window " << plan.window_bits);
            CHECK(plan.copies == (variant == 0 ? full.copies : variant == 1 ? 2u : 1u));
            const auto w = groth16::synthesize_witness(f.circuit(rng(), 0.9));
            const auto x = f.evaluate(w);
            const groth16::prove_sums gpu = gpu_prove_start_witness(key, w.inputs, w.aux);
            check_sums(gpu, cpu_sums(f, x, w));
            CHECK(groth16::verify(f.pvk, groth16::prove_finish(f.pk->vk, gpu), f.public_inputs(w)));
        }
    }
}

TEST_CASE("gpu prover: an unsatisfied witness is errc::unsatisfied naming the constraint", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 4);
    const fixture f(rng(), 2, 301);
    const gpu_key key(f.pk, f.density, f.pce);
    for (long brk : {0L, 17L, 300L}) {
        INFO("broken constraint " << brk);
        const auto bad = groth16::synthesize_witness(f.circuit(rng(), 0.5, false, brk));
        std::string what;
        CHECK(code_of([&] { gpu_prove_start_witness(key, bad.inputs, bad.aux); }, &what) == errc::unsatisfied);
        INFO("message: " << what);
        CHECK(what.find("constraint " + std::to_string(brk) + " ") != std::string::npos);
        // The device stays usable.
        const auto good = groth16::synthesize_witness(f.circuit(rng()));
        check_sums(gpu_prove_start_witness(key, good.inputs, good.aux), cpu_sums(f, f.evaluate(good), good));
    }
}

TEST_CASE("gpu prover: invalid sizes and keys are refused, the next prove works", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 5);
    const fixture f(rng(), 2, 50);
    const gpu_key key(f.pk, f.density, f.pce);
    const auto w = groth16::synthesize_witness(f.circuit(rng()));
    const auto x = f.evaluate(w);
    const auto cpu = cpu_sums(f, x, w);
    auto short_aux = w.aux;
    short_aux.pop_back();
    auto bad_one = w.inputs;
    bad_one[0] = fr::from_u64(2);
    auto short_c = x.c;
    short_c.pop_back();
    std::vector<fr> too_many(f.pk->domain_size, fr::one());   // + inputs > domain
    std::string what;
    CHECK(code_of([&] { gpu_prove_start(key, x.a, x.b, x.c, w.inputs, short_aux); }, &what) == errc::invalid_argument);
    CHECK(code_of([&] { gpu_prove_start(key, x.a, x.b, short_c, w.inputs, w.aux); }) == errc::invalid_argument);
    CHECK(code_of([&] { gpu_prove_start(key, x.a, x.b, x.c, bad_one, w.aux); }) == errc::invalid_argument);
    CHECK(code_of([&] { gpu_prove_start(key, too_many, too_many, too_many, w.inputs, w.aux); }) ==
          errc::invalid_argument);
    CHECK(code_of([&] { gpu_prove_start_witness(key, w.inputs, short_aux); }) == errc::invalid_argument);
    check_sums(gpu_prove_start(key, x.a, x.b, x.c, w.inputs, w.aux), cpu);

    // A key without PCE: only the a, b, c entry point works.
    const gpu_key nopce(f.pk, f.density, nullptr);
    CHECK_FALSE(nopce.has_pce());
    CHECK(code_of([&] { gpu_prove_start_witness(nopce, w.inputs, w.aux); }) == errc::invalid_argument);
    check_sums(gpu_prove_start(nopce, x.a, x.b, x.c, w.inputs, w.aux), cpu);

    // Keys that do not match their density or PCE.
    auto d2 = f.density;
    d2.b_aux.push_back(true);
    CHECK(code_of([&] { gpu_key k2(f.pk, d2, f.pce); }) == errc::invalid_argument);
    const fixture other(rng(), 3, 50);
    CHECK(code_of([&] { gpu_key k3(f.pk, f.density, other.pce); }) == errc::invalid_argument);
    CHECK(code_of([&] { gpu_key k4(nullptr, f.density, f.pce); }) == errc::invalid_argument);
    // The original key still proves.
    check_sums(gpu_prove_start_witness(key, w.inputs, w.aux), cpu);
}

TEST_CASE("gpu prover: snarkjs convention equals prove_snarkjs", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 6);
    for (const auto& [ni, nc] : std::vector<std::pair<size_t, size_t>>{{1, 1}, {2, 13}, {2, 61}, {3, 1021}}) {
        fixture f(rng(), ni, nc);   // for the circuit and PCE; the key is snarkjs's
        const auto pk = std::make_shared<groth16::proving_key>(groth16::setup_snarkjs(groth16::describe(*f.pce), {}));
        const auto pvk = groth16::prepare_verifying_key(pk->vk);
        INFO("inputs " << ni << ", constraints " << nc << ", domain 2^" << log2u(pk->domain_size));
        for (bool stream : {false, true}) {
            INFO((stream ? "streamed (chunks of 5)" : "resident"));
            gpu_key_options opt;
            opt.force_streaming = stream;
            opt.stream_chunk_points = stream ? 5 : 0;
            const gpu_key key(pk, {}, nullptr, opt);
            CHECK(key.resident() == !stream);
            for (int rep = 0; rep < 2; ++rep) {
                const auto a = groth16::synthesize_witness(f.circuit(rng(), rep ? 0.2 : 0.9));
                std::vector<fr> wit = a.inputs;
                wit.insert(wit.end(), a.aux.begin(), a.aux.end());
                const fr r = fr::random(rng), s = fr::random(rng);
                const groth16::proof cpu = groth16::prove_snarkjs(*pk, wit, r, s, {});
                const groth16::proof gpu = gpu_prove_snarkjs(key, wit, r, s);
                check_sums(gpu_prove_start_snarkjs(key, wit), groth16::prove_start_snarkjs(*pk, wit, {}));
                CHECK(gpu.a == cpu.a);
                CHECK(gpu.b == cpu.b);
                CHECK(gpu.c == cpu.c);
                CHECK(groth16::verify(pvk, gpu, f.public_inputs(a)));
            }
            // Wrong sizes and conventions.
            const auto a = groth16::synthesize_witness(f.circuit(rng()));
            std::vector<fr> wit = a.inputs;
            wit.insert(wit.end(), a.aux.begin(), a.aux.end());
            wit.pop_back();
            const fr r = fr::one();
            CHECK(code_of([&] { gpu_prove_snarkjs(key, wit, r, r); }) == errc::invalid_argument);
            CHECK(code_of([&] { gpu_prove_start_witness(key, a.inputs, a.aux); }) == errc::invalid_argument);
        }
    }
}

TEST_CASE("gpu_upload_witness (packed 0/1 upload) gives the host values bit for bit", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 11);
    // Sizes around the 4096-value tiles and the 16-value tag words; the last
    // has more others (all of them) than one 64 MiB staging piece holds.
    const size_t sizes[] = {1, 2, 15, 16, 17, 4095, 4096, 4097, 3 * 4096 + 5, (size_t{1} << 20) + 3,
                            (size_t{1} << 21) + 4099};
    // Patterns: all zero, all one, all other, 90 % bits, runs of each kind.
    for (size_t n : sizes) {
        for (int pattern = 0; pattern < 5; ++pattern) {
            if (n > (size_t{1} << 20) && pattern != 2 && pattern != 3) continue;
            size_t expect_others = 0;
            const std::vector<fr> v = test::witness_pattern(n, pattern, rng, &expect_others);
            gpu_buffer dst(n * sizeof(fr)), scratch(n * sizeof(fr));
            // Poison the destination first.
            std::vector<fr> poison(n, fr::from_u64(12345));
            dst.upload(std::span<const fr>(poison));
            const size_t others = gpu_upload_witness(dst.as<fr>(), v, scratch.as<fr>());
            std::vector<fr> got(n);
            dst.download(std::span<fr>(got));
            INFO("n " << n << " pattern " << pattern);
            CHECK(others == expect_others);
            CHECK(std::memcmp(got.data(), v.data(), n * sizeof(fr)) == 0);
        }
    }
    CHECK(gpu_upload_witness(nullptr, {}, nullptr) == 0);
}

TEST_CASE("gpu prover: without a device every entry point refuses", "[gpu]")
{
    std::string why;
    if (cuda_available(&why)) {
        std::printf("SKIPPED: a device is present (this case checks the refusal without one)\n");
        return;
    }
    std::mt19937_64 rng(test::test_seed() + 7);
    const fixture f(rng(), 1, 3);
    const errc c = code_of([&] { gpu_key k(f.pk, f.density, f.pce); });
    const fr one = fr::one();
    const errc u = code_of([&] { gpu_upload_witness(nullptr, std::span<const fr>(&one, 1), nullptr); });
    CHECK((u == errc::unsupported || u == errc::device || u == errc::invalid_argument));
    gpu_packed_witness pw;   // page-locked memory needs the CUDA runtime and a device
    const errc p = code_of([&] { pw.pack(std::span<const fr>(&one, 1)); });
    CHECK((p == errc::unsupported || p == errc::device));
    CHECK(pw.size() == 0);
    // Built without CUDA: unsupported; with CUDA but no device: device.
    INFO("no device: " << why);
    CHECK((c == errc::unsupported || c == errc::device));
}
