// cuzk — the proving engine's internals (lib/pipeline), shared by its parts:
//   engine.cpp            the public engine and job_handle: start, submit, stop
//   engine_keys.cpp       add_key: the checks and budgets a key must pass
//   engine_synthesis.cpp  the synthesis workers: a partition's witness, a, b, c
//   engine_device.cpp     the prove workers: device calls under the device lock
//   engine_tail.cpp       the CPU tail of a partition and the end of a job
// Not a public header: the types here may change with any commit.
//
// A key's life: add_key makes its key_entry (new_key_entry, whose deleter
// reports the entry's end to the engine) and puts it in `keys`; a job holds
// it from submit until the job ends (finish() drops it), each partition in
// flight (work_item, tail_item) holds it until its work is done. remove_key
// takes it out of `keys` (the id is never used again) and notes its bytes in
// `retiring`; when the last holder lets go, the deleter frees the entry (its
// points, PCE and device keys as far as the engine holds them) and hands
// the id to the reaper thread, which gives the bytes back to the budgets.
#pragma once

#include "cuzk/pipeline/engine.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <tuple>
#include <type_traits>
#include <unordered_map>

#include <fmt/format.h>

#include "cuzk/backend/cuda.hpp"
#include "backend/fault.hpp"
#include "cuzk/backend/gpu_prover.hpp"
#include "cuzk/ec/encoding.hpp"
#include "cuzk/groth16/circuit.hpp"
#include "cuzk/groth16/prover_split.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/bellperson.hpp"
#include "cuzk/util/bytes.hpp"
#include "cuzk/util/parallel.hpp"
#include "fifo_mutex.hpp"

