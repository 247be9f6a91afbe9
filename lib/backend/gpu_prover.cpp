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
#include "cuzk/backend/fault.hpp"
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

namespace cuzk {

#if CUZK_WITH_CUDA

using namespace gpu_detail;

namespace {

// ---- device step timing ------------------------------------------------------------------
struct step_rec {
    std::string_view step, query;
    bridge::event begin;
    bridge::event end;
};
struct host_span {
    size_t after;   // index into recs: reported after that step
    std::string_view step, query;
    clock::time_point begin, end;
};

// The steps' events and spans. With an overlapping key two threads (one per
// lane) open and close steps at once: every member is guarded by mu_, so the
// observer's step_begin/step_end calls come from either thread but never at
// the same time. finish() runs once both threads are done.
class device_steps {
public:
    device_steps(gpu_key::impl& k, groth16::prove_observer* obs) : k_(k), obs_(obs)
    {
        cuda_bridge::synchronize();
        anchor_ = event();
        pb::event_record(anchor_, nullptr);
        t0_ = clock::now();
    }

    // Brackets one kernel group on the calling thread's lane: step_begin and
    // a begin event now, the end event and step_end at end() (or only
    // step_end when unwinding).
    class scope {
    public:
        scope(device_steps& d, std::string_view step, std::string_view query) : d_(d), step_(step), query_(query)
        {
            std::lock_guard<std::mutex> lk(d_.mu_);
            if (d_.obs_) d_.obs_->step_begin(step_, query_);
            begin_ = d_.event_locked();
            pb::event_record(begin_, nullptr);
        }
        void end()
        {
            if (done_) return;
            std::lock_guard<std::mutex> lk(d_.mu_);
            bridge::event e = d_.event_locked();
            pb::event_record(e, nullptr);
            d_.recs_.push_back({step_, query_, begin_, e});
            done_ = true;
            if (d_.obs_) d_.obs_->step_end(step_, query_);
        }
        ~scope()
        {
            if (done_ || !d_.obs_) return;
            std::lock_guard<std::mutex> lk(d_.mu_);
            d_.obs_->step_end(step_, query_);
        }
        scope(const scope&) = delete;
        scope& operator=(const scope&) = delete;

    private:
        device_steps& d_;
        std::string_view step_, query_;
        bridge::event begin_ = nullptr;
        bool done_ = false;
    };

    void add_span(std::string_view step, std::string_view query, clock::time_point b, clock::time_point e)
    {
        std::lock_guard<std::mutex> lk(mu_);
        spans_.push_back({recs_.size(), step, query, b, e});
    }

    // An event of the key's pool (for ordering the two lanes).
    bridge::event event()
    {
        std::lock_guard<std::mutex> lk(mu_);
        return event_locked();
    }

    // After the last step: waits for the device, reports the spans in step
    // order and fills the timings.
    void finish(groth16::prove_timings* tm, clock::time_point t_all)
    {
        cuda_bridge::synchronize();
        groth16::prove_timings t;
        size_t si = 0;
        auto flush_spans = [&](size_t upto) {
            for (; si < spans_.size() && spans_[si].after <= upto; ++si)
                if (obs_ && spans_[si].end >= spans_[si].begin && spans_[si].end != clock::time_point{})
                    obs_->step_span(spans_[si].step, spans_[si].query, spans_[si].begin, spans_[si].end);
        };
        for (size_t i = 0; i < recs_.size(); ++i) {
            const double b = pb::event_elapsed_ms(anchor_, recs_[i].begin);
            const double e = pb::event_elapsed_ms(anchor_, recs_[i].end);
            const auto to_tp = [&](double ms) {
                return t0_ + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double, std::milli>(ms));
            };
            if (obs_) obs_->step_span(recs_[i].step, recs_[i].query, to_tp(b), to_tp(e));
            const uint64_t ns = uint64_t(std::max(0.0, e - b) * 1e6);
            const std::string_view s = recs_[i].step;
            if (s == "NTT") t.h_ns += ns;
            else if (s == "MSM_H") t.msm_h_ns += ns;
            else if (s == "MSM_L") t.msm_l_ns += ns;
            else if (s == "MSM_A") t.msm_a_ns += ns;
            else if (s == "MSM_B1") t.msm_b1_ns += ns;
            else if (s == "MSM_B2") t.msm_b2_ns += ns;
            flush_spans(i);   // the BATCH_ADD spans inside step i
        }
        flush_spans(recs_.size());
        t.total_ns = uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(clock::now() - t_all).count());
        if (tm) *tm = t;
    }

private:
    bridge::event event_locked()
    {
        if (next_ == k_.events.size()) k_.events.push_back(pb::event_create());
        return k_.events[next_++];
    }

