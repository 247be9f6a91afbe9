// cuzk — the Groth16 device part on the GPU: a proving key resident in device
// memory, the PCE evaluated on the device, and groth16::prove_start's work
// (H by NTTs, the five MSMs with their 0/1 batch additions) without host
// round trips. The result is a groth16::prove_sums, so the CPU tail
// (groth16::prove_finish) and the engine stay as they are.
//
// Plain C++: no CUDA header or type appears here. Every function exists in
// every build; built without CUDA they throw cuzk::error(errc::unsupported).
// A failing CUDA call throws errc::device with the call and CUDA's message; a
// failed allocation, or a prove whose scratch does not fit the device budget,
// throws errc::out_of_memory. The device stays usable after either.
//
// Device: a gpu_key lives on one CUDA device (gpu_key_options::device) and
// its proves run there. Calls on one gpu_key from several threads are
// serialised; keys on different devices prove independently. The engine
// holds one lock per device around them.
//
// Curves: a key prepared for the device is a gpu_key_t<Curve>. The
// BLS12-381 one (gpu_key: both conventions, keys streamed from host memory,
// the packed witness, batches) is most of this header; the BN254 one
// (gpu_key_t<bn254_curve>, snarkjs convention, resident) is at its end.
// The free functions are overloaded on the key.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "cuzk/backend/cuda.hpp"
#include "cuzk/backend/device_plan.hpp"
#include "cuzk/groth16/prover_split.hpp"
#include "cuzk/groth16/types.hpp"
#include "cuzk/r1cs/packed_aux.hpp"
#include "cuzk/r1cs/pce.hpp"

