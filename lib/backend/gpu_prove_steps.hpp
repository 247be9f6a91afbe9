// cuzk — internal (lib/backend/, not installed): the steps of a bellperson
// prove on the GPU, shared by one partition's prove (gpu_prover.cpp) and a
// batch's (gpu_prover_batch.cpp): the device step timing, the key's scratch,
// one query's MSM over resident or streamed points, and the H2D, PCE_EVAL,
// NTT, MSM_H and witness MSM steps. Only meaningful with CUDA; included by
// those two files alone (its functions are inline).
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string_view>
#include <vector>

#include "cuzk/backend/cuda.hpp"
#include "fault.hpp"
#include "cuzk/error.hpp"
#include "cuzk/ntt/ntt.hpp"

#if CUZK_WITH_CUDA
#include "backend/bridge/cuda_bridge.hpp"
#include "backend/bridge/prove_bridge.hpp"
#include "backend/gpu_key_impl.hpp"
#include "backend/pce_tiles.hpp"

namespace cuzk::gpu_prove_steps {

using namespace gpu_detail;

// ---- device step timing ------------------------------------------------------------------
struct step_rec {
    std::string_view step, query;
    bridge::event begin;
    bridge::event end;
    uint64_t bytes = 0;   // a copy's (reported through copy_span), else 0
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
    // pool: the events to use (the key's own by default; each partition of a
    // batch has its own, since their steps are open at once).
    device_steps(gpu_key::impl& k, groth16::prove_observer* obs, std::vector<bridge::event>* pool = nullptr)
        : obs_(obs), pool_(pool ? pool : &k.events)
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
            // The same span as a copy of the query "upload" with its bytes
            // (the bus), beside the step (device work).
            if (bytes_) d_.recs_.push_back({"H2D", "upload", begin_, e, bytes_});
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
        // Host-to-device bytes the step copied (its uploads): reported as an
        // H2D copy over the step's span as well.
        void copied(uint64_t bytes) { bytes_ += bytes; }

    private:
        device_steps& d_;
        std::string_view step_, query_;
        bridge::event begin_ = nullptr;
        uint64_t bytes_ = 0;
        bool done_ = false;
    };

    // A copy on the key's copy stream, between events b and e recorded
    // there: reported as an H2D span with its bytes (copy_span).
    void add_copy(std::string_view query, uint64_t bytes, bridge::event b, bridge::event e)
    {
        std::lock_guard<std::mutex> lk(mu_);
        recs_.push_back({"H2D", query, b, e, bytes});
    }

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
            if (obs_ && recs_[i].bytes)
                obs_->copy_span(recs_[i].step, recs_[i].query, recs_[i].bytes, to_tp(b), to_tp(e));
            else if (obs_)
                obs_->step_span(recs_[i].step, recs_[i].query, to_tp(b), to_tp(e));
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
        if (next_ == pool_->size()) pool_->push_back(pb::event_create());
        return (*pool_)[next_++];
    }

    groth16::prove_observer* obs_;
    std::vector<bridge::event>* pool_;
    std::mutex mu_;
    bridge::event anchor_ = nullptr;
    clock::time_point t0_;
    size_t next_ = 0;
    std::vector<step_rec> recs_;
    std::vector<host_span> spans_;
};

// ---- scratch ---------------------------------------------------------------------------------
inline void grow(gpu_buffer& b, size_t bytes)
{
    bytes = std::max<size_t>(bytes, 1);
    if (b.size() < bytes) {
        b = gpu_buffer();   // free first
        b = gpu_buffer(bytes);
    }
}

