// cuzk — the CUDA backend: device NTT over Fr and device MSM on G1 and G2,
// bit-exact with the CPU paths (ntt/ntt.hpp, msm/msm.hpp).
//
// Plain C++: no CUDA header or type appears here. Device memory is handled
// through gpu_buffer and passed as pointers to the host types (fr, g1_affine,
// …), whose device counterparts are bitwise identical, so host arrays copy to
// the device as they are.
//
// Every function exists in every build. Built without CUDA, cuda_available()
// returns false with the reason "built without CUDA" and the others throw
// cuzk::error(errc::unsupported). Built with CUDA, a failing CUDA call throws
// cuzk::error(errc::device) with the call, the place and CUDA's message; a
// failed allocation throws errc::out_of_memory.
//
// Devices: every call runs on the calling thread's CUDA device (device 0
// until the thread chooses another with cuda_select_device or a
// cuda_device_scope). The backend keeps one stream per device for these
// calls and caches scratch buffers and twiddle tables per device between
// calls (gpu_release_cache frees the current device's, those of the GPU
// prover's second stream included). Calls from several host threads on one
// device are serialised; different devices run independently. (The GPU
// prover runs part of a prove on a second stream of the key's device:
// gpu_key_options::overlap.)
#pragma once

#include <cstddef>
#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>

#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/bn254.hpp"
#include "cuzk/msm/msm.hpp"
#include "cuzk/ntt/ntt.hpp"
#include "cuzk/r1cs/pce.hpp"

namespace cuzk {

namespace bridge {
struct timer_handle;   // gpu_timer's two CUDA events; defined by the kernels, not part of the API
}

// ---- discovery ---------------------------------------------------------------------
// True when this build has CUDA and a device can be used; otherwise false and
// *why (if given) says why ("built without CUDA", "cudaGetDeviceCount: …").
bool cuda_available(std::string* why = nullptr);
// Number of CUDA devices; 0 without CUDA or without a driver.
int cuda_device_count();
// One line about the calling thread's device: name, compute capability, SMs,
// memory, versions.
std::string cuda_device_info();

// The calling thread's CUDA device (thread-local, as CUDA's own choice).
// cuda_select_device returns the previous one; it throws
// errc::invalid_argument for a device that does not exist, errc::unsupported
// without CUDA. A device's buffers, timers and keys (gpu_buffer, gpu_timer,
// gpu_key) belong to the device current when they were made.
int cuda_select_device(int device);
int cuda_current_device() noexcept;
// cuda_select_device(device) for the scope's life, then the previous choice.
class cuda_device_scope {
public:
    explicit cuda_device_scope(int device) : prev_(cuda_select_device(device)) {}
    ~cuda_device_scope();
    cuda_device_scope(const cuda_device_scope&) = delete;
    cuda_device_scope& operator=(const cuda_device_scope&) = delete;

private:
    int prev_;
};

// ---- device memory and timing ---------------------------------------------------------
// An owning device allocation (cudaMalloc). Move-only.
class gpu_buffer {
public:
    gpu_buffer() = default;
    explicit gpu_buffer(size_t bytes);
    ~gpu_buffer();
    gpu_buffer(gpu_buffer&& o) noexcept
        : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)), device_(o.device_)
    {
    }
    gpu_buffer& operator=(gpu_buffer&& o) noexcept;
    gpu_buffer(const gpu_buffer&) = delete;
    gpu_buffer& operator=(const gpu_buffer&) = delete;

    void* data() const { return p_; }
    size_t size() const { return n_; }
    int device() const { return device_; }   // the CUDA device it lives on
    template <class T>
    T* as() const
    {
        return static_cast<T*>(p_);
    }
    // Synchronous copies; throw errc::invalid_argument when out of range.
    void upload(const void* src, size_t bytes, size_t offset = 0);
    void download(void* dst, size_t bytes, size_t offset = 0) const;
    template <class T>
    void upload(std::span<const T> s, size_t offset = 0)
    {
        upload(s.data(), s.size_bytes(), offset);
    }
    template <class T>
    void download(std::span<T> s, size_t offset = 0) const
    {
        download(s.data(), s.size_bytes(), offset);
    }