namespace cuzk {

namespace io {
class mapped_params;
}

// A proving key prepared on one CUDA device for Curve's prover; see the
// specialisations below.
template <class Curve>
class gpu_key_t;

struct gpu_key_options {
    // Bytes of device memory this key may keep resident (point queries and
    // PCE matrices). 0 = the device's free memory less a reserve for one
    // prove's scratch. A key whose queries do not fit is not resident: its
    // points are streamed through pinned host buffers in chunks at every prove.
    uint64_t device_budget = 0;
    bool force_streaming = false;   // tests: stream even when the key would fit
    // Streamed keys: the size of each of the two device chunk buffers, in G2
    // points (a G1 chunk holds twice as many points). 0 = automatic: 1/32 of
    // the device memory free once the PCE is placed, at least 128 MiB, at
    // most the largest query (each chunk is an MSM of its own, with its sort
    // and bucket reduction, so larger chunks are faster). Tests set a small
    // odd value to exercise many chunk boundaries.
    // Also, when set, the chunk of a mapped key's resident upload (see the
    // mapped constructor): its staging buffers hold this many G2 points.
    size_t stream_chunk_points = 0;
    // The CUDA device the key is uploaded to and proves on; −1 = the calling
    // thread's device (cuda_select_device; device 0 by default). Every prove
    // with the key runs there, whatever device the calling thread has chosen.
    int device = -1;
    // Mapped keys: threads decoding the points (0 = all). The engine, which
    // makes one key per device at once, gives each a share of the cores.
    unsigned decode_threads = 0;
    // Bellperson keys that are resident: run the witness MSMs (MSM_L, MSM_A,
    // MSM_B1, MSM_B2) on the device's second stream, beside PCE_EVAL, the
    // H step and MSM_H on the first, so that each fills the other's idle
    // moments (launch gaps, sorts, small reduction kernels). The sums are the
    // same either way. Costs the second stream's scratch (the witness MSMs'
    // buckets and sort buffers) on top of prove_scratch_bytes(); a prove that
    // runs out of device memory this way frees the caches and runs again on
    // one stream, and the key keeps to one stream from then on.
    bool overlap = true;
    // Resident bellperson keys: device memory for shifted copies of the H
    // query (gpu_msm_table, planned by gpu_msm_table_choose(|H|, budget)),
    // with which MSM_H reduces fewer rows of buckets and can take wider
    // windows; the sums are the same. 0 = no copies. They are built once,
    // at the end of the key's first prove (a device step "H_COPIES" of that
    // prove: seconds for 2^27 points), in the memory the device has free
    // then, with that prove's scratch held: less a margin (1/64 of the
    // device, at least 2 GiB), the build's scratch and what MSM_H over the
    // copies needs beside the plain one (its buckets, twice). A plan that
    // does not fit takes fewer copies; copies that do not fit at all are left
    // out and the key works without them. A prove that runs out of device
    // memory drops the copies (for good) before anything else.
    uint64_t h_copies_budget = 0;
    // The PCE's rows stored grouped by their shape within tiles of 2^k rows
    // (gpu_pce_options::group_tile_log): a faster evaluation for a slower
    // upload (the rows sorted and their entries rewritten on the host once).
    // 0: the PCE's own order.
    unsigned pce_group_tile_log = gpu_pce_options{}.group_tile_log;
    // Mapped keys that are resident and read without the subgroup check (as
    // Filecoin reads its .params files): each chunk's raw bytes are copied
    // from the mapping (decode_threads threads), uploaded, and decoded in
    // place on the device, with the host decoder's checks (no flag, every
    // coordinate < p, on the curve); the lowest refused point is decoded again
    // on the host, whose error names the file, vector and index. false:
    // decoded on the host (decode_threads threads), then uploaded. The points
    // are the same either way.
    bool device_decode = true;
    // Bellperson keys with a PCE: where its matrices live. false (automatic):
    // on the device, unless the device plan (device_plan.hpp) finds no
    // streamed prove, plain or lean, fits beside them; then streamed from
    // page-locked host memory tile by tile at every evaluation
    // (gpu_pce_options::streamed), when a prove, plain or lean, fits beside
    // its tile buffers; else the PCE stays on the host (has_pce() false: a, b,
    // c are evaluated by host threads and given to gpu_prove_start), which
    // takes a 32 GiB PoRep partition onto a 16 GiB card. true: on the host
    // whatever the device.
    bool host_pce = false;
    // Tests: the PCE streamed whatever the device (unless host_pce), in tiles
    // of at most pce_stream_tile_bytes (0: gpu_pce_options's default).
    bool force_pce_streamed = false;
    uint64_t pce_stream_tile_bytes = 0;
    // Tests: a streamed key proves lean (device_plan.hpp: the witness in c's
    // space, the NTT's buffers freed before the MSMs; the PCE on the device
    // unless host_pce) whatever the device; otherwise lean only when nothing
    // else fits.
    bool force_lean = false;
    // Tests: with force_lean and the PCE on the host or streamed, the
    // low-memory NTT's lean prove (device_plan.hpp, gpu_plan::low_ntt), which
    // the plan otherwise takes only on a device too small for the plain one.
    bool force_low_ntt = false;
    // Tests: the queries a streamed key keeps on the device (gpu_query bits
    // of device_plan.hpp); -1: the device plan's choice (gpu_plan::kept).
    int keep_queries = -1;
};

// Where a gpu_key's construction spent its time: wall seconds on the
// constructing thread (the device work of each part included, as each part
// waits for its own).
struct gpu_key_timings {
    double layout_s = 0;   // sizes and checks, the A/B gather index lists made and uploaded
    double pce_s = 0;      // the PCE's matrices prepared (grouped by shape) and uploaded
    double points_s = 0;   // the five queries: uploaded (a mapping's decoded on the way), or made ready to stream
};

// A proving key (bellperson convention) prepared for the GPU: the H, L, A,
// B_G1 and B_G2 queries (A and B filtered by the density, as prove_start
// uses them) and, when a PCE is given, its three CSR matrices, uploaded once
// and kept in device memory for the life of the object. The index lists that
// gather the A and B scalars from inputs ‖ aux (by the density) are resident
// too. Residency: the PCE is uploaded (unless it must stay on the host, see
// gpu_key_options::host_pce); the queries are resident when
// PCE + queries + index lists fit device_budget, otherwise they stay in
// page-locked host memory (the key's own vectors registered with CUDA, or a
// pinned copy when registration fails) and every prove streams them through
// two device chunk buffers (copy of chunk i+1 overlapping the MSM of chunk
// i; the chunk sums are added, so the result is the same group element).
// A resident upload that fails for lack of device memory falls back to
// streaming. Scratch (w, a, b, c, gathered scalars, chunk buffers, events) is
// allocated at the first prove and kept by the key; its size is fixed by the
// key's sizes.
//
// A key with conv == snarkjs is accepted too (density must then be empty and
// pce null: the key's coefficient list is turned into a PCE with A and B
// rows); it serves gpu_prove_start_snarkjs and gpu_prove_snarkjs only.
template <>
class gpu_key_t<bls12_381_curve> {
public:
    // pk and pce are shared (kept alive); pce may be null (then only
    // gpu_prove_start with a, b, c works). Throws errc::invalid_argument when
    // the PCE or density does not match the key.
    gpu_key_t(std::shared_ptr<const groth16::proving_key> pk, groth16::query_density density,
              std::shared_ptr<const r1cs::pce> pce, const gpu_key_options& opt = {});
    // A bellperson key straight from a mapped .params file (io::mapped_params),
    // without a decoded proving key: the sizes come from the file's counts
    // (domain |h| + 1, inputs |ic|, aux |l|; the same checks and messages as
    // above). A resident key is uploaded in chunks (a reusable pair of
    // page-locked staging buffers, plain memory when CUDA grants none;
    // 96 MiB each, or stream_chunk_points G2 points) straight into its device
    // buffers, one chunk's staging overlapping the previous chunk's copy, and
    // decoded on the device (device_decode; on the host into the staging
    // buffer when it is false or the mapping asks for the subgroup check):
    // no query exists whole on the host. A key that is not resident (budget,
    // force_streaming, or a failed allocation) decodes its queries into host
    // vectors it owns, since every prove streams decoded points; host_bytes()
    // counts them. The mapping is read while the constructor runs and not
    // kept. pk() of such a key holds vk, conv, num_inputs, num_aux and
    // domain_size, and EMPTY point vectors (mapped_params::key_shell).
    // Decoding errors propagate with the file, vector and index.
    gpu_key_t(std::shared_ptr<const io::mapped_params> params, groth16::query_density density,
              std::shared_ptr<const r1cs::pce> pce, const gpu_key_options& opt = {});
    // A literal nullptr key (either form would take it): errc::invalid_argument.
    gpu_key_t(std::nullptr_t, groth16::query_density density, std::shared_ptr<const r1cs::pce> pce,
              const gpu_key_options& opt = {})
        : gpu_key_t(std::shared_ptr<const groth16::proving_key>(), std::move(density), std::move(pce), opt)
    {
    }
    ~gpu_key_t();
    gpu_key_t(const gpu_key_t&) = delete;
    gpu_key_t& operator=(const gpu_key_t&) = delete;

