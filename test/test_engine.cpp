// The proving engine: the split prover against the monolithic one; ≥ 1000
// jobs from several threads with injected failures and cancellations (every
// handle resolves exactly once, with the expected status, and every completed
// proof verifies under an independent check); priority order; the memory
// budget (refusal and admission); waiting with a timeout; duplicate ids;
// shutting down with pending jobs.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "cuzk/error.hpp"
#include "cuzk/groth16/circuit.hpp"
#include "cuzk/groth16/prover_split.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/bellperson.hpp"
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

// A gate a test opens; circuits that pass it announce that they arrived.
struct gate {
    std::mutex m;
    std::condition_variable cv;
    bool open = false;
    int arrived = 0;
    void pass()
    {
        std::unique_lock lk(m);
        ++arrived;
        cv.notify_all();
        cv.wait(lk, [&] { return open; });
    }
    void wait_arrived(int n)
    {
        std::unique_lock lk(m);
        REQUIRE(cv.wait_for(lk, 30s, [&] { return arrived >= n; }));
    }
    void release()
    {
        std::lock_guard lk(m);
        open = true;
        cv.notify_all();
    }
};

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

// The test's own recording sink (independent of the timeline library).
struct test_recorder final : timeline::sink {
    std::mutex m;
    std::vector<timeline::event> events;
    void record(const timeline::event& e) noexcept override
    {
        std::lock_guard lk(m);
        events.push_back(e);
    }
    std::vector<timeline::event> take()
    {
        std::lock_guard lk(m);
        return std::move(events);
    }
};

// A key for one circuit shape, with what an independent verifier needs.
struct test_key {
    uint64_t shape;
    size_t n_inputs, n_constraints;
    std::shared_ptr<const groth16::proving_key> pk;
    std::shared_ptr<const r1cs::pce> pce;
    groth16::query_density density;
    groth16::prepared_verifying_key pvk;

    test_key(uint64_t sh, size_t ni, size_t nc) : shape(sh), n_inputs(ni), n_constraints(nc)
    {
        auto p = std::make_shared<r1cs::pce>(r1cs::record(tiny_circuit(sh, 0, ni, nc)));
        pk = std::make_shared<groth16::proving_key>(groth16::setup_bellperson(groth16::describe(*p), &density));
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
        if (pr.public_inputs != pub) return false;
        if (!groth16::verify(k.pvk, pr.proof, pub)) return false;
        if (!decode) continue;
        const groth16::proof back = io::proof_from_bytes(pr.bytes);
        if (!(back.a == pr.proof.a && back.b == pr.proof.b && back.c == pr.proof.c)) return false;
    }
    return true;
}

} // namespace

TEST_CASE("split prover: prove_finish(prove_start) equals prove_bellperson", "[engine]")
{
    std::mt19937_64 rng(test::test_seed());
    for (size_t nc : {5u, 60u, 300u}) {
        const test_key k(rng(), 2, nc);
        const uint64_t values = rng();
        const auto w = groth16::synthesize_witness(k.circuit(values));
        const size_t m = k.pce->num_constraints;
        std::vector<fr> a(m), b(m), c(m);
        r1cs::evaluate(*k.pce, w.inputs, w.aux, a, b, c, 1);
        const fr r = fr::random(rng), s = fr::random(rng);
        const groth16::proof mono = groth16::prove_bellperson(*k.pk, k.density, a, b, c, w.inputs, w.aux, r, s);

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
        CHECK(split.a == mono.a);
        CHECK(split.b == mono.b);
        CHECK(split.c == mono.c);
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

    // Two engine shapes: a tail pool, and tails run by the prove workers.
    for (const unsigned tail_threads : {2u, 0u}) {
        const size_t jobs_here = tail_threads ? n_jobs : 150;
        INFO("seed " << seed << ", tail_threads " << tail_threads);
        test_recorder rec;
        pipeline::engine_config cfg;
        cfg.synth_workers = 2;
        cfg.synth_threads = 1;
        cfg.lookahead = 3;
        cfg.workers_per_device = 2;
        cfg.device_threads = 1;
        cfg.tail_threads = tail_threads;
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
            const auto st = eng.stats();
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
    // The synthesis delay is ten device parts of the tiny key, at least 40 ms,
    // so the ratio holds on a loaded machine or under a sanitizer too.
    auto device_part_time = [](const test_key& k) {
        const auto w = groth16::synthesize_witness(k.circuit(1));
        const size_t m = k.pce->num_constraints;
        std::vector<fr> a(m), b(m), c(m);
        r1cs::evaluate(*k.pce, w.inputs, w.aux, a, b, c, 1);
        auto best = std::chrono::steady_clock::duration::max();
        for (int i = 0; i < 3; ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            (void)groth16::prove_start(*k.pk, k.density, a, b, c, w.inputs, w.aux, {1});
            best = std::min(best, std::chrono::steady_clock::now() - t0);
        }
        return std::chrono::duration_cast<std::chrono::milliseconds>(best);
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
        const auto a = run(k, std::max<std::chrono::milliseconds>(40ms, 10 * device_part_time(k)), 6);
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
        CHECK(r.partitions[size_t(p)].public_inputs == pub);
        CHECK(groth16::verify(pvk, r.partitions[size_t(p)].proof, pub));
    }
}