    gpu_key::impl& k_;
    groth16::prove_observer* obs_;
    std::mutex mu_;
    bridge::event anchor_ = nullptr;
    clock::time_point t0_;
    size_t next_ = 0;
    std::vector<step_rec> recs_;
    std::vector<host_span> spans_;
};

// ---- scratch ---------------------------------------------------------------------------------
void grow(gpu_buffer& b, size_t bytes)
{
    bytes = std::max<size_t>(bytes, 1);
    if (b.size() < bytes) {
        b = gpu_buffer();   // free first
        b = gpu_buffer(bytes);
    }
}

void ensure_scratch(gpu_key::impl& k)
{
    auto alloc_all = [&] {
        grow(k.w, (k.ni + k.na) * sizeof(fr));
        grow(k.abc, 3 * k.n * sizeof(fr));
        if (k.gath_elems()) grow(k.gath, k.gath_elems() * sizeof(fr));
        if (k.packs()) grow(k.wtag, pb::packed_scratch_words(k.packed_elems()) * sizeof(uint32_t));
        if (!k.resident) {
            grow(k.chunk[0], k.chunk_bytes);
            grow(k.chunk[1], k.chunk_bytes);
            if (!k.copy_stream) k.copy_stream = pb::stream_create();
            for (bridge::event& e : k.chunk_ev)
                if (!e) e = pb::event_create();
        }
    };
    try {
        alloc_all();
    } catch (const error& e) {
        if (e.code() != errc::out_of_memory) throw;
        // Free the backend's cached MSM/NTT scratch and try once more.
        gpu_release_cache();
        alloc_all();
    }
}

// ---- one query's MSM, resident or streamed ------------------------------------------------
// Streamed: chunk i+1 is copied (copy stream) while chunk i's MSM runs; the
// buffer chunk i+1 goes to was read by chunk i−1's MSM, which has returned
// (the MSM entry points return their result to the host, so the backend
// stream has finished with it). Before chunk i's MSM the host waits for its
// copy event.
template <class Aff, class Jac, class Msm>
Jac query_msm(gpu_key::impl& k, const query<Aff>& q, Msm&& msm)
{
    const size_t total = q.size();
    if (total == 0) return Jac::identity();
    if (k.resident) return msm(q.dev.template as<Aff>(), size_t{0}, total);
    const size_t cp = size_t(k.chunk_bytes / sizeof(Aff));
    const size_t chunks = (total + cp - 1) / cp;
    const auto* src = static_cast<const Aff*>(q.pin->data());
    auto issue = [&](size_t i) {
        const size_t off = i * cp, len = std::min(cp, total - off);
        pb::copy_h2d_on(k.copy_stream, k.chunk[i % 2].data(), src + off, len * sizeof(Aff));
        pb::event_record(k.chunk_ev[i % 2], k.copy_stream);
    };
    Jac acc = Jac::identity();
    issue(0);
    for (size_t i = 0; i < chunks; ++i) {
        if (i + 1 < chunks) issue(i + 1);
        pb::event_synchronize(k.chunk_ev[i % 2]);
        const size_t off = i * cp, len = std::min(cp, total - off);
        acc = acc.add(msm(k.chunk[i % 2].template as<Aff>(), off, len));
    }
    return acc;
}