private:
    void* p_ = nullptr;
    size_t n_ = 0;
    int device_ = 0;
};

// Device time between start() and stop_ms(), from two CUDA events recorded on
// the backend's stream (stop_ms waits for the stop event).
class gpu_timer {
public:
    gpu_timer();
    ~gpu_timer();
    gpu_timer(const gpu_timer&) = delete;
    gpu_timer& operator=(const gpu_timer&) = delete;
    void start();
    double stop_ms();

private:
    bridge::timer_handle* t_ = nullptr;
};

// Waits for all work on the backend's stream.
void gpu_synchronize();
// Frees the cached scratch buffers and twiddle tables.
void gpu_release_cache();
// The current device's free and total memory in bytes (what a budget such
// as gpu_key_options::h_copies_budget is planned against); the cached
// scratch counts as used until gpu_release_cache.
struct gpu_memory_info {
    uint64_t free = 0, total = 0;
};
gpu_memory_info gpu_memory();

// ---- device memory budget ---------------------------------------------------------------
// Every device allocation cuzk makes (gpu_buffer, the backend's cached
// scratch, sort buffers and twiddle tables, keys and their PCE and index
// lists, chunk buffers, staged witnesses, setup tables, hash constants) is
// counted per CUDA device. With a cap, an allocation that would take the
// count past it fails with errc::out_of_memory as if the device had no
// more room, and gpu_memory() (and every size the backend derives from the
// free memory: chunk buffers, sort groups, copies of H, a key's residency)
// sees free = min(free, cap − counted) and total = min(total, cap): a 16 GB
// card is modelled exactly on a larger one. Not counted: the CUDA context
// and what the driver and libraries keep for themselves (a few hundred MB),
// so a card of G GB is modelled by a cap of G less that. The high-water
// mark is the largest count since the last reset. Thread-safe. Without CUDA
// nothing allocates and the counts stay 0. Devices 0 … 63; others throw
// errc::invalid_argument.
struct gpu_memory_use {
    uint64_t used = 0;   // bytes counted now
    uint64_t peak = 0;   // the high-water mark since the last reset
    uint64_t cap = 0;    // 0 = none
};
void gpu_set_memory_cap(int device, uint64_t bytes);   // 0 removes the cap
gpu_memory_use gpu_memory_use_of(int device);
void gpu_reset_memory_peak(int device);   // peak = used

// ---- field arithmetic (tests) and multiply throughput (benchmarks) -------------------------
enum class gpu_field_op : uint8_t { mul, sqr, add, sub, neg };
// out[i] = a[i] op b[i] (b ignored for sqr and neg), computed on the device.
// Throws errc::invalid_argument when the lengths differ.
void gpu_field_apply(gpu_field_op op, std::span<const fp> a, std::span<const fp> b, std::span<fp> out);
void gpu_field_apply(gpu_field_op op, std::span<const fr> a, std::span<const fr> b, std::span<fr> out);
void gpu_field_apply(gpu_field_op op, std::span<const fp2> a, std::span<const fp2> b, std::span<fp2> out);

enum class gpu_field { fp, fr };
struct gpu_mul_rate {
    double ms = 0;     // device time of the timed kernel
    double muls = 0;   // Montgomery multiplications it performed
};
// blocks × 256 threads, each `iters` × 4 independent multiplication chains.
gpu_mul_rate gpu_bench_field_mul(gpu_field f, unsigned blocks, unsigned iters);

// ---- NTT over Fr ------------------------------------------------------------------------
// The same transforms as ntt/ntt.hpp, natural order in and out:
//   forward        a_i <- Σ_j a_j ω^{ij}                       (ntt)
//   inverse        a_i <- (1/n) Σ_j a_j ω^{−ij}                (intt)
//   coset_forward  a_i <- Σ_j a_j (shift·ω^i)^j                (coset_ntt)
//   coset_inverse  the inverse of coset_forward                (coset_intt)
// with ω = root_of_unity(log2 n, conv). Sizes 2^0 … 2^30 (device memory
// permitting; the twiddle tables hold n − 1 elements and are cached per size
// and convention, and sizes above 2^11 use a scratch array of n elements).
enum class gpu_ntt_kind : uint8_t { forward, inverse, coset_forward, coset_inverse };
// fast: the scratch array and the full twiddle tables above (2n elements
// beside the data). low: in place with no scratch, and twiddle tables of
// 2^20 elements at most (the later stages' twiddles made as they are used),
// for a device too small for those 2n; slower (a bit-reversal pass of its
// own, one more multiplication a butterfly in the late stages), the same
// result bit for bit.
enum class gpu_ntt_memory : uint8_t { fast, low };
// In place on a host array: copies it to the device and back. Throws
// errc::invalid_argument when a.size() is not a power of two, or for a zero
// shift of coset_inverse.
void gpu_ntt(std::span<fr> a, root_convention conv, gpu_ntt_kind kind = gpu_ntt_kind::forward,
             const fr& shift = fr::one());