    const groth16::proving_key& pk() const noexcept;
    const groth16::query_density& density() const noexcept;
    // The PCE's matrices are on the device: gpu_prove_start_witness and the
    // batch work (false without a PCE, or when it stays on the host).
    bool has_pce() const noexcept;
    bool resident() const noexcept;          // false: points are streamed per prove
    uint64_t chunk_bytes() const noexcept;   // streamed: bytes of each of the two chunk buffers; resident: 0
    uint64_t streamed_bytes() const noexcept;   // streamed: points copied to the device by its proves so far
    // Whether proves run the witness MSMs on the second stream now
    // (gpu_key_options::overlap, a resident bellperson key, no fallback so
    // far); set_overlap switches the option (benchmarks compare the two).
    bool overlaps() const noexcept;
    void set_overlap(bool on) noexcept;
    int device() const noexcept;             // the CUDA device it lives on
    uint64_t device_bytes() const noexcept;  // device memory held by this key now (copies of H included)
    // The plan of the H query's copies (copies == 1: none; see h_copies_budget).
    gpu_msm_table_plan h_copies() const noexcept;
    // Drops the H query's copies and, with a budget, builds them again as
    // h_copies_budget would have, now if the key has proved (its prove's
    // scratch is then held, so the free memory is the room), else after its
    // next prove (waits for a prove in progress; benchmarks compare the two
    // with one key). Returns the plan built now (copies == 1: none yet).
    gpu_msm_table_plan set_h_copies(uint64_t budget);
    // Device scratch one prove needs on top of device_bytes() (a, b, c, h,
    // witness, scalars, MSM buckets and sort buffers, streaming chunks).
    uint64_t prove_scratch_bytes() const noexcept;
    // Device memory each partition of a batch after the first adds (its
    // witness and its h; gpu_prove_start_witness_batch).
    uint64_t batch_slot_bytes() const noexcept;
    // The key's sizes for the device memory model (device_plan.hpp), and
    // its plan for a device of device_bytes (0: the device's memory as the
    // key sees it, min(total, free + device_bytes()), under the cap of
    // gpu_set_memory_cap when set). The plan's residency and chunk are the
    // key's own (decided when it was made); its batch is what the model
    // allows beside them.
    gpu_key_shape shape() const noexcept;
    gpu_plan plan(uint64_t device_bytes = 0) const;
    // Host memory the key holds beside the proving key and the given PCE:
    // page-locked copies of streamed queries whose registration failed, the
    // decoded queries of a mapped key that is streamed, the PCE built from a
    // snarkjs key's coefficients, and a streamed PCE's page-locked copy (for
    // host budgets).
    uint64_t host_bytes() const noexcept;
    // The construction's parts, timed (see gpu_key_timings).
    gpu_key_timings timings() const noexcept;

