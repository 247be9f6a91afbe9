#include "cuzk/pipeline/engine.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <tuple>
#include <unordered_map>

#include <fmt/format.h>

#include "cuzk/backend/cuda.hpp"
#include "cuzk/backend/fault.hpp"
#include "cuzk/backend/gpu_prover.hpp"
#include "cuzk/backend/gpu_prover_bn254.hpp"
#include "cuzk/ec/encoding.hpp"
#include "cuzk/groth16/circuit.hpp"
#include "cuzk/groth16/prover_split.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/bellperson.hpp"
#include "cuzk/util/bytes.hpp"
#include "cuzk/util/parallel.hpp"
#include "fifo_mutex.hpp"

namespace cuzk::pipeline {

namespace {

using clock = std::chrono::steady_clock;

struct key_entry {
    key_id id = 0;
    std::string name;
    std::shared_ptr<const groth16::proving_key> pk;
    std::shared_ptr<const r1cs::pce> pce;
    groth16::query_density density;
    groth16::prepared_verifying_key pvk;
    uint64_t partition_bytes = 0;
    uint64_t device_bytes = 0;     // device memory per device part
    uint64_t resident_bytes = 0;   // device memory the key holds (cuda: its gpu_key), per device
    uint64_t host_bytes = 0;       // host memory counted for the key in the host budget
    bool snarkjs = false;          // pk->conv == snarkjs (always for BN254 keys)
    // The cuda backend's keys, one per engine device (index = device), each
    // resident on its CUDA device; empty on the cpu backend.
    std::vector<std::shared_ptr<const gpu_key>> gpu;
    // A BN254 key (snarkjs convention) has its key, prepared verifying key
    // and device keys here (null for BLS12-381 keys, whose pk, pce, density,
    // pvk and gpu above are then the ones in use; for a BN254 key they stay
    // empty).
    struct bn254_part {
        std::shared_ptr<const groth16::proving_key_t<bn254_curve>> pk;
        groth16::prepared_verifying_key_t<bn254_curve> pvk;
        std::vector<std::shared_ptr<const gpu_key_bn254>> gpu;   // cuda: one per engine device
    };
    std::unique_ptr<bn254_part> bn;
    curve_id curve = curve_id::bls12_381;
};

// What a device part returns, per curve.
using device_sums = std::variant<groth16::prove_sums, groth16::prove_sums_t<bn254_curve>>;

// Dispatch order of partitions: priority (higher first), submission, partition.
struct order_key {
    int64_t neg_priority;
    uint64_t seq;
    uint32_t part;
    friend bool operator<(const order_key& x, const order_key& y)
    {
        return std::tie(x.neg_priority, x.seq, x.part) < std::tie(y.neg_priority, y.seq, y.part);
    }
    friend bool operator==(const order_key&, const order_key&) = default;
};

double ms(uint64_t ns) { return double(ns) * 1e-6; }

// "1.50 MiB (1572864 bytes)": budget messages give both.
std::string size_text(uint64_t bytes) { return fmt::format("{} ({} bytes)", human_size(bytes), bytes); }

} // namespace

namespace detail {

struct engine_core;

struct job_state {
    // Set at submit, then read-only.
    std::string id;
    uint64_t seq = 0;
    int priority = 0;
    uint32_t n_parts = 0;
    std::shared_ptr<const key_entry> key;
    std::function<void(const job_result&)> on_done;
    std::weak_ptr<engine_core> eng;
    uint64_t submitted_ns = 0;

    // Guarded by the engine's mutex.
    std::vector<partition> inputs;   // moved out as partitions are dispatched
    uint32_t next_dispatch = 0;

    // The claim that ends the job: whoever flips it first ends it, exactly once.
    std::atomic<bool> ending{false};
    std::atomic<job_status> status{job_status::queued};

    // Guarded by m.
    std::mutex m;
    std::condition_variable cv;
    bool published = false;                 // result is final (waiters may read it)
    std::vector<partition_result> results;  // per partition, filled by the tails
    uint32_t parts_done = 0;
    job_result result;
};

} // namespace detail

using detail::job_state;

// A partition between dispatch and the end of its device part.
struct work_item {
    std::shared_ptr<job_state> job;
    uint32_t part = 0;
    uint64_t reserved = 0;   // bytes of the memory budget it holds
    bool device_eval = false;   // cuda: a, b, c are evaluated on the device from the witness
    std::vector<fr> a, b, c, inputs, aux;
    // cuda, device_eval: aux packed during synthesis (aux is then empty), so
    // that the device part under the lock only copies it (gpu_packed_witness).
    std::unique_ptr<gpu_packed_witness> packed;
    std::vector<fr> w;          // snarkjs keys: the full witness (inputs holds its first num_inputs values)
    // BN254 keys: the full witness, its first num_inputs values, and A·w, B·w
    // from the synthesis stage (all empty for BLS12-381 keys).
    struct bn254_vectors {
        std::vector<bn254::fr> w, inputs, a, b;
    } bn;
    // A borrowed partition: the host's arrays, read in place while `hold`
    // is kept (dropping it releases them).
    bool borrowed = false;
    std::shared_ptr<const void> hold;
    std::span<const fr> borrowed_aux, borrowed_a, borrowed_b, borrowed_c;

    std::span<const fr> aux_span() const { return borrowed ? borrowed_aux : std::span<const fr>(aux); }
    std::span<const fr> a_span() const { return borrowed ? borrowed_a : std::span<const fr>(a); }
    std::span<const fr> b_span() const { return borrowed ? borrowed_b : std::span<const fr>(b); }
    std::span<const fr> c_span() const { return borrowed ? borrowed_c : std::span<const fr>(c); }
    void drop_borrowed() noexcept
    {
        borrowed = false;
        hold.reset();
        borrowed_aux = borrowed_a = borrowed_b = borrowed_c = {};
    }
};

// A partition between the device part and the end of its CPU tail.
struct tail_item {
    std::shared_ptr<job_state> job;
    uint32_t part = 0;
    device_sums sums;             // the key's curve
    std::vector<fr> inputs;       // BLS12-381 keys, starting with ONE
    int32_t prove_worker = -1;
    int32_t device = -1;
    uint64_t gpu_start_ns = 0;
    std::vector<bn254::fr> inputs_bn254;   // BN254 keys, starting with ONE
};

namespace detail {

struct engine_core {
    engine_config cfg;
    clock::time_point t0 = clock::now();

    mutable std::mutex mu;
    std::condition_variable cv_synth;   // work to dispatch, budget freed, lookahead slot freed, stop
    std::condition_variable cv_prove;   // lookahead item queued, stop
    std::condition_variable cv_tail;    // tail queued, stop
    bool stopping = false;

    std::vector<std::shared_ptr<const key_entry>> keys;
    std::mutex add_key_mu;   // serialises add_key (taken before mu)
    size_t keys_size() const
    {
        std::lock_guard lk(mu);
        return keys.size();
    }
    std::map<std::pair<int64_t, uint64_t>, std::shared_ptr<job_state>> dispatch;   // jobs with partitions left
    std::map<order_key, std::unique_ptr<work_item>> lookahead;
    std::set<order_key> slot_waiters;   // synthesised partitions waiting for a lookahead slot
    std::deque<tail_item> tails;
    std::unordered_map<std::string, std::shared_ptr<job_state>> live;
    uint64_t next_seq = 0;
    // Host budget: partitions in flight (reserved), the registered keys and
    // the backend's page-locked staging (resident_host), the reuse pools
    // (pooled); peak is the most their sum ever reached.
    uint64_t reserved = 0, peak = 0;
    uint64_t resident_host = 0, pooled = 0;
    uint64_t key_waiting = 0;             // host bytes of a key add_key waits to register (admission leaves room)
    uint64_t max_partition_bytes = 0;     // the largest partition estimate of a key whose jobs fit the budget
    std::vector<const void*> counted;     // proving keys and PCEs already counted in resident_host
    std::condition_variable cv_devmem;   // device budget freed, stop
    std::vector<uint64_t> dev_reserved, dev_peak;   // per device: device parts in progress plus resident keys
    std::vector<uint64_t> dev_mem_next, dev_mem_turn;   // per device: reservation tickets (under a budget)
    uint64_t resident_total = 0;          // resident key bytes (on every device)
    uint64_t max_device_bytes = 0;        // the largest device estimate of a key whose parts fit the budget
    uint64_t next_call = 0;
    engine_stats counters;

    std::vector<std::unique_ptr<detail::fifo_mutex>> device_locks;   // served in arrival order
    std::vector<int> numbers;                  // per device: CUDA device number (cuda) or index (cpu)
    std::vector<unsigned> consecutive_errors;  // per device: device errors in a row
    unsigned live_devices = 0;                 // devices not excluded
    std::vector<std::thread> threads;

    uint64_t now_ns() const noexcept
    {
        return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(clock::now() - t0).count());
    }

    // ---- timeline ------------------------------------------------------------------

    using detail_list = std::initializer_list<std::pair<const char*, std::string>>;

    void emit(timeline::phase ph, std::string_view name, const job_state* job, int32_t part, int32_t worker,
              int32_t device, detail_list details = {}) noexcept
    {
        if (!cfg.sink) return;
        emit_at(now_ns(), ph, name, job, part, worker, device, details);
    }
    void emit_at(uint64_t t_ns, timeline::phase ph, std::string_view name, const job_state* job, int32_t part,
                 int32_t worker, int32_t device, detail_list details = {}) noexcept
    {
        if (!cfg.sink) return;
        try {
            timeline::event e;
            e.t_ns = t_ns;
            e.ph = ph;
            e.name.assign(name);
            if (job) e.job = job->id;
            e.partition = part;
            e.worker = worker;
            e.device = device;
            e.details.reserve(details.size());
            for (const auto& [k, v] : details) e.details.emplace_back(k, v);
            cfg.sink->record(e);
        } catch (...) {   // out of memory while building the event: drop it
        }
    }

    // The engine clock's reading of a steady_clock time point (0 before the start).
    uint64_t to_engine_ns(clock::time_point t) const noexcept
    {
        return t <= t0 ? 0 : uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(t - t0).count());
    }

    // Spans of the device part. On the CPU backend they come from the host
    // brackets (step_begin / step_end). With device_timed (the cuda backend)
    // the host brackets are ignored and each step is emitted from the
    // interval the device measured (step_span), converted to the engine
    // clock; such events reach the sink after the step, out of time order
    // (the analysis sorts by time).
    struct span_observer final : groth16::prove_observer {
        engine_core* eng;
        const job_state* job;
        int32_t part, worker, device;
        bool device_timed;
        span_observer(engine_core* e, const job_state* j, int32_t p, int32_t w, int32_t d, bool dt)
            : eng(e), job(j), part(p), worker(w), device(d), device_timed(dt)
        {
        }
        void at(uint64_t t, timeline::phase ph, std::string_view step, std::string_view query) noexcept
        {
            if (query.empty()) eng->emit_at(t, ph, step, job, part, worker, device);
            else eng->emit_at(t, ph, step, job, part, worker, device, {{"query", std::string(query)}});
        }
        void step_begin(std::string_view step, std::string_view query) noexcept override
        {
            if (!device_timed) at(eng->now_ns(), timeline::phase::begin, step, query);
        }
        void step_end(std::string_view step, std::string_view query) noexcept override
        {
            if (!device_timed) at(eng->now_ns(), timeline::phase::end, step, query);
        }
        void step_span(std::string_view step, std::string_view query, clock::time_point begin,
                       clock::time_point end) noexcept override
        {
            if (!device_timed) return;
            const uint64_t b = eng->to_engine_ns(begin);
            at(b, timeline::phase::begin, step, query);
            at(std::max(b, eng->to_engine_ns(end)), timeline::phase::end, step, query);
        }
    };

