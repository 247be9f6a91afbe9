// cuzk — the persistent proving engine: registered keys, jobs of partitions,
// three stages (synthesis workers, prove workers per device under the
// device's lock, CPU-tail threads), host and device memory budgets, several
// devices, and a timeline of every step. docs/ARCHITECTURE.md ("The proving
// engine") tells the whole story; this header keeps the contracts.
//
// Contracts in brief:
//   - order: priority (higher first), then submission, then partition; a
//     partition waiting for a lookahead slot, for device memory or for the
//     device lock is served in that order or in arrival order, so no later
//     work overtakes it more than once per worker (no starvation);
//   - a job ends exactly once (completed, failed with the first failure, or
//     cancelled), its waiters are woken and on_done runs once; a failure in
//     one job never affects another job or the engine;
//   - the host memory budget bounds keys + partitions in flight + pools; the
//     device budget (per device) bounds resident keys + device parts; work
//     that could never fit is refused at add_key / submit, never queued;
//   - keys are registered (add_key) and removed (remove_key) while the
//     engine runs; ids are never reused; a removed key's jobs already
//     submitted run to their end, and its memory goes back to the budgets
//     when the last of them has let go of it;
//   - every device has a lock, prove workers and its own copy of each key
//     (cuda); a failing device names itself and can be excluded;
//   - a key whose points are streamed (cuda) proves its partitions in
//     batches, each chunk of points copied once for the batch (max_batch,
//     the key's plan); a batch's partitions end their device parts together,
//     and a failure in a batch stays with the partition that caused it;
//   - cuda: device_memory_budget caps every device allocation (the device's
//     memory cap while the engine lives), and stats() reports the measured
//     high-water mark;
//   - keys are BLS12-381 (bellperson or snarkjs convention) or BN254
//     (snarkjs convention only); a BN254 key takes
//     full_witness_partition_t<bn254_curve> only, passes the same stages,
//     spans, budgets, cancellation and self-verify, and its results hold a
//     curve_proof<bn254_curve> (partition_result::get);
//   - timeline::sink::record is called under the engine's lock and must not
//     call into the engine.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "cuzk/error.hpp"
#include "cuzk/groth16/types.hpp"
#include "cuzk/r1cs/constraint_system.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "cuzk/timeline/event.hpp"

namespace cuzk::io {
class mapped_params;
}

namespace cuzk {
// A device's memory plan for a key (engine::plans), defined in
// cuzk/backend/device_plan.hpp: include it to read the plans. Declared here
// so that this header includes no backend header.
struct gpu_plan;
}

