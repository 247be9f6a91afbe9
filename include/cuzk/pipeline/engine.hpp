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
//        MSM_A, MSM_B1, MSM_B2 (groth16::prove_start / prove_start_snarkjs on
//        the CPU backend; cuzk::gpu_prove_start[_witness] on the CUDA one)
//   [CPU-tail threads × tail_threads]  outside the lock: blinding with r, s
//        (groth16::prove_finish), the 192-byte encoding, optional self-verify
//
// so one worker's tail and the next partition's synthesis overlap another
// worker's device work.
//
// Order: partitions are dispatched, and picked from the lookahead queue, by
// priority (higher first), then submission order, then partition number.
//
// Partitions per prove call (engine_config::partitions_per_call = k): a prove
// worker takes the head of the lookahead queue and, behind it in the same
// order, up to k − 1 more partitions *of the same key* that are already
// waiting (it never waits for more, and stops at the first partition of
// another key, so nothing overtakes the order), then runs their device parts
// one after another in one hold of the device lock. Each partition keeps its
// own GPU_PICKUP, GPU_START … GPU_END bracket (GPU_START of a later partition
// when its own device part starts; the wait behind the earlier ones is queue
// wait), and its tail goes to the tail threads as soon as its device part
// ends. Trade-off: fewer lock hand-overs and, on a GPU, back-to-back kernels
// of one key (no other worker's uploads in between) against latency (a
// partition waits behind up to k − 1 others of the same call), less sharing
// between the workers of a device (one takes k partitions while the other
// may find the queue empty), and earlier freed lookahead slots (synthesis runs
// further ahead: more partitions hold host memory at once). With lookahead
// < k a call never reaches k. k = 1 is the plain pipeline.
//
// Host memory (engine_config::host_memory_budget; 0 = no limit, the
// accounting still shows in engine_stats). Three things are counted, and
// their sum never exceeds the budget:
//   - the registered keys (memory_resident): each proving key's points and
//     coefficients and each PCE (counted once however many keys share it),
//     what a cuda key holds on the host besides (gpu_key::host_bytes: pinned
//     copies, a snarkjs key's PCE) and, on the cuda backend, its page-locked
//     staging buffers (gpu_staging_host_bytes). add_key refuses
//     (errc::out_of_memory) a key that does not fit, or that would leave no
//     room for a partition of an earlier key whose jobs are admitted, and
//     waits while partitions in flight hold the room it needs;
//   - partitions in flight (memory_reserved): every partition reserves its
//     estimate (see partition_bytes_estimate) before its synthesis starts and
//     returns it when its device part ends (what is left after that is a few
//     points and the public inputs). A partition waits while the budget is
//     short (head of line: later partitions do not overtake it); a job whose
//     partition can never fit next to the keys is refused by submit() with
//     errc::out_of_memory;
//   - buffers kept for reuse (memory_pooled): aux vectors and the
//     page-locked packed witnesses of the cuda backend. A buffer is pooled
//     only while it fits, and pooled buffers are freed when a partition or a
//     key needs their room.
// Page-locked memory in use by a partition (its packed witness) is part of
// that partition's estimate.
//
// Faults: the backends have three failure points per device part (a device
// allocation, the witness copy, a kernel; cuzk/backend/fault.hpp, switched on
// by CUZK_FAULT or fault::arm). A failure there ends only the partition's job
// (failed, with the backend's message and code); the engine keeps proving.
//
// Device memory (engine_config::device_memory_budget, per device; 0 = no
// limit of the engine's own, reservations still counted in engine_stats: the
// device's allocator is the limit and a failed allocation fails that job with
// errc::out_of_memory): every key has a
// per-partition device estimate (key_options::device_bytes, else
// device_bytes_estimate() on the CPU backend and gpu_key::prove_scratch_bytes()
// on the CUDA one) and, on the CUDA backend, the bytes its resident gpu_key
// holds, reserved once by add_key. A prove worker reserves one partition's
// device bytes (the partitions of one call run one after another and reuse
// the scratch) before it waits for the device lock (span DEV_MEM_WAIT while
// short) and returns them when the call's device parts have ended. submit()
// refuses (errc::out_of_memory) a job whose device part could never fit next
// to the resident keys, naming both sizes; add_key refuses a key whose
// resident bytes do not fit, or would leave no room for the device part of an
// earlier key whose jobs are admitted. The CPU backend holds
// no device memory: it accounts the same estimate as a model, so the knob
// behaves (and can be tested and sized) as it will on a GPU.
//
// Backends (engine_config::backend): cpu runs the device part with
// device_threads threads on the host. cuda (one device) builds a shared
// cuzk::gpu_key per key at add_key (the queries, and the PCE when there is
// one, resident in device memory) and runs the device part with
// gpu_prove_start_witness for witness partitions of a key with a PCE (the
// synthesis stage then skips the host PCE evaluation: PCE_EVAL and the
// satisfaction check run on the device, and packs the aux assignment instead
// (a PACK span, device −1: gpu_packed_witness, 2-bit tags for the 0/1 values
// and the others alone, in page-locked memory reused between partitions;
// the aux vector is freed), so that under the device lock only that packed
// form is copied) and gpu_prove_start for circuit and
// abc partitions (a, b, c from the host). Device spans (H2D, PCE_EVAL, NTT,
// MSM_x, BATCH_ADD, D2H) then come from the device's own timing
// (prove_observer::step_span), mapped onto the engine clock. snarkjs keys go
// to gpu_prove_start_snarkjs (a·w and b·w on the device; the synthesis stage
// only checks the witness). Creating a cuda engine where CUDA is not available
// throws errc::unsupported with cuda_available()'s reason.
//
// Keys in the snarkjs convention (from io::read_zkey) take witness partitions
// only, best as full_witness_partition (the .wtns order). Their synthesis
// stage evaluates a = A·w and b = B·w from the key's coefficient list (span
// PCE_EVAL); their device part is groth16::prove_start_snarkjs. Without R1CS
// C rows there is no satisfaction check before proving: a witness that does
// not satisfy the circuit fails at self-verify (errc::internal), or yields an
// invalid proof when self_verify is off.
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
//   GPU_PICKUP (call=, an engine-wide number of the prove call, the same
//   for the partitions taken together), GPU_START, GPU_END (gpu_ms)
//                                                              prove worker, its device
//   span DEV_MEM_WAIT (bytes=) while the device budget is short  prove worker, its device
//   spans MEM_WAIT, PCE_EVAL (device −1); LOCK_WAIT, NTT, MSM_H, MSM_L, MSM_A,
//   MSM_B1, MSM_B2, BATCH_ADD (nested in each MSM_x, detail query=…) with the
//   prove worker's device (on the CUDA backend also H2D and PCE_EVAL, at the
//   device's times); CPU_TAIL (device −1, the tail thread as worker).
// GPU_END is emitted when the CPU tail has finished (curio's meaning). Worker
// numbers are unique in the engine: synthesis workers 0 … S−1, then the
// prove workers (device-major), then the tail threads.
//
// Threads: all explicit, started by the constructor and joined by the
// destructor. The CPU backend has `devices` "devices" (locks); device work
// runs with device_threads threads.
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