    struct impl;

private:
    std::unique_ptr<impl> p_;
    friend struct gpu_prover_access;
};
using gpu_key = gpu_key_t<bls12_381_curve>;

// Step timing reported by the GPU prover: the observer's step_begin/step_end
// are called on the calling thread around each kernel group, and
// prove_observer::step_span (if overridden) receives the device interval
// measured by CUDA events, mapped to std::chrono::steady_clock. Steps: H2D
// (uploads), PCE_EVAL, NTT, MSM_H, MSM_L, MSM_A, MSM_B1, MSM_B2, BATCH_ADD,
// D2H (query = "h", "l", "a", "b1", "b2" inside the MSMs); H_COPIES (query
// "h") once, at the end of the prove that builds a key's copies of H.
//   step_begin/step_end bracket H2D, PCE_EVAL, NTT and the MSM_x on the host
// (H2D and PCE_EVAL have an empty query; MSM_H's h canonical conversion is
// inside MSM_H). BATCH_ADD is reported only through step_span (the device
// interval of the witness MSM's 0/1 batch addition; the host cannot bracket
// it); a bellperson MSM_H has none (h goes through the plain Pippenger; a
// snarkjs key's H values go through the witness MSM, as on the CPU). D2H,
// also step_span only, is a copy of sums back to the host, from the device's
// end of the reduction to the host holding them: a batch addition's partial
// sums and a Pippenger's window sums (one span each per streamed chunk, inside
// their MSM_x). Spans are
// delivered after the last step, in step order. With a key that overlaps
// (gpu_key::overlaps), MSM_L … MSM_B2 run on the second stream from a second
// host thread: their step_begin/step_end come from that thread (never at the
// same moment as the calling thread's), their spans overlap those of
// PCE_EVAL, NTT and MSM_H, and each stream's steps keep their order.
// prove_timings: h_ns = NTT,
// msm_*_ns = the MSM_x device times, total_ns = the host wall time of the
// call (H2D and PCE_EVAL are in total_ns only).

// The device part from a, b, c given by the host (one value per constraint,
// as groth16::prove_start). Equal to groth16::prove_start(k.pk(), k.density(),
// …) point for point.
groth16::prove_sums gpu_prove_start(const gpu_key& k, std::span<const fr> a, std::span<const fr> b,
                                    std::span<const fr> c, std::span<const fr> inputs, std::span<const fr> aux,
                                    groth16::prove_observer* observer = nullptr,
                                    groth16::prove_timings* timings = nullptr);

// The device part from witness assignments only: a, b, c are evaluated on the
// device from the key's PCE (PCE_EVAL), the satisfaction check a·b = c runs on
// the device (errc::unsatisfied naming the first failing constraint). Throws
// errc::invalid_argument when the key has no PCE or the sizes differ.
groth16::prove_sums gpu_prove_start_witness(const gpu_key& k, std::span<const fr> inputs, std::span<const fr> aux,
                                            groth16::prove_observer* observer = nullptr,
                                            groth16::prove_timings* timings = nullptr);

// A witness vector packed on the host for the upload (2-bit tags for the
// values 0 and 1, the other values alone, in page-locked memory; the format
// of lib/backend/bridge/witness_pack.hpp), so that a caller can do this host
// work before it takes its device lock: the prove then only copies it (a
// tenth of the bytes for a witness of bits) and expands it on the device.
// pack() refills the object, growing its buffers only when they are too
// small, so one object serves many partitions. It is also a
// r1cs::packed_aux_sink: a circuit's witness_packed() fills it slice by
// slice (begin, a constraint system per slice from open() on many threads,
// finish), each value tagged as it is allocated, so no aux vector is made. Not thread-safe otherwise: one pack(), fill or prove at a time.
// Built without CUDA, pack() and begin() throw errc::unsupported.
class gpu_packed_witness final : public r1cs::packed_aux_sink {
public:
    gpu_packed_witness();
    ~gpu_packed_witness() override;
    gpu_packed_witness(const gpu_packed_witness&) = delete;
    gpu_packed_witness& operator=(const gpu_packed_witness&) = delete;