// In place on 2^log_n elements already in device memory (e.g. a gpu_buffer).
// The result is multiplied by `scale`; for the coset kinds and the inverses
// that costs nothing (it joins the power table or the 1/n), so a caller can
// fold a constant factor of its own into the transform (the GPU prover's H
// step: iNTT with scale n, i.e. without 1/n, then coset NTT with scale 1/n).
void gpu_ntt_device(fr* data, unsigned log_n, root_convention conv, gpu_ntt_kind kind = gpu_ntt_kind::forward,
                    const fr& shift = fr::one(), const fr& scale = fr::one(),
                    gpu_ntt_memory memory = gpu_ntt_memory::fast);
// The same over BN254's Fr (ω = root_of_unity_of<bn254::fr>(log2 n, conv)).
void gpu_ntt(std::span<bn254::fr> a, root_convention conv, gpu_ntt_kind kind = gpu_ntt_kind::forward,
             const bn254::fr& shift = bn254::fr::one());
void gpu_ntt_device(bn254::fr* data, unsigned log_n, root_convention conv, gpu_ntt_kind kind = gpu_ntt_kind::forward,
                    const bn254::fr& shift = bn254::fr::one(), const bn254::fr& scale = bn254::fr::one(),
                    gpu_ntt_memory memory = gpu_ntt_memory::fast);

// ---- MSM on G1 and G2 ------------------------------------------------------------------------
// Σ scalars[i]·points[i], with the contract of msm/msm.hpp: scalars are
// canonical little-endian 256-bit integers (any value below 2^256), points
// affine, the identity (0, 0) allowed. Signed-digit Pippenger with points
// sorted into buckets (kernels/msm_device.cuh); the result is the same group
// element as the CPU's msm() (compare with ==, or after to_affine()).
// A copy back to the host as a timeline span (D2H), on the host's steady
// clock: from the device's end of the work before it to the host holding the
// data (the read after the synchronising copy, so it includes the wake-up).
struct gpu_copy_span {
    std::chrono::steady_clock::time_point begin{}, end{};
    bool set() const { return end != std::chrono::steady_clock::time_point{}; }
};

struct gpu_msm_options {
    unsigned window_bits = 0;   // 1 … 24; 0 = gpu_msm_window_bits(n, …)
    // When set: receives the copy of the window sums back to the host (left
    // unset when the MSM has nothing to sum). Costs a synchronise at the start.
    gpu_copy_span* window_copy = nullptr;
    // How the buckets accumulate: xyzz (mixed additions only), batch_affine
    // (rounds of pairwise affine additions with one inversion per batch,
    // kernels/msm_affine.cuh, then XYZZ additions for what is left; only when
    // the buckets hold 4 entries or more on average), or automatic: the
    // batch-affine rounds for BLS12-381 G2 from 2^20 points, where they
    // measured faster on an H200, XYZZ otherwise (G1 and BN254 measured
    // slower with them: their extra memory passes cost more than the
    // multiplications they save). The result is the same group element.
    msm_buckets buckets = msm_buckets::automatic;
};
// The window the automatic choice takes for n points (see lib/backend/cuda.cpp).
unsigned gpu_msm_window_bits(size_t n, bool g2 = false, unsigned scalar_bits = 255);
// Whether msm_buckets::automatic takes the batch-affine rounds for n points
// of BLS12-381 G1 (g2 = false) or G2 (g2 = true).
bool gpu_msm_batch_affine(size_t n, bool g2);
// Host arrays: copied to the device, then as gpu_msm_device. Throws
// errc::invalid_argument when the lengths differ, n >= 2^31 or window_bits > 24.
g1_jacobian gpu_msm(std::span<const g1_affine> points, std::span<const fr::repr> scalars,
                    const gpu_msm_options& opt = {});
