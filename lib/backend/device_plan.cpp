// cuzk — the GPU prover's device memory model and plan
// (include/cuzk/backend/device_plan.hpp).
#include "cuzk/backend/device_plan.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "backend/bridge/witness_pack.hpp"
#include "backend/pce_tiles.hpp"
#include "cuzk/backend/cuda.hpp"

namespace cuzk {

namespace {

constexpr uint64_t fr_bytes = 32, g1_bytes = 96, g2_bytes = 192;

uint64_t beside_bytes(const gpu_key_shape& s) { return s.pce_bytes + 4 * (s.a_points + s.b_points); }

uint64_t largest_query_bytes(const gpu_key_shape& s)
{
    const uint64_t h = s.domain ? s.domain - 1 : 0;
    return std::max({std::max({h, s.aux, s.a_points, s.b_points}) * g1_bytes, s.b_points * g2_bytes, g2_bytes});
}

uint64_t streamed_msm_room(const gpu_key_shape& s, uint64_t device)
{
    return std::max(device / 16, std::min(uint64_t{4} << 30, 2 * largest_query_bytes(s)));
}

// A lean prove with the PCE on the device: the witness and its packed
// tags, which PCE_EVAL reads before the H step (and a streamed PCE's tile
// buffers).
uint64_t lean_eval_bytes(const gpu_key_shape& s)
{
    return (s.inputs + s.aux) * fr_bytes + uint64_t(witness_pack::scratch_words(size_t(s.aux))) * sizeof(uint32_t) +
           2 * s.pce_tile_bytes;
}

// The shape with its PCE streamed in tiles of gpu_pce_options's default.
gpu_key_shape pce_streamed_shape(const gpu_key_shape& s)
{
    gpu_key_shape t = s;
    t.pce_tile_bytes = gpu_detail::pce_tile_buffer_bytes(s.pce_bytes, gpu_pce_options{}.stream_tile_bytes);
    t.pce_bytes = 0;
    return t;
}

std::string gb(uint64_t b) { return fmt::format("{:.2f}", double(b) / 1e9); }

} // namespace

uint64_t gpu_ntt_low_memory_bytes(uint64_t domain)
{
    unsigned L = 0;
    while ((uint64_t{1} << L) < domain) ++L;
    if (L == 0) return 0;
    const uint64_t stages = (uint64_t{1} << std::min(L, 20u)) - 1;
    const uint64_t powers = (uint64_t{1} << (L / 2)) + (uint64_t{1} << (L - 1 - L / 2));
    const uint64_t coset = 2 * ((uint64_t{2} << ((L + 1) / 2)) + 16);
    return (stages + powers + coset) * fr_bytes;
}

bool gpu_lean_shape(const gpu_key_shape& s)
{
    return s.inputs + s.aux <= s.domain && std::max(s.a_points, s.b_points) <= s.domain;
}

uint64_t gpu_prove_fixed_bytes(const gpu_key_shape& s)
{
    const uint64_t w = (s.inputs + s.aux) * fr_bytes, abc = 3 * s.domain * fr_bytes, ntt = 2 * s.domain * fr_bytes;
    const uint64_t m = std::max(s.a_points, s.b_points);
    const uint64_t gath = m > 2 * s.domain ? m * fr_bytes : 0;
    const uint64_t tags = uint64_t(witness_pack::scratch_words(size_t(s.aux))) * sizeof(uint32_t);
    return w + abc + gath + ntt + tags;
}

uint64_t gpu_stream_chunk_bytes(const gpu_key_shape& s, uint64_t device_bytes)
{
    const uint64_t beside = beside_bytes(s);
    const uint64_t free_beside = device_bytes > beside ? device_bytes - beside : 0;
    return std::min(largest_query_bytes(s), std::max<uint64_t>(free_beside / 32, uint64_t{128} << 20));
}

uint64_t gpu_query_bytes(const gpu_key_shape& s, unsigned set)
{
    const uint64_t h = s.domain ? s.domain - 1 : 0;
    uint64_t b = 0;
    if (set & gpu_query_h) b += h * g1_bytes;
    if (set & gpu_query_l) b += s.aux * g1_bytes;
    if (set & gpu_query_a) b += s.a_points * g1_bytes;
    if (set & gpu_query_b) b += s.b_points * (g1_bytes + g2_bytes);
    return b;
}

std::string gpu_query_names(unsigned set)
{
    std::string out;
    for (const auto& [bit, name] : {std::pair{gpu_query_h, "H"}, {gpu_query_l, "L"}, {gpu_query_a, "A"},
                                    {gpu_query_b, "B"}})
        if (set & bit) out += out.empty() ? name : std::string(", ") + name;
    return out.empty() ? "none" : out;
}

uint64_t gpu_plan::total() const noexcept
{
    return beside + (resident ? queries : kept_bytes) + one_prove + (batch > 0 ? batch - 1 : 0) * slot + msm_room;
}

std::string gpu_plan::summary() const
{
    if (!fits) return why;
    const std::string streamed =
        kept ? fmt::format("{} kept on the device ({} GB), {} streamed", gpu_query_names(kept), gb(kept_bytes),
                           gpu_query_names(gpu_query_all & ~kept))
             : std::string("queries streamed");
    const std::string place = resident ? fmt::format("queries resident ({} GB)", gb(queries))
                                       : fmt::format("{} through 2 × {} GB chunk buffers", streamed, gb(chunk));
    const char* lean_note = !lean                     ? ""
                            : low_ntt && pce_streamed ? ", lean with the low-memory NTT (its transforms in place; "
                                                        "A and B evaluated first, C late into b's space; the "
                                                        "witness in b after the H step)"
                            : low_ntt ? ", lean with the low-memory NTT (c only for the H step, its transforms in "
                                        "place; the witness in a after MSM_H)"
                            : pce_on_host ? ", lean (witness in c, NTT buffers freed before the MSMs)"
                                          : ", lean (witness in a buffer of its own for PCE_EVAL, then in c; NTT "
                                            "buffers freed before the MSMs)";
    const char* where =
        pce_on_host ? "PCE on the host (a, b, c evaluated there)" : "PCE streamed from host memory in tiles";
    const std::string pce = pce_on_host || pce_streamed
                                ? fmt::format("{}{}; index lists {} GB", where, lean_note, gb(beside))
                                : fmt::format("PCE and index lists {} GB{}", gb(beside), lean_note);
    return fmt::format("{}; {}; one prove {} GB; batch of {} partition{}{}; MSM room {} GB; "
                       "{} of {} GB",
                       place, pce, gb(one_prove), batch, batch == 1 ? "" : "s",
                       batch > 1 ? fmt::format(" ({} GB more each)", gb(slot)) : std::string(), gb(msm_room),
                       gb(total()), gb(device));
}

namespace {

// The figures every plan has: the device, what stays beside the queries,
// the queries, a slot, one prove's fixed buffers.
gpu_plan plan_base(const gpu_key_shape& s, uint64_t device_bytes)
{
    gpu_plan p;
    p.device = device_bytes;
    p.beside = beside_bytes(s);
    p.queries = gpu_query_bytes(s, gpu_query_all);
    p.slot = (s.inputs + s.aux + s.domain) * fr_bytes;
    p.one_prove = gpu_prove_fixed_bytes(s);
    return p;
}

} // namespace

gpu_plan plan_gpu_key(const gpu_key_shape& s, uint64_t device_bytes, unsigned max_batch, uint64_t msm_room_resident)
{
    // Resident: the queries, one prove and the resident MSM room.
    gpu_plan p = plan_base(s, device_bytes);
    p.resident = true;
    p.msm_room = msm_room_resident ? msm_room_resident : streamed_msm_room(s, device_bytes);
    if (p.total() <= device_bytes) {
        p.fits = true;
        return p;
    }
    // Streamed: the chunk buffers as gpu_stream_chunk_bytes plans them.
    const gpu_plan streamed = plan_gpu_key_streamed(s, device_bytes, gpu_stream_chunk_bytes(s, device_bytes), max_batch);
    if (streamed.fits || s.pce_bytes == 0) return streamed;
    // Lean with the PCE on the device (no host evaluation).
    const gpu_plan lean_pce = plan_gpu_key_lean(s, device_bytes, gpu_stream_chunk_bytes(s, device_bytes));
    if (lean_pce.fits) return lean_pce;
    // The PCE streamed from host memory: streamed, else lean.
    const gpu_key_shape st = pce_streamed_shape(s);
    const gpu_plan ps = plan_gpu_key_streamed(st, device_bytes, gpu_stream_chunk_bytes(st, device_bytes), max_batch);
    if (ps.fits) return ps;
    const gpu_plan ls = plan_gpu_key_lean(st, device_bytes, gpu_stream_chunk_bytes(st, device_bytes));
    if (ls.fits) return ls;
    const gpu_plan lls = plan_gpu_key_lean(st, device_bytes, gpu_stream_chunk_bytes(st, device_bytes), true);
    if (lls.fits) return lls;
    // Streamed with the PCE on the host.
    gpu_key_shape h = s;
    h.pce_bytes = 0;
    gpu_plan ph = plan_gpu_key_streamed(h, device_bytes, gpu_stream_chunk_bytes(h, device_bytes), 1);
    ph.pce_on_host = true;
    if (ph.fits) return ph;
    ph.why = fmt::format("{} with the PCE on the host ({} GB more with it on the device)", ph.why, gb(s.pce_bytes));
    // Lean: the witness in c's space, the NTT's buffers freed before the MSMs.
    const uint64_t chunk = gpu_stream_chunk_bytes(h, device_bytes);
    const gpu_plan pl = plan_gpu_key_lean(h, device_bytes, chunk);
    if (pl.fits) return pl;
    // Lean with the low-memory NTT: c only for the H step.
    const gpu_plan low = plan_gpu_key_lean(h, device_bytes, chunk, true);
    if (low.fits || gpu_lean_shape(h)) return low;
    return ph;
}

gpu_plan plan_gpu_key_lean(const gpu_key_shape& s, uint64_t device_bytes, uint64_t chunk_bytes, bool low_ntt)
{
    gpu_plan p = plan_base(s, device_bytes);
    p.lean = true;
    p.pce_streamed = s.pce_tile_bytes > 0;
    p.pce_on_host = s.pce_bytes == 0 && !p.pce_streamed;
    p.low_ntt = low_ntt;
    p.chunk = chunk_bytes;
    const uint64_t n = s.domain * fr_bytes;
    if (low_ntt) {
        // a and b, then with the PCE on the host c and the tables during the
        // H step; streamed, the witness, its tags, the PCE's tiles and the
        // tables (C evaluated into b late); or the MSM room.
        p.one_prove = 2 * n + 2 * p.chunk;
        const uint64_t h_phase = (p.pce_on_host ? n : lean_eval_bytes(s)) + gpu_ntt_low_memory_bytes(s.domain);
        p.msm_room = std::max(h_phase, streamed_msm_room(s, device_bytes));
        if (!p.pce_on_host && !p.pce_streamed) {
            p.why = "the low-memory NTT's lean prove takes a, b and c from the host or the PCE streamed";
            return p;
        }
    } else {
        p.one_prove = 3 * n + 2 * p.chunk;
        // The PCE on the device: PCE_EVAL reads the witness (and its packed
        // tags) from a buffer of its own, freed before the H step.
        const uint64_t eval = p.pce_on_host ? 0 : lean_eval_bytes(s);
        p.msm_room = std::max({2 * n, eval, streamed_msm_room(s, device_bytes)});
    }
    if (!gpu_lean_shape(s)) {
        p.why = fmt::format("a lean prove needs the witness ({} values) and the A/B scalars ({} and {}) within the "
                            "domain ({})",
                            s.inputs + s.aux, s.a_points, s.b_points, s.domain);
        return p;
    }
    if (p.total() > device_bytes && low_ntt) {
        p.why = fmt::format("a device of {} GB is too small for this key: a prove needs {} GB with the PCE {} "
                            "and the low-memory NTT (index lists {}, a and b {}, chunk buffers 2 × {}, {} with the "
                            "NTT's tables or the MSMs' room {})",
                            gb(device_bytes), gb(p.total()), p.pce_on_host ? "on the host" : "streamed", gb(p.beside),
                            gb(2 * n), gb(p.chunk), p.pce_on_host ? "c" : "the witness, its tags and the PCE's tiles",
                            gb(p.msm_room));
        return p;
    }
    if (p.total() > device_bytes) {
        p.why = fmt::format("a device of {} GB is too small for this key: a prove needs {} GB with the PCE on the {} "
                            "and the NTT's buffers freed before the MSMs ({} {}, a/b/c with the witness in "
                            "c {}, chunk buffers 2 × {}, the NTT's scratch and twiddles or the MSMs' room {})",
                            gb(device_bytes), gb(p.total()), p.pce_on_host ? "host" : "device",
                            p.pce_on_host ? "index lists" : "PCE and index lists", gb(p.beside), gb(3 * n),
                            gb(p.chunk), gb(p.msm_room));
        return p;
    }
    p.fits = true;
    return p;
}

namespace {

// The queries a streamed plan keeps on the device, from its room beside
// one prove (the model's rule in device_plan.hpp).
unsigned choose_kept(const gpu_key_shape& s, uint64_t spare, uint64_t slot, unsigned max_batch)
{
    const bool keep_slot = max_batch != 1 && slot && spare >= slot;   // a batch of two fits: keep it
    const uint64_t floor = keep_slot ? slot : 0;
    unsigned kept = 0;
    uint64_t used = 0;
    for (unsigned q : {gpu_query_b, gpu_query_h, gpu_query_l, gpu_query_a}) {
        const uint64_t b = gpu_query_bytes(s, q);
        if ((kept | q) == gpu_query_all || used + b + floor > spare) continue;   // one query at least streams
        kept |= q;
        used += b;
    }
    return kept;
}

} // namespace

gpu_plan plan_gpu_key_streamed(const gpu_key_shape& s, uint64_t device_bytes, uint64_t chunk_bytes, unsigned max_batch,
                               int kept)
{
    gpu_plan p = plan_base(s, device_bytes);
    p.pce_streamed = s.pce_tile_bytes > 0;
    const uint64_t fixed = p.one_prove + 2 * s.pce_tile_bytes;
    p.chunk = chunk_bytes;
    p.one_prove = fixed + 2 * p.chunk;
    p.msm_room = streamed_msm_room(s, device_bytes);
    if (p.total() > device_bytes) {
        p.why = fmt::format("a device of {} GB is too small for this key: a prove needs {} GB (PCE and index lists {}, "
                            "witness, a/b/c, NTT scratch and tags {}, chunk buffers 2 × {}, room for the MSMs {})",
                            gb(device_bytes), gb(p.total()), gb(p.beside), gb(fixed), gb(p.chunk), gb(p.msm_room));
        return p;
    }
    p.fits = true;
    const uint64_t room = device_bytes - p.total();
    p.kept = kept >= 0 ? unsigned(kept) & gpu_query_all : choose_kept(s, room, p.slot, max_batch);
    p.kept_bytes = gpu_query_bytes(s, p.kept);
    if (p.kept_bytes > room) {
        p.fits = false;
        p.why = fmt::format("a device of {} GB is too small for this key: a prove needs {} GB with {} kept on the "
                            "device",
                            gb(device_bytes), gb(p.total()), gpu_query_names(p.kept));
        return p;
    }
    const uint64_t spare = room - p.kept_bytes;
    uint64_t b = 1 + (p.slot ? spare / p.slot : 0);
    if (max_batch) b = std::min<uint64_t>(b, max_batch);
    p.batch = unsigned(std::min<uint64_t>(b, 1024));
    return p;
}

} // namespace cuzk
