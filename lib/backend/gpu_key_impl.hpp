// cuzk — internal (lib/backend/, not installed): the GPU prover's key and
// packed witness, as lib/backend/gpu_key.cpp makes the key and
// lib/backend/gpu_prover.cpp proves with it: gpu_key::impl,
// gpu_packed_witness::impl and the small types they hold (a page-locked view
// of a host array, one point query). Only meaningful with CUDA.
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "cuzk/backend/cuda.hpp"
#include "cuzk/backend/gpu_prover.hpp"
#include "cuzk/io/bellperson.hpp"

#if CUZK_WITH_CUDA
#include "backend/bridge/cuda_bridge.hpp"
#include "backend/bridge/prove_bridge.hpp"
#include "backend/bridge/witness_pack.hpp"
#include "backend/bridge/witness_slices.hpp"
#endif

namespace cuzk {

#if CUZK_WITH_CUDA

namespace pb = prove_bridge;

namespace gpu_detail {


using clock = std::chrono::steady_clock;

inline unsigned log2_exact(uint64_t n)
{
    unsigned l = 0;
    while ((uint64_t{1} << l) < n) ++l;
    return l;
}

// Page-locked view of a host array: the array itself registered with CUDA,
// or, when registration fails (overlapping registrations, odd mappings), a
// pinned copy.
class host_pin {
public:
    host_pin() = default;
    host_pin(const void* src, size_t bytes) : bytes_(bytes)
    {
        if (bytes == 0) return;
        if (pb::host_register(src, bytes)) {
            ptr_ = src;
            registered_ = true;
        } else {
            owned_ = pb::host_alloc_pinned(bytes);
            std::memcpy(owned_, src, bytes);
            ptr_ = owned_;
        }
    }
    ~host_pin()
    {
        if (registered_) pb::host_unregister(ptr_);
        pb::host_free_pinned(owned_);
    }
    host_pin(const host_pin&) = delete;
    host_pin& operator=(const host_pin&) = delete;
    const void* data() const { return ptr_; }
    size_t bytes() const { return bytes_; }
    bool copied() const { return owned_ != nullptr; }

private:
    const void* ptr_ = nullptr;
    void* owned_ = nullptr;
    bool registered_ = false;
    size_t bytes_ = 0;
};

// One point query: device copy (resident keys) or page-locked host view.
// count is the number of points whatever holds them; host views the proving
// key's vector, or `owned` (a mapped key's query decoded for streaming).
template <class Aff>
struct query {
    io::params_query which = io::params_query::h;
    size_t count = 0;
    std::span<const Aff> host;
    std::vector<Aff> owned;
    gpu_buffer dev;
    std::unique_ptr<host_pin> pin;
    size_t size() const { return count; }
};

template <class T>
uint64_t bytes_of(size_t n)
{
    return uint64_t(n) * sizeof(T);
}


} // namespace gpu_detail

struct gpu_key::impl {
    std::shared_ptr<const groth16::proving_key> pk;
    groth16::query_density density;
    std::shared_ptr<const r1cs::pce> pce;   // the given PCE, or the one built from snarkjs coefficients
    std::optional<gpu_pce> dpce;
    bool has_user_pce = false;
    gpu_key_options opt;
    int device = 0;   // the CUDA device of every buffer below
    bool snarkjs = false;
    bool resident = false;
    // Lean proves (device_plan.hpp, gpu_plan::lean): a streamed key with its
    // PCE on the host, the witness in c's space after the H step, the NTT's
    // buffers freed before the MSMs.
    bool lean = false;
    // Lean with the low-memory NTT (gpu_plan::low_ntt; the PCE on the host):
    // abc holds a and b only, each prove allocates c for its H step (whose
    // transforms run in place) and frees it after; the witness goes into a
    // after MSM_H.
    bool low_ntt = false;
    // A streamed key's queries kept on the device (gpu_query bits of
    // device_plan.hpp; their dev buffers hold them, the others stream), and
    // whether they are placed (the plan then takes them as they are).
    unsigned kept = 0;
    bool kept_placed = false;
    // On the device, read in place: a resident key's queries, a streamed
    // key's kept ones.
    template <class Aff>
    bool on_device(const gpu_detail::query<Aff>& q) const
    {
        return resident || q.dev.size() > 0;
    }

    size_t n = 0, ni = 0, na = 0, na_pts = 0, nb_pts = 0;   // domain, inputs, aux, |A|, |B|
    unsigned log_n = 0;
    uint64_t pce_rows = 0;

    gpu_detail::query<g1_affine> h, l, a, b1;
    gpu_detail::query<g2_affine> b2;
    gpu_msm_table h_table;   // shifted copies of h.dev (resident keys, opt.h_copies_budget); after h: freed first
    uint64_t h_copies_pending = 0;   // a budget for copies to build after the next prove (its scratch then held)
    bool proved = false;             // a prove has run: its scratch is held by the key and the backend's caches
    gpu_buffer idx_a, idx_b;   // unified variable index of each A / B point (bellperson)
    uint64_t chunk_bytes = 0;   // streamed keys: bytes of each chunk buffer (G1 and G2 chunks fill it)
    std::atomic<uint64_t> streamed_bytes{0};   // points copied to the device by proves so far
    gpu_key_timings timings;    // of the construction