g2_jacobian gpu_msm(std::span<const g2_affine> points, std::span<const fr::repr> scalars,
                    const gpu_msm_options& opt = {});
// Points and scalars already in device memory (n of each).
g1_jacobian gpu_msm_device(const g1_affine* points, const fr::repr* scalars, size_t n,
                           const gpu_msm_options& opt = {});
g2_jacobian gpu_msm_device(const g2_affine* points, const fr::repr* scalars, size_t n,
                           const gpu_msm_options& opt = {});
// The same over BN254's G1 and G2 (scalars: canonical 256-bit integers, as
// bn254::fr::to_repr gives them).
bn254::g1_jacobian gpu_msm(std::span<const bn254::g1_affine> points, std::span<const fr::repr> scalars,
                           const gpu_msm_options& opt = {});
bn254::g2_jacobian gpu_msm(std::span<const bn254::g2_affine> points, std::span<const fr::repr> scalars,
                           const gpu_msm_options& opt = {});
bn254::g1_jacobian gpu_msm_device(const bn254::g1_affine* points, const fr::repr* scalars, size_t n,
                                  const gpu_msm_options& opt = {});
bn254::g2_jacobian gpu_msm_device(const bn254::g2_affine* points, const fr::repr* scalars, size_t n,
                                  const gpu_msm_options& opt = {});

// ---- G1 MSM over shifted copies of resident points ------------------------------------------
// For MSMs repeated over the same G1 points (a proving key's H query). With
// m copies Q_k = 2^(k·s·c)·P_i of the points (copy 0 the points themselves)
// the W windows of c bits share s = ceil(W/m) rows of buckets: window
// w = k·s + r adds copy k's points into row r, as 2^(wc)·d·P = 2^(rc)·d·Q_k.
// Each point still takes W additions, but the bucket reduction runs over s
// rows instead of W, which lets a wider window (fewer windows, so fewer
// additions) pay. The copies take (m − 1)·n·96 bytes of device memory.
struct gpu_msm_table_plan {
    unsigned window_bits = 0;   // c, 1 … 24
    unsigned copies = 1;        // m, counting the points themselves (1: no copies)
    unsigned rows = 0;          // s = ceil(W/m), W = ceil(257/c) windows (any 256-bit scalar)
    uint64_t bytes = 0;         // device memory of copies 1 … m−1
};
// The plan of least estimated device time for n points whose copies fit in
// budget_bytes (the cost model of gpu_msm_window_bits with s rows to reduce;
// lib/backend/gpu_msm_table.cpp). With a budget of 0: no copies, the window
// gpu_msm_window_bits(n) takes.
gpu_msm_table_plan gpu_msm_table_choose(size_t n, uint64_t budget_bytes);

// The copies of a plan, built on the current device from n points in device
// memory. The table reads the points themselves as copy 0: they must stay in
// place, unchanged, for the table's life. Move-only.
class gpu_msm_table {
public:
    gpu_msm_table() = default;
    // Throws errc::invalid_argument for a plan that does not fit n (window
    // outside 1 … 24, copies 0 or above W, rows·copies < W, copy numbers that
    // do not fit beside a point index in 31 bits), errc::out_of_memory when
    // the copies do not fit on the device, errc::unsupported without CUDA.
    gpu_msm_table(const g1_affine* points, size_t n, const gpu_msm_table_plan& plan);

    bool empty() const { return n_ == 0; }
    size_t size() const { return n_; }
    const g1_affine* points() const { return points_; }
    const gpu_msm_table_plan& plan() const { return plan_; }
    const gpu_buffer& copies() const { return copies_; }   // copies 1 … m−1, n points each

private:
    const g1_affine* points_ = nullptr;
    size_t n_ = 0;
    gpu_msm_table_plan plan_;
    gpu_buffer copies_;
};
// Σ scalars[i]·P_i over the table's n points, scalars in device memory: the
// same group element as gpu_msm_device(t.points(), scalars, n). Throws
// errc::invalid_argument when opt.window_bits is neither 0 nor the table's
// window, or opt.buckets asks for batch-affine rounds (the rows take XYZZ
// additions only); opt.window_copy as for gpu_msm_device.
g1_jacobian gpu_msm_device(const gpu_msm_table& t, const fr::repr* scalars, const gpu_msm_options& opt = {});