// Witness MSM of one query with Montgomery scalars sc (device), reporting
// the 0/1 batch addition as a BATCH_ADD span (first begin to last end over
// the chunks) and each copy of its partial sums back to the host as a D2H
// span (one per chunk: between chunks the device does other work).
template <class Aff, class Jac>
Jac witness_query(gpu_key::impl& k, device_steps& ds, const query<Aff>& q, const fr* sc, std::string_view name)
{
    clock::time_point ba_b{}, ba_e{};
    const Jac r = query_msm<Aff, Jac>(k, q, [&](const Aff* pts, size_t off, size_t len) {
        gpu_msm_witness_stats st;
        const Jac part = gpu_msm_witness_device(pts, sc + off, len, &st);
        if (st.d2h_end != clock::time_point{}) ds.add_span("D2H", name, st.d2h_begin, st.d2h_end);
        if (st.others_d2h.set()) ds.add_span("D2H", name, st.others_d2h.begin, st.others_d2h.end);
        if (st.batch_add_end != clock::time_point{}) {
            if (ba_b == clock::time_point{} || st.batch_add_begin < ba_b) ba_b = st.batch_add_begin;
            if (st.batch_add_end > ba_e) ba_e = st.batch_add_end;
        }
        return part;
    });
    if (ba_e != clock::time_point{}) ds.add_span("BATCH_ADD", name, ba_b, ba_e);
    return r;
}

// A witness vector into w: packed (2 bits per 0/1 value, the others sent
// alone; prove_bridge::upload_witness_packed) when the key's scratch allows,
// through the compact array in abc, which the prove overwrites afterwards.
void upload_witness(gpu_key::impl& k, fr* dst, std::span<const fr> v)
{
    if (k.packs() && v.size() == k.packed_elems())
        pb::upload_witness_packed(dst, v.data(), v.size(), k.abc.as<fr>(), k.wtag.as<uint32_t>());
    else
        pb::upload_pageable(dst, v.data(), v.size_bytes());
}

// ---- the prove ---------------------------------------------------------------------------------
struct abc_host {
    std::span<const fr> a, b, c;
};

// aux_size: the number of aux values (aux.size() unless they come packed).
void check_assignment(const gpu_key::impl& k, std::span<const fr> inputs, std::span<const fr> aux, const char* fn,
                      size_t aux_size = size_t(-1))
{
    if (aux_size == size_t(-1)) aux_size = aux.size();
    if (inputs.size() != k.ni || aux_size != k.na)
        throw error(errc::invalid_argument,
                    fmt::format("{}: assignment has {} inputs and {} aux, the key expects {} and {}", fn,
                                inputs.size(), aux_size, k.ni, k.na));
    if (inputs.empty() || !inputs[0].is_one())
        throw error(errc::invalid_argument, fmt::format("{}: input 0 must be the constant one", fn));
}

// Runs `body` with the key locked and the scratch ready; on any failure the
// queued device work is drained (so the next prove starts clean) before the
// error propagates.
template <class Body>
auto guarded(gpu_key::impl& k, Body&& body)
{
    const cuda_device_scope on(k.device);
    std::lock_guard<std::mutex> lk(k.mu);
    try {
        fault::check(fault::point::alloc, "gpu prove: device scratch", k.device);
        ensure_scratch(k);
        return body();
    } catch (...) {
        pb::drain(k.copy_stream);
        throw;
    }
}

// ---- the bellperson prove, step by step -------------------------------------------------------
// The device vectors of one prove: the witness w (inputs ‖ aux) and a, b, c
// (n values each, one after the other in abc). Their first m rows are the
// constraints' (from the host, or PCE_EVAL); the H step pads the rest.
struct bp_vectors {
    size_t m;
    fr* w;
    fr* a;
    fr* b;
    fr* c;
};

bp_vectors bellperson_vectors(gpu_key::impl& k, const abc_host* host_abc)
{
    fr* a = k.abc.as<fr>();
    return {host_abc ? host_abc->a.size() : size_t(k.pce_rows), k.w.as<fr>(), a, a + k.n, a + 2 * k.n};
}