    // Packs `values` (Montgomery form) on `threads` threads (0 = all).
    void pack(std::span<const fr> values, unsigned threads = 0);
    // r1cs::packed_aux_sink: the same result as pack() of the whole vector.
    void begin(size_t n) override;
    std::unique_ptr<r1cs::packed_slice> open(size_t aux_at, size_t n_aux, std::span<fr> inputs,
                                             size_t in_at) override;
    void finish(unsigned threads) override;
    size_t size() const noexcept;     // values packed
    size_t others() const noexcept;   // of them neither 0 nor 1
    // Host memory held between packings: the page-locked buffers and the
    // slice buffers kept for the next packing.
    uint64_t host_bytes() const noexcept;

    // Copies the packed values to the key's device now, on a stream of
    // their own, and returns without waiting: called by the thread that
    // packed, outside any device lock, the copy runs beside the kernels of
    // proves already on that device. A prove with this witness on that
    // device then starts from the device copy (its H2D step is the
    // expansion alone); on another device it copies from the host as
    // without staging. The device copy (2 bits per value and the other
    // values: ~0.45 GB for a 32 GiB PoRep partition) stays allocated for the
    // object's life and is reused by later stages; packing again first
    // waits for a copy still in flight. A lean key (device_plan.hpp) takes
    // no staged copy (its device has no room to spare beside a prove): the
    // call returns without one and the prove copies from the host. Throws
    // errc::out_of_memory (nothing
    // staged then) or errc::device like any device call; errc::unsupported
    // without CUDA.
    void stage(const gpu_key& key);
    bool staged_on(int device) const noexcept;   // the current packing is on that device
    uint64_t device_bytes() const noexcept;      // device memory of the staged copy