namespace cuzk::pipeline::detail {

using clock = std::chrono::steady_clock;

// A key's objects over its curve C: the proving key, its prepared verifying
// key and, on the cuda backend, its copy on each engine device (index =
// device; empty on the cpu backend).
template <class C>
struct curve_key {
    std::shared_ptr<const groth16::proving_key_t<C>> pk;
    groth16::prepared_verifying_key_t<C> pvk;
    std::vector<std::shared_ptr<const gpu_key_t<C>>> gpu;
};

// A registered key. Its own curve_key is the BLS12-381 one (pk, pvk, gpu:
// what the bellperson paths read); a BN254 key has its curve_key in bn
// instead and leaves those empty. as<C>() is the one of curve C, for the
// code written once over the curve (snarkjs keys: synthesis, device part,
// tail).
struct key_entry : curve_key<bls12_381_curve> {
    key_id id = 0;
    std::string name;
    std::shared_ptr<const r1cs::pce> pce;
    groth16::query_density density;
    uint64_t partition_bytes = 0;
    uint64_t device_bytes = 0;     // device memory per device call (a batch's when the key batches)
    // cuda, streamed bellperson keys with a PCE: the partitions one device
    // call proves together (gpu_prove_start_witness_batch), from the key's
    // plan on every device (device_plan.hpp) and engine_config::max_batch;
    // 1 = one at a time. batch_slot: device bytes of each partition after the first.
    unsigned batch = 1;
    uint64_t batch_slot = 0;
    uint64_t resident_bytes = 0;   // device memory the key holds (cuda: its gpu_key), per device
    uint64_t host_bytes = 0;       // host memory counted for the key in the host budget
    bool snarkjs = false;          // pk->conv == snarkjs (always for BN254 keys)
    // cuda, bellperson keys: every device holds the key's PCE, so the
    // devices evaluate a, b, c from the witness (else the host does).
    bool device_eval = false;
    std::unique_ptr<curve_key<bn254_curve>> bn;   // a BN254 key's (null for BLS12-381 keys)
    curve_id curve = curve_id::bls12_381;
    template <class C>
    const curve_key<C>& as() const
    {
        if constexpr (std::is_same_v<C, bls12_381_curve>) return *this;
        else return *bn;
    }
    // What the host budget counts for the key: own_host_bytes (its device
    // keys' host memory) and the objects it shares with other keys (its
    // points and coefficients, its PCE: counted once however many keys hold
    // them, engine_core::counted).
    uint64_t own_host_bytes = 0;
    std::vector<const void*> shared;
    bool admitted = false;         // in the key table (set by admit_key)
};

// What a device part returns, over the key's curve.
using device_sums = per_curve<groth16::prove_sums_t>;
template <class C>
using scalars = std::vector<typename C::fr>;

// What a snarkjs key's partition carries from synthesis to its device part
// over its curve C: the full witness, its first num_inputs values (the
// inputs, for the tail), and A·w, B·w where the host evaluates them.
template <class C>
struct snarkjs_vectors {
    scalars<C> w, inputs, a, b;
};

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

inline double ms(uint64_t ns) { return double(ns) * 1e-6; }

// "1.50 MiB (1572864 bytes)": budget messages give both.
inline std::string size_text(uint64_t bytes) { return fmt::format("{} ({} bytes)", human_size(bytes), bytes); }

// The variables of a proving key: its inputs and aux (either curve).
template <class C>
uint64_t variables(const groth16::proving_key_t<C>& pk)
{
    return uint64_t(pk.num_inputs) + pk.num_aux;
}

struct engine_core;

struct job_state {
    // Set at submit, then read-only.
    std::string id;
    uint64_t seq = 0;
    int priority = 0;
    uint32_t n_parts = 0;
    // Set at submit; read and dropped (when the job ends) under the
    // engine's mutex. The job's partitions in flight hold their own copies.
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

// A partition between dispatch and the end of its device part. Its own
// snarkjs_vectors are BLS12-381's (w, inputs, a, b, shared with the
// bellperson paths); a BN254 partition's are in bn; as<C>() picks.
struct work_item : snarkjs_vectors<bls12_381_curve> {
    std::shared_ptr<job_state> job;
    std::shared_ptr<const key_entry> key;   // the job's key (job->key is dropped when the job ends)
    uint32_t part = 0;
    uint64_t reserved = 0;   // bytes of the memory budget it holds
    bool device_eval = false;   // cuda: a, b, c are evaluated on the device from the witness
    std::vector<fr> c, aux;
    // cuda, device_eval: aux packed during synthesis (aux is then empty), so
    // that the device part under the lock only copies it (gpu_packed_witness).
    std::unique_ptr<gpu_packed_witness> packed;
    snarkjs_vectors<bn254_curve> bn;   // BN254 keys (all empty for BLS12-381 keys)
    template <class C>
    snarkjs_vectors<C>& as()
    {
        if constexpr (std::is_same_v<C, bls12_381_curve>) return *this;
        else return bn;
    }
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
    device_sums sums;               // the key's curve
    per_curve<scalars> inputs;      // the key's curve, starting with ONE
    int32_t prove_worker = -1;
    int32_t device = -1;
    uint64_t gpu_start_ns = 0;
    std::shared_ptr<const key_entry> key;  // the job's key, held until the tail ends
};

struct engine_core {
    engine_config cfg;
    clock::time_point t0 = clock::now();

    mutable std::mutex mu;
    std::condition_variable cv_synth;   // work to dispatch, budget freed, lookahead slot freed, stop
    std::condition_variable cv_prove;   // lookahead item queued, stop
    std::condition_variable cv_tail;    // tail queued, stop
    bool stopping = false;

    // The key table, by id; a removed key's place is null (ids are never reused).
    std::vector<std::shared_ptr<const key_entry>> keys;
    std::map<key_id, std::string> removed_names;   // removed keys, for messages
    // Removed keys whose entry is still held (by their jobs): the bytes the
    // reaper gives back when it is freed.
    struct retiring_key {
        uint64_t host = 0, device = 0;
    };
    std::map<key_id, retiring_key> retiring;
    std::mutex add_key_mu;   // serialises add_key (taken before mu)
    size_t keys_size() const
    {
        std::lock_guard lk(mu);
        return keys.size();
    }
    std::map<std::pair<int64_t, uint64_t>, std::shared_ptr<job_state>> dispatch;   // jobs with partitions left
    std::map<order_key, std::unique_ptr<work_item>> lookahead;
    unsigned lookahead_cap = 1;         // cfg.lookahead, or the largest key batch when larger
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
    // Proving keys and PCEs counted in resident_host: their bytes and the
    // registered keys that hold them (the bytes go when the last is removed).
    struct counted_object {
        uint64_t bytes = 0;
        unsigned users = 0;
    };
    std::map<const void*, counted_object> counted;
    std::condition_variable cv_devmem;   // device budget freed, stop
    std::vector<uint64_t> dev_reserved, dev_peak;   // per device: device parts in progress plus resident keys
    std::vector<uint64_t> dev_mem_next, dev_mem_turn;   // per device: reservation tickets (under a budget)
    uint64_t resident_total = 0;          // resident key bytes (on every device)
    uint64_t max_device_bytes = 0;        // the largest device estimate of a key whose parts fit the budget
    uint64_t next_call = 0;
    engine_stats counters;