enum class engine_backend : uint8_t { cpu, cuda };
const char* backend_name(engine_backend b) noexcept;   // "cpu", "cuda"

struct engine_config {
    unsigned synth_workers = 2;        // partitions synthesized at once (>= 1)
    unsigned synth_threads = 1;        // threads inside one synthesis (a circuit's parallel witness, PCE evaluation, check); 0 = all
    unsigned lookahead = 2;            // synthesized partitions that may wait for a prove worker (>= 1)
    unsigned devices = 1;              // device locks (the cuda backend: exactly 1, CUDA device 0)
    unsigned workers_per_device = 2;   // prove workers per device, sharing its lock (>= 1)
    unsigned partitions_per_call = 1;  // partitions of one key a prove worker runs per lock hold (>= 1)
    unsigned device_threads = 0;       // threads of the CPU backend's device work; 0 = all
    unsigned tail_threads = 1;         // CPU-tail threads; 0 = the prove worker runs its tail after the lock
    uint64_t host_memory_budget = 0;   // bytes for keys, partitions in flight and pools; 0 = unlimited
    uint64_t device_memory_budget = 0; // bytes per device for keys and device parts; 0 = unlimited
    engine_backend backend = engine_backend::cpu;
    bool self_verify = true;           // verify every proof before reporting it
    timeline::sink* sink = nullptr;    // borrowed, may be null; must outlive the engine
};