// H2D: inputs ‖ aux → w (aux as host values, or packed beforehand), and a,
// b, c when the host gives them.
void bellperson_h2d(gpu_key::impl& k, device_steps& ds, const bp_vectors& v, std::span<const fr> inputs,
                    std::span<const fr> aux, const abc_host* host_abc, const gpu_packed_witness::impl* packed)
{
    device_steps::scope s(ds, "H2D", "");
    fault::check(fault::point::copy, "gpu prove: H2D of the witness", k.device);
    pb::upload_pageable(v.w, inputs.data(), inputs.size_bytes());
    // Before a, b, c: the compact form of aux passes through abc, unless
    // it was staged on this device beforehand.
    if (packed && packed->staged.valid && packed->staged.device == k.device) {
        pb::stream_wait(packed->staged.done);
        pb::expand_packed(v.w + k.ni, packed->n, packed->staged.vals.as<fr>(), packed->staged.tags.as<uint32_t>());
    } else if (packed) {
        grow(k.wtag, pb::packed_scratch_words(packed->n) * sizeof(uint32_t));
        pb::upload_packed(v.w + k.ni, packed->n, packed->tags, packed->vals, packed->others, k.abc.as<fr>(),
                          k.wtag.as<uint32_t>());
    } else {
        upload_witness(k, v.w + k.ni, aux);
    }
    if (host_abc) {
        pb::upload_pageable(v.a, host_abc->a.data(), v.m * sizeof(fr));
        pb::upload_pageable(v.b, host_abc->b.data(), v.m * sizeof(fr));
        pb::upload_pageable(v.c, host_abc->c.data(), v.m * sizeof(fr));
    }
    s.end();
}

// PCE_EVAL: a, b, c = A·w, B·w, C·w; errc::unsatisfied names the first row
// with a·b != c (after the step's span is closed).
void bellperson_pce_eval(gpu_key::impl& k, device_steps& ds, const bp_vectors& v)
{
    device_steps::scope s(ds, "PCE_EVAL", "");
    int64_t bad = -1;
    if (v.m) bad = gpu_pce_eval_check_device(*k.dpce, v.w, v.a, v.b, v.c);
    s.end();
    if (bad >= 0)
        throw error(errc::unsatisfied, fmt::format("gpu_prove_start_witness: constraint {} of {} is not satisfied by "
                                                   "the witness (a·b != c)",
                                                   bad, v.m));
}

// NTT: bellperson's H step (compute_h_bellperson). Leaves h in a as
// canonical integers, ready for MSM_H.
// b_free (when set) runs once the space of the witness MSMs' gathers (b,
// then c) is no longer read by the queued work: after the last transform,
// which reads b for the product A'·B' and c for the subtraction of C.
void bellperson_h_step(gpu_key::impl& k, device_steps& ds, const bp_vectors& v,
                       const std::function<void()>& b_free = {})
{
    const size_t n = k.n, ni = k.ni, m = v.m;
    fr* a = v.a;
    device_steps::scope s(ds, "NTT", "");
    fault::check(fault::point::kernel, "gpu prove: NTT", k.device);
    // The input constraints input_i · 0 = 0, then zeros up to n.
    pb::copy_d2d(a + m, v.w, ni * sizeof(fr));
    pb::fill_zero(a + m + ni, (n - m - ni) * sizeof(fr));
    pb::fill_zero(v.b + m, (n - m) * sizeof(fr));
    pb::fill_zero(v.c + m, (n - m) * sizeof(fr));
    const fr g = fr::from_u64(7);   // bellperson's coset shift
    // On the coset g·⟨ω⟩, Z(x) = x^n − 1 is the constant g^n − 1, so
    //   h = cosetINTT((A'·B' − C')/Z) = z_inv·(cosetINTT(A'·B') − C),
    // with A', B', C' the coset values and C the coefficients of c: the
    // coset iNTT of C' gives C back (deg C < n). C is the iNTT of c, so c
    // needs no coset transform: six transforms instead of seven.
    // The constant factors ride on the transforms' own scalings: the iNTT of
    // a and b leaves out its 1/n (scale n), which joins the coset NTT's
    // powers g^i. The MSM wants h as canonical integers: a scale whose words
    // are the integer z_inv (the field element z_inv·R⁻¹) makes the
    // transforms' last Montgomery products leave words equal to the integers
    // z_inv·x, and the subtraction of such words is that of the integers.
    const fr n_fr = fr::from_u64(n), n_inv = n_fr.inverse();
    const fr z_inv = (g.pow(bigint<1>{{uint64_t(n)}}) - fr::one()).inverse();
    const fr z_inv_words = fr::from_mont(z_inv.to_repr());
    gpu_ntt_device(v.c, k.log_n, root_convention::bellperson, gpu_ntt_kind::inverse, fr::one(), z_inv_words);
    for (fr* x : {a, v.b}) {
        gpu_ntt_device(x, k.log_n, root_convention::bellperson, gpu_ntt_kind::inverse, fr::one(), n_fr);
        gpu_ntt_device(x, k.log_n, root_convention::bellperson, gpu_ntt_kind::coset_forward, g, n_inv);
    }
    // cosetINTT(A'·B') − C in one transform: the product on its first pass's
    // load, the subtraction on its last pass's store (no passes of their own).
    cuda_bridge::ntt(a, k.log_n, root_convention::bellperson, root_of_unity_of<fr>(k.log_n, root_convention::bellperson),
                     true, true, g, z_inv_words, v.b, v.c);
    if (b_free) b_free();   // b's and c's last read
    s.end();
}