// ---- sparse constraint evaluation (PCE) on the device ------------------------------------
// The three CSR matrices of an r1cs::pce (row offsets, columns, coefficient
// codes and the coefficient table), copied to device memory once. Row
// offsets are stored as 32-bit values when a matrix has fewer than 2^32
// entries (64-bit otherwise). The PCE must be valid (as pce_builder and
// load_pce produce it: columns below num_inputs + num_aux, codes below
// 2 + table size); only the array sizes are checked here.
//
// With group_tile_log k > 0 (the default) the rows are stored grouped by
// their shape (r1cs/pce_order.hpp: the rows' entry counts in A, B, C) within
// tiles of 2^k rows (by default the whole PCE as one tile), with the order
// (4 bytes a row) beside them, so that the threads of a warp, one row each,
// walk rows of equal lengths; results still go to each row's own index.
// Building the order costs the upload a sort and a copy of the entries on
// the host, in pieces. Smaller tiles keep each row near its neighbours,
// which pays for circuits of many shapes side by side whose neighbouring
// rows read neighbouring columns; Filecoin's PoRep circuit evaluates
// fastest as one tile (docs/PERFORMANCE.md). A PCE of 2^32 rows or more
// keeps its own order (the order's row numbers are 32-bit).
struct gpu_pce_options {
    bool wide_offsets = false;   // tests: keep 64-bit row offsets for every matrix
    // Rows grouped by shape within tiles of 2^group_tile_log rows; 0: the
    // PCE's own order; 32: the whole PCE as one tile.
    unsigned group_tile_log = 32;
    // Streamed: the matrices (and the order) stay in page-locked host memory,
    // laid out as on the device, and every evaluation copies them to the
    // device a tile of at most stream_tile_bytes at a time through two
    // buffers of that size, allocated for the evaluation (copies on a stream
    // of their own, each tile's copy beside the previous tile's kernel).
    // Only the coefficient table stays on the device. For a device without
    // room for the PCE beside a prove; ~7.65 GB cross the bus a 32 GiB PoRep
    // partition. A host that cannot lock that much memory: errc::out_of_memory
    // from the constructor (gpu_key then evaluates a, b, c on the host).
    bool streamed = false;
    uint64_t stream_tile_bytes = uint64_t{256} << 20;
};
class gpu_pce {
public:
    explicit gpu_pce(const r1cs::pce& m, const gpu_pce_options& opt = {});
    ~gpu_pce();
    gpu_pce(gpu_pce&&) noexcept;
    gpu_pce& operator=(gpu_pce&&) noexcept;
    gpu_pce(const gpu_pce&) = delete;
    gpu_pce& operator=(const gpu_pce&) = delete;

    uint32_t num_inputs() const noexcept;   // including ONE
    uint32_t num_aux() const noexcept;
    uint64_t num_constraints() const noexcept;
    uint64_t device_bytes() const noexcept;   // held for the object's life (streamed: the table)
    bool streamed() const noexcept;
    uint64_t host_bytes() const noexcept;         // streamed: the page-locked matrices
    uint64_t eval_device_bytes() const noexcept;  // streamed: an evaluation's two tile buffers