    std::vector<std::unique_ptr<detail::fifo_mutex>> device_locks;   // served in arrival order
    std::vector<int> numbers;                  // per device: CUDA device number (cuda) or index (cpu)
    std::vector<std::pair<int, uint64_t>> caps_set;   // cuda: (device, its cap before) where the budget set one
    std::vector<unsigned> consecutive_errors;  // per device: device errors in a row
    unsigned live_devices = 0;                 // devices not excluded
    std::vector<std::thread> threads;

    uint64_t now_ns() const noexcept
    {
        return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(clock::now() - t0).count());
    }

    // ---- removed keys (engine_keys.cpp) ---------------------------------------------------

    // The reaper: ids of removed keys whose entry has been freed, given back
    // to the budgets on the reaper's thread (a key_entry may be freed
    // wherever its last holder lets go, mu held or not). reap_mu is taken
    // last: nothing else is locked while it is held.
    std::mutex reap_mu;
    std::condition_variable reap_cv;
    std::vector<key_id> reaped;   // under reap_mu
    bool reap_stop = false;       // under reap_mu
    void reap_loop();
    void key_freed(key_id id) noexcept;   // the entry's deleter
    // Gives a removed key's bytes back to the budgets (mu held); false when
    // they were given back already. The caller notifies cv_synth, cv_devmem.
    bool give_back_locked(key_id id);
    // The live key k (mu held); errc::invalid_argument naming `what` for an
    // id never given or a removed key.
    const std::shared_ptr<const key_entry>& live_key_locked(key_id k, std::string_view what) const;

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
        // A copy over the bus: its span carries the bytes (the begin event).
        void copy_span(std::string_view step, std::string_view query, uint64_t bytes, clock::time_point begin,
                       clock::time_point end) noexcept override
        {
            if (!device_timed) return;
            const uint64_t b = eng->to_engine_ns(begin);
            eng->emit_at(b, timeline::phase::begin, step, job, part, worker, device,
                         {{"query", std::string(query)}, {"bytes", std::to_string(bytes)}});
            eng->emit_at(std::max(b, eng->to_engine_ns(end)), timeline::phase::end, step, job, part, worker, device,
                         {{"query", std::string(query)}});
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

    // ---- ending a job (engine_tail.cpp) ----------------------------------------------

    // Ends the job with `st` unless it has ended already; true when this call
    // ended it. Must be called without mu held.
    bool finish(const std::shared_ptr<job_state>& job, job_status st, std::string message, errc code, int part);

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

    // ---- reusable buffers (engine_synthesis.cpp) ----------------------------------------
    // gpu_packed_witness objects are reused: their page-locked buffers are
    // slow to allocate. At most one per partition in flight exists. In use,
    // one is part of its partition's reservation; in the pool, its bytes
    // count in `pooled`, and it is kept only while the host budget has room.
    std::vector<std::unique_ptr<gpu_packed_witness>> packed_pool;   // under mu
    std::unique_ptr<gpu_packed_witness> take_packed();
    void give_packed(std::unique_ptr<gpu_packed_witness> p);
    // A circuit's witness() fills a vector of the right size without clearing
    // it first, which saves zero-filling gigabytes per partition (0.8 s for a
    // 32 GiB PoRep partition). Vectors freed once a partition no longer needs
    // its aux are kept here, at most synth_workers of them, and only while
    // the host budget has room for them (their bytes count in `pooled`).
    std::vector<std::vector<fr>> aux_pool;   // under mu
    std::vector<fr> take_aux(size_t n);
    void give_aux(std::vector<fr>& v);

    // ---- synthesis workers (engine_synthesis.cpp) ----------------------------------------

    void synth_loop(int32_t worker);   // a synthesis worker's thread: the steps below
    bool wait_for_head(std::unique_lock<std::mutex>& lk, int32_t worker, dropped_buffers& dropped);
    std::unique_ptr<work_item> take_head(partition& input);
    std::optional<double> synthesize_item(work_item& item, partition& input, int32_t worker);
    bool wait_for_slot(std::unique_lock<std::mutex>& lk, const order_key& key, const work_item& item, int32_t worker,
                       double synth_ms);
    // The witness and a, b, c of one partition, by the key's kind and the
    // partition's form; throws on any problem.
    void synthesize(work_item& it, partition& in, int32_t worker);
    template <class C>
    void synthesize_snarkjs(work_item& it, partition& in, int32_t worker);
    bool synthesize_packed(work_item& it, partition& in, unsigned th);
    bool take_witness(work_item& it, partition& in, unsigned th);
    void take_borrowed_abc(work_item& it, borrowed_abc_partition& bp, unsigned th);
    void check_abc(const work_item& it, unsigned th) const;
    void check_canonical(std::span<const fr> v, const char* what, unsigned threads) const;
    void evaluate(work_item& it, int32_t worker, unsigned th);
    void pack_aux(work_item& it, int32_t worker, unsigned th);
    void stage_packed(work_item& it);
    std::atomic<size_t> stage_turn{0};   // the device a staged packed witness goes to next

    // ---- prove workers (engine_device.cpp) -----------------------------------------------

    void prove_loop(int32_t worker, int32_t device);   // a prove worker's thread
    void device_call(std::vector<std::unique_ptr<work_item>>& batch, const key_entry& k, int32_t worker,
                     int32_t device, const std::string& call);
    // A device part's outcome, until it is handed on.
    struct part_outcome {
        work_item* it;
        device_sums sums;
        std::optional<failure> err;
        uint64_t gpu_start;
    };
    void emit_memory_high_water(int32_t device);
    uint64_t memory_high_water(size_t d) const;
    void top_up(std::vector<std::unique_ptr<work_item>>& batch, const key_entry& k, int32_t worker, int32_t device,
                const std::string& call);
    bool batch_device_parts(std::vector<std::unique_ptr<work_item>>& batch, size_t first, const key_entry& k,
                            int32_t worker, int32_t device, uint64_t gpu_start,
                            const std::function<void(part_outcome)>& done);
    device_sums run_device_part(work_item& it, const key_entry& k, int32_t device, span_observer& obs);
    template <class C>
    device_sums snarkjs_device_part(work_item& it, const key_entry& k, int32_t device, span_observer& obs);
    groth16::prove_options cpu_prove_options(int32_t device) const;
    void hand_on(work_item& it, const device_sums& sums, const std::optional<failure>& err, int32_t worker,
                 int32_t device, uint64_t gpu_start, std::vector<tail_item>& own_tails);
    bool reserve_device(uint64_t bytes, const job_state* job, int32_t part, int32_t worker, int32_t device);
    void release_device(uint64_t bytes, int32_t device);
    std::string device_name(int32_t device) const;
    bool count_device_result(int32_t device, const std::optional<failure>& err);
    bool exclude(unsigned d, const std::string& reason);   // see engine::exclude_device; without mu

    // ---- CPU tail (engine_tail.cpp) ------------------------------------------------------

    void tail_loop(int32_t worker);   // a tail worker's thread
    void run_tail(tail_item& t, int32_t worker);
    template <class C>
    void finish_proof(const curve_key<C>& k, const tail_item& t, partition_result& res) const;
};

// A new key entry whose deleter tells `core` (when it still exists) that
// the entry is gone (engine_core::key_freed).
std::shared_ptr<key_entry> new_key_entry(const std::shared_ptr<engine_core>& core);

} // namespace cuzk::pipeline::detail
