// cuzk — the persistent proving engine.
//
// Keys are registered once and stay resident, shared by every job that names
// them. A job is a list of partitions (independent Groth16 circuits under one
// key); each partition flows through three stages:
//
//   [synthesis workers × synth_workers]   witness (a C++ circuit, or given by
//        the host), a = A·w, b = B·w, c = C·w with the key's PCE, the
//        satisfaction check; then pushed into the lookahead queue
//        (bounded: at most `lookahead` synthesized partitions wait)
//   [prove workers × workers_per_device, per device, one lock per device]
//        the device part under the device lock: NTTs for H, MSM_H, MSM_L,
//        MSM_A, MSM_B1, MSM_B2 (groth16::prove_start)
//   [CPU-tail threads × tail_threads]  outside the lock: blinding with r, s
//        (groth16::prove_finish), the 192-byte encoding, optional self-verify
//
// so one worker's tail and the next partition's synthesis overlap another
// worker's device work.
//
// Order: partitions are dispatched, and picked from the lookahead queue, by
// priority (higher first), then submission order, then partition number.
//
// Memory: every partition reserves its host-memory estimate (see
// partition_bytes_estimate) from host_memory_budget before its synthesis
// starts and returns it when its device part ends (what is left after that is
// a few points and the public inputs). A partition waits while the budget is
// short (head of line: later partitions do not overtake it); a job whose
// partition can never fit is refused by submit() with errc::out_of_memory.
//
// Jobs end exactly once: completed (every partition proved, and verified
// when self_verify is on), failed (the first failure: its message, error
// code and partition; other partitions of the job are then dropped) or
// cancelled (cancel(), or the engine being destroyed). Waiters are woken and
// the job's on_done callback runs once. A failure inside one job (unsatisfied
// witness, an exception from a circuit, a self-verify failure, wrong sizes)
// never affects other jobs or the engine.
//
// Timeline: with a sink, the engine emits (t_ns since the engine started)
//   JOB_SUBMIT, JOB_DONE / JOB_FAILED / JOB_CANCELLED       instants, per job
//   SYNTH_START, SYNTH_END (synth_ms), CHAN_SEND             synthesis worker, device −1
//   GPU_PICKUP, GPU_START, GPU_END (gpu_ms)                   prove worker, its device
//   spans MEM_WAIT, PCE_EVAL (device −1); LOCK_WAIT, NTT, MSM_H, MSM_L, MSM_A,
//   MSM_B1, MSM_B2, BATCH_ADD (nested in each MSM_x, detail query=…) with the
//   prove worker's device; CPU_TAIL (device −1, the tail thread as worker).
// GPU_END is emitted when the CPU tail has finished (curio's meaning). Worker
// numbers are unique in the engine: synthesis workers 0 … S−1, then the
// prove workers (device-major), then the tail threads.
//
// Threads: all explicit, started by the constructor and joined by the
// destructor. The CPU backend is one "device"; device work runs with
// device_threads threads.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "cuzk/error.hpp"
#include "cuzk/groth16/types.hpp"
#include "cuzk/r1cs/constraint_system.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "cuzk/timeline/event.hpp"