inline void ensure_scratch(gpu_key::impl& k)
{
    auto alloc_all = [&] {
        if (!k.lean) grow(k.w, (k.ni + k.na) * sizeof(fr));   // lean: in c
        grow(k.abc, (k.low_ntt ? 2 : 3) * k.n * sizeof(fr));   // low_ntt: c is the prove's own
        if (k.gath_elems()) grow(k.gath, k.gath_elems() * sizeof(fr));
        if (k.packs() && !k.lean) grow(k.wtag, pb::packed_scratch_words(k.packed_elems()) * sizeof(uint32_t));
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
// A streamed query's points in pieces: chunk i+1 is copied (copy stream)
// while chunk i is used. The two chunk buffers alternate across queries
// (k.chunk_next is where the next copy goes), so that (with
// CUZK_STREAM_PREFETCH=1, prefetch_on) the next query's first
// chunk can be copied while the current query's last chunk is used (prime),
// and the first query's while the prove's H2D, PCE_EVAL and NTT run: no
// query starts with the device waiting for its first copy. The buffer a copy
// goes to was read by the chunk before the previous one, whose MSMs have
// returned (the MSM entry points return their result to the host, so the
// backend stream has finished with it). Before a chunk is used the host
// waits for its copy event. Each copy is timed on the copy stream and
// reported to `copies` (an H2D span of the query `name` with its bytes).
template <class Aff>
unsigned issue_chunk(gpu_key::impl& k, const query<Aff>& q, device_steps& copies, std::string_view name, size_t i)
{
    const size_t cp = size_t(k.chunk_bytes / sizeof(Aff)), total = q.size();
    const size_t off = i * cp, len = std::min(cp, total - off);
    const unsigned buf = k.chunk_next;
    k.chunk_next ^= 1u;
    const auto* src = static_cast<const Aff*>(q.pin->data());
    const bridge::event b = copies.event(), e = copies.event();
    pb::event_record(b, k.copy_stream);
    pb::copy_h2d_on(k.copy_stream, k.chunk[buf].data(), src + off, len * sizeof(Aff));
    pb::event_record(e, k.copy_stream);
    pb::event_record(k.chunk_ev[buf], k.copy_stream);
    copies.add_copy(name, len * sizeof(Aff), b, e);
    k.streamed_bytes += len * sizeof(Aff);
    return buf;
}

// Whether queries are primed: CUZK_STREAM_PREFETCH=1 (a knob for
// benchmarks; off by default until a measurement confirms it: the one run
// so far, on an H100 with a batch of 5, was slower than the last without it,
// in a run too short to say why; see docs/PERFORMANCE.md).
inline bool prefetch_on()
{
    static const bool on = [] {
        const char* e = std::getenv("CUZK_STREAM_PREFETCH");
        return e && e[0] == '1';
    }();
    return on;
}

// The first chunk of a streamed query copied ahead of its use (no-op for a
// resident key, an empty query or one already primed).
template <class Aff>
void prime(gpu_key::impl& k, const query<Aff>& q, device_steps& copies, std::string_view name)
{
    if (!prefetch_on() || k.on_device(q) || q.size() == 0 || k.primed == q.pin->data()) return;
    k.primed_buf = issue_chunk(k, q, copies, name, 0);
    k.primed = q.pin->data();
}

// each(points, off, len) over the whole query at once (resident) or chunk by
// chunk (streamed); `next` (when set) primes the query that follows, once
// this one's last copy is issued. A batch's `each` runs every partition's
// MSM on the chunk: its points cross the bus once for all of them.
template <class Aff, class Each>
void query_chunks(gpu_key::impl& k, const query<Aff>& q, device_steps& copies, std::string_view name, Each&& each,
                  const std::function<void()>& next = {})
{
    const size_t total = q.size();
    if (total == 0) {
        if (next) next();
        return;
    }
    if (k.on_device(q)) {
        each(q.dev.template as<Aff>(), size_t{0}, total);
        if (next) next();
        return;
    }
    const size_t cp = size_t(k.chunk_bytes / sizeof(Aff));
    const size_t chunks = (total + cp - 1) / cp;
    unsigned b0 = 0;
    if (k.primed == q.pin->data()) {
        b0 = k.primed_buf;
        k.primed = nullptr;
    } else {
        b0 = issue_chunk(k, q, copies, name, 0);
    }
    for (size_t i = 0; i < chunks; ++i) {
        if (i + 1 < chunks) issue_chunk(k, q, copies, name, i + 1);
        else if (next) next();
        const unsigned buf = (b0 + unsigned(i)) % 2;
        pb::event_synchronize(k.chunk_ev[buf]);
        const size_t off = i * cp, len = std::min(cp, total - off);
        each(k.chunk[buf].template as<Aff>(), off, len);
    }
}

// One partition's MSM of a query: the sum of msm(points, off, len) over the pieces.
template <class Aff, class Jac, class Msm>
Jac query_msm(gpu_key::impl& k, const query<Aff>& q, device_steps& ds, std::string_view name, Msm&& msm,
              const std::function<void()>& next = {})
{
    Jac acc = Jac::identity();
    query_chunks(
        k, q, ds, name, [&](const Aff* pts, size_t off, size_t len) { acc = acc.add(msm(pts, off, len)); }, next);
    return acc;
}

// The spans of one partition's witness MSM of a query over its pieces: the
// 0/1 batch addition as one BATCH_ADD span (first begin to last end) and
// each copy of partial sums back to the host as a D2H span (one per piece:
// between pieces the device does other work).
class witness_spans {
public:
    template <class Aff, class Jac>
    Jac msm(device_steps& ds, const Aff* pts, const fr* sc, size_t len, std::string_view name)
    {
        gpu_msm_witness_stats st;
        const Jac part = gpu_msm_witness_device(pts, sc, len, &st);
        if (st.d2h_end != clock::time_point{}) ds.add_span("D2H", name, st.d2h_begin, st.d2h_end);
        if (st.others_d2h.set()) ds.add_span("D2H", name, st.others_d2h.begin, st.others_d2h.end);
        if (st.batch_add_end != clock::time_point{}) {
            if (b_ == clock::time_point{} || st.batch_add_begin < b_) b_ = st.batch_add_begin;
            if (st.batch_add_end > e_) e_ = st.batch_add_end;
        }
        return part;
    }
    void finish(device_steps& ds, std::string_view name)
    {
        if (e_ != clock::time_point{}) ds.add_span("BATCH_ADD", name, b_, e_);
    }

private:
    clock::time_point b_{}, e_{};
};

// Witness MSM of one query with Montgomery scalars sc (device).
template <class Aff, class Jac>
Jac witness_query(gpu_key::impl& k, device_steps& ds, const query<Aff>& q, const fr* sc, std::string_view name,
                  const std::function<void()>& next = {})
{
    witness_spans sp;
    const Jac r = query_msm<Aff, Jac>(
        k, q, ds, name,
        [&](const Aff* pts, size_t off, size_t len) { return sp.msm<Aff, Jac>(ds, pts, sc + off, len, name); }, next);
    sp.finish(ds, name);
    return r;
}

// aux (or a snarkjs key's whole witness) into dst: expanded from its staged
// copy on this device, or packed on the host beforehand (its other values
// through `staging`, at least aux's length), or host values, packed on the
// way when the key packs (2 bits per 0/1 value, the others sent alone
// through `staging`; prove_bridge::upload_witness_packed).
// Returns the bytes that crossed the bus (none for a form staged on the
// device beforehand; the tags and other values of a packed one).
inline uint64_t upload_aux(gpu_key::impl& k, fr* dst, std::span<const fr> aux, const gpu_packed_witness::impl* packed,
                           fr* staging)
{
    if (packed && packed->staged.valid && packed->staged.device == k.device) {
        pb::stream_wait(packed->staged.done);
        pb::expand_packed(dst, packed->n, packed->staged.vals.as<fr>(), packed->staged.tags.as<uint32_t>());
        return 0;
    }
    if (packed) {
        const uint64_t tag_bytes = pb::packed_scratch_words(packed->n) * sizeof(uint32_t);
        grow(k.wtag, tag_bytes);
        pb::upload_packed(dst, packed->n, packed->tags, packed->vals, packed->others, staging, k.wtag.as<uint32_t>());
        return tag_bytes + packed->others * sizeof(fr);
    }
    if (k.packs() && aux.size() == k.packed_elems()) {
        const uint64_t tag_bytes = pb::packed_scratch_words(aux.size()) * sizeof(uint32_t);
        grow(k.wtag, tag_bytes);
        return tag_bytes +
               pb::upload_witness_packed(dst, aux.data(), aux.size(), staging, k.wtag.as<uint32_t>()) * sizeof(fr);
    }
    pb::upload_pageable(dst, aux.data(), aux.size_bytes());
    return aux.size_bytes();
}

// ---- the prove ---------------------------------------------------------------------------------
struct abc_host {
    std::span<const fr> a, b, c;
};

// The PCE's matrices on the device, for the entry points that evaluate a, b, c there.
inline void check_device_pce(const gpu_key::impl& k, const char* fn)
{
    if (!k.has_user_pce) throw error(errc::invalid_argument, fmt::format("{}: the key has no PCE", fn));
    if (!k.dpce)
        throw error(errc::invalid_argument,
                    fmt::format("{}: the key's PCE stays on the host (the device has no room for it beside a "
                                "prove): evaluate a, b, c there and call gpu_prove_start",
                                fn));
}

// aux_size: the number of aux values (aux.size() unless they come packed).
inline void check_assignment(const gpu_key::impl& k, std::span<const fr> inputs, std::span<const fr> aux, const char* fn,
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
    k.primed = nullptr;   // a failed prove's copy ahead was drained with it
    try {
        fault::check(fault::point::alloc, "gpu prove: device scratch", k.device);
        ensure_scratch(k);
        return body();
    } catch (...) {
        pb::drain(k.copy_stream);
        k.primed = nullptr;
        throw;
    }
}

// ---- the bellperson prove, step by step -------------------------------------------------------
// The device vectors of one prove: the witness w (inputs ‖ aux) and a, b, c
// (n values each, one after the other in abc). Their first m rows are the
// constraints' (from the host, or PCE_EVAL); the H step pads the rest. A
// low_ntt key's abc holds a and b only: c is null until its prove allocates
// it, and w is a (the witness lands there after MSM_H).
struct bp_vectors {
    size_t m;
    fr* w;
    fr* a;
    fr* b;
    fr* c;
};

inline bp_vectors bellperson_vectors(gpu_key::impl& k, const abc_host* host_abc)
{
    fr* a = k.abc.as<fr>();
    fr* c = k.low_ntt ? nullptr : a + 2 * k.n;
    return {host_abc ? host_abc->a.size() : size_t(k.pce_rows), k.low_ntt ? a : k.lean ? c : k.w.as<fr>(), a,
            a + k.n, c};
}

// The host's a, b, c (their first m rows) into the device vectors.
// Returns the bytes.
inline uint64_t upload_abc(const bp_vectors& v, const abc_host& host_abc)
{
    pb::upload_pageable(v.a, host_abc.a.data(), v.m * sizeof(fr));
    pb::upload_pageable(v.b, host_abc.b.data(), v.m * sizeof(fr));
    pb::upload_pageable(v.c, host_abc.c.data(), v.m * sizeof(fr));
    return 3 * v.m * sizeof(fr);
}

// H2D: inputs ‖ aux → w (aux as host values, or packed beforehand), and a,
// b, c when the host gives them.
inline void bellperson_h2d(gpu_key::impl& k, device_steps& ds, const bp_vectors& v, std::span<const fr> inputs,
                    std::span<const fr> aux, const abc_host* host_abc, const gpu_packed_witness::impl* packed)
{
    device_steps::scope s(ds, "H2D", "");
    fault::check(fault::point::copy, "gpu prove: H2D of the witness", k.device);
    pb::upload_pageable(v.w, inputs.data(), inputs.size_bytes());
    // Before a, b, c: the compact form of aux passes through abc.
    s.copied(inputs.size_bytes() + upload_aux(k, v.w + k.ni, aux, packed, k.abc.as<fr>()));
    if (host_abc) s.copied(upload_abc(v, *host_abc));
    s.end();
}

// A lean prove's uploads before the H step (k.lean, a, b, c from the
// host): a, b, c and the inputs (the input constraints' rows of a).
inline void lean_abc_h2d(gpu_key::impl& k, device_steps& ds, const bp_vectors& v, std::span<const fr> inputs,
                         const abc_host& host_abc)
{
    device_steps::scope s(ds, "H2D", "");
    fault::check(fault::point::copy, "gpu prove: H2D of the witness", k.device);
    s.copied(upload_abc(v, host_abc) + inputs.size_bytes());
    pb::upload_pageable(v.a + v.m, inputs.data(), inputs.size_bytes());
    s.end();
}

// A lean prove's witness after the H step: inputs ‖ aux into c (v.w),
// which the H step has finished with; b, free until the witness MSMs'
// gathers, carries a packed form's other values.
inline void lean_witness_h2d(gpu_key::impl& k, device_steps& ds, const bp_vectors& v, std::span<const fr> inputs,
                             std::span<const fr> aux, const gpu_packed_witness::impl* packed)
{
    device_steps::scope s(ds, "H2D", "w");
    fault::check(fault::point::copy, "gpu prove: H2D of the witness", k.device);
    pb::upload_pageable(v.w, inputs.data(), inputs.size_bytes());
    s.copied(inputs.size_bytes());
    if (packed) s.copied(upload_aux(k, v.w + k.ni, aux, packed, v.b));
    else pb::upload_pageable(v.w + k.ni, aux.data(), aux.size_bytes());
    if (!packed) s.copied(aux.size_bytes());
    s.end();
}

// A streamed PCE's tile copies as H2D spans of the query "pce", with their
// bytes.
inline gpu_detail::pce_copy_report pce_copies(device_steps& ds)
{
    return {[&ds] { return ds.event(); },
            [&ds](uint64_t bytes, bridge::event b, bridge::event e) { ds.add_copy("pce", bytes, b, e); }};
}

// PCE_EVAL: a, b, c = A·w, B·w, C·w; errc::unsatisfied names the first row
// with a·b != c (after the step's span is closed).
inline void bellperson_pce_eval(gpu_key::impl& k, device_steps& ds, const bp_vectors& v)
{
    device_steps::scope s(ds, "PCE_EVAL", "");
    int64_t bad = -1;
    const gpu_detail::pce_copy_report rep = pce_copies(ds);
    if (v.m) bad = gpu_detail::pce_eval_parts(*k.dpce, v.w, v.a, v.b, v.c, true, &rep);
    s.end();
    if (bad >= 0)
        throw error(errc::unsatisfied, fmt::format("gpu_prove_start_witness: constraint {} of {} is not satisfied by "
                                                   "the witness (a·b != c)",
                                                   bad, v.m));
}

// The H step's constants for a domain of n: bellperson's coset shift g = 7,
// n and 1/n, and the words of z_inv = (g^n − 1)⁻¹ (bellperson_h_step says
// why the words).
struct h_scales {
    fr g, n_fr, n_inv, z_inv_words;
};
inline h_scales bellperson_h_scales(size_t n)
{
    const fr g = fr::from_u64(7), n_fr = fr::from_u64(n);
    const fr z_inv = (g.pow(bigint<1>{{uint64_t(n)}}) - fr::one()).inverse();
    return {g, n_fr, n_fr.inverse(), fr::from_mont(z_inv.to_repr())};
}

// The H step's transforms (the scalings: bellperson_h_step). x ← its
// values on the coset g·⟨ω⟩ (iNTT without its 1/n, then the coset NTT); c
// ← its coefficients times z_inv's words; a ← cosetINTT(a ∘ in_mul) −
// out_sub with z_inv's words (in_mul, out_sub: null or taken on the first
// pass's load and the last pass's store).
inline void h_to_coset(gpu_key::impl& k, fr* x, const h_scales& sc, gpu_ntt_memory mem)
{
    gpu_ntt_device(x, k.log_n, root_convention::bellperson, gpu_ntt_kind::inverse, fr::one(), sc.n_fr, mem);
    gpu_ntt_device(x, k.log_n, root_convention::bellperson, gpu_ntt_kind::coset_forward, sc.g, sc.n_inv, mem);
}
inline void h_c_coefficients(gpu_key::impl& k, fr* c, const h_scales& sc, gpu_ntt_memory mem)
{
    gpu_ntt_device(c, k.log_n, root_convention::bellperson, gpu_ntt_kind::inverse, fr::one(), sc.z_inv_words, mem);
}
inline void h_from_coset(gpu_key::impl& k, fr* a, const h_scales& sc, const fr* in_mul, const fr* out_sub)
{
    cuda_bridge::ntt(a, k.log_n, root_convention::bellperson, root_of_unity_of<fr>(k.log_n, root_convention::bellperson),
                     true, true, sc.g, sc.z_inv_words, in_mul, out_sub, k.low_ntt);
}

// NTT: bellperson's H step (compute_h_bellperson). Leaves h in a as
// canonical integers, ready for MSM_H.
// b_free (when set) runs once the space of the witness MSMs' gathers (b,
// then c) is no longer read by the queued work: after the last transform,
// which reads b for the product A'·B' and c for the subtraction of C.
inline void bellperson_h_step(gpu_key::impl& k, device_steps& ds, const bp_vectors& v,
                       const std::function<void()>& b_free = {})
{
    const size_t n = k.n, ni = k.ni, m = v.m;
    fr* a = v.a;
    device_steps::scope s(ds, "NTT", "");
    fault::check(fault::point::kernel, "gpu prove: NTT", k.device);
    // The input constraints input_i · 0 = 0 (lean: uploaded there by
    // lean_h2d, w is not on the device yet), then zeros up to n.
    if (!k.lean) pb::copy_d2d(a + m, v.w, ni * sizeof(fr));
    pb::fill_zero(a + m + ni, (n - m - ni) * sizeof(fr));
    pb::fill_zero(v.b + m, (n - m) * sizeof(fr));
    pb::fill_zero(v.c + m, (n - m) * sizeof(fr));
    // On the coset (g = 7, bellperson's shift) g·⟨ω⟩, Z(x) = x^n − 1 is the constant g^n − 1, so
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
    const h_scales sc = bellperson_h_scales(n);
    // A low_ntt key's transforms run in place with small twiddle tables (the same bits).
    const gpu_ntt_memory mem = k.low_ntt ? gpu_ntt_memory::low : gpu_ntt_memory::fast;
    h_c_coefficients(k, v.c, sc, mem);
    for (fr* x : {a, v.b}) h_to_coset(k, x, sc, mem);
    // cosetINTT(A'·B') − C in one transform: the product on its first pass's
    // load, the subtraction on its last pass's store (no passes of their own).
    h_from_coset(k, a, sc, v.b, v.c);
    if (b_free) b_free();   // b's and c's last read
    s.end();
}

// PCE_EVAL in two parts (a low-memory lean prove with the PCE streamed: no
// room for a, b and c at once): A and B with the check now (C's rows read
// for it, not kept), C alone into c later, once b's space is free.
inline void bellperson_pce_eval_ab(gpu_key::impl& k, device_steps& ds, const bp_vectors& v)
{
    device_steps::scope s(ds, "PCE_EVAL", "");
    int64_t bad = -1;
    const gpu_detail::pce_copy_report rep = pce_copies(ds);
    if (v.m) bad = gpu_detail::pce_eval_parts(*k.dpce, v.w, v.a, v.b, nullptr, true, &rep);
    s.end();
    if (bad >= 0)
        throw error(errc::unsatisfied, fmt::format("gpu_prove_start_witness: constraint {} of {} is not satisfied by "
                                                   "the witness (a·b != c)",
                                                   bad, v.m));
}

// The H step with C evaluated late (the low-memory NTT; v.c null, v.w the
// witness in a buffer of its own): the transforms of a and b as in
// bellperson_h_step, their product into a (b is then free), C evaluated into
// b (a PCE_EVAL span of its own), its iNTT, and the coset iNTT of a with it
// subtracted on the last pass. The same h, bit for bit: the product that
// bellperson_h_step takes on the first pass's load is taken by a kernel of
// its own before the transform.
inline void bellperson_h_step_c_late(gpu_key::impl& k, device_steps& ds, const bp_vectors& v)
{
    const size_t n = k.n, m = v.m;
    fr* a = v.a;
    fr* b = v.b;
    const h_scales sc = bellperson_h_scales(n);
    const auto mem = gpu_ntt_memory::low;
    {
        device_steps::scope s(ds, "NTT", "");
        fault::check(fault::point::kernel, "gpu prove: NTT", k.device);
        pb::fill_zero(a + m + k.ni, (n - m - k.ni) * sizeof(fr));   // the inputs' rows are in a already
        pb::fill_zero(b + m, (n - m) * sizeof(fr));
        for (fr* x : {a, b}) h_to_coset(k, x, sc, mem);
        pb::mul_into(a, b, a, n);
        s.end();
    }
    {
        device_steps::scope s(ds, "PCE_EVAL", "");
        const gpu_detail::pce_copy_report rep = pce_copies(ds);
        if (m) gpu_detail::pce_eval_parts(*k.dpce, v.w, nullptr, nullptr, b, false, &rep);
        s.end();
    }
    device_steps::scope s(ds, "NTT", "");
    pb::fill_zero(b + m, (n - m) * sizeof(fr));
    h_c_coefficients(k, b, sc, mem);
    h_from_coset(k, a, sc, nullptr, b);
    s.end();
}

// One piece of MSM_H: Pippenger of the canonical scalars hr with the points
// pts (len of them), or with the key's copies of H when pts is null; the
// copy of the window sums back to the host is a D2H span.
inline g1_jacobian msm_h_piece(gpu_key::impl& k, device_steps& ds, const g1_affine* pts, const fr::repr* hr,
                               size_t len)
{
    gpu_copy_span d2h;
    gpu_msm_options mo;
    mo.window_copy = &d2h;
    const g1_jacobian part = pts ? gpu_msm_device(pts, hr, len, mo) : gpu_msm_device(k.h_table, hr, mo);
    if (d2h.set()) ds.add_span("D2H", "h", d2h.begin, d2h.end);
    return part;
}

// MSM_H: the canonical h (in a) with H, or with its copies (resident keys
// that have them). A streamed key's L is primed during H's last chunk.
inline g1_jacobian bellperson_msm_h(gpu_key::impl& k, device_steps& ds, fr* a)
{
    device_steps::scope s(ds, "MSM_H", "h");
    const auto* hr = reinterpret_cast<const fr::repr*>(a);
    const g1_jacobian h =
        !k.h_table.empty()
            ? msm_h_piece(k, ds, nullptr, hr, 0)
            : query_msm<g1_affine, g1_jacobian>(
                  k, k.h, ds, "h",
                  [&](const g1_affine* p, size_t off, size_t len) { return msm_h_piece(k, ds, p, hr + off, len); },
                  [&] { prime(k, k.l, ds, "l"); });
    s.end();
    return h;
}

// MSM_L, MSM_A, MSM_B1, MSM_B2: witness MSMs; A and B take w gathered by
// their index lists. The gathered scalars go to b, reaching into c when |A|
// or |B| exceeds n (both free once the H step has used them: wait_b runs
// before the first gather there), unless they exceed 2n, when they have a
// buffer of their own.
inline void bellperson_witness_msms(gpu_key::impl& k, device_steps& ds, const bp_vectors& v, groth16::prove_sums& out,
                             const std::function<void()>& wait_b = {})
{
    fr* w = v.w;
    {
        device_steps::scope s(ds, "MSM_L", "l");
        out.l = witness_query<g1_affine, g1_jacobian>(k, ds, k.l, w + k.ni, "l", [&] { prime(k, k.a, ds, "a"); });
        s.end();
    }
    fr* g = k.gath_elems() ? k.gath.as<fr>() : v.b;
    if (g == v.b && wait_b) wait_b();
    {
        device_steps::scope s(ds, "MSM_A", "a");
        pb::gather(w, k.idx_a.as<uint32_t>(), k.na_pts, g);
        out.a = witness_query<g1_affine, g1_jacobian>(k, ds, k.a, g, "a", [&] { prime(k, k.b1, ds, "b1"); });
        s.end();
    }
    {
        device_steps::scope s(ds, "MSM_B1", "b1");
        pb::gather(w, k.idx_b.as<uint32_t>(), k.nb_pts, g);
        out.b1 = witness_query<g1_affine, g1_jacobian>(k, ds, k.b1, g, "b1", [&] { prime(k, k.b2, ds, "b2"); });
        s.end();
    }
    {
        device_steps::scope s(ds, "MSM_B2", "b2");
        out.b2 = witness_query<g2_affine, g2_jacobian>(k, ds, k.b2, g, "b2");
        s.end();
    }
}

} // namespace cuzk::gpu_prove_steps

#endif // CUZK_WITH_CUDA