    // ---- budget (mu held) ---------------------------------------------------------------

    uint64_t host_in_use() const noexcept { return reserved + resident_host + pooled + key_waiting; }
    void note_peak() noexcept { peak = std::max(peak, reserved + resident_host + pooled); }
    // Whether `bytes` more fit the host budget now.
    bool host_fits(uint64_t bytes) const noexcept
    {
        return cfg.host_memory_budget == 0 || host_in_use() + bytes <= cfg.host_memory_budget;
    }
    // Frees pooled buffers until `bytes` more fit or the pools are empty;
    // true when they fit. The buffers are moved into `dropped`, to be freed
    // once mu is released.
    struct dropped_buffers {
        std::vector<std::vector<fr>> aux;
        std::vector<std::unique_ptr<gpu_packed_witness>> packed;
    };
    bool make_room(uint64_t bytes, dropped_buffers& dropped)
    {
        while (!host_fits(bytes) && (!aux_pool.empty() || !packed_pool.empty())) {
            if (!packed_pool.empty()) {
                pooled -= packed_pool.back()->host_bytes();
                dropped.packed.push_back(std::move(packed_pool.back()));
                packed_pool.pop_back();
            } else {
                pooled -= aux_pool.back().size() * sizeof(fr);
                dropped.aux.push_back(std::move(aux_pool.back()));
                aux_pool.pop_back();
            }
        }
        return host_fits(bytes);
    }

    void release_locked(uint64_t& bytes)
    {
        if (bytes == 0) return;
        reserved -= bytes;
        bytes = 0;
        cv_synth.notify_all();
    }
    void release(uint64_t& bytes)
    {
        if (bytes == 0) return;
        std::lock_guard lk(mu);
        release_locked(bytes);
    }

    // ---- ending a job ------------------------------------------------------------------

    // Ends the job with `st` unless it has ended already; true when this call
    // ended it. Must be called without mu held.
    bool finish(const std::shared_ptr<job_state>& job, job_status st, std::string message, errc code, int part)
    {
        if (job->ending.exchange(true)) return false;
        // 1. Take it out of the engine: no new work starts for it, and
        //    what is queued gives its memory back.
        {
            std::lock_guard lk(mu);
            auto it = live.find(job->id);
            if (it != live.end() && it->second == job) live.erase(it);
            dispatch.erase(std::pair<int64_t, uint64_t>{-int64_t(job->priority), job->seq});
            job->inputs.clear();
            for (auto i = lookahead.begin(); i != lookahead.end();) {
                if (i->second->job == job) {
                    release_locked(i->second->reserved);
                    i = lookahead.erase(i);
                } else {
                    ++i;
                }
            }
            if (st == job_status::completed) ++counters.jobs_completed;
            else if (st == job_status::failed) ++counters.jobs_failed;
            else ++counters.jobs_cancelled;
            cv_synth.notify_all();
        }
        // 2. Publish the result and wake the waiters.
        {
            std::lock_guard lk(job->m);
            job_result& r = job->result;
            r.id = job->id;
            r.status = st;
            r.message = std::move(message);
            r.code = code;
            r.failed_partition = st == job_status::failed ? part : -1;
            r.submitted_ns = job->submitted_ns;
            r.ended_ns = now_ns();
            if (st == job_status::completed) r.partitions = std::move(job->results);
            job->results.clear();
            job->status.store(st);
            job->published = true;
        }
        job->cv.notify_all();
        // 3. Timeline and callback.
        if (st == job_status::completed) {
            emit(timeline::phase::instant, "JOB_DONE", job.get(), -1, -1, -1,
                 {{"partitions", std::to_string(job->n_parts)}});
        } else if (st == job_status::failed) {
            emit(timeline::phase::instant, "JOB_FAILED", job.get(), part, -1, -1,
                 {{"code", errc_name(code)}, {"message", job->result.message}});
        } else {
            emit(timeline::phase::instant, "JOB_CANCELLED", job.get(), -1, -1, -1,
                 {{"message", job->result.message}});
        }
        if (job->on_done) {
            try {
                job->on_done(job->result);
            } catch (...) {   // a throwing callback must not take a worker down
            }
        }
        return true;
    }

    bool fail(const std::shared_ptr<job_state>& job, uint32_t part, errc code, const std::string& what)
    {
        return finish(job, job_status::failed, fmt::format("job {}: partition {}: {}", job->id, part, what), code,
                      int(part));
    }

    // What went wrong in a step of a partition.
    struct failure {
        errc code = errc::ok;
        std::string what;
    };

    // Runs f and turns any exception into a failure (reported by the caller
    // once it holds no lock: ending a job runs the host's callback).
    template <class F>
    static std::optional<failure> capture(F&& f) noexcept
    {
        try {
            f();
            return std::nullopt;
        } catch (const error& e) {
            return failure{e.code(), e.what()};
        } catch (const std::bad_alloc&) {
            return failure{errc::out_of_memory, "out of host memory"};
        } catch (const std::exception& e) {
            return failure{errc::internal, fmt::format("exception: {}", e.what())};
        } catch (...) {
            return failure{errc::internal, "unknown exception"};
        }
    }

    bool fail(const std::shared_ptr<job_state>& job, uint32_t part, const failure& f)
    {
        return fail(job, part, f.code, f.what);
    }

    // ---- packed witnesses ------------------------------------------------------------
    // gpu_packed_witness objects are reused: their page-locked buffers are
    // slow to allocate. At most one per partition in flight exists. In use,
    // one is part of its partition's reservation; in the pool, its bytes
    // count in `pooled`, and it is kept only while the host budget has room.
    std::vector<std::unique_ptr<gpu_packed_witness>> packed_pool;   // under mu
    std::unique_ptr<gpu_packed_witness> take_packed()
    {
        {
            std::lock_guard lk(mu);
            if (!packed_pool.empty()) {
                auto p = std::move(packed_pool.back());
                packed_pool.pop_back();
                pooled -= p->host_bytes();
                return p;
            }
        }
        return std::make_unique<gpu_packed_witness>();
    }
    void give_packed(std::unique_ptr<gpu_packed_witness> p)
    {
        if (!p) return;
        std::lock_guard lk(mu);
        if (!host_fits(p->host_bytes())) return;   // p is freed after the lock is released
        pooled += p->host_bytes();
        note_peak();
        packed_pool.push_back(std::move(p));
    }

    // ---- reusable aux vectors ----------------------------------------------------------
    // A circuit's witness() fills a vector of the right size without clearing
    // it first, which saves zero-filling gigabytes per partition (0.8 s for a
    // 32 GiB PoRep partition). Vectors freed once a partition no longer needs
    // its aux are kept here, at most synth_workers of them, and only while
    // the host budget has room for them (their bytes count in `pooled`).
    std::vector<std::vector<fr>> aux_pool;   // under mu
    std::vector<fr> take_aux(size_t n)
    {
        std::lock_guard lk(mu);
        for (auto& v : aux_pool)
            if (v.size() == n) {
                std::vector<fr> r = std::move(v);
                v = std::move(aux_pool.back());
                aux_pool.pop_back();
                pooled -= r.size() * sizeof(fr);
                return r;
            }
        return {};
    }
    void give_aux(std::vector<fr>& v)
    {
        std::vector<fr> old = std::move(v);   // freed after the lock when not kept
        v = {};
        if (old.empty()) return;
        std::lock_guard lk(mu);
        const uint64_t bytes = old.size() * sizeof(fr);
        if (aux_pool.size() >= cfg.synth_workers || !host_fits(bytes)) return;
        pooled += bytes;
        note_peak();
        aux_pool.push_back(std::move(old));
    }

    // ---- synthesis ---------------------------------------------------------------------

    // Sizes of a witness against the key, and input 0.
    static void check_witness(const key_entry& k, std::span<const fr> inputs, std::span<const fr> aux,
                              const char* what)
    {
        const groth16::proving_key& pk = *k.pk;
        if (inputs.size() != pk.num_inputs || aux.size() != pk.num_aux)
            throw error(errc::invalid_argument,
                        fmt::format("{} has {} inputs and {} aux, key {} expects {} and {}", what, inputs.size(),
                                    aux.size(), k.name, pk.num_inputs, pk.num_aux));
        if (!inputs[0].is_one())
            throw error(errc::invalid_argument, fmt::format("{}: input 0 must be the constant one", what));
    }

    // A host's array (borrowed): every value canonical in Montgomery form.
    void check_canonical(std::span<const fr> v, const char* what, unsigned threads) const
    {
        std::atomic<size_t> bad{SIZE_MAX};
        parallel_for(threads, v.size(), [&](size_t i0, size_t i1, unsigned) {
            for (size_t i = i0; i < i1 && i < bad.load(std::memory_order_relaxed); ++i)
                if (!fr::is_canonical(v[i].mont())) {
                    size_t cur = bad.load();
                    while (i < cur && !bad.compare_exchange_weak(cur, i)) {
                    }
                    return;
                }
        });
        if (bad.load() != SIZE_MAX)
            throw error(errc::non_canonical, fmt::format("the borrowed {}[{}] is not a canonical scalar (>= r in "
                                                         "Montgomery form)",
                                                         what, bad.load()));
    }

    // The device evaluates a, b, c: aux is packed here, in the synthesis
    // stage (a PACK span), and the owned vector given back or the host's
    // arrays released. Without page-locked memory aux goes to the device as
    // it is.
    void pack_aux(work_item& it, int32_t worker, unsigned th)
    {
        it.device_eval = true;
        std::unique_ptr<gpu_packed_witness> pw = take_packed();
        emit(timeline::phase::begin, "PACK", it.job.get(), int32_t(it.part), worker, -1);
        const auto err = capture([&] { pw->pack(it.aux_span(), th); });
        emit(timeline::phase::end, "PACK", it.job.get(), int32_t(it.part), worker, -1,
             {{"others", std::to_string(err ? 0 : pw->others())}});
        if (err) return;
        it.packed = std::move(pw);
        give_aux(it.aux);
        it.drop_borrowed();
        stage_packed(it);
    }

    // Starts the packed witness's copy to a device now, from the synthesis
    // stage (gpu_packed_witness::stage), so that it runs beside the kernels
    // of the partitions before it and the device part's H2D is the
    // expansion alone. The devices take turns; a partition proved on
    // another device, or whose staging failed (the device short of memory),
    // copies from the host in its device part as before.
    void stage_packed(work_item& it)
    {
        const key_entry& k = *it.job->key;
        if (!it.packed || k.gpu.empty() || k.snarkjs) return;
        const size_t d = stage_turn.fetch_add(1, std::memory_order_relaxed) % k.gpu.size();
        try {
            it.packed->stage(*k.gpu[d]);
        } catch (const std::exception&) {
            // left to the device part's own copy
        }
    }
    std::atomic<size_t> stage_turn{0};