namespace cuzk::pipeline {

using key_id = uint32_t;

enum class engine_backend : uint8_t { cpu, cuda };
const char* backend_name(engine_backend b) noexcept;   // "cpu", "cuda"

struct engine_config {
    unsigned synth_workers = 2;        // partitions synthesized at once (>= 1)
    unsigned synth_threads = 1;        // threads inside one synthesis (a circuit's parallel witness, PCE evaluation, check); 0 = all
    unsigned lookahead = 2;            // synthesized partitions that may wait for a prove worker (>= 1)
    // Devices: each has a lock, workers_per_device prove workers and its own
    // memory budget. cpu: the devices modelled (0 = 1). cuda: the first
    // `devices` CUDA devices (0 = every visible one), or those cuda_devices
    // names (devices is then 0 or the list's size).
    unsigned devices = 0;
    std::vector<int> cuda_devices;     // cuda: CUDA device numbers, in the engine's device order
    // A device whose device parts fail this many times in a row with a
    // device error (errc::device) is excluded (exclude_device); 0 = never.
    unsigned device_error_limit = 0;
    unsigned workers_per_device = 2;   // prove workers per device, sharing its lock (>= 1)
    unsigned partitions_per_call = 1;  // partitions of one key a prove worker runs per lock hold (>= 1)
    // cuda, keys whose points are streamed (too large for the device or its
    // budget) and that have a PCE: the most partitions one device call
    // proves together, each chunk of points crossing the bus once for all
    // of them (gpu_prove_start_witness_batch). 0 = as many as the key's
    // plan fits on every device (gpu_key::plan), 1 = one at a time. Such a
    // key takes batches instead of partitions_per_call, and the lookahead
    // grows to its batch so that one can form. cpu: batches only when
    // max_batch > 1 (the modelled device runs the batch's device parts in
    // turn and hands them on together; bellperson keys).
    unsigned max_batch = 0;
    unsigned device_threads = 0;       // threads of the CPU backend's device work; 0 = all
    unsigned tail_threads = 1;         // CPU-tail threads; 0 = the prove worker runs its tail after the lock
    uint64_t host_memory_budget = 0;   // bytes for keys, partitions in flight and pools; 0 = unlimited
    // Bytes per device for keys and device parts; 0 = unlimited. cuda: also
    // each device's memory cap (gpu_set_memory_cap) while the engine lives,
    // so that no allocation passes it: a smaller card is modelled exactly.
    uint64_t device_memory_budget = 0;
    engine_backend backend = engine_backend::cpu;
    bool self_verify = true;           // verify every proof before reporting it
    timeline::sink* sink = nullptr;    // borrowed, may be null; must outlive the engine
};

struct key_options {
    std::string name;               // for messages
    uint64_t partition_bytes = 0;   // host memory per partition in flight; 0 = partition_bytes_estimate (cuda: partition_bytes_estimate_cuda)
    uint64_t device_bytes = 0;      // device memory per device part; 0 = the backend's estimate
    // CUDA backend, bellperson keys: device memory per device for shifted
    // copies of the H query (gpu_key_options::h_copies_budget); 0 = none.
    // Counted in the key's resident bytes.
    uint64_t h_copies_bytes = 0;
    // CUDA backend, keys added from a mapped .params file: decode the points
    // on the host rather than on the devices (gpu_key_options::device_decode).
    bool host_decode = false;
    // CUDA backend, bellperson keys: keep the points in host memory and
    // stream them at every device call even where they would fit the device
    // (gpu_key_options::force_streaming; tests and benchmarks).
    bool force_streaming = false;
    // CUDA backend, a key streamed from host memory: bytes of each of its two
    // device chunk buffers (gpu_key_options::stream_chunk_points); 0 = the
    // device plan's (device_plan.hpp). Larger chunks mean fewer MSMs per
    // query and a smaller batch of partitions.
    uint64_t stream_chunk_bytes = 0;
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
// The same formula serves BN254 keys (their scalars are 32 bytes too; the
// estimate stays an upper bound with BN254's smaller G2 points).
template <class Curve>
uint64_t partition_bytes_estimate(const groth16::proving_key_t<Curve>& pk);
// The same for a key on the CUDA backend, whose MSMs and NTTs run on the
// devices: the witness (32·v, also the bound of its packed form) and, when
// a, b, c are evaluated or given on the host (host_abc: the PCE stays there,
// or partitions come as a, b, c), 3·32·n more, plus 1 MiB: for a 32 GiB
// PoRep partition 4.2 GB, or 17.1 GB with a, b, c. An estimate, not a
// measurement; key_options::partition_bytes overrides it.
uint64_t partition_bytes_estimate_cuda(const groth16::proving_key& pk, bool host_abc);

// The device memory one device part of this key needs on top of the resident
// key, as a model of the CUDA prover's scratch (used by the CPU backend, which
// has no device memory of its own; the CUDA backend asks its gpu_key). With n
// and v as above:
//   witness 32·v, a, b, c and the NTT scratch 4·32·n, MSM scalars 32·v,
//   MSM sort keys and bucket indices 16·v, plus 1 MiB.
// For a BN254 key the same formula (an upper bound, as above) is the per-part
// figure on both backends.
template <class Curve>
uint64_t device_bytes_estimate(const groth16::proving_key_t<Curve>& pk);

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
// The full witness in one vector over the key's scalar field: w[0] = 1, the
// public inputs, then the private values (the .wtns order; for bellperson
// keys the same as inputs ‖ aux). The natural form for snarkjs keys;
// bellperson keys need a PCE for it. The only form a BN254 key takes
// (full_witness_partition_t<bn254_curve>); every other form is BLS12-381's.
template <class Curve>
struct full_witness_partition_t {
    std::vector<typename Curve::fr> w;
};
using full_witness_partition = full_witness_partition_t<bls12_381_curve>;
// A partition with its constraint evaluations ready: a, b, c hold one value
// per constraint of the circuit (without bellperson's input constraints);
// the engine checks a·b = c row by row, and that the sizes match the key.
// Needs no PCE.
struct abc_partition {
    std::vector<fr> a, b, c;
    std::vector<fr> inputs;   // starting with ONE
    std::vector<fr> aux;
};
// Partitions whose arrays the host keeps (e.g. bellperson's own assignment
// vectors, in Montgomery form: cuzk::fr's layout), borrowed instead of
// copied. The engine reads them where it would have copied them and drops
// its copies of `hold` as soon as it no longer reads them; the host learns
// that from hold's deleter, which runs once, when the last copy is dropped
// (also when the job fails or is cancelled first, or submit refuses it). The
// arrays must stay valid and unchanged until then. Values must be canonical
// (< r in Montgomery form): the synthesis stage checks every one
// (errc::non_canonical naming the array and index).
//   witness: the inputs (a few values) are copied when the partition is
//     dispatched; aux is read in place: on the cuda backend, for a key with a
//     PCE, packed straight from the host's memory into the page-locked upload
//     form and released right after; on the cpu backend read by the PCE
//     evaluation and the device part, and released when that ends.
//   abc: on the cuda backend a, b, c and aux are uploaded from the host's
//     memory by the device part and released when it ends; on the cpu backend
//     they are copied in the synthesis stage (its NTTs work in place) and
//     released there.
struct borrowed_witness_partition {
    std::span<const fr> inputs;   // starting with ONE
    std::span<const fr> aux;
    std::shared_ptr<const void> hold;
};
struct borrowed_abc_partition {
    std::span<const fr> a, b, c;
    std::span<const fr> inputs;   // starting with ONE
    std::span<const fr> aux;
    std::shared_ptr<const void> hold;
};
using partition = std::variant<circuit_partition, witness_partition, abc_partition, full_witness_partition,
                               borrowed_witness_partition, borrowed_abc_partition,
                               full_witness_partition_t<bn254_curve>>;

enum class job_status : uint8_t { queued, running, completed, failed, cancelled };
const char* status_name(job_status s) noexcept;   // "queued", "running", …
inline bool is_final(job_status s) noexcept { return s >= job_status::completed; }

// A proof over one curve and its public inputs (without ONE).
template <class Curve>
struct curve_proof {
    groth16::proof_t<Curve> proof{};
    std::vector<typename Curve::fr> public_inputs;
};

// One proved partition, over its key's curve. BLS12-381 keys also fill
// bytes; for BN254 keys it stays zero (BN254 proofs have no 192-byte
// encoding here: io/snarkjs.hpp writes them as snarkjs JSON, io/eip197.hpp
// as EIP-197 bytes).
struct partition_result {
    per_curve<curve_proof> value;       // the alternative of the key's curve
    std::array<uint8_t, 192> bytes{};   // BLS12-381: compressed A ‖ B ‖ C (zcash/bellperson encoding)