// MSM_H: Pippenger of the canonical h (in a) with H; each copy of the window
// sums back to the host is a D2H span.
g1_jacobian bellperson_msm_h(gpu_key::impl& k, device_steps& ds, fr* a)
{
    device_steps::scope s(ds, "MSM_H", "h");
    auto* hr = reinterpret_cast<fr::repr*>(a);
    // One MSM call, its copy of the window sums back a D2H span.
    auto timed = [&](auto&& msm) {
        gpu_copy_span d2h;
        gpu_msm_options mo;
        mo.window_copy = &d2h;
        const g1_jacobian part = msm(mo);
        if (d2h.set()) ds.add_span("D2H", "h", d2h.begin, d2h.end);
        return part;
    };
    const g1_jacobian h =
        !k.h_table.empty()   // resident, with copies
            ? timed([&](const gpu_msm_options& mo) { return gpu_msm_device(k.h_table, hr, mo); })
            : query_msm<g1_affine, g1_jacobian>(k, k.h, [&](const g1_affine* p, size_t off, size_t len) {
                  return timed([&](const gpu_msm_options& mo) { return gpu_msm_device(p, hr + off, len, mo); });
              });
    s.end();
    return h;
}

// MSM_L, MSM_A, MSM_B1, MSM_B2: witness MSMs; A and B take w gathered by
// their index lists. The gathered scalars go to b, reaching into c when |A|
// or |B| exceeds n (both free once the H step has used them: wait_b runs
// before the first gather there), unless they exceed 2n, when they have a
// buffer of their own.
void bellperson_witness_msms(gpu_key::impl& k, device_steps& ds, const bp_vectors& v, groth16::prove_sums& out,
                             const std::function<void()>& wait_b = {})
{
    fr* w = v.w;
    {
        device_steps::scope s(ds, "MSM_L", "l");
        out.l = witness_query<g1_affine, g1_jacobian>(k, ds, k.l, w + k.ni, "l");
        s.end();
    }
    fr* g = k.gath_elems() ? k.gath.as<fr>() : v.b;
    if (g == v.b && wait_b) wait_b();
    {
        device_steps::scope s(ds, "MSM_A", "a");
        pb::gather(w, k.idx_a.as<uint32_t>(), k.na_pts, g);
        out.a = witness_query<g1_affine, g1_jacobian>(k, ds, k.a, g, "a");
        s.end();
    }
    {
        device_steps::scope s(ds, "MSM_B1", "b1");
        pb::gather(w, k.idx_b.as<uint32_t>(), k.nb_pts, g);
        out.b1 = witness_query<g1_affine, g1_jacobian>(k, ds, k.b1, g, "b1");
        s.end();
    }
    {
        device_steps::scope s(ds, "MSM_B2", "b2");
        out.b2 = witness_query<g2_affine, g2_jacobian>(k, ds, k.b2, g, "b2");
        s.end();
    }
}

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
        bellperson_h2d(k, ds, v, inputs, aux, host_abc, packed);
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
            upload_witness(k, w, wit);
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
    if (!k.has_user_pce) throw error(errc::invalid_argument, "gpu_prove_start_witness: the key has no PCE");
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
    if (!k.has_user_pce) throw error(errc::invalid_argument, "gpu_prove_start_witness: the key has no PCE");
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