    struct impl;

private:
    std::unique_ptr<impl> p_;
    friend struct gpu_prover_access;
};

// gpu_prove_start_witness with the aux assignment packed beforehand; equal
// results. Throws errc::invalid_argument when aux.size() differs from the key's.
groth16::prove_sums gpu_prove_start_witness(const gpu_key& k, std::span<const fr> inputs,
                                            const gpu_packed_witness& aux, groth16::prove_observer* observer = nullptr,
                                            groth16::prove_timings* timings = nullptr);

// One partition of a batch: its inputs and its aux, as host values or
// packed beforehand (packed set, aux then empty); its steps go to observer.
struct gpu_batch_part {
    std::span<const fr> inputs;
    std::span<const fr> aux;
    const gpu_packed_witness* packed = nullptr;
    groth16::prove_observer* observer = nullptr;
};

// The device parts of several partitions of one key (with a PCE) in one
// call, each equal to gpu_prove_start_witness's sums for that partition.
// For a streamed key every chunk of points is copied to the device once and
// used by every partition of the batch, so the points cross the bus once a
// batch instead of once a partition: the partitions' H2D, PCE_EVAL and NTT
// run one after the other, each keeping its witness and h on the device
// (gpu_key::batch_slot_bytes() more per partition after the first; the key
// keeps them as scratch), then each query's chunks are copied in turn and
// every partition's MSM runs on each. A partition's MSM_x span runs from
// its first chunk to its last, so the batch's spans overlap. A resident key
// gains nothing from it: its partitions are proved one after the other.
// When the batch's scratch does not fit the device, the backend's caches
// are freed and it is tried again; failing that, the partitions are proved
// one after the other (the same sums). Errors as gpu_prove_start_witness
// (the first failing partition's).
std::vector<groth16::prove_sums> gpu_prove_start_witness_batch(const gpu_key& k,
                                                               std::span<const gpu_batch_part> parts);

// The snarkjs convention (a key built from a snarkjs proving key): a, b from
// the key's coefficient list on the device, the H step of
// groth16::compute_h_snarkjs (odd coset, roots 5^t), the H MSM over the
// Lagrange points, A/B1/B2 from the witness directly (one point per signal),
// then the proof assembled on the host with r and s. Equal to
// groth16::prove_snarkjs(k.pk(), witness, r, s). witness: w[0] = 1, public
// signals, private ones. Throws errc::invalid_argument for a bellperson key
// or a witness of the wrong size. gpu_prove_start_snarkjs is the device part
// alone (the sums, for prove_finish): equal to
// groth16::prove_start_snarkjs(k.pk(), witness) sum by sum.
groth16::prove_sums gpu_prove_start_snarkjs(const gpu_key& k, std::span<const fr> witness,
                                            groth16::prove_observer* observer = nullptr,
                                            groth16::prove_timings* timings = nullptr);
groth16::proof gpu_prove_snarkjs(const gpu_key& k, std::span<const fr> witness, const fr& r, const fr& s,
                                 groth16::prove_observer* observer = nullptr,
                                 groth16::prove_timings* timings = nullptr);

// A witness vector (Montgomery values) into device memory dst as the prover
// sends it: 2-bit tags for the values 0 and 1, the other values alone, and a
// kernel that expands them, so a witness of bits crosses the bus at a
// fraction of its size. dst[i] == src[i] afterwards. scratch: device memory
// for src.size() values (overwritten). Synchronises before returning; returns
// how many values were neither 0 nor 1.
// Page-locked host memory the CUDA backend keeps per device for its staged
// host-to-device copies (two pieces for each device used, allocated at the
// first staged copy to it, on the device's NUMA node when the host has
// several); 0 without CUDA.
uint64_t gpu_staging_host_bytes() noexcept;

size_t gpu_upload_witness(fr* dst, std::span<const fr> src, fr* scratch);

// ---- BN254 (snarkjs's and circom's "bn128") ----------------------------------------------
//
// A gpu_key_t<bn254_curve> holds a snarkjs-convention BN254 proving key's
// five point queries in device memory, and its coefficient list (pk.coefs:
// the A and B matrices) as a CSR with one row per (matrix, constraint), all
// uploaded once by the constructor (lib/backend/gpu_prover_snarkjs.cpp). A
// proof from the witness then takes:
//   device   a = A·w, b = B·w from the CSR (PCE_EVAL: one thread per row,
//            equal to groth16::snarkjs_evaluate_ab bit for bit); c = a∘b,
//            then for a, b, c the inverse NTT and the coset NTT on the odd
//            coset ω_2n·⟨ω_n⟩ (six transforms), h = a·b − c there (NTT);
//            MSM_H over the key's n Lagrange points (full Pippenger: h is
//            random); MSM_L, MSM_A, MSM_B1 (G1) and MSM_B2 (G2) over the
//            witness through the 0/1 witness MSM (gpu_msm_witness_device:
//            zeros skipped, ones summed by BATCH_ADD, the others through
//            Pippenger);
//   host     groth16::prove_finish folds in α, β, δ, r and s.
// The sums equal groth16::prove_start_snarkjs's (the same group elements),
// and the proof equals groth16::prove_snarkjs's for the same r and s.
//
// gpu_key has more: keys streamed from host memory when they do not fit,
// the packed witness upload, batches. A BN254 key must fit the device
// (device_bytes(); each witness MSM also takes transient buffers for the
// compacted others, freed on return).
//
// Thread safety: proofs on one key are serialised by the key; keys are
// independent. Every device call runs on the device that was current when the
// key was made.
template <>
class gpu_key_t<bn254_curve> {
public:
    // Uploads the key's points and its coefficient list (CSR, built on the
    // host in one pass: entries keep their list order inside a row; the list
    // need not be sorted, and repeated (row, signal) entries simply add).
    // Throws errc::invalid_argument for a bellperson-convention key or point
    // sections that do not match the key's sizes, errc::bad_format for a
    // coefficient out of range (matrix > 1, constraint >= domain, signal >=
    // signals), errc::unsupported without a usable device or for 2^32
    // coefficients or more, errc::out_of_memory when the key does not fit.
    explicit gpu_key_t(std::shared_ptr<const groth16::proving_key_t<bn254_curve>> pk);
    ~gpu_key_t();
    gpu_key_t(const gpu_key_t&) = delete;
    gpu_key_t& operator=(const gpu_key_t&) = delete;

