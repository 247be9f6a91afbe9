// cuzk — the GPU prover (include/cuzk/backend/gpu_prover.hpp): groth16::
// prove_start's device part without host round trips, with a gpu_key (made in
// lib/backend/gpu_key.cpp) resident on the device or streamed from
// page-locked host memory.
//
// One prove (bellperson), all on the backend stream:
//   H2D       inputs ‖ aux → w (and a, b, c when the host gives them), staged
//             through pinned buffers
//   PCE_EVAL  a, b, c = A·w, B·w, C·w; the first row with a·b != c
//   NTT       rows m … m+ni−1 of a = the inputs (bellperson's input
//             constraints input_i·0 = 0), zeros up to n; then the h of
//             compute_h_bellperson in six transforms: iNTT of c; iNTT and
//             coset NTT (shift 7) of a and b; coset iNTT of a·b (the
//             product taken on its first pass) and a ← (a − c)·(7^n − 1)⁻¹
//             (on its last pass; see bellperson_h_step)
//   MSM_H     h_0 … h_{n−2} (canonical integers already: the coset iNTT's
//             scale has the words of z_inv); Pippenger with H
//   MSM_L     Σ aux·L (witness MSM: zeros skipped, ones batch-added)
//   MSM_A     gather w by the A index list, witness MSM with A
//   MSM_B1/2  gather w by the B index list, witness MSMs with B_G1 and B_G2
//   (D2H      inside each witness MSM: the batch addition's partial sums
//             copied back to the host, reported as their own spans)
// The NTT and every field operation give canonical Montgomery values, so the
// h coefficients are the CPU's bit for bit; the MSMs return the same group
// elements as the CPU's (different Jacobian representatives: compare with ==).
//
// Timing: an anchor event is recorded right after a synchronize and paired
// with steady_clock::now(); each step's begin/end events are converted as
// anchor time + elapsed milliseconds.
#include "cuzk/backend/gpu_prover.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <tuple>
#include <type_traits>
#include <vector>

#include "cuzk/backend/cuda.hpp"
#include "fault.hpp"
#include "cuzk/error.hpp"
#include "cuzk/io/bellperson.hpp"
#include "cuzk/ntt/ntt.hpp"

#if CUZK_WITH_CUDA
#include "backend/bridge/cuda_bridge.hpp"
#include "backend/bridge/prove_bridge.hpp"
#include "backend/bridge/witness_pack.hpp"
#include "backend/bridge/witness_slices.hpp"
#endif

#include "backend/gpu_key_impl.hpp"
#include "backend/gpu_prove_steps.hpp"