    // Per-prove scratch, grown on demand and kept (bounded by the key's sizes).
    std::mutex mu;
    gpu_buffer w, abc, gath, chunk[2];
    gpu_buffer wtag;   // tags and tile offsets of the packed witness upload
    bridge::stream copy_stream = nullptr;
    bridge::event chunk_ev[2] = {nullptr, nullptr};
    // Streamed keys: the chunk buffer the next copy goes to, and the query
    // (its pinned points) whose first chunk was copied ahead into primed_buf
    // (gpu_prove_steps::prime); null when none.
    unsigned chunk_next = 0, primed_buf = 0;
    const void* primed = nullptr;
    std::vector<bridge::event> events;   // timing and ordering events, reused
    // A batch's further partitions (gpu_prove_start_witness_batch): the
    // witness of partition p > 0 in batch_w[p − 1], the h of every partition
    // but the last in batch_h[p], each partition's timing events.
    std::vector<gpu_buffer> batch_w, batch_h;
    std::vector<std::vector<bridge::event>> batch_events;
    // Witness MSMs on the second lane (resident keys; see gpu_key_options).
    std::atomic<bool> overlap{true};
    std::atomic<bool> overlap_oom{false};   // an overlapped prove ran out of device memory: serial since
    bool overlaps() const
    {
        return overlap.load(std::memory_order_relaxed) && resident && !snarkjs && !overlap_oom;
    }

    ~impl()
    {
        pb::drain(copy_stream);
        for (bridge::event e : events) pb::event_destroy(e);
        for (const auto& pool : batch_events)
            for (bridge::event e : pool) pb::event_destroy(e);
        for (bridge::event e : chunk_ev) pb::event_destroy(e);
        pb::stream_destroy(copy_stream);
    }

    uint64_t query_bytes() const
    {
        return gpu_detail::bytes_of<g1_affine>(h.size() + l.size() + a.size() + b1.size()) + gpu_detail::bytes_of<g2_affine>(b2.size());
    }
    uint64_t index_bytes() const { return snarkjs ? 0 : gpu_detail::bytes_of<uint32_t>(na_pts + nb_pts); }
    // Values of the largest witness vector sent packed: aux (bellperson) or
    // the whole witness (snarkjs); their compact form lands in abc.
    size_t packed_elems() const { return snarkjs ? ni + na : na; }
    bool packs() const { return packed_elems() > 0 && packed_elems() <= 3 * n; }
    // Elements of the gather buffer of the A and B scalars: none up to 2n,
    // since the gathers then use b and c (consecutive in abc, both free once
    // the H step is done).
    uint64_t gath_elems() const
    {
        const size_t m = std::max(na_pts, nb_pts);
        return snarkjs || m <= 2 * uint64_t(n) ? 0 : m;
    }
};

// After a prove (the key locked): the H copies kept for then
// (h_copies_pending), planned in the room the prove left (lib/backend/gpu_key.cpp).
void build_pending_h_copies(gpu_key::impl& k);

struct gpu_packed_witness::impl {
    size_t n = 0;
    uint64_t others = 0;
    uint32_t* tags = nullptr;   // page-locked: scratch_words(n) words, tags then offsets
    size_t tags_cap = 0;        // words
    fr* vals = nullptr;         // page-locked: the other values
    size_t vals_cap = 0;        // values
    std::vector<uint32_t> cnt;
    witness_pack::slice_packer slices;   // begin / put / finish
    size_t filling = 0;                  // values of the fill in progress
    // stage(): the compact form copied to one device on a stream of its own.
    struct staged_copy {
        int device = -1;      // where the buffers, stream and event live
        bool valid = false;   // holds the current packing (cleared by the next one)
        gpu_buffer tags, vals;
        bridge::stream stream = nullptr;
        bridge::event done = nullptr;   // recorded after the copies
    } staged;
    // Waits for a staged copy still reading the host buffers; the staged
    // data is stale from here on.
    void unstage()
    {
        if (staged.done) {
            const cuda_device_scope on(staged.device);
            pb::event_synchronize(staged.done);
        }
        staged.valid = false;
    }
    void release_staged() noexcept
    {
        if (staged.device < 0) return;
        try {
            const cuda_device_scope on(staged.device);
            if (staged.done) pb::event_synchronize(staged.done);
            pb::event_destroy(staged.done);
            pb::stream_destroy(staged.stream);
        } catch (...) {   // the device is gone: nothing left to wait for
        }
        staged = staged_copy{};
    }
    ~impl()
    {
        release_staged();
        pb::host_free_pinned(tags);
        pb::host_free_pinned(vals);
    }
};

struct gpu_prover_access {
    static gpu_key::impl& get(const gpu_key& k) { return *k.p_; }
    static const gpu_packed_witness::impl& get(const gpu_packed_witness& w) { return *w.p_; }
};

#endif // CUZK_WITH_CUDA

} // namespace cuzk