    const groth16::proving_key_t<bn254_curve>& pk() const noexcept;
    int device() const noexcept;
    // Device memory held: the points, the coefficient CSR (4 B per row
    // offset, 36 B per coefficient), and the scratch of a proof (3n + n_vars
    // scalars) once the first proof has run.
    uint64_t device_bytes() const noexcept;

    struct impl;

private:
    std::unique_ptr<impl> p_;
    friend struct gpu_snarkjs_access;
};

// The device part: the five sums, for groth16::prove_finish. witness: w[0] =
// 1, the public signals, the private ones (the .wtns order). Throws
// errc::invalid_argument for a witness of the wrong size or w[0] != 1. The
// observer's step_begin/step_end bracket, on the host, PCE_EVAL (the witness
// upload and the evaluation), NTT, MSM_H, MSM_L, MSM_A, MSM_B1 and MSM_B2
// (queries "h", "l", "a", "b1", "b2"; the device has finished each step when
// it ends); inside MSM_L … MSM_B2, step_span reports BATCH_ADD (the device
// interval of the batch addition of the ones, as the BLS12-381 prover does;
// only when there were ones). timings: h_ns = PCE_EVAL and NTT (uploads,
// evaluation, transforms), the msm_*_ns, total_ns.
groth16::prove_sums_t<bn254_curve> gpu_prove_start_snarkjs(const gpu_key_t<bn254_curve>& k,
                                                           std::span<const bn254::fr> witness,
                                                           groth16::prove_observer* observer = nullptr,
                                                           groth16::prove_timings* timings = nullptr);
// The same from a = A·w and b = B·w as groth16::snarkjs_evaluate_ab gives them
// (pk.domain_size values each), for a pipeline that evaluates them on the
// host: no PCE_EVAL step; the uploads of a, b and w are in the NTT step.
groth16::prove_sums_t<bn254_curve> gpu_prove_start_snarkjs(const gpu_key_t<bn254_curve>& k,
                                                           std::span<const bn254::fr> a,
                                                           std::span<const bn254::fr> b,
                                                           std::span<const bn254::fr> witness,
                                                           groth16::prove_observer* observer = nullptr,
                                                           groth16::prove_timings* timings = nullptr);
// A·w and B·w on the device from the key's CSR (PCE_EVAL alone), copied back
// into a and b (pk.domain_size values each): equal to
// groth16::snarkjs_evaluate_ab bit for bit (tests, tools). Throws as
// gpu_prove_start_snarkjs for a bad witness.
void gpu_snarkjs_evaluate_ab(const gpu_key_t<bn254_curve>& k, std::span<const bn254::fr> witness,
                             std::vector<bn254::fr>& a, std::vector<bn254::fr>& b);
// The whole proof with explicit blinding factors (tests), or with r and s
// drawn from the OS CSPRNG.
groth16::proof_t<bn254_curve> gpu_prove_snarkjs(const gpu_key_t<bn254_curve>& k, std::span<const bn254::fr> witness,
                                                const bn254::fr& r, const bn254::fr& s,
                                                groth16::prove_observer* observer = nullptr,
                                                groth16::prove_timings* timings = nullptr);
groth16::proof_t<bn254_curve> gpu_prove_snarkjs(const gpu_key_t<bn254_curve>& k, std::span<const bn254::fr> witness,
                                                groth16::prove_observer* observer = nullptr,
                                                groth16::prove_timings* timings = nullptr);

} // namespace cuzk