namespace cuzk {

#if CUZK_WITH_CUDA

using namespace gpu_detail;
using namespace gpu_prove_steps;

namespace {

// A host-side signal from lane 0's thread to lane 1's: an event has been
// recorded (so that a stream_wait on it waits for it), or never will be.
class record_signal {
public:
    void set(bool recorded)
    {
        {
            std::lock_guard<std::mutex> lk(m_);
            if (state_ != 0) return;
            state_ = recorded ? 1 : 2;
        }
        cv_.notify_all();
    }
    bool wait()
    {
        std::unique_lock<std::mutex> lk(m_);
        cv_.wait(lk, [&] { return state_ != 0; });
        return state_ == 1;
    }

private:
    std::mutex m_;
    std::condition_variable cv_;
    int state_ = 0;   // 0 pending, 1 recorded, 2 abandoned
};

// Lane 1's part of an overlapped prove, on its own thread: the witness MSMs
// once w is on the device (w_ready), the gathers into b once the H step is
// done with it (b_free, signalled by b_sig). Errors are kept for the caller;
// lane 1's queue is drained before the thread ends.
void bellperson_lane1(gpu_key::impl& k, device_steps& ds, const bp_vectors& v, bridge::event w_ready,
                      bridge::event b_free, record_signal& b_sig, groth16::prove_sums& out, std::exception_ptr& err)
{
    try {
        const cuda_device_scope on(k.device);
        cuda_bridge::select_lane(1);
        try {
            fault::check(fault::point::lane, "gpu prove: second stream scratch", k.device);
            pb::stream_wait(w_ready);
            bellperson_witness_msms(k, ds, v, out, [&] {
                if (!b_sig.wait()) throw error(errc::cancelled, "gpu prove: the H step failed");
                pb::stream_wait(b_free);
            });
            cuda_bridge::synchronize();   // the last step's end event is complete
        } catch (...) {
            pb::drain(nullptr);
            throw;
        }
    } catch (...) {
        err = std::current_exception();
    }
}

// The overlapped device part: lane 0 runs PCE_EVAL, NTT and MSM_H while
// lane 1 runs MSM_L … MSM_B2 (bellperson_lane1); the helper thread is joined
// before anything leaves this function, errors included.
void bellperson_overlapped(gpu_key::impl& k, device_steps& ds, const bp_vectors& v, bool pce,
                           groth16::prove_sums& out)
{
    const bridge::event w_ready = ds.event(), b_free = ds.event();
    pb::event_record(w_ready, nullptr);
    record_signal b_sig;
    groth16::prove_sums side;
    std::exception_ptr side_err;
    std::thread helper(bellperson_lane1, std::ref(k), std::ref(ds), std::cref(v), w_ready, b_free,
                       std::ref(b_sig), std::ref(side), std::ref(side_err));
    struct joiner {
        std::thread& t;
        record_signal& sig;
        ~joiner()
        {
            sig.set(false);   // no effect once recorded
            if (t.joinable()) t.join();
        }
    } join{helper, b_sig};
    if (pce) bellperson_pce_eval(k, ds, v);
    bellperson_h_step(k, ds, v, [&] {
        pb::event_record(b_free, nullptr);
        b_sig.set(true);
    });
    out.h = bellperson_msm_h(k, ds, v.a);
    cuda_bridge::synchronize();
    helper.join();
    if (side_err) std::rethrow_exception(side_err);
    out.l = side.l;
    out.a = side.a;
    out.b1 = side.b1;
    out.b2 = side.b2;
}

// A lean prove's MSMs, once the witness is in c (v.w).
groth16::prove_sums lean_msms(gpu_key::impl& k, device_steps& ds, const bp_vectors& v,
                              groth16::prove_timings* timings, clock::time_point t_all)
{
    groth16::prove_sums out;
    out.h = bellperson_msm_h(k, ds, v.a);
    bellperson_witness_msms(k, ds, v, out);
    k.proved = true;
    ds.finish(timings, t_all);
    return out;
}

// A lean prove (k.lean) with a, b, c from the host: the backend's cached
// MSM scratch is freed before the H step and the NTT's scratch and
// twiddles after it, so that the two phases share the device's room.
groth16::prove_sums prove_lean(gpu_key::impl& k, device_steps& ds, const bp_vectors& v, std::span<const fr> inputs,
                               std::span<const fr> aux, const abc_host& host_abc, groth16::prove_timings* timings,
                               clock::time_point t_all)
{
    gpu_release_cache();
    lean_abc_h2d(k, ds, v, inputs, host_abc);
    prime(k, k.h, ds, "h");
    bellperson_h_step(k, ds, v);
    gpu_release_cache();
    lean_witness_h2d(k, ds, v, inputs, aux, nullptr);
    return lean_msms(k, ds, v, timings, t_all);
}

// A lean prove with the low-memory NTT (k.low_ntt; a, b, c from the host):
// c is allocated for the H step, whose transforms run in place, and freed
// after it; MSM_H reads h in a, then the witness is uploaded into a for the
// witness MSMs (the A/B gathers into b). One prove holds 2n beside the
// larger of c and the MSMs' room.
groth16::prove_sums prove_lean_low(gpu_key::impl& k, device_steps& ds, const bp_vectors& v,
                                   std::span<const fr> inputs, std::span<const fr> aux, const abc_host& host_abc,
                                   groth16::prove_timings* timings, clock::time_point t_all)
{
    gpu_release_cache();
    {
        gpu_buffer c(k.n * sizeof(fr));
        bp_vectors vh = v;
        vh.c = c.as<fr>();
        lean_abc_h2d(k, ds, vh, inputs, host_abc);
        prime(k, k.h, ds, "h");
        bellperson_h_step(k, ds, vh);
        cuda_bridge::synchronize();   // c's last reader
    }
    gpu_release_cache();
    groth16::prove_sums out;
    out.h = bellperson_msm_h(k, ds, v.a);
    cuda_bridge::synchronize();   // a's last reader before the witness lands there
    lean_witness_h2d(k, ds, v, inputs, aux, nullptr);
    bellperson_witness_msms(k, ds, v, out);
    k.proved = true;
    ds.finish(timings, t_all);
    return out;
}

// A lean prove's witness in a buffer of its own (PCE_EVAL reads it), with
// H's first chunk primed during its upload: body(ve) runs with ve.w there;
// the buffer and the packing's tags are freed once the device is done with
// them.
template <class Body>
void with_own_witness(gpu_key::impl& k, device_steps& ds, const bp_vectors& v, std::span<const fr> inputs,
                      std::span<const fr> aux, const gpu_packed_witness::impl* packed, Body body)
{
    {
        gpu_buffer w((k.ni + k.na) * sizeof(fr));
        bp_vectors ve = v;
        ve.w = w.as<fr>();
        bellperson_h2d(k, ds, ve, inputs, aux, nullptr, packed);
        prime(k, k.h, ds, "h");
        body(ve);
        cuda_bridge::synchronize();   // the buffer's last reader
    }
    k.wtag = gpu_buffer();
}

// A lean prove with the low-memory NTT and the PCE streamed (k.low_ntt,
// k.dpce): the witness in a buffer of its own for the two parts of
// PCE_EVAL (A and B with the check before the H step, C into b's space
// during it: bellperson_h_step_c_late); after the H step the witness is
// copied into b and its buffer freed, MSM_H reads h in a, and the witness
// MSMs gather into a. One prove holds 2n beside the larger of the
// evaluation's buffers (the witness, its tags, two PCE tiles) and the MSMs'
// room.
groth16::prove_sums prove_lean_low_pce(gpu_key::impl& k, device_steps& ds, const bp_vectors& v,
                                       std::span<const fr> inputs, std::span<const fr> aux,
                                       const gpu_packed_witness::impl* packed, groth16::prove_timings* timings,
                                       clock::time_point t_all)
{
    gpu_release_cache();
    with_own_witness(k, ds, v, inputs, aux, packed, [&](const bp_vectors& ve) {
        bellperson_pce_eval_ab(k, ds, ve);
        pb::copy_d2d(v.a + v.m, ve.w, k.ni * sizeof(fr));   // the input constraints' rows
        bellperson_h_step_c_late(k, ds, ve);
        pb::copy_d2d(v.b, ve.w, (k.ni + k.na) * sizeof(fr));
    });
    gpu_release_cache();
    groth16::prove_sums out;
    out.h = bellperson_msm_h(k, ds, v.a);
    const bp_vectors vm{v.m, v.b, nullptr, v.a, nullptr};   // the witness in b, the gathers into a
    bellperson_witness_msms(k, ds, vm, out);
    k.proved = true;
    ds.finish(timings, t_all);
    return out;
}

// A lean prove with the PCE on the device (k.lean, k.dpce): the witness
// goes to a buffer of its own for PCE_EVAL (the input rows of a copied
// from it), which is freed with the packing's tags before the H step; after
// it the witness is uploaded again, into c, as in prove_lean.
groth16::prove_sums prove_lean_pce(gpu_key::impl& k, device_steps& ds, const bp_vectors& v,
                                   std::span<const fr> inputs, std::span<const fr> aux,
                                   const gpu_packed_witness::impl* packed, groth16::prove_timings* timings,
                                   clock::time_point t_all)
{
    gpu_release_cache();
    with_own_witness(k, ds, v, inputs, aux, packed, [&](const bp_vectors& ve) {
        bellperson_pce_eval(k, ds, ve);
        pb::copy_d2d(v.a + v.m, ve.w, k.ni * sizeof(fr));   // the input constraints' rows
    });
    bellperson_h_step(k, ds, v);
    gpu_release_cache();
    lean_witness_h2d(k, ds, v, inputs, aux, packed);
    return lean_msms(k, ds, v, timings, t_all);
}

// aux comes as host values, or (packed != nullptr; aux is then empty) packed beforehand.
// Steps: H2D, PCE_EVAL (unless the host gives a, b, c), NTT, MSM_H, MSM_L,
// MSM_A, MSM_B1, MSM_B2 — in that order on one stream, or (k.overlaps())
// MSM_L … MSM_B2 on the second lane beside PCE_EVAL … MSM_H. An overlapped
// prove that runs out of device memory frees the backend's caches and runs
// again serially, and the key stays serial from then on.
groth16::prove_sums prove_bellperson_device(gpu_key::impl& k, std::span<const fr> inputs, std::span<const fr> aux,
                                            const abc_host* host_abc, groth16::prove_observer* obs,
                                            groth16::prove_timings* timings,
                                            const gpu_packed_witness::impl* packed = nullptr)
{
    const auto t_all = clock::now();
    auto run = [&](bool overlap) {
        const bp_vectors v = bellperson_vectors(k, host_abc);
        device_steps ds(k, obs);
        if (k.low_ntt && host_abc) return prove_lean_low(k, ds, v, inputs, aux, *host_abc, timings, t_all);
        if (k.low_ntt) return prove_lean_low_pce(k, ds, v, inputs, aux, packed, timings, t_all);
        if (k.lean && host_abc) return prove_lean(k, ds, v, inputs, aux, *host_abc, timings, t_all);
        if (k.lean) return prove_lean_pce(k, ds, v, inputs, aux, packed, timings, t_all);
        bellperson_h2d(k, ds, v, inputs, aux, host_abc, packed);
        prime(k, k.h, ds, "h");   // a streamed key's first chunk, during PCE_EVAL and NTT
        groth16::prove_sums out;
        if (overlap) {
            bellperson_overlapped(k, ds, v, !host_abc, out);
        } else {
            if (!host_abc) bellperson_pce_eval(k, ds, v);
            bellperson_h_step(k, ds, v);
            out.h = bellperson_msm_h(k, ds, v.a);
            bellperson_witness_msms(k, ds, v, out);
        }
        k.proved = true;
        if (k.h_copies_pending) {   // the first prove's scratch is held now: the room is known
            device_steps::scope s(ds, "H_COPIES", "h");
            build_pending_h_copies(k);
            s.end();
        }
        ds.finish(timings, t_all);
        return out;
    };
    // Out of device memory: the H copies are given up first, then the second
    // stream (the key stays on one stream from then on).
    return guarded(k, [&] {
        for (;;) {
            const bool overlap = k.overlaps();
            try {
                return run(overlap);
            } catch (const error& e) {
                if (e.code() != errc::out_of_memory) throw;
                pb::drain(k.copy_stream);
                gpu_release_cache();
                if (!k.h_table.empty()) k.h_table = gpu_msm_table();
                else if (overlap) k.overlap_oom = true;
                else throw;
            }
        }
    });
}

groth16::prove_sums prove_snarkjs_device(gpu_key::impl& k, std::span<const fr> wit, groth16::prove_observer* obs,
                                         groth16::prove_timings* timings)
{
    const auto t_all = clock::now();
    return guarded(k, [&] {
        const size_t n = k.n, ni = k.ni;
        const size_t m = size_t(k.pce_rows);
        fr* w = k.w.as<fr>();
        fr* a = k.abc.as<fr>();
        fr* b = a + n;
        fr* c = b + n;
        device_steps ds(k, obs);
        {
            device_steps::scope s(ds, "H2D", "");
            fault::check(fault::point::copy, "gpu prove: H2D of the witness", k.device);
            s.copied(upload_aux(k, w, wit, nullptr, k.abc.as<fr>()));   // the whole witness, packed through abc
            s.end();
        }
        {
            device_steps::scope s(ds, "PCE_EVAL", "");
            if (m) gpu_pce_eval_device(*k.dpce, w, a, b, c);
            s.end();
        }
        {
            device_steps::scope s(ds, "NTT", "");
            fault::check(fault::point::kernel, "gpu prove: NTT", k.device);
            pb::fill_zero(a + m, (n - m) * sizeof(fr));
            pb::fill_zero(b + m, (n - m) * sizeof(fr));
            pb::mul_into(a, b, c, n);   // c = a∘b row by row (zero rows give zero)
            // iNTT, ×ω_2n^i, NTT: the scaling by powers is the coset NTT of
            // shift ω_2n, and the iNTT's 1/n joins its power table.
            const fr w2n = root_of_unity(k.log_n + 1, root_convention::snarkjs);
            const fr n_fr = fr::from_u64(n), n_inv = n_fr.inverse();
            for (fr* v : {a, b, c}) {
                gpu_ntt_device(v, k.log_n, root_convention::snarkjs, gpu_ntt_kind::inverse, fr::one(), n_fr);
                gpu_ntt_device(v, k.log_n, root_convention::snarkjs, gpu_ntt_kind::coset_forward, w2n, n_inv);
            }
            pb::mul_sub(a, b, c, n);
            s.end();
        }
        groth16::prove_sums out;
        {
            device_steps::scope s(ds, "MSM_H", "h");
            out.h = witness_query<g1_affine, g1_jacobian>(k, ds, k.h, a, "h");
            s.end();
        }
        {
            device_steps::scope s(ds, "MSM_L", "l");
            out.l = witness_query<g1_affine, g1_jacobian>(k, ds, k.l, w + ni, "l");
            s.end();
        }
        {
            device_steps::scope s(ds, "MSM_A", "a");
            out.a = witness_query<g1_affine, g1_jacobian>(k, ds, k.a, w, "a");
            s.end();
        }
        {
            device_steps::scope s(ds, "MSM_B1", "b1");
            out.b1 = witness_query<g1_affine, g1_jacobian>(k, ds, k.b1, w, "b1");
            s.end();
        }
        {
            device_steps::scope s(ds, "MSM_B2", "b2");
            out.b2 = witness_query<g2_affine, g2_jacobian>(k, ds, k.b2, w, "b2");
            s.end();
        }
        ds.finish(timings, t_all);
        return out;
    });
}

} // namespace

// kernels/prove.cu: two staging pieces of 64 MiB per device.
uint64_t gpu_staging_host_bytes() noexcept { return uint64_t{2} << 26; }

groth16::prove_sums gpu_prove_start(const gpu_key& key, std::span<const fr> a, std::span<const fr> b,
                                    std::span<const fr> c, std::span<const fr> inputs, std::span<const fr> aux,
                                    groth16::prove_observer* observer, groth16::prove_timings* timings)
{
    gpu_key::impl& k = gpu_prover_access::get(key);
    if (k.snarkjs) throw error(errc::invalid_argument, "gpu_prove_start: the key follows the snarkjs convention");
    check_assignment(k, inputs, aux, "gpu_prove_start");
    if (b.size() != a.size() || c.size() != a.size())
        throw error(errc::invalid_argument,
                    fmt::format("gpu_prove_start: a, b, c have {}, {}, {} rows", a.size(), b.size(), c.size()));
    if (a.size() + k.ni > k.n)
        throw error(errc::invalid_argument, fmt::format("gpu_prove_start: {} rows do not fit the key's domain of {}",
                                                        a.size() + k.ni, k.n));
    const abc_host h{a, b, c};
    return prove_bellperson_device(k, inputs, aux, &h, observer, timings);
}

groth16::prove_sums gpu_prove_start_witness(const gpu_key& key, std::span<const fr> inputs, std::span<const fr> aux,
                                            groth16::prove_observer* observer, groth16::prove_timings* timings)
{
    gpu_key::impl& k = gpu_prover_access::get(key);
    if (k.snarkjs)
        throw error(errc::invalid_argument, "gpu_prove_start_witness: the key follows the snarkjs convention");
    check_device_pce(k, "gpu_prove_start_witness");
    check_assignment(k, inputs, aux, "gpu_prove_start_witness");
    return prove_bellperson_device(k, inputs, aux, nullptr, observer, timings);
}

groth16::prove_sums gpu_prove_start_witness(const gpu_key& key, std::span<const fr> inputs,
                                            const gpu_packed_witness& aux, groth16::prove_observer* observer,
                                            groth16::prove_timings* timings)
{
    gpu_key::impl& k = gpu_prover_access::get(key);
    const gpu_packed_witness::impl& pw = gpu_prover_access::get(aux);
    if (k.snarkjs)
        throw error(errc::invalid_argument, "gpu_prove_start_witness: the key follows the snarkjs convention");
    check_device_pce(k, "gpu_prove_start_witness");
    if (pw.n != k.na)
        throw error(errc::invalid_argument,
                    fmt::format("gpu_prove_start_witness: the packed aux has {} values, the key expects {}", pw.n,
                                k.na));
    // The compact others pass through abc (3n values).
    if (pw.others > 3 * uint64_t(k.n))
        throw error(errc::invalid_argument,
                    fmt::format("gpu_prove_start_witness: {} aux values other than 0 and 1 exceed the scratch of {}; "
                                "pass aux unpacked",
                                pw.others, 3 * uint64_t(k.n)));
    check_assignment(k, inputs, std::span<const fr>(), "gpu_prove_start_witness", pw.n);
    return prove_bellperson_device(k, inputs, {}, nullptr, observer, timings, &pw);
}

gpu_packed_witness::gpu_packed_witness() : p_(std::make_unique<impl>()) {}
gpu_packed_witness::~gpu_packed_witness() = default;
size_t gpu_packed_witness::size() const noexcept { return p_->n; }
size_t gpu_packed_witness::others() const noexcept { return size_t(p_->others); }
uint64_t gpu_packed_witness::host_bytes() const noexcept
{
    return uint64_t(p_->tags_cap) * sizeof(uint32_t) + uint64_t(p_->vals_cap) * sizeof(fr) + p_->slices.held_bytes();
}

namespace {
// A page-locked buffer of at least `need` elements (its old contents are lost
// when it grows to `grow_to`).
template <class T>
void grow_pinned(T*& p, size_t& cap, size_t need, size_t grow_to)
{
    if (cap >= need) return;
    pb::host_free_pinned(p);
    p = nullptr;
    cap = 0;
    p = static_cast<T*>(pb::host_alloc_pinned(grow_to * sizeof(T)));
    cap = grow_to;
}
} // namespace

void gpu_packed_witness::pack(std::span<const fr> values, unsigned threads)
{
    namespace wp = witness_pack;
    impl& p = *p_;
    p.unstage();
    const size_t n = values.size(), tiles = wp::tiles_of(n);
    const size_t words = wp::scratch_words(n);
    grow_pinned(p.tags, p.tags_cap, words, words);
    uint32_t* off = p.tags + tiles * wp::tile_words;
    const unsigned th = threads ? threads : resolve_threads(0);
    p.n = 0;
    p.others = 0;
    const uint64_t total = wp::tag(values.data(), n, p.tags, off, p.cnt, th);
    // A quarter of headroom, so that partitions of one circuit (their counts
    // of other values differ a little) reuse the buffer.
    grow_pinned(p.vals, p.vals_cap, size_t(total), size_t(total + total / 4));
    wp::gather_others(values.data(), p.tags, off, 0, tiles, p.vals, th);
    p.n = n;
    p.others = total;
}

void gpu_packed_witness::begin(size_t n)
{
    namespace wp = witness_pack;
    impl& p = *p_;
    p.unstage();
    const size_t words = wp::scratch_words(n);
    grow_pinned(p.tags, p.tags_cap, words, words);
    parallel_for(0, words, [&](size_t b, size_t e, unsigned) { std::fill(p.tags + b, p.tags + e, 0u); });
    p.n = 0;
    p.others = 0;
    p.filling = n;
    p.slices.begin(p.tags, n);
}

std::unique_ptr<r1cs::packed_slice> gpu_packed_witness::open(size_t aux_at, size_t n_aux, std::span<fr> inputs,
                                                              size_t in_at)
{
    return p_->slices.open(aux_at, n_aux, inputs, in_at);
}

void gpu_packed_witness::finish(unsigned threads)
{
    namespace wp = witness_pack;
    impl& p = *p_;
    const unsigned th = threads ? threads : resolve_threads(0);
    const uint64_t total = p.slices.count(p.tags + wp::tiles_of(p.filling) * wp::tile_words, th);
    grow_pinned(p.vals, p.vals_cap, size_t(total), size_t(total + total / 4));   // headroom as in pack()
    p.slices.place(p.vals, th);
    p.slices.begin(nullptr, 0);   // the slices' buffers kept (emptied) for the next packing: host_bytes counts them
    p.n = p.filling;
    p.others = total;
}

void gpu_packed_witness::stage(const gpu_key& key)
{
    impl& p = *p_;
    p.unstage();
    if (gpu_prover_access::get(key).lean) return;   // no room to spare beside a lean prove: copied with it
    const int device = key.device();
    if (p.staged.device != device) p.release_staged();
    const cuda_device_scope on(device);
    impl::staged_copy& st = p.staged;
    st.device = device;
    if (!st.stream) st.stream = pb::stream_create();
    if (!st.done) st.done = pb::event_create();
    const size_t tag_bytes = witness_pack::scratch_words(p.n) * sizeof(uint32_t);
    const size_t val_bytes = size_t(p.others) * sizeof(fr);
    if (st.tags.size() < tag_bytes) st.tags = gpu_buffer(tag_bytes);
    if (st.vals.size() < std::max<size_t>(val_bytes, 1)) st.vals = gpu_buffer(std::max<size_t>(val_bytes + val_bytes / 4, 1));
    pb::copy_h2d_on(st.stream, st.tags.data(), p.tags, tag_bytes);
    pb::copy_h2d_on(st.stream, st.vals.data(), p.vals, val_bytes);
    pb::event_record(st.done, st.stream);
    st.valid = true;
}
bool gpu_packed_witness::staged_on(int device) const noexcept
{
    return p_->staged.valid && p_->staged.device == device;
}
uint64_t gpu_packed_witness::device_bytes() const noexcept
{
    return p_->staged.tags.size() + p_->staged.vals.size();
}

groth16::prove_sums gpu_prove_start_snarkjs(const gpu_key& key, std::span<const fr> witness,
                                            groth16::prove_observer* observer, groth16::prove_timings* timings)
{
    gpu_key::impl& k = gpu_prover_access::get(key);
    if (!k.snarkjs)
        throw error(errc::invalid_argument, "gpu_prove_snarkjs: the key follows the bellperson convention");
    if (witness.size() != k.ni + k.na)
        throw error(errc::invalid_argument, fmt::format("gpu_prove_snarkjs: the witness has {} values, the key expects {}",
                                                        witness.size(), k.ni + k.na));
    if (!witness[0].is_one())
        throw error(errc::invalid_argument, "gpu_prove_snarkjs: witness value 0 must be the constant one");
    return prove_snarkjs_device(k, witness, observer, timings);
}

groth16::proof gpu_prove_snarkjs(const gpu_key& key, std::span<const fr> witness, const fr& r, const fr& s,
                                 groth16::prove_observer* observer, groth16::prove_timings* timings)
{
    const groth16::prove_sums sums = gpu_prove_start_snarkjs(key, witness, observer, timings);
    return groth16::prove_finish(key.pk().vk, sums, r, s);
}

size_t gpu_upload_witness(fr* dst, std::span<const fr> src, fr* scratch)
{
    if (src.empty()) return 0;
    if (!dst || !scratch) throw error(errc::invalid_argument, "gpu_upload_witness: null device pointer");
    gpu_buffer tags(pb::packed_scratch_words(src.size()) * sizeof(uint32_t));
    const size_t others = pb::upload_witness_packed(dst, src.data(), src.size(), scratch, tags.as<uint32_t>());
    cuda_bridge::synchronize();   // tags is freed on return
    return others;
}


#else // !CUZK_WITH_CUDA

namespace {
[[noreturn]] void no_cuda(const char* fn)
{
    throw error(errc::unsupported, fmt::format("{}: cuzk was built without CUDA (CUZK_CUDA=OFF or no nvcc)", fn));
}
} // namespace

uint64_t gpu_staging_host_bytes() noexcept { return 0; }

groth16::prove_sums gpu_prove_start(const gpu_key&, std::span<const fr>, std::span<const fr>, std::span<const fr>,
                                    std::span<const fr>, std::span<const fr>, groth16::prove_observer*,
                                    groth16::prove_timings*)
{
    no_cuda("gpu_prove_start");
}
groth16::prove_sums gpu_prove_start_witness(const gpu_key&, std::span<const fr>, std::span<const fr>,
                                            groth16::prove_observer*, groth16::prove_timings*)
{
    no_cuda("gpu_prove_start_witness");
}
groth16::proof gpu_prove_snarkjs(const gpu_key&, std::span<const fr>, const fr&, const fr&, groth16::prove_observer*,
                                 groth16::prove_timings*)
{
    no_cuda("gpu_prove_snarkjs");
}
groth16::prove_sums gpu_prove_start_snarkjs(const gpu_key&, std::span<const fr>, groth16::prove_observer*,
                                            groth16::prove_timings*)
{
    no_cuda("gpu_prove_start_snarkjs");
}
size_t gpu_upload_witness(fr*, std::span<const fr>, fr*) { no_cuda("gpu_upload_witness"); }

struct gpu_packed_witness::impl {};
gpu_packed_witness::gpu_packed_witness() : p_(std::make_unique<impl>()) {}
gpu_packed_witness::~gpu_packed_witness() = default;
size_t gpu_packed_witness::size() const noexcept { return 0; }
size_t gpu_packed_witness::others() const noexcept { return 0; }
uint64_t gpu_packed_witness::host_bytes() const noexcept { return 0; }
void gpu_packed_witness::pack(std::span<const fr>, unsigned) { no_cuda("gpu_packed_witness::pack"); }
void gpu_packed_witness::begin(size_t) { no_cuda("gpu_packed_witness::begin"); }
std::unique_ptr<r1cs::packed_slice> gpu_packed_witness::open(size_t, size_t, std::span<fr>, size_t)
{
    no_cuda("gpu_packed_witness::open");
}
void gpu_packed_witness::finish(unsigned) { no_cuda("gpu_packed_witness::finish"); }
void gpu_packed_witness::stage(const gpu_key&) { no_cuda("gpu_packed_witness::stage"); }
bool gpu_packed_witness::staged_on(int) const noexcept { return false; }
uint64_t gpu_packed_witness::device_bytes() const noexcept { return 0; }
groth16::prove_sums gpu_prove_start_witness(const gpu_key&, std::span<const fr>, const gpu_packed_witness&,
                                            groth16::prove_observer*, groth16::prove_timings*)
{
    no_cuda("gpu_prove_start_witness");
}


#endif

} // namespace cuzk