struct key_options {
    std::string name;               // for messages
    uint64_t partition_bytes = 0;   // host memory per partition in flight; 0 = partition_bytes_estimate
    uint64_t device_bytes = 0;      // device memory per device part; 0 = the backend's estimate
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
// The same formula serves snarkjs keys (a, b and the coset values in place of
// a, b, c).
uint64_t partition_bytes_estimate(const groth16::proving_key& pk);

// The device memory one device part of this key needs on top of the resident
// key, as a model of the CUDA prover's scratch (used by the CPU backend, which
// has no device memory of its own; the CUDA backend asks its gpu_key). With n
// and v as above:
//   witness 32·v, a, b, c and the NTT scratch 4·32·n, MSM scalars 32·v,
//   MSM sort keys and bucket indices 16·v, plus 1 MiB.
uint64_t device_bytes_estimate(const groth16::proving_key& pk);

// A partition as a C++ circuit (its witness from circuit::witness() on
// synth_threads threads when the circuit offers one, else synthesized with
// witness_cs; evaluated with the key's PCE).
struct circuit_partition {
    std::shared_ptr<const r1cs::circuit> circuit;
};
// A partition as witness assignments for the key's PCE: inputs start with
// ONE (num_inputs values), then num_aux aux values.
struct witness_partition {
    std::vector<fr> inputs;
    std::vector<fr> aux;
};
// The full witness in one vector: w[0] = 1, the public inputs, then the
// private values (the .wtns order; for bellperson keys the same as inputs ‖
// aux). The natural form for snarkjs keys; bellperson keys need a PCE for it.
struct full_witness_partition {
    std::vector<fr> w;
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
using partition = std::variant<circuit_partition, witness_partition, abc_partition, full_witness_partition>;

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
    uint64_t device_calls = 0;                 // device-lock holds (one per prove call of ≤ partitions_per_call)
    uint64_t memory_reserved = 0;              // host bytes reserved by partitions in flight now
    uint64_t memory_resident = 0;              // host bytes of the registered keys (and cuda staging)
    uint64_t memory_pooled = 0;                // host bytes of buffers kept for reuse
    uint64_t memory_peak = 0;                  // the most of reserved + resident + pooled ever held at once
    size_t jobs_live = 0;                      // submitted, not yet ended
    size_t lookahead_queued = 0;               // synthesized partitions waiting for a prove worker
    std::vector<uint64_t> device_busy_ns;      // per device: time inside the device part, under the lock
    std::vector<uint64_t> device_memory_reserved;   // per device: bytes of the device budget reserved now
    std::vector<uint64_t> device_memory_peak;       // per device: the most ever reserved at once
    uint64_t uptime_ns = 0;
};

class engine {
public:
    // Starts the worker threads. Throws errc::invalid_argument for a zero
    // worker count, lookahead, device count or partitions_per_call, or a cuda
    // backend with more than one device; errc::unsupported for the cuda
    // backend where CUDA is not available (the message has the reason).
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
    // errc::invalid_argument / errc::unsupported naming the mismatch, and
    // errc::out_of_memory when the device or host budget cannot hold the key
    // (see "Device memory" and "Host memory"). The cuda backend uploads the key here (errc::device
    // on a CUDA failure).
    //
    // A snarkjs-convention key (pk->conv == snarkjs, e.g. io::read_zkey's) is
    // registered with the two-argument form and a null pce: add_key(pk,
    // nullptr, opt). Its jobs take witness_partition / full_witness_partition
    // only. On the cuda backend its device part is gpu_prove_start_snarkjs.
    key_id add_key(std::shared_ptr<const groth16::proving_key> pk, std::shared_ptr<const r1cs::pce> pce,
                   groth16::query_density density, const key_options& opt = {});
    key_id add_key(std::shared_ptr<const groth16::proving_key> pk, std::shared_ptr<const r1cs::pce> pce,
                   const key_options& opt = {});
    // The host memory estimate in use for a key.
    uint64_t partition_bytes(key_id k) const;
    // The device memory per device part in use for a key.
    uint64_t device_bytes(key_id k) const;

    // Queues a job. Throws (and queues nothing) when the key is unknown, there
    // are no partitions, a circuit partition has no circuit or the key no PCE
    // for it, the id is in use by a job that has not ended
    // (errc::invalid_argument), a partition's form does not suit the key
    // (snarkjs keys: witnesses only), or one partition can never fit the host
    // or device memory budget (errc::out_of_memory, with both sizes in the
    // message).
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