    curve_id curve() const noexcept { return curve_id(value.index()); }
    // The proof and inputs over Curve; errc::invalid_argument when the key
    // was of the other curve.
    template <class Curve>
    const curve_proof<Curve>& get() const
    {
        if (const auto* p = std::get_if<curve_proof<Curve>>(&value)) return *p;
        throw error(errc::invalid_argument, std::string("partition_result: a ") + curve_name(curve()) +
                                                " proof, not " + curve_name(Curve::id));
    }
    // BLS12-381's, the common case: get<bls12_381_curve>().proof, .public_inputs.
    const groth16::proof& proof() const { return get<bls12_381_curve>().proof; }
    const std::vector<fr>& public_inputs() const { return get<bls12_381_curve>().public_inputs; }
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
    // Per device (the engine's device order):
    std::vector<uint64_t> device_busy_ns;      // time inside the device part, under the lock
    std::vector<uint64_t> device_partitions;   // device parts run (including failed ones)
    std::vector<uint64_t> device_failures;     // device parts that failed with a device error (errc::device)
    std::vector<uint8_t> device_excluded;      // 1 once excluded (exclude_device or device_error_limit)
    std::vector<int> device_numbers;           // cuda: the CUDA device number; cpu: the index
    std::vector<uint64_t> device_memory_reserved;   // per device: bytes of the device budget reserved now
    std::vector<uint64_t> device_memory_peak;       // per device: the most ever reserved at once
    // Per device: the most device memory held at once since the engine
    // started, measured (cuda: every allocation of the process on that
    // device counted, gpu_memory_use_of(...).peak; cpu: device_memory_peak,
    // the model's reservations).
    std::vector<uint64_t> device_memory_high_water;
    size_t keys_registered = 0;                // keys added and not removed
    // Removed keys whose memory is not given back yet (their jobs still
    // hold them; see engine::remove_key).
    size_t keys_retiring = 0;
    uint64_t uptime_ns = 0;
};

// What engine::remove_key gives back (see there).
struct key_removal {
    // Host bytes of the host budget (the key's points, coefficients and PCE
    // unless another registered key shares them, and what its device keys
    // hold on the host) and device bytes of each device's budget (the key's
    // resident copy: engine::resident_bytes).
    uint64_t host_bytes = 0, device_bytes = 0;
    size_t jobs = 0;      // the key's jobs not ended when it was removed
    bool freed = false;   // true: given back before remove_key returned
};

// Where a key's registration on the devices spent its time
// (engine::registration_timings; cuda backend, bellperson keys): wall
// seconds, each part the slowest device's (gpu_key::timings on each).
struct key_registration_timings {
    double layout_s = 0;   // sizes and checks, the A/B gather index lists made and uploaded
    double pce_s = 0;      // the PCE's matrices prepared (grouped by shape) and uploaded
    double points_s = 0;   // the five queries: uploaded (a mapping's decoded on the way), or made ready to stream
};

class engine {
public:
    // Starts the worker threads. Throws errc::invalid_argument for a zero
    // worker count, lookahead or partitions_per_call, a cuda device number
    // that does not exist or is listed twice, or a device count that
    // contradicts cuda_devices; errc::unsupported for the cuda backend where
    // CUDA is not available (the message has the reason).
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
    // Registers a bellperson .params file without decoding it here
    // (io::mapped_params; the two-argument form takes the density from the
    // PCE). The file's counts are checked first, with the messages above
    // (domain |h| + 1, inputs |ic|, aux |l|). cuda backend: every device's
    // gpu_key decodes the points from the mapping in chunks straight into
    // device memory (a key that does not fit the device is decoded into host
    // memory it owns and streamed); the registered proving key is a shell
    // (vk and sizes, no points), so the host budget counts only what the
    // device keys hold on the host. cpu backend: the CPU prover needs every
    // point in RAM, so the file is decoded into a full proving key and added
    // as above. The mapping is not kept after add_key returns; decoding
    // errors propagate with the file, vector and index.
    key_id add_key(std::shared_ptr<const io::mapped_params> params, std::shared_ptr<const r1cs::pce> pce,
                   groth16::query_density density, const key_options& opt = {});
    key_id add_key(std::shared_ptr<const io::mapped_params> params, std::shared_ptr<const r1cs::pce> pce,
                   const key_options& opt = {});
    // A literal nullptr key (either form would take it): the proving-key
    // form's refusal, errc::invalid_argument "no proving key".
    key_id add_key(std::nullptr_t, std::shared_ptr<const r1cs::pce> pce, groth16::query_density density,
                   const key_options& opt = {})
    {
        return add_key(std::shared_ptr<const groth16::proving_key>(), std::move(pce), std::move(density), opt);
    }
    key_id add_key(std::nullptr_t, std::shared_ptr<const r1cs::pce> pce, const key_options& opt = {})
    {
        return add_key(std::shared_ptr<const groth16::proving_key>(), std::move(pce), opt);
    }
    // Registers a snarkjs-convention BN254 key (circom/snarkjs "bn128", e.g.
    // io's BN254 .zkey reader or groth16::setup_snarkjs<bn254_curve>).
    // Throws errc::invalid_argument for a null key, a key whose conv is not
    // snarkjs, or inconsistent sizes (messages as for BLS12-381 snarkjs
    // keys); errc::out_of_memory as above. Its jobs take
    // full_witness_partition_t<bn254_curve> only (submit refuses any other
    // form, naming the key). The partition's stages are those of a
    // BLS12-381 snarkjs key (the same code, over the curve): synthesis
    // checks the witness (size, w[0] = 1) and, on the cpu backend, evaluates
    // A·w, B·w on the host (PCE_EVAL span); the device part is
    // groth16::prove_start_snarkjs (cpu backend, with its fault points) or
    // gpu_prove_start_snarkjs from the witness (cuda backend: one
    // gpu_key_t<bn254_curve> per engine device, made on that device at add_key; its
    // device bytes are resident like a BLS key's, and the per-part device
    // estimate is device_bytes_estimate); the tail is prove_finish and the
    // self-verify with the key's BN254 prepared verifying key. There is no
    // satisfaction check before proving: a witness that does not satisfy
    // the circuit fails at self-verify (errc::internal).
    key_id add_key(std::shared_ptr<const groth16::proving_key_t<bn254_curve>> pk, const key_options& opt = {});
    // The curve of a registered key; errc::invalid_argument for an unknown id.
    curve_id key_curve(key_id k) const;
    // Unregisters key k: it takes no more jobs, and the engine lets go of
    // it and gives its memory back to the budgets.
    //   - Refuses (errc::invalid_argument, naming the key) an id add_key
    //     never returned and a key removed already. Ids are never reused:
    //     every accessor and submit() refuse a removed id the same way
    //     ("submit <job>: key 3 (<name>) was removed").
    //   - Never waits and never cancels: the key's jobs that were queued or
    //     running go on to their end with the key as usual (cancel their
    //     handles first to stop them). submit() refuses the key as soon as
    //     remove_key has taken it (a submit racing with it either queued
    //     its job before, counted in key_removal::jobs, or is refused).
    //   - The key's host bytes (host_bytes(k)) and its resident device
    //     bytes (resident_bytes(k), every device) count in the budgets and
    //     in stats().memory_resident / device_memory_reserved until the
    //     engine's last reference to the key is gone: at once when no job
    //     of the key has work left (key_removal::freed), else when the last
    //     partition of its jobs has finished (cancelled or failed ones
    //     included: a device part in progress ends first), shortly after
    //     the last job ends, on an engine thread (stats().keys_retiring
    //     counts the keys not given back yet). Then the engine has freed
    //     what it holds of the key: its points and PCE (memory the caller
    //     still shares through the shared_ptrs it passed to add_key stays
    //     the caller's) and, on the cuda backend, its copy on every device
    //     and its page-locked host memory. A waiting add_key or partition
    //     is woken; a key whose partitions could not fit beside the removed
    //     one may now take jobs.
    //   - Job handles of the key's jobs stay valid and keep their results;
    //     they do not hold the key.
    //   - Timeline: KEY_REMOVE (key=, jobs=) at the call, KEY_FREED (key=,
    //     host_bytes=, device_bytes=) when the bytes are given back.
    key_removal remove_key(key_id k);
    // The host memory the budget counts for a key (what key_removal's
    // host_bytes gives back while no other key shares its objects).
    uint64_t host_bytes(key_id k) const;
    // The host memory estimate in use for a key.
    uint64_t partition_bytes(key_id k) const;
    // The device memory per device part in use for a key.
    uint64_t device_bytes(key_id k) const;
    // Where a key's points are while it proves: on the host (cpu backend),
    // resident (cuda: uploaded to every engine device at add_key), or
    // streamed (cuda: a device could not hold them beside a prove's scratch,
    // so they stay in page-locked host memory and are copied to it at every
    // prove, which is slower: bench/RESULTS.md, "a smaller device").
    enum class key_placement { host, resident, streamed };
    key_placement placement(key_id k) const;
    // cuda, BLS12-381 keys: each device's memory plan for the key (its
    // placement, chunk buffers, one prove's buffers, the MSMs' room; see
    // backend/device_plan.hpp) with the batch the engine proves it in (the
    // smallest of the devices' plans, capped by max_batch); empty on the cpu
    // backend and for BN254 keys.
    std::vector<gpu_plan> plans(key_id k) const;
    // The partitions one device call of this key proves together (1: one at a time).
    unsigned batch(key_id k) const;
    // cuda: the key's points copied to the devices by proves so far (a
    // streamed key's traffic over the bus, all devices; 0 when resident).
    uint64_t streamed_bytes(key_id k) const;
    // The device memory the engine counts as a key's on each device (its
    // points when resident, its PCE and index lists, a BN254 key's kept
    // proof scratch; 0 on the cpu backend).
    uint64_t resident_bytes(key_id k) const;
    // cuda backend, bellperson keys: where the key's registration on the
    // devices spent its time (gpu_key::timings; each part the slowest
    // device's, as the devices register at once); zeros otherwise.
    key_registration_timings registration_timings(key_id k) const;

