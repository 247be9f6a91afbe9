// The proving engine: the split prover (both conventions) against the proof
// Groth16 defines, computed from the toxic waste in the scalar field; ≥ 1000
// jobs from several threads with injected failures and cancellations (every
// handle resolves exactly once, with the expected status, and every completed
// proof verifies under an independent check); priority order; the memory
// budget (refusal and admission); waiting with a timeout; duplicate ids;
// shutting down with pending jobs; several partitions per prove call (order
// kept, one key per call, failures isolated per job); the device memory
// budget (device parts never overlap when one fits, refusal); snarkjs keys
// from .zkey/.wtns files; the cuda backend failing cleanly without a GPU;
// removing keys (memory given back, ids refused, jobs of a removed key);
// BN254 keys, alone and next to BLS12-381 ones (the last section).
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <random>
#include <filesystem>
#include <set>
#include <string>
#include <thread>
#include <tuple>

#include <unistd.h>

#include "recording_sink.hpp"
#include "engine_gate.hpp"
#include "../lib/pipeline/fifo_mutex.hpp"
#include "cuzk/backend/cuda.hpp"
#include "cuzk/backend/device_plan.hpp"
#include "cuzk/error.hpp"
#include "cuzk/groth16/circuit.hpp"
#include "cuzk/groth16/prover_split.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/bellperson.hpp"
#include "cuzk/io/snarkjs.hpp"
#include "cuzk/ntt/ntt.hpp"
#include "cuzk/pipeline/engine.hpp"
#include "cuzk/r1cs/gadgets/sha256.hpp"
#include "cuzk/timeline/analysis.hpp"
#include "gmp_util.hpp"

using namespace cuzk;
using namespace std::chrono_literals;
using pipeline::job_status;

namespace {

// A small circuit whose shape (which variables each constraint combines, and
// with which coefficients) comes from `shape` and whose values come from
// `values`: every value seed gives a different witness for the same R1CS.
// n_inputs public inputs, 3 free aux variables, then n_constraints
// constraints a·b = c with a, b random combinations of earlier variables and
// c a fresh aux variable. `break_at` makes that constraint's c wrong.
struct tiny_circuit final : r1cs::circuit {
    uint64_t shape, values;
    size_t n_inputs, n_constraints;
    long break_at;
    tiny_circuit(uint64_t sh, uint64_t v, size_t ni, size_t nc, long brk = -1)
        : shape(sh), values(v), n_inputs(ni), n_constraints(nc), break_at(brk)
    {
    }