namespace cuzk::pipeline {

using key_id = uint32_t;

struct engine_config {
    unsigned synth_workers = 2;        // partitions synthesized at once (>= 1)
    unsigned synth_threads = 1;        // threads inside one synthesis (PCE evaluation, check); 0 = all
    unsigned lookahead = 2;            // synthesized partitions that may wait for a prove worker (>= 1)
    unsigned devices = 1;              // the CPU backend is one device
    unsigned workers_per_device = 2;   // prove workers per device, sharing its lock (>= 1)
    unsigned device_threads = 0;       // threads of the CPU backend's device work; 0 = all
    unsigned tail_threads = 1;         // CPU-tail threads; 0 = the prove worker runs its tail after the lock
    uint64_t host_memory_budget = 0;   // bytes for partitions in flight; 0 = unlimited
    bool self_verify = true;           // verify every proof before reporting it
    timeline::sink* sink = nullptr;    // borrowed, may be null; must outlive the engine
};

struct key_options {
    std::string name;               // for messages
    uint64_t partition_bytes = 0;   // host memory per partition in flight; 0 = partition_bytes_estimate
};

// The host memory one partition of this key holds at its peak (bytes), for
// admission. With n = domain size, v = inputs + aux, 32 bytes per Fr:
//   witness            32·v
//   a, b, c            3·32·n     (grown to the domain inside the NTT step)
//   NTT twiddles       16·n       (n/2 elements)
//   MSM scratch        v·(32 + 1 + 192)   (gathered scalars, 0/1 mask, and in the
//                                          worst case a copy of every G2 point for Pippenger)
// plus 1 MiB of fixed overhead. An upper bound for the CPU backend, not a
// measurement; override per key with key_options::partition_bytes.
uint64_t partition_bytes_estimate(const groth16::proving_key& pk);

// A partition as a C++ circuit (synthesized with witness_cs, evaluated
// with the key's PCE).
struct circuit_partition {
    std::shared_ptr<const r1cs::circuit> circuit;
};
// A partition as witness assignments for the key's PCE: inputs start with
// ONE (num_inputs values), then num_aux aux values.
struct witness_partition {
    std::vector<fr> inputs;
    std::vector<fr> aux;
};
// A partition with its constraint evaluations ready: a, b, c hold one value
// per constraint of the circuit (without bellperson's input constraints);
// the engine checks a·b = c row by row, and that the sizes match the key.
// Needs no PCE.
struct abc_partition {
    std::vector<fr> a, b, c;
    std::vector<fr> inputs;   // starting with ONE
    std::vector<fr> aux;
};
using partition = std::variant<circuit_partition, witness_partition, abc_partition>;

enum class job_status : uint8_t { queued, running, completed, failed, cancelled };
const char* status_name(job_status s) noexcept;   // "queued", "running", …
inline bool is_final(job_status s) noexcept { return s >= job_status::completed; }

struct partition_result {
    groth16::proof proof;
    std::array<uint8_t, 192> bytes{};   // compressed A ‖ B ‖ C (zcash/bellperson encoding)
    std::vector<fr> public_inputs;      // without ONE
};

struct job_result {
    std::string id;
    job_status status = job_status::queued;
    std::vector<partition_result> partitions;   // in partition order; filled only when completed
    std::string message;                        // failed / cancelled: why (names the partition)
    errc code = errc::ok;                       // failed: the error's code; cancelled: errc::cancelled
    int failed_partition = -1;                  // failed: the partition that failed (−1: none)
    uint64_t submitted_ns = 0, ended_ns = 0;    // on the engine's clock
};

struct proof_request {
    key_id key = 0;
    std::vector<partition> partitions;   // at least one
    int priority = 0;                    // higher runs first
    std::string id;                      // unique among jobs not yet ended; "" = "job-<n>"
    // Called exactly once when the job ends, after the handle shows the final
    // status, on whichever thread ended it (an engine thread, the caller of
    // cancel(), or the engine's destructor), with no engine lock held. Keep
    // it short; it may call submit() or cancel(), but must not wait for
    // another job (the destructor cancels jobs one after the other).
    std::function<void(const job_result&)> on_done;
};

namespace detail {
struct job_state;
struct engine_core;
}

// Shares the job's state with the engine; copies refer to the same job and
// stay valid after the engine is destroyed.
class job_handle {
public:
    job_handle() = default;
    bool valid() const noexcept { return bool(s_); }
    const std::string& id() const;
    // The current status, without waiting.
    job_status poll() const;
    // Blocks until the job has ended; the result stays valid as long as a
    // handle to the job exists.
    const job_result& wait() const;
    // Waits at most `timeout`; true when the job has ended.
    bool wait_for(std::chrono::nanoseconds timeout) const;
    // Cancels the job unless it has already ended; true when this call ended
    // it. Work already running for it finishes and is discarded.
    bool cancel();
    // The result of an ended job; throws errc::invalid_argument when the job
    // has not ended yet.
    const job_result& result() const;

private:
    friend class engine;
    explicit job_handle(std::shared_ptr<detail::job_state> s) : s_(std::move(s)) {}
    std::shared_ptr<detail::job_state> s_;
};

struct engine_stats {
    uint64_t jobs_submitted = 0, jobs_completed = 0, jobs_failed = 0, jobs_cancelled = 0;
    uint64_t partitions_proved = 0;            // device parts finished (including discarded ones)
    uint64_t memory_reserved = 0;              // bytes of the budget reserved now
    uint64_t memory_peak = 0;                  // the most ever reserved at once
    size_t jobs_live = 0;                      // submitted, not yet ended
    size_t lookahead_queued = 0;               // synthesized partitions waiting for a prove worker
    std::vector<uint64_t> device_busy_ns;      // per device: time inside the device part, under the lock
    uint64_t uptime_ns = 0;
};

class engine {
public:
    // Starts the worker threads. Throws errc::invalid_argument for a zero
    // worker count, lookahead or device count.
    explicit engine(const engine_config& cfg);
    // Cancels every job that has not ended (status cancelled, message "engine
    // shut down"), waits for the work in progress to stop, joins the
    // threads. Never waits for queued work.
    ~engine();
    engine(const engine&) = delete;
    engine& operator=(const engine&) = delete;

    // Registers a key: pk in the bellperson convention; pce (may be null when
    // only abc partitions are used) must match the key's variable counts and
    // fit its domain; density gives the key's A/B query filters. With the
    // two-argument form the density comes from the PCE. Throws
    // errc::invalid_argument / errc::unsupported naming the mismatch.
    key_id add_key(std::shared_ptr<const groth16::proving_key> pk, std::shared_ptr<const r1cs::pce> pce,
                   groth16::query_density density, const key_options& opt = {});
    key_id add_key(std::shared_ptr<const groth16::proving_key> pk, std::shared_ptr<const r1cs::pce> pce,
                   const key_options& opt = {});
    // The memory estimate in use for a key.
    uint64_t partition_bytes(key_id k) const;

    // Queues a job. Throws (and queues nothing) when the key is unknown, there
    // are no partitions, a circuit partition has no circuit or the key no PCE
    // for it, the id is in use by a job that has not ended
    // (errc::invalid_argument), or one partition can never fit the memory
    // budget (errc::out_of_memory, with both sizes in the message).
    job_handle submit(proof_request req);

    engine_stats stats() const;
    const engine_config& config() const noexcept { return cfg_; }
    // Nanoseconds since the engine started (the timeline's clock).
    uint64_t now_ns() const noexcept;

private:
    engine_config cfg_;
    std::shared_ptr<detail::engine_core> p_;   // shared with the jobs (weakly) for cancel()
};

} // namespace cuzk::pipeline