    struct impl;
    const impl& get() const noexcept { return *p_; }

private:
    std::unique_ptr<impl> p_;
};
// a = A·w, b = B·w, c = C·w on the device. w: num_inputs + num_aux values in
// Montgomery form (inputs from ONE, then aux) in device memory; a, b, c:
// num_constraints values each, in device memory, overwritten. Queued on the
// backend's stream (returns before the device has finished).
void gpu_pce_eval_device(const gpu_pce& m, const fr* w, fr* a, fr* b, fr* c);
// The same, then the first constraint i with a[i]·b[i] != c[i] (tested on the
// values as they are made), or −1 when every constraint holds. Waits.
int64_t gpu_pce_eval_check_device(const gpu_pce& m, const fr* w, fr* a, fr* b, fr* c);
// In two parts, for a prove short of room for a, b and c at once: A and B
// (a, b written; C's rows evaluated for the check, not kept), returning the
// first constraint with a·b != c or −1 (waits); later C alone into c
// (queued). A streamed PCE copies all three matrices for the first part and
// C's again for the second.
int64_t gpu_pce_eval_ab_check_device(const gpu_pce& m, const fr* w, fr* a, fr* b);
void gpu_pce_eval_c_device(const gpu_pce& m, const fr* w, fr* c);
// Host arrays (tests): the same, with copies in and out; a, b, c must hold
// num_constraints values. Throws errc::invalid_argument on other sizes.
void gpu_pce_eval(const gpu_pce& m, std::span<const fr> inputs, std::span<const fr> aux, std::span<fr> a,
                  std::span<fr> b, std::span<fr> c);
// The first i < n with a[i]·b[i] != c[i] (device arrays), or −1 when none.
int64_t gpu_first_unsatisfied_device(const fr* a, const fr* b, const fr* c, size_t n);

// ---- witness MSM with the 0/1 path -----------------------------------------------------------
// Σ k_i·P_i for scalars in Montgomery form (witness values, as
// groth16::msm_witness takes them), points and scalars in device memory:
// zeros are skipped, the points whose scalar is 1 are summed by a batch
// addition kernel (BATCH_ADD), the rest go through the Pippenger of
// gpu_msm_device. Equal to groth16::msm_witness on the same input.
struct gpu_msm_witness_stats {
    size_t zeros = 0, ones = 0, others = 0;
    double batch_add_ms = 0, msm_ms = 0;   // device time from CUDA events
    std::chrono::steady_clock::time_point batch_add_begin{}, batch_add_end{};   // on the host's steady clock
    double split_ms = 0;   // device time of the 0/1/other classification and compaction
    // The copy of the batch addition's partial sums back to the host (D2H):
    // from the device's end of the reduction (batch_add_end) to the host
    // holding them (steady_clock read when the synchronising copy returns, so
    // it includes the wake-up). Unset (epoch) when there were no ones.
    std::chrono::steady_clock::time_point d2h_begin{}, d2h_end{};
    // The Pippenger of the others: its window sums' copy back (unset when
    // there were no others).
    gpu_copy_span others_d2h;
};
g1_jacobian gpu_msm_witness_device(const g1_affine* points, const fr* scalars, size_t n,
                                   gpu_msm_witness_stats* stats = nullptr);
g2_jacobian gpu_msm_witness_device(const g2_affine* points, const fr* scalars, size_t n,
                                   gpu_msm_witness_stats* stats = nullptr);
// Host arrays (tests): copied to the device, then as above.
g1_jacobian gpu_msm_witness(std::span<const g1_affine> points, std::span<const fr> scalars,
                            gpu_msm_witness_stats* stats = nullptr);
g2_jacobian gpu_msm_witness(std::span<const g2_affine> points, std::span<const fr> scalars,
                            gpu_msm_witness_stats* stats = nullptr);
// The same over BN254's G1 and G2 with Montgomery bn254::fr scalars (zeros
// and ones against BN254's field): equal to groth16::msm_witness's BN254
// overloads.
bn254::g1_jacobian gpu_msm_witness_device(const bn254::g1_affine* points, const bn254::fr* scalars, size_t n,
                                          gpu_msm_witness_stats* stats = nullptr);
bn254::g2_jacobian gpu_msm_witness_device(const bn254::g2_affine* points, const bn254::fr* scalars, size_t n,
                                          gpu_msm_witness_stats* stats = nullptr);
bn254::g1_jacobian gpu_msm_witness(std::span<const bn254::g1_affine> points, std::span<const bn254::fr> scalars,
                                   gpu_msm_witness_stats* stats = nullptr);
bn254::g2_jacobian gpu_msm_witness(std::span<const bn254::g2_affine> points, std::span<const bn254::fr> scalars,
                                   gpu_msm_witness_stats* stats = nullptr);

} // namespace cuzk