    void synthesize(r1cs::constraint_system& cs) const override
    {
        std::mt19937_64 srng(shape), vrng(values);
        std::vector<r1cs::variable> vars{r1cs::variable::one()};
        std::vector<fr> vals{fr::one()};
        auto value = [&] {
            const uint64_t kind = vrng() % 4;
            return kind == 0 ? fr::zero() : kind == 1 ? fr::one() : fr::random(vrng);
        };
        for (size_t i = 0; i < n_inputs; ++i) {
            const fr v = value();
            vars.push_back(cs.alloc_input(v));
            vals.push_back(v);
        }
        for (size_t i = 0; i < 3; ++i) {
            const fr v = value();
            vars.push_back(cs.alloc(v));
            vals.push_back(v);
        }
        auto random_lc = [&](fr& val) {
            r1cs::linear_combination lc;
            val = fr::zero();
            const size_t terms = 1 + srng() % 3;
            for (size_t t = 0; t < terms; ++t) {
                const size_t k = srng() % vars.size();
                const uint64_t kind = srng() % 3;
                const fr c = kind == 0 ? fr::one() : kind == 1 ? -fr::one() : fr::random(srng);
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

// A circuit whose witness generation throws (a host-side bug).
struct throwing_circuit final : r1cs::circuit {
    void synthesize(r1cs::constraint_system& cs) const override
    {
        if (cs.is_witness_generator()) throw std::runtime_error("boom from the circuit");
    }
};

using cuzk::test::gate;

// `inner` behind a gate (witness generation only).
struct gated_circuit final : r1cs::circuit {
    std::shared_ptr<gate> g;
    tiny_circuit inner;
    gated_circuit(std::shared_ptr<gate> gg, tiny_circuit c) : g(std::move(gg)), inner(c) {}
    void synthesize(r1cs::constraint_system& cs) const override
    {
        if (cs.is_witness_generator()) g->pass();
        inner.synthesize(cs);
    }
};

// `inner` with a slow witness generation.
struct slow_circuit final : r1cs::circuit {
    tiny_circuit inner;
    std::chrono::milliseconds delay;
    slow_circuit(tiny_circuit c, std::chrono::milliseconds d) : inner(c), delay(d) {}
    void synthesize(r1cs::constraint_system& cs) const override
    {
        if (cs.is_witness_generator()) std::this_thread::sleep_for(delay);
        inner.synthesize(cs);
    }
};

using test_recorder = cuzk::test::recording_sink;

// The reference for the split prover: the proof Groth16 defines, computed in
// the scalar field straight from the toxic waste and the R1CS matrices (the
// Lagrange basis at τ by its formula, the QAP sums u, v, w per variable; no
// key points, no MSM, no NTT), then put on the generators. With the input
// constraints x_i·0 = 0 in the rows after the circuit's (both conventions),
//   A = α + Σ z_i·u_i(τ) + r·δ,   B = β + Σ z_i·v_i(τ) + s·δ,
//   C = (Σ_aux z_j·(β·u_j + α·v_j + w_j) + A_z·B_z − C_z)/δ + s·A + r·B − r·s·δ
// where A_z, B_z, C_z are the sums Σ z_i·u_i(τ) etc. (A_z·B_z − C_z = h(τ)·Z(τ)
// for a satisfying witness z = ONE, inputs, aux).
struct reference_proof {
    g1_affine a;
    g2_affine b;
    g1_affine c;
};

std::vector<fr> lagrange_basis_at(const fr& tau, uint64_t n, const fr& omega)
{
    REQUIRE(omega.pow(n) == fr::one());
    REQUIRE_FALSE(omega.pow(n / 2) == fr::one());   // primitive: the n points are distinct
    const fr zn_over_n = (tau.pow(n) - fr::one()) * fr::from_u64(n).inverse();
    std::vector<fr> lag(n);
    fr wk = fr::one();
    for (uint64_t k = 0; k < n; ++k) {
        lag[k] = zn_over_n * wk * (tau - wk).inverse();   // L_k(τ) = ω^k·(τ^n − 1)/(n·(τ − ω^k))
        wk *= omega;
    }
    return lag;
}

reference_proof groth16_by_definition(const groth16::r1cs_description& r, root_convention rc,
                                      const groth16::toxic_waste& tw, std::span<const fr> z, const fr& rr,
                                      const fr& ss)
{
    const uint64_t n = groth16::groth16_domain_size(r);
    const std::vector<fr> lag = lagrange_basis_at(tw.tau, n, root_of_unity(unsigned(std::countr_zero(n)), rc));
    const size_t nv = size_t(r.num_inputs) + r.num_aux;
    REQUIRE(z.size() == nv);
    std::vector<fr> u(nv), v(nv), w(nv);
    r.for_each_entry([&](int m, uint32_t row, uint32_t col, const fr& coeff) {
        (m == 0 ? u : m == 1 ? v : w)[col] += coeff * lag[row];
    });
    for (uint32_t i = 0; i < r.num_inputs; ++i) u[i] += lag[r.num_constraints + i];
    fr az = fr::zero(), bz = fr::zero(), cz = fr::zero(), lz = fr::zero();
    for (size_t j = 0; j < nv; ++j) {
        az += z[j] * u[j];
        bz += z[j] * v[j];
        cz += z[j] * w[j];
        if (j >= r.num_inputs) lz += z[j] * (tw.beta * u[j] + tw.alpha * v[j] + w[j]);
    }
    const fr a = tw.alpha + az + rr * tw.delta;
    const fr b = tw.beta + bz + ss * tw.delta;
    const fr c = (lz + az * bz - cz) * tw.delta.inverse() + ss * a + rr * b - rr * ss * tw.delta;
    return {scalar_mul(g1_affine::generator(), a.to_repr()).to_affine(),
            scalar_mul(g2_affine::generator(), b.to_repr()).to_affine(),
            scalar_mul(g1_affine::generator(), c.to_repr()).to_affine()};
}


// A key for one circuit shape, with what an independent verifier needs.
struct test_key {
    uint64_t shape;
    size_t n_inputs, n_constraints;
    std::shared_ptr<const groth16::proving_key> pk;
    std::shared_ptr<const r1cs::pce> pce;
    groth16::query_density density;
    groth16::prepared_verifying_key pvk;

    // The toxic waste `tw` when given, else random.
    test_key(uint64_t sh, size_t ni, size_t nc, const groth16::toxic_waste* tw = nullptr)
        : shape(sh), n_inputs(ni), n_constraints(nc)
    {
        auto p = std::make_shared<r1cs::pce>(r1cs::record(tiny_circuit(sh, 0, ni, nc)));
        groth16::setup_options opt;
        opt.waste = tw;
        pk = std::make_shared<groth16::proving_key>(groth16::setup_bellperson(groth16::describe(*p), &density, opt));
        pce = p;
        pvk = groth16::prepare_verifying_key(pk->vk);
    }
    tiny_circuit circuit(uint64_t values, long brk = -1) const { return {shape, values, n_inputs, n_constraints, brk}; }
    std::shared_ptr<const r1cs::circuit> circuit_ptr(uint64_t values, long brk = -1) const
    {
        return std::make_shared<tiny_circuit>(circuit(values, brk));
    }
    // The public inputs of a witness, from a plain witness_cs run.
    std::vector<fr> public_inputs(uint64_t values) const
    {
        const auto w = groth16::synthesize_witness(circuit(values));
        return {w.inputs.begin() + 1, w.inputs.end()};
    }
};

// How a partition of the stress test is given and what should happen to it.
// The cuda cases' first line: without a usable device (or a build without
// CUDA) the case prints "SKIPPED: <reason>" and returns.
#define CUDA_OR_SKIP()                                       \
    do {                                                     \
        std::string why_;                                    \
        if (!cuda_available(&why_)) {                        \
            WARN("skipped: " << why_);                       \
            std::printf("SKIPPED: %s\n", why_.c_str());      \
            return;                                          \
        }                                                    \
    } while (0)

enum class part_kind { circuit, witness, abc, unsatisfied, throws, bad_abc, bad_size };

struct planned_job {
    int key = 0;
    std::vector<part_kind> parts;
    std::vector<uint64_t> values;
    int priority = 0;
    int bad_part = -1;                 // the one injected failure, if any
    errc bad_code = errc::ok;
    int cancel_mode = 0;               // 0 none, 1 right after submit, 2 later from another thread
};

pipeline::partition make_partition(const test_key& k, part_kind kind, uint64_t values)
{
    switch (kind) {
    case part_kind::circuit: return pipeline::circuit_partition{k.circuit_ptr(values)};
    case part_kind::unsatisfied:
        return pipeline::circuit_partition{k.circuit_ptr(values, long(values % k.n_constraints))};
    case part_kind::throws: return pipeline::circuit_partition{std::make_shared<throwing_circuit>()};
    case part_kind::witness: {
        auto w = groth16::synthesize_witness(k.circuit(values));
        return pipeline::witness_partition{std::move(w.inputs), std::move(w.aux)};
    }
    case part_kind::bad_size: {
        auto w = groth16::synthesize_witness(k.circuit(values));
        w.aux.pop_back();
        return pipeline::witness_partition{std::move(w.inputs), std::move(w.aux)};
    }
    case part_kind::abc:
    case part_kind::bad_abc: {
        auto w = groth16::synthesize_witness(k.circuit(values));
        const size_t m = k.pce->num_constraints;
        std::vector<fr> a(m), b(m), c(m);
        r1cs::evaluate(*k.pce, w.inputs, w.aux, a, b, c, 1);
        if (kind == part_kind::bad_abc) {
            // Rows that hold (a·b = c) but do not come from this witness:
            // the engine cannot see it before proving; self-verify must.
            for (size_t i = 0; i < m; ++i) {
                a[i] = fr::from_u64(i + 2);
                b[i] = fr::from_u64(3);
                c[i] = a[i] * b[i];
            }
        }
        return pipeline::abc_partition{std::move(a), std::move(b), std::move(c), std::move(w.inputs),
                                       std::move(w.aux)};
    }
    }
    return {};
}

// Spans must close: every begin has its end (same name, job, partition,
// worker, device), and stage events of a completed partition come in order.
void check_timeline(const std::vector<timeline::event>& ev)
{
    std::map<std::tuple<std::string, std::string, int, int, int>, int> open;
    for (const auto& e : ev) {
        const auto key = std::make_tuple(e.name, e.job, e.partition, e.worker, e.device);
        if (e.ph == timeline::phase::begin) ++open[key];
        if (e.ph == timeline::phase::end) {
            INFO("span " << e.name << " of " << e.job << "/" << e.partition << " ends without a begin");
            REQUIRE(open[key] > 0);
            --open[key];
        }
    }
    for (const auto& [k, n] : open) {
        INFO("span " << std::get<0>(k) << " of " << std::get<1>(k) << "/" << std::get<2>(k) << " left open");
        CHECK(n == 0);
    }
}

// Every proof verifies under an independent check with the public inputs of
// a plain witness run; with `decode`, the 192 bytes also decode (with
// subgroup checks, ~1 ms) to the same points.
bool verify_result(const test_key& k, const pipeline::job_result& r, const std::vector<uint64_t>& values,
                   bool decode = true)
{
    if (r.partitions.size() != values.size()) return false;
    for (size_t p = 0; p < values.size(); ++p) {
        const auto& pr = r.partitions[p];
        const std::vector<fr> pub = k.public_inputs(values[p]);
        if (pr.public_inputs() != pub) return false;
        if (!groth16::verify(k.pvk, pr.proof(), pub)) return false;
        if (!decode) continue;
        const groth16::proof back = io::proof_from_bytes(pr.bytes);
        if (!(back.a == pr.proof().a && back.b == pr.proof().b && back.c == pr.proof().c)) return false;
    }
    return true;
}

} // namespace

TEST_CASE("split prover: prove_finish(prove_start) equals the proof computed from the toxic waste", "[engine]")
{
    std::mt19937_64 rng(test::test_seed());
    for (size_t nc : {5u, 60u, 300u}) {
        const groth16::toxic_waste tw = groth16::toxic_waste::from_seed(rng());
        const test_key k(rng(), 2, nc, &tw);
        const uint64_t values = rng();
        const auto w = groth16::synthesize_witness(k.circuit(values));
        const size_t m = k.pce->num_constraints;
        std::vector<fr> a(m), b(m), c(m);
        r1cs::evaluate(*k.pce, w.inputs, w.aux, a, b, c, 1);
        const fr r = fr::random(rng), s = fr::random(rng);
        std::vector<fr> z(w.inputs.begin(), w.inputs.end());
        z.insert(z.end(), w.aux.begin(), w.aux.end());
        const reference_proof want =
            groth16_by_definition(groth16::describe(*k.pce), root_convention::bellperson, tw, z, r, s);

        struct obs_t final : groth16::prove_observer {
            std::vector<std::string> log;
            void step_begin(std::string_view st, std::string_view q) noexcept override
            {
                log.push_back("+" + std::string(st) + ":" + std::string(q));
            }
            void step_end(std::string_view st, std::string_view q) noexcept override
            {
                log.push_back("-" + std::string(st) + ":" + std::string(q));
            }
        } obs;
        groth16::prove_timings tm;
        const groth16::prove_sums sums =
            groth16::prove_start(*k.pk, k.density, a, b, c, w.inputs, w.aux, {2}, &obs, &tm);
        const groth16::proof split = groth16::prove_finish(k.pk->vk, sums, r, s);
        CHECK(split.a == want.a);
        CHECK(split.b == want.b);
        CHECK(split.c == want.c);
        std::vector<fr> pub(w.inputs.begin() + 1, w.inputs.end());
        CHECK(groth16::verify(k.pvk, split, pub));
        // Random r, s: still valid, and different.
        const groth16::proof split2 = groth16::prove_finish(k.pk->vk, sums);
        CHECK(groth16::verify(k.pvk, split2, pub));
        CHECK_FALSE(split2.a == split.a);
        const std::vector<std::string> expect = {
            "+NTT:",        "-NTT:",        "+MSM_H:h",     "+BATCH_ADD:h",  "-BATCH_ADD:h",  "-MSM_H:h",
            "+MSM_L:l",     "+BATCH_ADD:l", "-BATCH_ADD:l", "-MSM_L:l",      "+MSM_A:a",      "+BATCH_ADD:a",
            "-BATCH_ADD:a", "-MSM_A:a",     "+MSM_B1:b1",   "+BATCH_ADD:b1", "-BATCH_ADD:b1", "-MSM_B1:b1",
            "+MSM_B2:b2",   "+BATCH_ADD:b2", "-BATCH_ADD:b2", "-MSM_B2:b2"};
        CHECK(obs.log == expect);
        CHECK(tm.total_ns >= tm.h_ns + tm.msm_h_ns);
    }
    // Bad sizes are refused like prove_bellperson refuses them.
    const test_key k(7, 1, 4);
    const auto w = groth16::synthesize_witness(k.circuit(1));
    std::vector<fr> a(4), b(4), c(3);
    CHECK_THROWS_AS(groth16::prove_start(*k.pk, k.density, a, b, c, w.inputs, w.aux), error);
}

TEST_CASE("engine: 1000+ jobs from several threads with failures and cancellations", "[engine]")
{
    const uint64_t seed = test::test_seed();
    std::mt19937_64 rng(seed);
    const std::vector<test_key> keys{test_key(rng(), 2, 8), test_key(rng(), 1, 20)};

    // Plan the jobs first (deterministic from the seed).
    const size_t n_jobs = 1040;
    std::vector<planned_job> plan(n_jobs);
    for (auto& j : plan) {
        j.key = int(rng() % 2);
        const size_t np = 1 + rng() % 2;
        for (size_t p = 0; p < np; ++p) {
            const uint64_t roll = rng() % 10;
            j.parts.push_back(roll < 6 ? part_kind::circuit : roll < 8 ? part_kind::witness : part_kind::abc);
            j.values.push_back(rng());
        }
        j.priority = int(rng() % 3) - 1;
        const uint64_t f = rng() % 100;   // about 16 % of the jobs get one bad partition
        if (f < 16) {
            j.bad_part = int(rng() % np);
            const part_kind bad = f < 5 ? part_kind::unsatisfied : f < 9 ? part_kind::throws
                                : f < 13 ? part_kind::bad_abc : part_kind::bad_size;
            j.parts[size_t(j.bad_part)] = bad;
            j.bad_code = bad == part_kind::unsatisfied ? errc::unsatisfied
                       : bad == part_kind::bad_size    ? errc::invalid_argument
                                                       : errc::internal;
        }
        const uint64_t c = rng() % 100;   // about 12 % get cancelled
        j.cancel_mode = c < 6 ? 1 : c < 12 ? 2 : 0;
    }

    // Three engine shapes: a tail pool; tails run by the prove workers; a
    // tail pool with three partitions per prove call.
    for (const auto& [tail_threads, per_call] : {std::pair{2u, 1u}, std::pair{0u, 1u}, std::pair{1u, 3u}}) {
        const size_t jobs_here = per_call > 1 ? 300 : tail_threads ? n_jobs : 150;
        INFO("seed " << seed << ", tail_threads " << tail_threads << ", partitions_per_call " << per_call);
        test_recorder rec;
        pipeline::engine_config cfg;
        cfg.synth_workers = 2;
        cfg.synth_threads = 1;
        cfg.lookahead = 3;
        cfg.workers_per_device = 2;
        cfg.device_threads = 1;
        cfg.tail_threads = tail_threads;
        cfg.partitions_per_call = per_call;
        cfg.self_verify = true;
        cfg.sink = &rec;

        std::vector<std::atomic<int>> done_calls(jobs_here);
        std::vector<job_status> done_status(jobs_here, job_status::queued);
        std::vector<pipeline::job_handle> handles(jobs_here);
        std::vector<int> cancelled_by_us(jobs_here, 0);
        std::mutex plan_m;
        {
            pipeline::engine eng(cfg);
            const pipeline::key_id k0 = eng.add_key(keys[0].pk, keys[0].pce, {"small", 0});
            const pipeline::key_id k1 = eng.add_key(keys[1].pk, keys[1].pce, keys[1].density, {"wide", 0});
            REQUIRE(k0 != k1);

            // Late cancellations come from their own thread.
            std::mutex late_m;
            std::condition_variable late_cv;
            std::vector<size_t> late;
            bool submitting_done = false;
            std::thread canceller([&] {
                std::mt19937_64 crng(seed + 99);
                for (;;) {
                    std::unique_lock lk(late_m);
                    late_cv.wait_for(lk, 2ms);
                    if (late.empty()) {
                        if (submitting_done) return;
                        continue;
                    }
                    const size_t idx = crng() % late.size();
                    const size_t j = late[idx];
                    late.erase(late.begin() + long(idx));
                    lk.unlock();
                    cancelled_by_us[j] = handles[j].cancel() ? 1 : 0;
                }
            });

            const unsigned n_threads = 4;
            std::vector<std::thread> submitters;
            for (unsigned t = 0; t < n_threads; ++t) {
                submitters.emplace_back([&, t] {
                    for (size_t j = t; j < jobs_here; j += n_threads) {
                        const planned_job& pj = plan[j];
                        const test_key& k = keys[size_t(pj.key)];
                        pipeline::proof_request req;
                        req.key = pj.key == 0 ? k0 : k1;
                        req.priority = pj.priority;
                        req.id = "j" + std::to_string(j);
                        for (size_t p = 0; p < pj.parts.size(); ++p)
                            req.partitions.push_back(make_partition(k, pj.parts[p], pj.values[p]));
                        req.on_done = [&, j](const pipeline::job_result& r) {
                            done_calls[j].fetch_add(1);
                            std::lock_guard lk(plan_m);
                            done_status[j] = r.status;
                        };
                        pipeline::job_handle h = eng.submit(std::move(req));
                        {
                            std::lock_guard lk(plan_m);
                            handles[j] = h;
                        }
                        if (pj.cancel_mode == 1) cancelled_by_us[j] = h.cancel() ? 1 : 0;
                        if (pj.cancel_mode == 2) {
                            std::lock_guard lk(late_m);
                            late.push_back(j);
                        }
                    }
                });
            }
            for (auto& t : submitters) t.join();
            {
                std::lock_guard lk(late_m);
                submitting_done = true;
            }
            canceller.join();
            for (size_t j = 0; j < jobs_here; ++j) REQUIRE(handles[j].wait_for(120s));
            // A job ends as soon as one partition fails or it is cancelled;
            // a synthesis of its other partitions may still be running then
            // and holds its reservation until it returns. Wait for those.
            auto st = eng.stats();
            for (int i = 0; i < 6000 && (st.memory_reserved != 0 || st.lookahead_queued != 0); ++i) {
                std::this_thread::sleep_for(10ms);
                st = eng.stats();
            }
            CHECK(st.jobs_submitted == jobs_here);
            CHECK(st.jobs_completed + st.jobs_failed + st.jobs_cancelled == jobs_here);
            CHECK(st.jobs_live == 0);
            CHECK(st.memory_reserved == 0);
            CHECK(st.lookahead_queued == 0);
            CHECK(st.device_busy_ns.size() == 1);
            CHECK(st.device_busy_ns[0] > 0);
        }

        size_t n_completed = 0, n_failed = 0, n_cancelled = 0;
        for (size_t j = 0; j < jobs_here; ++j) {
            const planned_job& pj = plan[j];
            INFO("job " << j << " bad_part " << pj.bad_part << " cancel_mode " << pj.cancel_mode);
            const pipeline::job_result& r = handles[j].result();
            REQUIRE(done_calls[j].load() == 1);
            CHECK(done_status[j] == r.status);
            CHECK(handles[j].poll() == r.status);
            CHECK(r.id == "j" + std::to_string(j));
            CHECK(r.ended_ns >= r.submitted_ns);
            if (cancelled_by_us[j]) {
                CHECK(r.status == job_status::cancelled);
                CHECK(r.code == errc::cancelled);
                CHECK(r.partitions.empty());
                ++n_cancelled;
            } else if (pj.bad_part >= 0) {
                INFO(r.message);
                REQUIRE(r.status == job_status::failed);
                CHECK(r.failed_partition == pj.bad_part);
                CHECK(r.code == pj.bad_code);
                CHECK(r.message.find("partition " + std::to_string(pj.bad_part)) != std::string::npos);
                CHECK(r.partitions.empty());
                ++n_failed;
            } else {
                INFO(r.message);
                REQUIRE(r.status == job_status::completed);
                CHECK(verify_result(keys[size_t(pj.key)], r, pj.values, j % 8 == 0));
                ++n_completed;
            }
        }
        // The mix really happened.
        CHECK(n_completed > jobs_here / 2);
        CHECK(n_failed > 0);
        CHECK(n_cancelled > 0);

        // Timeline: spans close; one end event per job; stage order per proved partition.
        const auto ev = rec.take();
        check_timeline(ev);
        std::map<std::string, int> ends;
        std::map<std::pair<std::string, int>, std::vector<std::string>> stages;
        for (const auto& e : ev) {
            if (e.name == "JOB_DONE" || e.name == "JOB_FAILED" || e.name == "JOB_CANCELLED") ++ends[e.job];
            if (e.ph == timeline::phase::instant && e.partition >= 0 && e.name.rfind("JOB_", 0) != 0)
                stages[{e.job, e.partition}].push_back(e.name);
            if (e.name == "NTT" || e.name.rfind("MSM_", 0) == 0 || e.name == "BATCH_ADD") CHECK(e.device == 0);
            if (e.name == "SYNTH_START" || e.name == "PCE_EVAL" || e.name == "CPU_TAIL") CHECK(e.device == -1);
        }
        CHECK(ends.size() == jobs_here);
        for (const auto& [id, n] : ends) CHECK(n == 1);
        const std::vector<std::string> full = {"SYNTH_START", "SYNTH_END", "CHAN_SEND", "GPU_PICKUP", "GPU_START", "GPU_END"};
        for (size_t j = 0; j < jobs_here; ++j) {
            const auto& r = handles[j].result();
            if (r.status != job_status::completed) continue;
            for (size_t p = 0; p < r.partitions.size(); ++p) CHECK(stages[{r.id, int(p)}] == full);
        }
    }
}

TEST_CASE("engine: priority, then submission, then partition", "[engine]")
{
    const test_key k(test::test_seed() + 5, 1, 6);
    test_recorder rec;
    pipeline::engine_config cfg;
    cfg.synth_workers = 1;
    cfg.lookahead = 1;
    cfg.workers_per_device = 1;
    cfg.device_threads = 1;
    cfg.sink = &rec;
    pipeline::engine eng(cfg);
    const auto key = eng.add_key(k.pk, k.pce);

    auto g = std::make_shared<gate>();
    auto blocker = eng.submit({key, {pipeline::circuit_partition{std::make_shared<gated_circuit>(g, k.circuit(1))}}, 0, "B"});
    g->wait_arrived(1);   // the only synthesis worker is now inside B
    auto two = [&] {
        std::vector<pipeline::partition> v;
        v.push_back(pipeline::circuit_partition{k.circuit_ptr(2)});
        v.push_back(pipeline::circuit_partition{k.circuit_ptr(3)});
        return v;
    };
    std::vector<pipeline::job_handle> hs;
    hs.push_back(eng.submit({key, two(), -1, "L1"}));
    hs.push_back(eng.submit({key, two(), 0, "N1"}));
    hs.push_back(eng.submit({key, two(), 5, "H1"}));
    hs.push_back(eng.submit({key, two(), 0, "N2"}));
    hs.push_back(eng.submit({key, two(), 5, "H2"}));
    CHECK(hs[0].poll() == job_status::queued);
    g->release();
    for (auto& h : hs) REQUIRE(h.wait().status == job_status::completed);
    REQUIRE(blocker.wait().status == job_status::completed);

    std::vector<std::string> order;
    for (const auto& e : rec.take())
        if (e.name == "SYNTH_START") order.push_back(e.job + ":" + std::to_string(e.partition));
    const std::vector<std::string> expect = {"B:0",  "H1:0", "H1:1", "H2:0", "H2:1", "N1:0",
                                             "N1:1", "N2:0", "N2:1", "L1:0", "L1:1"};
    CHECK(order == expect);
}

TEST_CASE("engine: memory budget refuses what can never fit and admits within it", "[engine]")
{
    const test_key k(test::test_seed() + 6, 1, 10);
    SECTION("refusal")
    {
        pipeline::engine_config cfg;
        cfg.host_memory_budget = 1 << 20;   // 1 MiB: below the estimate's fixed overhead alone
        cfg.device_threads = 1;
        pipeline::engine eng(cfg);
        const auto big = eng.add_key(k.pk, k.pce);
        CHECK(eng.partition_bytes(big) == pipeline::partition_bytes_estimate(*k.pk));
        CHECK(eng.partition_bytes(big) > cfg.host_memory_budget);
        try {
            eng.submit({big, {pipeline::circuit_partition{k.circuit_ptr(1)}}, 0, "too-big"});
            FAIL("submit accepted a job that can never fit");
        } catch (const error& e) {
            CHECK(e.code() == errc::out_of_memory);
            CHECK(std::string(e.what()).find("budget") != std::string::npos);
        }
        // Nothing was queued, the id stays free, and the engine still works.
        const auto small = eng.add_key(k.pk, k.pce, {"small", 100 << 10});
        auto h = eng.submit({small, {pipeline::circuit_partition{k.circuit_ptr(1)}}, 0, "too-big"});
        CHECK(h.wait().status == job_status::completed);
        CHECK(eng.stats().jobs_submitted == 1);
    }
    SECTION("admission waits while the budget is short")
    {
        pipeline::engine_config cfg;
        cfg.host_memory_budget = 250 << 10;   // room for two partitions of 100 KiB
        cfg.synth_workers = 4;
        cfg.lookahead = 4;
        cfg.workers_per_device = 2;
        cfg.device_threads = 1;
        test_recorder rec;
        cfg.sink = &rec;
        pipeline::engine eng(cfg);
        const auto key = eng.add_key(k.pk, k.pce, {"k", 100 << 10});
        std::vector<pipeline::job_handle> hs;
        for (int j = 0; j < 20; ++j) {
            std::vector<pipeline::partition> parts;
            for (int p = 0; p < 3; ++p) parts.push_back(pipeline::circuit_partition{k.circuit_ptr(uint64_t(j * 3 + p))});
            hs.push_back(eng.submit({key, std::move(parts), 0, ""}));
        }
        for (auto& h : hs) REQUIRE(h.wait().status == job_status::completed);
        const auto st = eng.stats();
        CHECK(st.memory_peak <= cfg.host_memory_budget);
        CHECK(st.memory_peak >= (100u << 10));
        CHECK(st.memory_reserved == 0);
        // Never more than two partitions between SYNTH_START and the end of the device part.
        int in_flight = 0, most = 0;
        for (const auto& e : rec.take()) {
            if (e.name == "SYNTH_START") most = std::max(most, ++in_flight);
            if (e.name == "MSM_B2" && e.ph == timeline::phase::end) --in_flight;
        }
        CHECK(most <= 2);
    }
}

TEST_CASE("engine: wait with a timeout, poll, duplicate ids", "[engine]")
{
    const test_key k(test::test_seed() + 7, 2, 6);
    pipeline::engine_config cfg;
    cfg.synth_workers = 1;
    cfg.device_threads = 1;
    pipeline::engine eng(cfg);
    const auto key = eng.add_key(k.pk, k.pce);
    auto g = std::make_shared<gate>();
    auto h = eng.submit({key, {pipeline::circuit_partition{std::make_shared<gated_circuit>(g, k.circuit(4))}}, 0, "dup"});
    g->wait_arrived(1);
    const auto t0 = std::chrono::steady_clock::now();
    CHECK_FALSE(h.wait_for(50ms));
    CHECK(std::chrono::steady_clock::now() - t0 >= 45ms);
    CHECK(h.poll() == job_status::running);
    CHECK_THROWS_AS(h.result(), error);
    // The id is taken while the job lives.
    try {
        eng.submit({key, {pipeline::circuit_partition{k.circuit_ptr(5)}}, 0, "dup"});
        FAIL("a duplicate id was accepted");
    } catch (const error& e) {
        CHECK(e.code() == errc::invalid_argument);
    }
    g->release();
    REQUIRE(h.wait_for(60s));
    CHECK(h.result().status == job_status::completed);
    CHECK(verify_result(k, h.result(), {4}));
    CHECK_FALSE(h.cancel());   // already ended: nothing changes
    CHECK(h.poll() == job_status::completed);
    // Ended: the id is free again.
    auto h2 = eng.submit({key, {pipeline::circuit_partition{k.circuit_ptr(5)}}, 0, "dup"});
    CHECK(h2.wait().status == job_status::completed);
    // Bad requests are refused without queueing anything.
    CHECK_THROWS_AS(eng.submit({key + 7, {pipeline::circuit_partition{k.circuit_ptr(5)}}, 0, ""}), error);
    CHECK_THROWS_AS(eng.submit({key, {}, 0, ""}), error);
    CHECK_THROWS_AS(eng.submit({key, {pipeline::circuit_partition{nullptr}}, 0, ""}), error);
    CHECK(eng.stats().jobs_submitted == 2);
}

TEST_CASE("engine: configuration and key checks", "[engine]")
{
    pipeline::engine_config bad;
    bad.synth_workers = 0;
    CHECK_THROWS_AS(pipeline::engine(bad), error);
    const test_key k(test::test_seed() + 8, 1, 5), other(test::test_seed() + 9, 2, 5);
    pipeline::engine_config cfg;
    cfg.device_threads = 1;
    pipeline::engine eng(cfg);
    CHECK_THROWS_AS(eng.add_key(k.pk, other.pce), error);                // variable counts differ
    CHECK_THROWS_AS(eng.add_key(k.pk, nullptr), error);                  // no PCE, no density
    CHECK_THROWS_AS(eng.add_key(nullptr, k.pce), error);
    // Without a PCE only abc partitions are accepted.
    const auto nopce = eng.add_key(k.pk, nullptr, k.density);
    CHECK_THROWS_AS(eng.submit({nopce, {pipeline::circuit_partition{k.circuit_ptr(1)}}, 0, ""}), error);
    // On the cpu backend a key's points stay on the host; no device bytes.
    CHECK(eng.placement(nopce) == pipeline::engine::key_placement::host);
    CHECK(eng.resident_bytes(nopce) == 0);
    std::string what;
    try {
        (void)eng.placement(nopce + 1);
    } catch (const error& e) {
        CHECK(e.code() == errc::invalid_argument);
        what = e.what();
    }
    CHECK(what.find("placement: no key") != std::string::npos);
    auto h = eng.submit({nopce, {make_partition(k, part_kind::abc, 11)}, 0, ""});
    REQUIRE(h.wait().status == job_status::completed);
    CHECK(verify_result(k, h.result(), {11}));
}

TEST_CASE("engine: destruction with pending jobs cancels them", "[engine]")
{
    const test_key k(test::test_seed() + 10, 1, 12);
    auto circ = k.circuit_ptr(3);
    std::vector<pipeline::job_handle> hs;
    std::vector<std::atomic<int>> calls(300);
    const auto t0 = std::chrono::steady_clock::now();
    {
        pipeline::engine_config cfg;
        cfg.synth_workers = 1;
        cfg.device_threads = 1;
        pipeline::engine eng(cfg);
        const auto key = eng.add_key(k.pk, k.pce);
        for (size_t j = 0; j < calls.size(); ++j) {
            pipeline::proof_request req{key, {pipeline::circuit_partition{circ}, pipeline::circuit_partition{circ}}, 0, ""};
            req.on_done = [&calls, j](const pipeline::job_result&) { calls[j].fetch_add(1); };
            hs.push_back(eng.submit(std::move(req)));
        }
        std::this_thread::sleep_for(20ms);
    }
    CHECK(std::chrono::steady_clock::now() - t0 < 30s);
    size_t cancelled = 0;
    for (size_t j = 0; j < hs.size(); ++j) {
        REQUIRE(hs[j].wait_for(0s));
        CHECK(calls[j].load() == 1);
        const auto& r = hs[j].result();
        CHECK((r.status == job_status::completed || r.status == job_status::cancelled));
        if (r.status == job_status::cancelled) {
            ++cancelled;
            CHECK(r.message.find("shut down") != std::string::npos);
        }
        CHECK_FALSE(hs[j].cancel());   // the engine is gone: nothing to cancel
    }
    CHECK(cancelled > 0);
    // The engine let go of every partition it was given.
    CHECK(circ.use_count() == 1);
}

TEST_CASE("engine: the timeline's verdict follows the bottleneck", "[engine]")
{
    // The synthesis delay is twenty whole proofs of the tiny key (device part
    // and CPU tail, the slowest of three runs), at least 40 ms, so the ratio
    // holds on a loaded machine or under a sanitizer too.
    auto device_part_time = [](const test_key& k) {
        const auto w = groth16::synthesize_witness(k.circuit(1));
        const size_t m = k.pce->num_constraints;
        std::vector<fr> a(m), b(m), c(m);
        r1cs::evaluate(*k.pce, w.inputs, w.aux, a, b, c, 1);
        auto worst = std::chrono::steady_clock::duration::zero();
        for (int i = 0; i < 3; ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            const auto sums = groth16::prove_start(*k.pk, k.density, a, b, c, w.inputs, w.aux, {1});
            (void)groth16::prove_finish(k.pk->vk, sums);
            worst = std::max(worst, std::chrono::steady_clock::now() - t0);
        }
        return std::chrono::duration_cast<std::chrono::milliseconds>(worst);
    };
    auto run = [](const test_key& k, std::chrono::milliseconds synth_delay, unsigned parts) {
        test_recorder rec;
        pipeline::engine_config cfg;
        cfg.synth_workers = 1;
        cfg.lookahead = 2;
        cfg.workers_per_device = 2;
        cfg.device_threads = 1;
        cfg.sink = &rec;
        {
            pipeline::engine eng(cfg);
            const auto key = eng.add_key(k.pk, k.pce);
            std::vector<pipeline::partition> v;
            for (unsigned p = 0; p < parts; ++p) {
                if (synth_delay.count() > 0)
                    v.push_back(pipeline::circuit_partition{std::make_shared<slow_circuit>(k.circuit(p), synth_delay)});
                else
                    v.push_back(pipeline::circuit_partition{k.circuit_ptr(p)});
            }
            REQUIRE(eng.submit({key, std::move(v), 0, "v"}).wait().status == job_status::completed);
        }
        const auto ev = rec.take();
        return timeline::analyse(ev);
    };
    SECTION("slow synthesis, tiny device part: synthesis-bound")
    {
        const test_key k(test::test_seed() + 11, 1, 4);
        const auto a = run(k, std::max<std::chrono::milliseconds>(40ms, 20 * device_part_time(k)), 6);
        INFO(a.verdict_text);
        CHECK(a.source == timeline::busy_source::device_spans);
        CHECK(a.verdict == timeline::verdict_kind::synthesis_bound);
        CHECK(a.utilisation < 0.5);
    }
    SECTION("fast synthesis, a device part of tens of ms: device-bound")
    {
        const auto a = run(test_key(test::test_seed() + 12, 2, 700), 0ms, 6);
        INFO(a.verdict_text);
        CHECK(a.verdict == timeline::verdict_kind::device_bound);
        CHECK(a.utilisation >= 0.85);
        CHECK(a.throughput.jobs_completed == 1);
    }
}

TEST_CASE("engine: SHA-256 partitions through the whole pipeline", "[engine][slow]")
{
    using r1cs::gadgets::sha256_preimage_circuit;
    auto pce = std::make_shared<r1cs::pce>(r1cs::record(sha256_preimage_circuit::blank(1)));
    groth16::query_density dens;
    auto pk = std::make_shared<groth16::proving_key>(groth16::setup_bellperson(groth16::describe(*pce), &dens));
    const auto pvk = groth16::prepare_verifying_key(pk->vk);
    pipeline::engine_config cfg;
    cfg.synth_workers = 2;
    cfg.workers_per_device = 2;
    pipeline::engine eng(cfg);
    const auto key = eng.add_key(pk, pce, dens);
    std::vector<pipeline::partition> parts;
    std::vector<std::vector<uint8_t>> msgs;
    for (int p = 0; p < 3; ++p) {
        std::vector<uint8_t> m(sha256_preimage_circuit::max_message_bytes(1));
        for (size_t i = 0; i < m.size(); ++i) m[i] = uint8_t(i * 7 + p);
        msgs.push_back(m);
        parts.push_back(pipeline::circuit_partition{std::make_shared<sha256_preimage_circuit>(m)});
    }
    auto h = eng.submit({key, std::move(parts), 0, "sha"});
    const auto& r = h.wait();
    REQUIRE(r.status == job_status::completed);
    for (int p = 0; p < 3; ++p) {
        const auto w = groth16::synthesize_witness(sha256_preimage_circuit(msgs[size_t(p)]));
        const std::vector<fr> pub(w.inputs.begin() + 1, w.inputs.end());
        CHECK(r.partitions[size_t(p)].public_inputs() == pub);
        CHECK(groth16::verify(pvk, r.partitions[size_t(p)].proof(), pub));
    }
}

// ---- snarkjs keys ---------------------------------------------------------------------------

namespace {

// A snarkjs-convention key for a tiny circuit shape (dev setup from its PCE);
// full witnesses come from a plain witness run (inputs ‖ aux is circom's
// signal order for such a key).
struct snarkjs_test_key {
    test_key shape;   // the circuit and its bellperson key (unused here)
    std::shared_ptr<const groth16::proving_key> pk;
    groth16::prepared_verifying_key pvk;
    snarkjs_test_key(uint64_t sh, size_t ni, size_t nc, const groth16::toxic_waste* tw = nullptr)
        : shape(sh, ni, nc)
    {
        groth16::setup_options opt;
        opt.waste = tw;
        pk = std::make_shared<groth16::proving_key>(groth16::setup_snarkjs(groth16::describe(*shape.pce), opt));
        pvk = groth16::prepare_verifying_key(pk->vk);
    }
    std::vector<fr> witness(uint64_t values) const
    {
        auto w = groth16::synthesize_witness(shape.circuit(values));
        std::vector<fr> full = std::move(w.inputs);
        full.insert(full.end(), w.aux.begin(), w.aux.end());
        return full;
    }
};

struct temp_dir {
    std::filesystem::path p;
    temp_dir()
    {
        p = std::filesystem::temp_directory_path() /
            ("cuzk-test-engine-" + std::to_string(::getpid()) + "-" + std::to_string(test::test_seed()));
        std::filesystem::create_directories(p);
    }
    ~temp_dir()
    {
        std::error_code ec;
        std::filesystem::remove_all(p, ec);
    }
    std::string file(const char* name) const { return (p / name).string(); }
};

} // namespace

TEST_CASE("split prover: snarkjs prove_finish(prove_start_snarkjs) equals the proof computed from the toxic waste",
          "[engine]")
{
    std::mt19937_64 rng(test::test_seed() + 20);
    for (size_t nc : {5u, 60u, 300u}) {
        const groth16::toxic_waste tw = groth16::toxic_waste::from_seed(rng());
        const snarkjs_test_key k(rng(), 2, nc, &tw);
        const std::vector<fr> w = k.witness(rng());
        const fr r = fr::random(rng), s = fr::random(rng);
        const reference_proof want =
            groth16_by_definition(groth16::describe(*k.shape.pce), root_convention::snarkjs, tw, w, r, s);
        const std::vector<fr> pub(w.begin() + 1, w.begin() + k.pk->num_inputs);

        // From the witness in one call, and from a, b evaluated first.
        const groth16::proof one = groth16::prove_finish(k.pk->vk, groth16::prove_start_snarkjs(*k.pk, w, {2}), r, s);
        std::vector<fr> a, b;
        groth16::snarkjs_evaluate_ab(*k.pk, w, a, b);
        CHECK(a.size() == k.pk->domain_size);
        CHECK(b.size() == k.pk->domain_size);
        struct obs_t final : groth16::prove_observer {
            std::vector<std::string> log;
            void step_begin(std::string_view st, std::string_view q) noexcept override
            {
                log.push_back("+" + std::string(st) + ":" + std::string(q));
            }
            void step_end(std::string_view st, std::string_view q) noexcept override
            {
                log.push_back("-" + std::string(st) + ":" + std::string(q));
            }
        } obs;
        groth16::prove_timings tm;
        const groth16::proof two = groth16::prove_finish(
            k.pk->vk, groth16::prove_start_snarkjs(*k.pk, std::move(a), std::move(b), w, {1}, &obs, &tm), r, s);
        for (const groth16::proof* p : {&one, &two}) {
            CHECK(p->a == want.a);
            CHECK(p->b == want.b);
            CHECK(p->c == want.c);
            CHECK(groth16::verify(k.pvk, *p, pub));
        }
        CHECK(obs.log.size() == 22);
        CHECK(obs.log.front() == "+NTT:");
        CHECK(obs.log.back() == "-MSM_B2:b2");
        CHECK(tm.total_ns >= tm.h_ns + tm.msm_h_ns);
        // Another witness of the same circuit proves under the same key.
        const std::vector<fr> w2 = k.witness(rng());
        const groth16::proof p2 = groth16::prove_finish(k.pk->vk, groth16::prove_start_snarkjs(*k.pk, w2));
        CHECK(groth16::verify(k.pvk, p2, std::vector<fr>(w2.begin() + 1, w2.begin() + k.pk->num_inputs)));
    }
    // Refusals: a bellperson key, a short witness, w[0] != 1, a, b of the wrong size.
    const snarkjs_test_key k(9, 1, 4);
    std::vector<fr> w = k.witness(1);
    CHECK_THROWS_AS(groth16::prove_start_snarkjs(*k.shape.pk, w), error);
    std::vector<fr> shortw(w.begin(), w.end() - 1);
    CHECK_THROWS_AS(groth16::prove_start_snarkjs(*k.pk, shortw), error);
    std::vector<fr> bad0 = w;
    bad0[0] = fr::from_u64(2);
    CHECK_THROWS_AS(groth16::prove_start_snarkjs(*k.pk, bad0), error);
    CHECK_THROWS_AS(groth16::prove_start_snarkjs(*k.pk, std::vector<fr>(3), std::vector<fr>(3), w), error);
}

TEST_CASE("engine: snarkjs keys from .zkey and .wtns files", "[engine]")
{
    const snarkjs_test_key k(test::test_seed() + 21, 2, 40);
    temp_dir td;
    io::write_zkey(td.file("t.zkey"), *k.pk);
    const io::zkey z = io::read_zkey(td.file("t.zkey"));
    auto zpk = std::make_shared<groth16::proving_key>(z.pk);
    REQUIRE(zpk->conv == groth16::convention::snarkjs);

    const size_t n_jobs = 12;
    std::vector<std::vector<fr>> wit;
    for (size_t j = 0; j < n_jobs; ++j) {
        io::write_wtns(td.file("w.wtns"), k.witness(100 + j));
        wit.push_back(io::read_wtns(td.file("w.wtns")));
    }
    for (const unsigned per_call : {1u, 3u}) {
        INFO("partitions_per_call " << per_call);
        pipeline::engine_config cfg;
        cfg.synth_workers = 2;
        cfg.lookahead = 4;
        cfg.workers_per_device = 2;
        cfg.device_threads = 1;
        cfg.partitions_per_call = per_call;
        test_recorder rec;
        cfg.sink = &rec;
        pipeline::engine eng(cfg);
        const auto key = eng.add_key(zpk, nullptr, {"zkey", 0});
        CHECK(eng.device_bytes(key) == pipeline::device_bytes_estimate(*zpk));
        // snarkjs keys take witnesses only, and no PCE.
        CHECK_THROWS_AS(eng.submit({key, {pipeline::circuit_partition{k.shape.circuit_ptr(1)}}, 0, ""}), error);
        CHECK_THROWS_AS(eng.add_key(zpk, k.shape.pce), error);

        std::vector<pipeline::job_handle> hs;
        for (size_t j = 0; j < n_jobs; ++j) {
            std::vector<pipeline::partition> parts;
            parts.push_back(pipeline::full_witness_partition{wit[j]});
            // The same witness split as inputs ‖ aux.
            parts.push_back(pipeline::witness_partition{
                std::vector<fr>(wit[j].begin(), wit[j].begin() + zpk->num_inputs),
                std::vector<fr>(wit[j].begin() + zpk->num_inputs, wit[j].end())});
            if (j == 3) {   // a wrong private value: only self-verify can tell
                std::vector<fr> bad = wit[j];
                bad.back() += fr::one();
                parts.push_back(pipeline::full_witness_partition{std::move(bad)});
            }
            if (j == 5) {   // the wrong size
                std::vector<fr> bad = wit[j];
                bad.pop_back();
                parts.push_back(pipeline::full_witness_partition{std::move(bad)});
            }
            hs.push_back(eng.submit({key, std::move(parts), 0, "s" + std::to_string(j)}));
        }
        for (size_t j = 0; j < n_jobs; ++j) {
            const auto& r = hs[j].wait();
            INFO("job " << j << ": " << r.message);
            if (j == 3 || j == 5) {
                REQUIRE(r.status == job_status::failed);
                CHECK(r.failed_partition == 2);
                CHECK(r.code == (j == 3 ? errc::internal : errc::invalid_argument));
                continue;
            }
            REQUIRE(r.status == job_status::completed);
            const std::vector<fr> pub(wit[j].begin() + 1, wit[j].begin() + zpk->num_inputs);
            for (const auto& pr : r.partitions) {
                CHECK(pr.public_inputs() == pub);
                CHECK(groth16::verify(k.pvk, pr.proof(), pub));   // the key written and read back is the same key
            }
        }
        check_timeline(rec.take());
    }
}

// ---- several partitions per prove call -------------------------------------------------------

TEST_CASE("engine: partitions per prove call keep the order, one key per call, failures per job", "[engine]")
{
    const uint64_t seed = test::test_seed() + 30;
    std::mt19937_64 rng(seed);
    // Device parts of tens of ms against a fast synthesis: the lookahead fills
    // while the device is busy, so calls take several partitions.
    const std::vector<test_key> keys{test_key(rng(), 1, 300), test_key(rng(), 2, 300)};
    const unsigned per_call = 3;
    test_recorder rec;
    pipeline::engine_config cfg;
    cfg.synth_workers = 2;
    cfg.lookahead = 6;
    cfg.workers_per_device = 2;
    cfg.device_threads = 1;
    cfg.tail_threads = 1;
    cfg.partitions_per_call = per_call;
    cfg.sink = &rec;

    struct planned {
        int key, priority;
        std::vector<part_kind> parts;
        std::vector<uint64_t> values;
        int bad = -1;
    };
    const size_t n_jobs = 16;
    std::vector<planned> plan(n_jobs);
    for (size_t j = 0; j < n_jobs; ++j) {
        auto& p = plan[j];
        p.key = int(j % 4 < 2 ? 0 : 1);   // runs of two jobs per key
        p.priority = int(rng() % 2);
        for (int q = 0; q < 3; ++q) {
            p.parts.push_back(q == 1 ? part_kind::witness : part_kind::circuit);
            p.values.push_back(rng());
        }
        if (j % 5 == 2) {   // a failure inside a call: found by the tail's self-verify
            p.bad = int(j % 3);
            p.parts[size_t(p.bad)] = part_kind::bad_abc;
        }
    }
    std::vector<pipeline::job_handle> hs;
    std::map<std::string, size_t> index;
    pipeline::engine_stats st;
    {
        pipeline::engine eng(cfg);
        const pipeline::key_id kid[2] = {eng.add_key(keys[0].pk, keys[0].pce), eng.add_key(keys[1].pk, keys[1].pce)};
        for (size_t j = 0; j < n_jobs; ++j) {
            const auto& p = plan[j];
            pipeline::proof_request req;
            req.key = kid[p.key];
            req.priority = p.priority;
            req.id = "c" + std::to_string(j);
            index[req.id] = j;
            for (size_t q = 0; q < p.parts.size(); ++q)
                req.partitions.push_back(make_partition(keys[size_t(p.key)], p.parts[q], p.values[q]));
            hs.push_back(eng.submit(std::move(req)));
        }
        for (auto& h : hs) REQUIRE(h.wait_for(120s));
        st = eng.stats();
    }
    INFO("seed " << seed);
    size_t parts_total = 0;
    for (size_t j = 0; j < n_jobs; ++j) {
        const auto& r = hs[j].result();
        INFO("job " << j << ": " << r.message);
        if (plan[j].bad >= 0) {
            REQUIRE(r.status == job_status::failed);
            CHECK(r.failed_partition == plan[j].bad);
            CHECK(r.code == errc::internal);
        } else {
            REQUIRE(r.status == job_status::completed);
            CHECK(verify_result(keys[size_t(plan[j].key)], r, plan[j].values, j % 4 == 0));
        }
        parts_total += plan[j].parts.size();
    }
    CHECK(st.partitions_proved <= parts_total);
    CHECK(st.device_calls < st.partitions_proved);   // some calls took several partitions

    // Calls from GPU_PICKUP's call number: at most per_call partitions, one
    // key, in the order (priority, submission, partition); every partition
    // keeps its GPU_START … GPU_END bracket.
    const auto ev = rec.take();
    check_timeline(ev);
    std::map<std::string, std::vector<const timeline::event*>> calls;
    std::map<std::pair<std::string, int>, std::vector<std::string>> stages;
    for (const auto& e : ev) {
        if (e.name == "GPU_PICKUP") {
            std::string call;
            for (const auto& [kk, v] : e.details)
                if (kk == "call") call = v;
            REQUIRE(!call.empty());
            calls[call].push_back(&e);
        }
        if (e.ph == timeline::phase::instant && e.partition >= 0 && e.name.rfind("GPU_", 0) == 0)
            stages[{e.job, e.partition}].push_back(e.name);
    }
    size_t multi = 0;
    for (const auto& [call, v] : calls) {
        INFO("call " << call);
        CHECK(v.size() <= per_call);
        if (v.size() > 1) ++multi;
        for (size_t i = 0; i < v.size(); ++i) {
            CHECK(v[i]->worker == v[0]->worker);
            const auto& pj = plan[index.at(v[i]->job)];
            CHECK(pj.key == plan[index.at(v[0]->job)].key);
            if (i == 0) continue;
            const auto& pp = plan[index.at(v[i - 1]->job)];
            const auto order = [&](const planned& p, const timeline::event* e) {
                return std::make_tuple(-p.priority, index.at(e->job), e->partition);
            };
            CHECK(order(pp, v[i - 1]) < order(pj, v[i]));
        }
    }
    CHECK(multi > 0);
    for (size_t j = 0; j < n_jobs; ++j) {
        const auto& r = hs[j].result();
        if (r.status != job_status::completed) continue;
        for (size_t p = 0; p < r.partitions.size(); ++p) {
            const std::vector<std::string> expect = {"GPU_PICKUP", "GPU_START", "GPU_END"};
            CHECK(stages[{r.id, int(p)}] == expect);
        }
    }
}

// ---- device memory budget ------------------------------------------------------------------

TEST_CASE("engine: device memory budget serialises device parts and refuses what can never fit", "[engine]")
{
    const test_key k(test::test_seed() + 40, 1, 200);
    // Per call: from the GPU_START of its first partition (taken before the
    // device budget) to the end of its last MSM_B2; calls of different
    // workers must not overlap when the budget fits one device part.
    auto run = [&](uint64_t budget, unsigned per_call, pipeline::engine_stats* st) {
        test_recorder rec;
        pipeline::engine_config cfg;
        cfg.synth_workers = 2;
        cfg.lookahead = 4;
        cfg.workers_per_device = 2;
        cfg.device_threads = 1;
        cfg.partitions_per_call = per_call;
        cfg.device_memory_budget = budget;
        cfg.sink = &rec;
        {
            pipeline::engine eng(cfg);
            const auto key = eng.add_key(k.pk, k.pce, {"k", 0, 100 << 10});
            CHECK(eng.device_bytes(key) == (100u << 10));
            std::vector<pipeline::job_handle> hs;
            for (int j = 0; j < 4; ++j) {
                std::vector<pipeline::partition> parts;
                for (int p = 0; p < 3; ++p) parts.push_back(pipeline::circuit_partition{k.circuit_ptr(uint64_t(j * 3 + p))});
                hs.push_back(eng.submit({key, std::move(parts), 0, ""}));
            }
            for (auto& h : hs) REQUIRE(h.wait().status == job_status::completed);
            *st = eng.stats();   // every call has released its device bytes before its last partition's tail
        }
        // Reservation windows per worker: [LOCK_WAIT begin, last MSM_B2 end before the worker's next LOCK_WAIT].
        std::map<int, std::vector<std::pair<uint64_t, uint64_t>>> win;
        auto ev = rec.take();
        std::stable_sort(ev.begin(), ev.end(), [](const auto& x, const auto& y) { return x.t_ns < y.t_ns; });
        for (const auto& e : ev) {
            if (e.name == "LOCK_WAIT" && e.ph == timeline::phase::begin) win[e.worker].push_back({e.t_ns, e.t_ns});
            if (e.name == "MSM_B2" && e.ph == timeline::phase::end) {
                REQUIRE(!win[e.worker].empty());
                win[e.worker].back().second = e.t_ns;
            }
        }
        std::vector<std::tuple<uint64_t, uint64_t, int>> iv;
        for (const auto& [w, v] : win)
            for (const auto& [b, e] : v) iv.emplace_back(b, e, w);
        std::sort(iv.begin(), iv.end());
        int overlaps = 0;
        for (size_t i = 1; i < iv.size(); ++i)
            if (std::get<0>(iv[i]) < std::get<1>(iv[i - 1]) && std::get<2>(iv[i]) != std::get<2>(iv[i - 1]))
                ++overlaps;
        return std::make_pair(overlaps, win.size());
    };
    SECTION("a budget for one device part: the two workers take turns")
    {
        for (const unsigned per_call : {1u, 2u}) {
            INFO("partitions_per_call " << per_call);
            pipeline::engine_stats st;
            const auto [overlaps, workers] = run(150 << 10, per_call, &st);
            CHECK(overlaps == 0);
            CHECK(workers == 2);   // both workers did run device parts
            CHECK(st.device_memory_peak.at(0) == (100u << 10));
            CHECK(st.device_memory_reserved.at(0) == 0);
        }
    }
    SECTION("without a budget the second worker waits at the lock instead (the check can see overlap)")
    {
        pipeline::engine_stats st;
        const auto [overlaps, workers] = run(0, 1, &st);
        CHECK(workers == 2);
        CHECK(overlaps > 0);
        CHECK(st.device_memory_peak.at(0) >= (200u << 10));
    }
    SECTION("refusal at submit names both sizes")
    {
        pipeline::engine_config cfg;
        cfg.device_threads = 1;
        cfg.device_memory_budget = 150 << 10;
        pipeline::engine eng(cfg);
        // The default estimate of this key is above 1 MiB: its jobs can never run.
        const uint64_t est = pipeline::device_bytes_estimate(*k.pk);
        REQUIRE(est > cfg.device_memory_budget);
        const auto big = eng.add_key(k.pk, k.pce);
        CHECK(eng.device_bytes(big) == est);
        try {
            eng.submit({big, {pipeline::circuit_partition{k.circuit_ptr(1)}}, 0, "too-big"});
            FAIL("submit accepted a job whose device part can never fit");
        } catch (const error& e) {
            const std::string m = e.what();
            CHECK(e.code() == errc::out_of_memory);
            CHECK(m.find(std::to_string(est)) != std::string::npos);
            CHECK(m.find(std::to_string(cfg.device_memory_budget)) != std::string::npos);
        }
        // Nothing was queued; a key that fits still runs, under the same id.
        const auto ok = eng.add_key(k.pk, k.pce, {"fits", 0, 100 << 10});
        auto h = eng.submit({ok, {pipeline::circuit_partition{k.circuit_ptr(1)}}, 0, "too-big"});
        CHECK(h.wait().status == job_status::completed);
        CHECK(verify_result(k, h.result(), {1}));
        const auto st = eng.stats();
        CHECK(st.jobs_submitted == 1);
        CHECK(st.device_memory_reserved.at(0) == 0);
        CHECK(st.device_memory_peak.at(0) == (100u << 10));
    }
}

namespace {
// A fresh engine (one device thread, the given workers and lookahead,
// events to rec) runs `jobs` jobs of `parts` partitions of key k, ids
// "j0", "j1", …; every job must complete.
void run_contended(const test_key& k, unsigned synth, unsigned lookahead, unsigned provers, test_recorder& rec,
                   int jobs, int parts, uint64_t device_budget = 0)
{
    pipeline::engine_config cfg;
    cfg.device_memory_budget = device_budget;
    cfg.synth_workers = synth;
    cfg.lookahead = lookahead;
    cfg.workers_per_device = provers;
    cfg.device_threads = 1;
    cfg.sink = &rec;
    pipeline::engine eng(cfg);
    const auto key = eng.add_key(k.pk, k.pce, {"k", 0, 100 << 10});
    std::vector<pipeline::job_handle> hs;
    for (int j = 0; j < jobs; ++j) {
        std::vector<pipeline::partition> ps;
        for (int p = 0; p < parts; ++p) ps.push_back(pipeline::circuit_partition{k.circuit_ptr(uint64_t(j * parts + p))});
        hs.push_back(eng.submit({key, std::move(ps), 0, "j" + std::to_string(j)}));
    }
    for (auto& h : hs) REQUIRE(h.wait().status == job_status::completed);
}

// Over the spans named `wait` (per worker): how many waits there were, and
// the most device calls (LOCK_WAIT ends) other workers started during one.
std::pair<uint64_t, uint64_t> most_calls_during(std::vector<timeline::event> ev, const std::string& wait)
{
    std::stable_sort(ev.begin(), ev.end(), [](const auto& x, const auto& y) { return x.t_ns < y.t_ns; });
    std::map<int, uint64_t> since;   // worker -> calls started by others since its wait began
    std::map<int, bool> waiting;
    uint64_t worst = 0, waits = 0;
    for (const auto& e : ev) {
        if (e.name == wait && e.ph == timeline::phase::begin) {
            waiting[e.worker] = true;
            since[e.worker] = 0;
            ++waits;
        } else if (e.name == wait && e.ph == timeline::phase::end) {
            waiting[e.worker] = false;
            worst = std::max(worst, since[e.worker]);
        }
        if (e.name == "LOCK_WAIT" && e.ph == timeline::phase::end)
            for (auto& [w, on] : waiting)
                if (on && w != e.worker) ++since[w];
    }
    return {waits, worst};
}

// Three prove workers on one device, partitions always ready (with
// `budget`, room for one call): during any one `wait` span, from the
// worker's place in line, each other worker starts at most one call.
void check_calls_during(uint64_t seed, uint64_t budget, const std::string& wait)
{
    const test_key k(seed, 1, 200);
    test_recorder rec;
    run_contended(k, 3, 6, 3, rec, 6, 4, budget);
    const auto [waits, worst] = most_calls_during(rec.take(), wait);
    INFO(wait << ": " << waits << " waits, most calls started by others during one " << worst);
    CHECK(waits >= 6);
    CHECK(worst <= 2);
}
} // namespace

TEST_CASE("engine: the device lock is granted in arrival order", "[engine]")
{
    SECTION("fifo_mutex: waiters acquire in the order they called lock()")
    {
        pipeline::detail::fifo_mutex m;
        std::vector<int> order;   // written under m
        m.lock();
        std::vector<std::thread> ts;
        for (int i = 0; i < 6; ++i) {
            ts.emplace_back([&, i] {
                m.lock();
                order.push_back(i);
                m.unlock();
            });
            // Thread i is queued (holder + i + 1 tickets) before thread i + 1 starts.
            while (m.queued() != uint64_t(i) + 2) std::this_thread::yield();
        }
        m.unlock();
        for (auto& t : ts) t.join();
        CHECK(order == std::vector<int>{0, 1, 2, 3, 4, 5});
        CHECK(m.queued() == 0);
    }
    SECTION("fifo_mutex: mutual exclusion under contention")
    {
        pipeline::detail::fifo_mutex m;
        int inside = 0, worst = 0;
        long count = 0;
        std::vector<std::thread> ts;
        for (int i = 0; i < 8; ++i)
            ts.emplace_back([&] {
                for (int k = 0; k < 2000; ++k) {
                    std::lock_guard lk(m);
                    worst = std::max(worst, ++inside);
                    ++count;
                    --inside;
                }
            });
        for (auto& t : ts) t.join();
        CHECK(worst == 1);
        CHECK(count == 8 * 2000);
    }
    SECTION("engine: while a worker waits for the device, each other worker takes it at most once")
    {
        check_calls_during(test::test_seed() + 44, 0, "LOCK_WAIT");
    }
}

TEST_CASE("engine: device memory is reserved in arrival order", "[engine]")
{
    // A device budget for one call: the waits for it (DEV_MEM_WAIT).
    check_calls_during(test::test_seed() + 46, 150 << 10, "DEV_MEM_WAIT");
}

TEST_CASE("engine: a free lookahead slot goes to the waiting partition first in the queue's order", "[engine]")
{
    // Three synthesis workers, one lookahead slot, one prove worker: the
    // synthesised partitions wait for the slot. While one waits (SYNTH_END
    // is emitted once it is in line), no partition later in the order (a
    // later job, or a later partition of its job) may take the slot.
    const test_key k(test::test_seed() + 45, 1, 200);
    test_recorder rec;
    const int jobs = 5, parts = 4;
    run_contended(k, 3, 1, 1, rec, jobs, parts);
    // Per partition (order = job · parts + partition): its SYNTH_END and CHAN_SEND times.
    std::map<int, std::pair<uint64_t, uint64_t>> t;
    for (const auto& e : rec.take()) {
        if (e.partition < 0 || e.job.size() < 2 || e.job[0] != 'j') continue;
        const int o = std::stoi(e.job.substr(1)) * parts + e.partition;
        if (e.name == "SYNTH_END") t[o].first = e.t_ns;
        if (e.name == "CHAN_SEND") t[o].second = e.t_ns;
    }
    REQUIRE(t.size() == size_t(jobs * parts));
    int worst = 0;
    for (const auto& [o, x] : t) {
        int passed = 0;
        for (const auto& [o2, y] : t)
            if (o2 > o && y.second > x.first && y.second < x.second) ++passed;
        worst = std::max(worst, passed);
    }
    INFO("most later partitions queued while one waited: " << worst);
    CHECK(worst == 0);
}

// ---- backends ---------------------------------------------------------------------------------

TEST_CASE("engine: backend cuda fails cleanly where CUDA is not available", "[engine]")
{
    std::string why;
    if (cuda_available(&why)) {
        WARN("SKIPPED: CUDA is available here; this test covers machines without it");
        return;
    }
    pipeline::engine_config cfg;
    cfg.backend = pipeline::engine_backend::cuda;
    try {
        pipeline::engine eng(cfg);
        FAIL("an engine with backend cuda was created without CUDA");
    } catch (const error& e) {
        CHECK(e.code() == errc::unsupported);
        CHECK(std::string(e.what()).find(why) != std::string::npos);
    }
    CHECK(std::string(pipeline::backend_name(pipeline::engine_backend::cuda)) == "cuda");
    CHECK(std::string(pipeline::backend_name(pipeline::engine_backend::cpu)) == "cpu");
    pipeline::engine_config bad;
    bad.partitions_per_call = 0;
    CHECK_THROWS_AS(pipeline::engine(bad), error);
}

TEST_CASE("engine: backend cuda proves every partition form, device spans on the timeline", "[engine][gpu]")
{
    CUDA_OR_SKIP();
    const test_key k(test::test_seed() + 50, 2, 300);
    test_recorder rec;
    pipeline::engine_config cfg;
    cfg.backend = pipeline::engine_backend::cuda;
    cfg.synth_workers = 2;
    cfg.lookahead = 4;
    cfg.workers_per_device = 2;
    cfg.partitions_per_call = 2;
    cfg.sink = &rec;
    std::vector<pipeline::job_handle> hs;
    std::vector<std::vector<uint64_t>> values;
    {
        pipeline::engine eng(cfg);
        const auto key = eng.add_key(k.pk, k.pce, {"gpu", 0});
        CHECK(eng.device_bytes(key) > 0);
        CHECK(eng.stats().device_memory_reserved.at(0) > 0);   // the resident key
        CHECK(eng.placement(key) == pipeline::engine::key_placement::resident);
        CHECK(eng.resident_bytes(key) > 0);
        // A snarkjs key on the same engine: A·w and B·w on the device too.
        const snarkjs_test_key sk(test::test_seed() + 51, 2, 40);
        const auto skey = eng.add_key(sk.pk, nullptr, {"gpu-snarkjs", 0});
        std::vector<pipeline::job_handle> shs;
        std::vector<std::vector<fr>> swit;
        for (int j = 0; j < 3; ++j) {
            swit.push_back(sk.witness(300 + uint64_t(j)));
            std::vector<pipeline::partition> parts;
            parts.push_back(pipeline::full_witness_partition{swit.back()});
            parts.push_back(pipeline::full_witness_partition{swit.back()});
            shs.push_back(eng.submit({skey, std::move(parts), 0, "gs" + std::to_string(j)}));
        }
        const part_kind kinds[] = {part_kind::circuit, part_kind::witness, part_kind::abc, part_kind::witness};
        for (int j = 0; j < 8; ++j) {
            std::vector<pipeline::partition> parts;
            std::vector<uint64_t> v;
            for (int p = 0; p < 3; ++p) {
                v.push_back(uint64_t(j * 10 + p));
                parts.push_back(make_partition(k, kinds[(j + p) % 4], v.back()));
            }
            if (j == 5) {   // an unsatisfied witness: the device's check finds it (or self-verify)
                auto w = groth16::synthesize_witness(k.circuit(99, 7));
                parts.push_back(pipeline::witness_partition{std::move(w.inputs), std::move(w.aux)});
            }
            values.push_back(v);
            hs.push_back(eng.submit({key, std::move(parts), 0, "g" + std::to_string(j)}));
        }
        for (auto& h : hs) REQUIRE(h.wait_for(300s));
        for (size_t j = 0; j < shs.size(); ++j) {
            const auto& r = shs[j].wait();
            INFO("snarkjs job " << j << ": " << r.message);
            REQUIRE(r.status == job_status::completed);
            const std::vector<fr> pub(swit[j].begin() + 1, swit[j].begin() + sk.pk->num_inputs);
            for (const auto& pr : r.partitions) {
                CHECK(pr.public_inputs() == pub);
                CHECK(groth16::verify(sk.pvk, pr.proof(), pub));
            }
        }
    }
    for (size_t j = 0; j < hs.size(); ++j) {
        const auto& r = hs[j].result();
        INFO("job " << j << ": " << r.message);
        if (j == 5) {
            REQUIRE(r.status == job_status::failed);
            CHECK(r.failed_partition == 3);
            CHECK((r.code == errc::unsatisfied || r.code == errc::internal));
            continue;
        }
        REQUIRE(r.status == job_status::completed);
        CHECK(verify_result(k, r, values[j]));
    }
    const auto ev = rec.take();
    check_timeline(ev);
    size_t ntt = 0, pce_dev = 0;
    for (const auto& e : ev) {
        if (e.name == "NTT" && e.ph == timeline::phase::begin && e.device == 0) ++ntt;
        if (e.name == "PCE_EVAL" && e.ph == timeline::phase::begin && e.device == 0) ++pce_dev;
    }
    CHECK(ntt >= 24);
    CHECK(pce_dev > 0);   // witness partitions were evaluated on the device
    const auto an = timeline::analyse(ev);
    CHECK(an.source == timeline::busy_source::device_spans);
}

#include "backend/fault.hpp"

namespace {
// The most partitions one device call took (GPU_PICKUP events share the call's number).
int largest_call(const std::vector<timeline::event>& ev)
{
    std::map<std::string, int> per_call;
    for (const auto& e : ev)
        if (e.name == "GPU_PICKUP")
            for (const auto& [name, value] : e.details)
                if (name == "call") ++per_call[value];
    int largest = 0;
    for (const auto& [c, n] : per_call) largest = std::max(largest, n);
    return largest;
}
} // namespace

TEST_CASE("engine: batches on the cpu backend: formed per call, failures stay with their partition", "[engine]")
{
    // The 6th device part fails (an injected device error): its job alone fails.
    struct disarm_at_end {
        disarm_at_end() { fault::arm(fault::point::kernel, 5, 1); }
        ~disarm_at_end() { fault::disarm(); }
    } faults;
    const test_key k(test::test_seed() + 57, 2, 40);
    test_recorder rec;
    pipeline::engine_config cfg;
    cfg.synth_workers = 2;
    cfg.workers_per_device = 2;
    cfg.max_batch = 3;
    cfg.device_threads = 1;
    cfg.sink = &rec;
    std::vector<pipeline::job_handle> hs;
    std::vector<std::vector<uint64_t>> values;
    {
        pipeline::engine eng(cfg);
        const auto key = eng.add_key(k.pk, k.pce, {"cpu-batches", 0});
        CHECK(eng.batch(key) == 3);
        CHECK(eng.plans(key).empty());
        for (int j = 0; j < 5; ++j) {
            std::vector<pipeline::partition> parts;
            std::vector<uint64_t> v;
            for (int p = 0; p < 4; ++p) {
                v.push_back(uint64_t(j * 10 + p));
                const part_kind kind = p % 3 == 0 ? part_kind::abc : p % 3 == 1 ? part_kind::witness : part_kind::circuit;
                parts.push_back(make_partition(k, kind, v.back()));
            }
            values.push_back(v);
            hs.push_back(eng.submit({key, std::move(parts), 0, "c" + std::to_string(j)}));
        }
        for (auto& h : hs) REQUIRE(h.wait_for(120s));
    }
    CHECK(fault::fired(fault::point::kernel) == 1);
    size_t failed = 0;
    for (size_t j = 0; j < hs.size(); ++j) {
        const auto& r = hs[j].result();
        INFO("job " << j << ": " << r.message);
        if (r.status == job_status::failed) {
            ++failed;
            CHECK(r.code == errc::device);
            CHECK(r.message.find("injected") != std::string::npos);
            continue;
        }
        REQUIRE(r.status == job_status::completed);
        CHECK(verify_result(k, r, values[j]));
    }
    CHECK(failed == 1);
    const auto ev = rec.take();
    check_timeline(ev);
    const int largest = largest_call(ev);
    CHECK(largest >= 2);
    CHECK(largest <= 3);
}

TEST_CASE("engine: a streamed key's partitions proved in batches on the cuda backend", "[engine][gpu]")
{
    CUDA_OR_SKIP();
    const test_key k(test::test_seed() + 56, 2, 300);
    test_recorder rec;
    pipeline::engine_config cfg;
    cfg.backend = pipeline::engine_backend::cuda;
    cfg.synth_workers = 2;
    cfg.workers_per_device = 2;
    cfg.max_batch = 3;
    cfg.device_memory_budget = uint64_t{4} << 30;   // every allocation counted against it
    cfg.sink = &rec;
    std::vector<pipeline::job_handle> hs;
    std::vector<std::vector<uint64_t>> values;
    {
        pipeline::engine eng(cfg);
        pipeline::key_options ko{"streamed", 0};
        ko.force_streaming = true;
        const auto key = eng.add_key(k.pk, k.pce, ko);
        REQUIRE(eng.placement(key) == pipeline::engine::key_placement::streamed);
        CHECK(eng.batch(key) == 3);
        REQUIRE(eng.plans(key).size() == 1);
        CHECK(eng.plans(key)[0].batch == 3);
        CHECK(eng.plans(key)[0].total() <= cfg.device_memory_budget);
        for (int j = 0; j < 6; ++j) {
            std::vector<pipeline::partition> parts;
            std::vector<uint64_t> v;
            for (int p = 0; p < 4; ++p) {
                v.push_back(uint64_t(j * 10 + p));
                const part_kind kind = j == 4 && p == 2 ? part_kind::unsatisfied
                                                        : (p % 2 ? part_kind::witness : part_kind::circuit);
                parts.push_back(make_partition(k, kind, v.back()));
            }
            values.push_back(v);
            hs.push_back(eng.submit({key, std::move(parts), 0, "b" + std::to_string(j)}));
        }
        for (auto& h : hs) REQUIRE(h.wait_for(300s));
        const auto st = eng.stats();
        CHECK(st.device_memory_high_water.at(0) > 0);
        CHECK(st.device_memory_high_water.at(0) <= cfg.device_memory_budget);
    }
    for (size_t j = 0; j < hs.size(); ++j) {
        const auto& r = hs[j].result();
        INFO("job " << j << ": " << r.message);
        if (j == 4) {   // its bad partition fails it alone (the batch is proved again one by one)
            REQUIRE(r.status == job_status::failed);
            CHECK(r.failed_partition == 2);
            continue;
        }
        REQUIRE(r.status == job_status::completed);
        CHECK(verify_result(k, r, values[j]));
    }
    const auto ev = rec.take();
    check_timeline(ev);
    const int largest = largest_call(ev);
    CHECK(largest >= 2);
    CHECK(largest <= 3);
}

// ---- injected faults ------------------------------------------------------------------------

#include "backend/fault.hpp"

namespace {

// Disarms every fault point when a test section ends, however it ends.
struct fault_guard {
    fault_guard() { fault::disarm(); }
    ~fault_guard() { fault::disarm(); }
};

errc fault_code(fault::point p) { return p == fault::point::alloc ? errc::out_of_memory : errc::device; }

// One worker of each stage, so that device parts run in submission order:
// the second device part fails at `p`; the jobs before and after it prove.
void fault_drill(pipeline::engine_backend backend, fault::point p)
{
    INFO("point " << fault::point_name(p) << ", backend " << pipeline::backend_name(backend));
    const fault_guard guard;
    const test_key k(test::test_seed() + 60, 2, 12);
    pipeline::engine_config cfg;
    cfg.backend = backend;
    cfg.synth_workers = 1;
    cfg.workers_per_device = 1;
    cfg.lookahead = 1;
    cfg.device_threads = 1;
    pipeline::engine eng(cfg);
    const auto key = eng.add_key(k.pk, k.pce);
    fault::arm(p, 1, 1);   // after add_key: the key's own upload is not the target
    std::vector<pipeline::job_result> res;
    for (uint64_t j = 0; j < 3; ++j)
        res.push_back(eng.submit({key, {pipeline::circuit_partition{k.circuit_ptr(j)}}, 0, "", {}}).wait());
    CHECK(res[0].status == job_status::completed);
    CHECK(verify_result(k, res[0], {0}));
    REQUIRE(res[1].status == job_status::failed);
    CHECK(res[1].code == fault_code(p));
    CHECK(res[1].failed_partition == 0);
    CHECK(res[1].message.find("injected fault") != std::string::npos);
    CHECK(res[1].message.find(res[1].id) != std::string::npos);
    CHECK(res[2].status == job_status::completed);
    CHECK(verify_result(k, res[2], {2}));
    CHECK(fault::fired(p) == 1);
    const auto st = eng.stats();
    CHECK(st.jobs_failed == 1);
    CHECK(st.jobs_completed == 2);
    CHECK(st.memory_reserved == 0);
    if (backend == pipeline::engine_backend::cpu) CHECK(st.device_memory_reserved.at(0) == 0);
}

} // namespace

TEST_CASE("engine: an injected device fault ends only its job, and the engine keeps proving", "[engine]")
{
    for (fault::point p : {fault::point::alloc, fault::point::kernel, fault::point::copy})
        fault_drill(pipeline::engine_backend::cpu, p);
}

TEST_CASE("engine: injected faults among concurrent jobs fail exactly those jobs", "[engine]")
{
    const fault_guard guard;
    const test_key k(test::test_seed() + 61, 1, 8);
    pipeline::engine_config cfg;
    cfg.synth_workers = 2;
    cfg.workers_per_device = 2;
    cfg.devices = 2;
    cfg.device_threads = 1;
    pipeline::engine eng(cfg);
    const auto key = eng.add_key(k.pk, k.pce);
    fault::arm(fault::point::kernel, 4, 3);   // device parts 5, 6 and 7 fail
    std::vector<pipeline::job_handle> hs;
    for (uint64_t j = 0; j < 24; ++j) hs.push_back(eng.submit({key, {pipeline::circuit_partition{k.circuit_ptr(j)}}, 0, "", {}}));
    size_t failed = 0;
    for (uint64_t j = 0; j < hs.size(); ++j) {
        const auto& r = hs[j].wait();
        if (r.status == job_status::failed) {
            ++failed;
            CHECK(r.code == errc::device);
            CHECK(r.message.find("kernel launch failed (injected fault") != std::string::npos);
        } else {
            REQUIRE(r.status == job_status::completed);
            CHECK(verify_result(k, r, {j}, false));
        }
    }
    CHECK(failed == 3);
    CHECK(fault::fired(fault::point::kernel) == 3);
    // Disarmed after its count: the engine proves as before.
    CHECK(eng.submit({key, {pipeline::circuit_partition{k.circuit_ptr(99)}}, 0, "", {}}).wait().status ==
          job_status::completed);
}

TEST_CASE("fault: CUZK_FAULT specifications", "[engine]")
{
    const fault_guard guard;
    fault::arm_from_spec("copy:1:2,alloc");
    CHECK_NOTHROW(fault::check(fault::point::copy, "t"));   // skipped
    CHECK_THROWS_AS(fault::check(fault::point::copy, "t"), error);
    CHECK_THROWS_AS(fault::check(fault::point::copy, "t"), error);
    CHECK_NOTHROW(fault::check(fault::point::copy, "t"));   // count spent
    CHECK_NOTHROW(fault::check(fault::point::kernel, "t"));
    try {
        fault::check(fault::point::alloc, "the test");
        FAIL("alloc was armed");
    } catch (const error& e) {
        CHECK(e.code() == errc::out_of_memory);
        CHECK(std::string(e.what()).find("the test: device allocation failed") == 0);
    }
    CHECK(fault::fired(fault::point::copy) == 2);
    fault::arm(fault::point::kernel, 0, 0);   // every check
    for (int i = 0; i < 3; ++i) CHECK_THROWS_AS(fault::check(fault::point::kernel, "t"), error);
    fault::disarm();
    CHECK_NOTHROW(fault::check(fault::point::kernel, "t"));
    CHECK(fault::fired(fault::point::kernel) == 0);
    // A device filter: only checks on that device count.
    fault::arm_from_spec("kernel@1:1");
    CHECK_NOTHROW(fault::check(fault::point::kernel, "t", 0));
    CHECK_NOTHROW(fault::check(fault::point::kernel, "t"));
    CHECK_NOTHROW(fault::check(fault::point::kernel, "t", 1));   // skipped
    CHECK_THROWS_AS(fault::check(fault::point::kernel, "t", 1), error);
    CHECK_NOTHROW(fault::check(fault::point::kernel, "t", 1));   // count spent
    fault::disarm();
    for (const char* bad : {"gpu", "kernel:x", "copy:1:2:3", "alloc:", ",", "kernel:-1", "kernel@", "kernel@x",
                            "kernel@-1", "kernel@99999"}) {
        INFO(bad);
        CHECK_THROWS_AS(fault::arm_from_spec(bad), error);
    }
    CHECK_NOTHROW(fault::check(fault::point::alloc, "t"));   // a bad spec arms nothing
}

TEST_CASE("engine: injected device faults on the cuda backend", "[engine][gpu]")
{
    CUDA_OR_SKIP();
    for (fault::point p : {fault::point::alloc, fault::point::kernel, fault::point::copy})
        fault_drill(pipeline::engine_backend::cuda, p);
}

// ---- host memory budget: keys, pools, partitions ---------------------------------------------

namespace {

uint64_t expected_key_bytes(const test_key& k)
{
    const groth16::proving_key& pk = *k.pk;
    const uint64_t g1 = pk.h.size() + pk.l.size() + pk.a.size() + pk.b_g1.size() + pk.vk.ic.size();
    return g1 * sizeof(g1_affine) + pk.b_g2.size() * sizeof(g2_affine) +
           pk.coefs.size() * sizeof(groth16::sparse_coef) + k.pce->memory_bytes();
}

} // namespace

TEST_CASE("engine: the host budget counts the resident keys and the pools, and is never exceeded", "[engine]")
{
    const test_key k(test::test_seed() + 62, 1, 10);
    const uint64_t key_bytes = expected_key_bytes(k);
    const uint64_t part = 100 << 10;
    SECTION("keys are counted once")
    {
        pipeline::engine eng(pipeline::engine_config{});
        eng.add_key(k.pk, k.pce);
        CHECK(eng.stats().memory_resident == key_bytes);
        eng.add_key(k.pk, k.pce, {"same key again", part});   // shares the key and the PCE
        CHECK(eng.stats().memory_resident == key_bytes);
        CHECK(eng.stats().memory_peak == key_bytes);
    }
    SECTION("a key that does not fit is refused; a partition must fit beside the keys")
    {
        pipeline::engine_config cfg;
        cfg.device_threads = 1;
        cfg.host_memory_budget = key_bytes - 1;
        {
            pipeline::engine eng(cfg);
            try {
                eng.add_key(k.pk, k.pce);
                FAIL("add_key accepted a key larger than the host budget");
            } catch (const error& e) {
                CHECK(e.code() == errc::out_of_memory);
                CHECK(std::string(e.what()).find("registered keys") != std::string::npos);
            }
            CHECK(eng.stats().memory_resident == 0);
        }
        cfg.host_memory_budget = key_bytes + part - 1;   // the partition alone fits, not beside the key
        pipeline::engine eng(cfg);
        const auto key = eng.add_key(k.pk, k.pce, {"k", part});
        try {
            eng.submit({key, {pipeline::circuit_partition{k.circuit_ptr(1)}}, 0, "", {}});
            FAIL("submit accepted a partition that cannot fit beside the keys");
        } catch (const error& e) {
            CHECK(e.code() == errc::out_of_memory);
            CHECK(std::string(e.what()).find("registered keys") != std::string::npos);
        }
        // A second key whose partition just fits is registered, and runs.
        const auto small = eng.add_key(k.pk, k.pce, {"small", part - 1});
        CHECK(eng.submit({small, {pipeline::circuit_partition{k.circuit_ptr(1)}}, 0, "", {}}).wait().status ==
              job_status::completed);
        // A key whose bytes would leave no room for that partition is refused.
        const test_key other(test::test_seed() + 63, 1, 10);
        try {
            eng.add_key(other.pk, other.pce, {"other", part / 2});
            FAIL("add_key took the room an admitted key's partitions need");
        } catch (const error& e) {
            CHECK(e.code() == errc::out_of_memory);
            CHECK(std::string(e.what()).find("no longer has room") != std::string::npos);
        }
    }
    SECTION("within a budget for one partition beside the key, pooled buffers give way")
    {
        pipeline::engine_config cfg;
        cfg.device_threads = 1;
        cfg.synth_workers = 2;
        cfg.workers_per_device = 2;
        cfg.host_memory_budget = key_bytes + part;
        pipeline::engine eng(cfg);
        const auto key = eng.add_key(k.pk, k.pce, {"k", part});
        std::atomic<bool> done{false};
        std::atomic<uint64_t> worst{0};
        std::thread sampler([&] {
            while (!done.load()) {
                const auto st = eng.stats();
                const uint64_t used = st.memory_reserved + st.memory_resident + st.memory_pooled;
                uint64_t w = worst.load();
                while (used > w && !worst.compare_exchange_weak(w, used)) {
                }
                std::this_thread::sleep_for(200us);
            }
        });
        std::vector<pipeline::job_handle> hs;
        for (uint64_t j = 0; j < 12; ++j) hs.push_back(eng.submit({key, {pipeline::circuit_partition{k.circuit_ptr(j)}}, 0, "", {}}));
        for (auto& h : hs) CHECK(h.wait().status == job_status::completed);
        done = true;
        sampler.join();
        const auto st = eng.stats();
        CHECK(worst.load() <= cfg.host_memory_budget);
        CHECK(st.memory_peak <= cfg.host_memory_budget);
        CHECK(st.memory_peak >= key_bytes + part);
        CHECK(st.memory_reserved == 0);
        CHECK(st.memory_resident == key_bytes);
        CHECK(st.memory_pooled <= part);
    }
    SECTION("without a budget, freed aux vectors are pooled and counted")
    {
        pipeline::engine_config cfg;
        cfg.device_threads = 1;
        cfg.synth_workers = 2;
        pipeline::engine eng(cfg);
        const auto key = eng.add_key(k.pk, k.pce);
        for (uint64_t j = 0; j < 4; ++j)
            CHECK(eng.submit({key, {pipeline::circuit_partition{k.circuit_ptr(j)}}, 0, "", {}}).wait().status ==
                  job_status::completed);
        const auto st = eng.stats();
        const uint64_t aux_bytes = uint64_t(k.pk->num_aux) * sizeof(fr);
        CHECK(st.memory_pooled >= aux_bytes);
        CHECK(st.memory_pooled <= cfg.synth_workers * aux_bytes);
        CHECK(st.memory_pooled % aux_bytes == 0);
    }
}

// ---- removing keys -------------------------------------------------------------------------

namespace {

// Waits (5 s at most) until no removed key is left to give back.
bool keys_given_back(const pipeline::engine& eng)
{
    for (int i = 0; i < 500; ++i) {
        if (eng.stats().keys_retiring == 0) return true;
        std::this_thread::sleep_for(10ms);
    }
    return false;
}

// The message of what f throws, with its code; FAIL when it throws nothing.
template <class F>
std::pair<errc, std::string> refusal(F&& f)
{
    try {
        f();
    } catch (const error& e) {
        return {e.code(), e.what()};
    }
    FAIL("nothing was refused");
    return {};
}

} // namespace

TEST_CASE("engine: remove_key gives the key's memory back, refuses the id, leaves other keys alone", "[engine]")
{
    const test_key k(test::test_seed() + 70, 1, 10), other(test::test_seed() + 71, 1, 10);
    const uint64_t key_bytes = expected_key_bytes(k), other_bytes = expected_key_bytes(other);
    const uint64_t part = 100 << 10;
    auto prove = [](pipeline::engine& eng, pipeline::key_id key, const test_key& tk, uint64_t v) {
        auto h = eng.submit({key, {pipeline::circuit_partition{tk.circuit_ptr(v)}}, 0, "", {}});
        REQUIRE(h.wait().status == job_status::completed);
        CHECK(verify_result(tk, h.result(), {v}));
    };
    SECTION("a key that did not fit the host budget fits once another is removed")
    {
        pipeline::engine_config cfg;
        cfg.device_threads = 1;
        cfg.host_memory_budget = std::max(key_bytes, other_bytes) + part;   // one key and its partition
        pipeline::engine eng(cfg);
        const auto a = eng.add_key(k.pk, k.pce, {"a", part});
        CHECK(eng.host_bytes(a) == key_bytes);
        const auto [code, what] = refusal([&] { eng.add_key(other.pk, other.pce, {"b", part}); });
        CHECK(code == errc::out_of_memory);
        prove(eng, a, k, 1);
        const pipeline::key_removal r = eng.remove_key(a);
        CHECK(r.freed);
        CHECK(r.jobs == 0);
        CHECK(r.host_bytes == key_bytes);
        CHECK(r.device_bytes == 0);   // the cpu backend keeps no device copy
        const auto st = eng.stats();
        CHECK(st.memory_resident == 0);
        CHECK(st.keys_registered == 0);
        CHECK(st.keys_retiring == 0);
        const auto b = eng.add_key(other.pk, other.pce, {"b", part});
        CHECK(b == a + 1);   // ids are never reused
        CHECK(eng.stats().memory_resident == other_bytes);
        prove(eng, b, other, 2);
    }
    SECTION("a removed or unknown id is refused everywhere")
    {
        pipeline::engine_config cfg;
        cfg.device_threads = 1;
        pipeline::engine eng(cfg);
        const auto a = eng.add_key(k.pk, k.pce, {"a"});
        const auto b = eng.add_key(other.pk, other.pce, {"b"});
        eng.remove_key(a);
        auto [code, what] = refusal([&] { eng.submit({a, {pipeline::circuit_partition{k.circuit_ptr(1)}}, 0, "late", {}}); });
        CHECK(code == errc::invalid_argument);
        CHECK(what == "submit late: key 0 (a) was removed");
        std::tie(code, what) = refusal([&] { eng.remove_key(a); });
        CHECK(code == errc::invalid_argument);
        CHECK(what == "remove_key: key 0 (a) was removed");
        std::tie(code, what) = refusal([&] { eng.remove_key(7); });
        CHECK(code == errc::invalid_argument);
        CHECK(what == "remove_key: no key 7");
        std::tie(code, what) = refusal([&] { (void)eng.placement(a); });
        CHECK(what == "placement: key 0 (a) was removed");
        CHECK_THROWS_AS(eng.partition_bytes(a), error);
        CHECK_THROWS_AS(eng.host_bytes(a), error);
        CHECK(eng.stats().jobs_submitted == 0);
        prove(eng, b, other, 3);   // the other key is untouched
        CHECK(eng.stats().keys_registered == 1);
    }
    SECTION("keys sharing a proving key and PCE: the bytes go with the last of them")
    {
        pipeline::engine eng(pipeline::engine_config{});
        const auto a = eng.add_key(k.pk, k.pce, {"a"});
        const auto a2 = eng.add_key(k.pk, k.pce, {"a again"});
        CHECK(eng.remove_key(a).host_bytes == 0);
        CHECK(eng.stats().memory_resident == key_bytes);
        CHECK(eng.remove_key(a2).host_bytes == key_bytes);
        CHECK(eng.stats().memory_resident == 0);
    }
    SECTION("a key removed while its jobs run: they finish, its memory goes when the last lets go")
    {
        pipeline::engine_config cfg;
        cfg.device_threads = 1;
        cfg.synth_workers = 2;
        test_recorder rec;
        cfg.sink = &rec;
        pipeline::engine eng(cfg);
        const auto a = eng.add_key(k.pk, k.pce, {"a"});
        const auto b = eng.add_key(other.pk, other.pce, {"b"});
        auto g = std::make_shared<gate>();
        auto running = eng.submit({a, {pipeline::circuit_partition{std::make_shared<gated_circuit>(g, k.circuit(4))}}, 0, "running", {}});
        g->wait_arrived(1);
        auto queued = eng.submit({a, {pipeline::circuit_partition{k.circuit_ptr(5)}}, 0, "queued", {}});
        auto before = eng.submit({b, {pipeline::circuit_partition{other.circuit_ptr(6)}}, 0, "", {}});
        const pipeline::key_removal r = eng.remove_key(a);
        CHECK(r.jobs == 2);
        CHECK_FALSE(r.freed);
        CHECK(r.host_bytes == key_bytes);
        CHECK(eng.stats().keys_retiring == 1);
        CHECK(eng.stats().memory_resident == key_bytes + other_bytes);   // still held by its jobs
        const auto [code, what] = refusal([&] { eng.submit({a, {pipeline::circuit_partition{k.circuit_ptr(7)}}, 0, "", {}}); });
        CHECK(code == errc::invalid_argument);
        CHECK(what.find("was removed") != std::string::npos);
        auto after = eng.submit({b, {pipeline::circuit_partition{other.circuit_ptr(8)}}, 0, "", {}});
        REQUIRE(before.wait().status == job_status::completed);
        CHECK(verify_result(other, before.result(), {6}));
        CHECK(eng.stats().keys_retiring == 1);
        g->release();
        REQUIRE(running.wait().status == job_status::completed);
        CHECK(verify_result(k, running.result(), {4}));
        REQUIRE(queued.wait().status == job_status::completed);
        CHECK(verify_result(k, queued.result(), {5}));
        REQUIRE(after.wait().status == job_status::completed);
        CHECK(verify_result(other, after.result(), {8}));
        REQUIRE(keys_given_back(eng));
        CHECK(eng.stats().memory_resident == other_bytes);
        // The handles keep their results without the key, and the engine
        // no longer holds the caller's proving key.
        CHECK(running.result().partitions.size() == 1);
        CHECK(k.pk.use_count() == 1);
        CHECK(k.pce.use_count() == 1);
        int removes = 0, frees = 0;
        for (const auto& e : rec.take()) {
            if (e.name == "KEY_REMOVE") ++removes;
            if (e.name == "KEY_FREED") ++frees;
        }
        CHECK(removes == 1);
        CHECK(frees == 1);
        prove(eng, b, other, 9);
    }
    SECTION("a cancelled job's work in progress holds the key until it stops")
    {
        pipeline::engine_config cfg;
        cfg.device_threads = 1;
        pipeline::engine eng(cfg);
        const auto a = eng.add_key(k.pk, k.pce, {"a"});
        auto g = std::make_shared<gate>();
        auto h = eng.submit({a, {pipeline::circuit_partition{std::make_shared<gated_circuit>(g, k.circuit(4))}}, 0, "", {}});
        g->wait_arrived(1);
        CHECK(h.cancel());
        const pipeline::key_removal r = eng.remove_key(a);
        CHECK(r.jobs == 0);           // the job has ended …
        CHECK_FALSE(r.freed);         // … but its synthesis still runs with the key
        CHECK(eng.stats().memory_resident == key_bytes);
        g->release();
        REQUIRE(keys_given_back(eng));
        CHECK(eng.stats().memory_resident == 0);
        CHECK(h.result().status == job_status::cancelled);
    }
}

// ---- several devices ------------------------------------------------------------------------

namespace {

// The devices that ran a GPU_START in the recorded timeline.
std::set<int32_t> devices_started(const std::vector<timeline::event>& ev)
{
    std::set<int32_t> out;
    for (const auto& e : ev)
        if (e.name == "GPU_START") out.insert(e.device);
    return out;
}

// Three modelled devices with one prove worker each; device parts of tens of
// ms against a synthesis of about one, so the queue stays full and every
// device has work.
pipeline::engine_config three_devices(timeline::sink* sink)
{
    pipeline::engine_config cfg;
    cfg.synth_workers = 2;
    cfg.lookahead = 6;
    cfg.devices = 3;
    cfg.workers_per_device = 1;
    cfg.device_threads = 1;
    cfg.sink = sink;
    return cfg;
}

} // namespace

TEST_CASE("engine: a job's partitions spread over the devices and all verify", "[engine]")
{
    const test_key k(test::test_seed() + 71, 2, 700);
    test_recorder rec;
    std::vector<uint64_t> values;
    pipeline::engine_stats st;
    {
        pipeline::engine eng(three_devices(&rec));
        REQUIRE(eng.device_count() == 3);
        const auto key = eng.add_key(k.pk, k.pce);
        std::vector<pipeline::partition> parts;
        for (uint64_t p = 0; p < 12; ++p) {
            values.push_back(100 + p);
            parts.push_back(pipeline::circuit_partition{k.circuit_ptr(values.back())});
        }
        const pipeline::job_handle h = eng.submit({key, std::move(parts), 0, "spread"});
        const auto& r = h.wait();
        REQUIRE(r.status == job_status::completed);
        CHECK(verify_result(k, r, values));
        st = eng.stats();
    }
    REQUIRE(st.device_partitions.size() == 3);
    CHECK(st.device_numbers == std::vector<int>{0, 1, 2});
    uint64_t total = 0;
    for (size_t d = 0; d < 3; ++d) {
        INFO("device " << d);
        CHECK(st.device_partitions[d] > 0);
        CHECK(st.device_busy_ns[d] > 0);
        CHECK(st.device_excluded[d] == 0);
        total += st.device_partitions[d];
    }
    CHECK(total == 12);
    const auto ev = rec.take();
    CHECK(devices_started(ev) == std::set<int32_t>{0, 1, 2});
    // The waterfall's analysis has a row (a report) per device.
    const auto a = timeline::analyse(ev);
    CHECK(a.devices.size() == 3);
}

TEST_CASE("engine: a failing device is named, fails only its partitions, and is excluded at the limit", "[engine]")
{
    const fault_guard guard;
    const test_key k(test::test_seed() + 72, 2, 700);
    test_recorder rec;
    pipeline::engine_config cfg = three_devices(&rec);
    cfg.devices = 2;
    cfg.device_error_limit = 2;
    pipeline::engine eng(cfg);
    const auto key = eng.add_key(k.pk, k.pce);
    fault::arm(fault::point::kernel, 0, 0, 1);   // every kernel check on device 1 fails
    std::vector<pipeline::job_handle> hs;
    for (uint64_t j = 0; j < 16; ++j)
        hs.push_back(eng.submit({key, {pipeline::circuit_partition{k.circuit_ptr(j)}}, 0, "", {}}));
    size_t failed = 0;
    for (uint64_t j = 0; j < hs.size(); ++j) {
        const auto& r = hs[j].wait();
        INFO("job " << j << ": " << r.message);
        if (r.status == job_status::failed) {
            ++failed;
            CHECK(r.code == errc::device);
            CHECK(r.message.find("device 1 of the cpu backend: cpu prove: NTT: kernel launch failed") !=
                  std::string::npos);
        } else {
            REQUIRE(r.status == job_status::completed);
            CHECK(verify_result(k, r, {j}, false));
        }
    }
    // Device 1 failed twice in a row and was excluded; device 0 proved the rest.
    CHECK(failed == 2);
    auto st = eng.stats();
    CHECK(st.device_failures == std::vector<uint64_t>{0, 2});
    CHECK(st.device_excluded == std::vector<uint8_t>{0, 1});
    CHECK(st.device_partitions[1] == 2);
    CHECK(st.device_partitions[0] == 14);
    CHECK_FALSE(eng.exclude_device(1));   // already out
    // The engine keeps proving on device 0.
    CHECK(eng.submit({key, {pipeline::circuit_partition{k.circuit_ptr(99)}}, 0, "", {}}).wait().status ==
          job_status::completed);
    st = eng.stats();
    CHECK(st.device_partitions[1] == 2);
    const auto ev = rec.take();
    const auto ex = std::count_if(ev.begin(), ev.end(), [](const timeline::event& e) {
        return e.name == "DEVICE_EXCLUDED" && e.device == 1;
    });
    CHECK(ex == 1);
}

TEST_CASE("engine: with every device excluded, live jobs fail and submit refuses", "[engine]")
{
    const test_key k(test::test_seed() + 73, 1, 8);
    pipeline::engine_config cfg;
    cfg.devices = 2;
    cfg.synth_workers = 1;
    pipeline::engine eng(cfg);
    const auto key = eng.add_key(k.pk, k.pce);
    CHECK_THROWS_AS(eng.exclude_device(2), error);
    auto g = std::make_shared<gate>();
    const pipeline::job_handle h =
        eng.submit({key, {pipeline::circuit_partition{std::make_shared<gated_circuit>(g, k.circuit(1))}}, 0, "held"});
    g->wait_arrived(1);   // its synthesis has started: the job is live
    CHECK(eng.exclude_device(0, "test"));
    CHECK_FALSE(h.wait_for(50ms));   // device 1 is left: the job waits for it
    CHECK(eng.exclude_device(1, "test"));
    const auto& r = h.wait();
    CHECK(r.status == job_status::failed);
    CHECK(r.code == errc::device);
    CHECK(r.message.find("no device left") != std::string::npos);
    g->release();
    try {
        eng.submit({key, {pipeline::circuit_partition{k.circuit_ptr(2)}}, 0, "late"});
        FAIL("submit without a device");
    } catch (const error& e) {
        CHECK(e.code() == errc::device);
    }
}

TEST_CASE("engine: device configuration checks", "[engine]")
{
    pipeline::engine_config cfg;
    cfg.cuda_devices = {0};   // a cuda option on the cpu backend
    CHECK_THROWS_AS(pipeline::engine(cfg), error);
    cfg.cuda_devices.clear();
    cfg.devices = 0;          // 0 = one device on the cpu backend
    pipeline::engine eng(cfg);
    CHECK(eng.device_count() == 1);
    CHECK(eng.config().devices == 1);
    if (!cuda_available()) return;
    pipeline::engine_config gc;
    gc.backend = pipeline::engine_backend::cuda;
    gc.cuda_devices = {0, 0};
    CHECK_THROWS_AS(pipeline::engine(gc), error);   // listed twice
    gc.cuda_devices = {cuda_device_count()};
    CHECK_THROWS_AS(pipeline::engine(gc), error);   // does not exist
    gc.cuda_devices = {0};
    gc.devices = 2;
    CHECK_THROWS_AS(pipeline::engine(gc), error);   // contradicts the list
}

TEST_CASE("engine: backend cuda over the listed devices: partitions spread, a failing device named", "[engine][gpu]")
{
    CUDA_OR_SKIP();
    const fault_guard guard;
    const int visible = cuda_device_count();
    const test_key k(test::test_seed() + 74, 2, 300);
    for (const bool all : {false, true}) {
        INFO((all ? "every visible device" : "device 0 listed"));
        test_recorder rec;
        pipeline::engine_config cfg;
        cfg.backend = pipeline::engine_backend::cuda;
        if (!all) cfg.cuda_devices = {0};
        cfg.lookahead = 4;
        cfg.workers_per_device = 1;
        cfg.sink = &rec;
        pipeline::engine eng(cfg);
        const unsigned n = all ? unsigned(visible) : 1u;
        REQUIRE(eng.device_count() == n);
        const auto key = eng.add_key(k.pk, k.pce, {"gpu", 0});
        std::vector<uint64_t> values;
        std::vector<pipeline::partition> parts;
        for (uint64_t p = 0; p < 4 * n; ++p) {
            values.push_back(500 + p);
            parts.push_back(pipeline::circuit_partition{k.circuit_ptr(values.back())});
        }
        const pipeline::job_handle h = eng.submit({key, std::move(parts), 0, "spread"});
        REQUIRE(h.wait_for(300s));
        const auto& r = h.result();
        INFO(r.message);
        REQUIRE(r.status == job_status::completed);
        CHECK(verify_result(k, r, values));
        const auto st = eng.stats();
        std::vector<int> expect;
        for (unsigned d = 0; d < n; ++d) expect.push_back(int(d));
        CHECK(st.device_numbers == expect);
        uint64_t total = 0;
        for (unsigned d = 0; d < n; ++d) {
            CHECK(st.device_memory_reserved[d] > 0);   // the key is resident on every device
            total += st.device_partitions[d];
        }
        CHECK(total == 4 * n);
        CHECK(devices_started(rec.take()).size() == n);
    }
    // A kernel failure on CUDA device 0 names it and fails only that job.
    pipeline::engine_config cfg;
    cfg.backend = pipeline::engine_backend::cuda;
    cfg.cuda_devices = {0};
    pipeline::engine eng(cfg);
    const auto key = eng.add_key(k.pk, k.pce, {"gpu", 0});
    fault::arm(fault::point::kernel, 0, 1, 0);
    const pipeline::job_handle bad = eng.submit({key, {pipeline::circuit_partition{k.circuit_ptr(1)}}, 0, "bad"});
    const auto& rb = bad.wait();
    CHECK(rb.status == job_status::failed);
    CHECK(rb.code == errc::device);
    CHECK(rb.message.find("device 0 (CUDA 0): gpu prove: NTT: kernel launch failed") != std::string::npos);
    const pipeline::job_handle good = eng.submit({key, {pipeline::circuit_partition{k.circuit_ptr(2)}}, 0, "good"});
    CHECK(good.wait().status == job_status::completed);
}

// ---- borrowed partitions ----------------------------------------------------------------------

namespace {

// The host's side of a borrowed partition: its arrays, and a count of the
// releases (the hold's deleter).
struct host_arrays {
    std::vector<fr> inputs, aux, a, b, c;
    std::shared_ptr<std::atomic<int>> released = std::make_shared<std::atomic<int>>(0);
    std::shared_ptr<const void> hold()
    {
        auto r = released;
        return std::shared_ptr<const void>(static_cast<const void*>(this), [r](const void*) { r->fetch_add(1); });
    }
    pipeline::borrowed_witness_partition witness() { return {inputs, aux, hold()}; }
    pipeline::borrowed_abc_partition abc() { return {a, b, c, inputs, aux, hold()}; }
};

host_arrays host_witness(const test_key& k, uint64_t values)
{
    host_arrays h;
    const auto w = groth16::synthesize_witness(k.circuit(values));
    h.inputs = w.inputs;
    h.aux = w.aux;
    h.a.resize(k.pce->num_constraints);
    h.b.resize(k.pce->num_constraints);
    h.c.resize(k.pce->num_constraints);
    r1cs::evaluate(*k.pce, h.inputs, h.aux, h.a, h.b, h.c, 1);
    return h;
}

// A borrowed job on `backend`: proofs verify, each partition released once.
void borrowed_drill(pipeline::engine_backend backend)
{
    const test_key k(test::test_seed() + 81, 2, 60);
    pipeline::engine_config cfg;
    cfg.backend = backend;
    cfg.synth_workers = 2;
    pipeline::engine eng(cfg);
    const auto key = eng.add_key(k.pk, k.pce);
    std::vector<host_arrays> hosts;
    for (uint64_t v = 0; v < 4; ++v) hosts.push_back(host_witness(k, 40 + v));
    {
        std::vector<pipeline::partition> parts;
        for (size_t i = 0; i < hosts.size(); ++i)
            parts.push_back(i % 2 ? pipeline::partition(hosts[i].abc()) : pipeline::partition(hosts[i].witness()));
        const pipeline::job_handle h = eng.submit({key, std::move(parts), 0, "borrowed"});
        const auto& r = h.wait();
        INFO(r.message);
        REQUIRE(r.status == job_status::completed);
        CHECK(verify_result(k, r, {40, 41, 42, 43}));
    }
    for (auto& h : hosts) CHECK(h.released->load() == 1);
    // A value >= r (Montgomery form): refused by name, and released.
    host_arrays bad = host_witness(k, 50);
    bad.aux[3] = fr{};
    for (auto& l : bad.aux[3].l) l = ~uint64_t{0};
    const pipeline::job_handle hb = eng.submit({key, {bad.witness()}, 0, "bad"});
    const auto& rb = hb.wait();
    CHECK(rb.status == job_status::failed);
    CHECK(rb.code == errc::non_canonical);
    CHECK(rb.message.find("aux[3]") != std::string::npos);
    CHECK(bad.released->load() == 1);
}

} // namespace

TEST_CASE("engine: borrowed witness and abc partitions are read in place and released once", "[engine]")
{
    borrowed_drill(pipeline::engine_backend::cpu);
}

TEST_CASE("engine: borrowed partitions of a cancelled or refused job are released", "[engine]")
{
    const test_key k(test::test_seed() + 82, 1, 8);
    pipeline::engine_config cfg;
    cfg.synth_workers = 1;
    pipeline::engine eng(cfg);
    const auto key = eng.add_key(k.pk, k.pce);
    // The first partition holds the only synthesis worker; the job is
    // cancelled while the borrowed ones wait.
    auto g = std::make_shared<gate>();
    host_arrays h1 = host_witness(k, 1), h2 = host_witness(k, 2);
    std::vector<pipeline::partition> parts;
    parts.push_back(pipeline::circuit_partition{std::make_shared<gated_circuit>(g, k.circuit(0))});
    parts.push_back(h1.witness());
    parts.push_back(h2.abc());
    pipeline::job_handle h = eng.submit({key, std::move(parts), 0, "held"});
    g->wait_arrived(1);
    CHECK(h.cancel());
    g->release();
    CHECK(h.wait().status == job_status::cancelled);
    CHECK(h1.released->load() == 1);
    CHECK(h2.released->load() == 1);
    // A request refused at submit (its second partition has no circuit).
    host_arrays h3 = host_witness(k, 3);
    {
        std::vector<pipeline::partition> p2;
        p2.push_back(h3.witness());
        p2.push_back(pipeline::circuit_partition{nullptr});
        CHECK_THROWS_AS(eng.submit({key, std::move(p2), 0, "refused"}), error);
    }
    CHECK(h3.released->load() == 1);
}

TEST_CASE("engine: borrowed partitions on the cuda backend", "[engine][gpu]")
{
    CUDA_OR_SKIP();
    borrowed_drill(pipeline::engine_backend::cuda);
}

// ---- BN254 keys ------------------------------------------------------------------------------
// The engine with BN254 keys (snarkjs convention, circom's "bn128"): jobs of
// several partitions on the cpu backend prove, verify with
// verify<bn254_curve> and carry the right public inputs; a wrong witness
// fails its job naming the partition (self-verify, or the witness checks);
// partitions of the wrong form or curve are refused at submit; BLS12-381 and
// BN254 jobs share one engine; BN254 jobs are cancelled (queued, and while
// running); the timeline has PCE_EVAL, NTT, MSM_* and CPU_TAIL spans for
// BN254 partitions; and the same on the cuda backend ([gpu]).

namespace {

using bn_fr = bn254::fr;
using bn_key = groth16::proving_key_t<bn254_curve>;

// The squaring chain over m constraints on the field F: x_{i+1} = x_i·x_i,
// with aux x_0 … x_{m−1} and the public input out = x_{m−1}² (variables:
// 0 = ONE, 1 = out, 2 + i = x_i).
template <class F>
groth16::r1cs_description_t<F> squaring_chain(uint32_t m)
{
    groth16::r1cs_description_t<F> r;
    r.num_inputs = 2;
    r.num_aux = m;
    r.num_constraints = m;
    r.for_each_entry = [m](const auto& fn) {
        for (uint32_t i = 0; i < m; ++i) {
            fn(0, i, 2 + i, F::one());
            fn(1, i, 2 + i, F::one());
            fn(2, i, i + 1 < m ? 3 + i : 1, F::one());
        }
    };
    return r;
}

// The chain's full witness from x_0: ONE, out, x_0 … x_{m−1}.
template <class F>
std::vector<F> chain_witness(uint32_t m, uint64_t x0)
{
    std::vector<F> w(2 + size_t(m));
    w[0] = F::one();
    F x = F::from_u64(x0);
    for (uint32_t i = 0; i < m; ++i) {
        w[2 + i] = x;
        x = x * x;
    }
    w[1] = x;
    return w;
}

// A BN254 key for the chain (development setup, fixed toxic waste).
struct bn_chain {
    uint32_t m;
    std::shared_ptr<const bn_key> pk;
    groth16::prepared_verifying_key_t<bn254_curve> pvk;
    bn_chain(uint32_t mm, uint64_t seed) : m(mm)
    {
        const auto tw = groth16::toxic_waste_t<bn_fr>::from_seed(seed);
        groth16::setup_options_t<bn254_curve> opt;
        opt.threads = 1;
        opt.waste = &tw;
        pk = std::make_shared<const bn_key>(groth16::setup_snarkjs<bn254_curve>(squaring_chain<bn_fr>(m), opt));
        pvk = groth16::prepare_verifying_key(pk->vk);
    }
    std::vector<bn_fr> witness(uint64_t x0) const { return chain_witness<bn_fr>(m, x0); }
    pipeline::partition part(uint64_t x0) const { return pipeline::full_witness_partition_t<bn254_curve>{witness(x0)}; }
    std::vector<bn_fr> pub(uint64_t x0) const { return {witness(x0)[1]}; }
};

// The chain as a BLS12-381 circuit (bellperson keys, with a PCE); with a
// gate, its witness generation waits there.
struct bls_chain_circuit final : r1cs::circuit {
    uint32_t m;
    uint64_t x0;
    std::shared_ptr<gate> g;
    bls_chain_circuit(uint32_t mm, uint64_t x, std::shared_ptr<gate> gg = nullptr) : m(mm), x0(x), g(std::move(gg)) {}
    void synthesize(r1cs::constraint_system& cs) const override
    {
        if (g && cs.is_witness_generator()) g->pass();
        const std::vector<fr> w = chain_witness<fr>(m, x0);
        const r1cs::variable out = cs.alloc_input(w[1]);
        std::vector<r1cs::variable> x;
        for (uint32_t i = 0; i < m; ++i) x.push_back(cs.alloc(w[2 + i]));
        for (uint32_t i = 0; i < m; ++i) {
            r1cs::linear_combination a, c;
            a.add(x[i], fr::one());
            c.add(i + 1 < m ? x[i + 1] : out, fr::one());
            cs.enforce(a, a, c);
        }
    }
};

// BLS12-381 keys for the same chain: bellperson (with its PCE) and snarkjs.
struct bls_chains {
    uint32_t m;
    std::shared_ptr<const r1cs::pce> pce;
    std::shared_ptr<const groth16::proving_key> bellperson, snarkjs;
    groth16::prepared_verifying_key pvk_bellperson, pvk_snarkjs;
    explicit bls_chains(uint32_t mm) : m(mm)
    {
        pce = std::make_shared<const r1cs::pce>(r1cs::record(bls_chain_circuit(m, 0)));
        groth16::query_density density;
        bellperson = std::make_shared<const groth16::proving_key>(
            groth16::setup_bellperson(groth16::describe(*pce), &density));
        snarkjs = std::make_shared<const groth16::proving_key>(groth16::setup_snarkjs(squaring_chain<fr>(m)));
        pvk_bellperson = groth16::prepare_verifying_key(bellperson->vk);
        pvk_snarkjs = groth16::prepare_verifying_key(snarkjs->vk);
    }
    std::vector<fr> pub(uint64_t x0) const { return {chain_witness<fr>(m, x0)[1]}; }
};

// Every span closes, and every partition of the BN254 jobs named in `jobs`
// has the stage spans: PCE_EVAL (cpu backend: synthesis, device −1; cuda:
// the device part's, on its device), NTT and the five MSMs (its prove
// worker's device), CPU_TAIL (device −1).
void check_bn254_spans(const std::vector<timeline::event>& ev, const std::map<std::string, size_t>& jobs,
                       bool device_eval = false)
{
    check_timeline(ev);
    std::set<std::tuple<std::string, int, std::string, bool>> seen;   // job, partition, span, on a device
    for (const auto& e : ev)
        if (e.ph == timeline::phase::begin) seen.emplace(e.job, e.partition, e.name, e.device >= 0);
    const std::pair<const char*, bool> spans[] = {{"PCE_EVAL", device_eval}, {"NTT", true},    {"MSM_H", true},
                                                  {"MSM_L", true},     {"MSM_A", true},  {"MSM_B1", true},
                                                  {"MSM_B2", true},    {"CPU_TAIL", false}};
    for (const auto& [job, parts] : jobs)
        for (int p = 0; p < int(parts); ++p)
            for (const auto& [name, on_device] : spans) {
                INFO(job << "/" << p << " has no " << name << " span");
                CHECK(seen.count({job, p, name, on_device}) == 1);
            }
}

// A BN254 job's result: completed, every partition a BN254 proof that
// verifies with the public input of its x_0 (and not with another).
void check_bn254_result(const bn_chain& k, const pipeline::job_result& r, const std::vector<uint64_t>& x0s)
{
    INFO("job " << r.id << ": " << r.message);
    REQUIRE(r.status == job_status::completed);
    REQUIRE(r.partitions.size() == x0s.size());
    for (size_t p = 0; p < x0s.size(); ++p) {
        const pipeline::partition_result& pr = r.partitions[p];
        CHECK(pr.curve() == curve_id::bn254);
        const auto& out = pr.get<bn254_curve>();
        CHECK(out.public_inputs == k.pub(x0s[p]));
        CHECK(groth16::verify(k.pvk, out.proof, std::span<const bn_fr>(out.public_inputs)));
        CHECK_FALSE(groth16::verify(k.pvk, out.proof, std::span<const bn_fr>(k.pub(x0s[p] + 1))));
        CHECK_THROWS_AS(pr.public_inputs(), cuzk::error);   // no BLS12-381 proof in it
        CHECK(std::all_of(pr.bytes.begin(), pr.bytes.end(), [](uint8_t b) { return b == 0; }));
    }
}

// Submits `n_jobs` BN254 jobs of `parts` partitions each (x_0 = 3 + 100·j + p),
// waits for them and checks every proof; returns {job id: partitions}.
std::map<std::string, size_t> prove_bn254_jobs(pipeline::engine& eng, pipeline::key_id key, const bn_chain& k,
                                               size_t n_jobs, size_t parts, const std::string& prefix)
{
    std::vector<pipeline::job_handle> hs;
    std::vector<std::vector<uint64_t>> x0s(n_jobs);
    for (size_t j = 0; j < n_jobs; ++j) {
        std::vector<pipeline::partition> v;
        for (size_t p = 0; p < parts; ++p) {
            x0s[j].push_back(3 + 100 * j + p);
            v.push_back(k.part(x0s[j].back()));
        }
        hs.push_back(eng.submit({key, std::move(v), int(j % 2), prefix + std::to_string(j)}));
    }
    std::map<std::string, size_t> ids;
    for (size_t j = 0; j < n_jobs; ++j) {
        check_bn254_result(k, hs[j].wait(), x0s[j]);
        ids[hs[j].id()] = parts;
    }
    return ids;
}

pipeline::engine_config cpu_config(test_recorder* rec, unsigned per_call = 1)
{
    pipeline::engine_config cfg;
    cfg.synth_workers = 2;
    cfg.lookahead = 3;
    cfg.workers_per_device = 2;
    cfg.device_threads = 1;
    cfg.partitions_per_call = per_call;
    cfg.sink = rec;
    return cfg;
}

// Mixed BLS12-381 (bellperson and snarkjs) and BN254 jobs on one engine,
// interleaved; every proof verifies under its own curve's key. Returns the
// BN254 jobs' {id: partitions}.
std::map<std::string, size_t> prove_mixed(pipeline::engine& eng, const bls_chains& bls, const bn_chain& bn)
{
    const auto kb = eng.add_key(bls.bellperson, bls.pce, {"bls-bellperson", 0});
    const auto ks = eng.add_key(bls.snarkjs, nullptr, {"bls-snarkjs", 0});
    const auto kn = eng.add_key(bn.pk, {"bn-mixed", 0});
    CHECK(eng.key_curve(kb) == curve_id::bls12_381);
    CHECK(eng.key_curve(ks) == curve_id::bls12_381);
    CHECK(eng.key_curve(kn) == curve_id::bn254);
    std::vector<pipeline::job_handle> hs;
    std::vector<uint64_t> x0s;
    std::map<std::string, size_t> bn_ids;
    for (size_t j = 0; j < 9; ++j) {
        const uint64_t x0 = 7 + j;
        x0s.push_back(x0);
        std::vector<pipeline::partition> v;
        for (int p = 0; p < 2; ++p) {
            if (j % 3 == 0) v.push_back(pipeline::circuit_partition{std::make_shared<bls_chain_circuit>(bls.m, x0)});
            if (j % 3 == 1) v.push_back(pipeline::full_witness_partition{chain_witness<fr>(bls.m, x0)});
            if (j % 3 == 2) v.push_back(bn.part(x0));
        }
        hs.push_back(eng.submit({j % 3 == 0 ? kb : j % 3 == 1 ? ks : kn, std::move(v), 0, ""}));
    }
    for (size_t j = 0; j < hs.size(); ++j) {
        const pipeline::job_result& r = hs[j].wait();
        if (j % 3 == 2) {
            check_bn254_result(bn, r, {x0s[j], x0s[j]});
            bn_ids[r.id] = 2;
            continue;
        }
        INFO("BLS12-381 job " << j << ": " << r.message);
        REQUIRE(r.status == job_status::completed);
        const auto& pvk = j % 3 == 0 ? bls.pvk_bellperson : bls.pvk_snarkjs;
        for (const auto& pr : r.partitions) {
            CHECK(pr.curve() == curve_id::bls12_381);
            CHECK(pr.public_inputs() == bls.pub(x0s[j]));
            CHECK_THROWS_AS(pr.get<bn254_curve>(), cuzk::error);   // no BN254 proof in it
            CHECK(groth16::verify(pvk, pr.proof(), pr.public_inputs()));
        }
    }
    return bn_ids;
}

// A BN254 job queued behind a gated BLS12-381 partition (the only synthesis
// worker holds it) is cancelled before any of its work starts; the gated job
// then completes.
void cancel_queued_bn254(pipeline::engine& eng, const bls_chains& bls, const bn_chain& bn)
{
    const auto kb = eng.add_key(bls.bellperson, bls.pce, {"bls-gated", 0});
    const auto kn = eng.add_key(bn.pk, {"bn-cancel", 0});
    auto g = std::make_shared<gate>();
    auto blocked = eng.submit({kb, {pipeline::circuit_partition{std::make_shared<bls_chain_circuit>(bls.m, 5, g)}}});
    g->wait_arrived(1);
    auto h = eng.submit({kn, {bn.part(1), bn.part(2), bn.part(3)}, 0, "bn-cancelled"});
    CHECK(h.poll() == job_status::queued);
    CHECK(h.cancel());
    const pipeline::job_result& r = h.wait();
    CHECK(r.status == job_status::cancelled);
    CHECK(r.code == errc::cancelled);
    CHECK(r.partitions.empty());
    g->release();
    CHECK(blocked.wait().status == job_status::completed);
}

} // namespace

TEST_CASE("engine bn254: jobs of several partitions prove, verify and carry their public inputs", "[engine]")
{
    const bn_chain k(20, test::test_seed() + 1);
    for (const unsigned per_call : {1u, 3u}) {
        INFO("partitions_per_call " << per_call);
        test_recorder rec;
        pipeline::engine eng(cpu_config(&rec, per_call));
        const auto key = eng.add_key(k.pk, {"chain", 0});
        CHECK(eng.key_curve(key) == curve_id::bn254);
        CHECK(eng.partition_bytes(key) == pipeline::partition_bytes_estimate(*k.pk));
        CHECK(eng.device_bytes(key) == pipeline::device_bytes_estimate(*k.pk));
        CHECK(eng.stats().memory_resident > 0);   // the key's points count in the host budget
        const auto ids = prove_bn254_jobs(eng, key, k, 6, 3, "bn");
        CHECK(eng.stats().jobs_completed == 6);
        check_bn254_spans(rec.take(), ids);
    }
}

TEST_CASE("engine bn254: wrong witnesses fail their job naming the partition; wrong forms are refused at submit",
          "[engine]")
{
    const bn_chain k(12, test::test_seed() + 2);
    const bls_chains bls(12);
    pipeline::engine eng(cpu_config(nullptr));
    const auto key = eng.add_key(k.pk, {"chain", 0});
    const auto bkey = eng.add_key(bls.snarkjs, nullptr, {"bls-key", 0});

    // A wrong private value (no satisfaction check before proving: the
    // self-verify tells), the wrong size, w[0] != 1; each in partition 1.
    std::vector<bn_fr> wrong = k.witness(4), shorter = k.witness(4), not_one = k.witness(4);
    wrong[5] += bn_fr::one();
    shorter.pop_back();
    not_one[0] = bn_fr::from_u64(2);
    const std::tuple<std::vector<bn_fr>, errc, const char*> bad[] = {{wrong, errc::internal, "self-verify failed"},
                                                                   {shorter, errc::invalid_argument, "the witness has"},
                                                                   {not_one, errc::invalid_argument, "value 0"}};
    for (const auto& [w, code, text] : bad) {
        auto h = eng.submit({key, {k.part(3), pipeline::full_witness_partition_t<bn254_curve>{w}, k.part(5)}});
        const pipeline::job_result& r = h.wait();
        INFO(r.message);
        REQUIRE(r.status == job_status::failed);
        CHECK(r.failed_partition == 1);
        CHECK(r.code == code);
        CHECK(r.message.find("partition 1") != std::string::npos);
        CHECK(r.message.find(text) != std::string::npos);
    }
    // Without self-verify the wrong witness yields a proof that does not verify.
    {
        pipeline::engine_config cfg = cpu_config(nullptr);
        cfg.self_verify = false;
        pipeline::engine quiet(cfg);
        const auto qk = quiet.add_key(k.pk);
        const pipeline::job_handle h = quiet.submit({qk, {pipeline::full_witness_partition_t<bn254_curve>{wrong}}});
        const pipeline::job_result& r = h.wait();
        REQUIRE(r.status == job_status::completed);
        CHECK_FALSE(groth16::verify(k.pvk, r.partitions[0].get<bn254_curve>().proof,
                                    std::span<const bn_fr>(r.partitions[0].get<bn254_curve>().public_inputs)));
    }

    // Forms: a BN254 key takes its full witness only, a BLS12-381 key never.
    const uint64_t submitted = eng.stats().jobs_submitted;
    const std::vector<fr> bls_w = chain_witness<fr>(12, 4);
    const std::pair<pipeline::key_id, pipeline::partition> forms[] = {
        {key, pipeline::full_witness_partition{bls_w}},
        {key, pipeline::witness_partition{{bls_w[0], bls_w[1]}, {bls_w.begin() + 2, bls_w.end()}}},
        {key, pipeline::circuit_partition{std::make_shared<bls_chain_circuit>(12, 4)}},
        {bkey, k.part(4)}};
    for (const auto& [kid, form] : forms) {
        const pipeline::partition good = kid == key ? k.part(4) : pipeline::full_witness_partition{bls_w};
        const auto [code, what] = refusal([&] { eng.submit({kid, {good, form}, 0, "refused"}); });
        INFO(what);
        CHECK(code == errc::invalid_argument);
        CHECK(what.find(kid == key ? "key chain" : "key bls-key") != std::string::npos);
        CHECK(what.find("partition 1") != std::string::npos);
    }
    CHECK(eng.stats().jobs_submitted == submitted);

    // Keys: none, the bellperson convention, inconsistent sizes; unknown ids.
    CHECK(refusal([&] { eng.add_key(std::shared_ptr<const bn_key>()); }).first == errc::invalid_argument);
    auto bellperson = std::make_shared<bn_key>(*k.pk);
    bellperson->conv = groth16::convention::bellperson;
    CHECK(refusal([&] { eng.add_key(bellperson); }).first == errc::invalid_argument);
    auto short_h = std::make_shared<bn_key>(*k.pk);
    short_h->h.pop_back();
    CHECK(refusal([&] { eng.add_key(short_h); }).first == errc::invalid_argument);
    CHECK(refusal([&] { (void)eng.key_curve(99); }).first == errc::invalid_argument);
    CHECK(eng.key_curve(bkey) == curve_id::bls12_381);
}

TEST_CASE("engine bn254: BLS12-381 and BN254 jobs in one engine; BN254 jobs cancelled", "[engine]")
{
    const bn_chain bn(16, test::test_seed() + 3);
    const bls_chains bls(16);
    SECTION("mixed jobs")
    {
        test_recorder rec;
        pipeline::engine eng(cpu_config(&rec, 2));
        const auto ids = prove_mixed(eng, bls, bn);
        CHECK(ids.size() == 3);
        check_bn254_spans(rec.take(), ids);
    }
    SECTION("a queued job")
    {
        pipeline::engine_config cfg = cpu_config(nullptr);
        cfg.synth_workers = 1;
        pipeline::engine eng(cfg);
        cancel_queued_bn254(eng, bls, bn);
        // The engine keeps proving BN254 jobs.
        prove_bn254_jobs(eng, eng.add_key(bn.pk), bn, 2, 2, "after");
    }
    SECTION("a running job")
    {
        pipeline::engine eng(cpu_config(nullptr));
        const auto key = eng.add_key(bn.pk);
        std::vector<pipeline::partition> v;
        for (uint64_t p = 0; p < 24; ++p) v.push_back(bn.part(p + 2));
        auto h = eng.submit({key, std::move(v), 0, "running"});
        while (h.poll() == job_status::queued) std::this_thread::yield();
        const bool ended_here = h.cancel();
        const pipeline::job_result& r = h.wait();
        // Either the cancel ended it, or it had completed first.
        CHECK(r.status == (ended_here ? job_status::cancelled : job_status::completed));
        prove_bn254_jobs(eng, key, bn, 2, 2, "after");
        CHECK(eng.stats().jobs_live == 0);
        CHECK(eng.stats().memory_reserved == 0);
    }
}

TEST_CASE("engine bn254: backend cuda proves BN254 jobs next to BLS12-381 ones", "[engine][gpu]")
{
    CUDA_OR_SKIP();
    const bn_chain bn(40, test::test_seed() + 4);
    const bls_chains bls(16);
    test_recorder rec;
    pipeline::engine_config cfg = cpu_config(&rec, 2);
    cfg.backend = pipeline::engine_backend::cuda;
    cfg.synth_workers = 1;   // the cancellation below holds the only one
    pipeline::engine eng(cfg);
    const auto key = eng.add_key(bn.pk, {"gpu-chain", 0});
    CHECK(eng.key_curve(key) == curve_id::bn254);
    CHECK(eng.device_bytes(key) == pipeline::device_bytes_estimate(*bn.pk));
    for (unsigned d = 0; d < eng.device_count(); ++d)
        CHECK(eng.stats().device_memory_reserved[d] > 0);   // the key is resident on every device
    auto ids = prove_bn254_jobs(eng, key, bn, 6, 3, "gpu-bn");
    ids.merge(prove_mixed(eng, bls, bn));
    check_bn254_spans(rec.take(), ids, true);   // A·w and B·w on the device

    // A wrong private value fails at self-verify, naming its partition.
    std::vector<bn_fr> wrong = bn.witness(4);
    wrong[7] += bn_fr::one();
    const pipeline::job_handle h = eng.submit({key, {bn.part(3), pipeline::full_witness_partition_t<bn254_curve>{wrong}}});
    const pipeline::job_result& r = h.wait();
    CHECK(r.status == job_status::failed);
    CHECK(r.failed_partition == 1);
    CHECK(r.code == errc::internal);
    CHECK(refusal([&] { eng.submit({key, {pipeline::full_witness_partition{chain_witness<fr>(40, 1)}}}); }).first ==
          errc::invalid_argument);

    cancel_queued_bn254(eng, bls, bn);
}