    // A span of the synthesis stage (device −1): begins now, ends with the scope.
    class stage_span {
    public:
        stage_span(engine_core* e, const char* name, const work_item& it, int32_t worker)
            : e_(e), name_(name), job_(it.job.get()), part_(int32_t(it.part)), worker_(worker)
        {
            e_->emit(timeline::phase::begin, name_, job_, part_, worker_, -1);
        }
        ~stage_span() { e_->emit(timeline::phase::end, name_, job_, part_, worker_, -1); }
        stage_span(const stage_span&) = delete;
        stage_span& operator=(const stage_span&) = delete;

    private:
        engine_core* e_;
        const char* name_;
        const job_state* job_;
        int32_t part_, worker_;
    };

    // a, b, c = A·w, B·w, C·w on the host with the key's PCE (a PCE_EVAL
    // span), and the satisfaction check.
    void evaluate(work_item& it, int32_t worker, unsigned th)
    {
        const r1cs::pce& p = *it.job->key->pce;
        const stage_span pce_eval(this, "PCE_EVAL", it, worker);
        for (auto* v : {&it.a, &it.b, &it.c}) {
            v->reserve(it.job->key->pk->domain_size);   // room for the input rows and the NTT domain
            v->resize(p.num_constraints);
        }
        r1cs::evaluate(p, it.inputs, it.aux_span(), it.a, it.b, it.c, th);
        if (auto bad = r1cs::first_unsatisfied(it.a, it.b, it.c, th))
            throw error(errc::unsatisfied, fmt::format("constraint {} of {} is not satisfied by the witness (a·b != c)",
                                                       *bad, p.num_constraints));
    }

    // A snarkjs key's full witness: its size and value 0 (either curve).
    template <class F>
    static void check_full_witness(const key_entry& k, size_t n_vars, std::span<const F> w)
    {
        if (w.size() != n_vars)
            throw error(errc::invalid_argument,
                        fmt::format("the witness has {} values, key {} expects {}", w.size(), k.name, n_vars));
        if (!w[0].is_one()) throw error(errc::invalid_argument, "the witness: value 0 must be the constant one");
    }

    // A BN254 key's partition: the full witness, then on the cpu backend
    // A·w and B·w (PCE_EVAL); the cuda backend evaluates them on the device
    // (gpu_prove_start_snarkjs from the witness), as for BLS12-381 snarkjs keys.
    void synthesize_bn254(work_item& it, partition& in, int32_t worker)
    {
        const key_entry& k = *it.job->key;
        const groth16::proving_key_t<bn254_curve>& pk = *k.bn->pk;
        auto* bw = std::get_if<bn254_witness_partition>(&in);
        if (!bw)
            throw error(errc::invalid_argument,
                        fmt::format("key {} is a BN254 key: partitions must be bn254_witness_partition", k.name));
        std::vector<bn254::fr> w = std::move(bw->w);
        check_full_witness<bn254::fr>(k, size_t(pk.num_inputs) + pk.num_aux, w);
        it.bn.inputs.assign(w.begin(), w.begin() + pk.num_inputs);
        if (!k.bn->gpu.empty()) {
            it.bn.w = std::move(w);
            return;
        }
        const stage_span pce_eval(this, "PCE_EVAL", it, worker);
        groth16::snarkjs_evaluate_ab(pk, w, it.bn.a, it.bn.b, cfg.synth_threads);
        it.bn.w = std::move(w);
    }

    // A snarkjs key's partition: the whole witness; A·w and B·w from the
    // key's coefficients (on the cuda backend on the device).
    void synthesize_snarkjs(work_item& it, partition& in, int32_t worker)
    {
        const key_entry& k = *it.job->key;
        const groth16::proving_key& pk = *k.pk;
        std::vector<fr> w;
        if (auto* fw = std::get_if<full_witness_partition>(&in)) {
            w = std::move(fw->w);
        } else if (auto* wp = std::get_if<witness_partition>(&in)) {
            w = std::move(wp->inputs);
            w.insert(w.end(), wp->aux.begin(), wp->aux.end());
            wp->aux = {};
        } else {
            throw error(errc::invalid_argument,
                        fmt::format("key {} is a snarkjs key: partitions must be witnesses", k.name));
        }
        check_full_witness<fr>(k, size_t(pk.num_inputs) + pk.num_aux, w);
        it.inputs.assign(w.begin(), w.begin() + pk.num_inputs);
        if (!k.gpu.empty()) {   // gpu_prove_start_snarkjs evaluates A·w and B·w on the device
            it.w = std::move(w);
            return;
        }
        const stage_span pce_eval(this, "PCE_EVAL", it, worker);
        groth16::snarkjs_evaluate_ab(pk, w, it.a, it.b, cfg.synth_threads);
        it.w = std::move(w);
    }

    // a, b, c given: sizes against the key and the domain, and a·b = c.
    void check_abc(const work_item& it, unsigned th) const
    {
        const key_entry& k = *it.job->key;
        const std::span<const fr> a = it.a_span(), b = it.b_span(), c = it.c_span();
        if (b.size() != a.size() || c.size() != a.size())
            throw error(errc::invalid_argument,
                        fmt::format("a, b, c have {}, {}, {} rows", a.size(), b.size(), c.size()));
        if (a.size() + k.pk->num_inputs > k.pk->domain_size)
            throw error(errc::invalid_argument,
                        fmt::format("{} rows plus {} input rows do not fit the key's domain of {}", a.size(),
                                    k.pk->num_inputs, k.pk->domain_size));
        if (k.pce && a.size() != k.pce->num_constraints)
            throw error(errc::invalid_argument, fmt::format("a, b, c have {} rows, key {} has {} constraints",
                                                            a.size(), k.name, k.pce->num_constraints));
        if (auto bad = r1cs::first_unsatisfied(a, b, c, th))
            throw error(errc::unsatisfied, fmt::format("row {} of a, b, c is not satisfied (a·b != c)", *bad));
    }

    // The host's a, b, c: borrowed by the cuda device part, copied on the
    // cpu backend (its NTTs work in place) and released.
    void take_borrowed_abc(work_item& it, borrowed_abc_partition& bp, unsigned th)
    {
        it.inputs.assign(bp.inputs.begin(), bp.inputs.end());
        it.borrowed_aux = bp.aux;
        it.borrowed_a = bp.a;
        it.borrowed_b = bp.b;
        it.borrowed_c = bp.c;
        it.hold = std::move(bp.hold);
        it.borrowed = true;
        check_witness(*it.job->key, it.inputs, it.aux_span(), "the borrowed assignment");
        check_canonical(bp.inputs, "inputs", 1);
        for (auto [v, name] : {std::pair{bp.aux, "aux"}, {bp.a, "a"}, {bp.b, "b"}, {bp.c, "c"}})
            check_canonical(v, name, th);
        if (!it.job->key->gpu.empty()) return;
        it.aux.assign(bp.aux.begin(), bp.aux.end());
        it.a.assign(bp.a.begin(), bp.a.end());
        it.b.assign(bp.b.begin(), bp.b.end());
        it.c.assign(bp.c.begin(), bp.c.end());
        it.drop_borrowed();
    }

    // The witness of a bellperson-key partition, in it.inputs and it.aux
    // (owned) or it.borrowed_aux (the host's); false for an abc form (a, b,
    // c given, nothing to evaluate).
    bool take_witness(work_item& it, partition& in, unsigned th)
    {
        const key_entry& k = *it.job->key;
        const groth16::proving_key& pk = *k.pk;
        if (auto* fw = std::get_if<full_witness_partition>(&in)) {
            if (fw->w.size() < pk.num_inputs)
                throw error(errc::invalid_argument, fmt::format("the witness has {} values, key {} has {} inputs",
                                                                fw->w.size(), k.name, pk.num_inputs));
            it.inputs.assign(fw->w.begin(), fw->w.begin() + pk.num_inputs);
            it.aux.assign(fw->w.begin() + pk.num_inputs, fw->w.end());
            fw->w = {};
        } else if (auto* cp = std::get_if<circuit_partition>(&in)) {
            // A circuit's own (parallel) witness path when it has one, on
            // the synthesis threads; otherwise synthesis on a witness_cs.
            it.aux = take_aux(pk.num_aux);
            if (!cp->circuit->witness(it.inputs, it.aux, th)) {
                r1cs::witness_cs cs;
                cs.reserve(pk.num_inputs, pk.num_aux);
                cp->circuit->synthesize(cs);
                it.inputs = cs.take_inputs();
                it.aux = cs.take_aux();
            }
        } else if (auto* wp = std::get_if<witness_partition>(&in)) {
            it.inputs = std::move(wp->inputs);
            it.aux = std::move(wp->aux);
        } else if (auto* bw = std::get_if<borrowed_witness_partition>(&in)) {
            it.inputs.assign(bw->inputs.begin(), bw->inputs.end());
            it.borrowed_aux = bw->aux;
            it.hold = std::move(bw->hold);
            it.borrowed = true;
            check_witness(k, it.inputs, it.aux_span(), "the borrowed witness");
            check_canonical(bw->inputs, "inputs", 1);
            check_canonical(bw->aux, "aux", th);
        } else if (auto* bp = std::get_if<borrowed_abc_partition>(&in)) {
            take_borrowed_abc(it, *bp, th);
            return false;
        } else {
            auto& ap = std::get<abc_partition>(in);
            it.inputs = std::move(ap.inputs);
            it.aux = std::move(ap.aux);
            it.a = std::move(ap.a);
            it.b = std::move(ap.b);
            it.c = std::move(ap.c);
            check_witness(k, it.inputs, it.aux, "the assignment");
            return false;
        }
        check_witness(k, it.inputs, it.aux_span(), "the witness");
        return true;
    }

    // A circuit with a sliced witness path (r1cs::circuit::witness_packed)
    // fills a packed witness directly: no aux vector, no PACK pass. False
    // (nothing taken) for other partitions and circuits without that path.
    bool synthesize_packed(work_item& it, partition& in, unsigned th)
    {
        auto* cp = std::get_if<circuit_partition>(&in);
        if (!cp) return false;
        std::unique_ptr<gpu_packed_witness> pw = take_packed();
        bool done = false;
        try {
            done = cp->circuit->witness_packed(it.inputs, *pw, th);
        } catch (...) {
            give_packed(std::move(pw));
            throw;
        }
        if (!done) {
            give_packed(std::move(pw));
            return false;
        }
        const key_entry& k = *it.job->key;
        const groth16::proving_key& pk = *k.pk;
        if (it.inputs.size() != pk.num_inputs || pw->size() != pk.num_aux || !it.inputs[0].is_one()) {
            const size_t aux = pw->size();
            give_packed(std::move(pw));
            throw error(errc::invalid_argument,
                        fmt::format("the circuit's packed witness has {} inputs and {} aux (input 0 {}), key {} "
                                    "expects {} and {} (input 0 one)",
                                    it.inputs.size(), aux, it.inputs.empty() || !it.inputs[0].is_one() ? "not one" : "one",
                                    k.name, pk.num_inputs, pk.num_aux));
        }
        it.device_eval = true;
        it.packed = std::move(pw);
        stage_packed(it);
        return true;
    }

