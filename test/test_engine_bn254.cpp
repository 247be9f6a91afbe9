// The proving engine with BN254 keys (snarkjs convention, circom's "bn128"):
// jobs of several partitions on the cpu backend prove, verify with
// verify<bn254_curve> and carry the right public inputs; a wrong witness
// fails its job naming the partition (self-verify, or the witness checks);
// partitions of the wrong form or curve are refused at submit; BLS12-381 and
// BN254 jobs share one engine; BN254 jobs are cancelled (queued, and while
// running); the timeline has PCE_EVAL, NTT, MSM_* and CPU_TAIL spans for
// BN254 partitions; and the same on the cuda backend ([gpu]).
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <tuple>

#include "recording_sink.hpp"
#include "engine_gate.hpp"
#include "cuzk/error.hpp"
#include "cuzk/groth16/circuit.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/pipeline/engine.hpp"
#include "gmp_util.hpp"
#include "test_support.hpp"

using namespace cuzk;
using namespace std::chrono_literals;
using pipeline::job_status;

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

using cuzk::test::gate;

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

using recorder = cuzk::test::recording_sink;

// Every span closes, and every partition of the BN254 jobs named in `jobs`
// has the stage spans: PCE_EVAL (cpu backend: synthesis, device −1; cuda:
// the device part's, on its device), NTT and the five MSMs (its prove
// worker's device), CPU_TAIL (device −1).
void check_bn254_spans(const std::vector<timeline::event>& ev, const std::map<std::string, size_t>& jobs,
                       bool device_eval = false)
{
    std::map<std::tuple<std::string, std::string, int, int, int>, int> open;
    std::set<std::tuple<std::string, int, std::string, bool>> seen;   // job, partition, span, on a device
    for (const auto& e : ev) {
        const auto key = std::make_tuple(e.name, e.job, e.partition, e.worker, e.device);
        if (e.ph == timeline::phase::begin) {
            ++open[key];
            seen.emplace(e.job, e.partition, e.name, e.device >= 0);
        }
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

// The error a call throws (errc::ok and "" when it throws none).
template <class F>
std::pair<errc, std::string> thrown(F&& f)
{
    try {
        f();
    } catch (const error& e) {
        return {e.code(), e.what()};
    }
    return {errc::ok, ""};
}

pipeline::engine_config cpu_config(recorder* rec, unsigned per_call = 1)
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
        recorder rec;
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
        const auto [code, what] = thrown([&] { eng.submit({kid, {good, form}, 0, "refused"}); });
        INFO(what);
        CHECK(code == errc::invalid_argument);
        CHECK(what.find(kid == key ? "key chain" : "key bls-key") != std::string::npos);
        CHECK(what.find("partition 1") != std::string::npos);
    }
    CHECK(eng.stats().jobs_submitted == submitted);

    // Keys: none, the bellperson convention, inconsistent sizes; unknown ids.
    CHECK(thrown([&] { eng.add_key(std::shared_ptr<const bn_key>()); }).first == errc::invalid_argument);
    auto bellperson = std::make_shared<bn_key>(*k.pk);
    bellperson->conv = groth16::convention::bellperson;
    CHECK(thrown([&] { eng.add_key(bellperson); }).first == errc::invalid_argument);
    auto short_h = std::make_shared<bn_key>(*k.pk);
    short_h->h.pop_back();
    CHECK(thrown([&] { eng.add_key(short_h); }).first == errc::invalid_argument);
    CHECK(thrown([&] { (void)eng.key_curve(99); }).first == errc::invalid_argument);
    CHECK(eng.key_curve(bkey) == curve_id::bls12_381);
}

TEST_CASE("engine bn254: BLS12-381 and BN254 jobs in one engine; BN254 jobs cancelled", "[engine]")
{
    const bn_chain bn(16, test::test_seed() + 3);
    const bls_chains bls(16);
    SECTION("mixed jobs")
    {
        recorder rec;
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
    GPU_OR_SKIP();
    const bn_chain bn(40, test::test_seed() + 4);
    const bls_chains bls(16);
    recorder rec;
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
    CHECK(thrown([&] { eng.submit({key, {pipeline::full_witness_partition{chain_witness<fr>(40, 1)}}}); }).first ==
          errc::invalid_argument);

    cancel_queued_bn254(eng, bls, bn);
}