    // Queues a job. Throws (and queues nothing) when the key is unknown or removed, there
    // are no partitions, a circuit partition has no circuit or the key no PCE
    // for it, the id is in use by a job that has not ended
    // (errc::invalid_argument), a partition's form does not suit the key
    // (snarkjs keys: witnesses only; BN254 keys: full_witness_partition_t<
    // bn254_curve> only, which no BLS12-381 key takes), or one partition can never fit the host
    // or device memory budget (errc::out_of_memory, with both sizes in the
    // message).
    job_handle submit(proof_request req);

    // Devices in use (the engine's device numbers are 0 … device_count() − 1).
    unsigned device_count() const noexcept;
    // Takes device d out of service: its prove workers take no more work
    // (a device part in progress ends first), and the others carry on. When
    // no device is left, every job that has not ended fails (errc::device)
    // and submit() refuses new ones. Returns false when d was excluded
    // already; errc::invalid_argument for a d out of range.
    bool exclude_device(unsigned d, const std::string& reason = "excluded by the host");

    engine_stats stats() const;
    const engine_config& config() const noexcept { return cfg_; }
    // Nanoseconds since the engine started (the timeline's clock).
    uint64_t now_ns() const noexcept;

private:
    engine_config cfg_;
    std::shared_ptr<detail::engine_core> p_;   // shared with the jobs (weakly) for cancel()
};

} // namespace cuzk::pipeline