    // The witness and a, b, c of one partition; throws on any problem.
    void synthesize(work_item& it, partition& in, int32_t worker)
    {
        const key_entry& k = *it.job->key;
        const unsigned th = cfg.synth_threads;
        if (k.bn) return synthesize_bn254(it, in, worker);
        if (k.snarkjs) return synthesize_snarkjs(it, in, worker);
        // The cuda backend evaluates witnesses of a key with a PCE on the device.
        const bool device_eval = !k.gpu.empty() && k.gpu[0]->has_pce();
        if (device_eval && synthesize_packed(it, in, th)) return;
        if (!take_witness(it, in, th)) return check_abc(it, th);
        if (device_eval) pack_aux(it, worker, th);
        else evaluate(it, worker, th);
    }

    void synth_loop(int32_t worker)
    {
        std::unique_lock lk(mu);
        for (;;) {
            // Wait until the head of the dispatch order exists and fits the budget.
            std::shared_ptr<job_state> mem_wait_job;
            uint32_t mem_wait_part = 0;
            dropped_buffers dropped;   // pooled buffers given up for room, freed below without mu
            for (;;) {
                if (stopping) break;
                if (!dispatch.empty()) {
                    const auto& head = dispatch.begin()->second;
                    const uint64_t need = head->key->partition_bytes;
                    if (make_room(need, dropped)) break;
                    if (mem_wait_job != head) {
                        if (mem_wait_job)
                            emit(timeline::phase::end, "MEM_WAIT", mem_wait_job.get(), int32_t(mem_wait_part), worker, -1);
                        mem_wait_job = head;
                        mem_wait_part = head->next_dispatch;
                        emit(timeline::phase::begin, "MEM_WAIT", head.get(), int32_t(mem_wait_part), worker, -1,
                             {{"bytes", std::to_string(need)}});
                    }
                }
                cv_synth.wait(lk);
            }
            if (mem_wait_job) emit(timeline::phase::end, "MEM_WAIT", mem_wait_job.get(), int32_t(mem_wait_part), worker, -1);
            if (stopping) return;

            auto dit = dispatch.begin();
            std::shared_ptr<job_state> job = dit->second;
            auto item = std::make_unique<work_item>();
            item->job = job;
            item->part = job->next_dispatch++;
            partition input = std::move(job->inputs[item->part]);
            if (job->next_dispatch == job->n_parts) dispatch.erase(dit);
            item->reserved = job->key->partition_bytes;
            reserved += item->reserved;
            note_peak();
            job_status queued = job_status::queued;
            job->status.compare_exchange_strong(queued, job_status::running);
            lk.unlock();
            dropped = {};

            bool ok = false;
            double synth_ms = 0;
            if (!job->ending.load()) {
                const uint64_t t_start = now_ns();
                emit(timeline::phase::instant, "SYNTH_START", job.get(), int32_t(item->part), worker, -1);
                const auto err = capture([&] { synthesize(*item, input, worker); });
                ok = !err;
                if (err) {
                    // The host's arrays are released before the job ends, so
                    // that a waiter sees them free.
                    item->drop_borrowed();
                    input = partition{};
                    fail(job, item->part, *err);
                }
                if (ok) synth_ms = ms(now_ns() - t_start);
            }
            input = partition{};   // drop the host's copy (a circuit may hold its own data)

            lk.lock();
            const order_key key{-int64_t(job->priority), job->seq, item->part};
            if (ok) {
                // A free slot goes to the waiting partition first in the
                // queue's order, not to whichever worker wakes first (which
                // let later jobs' partitions pass one of an earlier job for
                // 16 s on the H200).
                slot_waiters.insert(key);
                // Emitted once the partition is in line for a slot, so that
                // SYNTH_END … CHAN_SEND is exactly its wait.
                emit(timeline::phase::instant, "SYNTH_END", job.get(), int32_t(item->part), worker, -1,
                     {{"synth_ms", fmt::format("{:.3f}", synth_ms)}});
                cv_synth.wait(lk, [&] {
                    return stopping || job->ending.load() ||
                           (lookahead.size() < cfg.lookahead && *slot_waiters.begin() == key);
                });
                slot_waiters.erase(key);
                cv_synth.notify_all();   // the next waiter may have a slot too
            }
            if (!ok || stopping || job->ending.load()) {
                release_locked(item->reserved);
                continue;
            }
            emit(timeline::phase::instant, "CHAN_SEND", job.get(), int32_t(item->part), worker, -1);
            lookahead.emplace(key, std::move(item));
            cv_prove.notify_one();
        }
    }

    // ---- device part -----------------------------------------------------------------

    void prove_loop(int32_t worker, int32_t device)
    {
        const size_t per_call = std::max(1u, cfg.partitions_per_call);
        std::vector<std::unique_ptr<work_item>> batch;
        batch.reserve(per_call);
        std::unique_lock lk(mu);
        for (;;) {
            cv_prove.wait(lk, [&] { return stopping || counters.device_excluded[size_t(device)] || !lookahead.empty(); });
            if (stopping || counters.device_excluded[size_t(device)]) return;
            // The head of the order, then what follows it while it is of the same key.
            const key_entry* key = lookahead.begin()->second->job->key.get();
            const uint64_t call_no = next_call++;
            const std::string call = cfg.sink ? std::to_string(call_no) : std::string();
            while (batch.size() < per_call && !lookahead.empty() && lookahead.begin()->second->job->key.get() == key) {
                auto node = lookahead.extract(lookahead.begin());
                batch.push_back(std::move(node.mapped()));
                emit(timeline::phase::instant, "GPU_PICKUP", batch.back()->job.get(), int32_t(batch.back()->part),
                     worker, device, {{"call", call}});
            }
            cv_synth.notify_all();   // lookahead slots are free
            lk.unlock();
            device_call(batch, *key, worker, device);
            batch.clear();
            lk.lock();
        }
    }

    // Reserves `bytes` of the device's budget, waiting while it is short;
    // false when the engine stops first. Under a budget the reservations are
    // granted in arrival order (a ticket each), so that a worker back from
    // its call cannot take the memory again before one already waiting.
    bool reserve_device(uint64_t bytes, const job_state* job, int32_t part, int32_t worker, int32_t device)
    {
        std::unique_lock lk(mu);
        const size_t d = size_t(device);
        uint64_t& r = dev_reserved[d];
        if (cfg.device_memory_budget != 0) {
            const uint64_t ticket = dev_mem_next[d]++;
            auto ready = [&] { return dev_mem_turn[d] == ticket && r + bytes <= cfg.device_memory_budget; };
            if (!ready()) {
                emit(timeline::phase::begin, "DEV_MEM_WAIT", job, part, worker, device, {{"bytes", std::to_string(bytes)}});
                cv_devmem.wait(lk, [&] { return stopping || ready(); });
                emit(timeline::phase::end, "DEV_MEM_WAIT", job, part, worker, device);
            }
            ++dev_mem_turn[d];
            cv_devmem.notify_all();   // the next ticket may fit as well
            if (stopping) return false;
        }
        r += bytes;
        dev_peak[size_t(device)] = std::max(dev_peak[size_t(device)], r);
        return true;
    }
    void release_device(uint64_t bytes, int32_t device)
    {
        {
            std::lock_guard lk(mu);
            dev_reserved[size_t(device)] -= bytes;
        }
        cv_devmem.notify_all();
    }

    // One prove call: the device parts of `batch` (partitions of key k, in
    // order) in one hold of the device lock, with one partition's device
    // bytes reserved around it; each partition's tail is handed on as soon
    // as its device part ends.
    void device_call(std::vector<std::unique_ptr<work_item>>& batch, const key_entry& k, int32_t worker,
                     int32_t device)
    {
        // Partitions of jobs that have ended are dropped here, and again
        // before each device part.
        auto live = [&](work_item& it) {
            if (!it.job->ending.load()) return true;
            release(it.reserved);
            return false;
        };
        size_t first = 0;
        while (first < batch.size() && !live(*batch[first])) ++first;
        if (first == batch.size()) return;

        work_item& head = *batch[first];
        uint64_t gpu_start = now_ns();
        emit(timeline::phase::instant, "GPU_START", head.job.get(), int32_t(head.part), worker, device);
        const uint64_t dev_bytes = k.device_bytes;
        if (!reserve_device(dev_bytes, head.job.get(), int32_t(head.part), worker, device)) {
            for (size_t i = first; i < batch.size(); ++i) release(batch[i]->reserved);
            return;
        }
        // The place in line first, then the wait's event: a LOCK_WAIT span
        // sees only calls that were ahead of it.
        detail::fifo_mutex& dev_lock = *device_locks[size_t(device)];
        const uint64_t ticket = dev_lock.take();
        emit(timeline::phase::begin, "LOCK_WAIT", head.job.get(), int32_t(head.part), worker, device);
        dev_lock.wait(ticket);
        std::unique_lock dev(dev_lock, std::adopt_lock);
        emit(timeline::phase::end, "LOCK_WAIT", head.job.get(), int32_t(head.part), worker, device);
        const uint64_t t_busy = now_ns();
        uint64_t proved = 0;
        std::vector<tail_item> own_tails;   // tail_threads == 0: run after the lock
        // The call's last partition is handed on only after the lock, the
        // device bytes and the counters are released: once every job has
        // ended and the synthesis workers are idle, no call holds any of them.
        struct last_part {
            work_item* it;
            device_sums sums;
            std::optional<failure> err;
            uint64_t gpu_start;
        };
        std::optional<last_part> last;
        bool exclude_now = false;   // device_error_limit reached
        for (size_t i = first; i < batch.size(); ++i) {
            work_item& it = *batch[i];
            if (i != first) {
                if (!live(it)) continue;
                gpu_start = now_ns();
                emit(timeline::phase::instant, "GPU_START", it.job.get(), int32_t(it.part), worker, device);
            }
            if (last) hand_on(*last->it, last->sums, last->err, worker, device, last->gpu_start, own_tails);
            last.reset();
            device_sums sums;   // read only when err is empty
            // Device-timed spans come from the BLS12-381 cuda prover; the
            // BN254 one (and the cpu backend) bracket the steps on the host.
            span_observer obs(this, it.job.get(), int32_t(it.part), worker, device, !k.gpu.empty());
            auto err = capture([&] { sums = run_device_part(it, k, device, obs); });
            ++proved;
            if (err) err->what = fmt::format("{}: {}", device_name(device), err->what);
            exclude_now |= count_device_result(device, err);
            last = last_part{&it, sums, err, gpu_start};
        }
        dev.unlock();
        const uint64_t busy = now_ns() - t_busy;
        release_device(dev_bytes, device);
        {
            std::lock_guard lk(mu);
            counters.device_busy_ns[size_t(device)] += busy;
            counters.partitions_proved += proved;
            ++counters.device_calls;
        }
        if (last) hand_on(*last->it, last->sums, last->err, worker, device, last->gpu_start, own_tails);
        for (tail_item& t : own_tails) run_tail(t, worker);
        if (exclude_now)
            exclude(unsigned(device), fmt::format("{} consecutive device errors (device_error_limit)",
                                                  cfg.device_error_limit));
    }

    // ---- devices -----------------------------------------------------------------------

    // "device 1 (CUDA 3)" / "device 1 of the cpu backend", for messages.
    std::string device_name(int32_t device) const
    {
        if (cfg.backend == engine_backend::cuda)
            return fmt::format("device {} (CUDA {})", device, numbers[size_t(device)]);
        return fmt::format("device {} of the cpu backend", device);
    }

    // Counts a device part's outcome; true when the device has now failed
    // device_error_limit times in a row with a device error.
    bool count_device_result(int32_t device, const std::optional<failure>& err)
    {
        std::lock_guard lk(mu);
        const size_t d = size_t(device);
        ++counters.device_partitions[d];
        if (!err || err->code != errc::device) {
            consecutive_errors[d] = 0;
            return false;
        }
        ++counters.device_failures[d];
        return cfg.device_error_limit != 0 && ++consecutive_errors[d] >= cfg.device_error_limit;
    }

    // Takes device d out of service (see engine::exclude_device). Without mu.
    bool exclude(unsigned d, const std::string& reason)
    {
        std::vector<std::shared_ptr<job_state>> orphans;
        {
            std::lock_guard lk(mu);
            if (counters.device_excluded[d]) return false;
            counters.device_excluded[d] = 1;
            --live_devices;
            emit(timeline::phase::instant, "DEVICE_EXCLUDED", nullptr, -1, -1, int32_t(d), {{"reason", reason}});
            if (live_devices == 0)
                for (auto& [id, j] : live) orphans.push_back(j);
        }
        cv_prove.notify_all();
        std::sort(orphans.begin(), orphans.end(), [](const auto& x, const auto& y) { return x->seq < y->seq; });
        for (auto& j : orphans)
            finish(j, job_status::failed,
                   fmt::format("job {}: no device left to prove on ({} excluded: {})", j->id, device_name(int32_t(d)),
                               reason),
                   errc::device, -1);
        return true;
    }

    // The device part of one partition on the engine's backend.
    device_sums run_device_part(work_item& it, const key_entry& k, int32_t device, span_observer& obs)
    {
        if (k.bn && !k.bn->gpu.empty())
            return gpu_prove_start_snarkjs(*k.bn->gpu[size_t(device)], it.bn.w, &obs);
        if (!k.gpu.empty()) {
            const gpu_key& g = *k.gpu[size_t(device)];
            if (k.snarkjs) return gpu_prove_start_snarkjs(g, it.w, &obs);
            if (it.device_eval && it.packed) return gpu_prove_start_witness(g, it.inputs, *it.packed, &obs);
            if (it.device_eval) return gpu_prove_start_witness(g, it.inputs, it.aux_span(), &obs);
            return gpu_prove_start(g, it.a_span(), it.b_span(), it.c_span(), it.inputs, it.aux_span(), &obs);
        }
        // The CPU backend has the failure points of a device too (fault.hpp).
        fault::check(fault::point::alloc, "cpu prove: device scratch", device);
        fault::check(fault::point::copy, "cpu prove: H2D of the witness", device);
        fault::check(fault::point::kernel, "cpu prove: NTT", device);
        groth16::prove_options po;
        po.threads = cfg.device_threads;
        if (k.bn)
            return groth16::prove_start_snarkjs(*k.bn->pk, std::move(it.bn.a), std::move(it.bn.b),
                                                std::span<const bn254::fr>(it.bn.w), po, &obs);
        if (k.snarkjs) return groth16::prove_start_snarkjs(*k.pk, std::move(it.a), std::move(it.b), it.w, po, &obs);
        return groth16::prove_start(*k.pk, k.density, std::move(it.a), std::move(it.b), std::move(it.c), it.inputs,
                                    it.aux_span(), po, &obs);
    }

    // After a partition's device part: free what it no longer needs, report
    // a failure, or queue (or run) its CPU tail.
    void hand_on(work_item& it, const device_sums& sums, const std::optional<failure>& err, int32_t worker,
                 int32_t device, uint64_t gpu_start, std::vector<tail_item>& own_tails)
    {
        const std::shared_ptr<job_state> job = it.job;
        // What is left of the partition is a few points and the public inputs.
        // The reservation is returned first, so that the pools may keep the
        // buffers within the budget.
        it.a = {};
        it.b = {};
        it.c = {};
        it.w = {};
        std::vector<bn254::fr> inputs_bn254 = std::move(it.bn.inputs);
        it.bn = {};
        it.drop_borrowed();   // the host's arrays are free again
        release(it.reserved);
        give_aux(it.aux);
        give_packed(std::move(it.packed));
        if (err) {
            fail(job, it.part, *err);
            return;
        }
        if (job->ending.load()) return;

        tail_item t{job, it.part, sums, std::move(it.inputs), worker, device, gpu_start, std::move(inputs_bn254)};
        if (cfg.tail_threads == 0) {
            own_tails.push_back(std::move(t));
            return;
        }
        {
            std::lock_guard lk(mu);
            if (stopping) return;
            tails.push_back(std::move(t));
        }
        cv_tail.notify_one();
    }

    // ---- CPU tail ----------------------------------------------------------------------

    void tail_loop(int32_t worker)
    {
        std::unique_lock lk(mu);
        for (;;) {
            cv_tail.wait(lk, [&] { return stopping || !tails.empty(); });
            if (stopping) return;
            tail_item t = std::move(tails.front());
            tails.pop_front();
            lk.unlock();
            run_tail(t, worker);
            lk.lock();
        }
    }

    [[noreturn]] static void self_verify_failed()
    {
        throw error(errc::internal, "self-verify failed: the proof does not verify (a, b, c inconsistent with the "
                                    "witness, or a prover bug)");
    }

    // The tail of a BLS12-381 key's partition: blinding, the 192-byte
    // encoding, the public inputs, the self-verify.
    void finish_bls12_381(const key_entry& k, const tail_item& t, partition_result& res) const
    {
        res.proof = groth16::prove_finish(k.pk->vk, std::get<groth16::prove_sums>(t.sums));
        std::span<uint8_t, 192> out(res.bytes);
        g1_compress(res.proof.a, out.subspan<0, 48>());
        g2_compress(res.proof.b, out.subspan<48, 96>());
        g1_compress(res.proof.c, out.subspan<144, 48>());
        res.public_inputs.assign(t.inputs.begin() + 1, t.inputs.end());
        if (cfg.self_verify && !groth16::verify(k.pvk, res.proof, res.public_inputs)) self_verify_failed();
    }

    // The same for a BN254 key (no byte encoding).
    void finish_bn254(const key_entry::bn254_part& b, const tail_item& t, partition_result& res) const
    {
        res.curve = curve_id::bn254;
        res.proof_bn254 = groth16::prove_finish(b.pk->vk, std::get<groth16::prove_sums_t<bn254_curve>>(t.sums));
        res.public_inputs_bn254.assign(t.inputs_bn254.begin() + 1, t.inputs_bn254.end());
        if (cfg.self_verify &&
            !groth16::verify(b.pvk, res.proof_bn254, std::span<const bn254::fr>(res.public_inputs_bn254)))
            self_verify_failed();
    }

    void run_tail(tail_item& t, int32_t worker)
    {
        const std::shared_ptr<job_state>& job = t.job;
        if (job->ending.load()) return;
        const key_entry& k = *job->key;
        const int32_t part = int32_t(t.part);
        partition_result res;
        emit(timeline::phase::begin, "CPU_TAIL", job.get(), part, worker, -1);
        const auto err = capture([&] {
            if (k.bn) finish_bn254(*k.bn, t, res);
            else finish_bls12_381(k, t, res);
        });
        emit(timeline::phase::end, "CPU_TAIL", job.get(), part, worker, -1);
        if (err) {
            fail(job, t.part, *err);
            return;
        }
        emit(timeline::phase::instant, "GPU_END", job.get(), part, t.prove_worker, t.device,
             {{"gpu_ms", fmt::format("{:.3f}", ms(now_ns() - t.gpu_start_ns))}});
        bool complete = false;
        {
            std::lock_guard lk(job->m);
            if (job->published) return;
            job->results[t.part] = std::move(res);
            complete = ++job->parts_done == job->n_parts;
        }
        if (complete) finish(job, job_status::completed, "", errc::ok, -1);
    }
};

} // namespace detail

// ---- engine ---------------------------------------------------------------------------

namespace {

// The estimates' formulas (engine.hpp) over the domain n and the v variables.
uint64_t host_estimate(uint64_t n, uint64_t v)
{
    return 32 * v + 4 * 32 * n + 16 * n + v * (32 + 1 + 192) + (uint64_t{1} << 20);
}
uint64_t device_estimate(uint64_t n, uint64_t v) { return 32 * v + 4 * 32 * n + 32 * v + 16 * v + (uint64_t{1} << 20); }

template <class C>
uint64_t variables(const groth16::proving_key_t<C>& pk)
{
    return uint64_t(pk.num_inputs) + pk.num_aux;
}

} // namespace

uint64_t partition_bytes_estimate(const groth16::proving_key& pk)
{
    return host_estimate(pk.domain_size, variables(pk));
}
uint64_t device_bytes_estimate(const groth16::proving_key& pk)
{
    return device_estimate(pk.domain_size, variables(pk));
}
uint64_t partition_bytes_estimate(const groth16::proving_key_t<bn254_curve>& pk)
{
    return host_estimate(pk.domain_size, variables(pk));
}
uint64_t device_bytes_estimate(const groth16::proving_key_t<bn254_curve>& pk)
{
    return device_estimate(pk.domain_size, variables(pk));
}

const char* backend_name(engine_backend b) noexcept
{
    switch (b) {
    case engine_backend::cpu: return "cpu";
    case engine_backend::cuda: return "cuda";
    }
    return "?";
}

const char* status_name(job_status s) noexcept
{
    switch (s) {
    case job_status::queued: return "queued";
    case job_status::running: return "running";
    case job_status::completed: return "completed";
    case job_status::failed: return "failed";
    case job_status::cancelled: return "cancelled";
    }
    return "?";
}

namespace {

// The engine's devices: CUDA device numbers (cuda) or 0 … n−1 (cpu).
std::vector<int> resolve_devices(const engine_config& cfg)
{
    std::vector<int> out;
    if (cfg.backend == engine_backend::cpu) {
        if (!cfg.cuda_devices.empty())
            throw error(errc::invalid_argument, "engine: cuda_devices is for the cuda backend (the cpu backend takes devices)");
        for (unsigned d = 0; d < std::max(1u, cfg.devices); ++d) out.push_back(int(d));
        return out;
    }
    std::string why;
    if (!cuda_available(&why))
        throw error(errc::unsupported, fmt::format("engine: backend cuda is not available: {}", why));
    const int visible = cuda_device_count();
    if (!cfg.cuda_devices.empty()) {
        if (cfg.devices != 0 && cfg.devices != cfg.cuda_devices.size())
            throw error(errc::invalid_argument,
                        fmt::format("engine: devices is {} but cuda_devices names {}", cfg.devices,
                                    cfg.cuda_devices.size()));
        out = cfg.cuda_devices;
    } else {
        const int n = cfg.devices == 0 ? visible : int(std::min<unsigned>(cfg.devices, 1u << 16));
        for (int d = 0; d < n; ++d) out.push_back(d);
    }
    for (size_t i = 0; i < out.size(); ++i) {
        if (out[i] < 0 || out[i] >= visible)
            throw error(errc::invalid_argument, fmt::format("engine: CUDA device {} does not exist ({} visible)",
                                                            out[i], visible));
        if (std::find(out.begin(), out.begin() + long(i), out[i]) != out.begin() + long(i))
            throw error(errc::invalid_argument, fmt::format("engine: CUDA device {} is listed twice", out[i]));
    }
    return out;
}

} // namespace

engine::engine(const engine_config& cfg) : cfg_(cfg)
{
    if (cfg.synth_workers == 0 || cfg.lookahead == 0 || cfg.workers_per_device == 0 || cfg.partitions_per_call == 0)
        throw error(errc::invalid_argument,
                    fmt::format("engine: synth_workers ({}), lookahead ({}), workers_per_device ({}) and "
                                "partitions_per_call ({}) must be at least 1",
                                cfg.synth_workers, cfg.lookahead, cfg.workers_per_device, cfg.partitions_per_call));
    if (cfg.backend != engine_backend::cpu && cfg.backend != engine_backend::cuda)
        throw error(errc::invalid_argument, "engine: unknown backend");
    auto p = std::make_shared<detail::engine_core>();
    p->cfg = cfg;
    p->numbers = resolve_devices(cfg);
    const size_t n_dev = p->numbers.size();
    cfg_.devices = p->cfg.devices = unsigned(n_dev);
    cfg_.cuda_devices = p->cfg.cuda_devices = cfg.backend == engine_backend::cuda ? p->numbers : std::vector<int>{};
    p->live_devices = unsigned(n_dev);
    p->consecutive_errors.assign(n_dev, 0);
    p->counters.device_busy_ns.assign(n_dev, 0);
    p->counters.device_partitions.assign(n_dev, 0);
    p->counters.device_failures.assign(n_dev, 0);
    p->counters.device_excluded.assign(n_dev, 0);
    p->counters.device_numbers = p->numbers;
    p->dev_reserved.assign(n_dev, 0);
    p->dev_peak.assign(n_dev, 0);
    p->dev_mem_next.assign(n_dev, 0);
    p->dev_mem_turn.assign(n_dev, 0);
    if (cfg.backend == engine_backend::cuda) {
        // The backend's page-locked staging buffers (per device) count in the host budget.
        p->resident_host = gpu_staging_host_bytes() * n_dev;
        if (cfg.host_memory_budget != 0 && p->resident_host > cfg.host_memory_budget)
            throw error(errc::out_of_memory,
                        fmt::format("engine: the host memory budget of {} cannot hold the cuda backend's "
                                    "page-locked staging buffers ({} for {} devices)",
                                    human_size(cfg.host_memory_budget), human_size(p->resident_host), n_dev));
        p->peak = p->resident_host;
    }
    for (size_t d = 0; d < n_dev; ++d) p->device_locks.push_back(std::make_unique<detail::fifo_mutex>());
    p_ = std::move(p);
    // Worker numbers: synthesis, then prove workers (device-major), then tails.
    try {
        int32_t w = 0;
        for (unsigned i = 0; i < cfg.synth_workers; ++i, ++w) p_->threads.emplace_back([q = p_.get(), w] { q->synth_loop(w); });
        for (unsigned d = 0; d < cfg_.devices; ++d)
            for (unsigned i = 0; i < cfg.workers_per_device; ++i, ++w)
                p_->threads.emplace_back([q = p_.get(), w, d] { q->prove_loop(w, int32_t(d)); });
        for (unsigned i = 0; i < cfg.tail_threads; ++i, ++w) p_->threads.emplace_back([q = p_.get(), w] { q->tail_loop(w); });
    } catch (...) {
        {
            std::lock_guard lk(p_->mu);
            p_->stopping = true;
        }
        p_->cv_synth.notify_all();
        p_->cv_prove.notify_all();
        p_->cv_tail.notify_all();
        p_->cv_devmem.notify_all();
        for (auto& t : p_->threads) t.join();
        throw;
    }
}

engine::~engine()
{
    std::vector<std::shared_ptr<job_state>> pending;
    {
        std::lock_guard lk(p_->mu);
        p_->stopping = true;
        for (auto& [id, j] : p_->live) pending.push_back(j);
    }
    p_->cv_synth.notify_all();
    p_->cv_prove.notify_all();
    p_->cv_tail.notify_all();
    p_->cv_devmem.notify_all();
    std::sort(pending.begin(), pending.end(), [](const auto& x, const auto& y) { return x->seq < y->seq; });
    for (auto& j : pending) p_->finish(j, job_status::cancelled, fmt::format("job {}: engine shut down", j->id), errc::cancelled, -1);
    for (auto& t : p_->threads) t.join();
    {
        std::lock_guard lk(p_->mu);
        p_->lookahead.clear();
        p_->tails.clear();
        p_->dispatch.clear();
    }
    if (cfg_.sink) cfg_.sink->flush();
}

uint64_t engine::now_ns() const noexcept { return p_->now_ns(); }

namespace {

// Host bytes of a proving key's points and coefficients (either curve).
template <class C>
uint64_t key_host_bytes(const groth16::proving_key_t<C>& pk)
{
    const uint64_t g1 = pk.h.size() + pk.l.size() + pk.a.size() + pk.b_g1.size() + pk.vk.ic.size();
    return g1 * sizeof(typename C::g1_affine) + pk.b_g2.size() * sizeof(typename C::g2_affine) +
           pk.coefs.size() * sizeof(groth16::sparse_coef_t<C>);
}

// The device budget's checks for a new key (mu held); throws what add_key refuses.
void check_device_budget(const detail::engine_core& c, const key_entry& e)
{
    const uint64_t budget = c.cfg.device_memory_budget;
    if (budget == 0) return;
    // The resident keys must fit, and leave room for the device part of
    // every key whose jobs are admitted (those whose part fitted when
    // they were added): queued work must never become impossible.
    // A key whose own part does not fit is registered; submit() refuses
    // its jobs.
    const uint64_t resident = c.resident_total + e.resident_bytes;
    if (resident > budget)
        throw error(errc::out_of_memory,
                    fmt::format("add_key {}: the device memory budget of {} cannot hold the resident keys ({} with "
                                "this one)",
                                e.name, size_text(budget), size_text(resident)));
    if (c.max_device_bytes > budget - resident)
        throw error(errc::out_of_memory,
                    fmt::format("add_key {}: with this key resident ({}) the device memory budget of {} no longer "
                                "has room for a device part of {} of an earlier key",
                                e.name, size_text(e.resident_bytes), size_text(budget),
                                size_text(c.max_device_bytes)));
}

// The same for the host budget: the registered keys (and the backend's
// page-locked staging) must fit and leave room for a partition of every key
// whose jobs are admitted.
void check_host_budget(const detail::engine_core& c, const key_entry& e)
{
    const uint64_t budget = c.cfg.host_memory_budget;
    if (budget == 0) return;
    const uint64_t resident = c.resident_host + e.host_bytes;
    if (resident > budget)
        throw error(errc::out_of_memory,
                    fmt::format("add_key {}: the host memory budget of {} cannot hold the registered keys ({} with "
                                "this one)",
                                e.name, size_text(budget), size_text(resident)));
    if (c.max_partition_bytes > budget - resident)
        throw error(errc::out_of_memory,
                    fmt::format("add_key {}: with this key ({} of host memory) the host memory budget of {} no "
                                "longer has room for a partition of {} of an earlier key",
                                e.name, size_text(e.host_bytes), size_text(budget),
                                size_text(c.max_partition_bytes)));
}

// The sizes add_key checks in a bellperson key: a proving key's vectors, or
// a mapped .params file's counts (domain |h| + 1, inputs |ic|, aux |l|).
struct bellperson_counts {
    uint64_t n = 0;
    size_t ni = 0, na = 0;
    size_t h = 0, l = 0, ic = 0, a = 0, b1 = 0, b2 = 0;
};

bellperson_counts counts_of(const groth16::proving_key& pk)
{
    return {pk.domain_size, pk.num_inputs, pk.num_aux, pk.h.size(), pk.l.size(), pk.vk.ic.size(),
            pk.a.size(),    pk.b_g1.size(), pk.b_g2.size()};
}

bellperson_counts counts_of(const io::mapped_params& mp)
{
    using q = io::params_query;
    const size_t ic = mp.vk().ic.size(), l = mp.count(q::l);
    return {uint64_t(mp.count(q::h)) + 1, ic, l, mp.count(q::h), l, ic, mp.count(q::a), mp.count(q::b_g1),
            mp.count(q::b_g2)};
}

// add_key's checks of a bellperson key against its density and PCE; throws
// errc::invalid_argument naming the mismatch.
void check_bellperson(const std::string& nm, const bellperson_counts& k, const groth16::query_density& density,
                      const r1cs::pce* pce)
{
    const uint64_t n = k.n;
    if (n == 0 || (n & (n - 1)) != 0 || k.h + 1 != n || k.l != k.na || k.ic != k.ni || k.ni == 0)
        throw error(errc::invalid_argument,
                    fmt::format("add_key {}: inconsistent key (domain {}, {} H points, {} L points for {} aux, {} IC "
                                "points for {} inputs)",
                                nm, n, k.h, k.l, k.na, k.ic, k.ni));
    if (density.a_aux.size() != k.na || density.b_aux.size() != k.na || density.b_input.size() != k.ni)
        throw error(errc::invalid_argument, fmt::format("add_key {}: density bitmaps do not match the key's {} inputs "
                                                        "and {} aux", nm, k.ni, k.na));
    const size_t na = k.ni + size_t(std::count(density.a_aux.begin(), density.a_aux.end(), true));
    const size_t nb = size_t(std::count(density.b_input.begin(), density.b_input.end(), true)) +
                      size_t(std::count(density.b_aux.begin(), density.b_aux.end(), true));
    if (na != k.a || nb != k.b1 || nb != k.b2)
        throw error(errc::invalid_argument,
                    fmt::format("add_key {}: the density selects {} A and {} B points, the key has {}, {} and {}", nm,
                                na, nb, k.a, k.b1, k.b2));
    if (!pce) return;
    if (pce->num_inputs != k.ni || pce->num_aux != k.na)
        throw error(errc::invalid_argument, fmt::format("add_key {}: the PCE has {} inputs and {} aux, the key {} and {}",
                                                        nm, pce->num_inputs, pce->num_aux, k.ni, k.na));
    if (pce->num_constraints + k.ni > n)
        throw error(errc::invalid_argument,
                    fmt::format("add_key {}: {} constraints plus {} input rows do not fit the domain of {}", nm,
                                pce->num_constraints, k.ni, n));
}

// One device key per engine device, made by make(d) on a thread per device;
// the first error is rethrown naming its CUDA device.
template <class Key, class Make>
std::vector<std::shared_ptr<const Key>> per_device(const std::vector<int>& numbers, Make make)
{
    std::vector<std::shared_ptr<const Key>> keys(numbers.size());
    std::vector<std::exception_ptr> errs(numbers.size());
    std::vector<std::thread> th;
    for (size_t d = 0; d < numbers.size(); ++d)
        th.emplace_back([&, d] {
            try {
                keys[d] = make(d);
            } catch (...) {
                errs[d] = std::current_exception();
            }
        });
    for (auto& t : th) t.join();
    for (size_t d = 0; d < numbers.size(); ++d)
        if (errs[d]) {
            try {
                std::rethrow_exception(errs[d]);
            } catch (const error& e) {
                throw error(e.code(), fmt::format("add_key: CUDA device {}: {}", numbers[d], e.what()));
            }
        }
    return keys;
}

// The key uploaded to each device, from host memory or decoded from the
// mapped .params file (params not null; each device decodes on its share of
// the cores).
std::vector<std::shared_ptr<const gpu_key>> make_device_keys(const std::vector<int>& numbers,
                                                             const std::shared_ptr<const groth16::proving_key>& pk,
                                                             const std::shared_ptr<const io::mapped_params>& params,
                                                             const groth16::query_density& density,
                                                             const std::shared_ptr<const r1cs::pce>& pce,
                                                             const gpu_key_options& base)
{
    const unsigned decode_threads = std::max(1u, resolve_threads(0) / unsigned(std::max<size_t>(numbers.size(), 1)));
    return per_device<gpu_key>(numbers, [&](size_t d) {
        gpu_key_options go = base;
        go.device = numbers[d];
        go.decode_threads = decode_threads;
        return params ? std::make_shared<const gpu_key>(params, density, pce, go)
                      : std::make_shared<const gpu_key>(pk, density, pce, go);
    });
}

// A BN254 key uploaded to each device: gpu_key_bn254 works on the device
// current when it is made.
std::vector<std::shared_ptr<const gpu_key_bn254>>
make_device_keys_bn254(const std::vector<int>& numbers,
                       const std::shared_ptr<const groth16::proving_key_t<bn254_curve>>& pk)
{
    return per_device<gpu_key_bn254>(numbers, [&](size_t d) {
        const cuda_device_scope scope(numbers[d]);
        return std::make_shared<const gpu_key_bn254>(pk);
    });
}

key_id admit_key(detail::engine_core& c, std::shared_ptr<key_entry> e, const void* key_ptr, uint64_t key_bytes);

// The part of add_key common to both conventions: the estimates, the cuda
// backend's resident key, the memory budgets, the key table. With params
// (cuda backend only), pk is the mapping's key shell and the device keys
// decode the points from the file.
key_id register_key(detail::engine_core& c, std::shared_ptr<key_entry> e,
                    std::shared_ptr<const groth16::proving_key> pk, std::shared_ptr<const r1cs::pce> pce,
                    groth16::query_density density, const key_options& opt,
                    const std::shared_ptr<const io::mapped_params>& params = nullptr)
{
    // One registration at a time: the budget checks below stay true while
    // add_key waits for host memory.
    std::lock_guard reg(c.add_key_mu);
    if (e->name.empty()) e->name = fmt::format("#{}", c.keys_size());
    e->pvk = groth16::prepare_verifying_key(pk->vk);
    e->partition_bytes = opt.partition_bytes ? opt.partition_bytes : partition_bytes_estimate(*pk);
    const uint64_t budget = c.cfg.device_memory_budget;
    if (c.cfg.backend == engine_backend::cuda) {
        gpu_key_options go;
        go.h_copies_budget = opt.h_copies_bytes;
        if (budget != 0) {
            std::lock_guard lk(c.mu);
            const uint64_t used = c.resident_total;
            go.device_budget = used < budget ? budget - used : 1;
        }
        e->gpu = make_device_keys(c.numbers, pk, params, density, pce, go);
        // Every device is charged the largest of its keys' sizes.
        for (const auto& g : e->gpu) {
            e->resident_bytes = std::max(e->resident_bytes, g->device_bytes());
            e->device_bytes = std::max(e->device_bytes, opt.device_bytes ? opt.device_bytes : g->prove_scratch_bytes());
        }
    } else {
        e->device_bytes = opt.device_bytes ? opt.device_bytes : device_bytes_estimate(*pk);
    }
    e->pk = std::move(pk);
    e->pce = std::move(pce);
    e->density = std::move(density);
    const void* key_ptr = e->pk.get();
    const uint64_t key_bytes = key_host_bytes(*e->pk);
    return admit_key(c, std::move(e), key_ptr, key_bytes);
}

// add_key for a BN254 key: the estimates, the cuda backend's device keys
// (resident: the points, and the proof scratch that gpu_key_bn254 keeps
// after its first proof, 32·(3n + v) bytes), the memory budgets, the table.
key_id register_key_bn254(detail::engine_core& c, std::shared_ptr<key_entry> e,
                          std::shared_ptr<const groth16::proving_key_t<bn254_curve>> pk, const key_options& opt)
{
    std::lock_guard reg(c.add_key_mu);
    if (e->name.empty()) e->name = fmt::format("#{}", c.keys_size());
    key_entry::bn254_part& b = *e->bn;
    b.pvk = groth16::prepare_verifying_key(pk->vk);
    e->partition_bytes = opt.partition_bytes ? opt.partition_bytes : partition_bytes_estimate(*pk);
    e->device_bytes = opt.device_bytes ? opt.device_bytes : device_bytes_estimate(*pk);
    if (c.cfg.backend == engine_backend::cuda) {
        b.gpu = make_device_keys_bn254(c.numbers, pk);
        const uint64_t scratch = 32 * (3 * pk->domain_size + variables(*pk));
        for (const auto& g : b.gpu) e->resident_bytes = std::max(e->resident_bytes, g->device_bytes() + scratch);
    }
    const void* key_ptr = pk.get();
    const uint64_t key_bytes = key_host_bytes(*pk);
    b.pk = std::move(pk);
    return admit_key(c, std::move(e), key_ptr, key_bytes);
}

// The rest of add_key (add_key_mu held): the host bytes of the key's points
// (key_ptr, key_bytes), its PCE and its device keys' host memory, the budget
// checks, the wait for room, the key table.
key_id admit_key(detail::engine_core& c, std::shared_ptr<key_entry> e, const void* key_ptr, uint64_t key_bytes)
{
    const uint64_t budget = c.cfg.device_memory_budget;
    detail::engine_core::dropped_buffers dropped;   // freed after mu is released
    std::unique_lock lk(c.mu);
    // Host memory: the key's points and coefficients and its PCE, each
    // counted once however many keys share them, and what a cuda key holds
    // on the host besides.
    const auto seen = [&](const void* p) { return std::find(c.counted.begin(), c.counted.end(), p) != c.counted.end(); };
    e->host_bytes = 0;
    for (const auto& g : e->gpu) e->host_bytes += g->host_bytes();
    if (!seen(key_ptr)) e->host_bytes += key_bytes;
    if (e->pce && !seen(e->pce.get())) e->host_bytes += e->pce->memory_bytes();
    check_device_budget(c, *e);
    check_host_budget(c, *e);
    const uint64_t hbudget = c.cfg.host_memory_budget;
    if (hbudget != 0) {
        // Partitions in flight may hold the room for now: wait for them
        // (admission leaves what is waiting here alone).
        c.key_waiting += e->host_bytes;
        c.cv_synth.wait(lk, [&] {
            c.key_waiting -= e->host_bytes;
            const bool ok = c.stopping || c.make_room(e->host_bytes, dropped);
            c.key_waiting += e->host_bytes;
            return ok;
        });
        c.key_waiting -= e->host_bytes;
        if (c.stopping) throw error(errc::cancelled, fmt::format("add_key {}: the engine is shutting down", e->name));
        if (e->partition_bytes <= hbudget - c.resident_host - e->host_bytes)
            c.max_partition_bytes = std::max(c.max_partition_bytes, e->partition_bytes);
    }
    if (budget != 0 && e->device_bytes <= budget - c.resident_total - e->resident_bytes)
        c.max_device_bytes = std::max(c.max_device_bytes, e->device_bytes);
    c.counted.push_back(key_ptr);
    if (e->pce) c.counted.push_back(e->pce.get());
    c.resident_host += e->host_bytes;
    c.note_peak();
    c.resident_total += e->resident_bytes;
    for (auto& r : c.dev_reserved) r += e->resident_bytes;
    for (size_t d = 0; d < c.dev_peak.size(); ++d) c.dev_peak[d] = std::max(c.dev_peak[d], c.dev_reserved[d]);
    e->id = key_id(c.keys.size());
    c.keys.push_back(std::move(e));
    return c.keys.back()->id;
}

} // namespace

key_id engine::add_key(std::shared_ptr<const groth16::proving_key> pk, std::shared_ptr<const r1cs::pce> pce,
                       const key_options& opt)
{
    if (pk && pk->conv == groth16::convention::snarkjs)   // no density: the key's points are per signal
        return add_key(std::move(pk), std::move(pce), groth16::query_density{}, opt);
    if (!pce) throw error(errc::invalid_argument, "add_key: without a PCE the query density must be given");
    groth16::query_density d = groth16::density_of(*pce);
    return add_key(std::move(pk), std::move(pce), std::move(d), opt);
}

namespace {

// add_key's checks of a snarkjs-convention key (either curve): the point
// sections against the domain and the signal counts, the coefficients in
// range; errc::invalid_argument naming the mismatch.
template <class C>
void check_snarkjs_key(const std::string& nm, const groth16::proving_key_t<C>& pk)
{
    const uint64_t n = pk.domain_size, n_vars = variables(pk);
    if (n == 0 || (n & (n - 1)) != 0 || pk.h.size() != n || pk.l.size() != pk.num_aux || pk.a.size() != n_vars ||
        pk.b_g1.size() != n_vars || pk.b_g2.size() != n_vars || pk.vk.ic.size() != pk.num_inputs ||
        pk.num_inputs == 0)
        throw error(errc::invalid_argument,
                    fmt::format("add_key {}: inconsistent snarkjs key (domain {}, {} H points, {} L points for {} "
                                "private signals, {}/{}/{} A/B1/B2 points for {} signals, {} IC points for {} "
                                "inputs)",
                                nm, n, pk.h.size(), pk.l.size(), pk.num_aux, pk.a.size(), pk.b_g1.size(),
                                pk.b_g2.size(), n_vars, pk.vk.ic.size(), pk.num_inputs));
    for (const groth16::sparse_coef_t<C>& c : pk.coefs)
        if (c.constraint >= n || c.signal >= n_vars || c.matrix > 1)
            throw error(errc::invalid_argument,
                        fmt::format("add_key {}: coefficient (matrix {}, constraint {}, signal {}) out of range", nm,
                                    c.matrix, c.constraint, c.signal));
}

} // namespace

key_id engine::add_key(std::shared_ptr<const groth16::proving_key_t<bn254_curve>> pk, const key_options& opt)
{
    if (!pk) throw error(errc::invalid_argument, "add_key: no proving key");
    if (pk->conv != groth16::convention::snarkjs)
        throw error(errc::invalid_argument,
                    fmt::format("add_key {}: a BN254 key must follow the snarkjs convention", opt.name));
    check_snarkjs_key(opt.name, *pk);
    auto e = std::make_shared<key_entry>();
    e->name = opt.name;
    e->curve = curve_id::bn254;
    e->snarkjs = true;
    e->bn = std::make_unique<key_entry::bn254_part>();
    return register_key_bn254(*p_, std::move(e), std::move(pk), opt);
}

key_id engine::add_key(std::shared_ptr<const groth16::proving_key> pk, std::shared_ptr<const r1cs::pce> pce,
                       groth16::query_density density, const key_options& opt)
{
    if (!pk) throw error(errc::invalid_argument, "add_key: no proving key");
    auto e = std::make_shared<key_entry>();
    e->name = opt.name;
    const std::string& nm = e->name;
    if (pk->conv == groth16::convention::snarkjs) {
        e->snarkjs = true;
        if (pce)
            throw error(errc::invalid_argument,
                        fmt::format("add_key {}: a snarkjs key takes no PCE (pass nullptr)", nm));
        check_snarkjs_key(nm, *pk);
        return register_key(*p_, std::move(e), std::move(pk), nullptr, std::move(density), opt);
    }
    if (pk->conv != groth16::convention::bellperson)
        throw error(errc::unsupported, fmt::format("add_key {}: unknown key convention", nm));
    check_bellperson(nm, counts_of(*pk), density, pce.get());
    return register_key(*p_, std::move(e), std::move(pk), std::move(pce), std::move(density), opt);
}

key_id engine::add_key(std::shared_ptr<const io::mapped_params> params, std::shared_ptr<const r1cs::pce> pce,
                       const key_options& opt)
{
    if (!pce) throw error(errc::invalid_argument, "add_key: without a PCE the query density must be given");
    groth16::query_density d = groth16::density_of(*pce);
    return add_key(std::move(params), std::move(pce), std::move(d), opt);
}

key_id engine::add_key(std::shared_ptr<const io::mapped_params> params, std::shared_ptr<const r1cs::pce> pce,
                       groth16::query_density density, const key_options& opt)
{
    if (!params) throw error(errc::invalid_argument, "add_key: no mapped parameters");
    // Checked on the file's counts first: a mismatched key is refused before
    // any point is decoded.
    check_bellperson(opt.name, counts_of(*params), density, pce.get());
    if (cfg_.backend != engine_backend::cuda) {
        // The CPU prover reads every point from host memory: decode the whole key.
        auto pk = std::make_shared<const groth16::proving_key>(params->to_proving_key());
        return add_key(std::move(pk), std::move(pce), std::move(density), opt);
    }
    auto e = std::make_shared<key_entry>();
    e->name = opt.name;
    auto shell = std::make_shared<const groth16::proving_key>(params->key_shell());
    return register_key(*p_, std::move(e), std::move(shell), std::move(pce), std::move(density), opt, params);
}

curve_id engine::key_curve(key_id k) const
{
    std::lock_guard lk(p_->mu);
    if (k >= p_->keys.size()) throw error(errc::invalid_argument, fmt::format("key_curve: no key {}", k));
    return p_->keys[k]->curve;
}

uint64_t engine::partition_bytes(key_id k) const
{
    std::lock_guard lk(p_->mu);
    if (k >= p_->keys.size()) throw error(errc::invalid_argument, fmt::format("partition_bytes: no key {}", k));
    return p_->keys[k]->partition_bytes;
}

uint64_t engine::device_bytes(key_id k) const
{
    std::lock_guard lk(p_->mu);
    if (k >= p_->keys.size()) throw error(errc::invalid_argument, fmt::format("device_bytes: no key {}", k));
    return p_->keys[k]->device_bytes;
}

namespace {

// The partitions' forms against the key (before anything is queued).
void check_forms(const proof_request& req, const key_entry& key)
{
    if (req.partitions.empty()) throw error(errc::invalid_argument, fmt::format("submit {}: no partitions", req.id));
    if (req.partitions.size() > UINT32_MAX)
        throw error(errc::invalid_argument, fmt::format("submit {}: too many partitions", req.id));
    for (size_t i = 0; i < req.partitions.size(); ++i) {
        const partition& pt = req.partitions[i];
        if (auto* c = std::get_if<circuit_partition>(&pt); c && !c->circuit)
            throw error(errc::invalid_argument, fmt::format("submit {}: partition {} has no circuit", req.id, i));
        const bool abc = std::holds_alternative<abc_partition>(pt) || std::holds_alternative<borrowed_abc_partition>(pt);
        const bool bn = std::holds_alternative<bn254_witness_partition>(pt);
        if (key.bn || bn) {
            if (!key.bn || !bn)
                throw error(errc::invalid_argument,
                            fmt::format("submit {}: partition {}: key {} is a {} key, which takes {}", req.id, i,
                                        key.name, curve_name(key.curve),
                                        key.bn ? "bn254_witness_partition only" : "no bn254_witness_partition"));
        } else if (key.snarkjs) {
            if (!std::holds_alternative<full_witness_partition>(pt) && !std::holds_alternative<witness_partition>(pt))
                throw error(errc::invalid_argument,
                            fmt::format("submit {}: partition {}: key {} is a snarkjs key, which takes witness "
                                        "partitions (owned) only", req.id, i, key.name));
        } else if (!abc && !key.pce) {
            throw error(errc::invalid_argument,
                        fmt::format("submit {}: partition {} needs a PCE and key {} has none", req.id, i, key.name));
        }
    }
}

// Refuses a job whose partition could never fit the host or device budget.
void check_budgets(detail::engine_core& c, const std::string& id, const key_entry& key)
{
    if (const uint64_t budget = c.cfg.host_memory_budget; budget != 0) {
        uint64_t resident = 0;
        {
            std::lock_guard lk(c.mu);
            resident = c.resident_host;
        }
        if (resident > budget || key.partition_bytes > budget - resident)
            throw error(errc::out_of_memory,
                        fmt::format("submit {}: one partition of key {} needs about {}; the host memory budget is "
                                    "{}, {} of it held by the registered keys; it could never run (raise the budget)",
                                    id, key.name, size_text(key.partition_bytes), size_text(budget),
                                    size_text(resident)));
    }
    if (const uint64_t dbudget = c.cfg.device_memory_budget; dbudget != 0) {
        uint64_t resident = 0;
        {
            std::lock_guard lk(c.mu);
            resident = c.resident_total;
        }
        if (resident > dbudget || key.device_bytes > dbudget - resident)
            throw error(errc::out_of_memory,
                        fmt::format("submit {}: one device part of key {} needs {} of device memory; the device "
                                    "memory budget is {}, {} of it held by resident keys; it could never run (raise "
                                    "the budget)",
                                    id, key.name, size_text(key.device_bytes), size_text(dbudget),
                                    size_text(resident)));
    }
    std::lock_guard lk(c.mu);
    if (c.live_devices == 0)
        throw error(errc::device, fmt::format("submit {}: every device of the engine is excluded", id));
}

} // namespace

job_handle engine::submit(proof_request req)
{
    std::shared_ptr<const key_entry> key;
    {
        std::lock_guard lk(p_->mu);
        if (req.key >= p_->keys.size())
            throw error(errc::invalid_argument, fmt::format("submit {}: no key {}", req.id, req.key));
        key = p_->keys[req.key];
    }
    check_forms(req, *key);
    check_budgets(*p_, req.id, *key);
    auto job = std::make_shared<job_state>();
    job->priority = req.priority;
    job->n_parts = uint32_t(req.partitions.size());
    job->key = std::move(key);
    job->on_done = std::move(req.on_done);
    job->eng = p_;
    job->inputs = std::move(req.partitions);
    job->results.resize(job->n_parts);
    {
        std::lock_guard lk(p_->mu);
        if (p_->stopping) throw error(errc::cancelled, fmt::format("submit {}: the engine is shutting down", req.id));
        job->seq = p_->next_seq++;
        if (req.id.empty()) {
            req.id = fmt::format("job-{}", job->seq);
            for (unsigned k = 1; p_->live.count(req.id); ++k) req.id = fmt::format("job-{}-{}", job->seq, k);
        } else if (p_->live.count(req.id)) {
            throw error(errc::invalid_argument,
                        fmt::format("submit: a job with id '{}' is already queued or running", req.id));
        }
        job->id = std::move(req.id);
        job->submitted_ns = p_->now_ns();
        p_->live.emplace(job->id, job);
        p_->dispatch.emplace(std::pair{-int64_t(job->priority), job->seq}, job);
        ++p_->counters.jobs_submitted;
        p_->emit(timeline::phase::instant, "JOB_SUBMIT", job.get(), -1, -1, -1,
                 {{"partitions", std::to_string(job->n_parts)}, {"priority", std::to_string(job->priority)}});
    }
    p_->cv_synth.notify_all();
    return job_handle(job);
}

unsigned engine::device_count() const noexcept { return cfg_.devices; }

bool engine::exclude_device(unsigned d, const std::string& reason)
{
    if (d >= cfg_.devices)
        throw error(errc::invalid_argument,
                    fmt::format("exclude_device: no device {} (the engine has {})", d, cfg_.devices));
    return p_->exclude(d, reason);
}

engine_stats engine::stats() const
{
    std::lock_guard lk(p_->mu);
    engine_stats s = p_->counters;
    s.memory_reserved = p_->reserved;
    s.memory_resident = p_->resident_host;
    s.memory_pooled = p_->pooled;
    s.memory_peak = p_->peak;
    s.jobs_live = p_->live.size();
    s.lookahead_queued = p_->lookahead.size();
    s.device_memory_reserved = p_->dev_reserved;
    s.device_memory_peak = p_->dev_peak;
    s.uptime_ns = p_->now_ns();
    return s;
}

// ---- job_handle -------------------------------------------------------------------------

namespace {
const std::shared_ptr<job_state>& need(const std::shared_ptr<job_state>& s)
{
    if (!s) throw error(errc::invalid_argument, "job_handle: empty handle");
    return s;
}
} // namespace

const std::string& job_handle::id() const { return need(s_)->id; }

job_status job_handle::poll() const { return need(s_)->status.load(); }

const job_result& job_handle::wait() const
{
    auto& s = need(s_);
    std::unique_lock lk(s->m);
    s->cv.wait(lk, [&] { return s->published; });
    return s->result;
}

bool job_handle::wait_for(std::chrono::nanoseconds timeout) const
{
    auto& s = need(s_);
    std::unique_lock lk(s->m);
    return s->cv.wait_for(lk, timeout, [&] { return s->published; });
}

bool job_handle::cancel()
{
    auto& s = need(s_);
    if (s->ending.load()) return false;
    std::shared_ptr<detail::engine_core> eng = s->eng.lock();
    if (!eng) return false;   // the engine is gone, so the job has ended
    return eng->finish(s, job_status::cancelled, fmt::format("job {}: cancelled", s->id), errc::cancelled, -1);
}

const job_result& job_handle::result() const
{
    auto& s = need(s_);
    std::lock_guard lk(s->m);
    if (!s->published)
        throw error(errc::invalid_argument, fmt::format("job {}: result() before the job ended", s->id));
    return s->result;
}

} // namespace cuzk::pipeline
