// cuzk — the GPU prover's key (include/cuzk/backend/gpu_prover.hpp,
// gpu_key): the sizes and checks of a bellperson or snarkjs key, its PCE and
// gather index lists on the device, and the queries' residency — uploaded
// whole when the device budget allows (decoded in chunks straight from a
// mapped .params file when the key comes from one), otherwise page-locked on
// the host for streaming. The prove itself is lib/backend/gpu_prover.cpp.
#include "backend/gpu_key_impl.hpp"
#include "backend/pce_tiles.hpp"

#include <fmt/format.h>

#include <array>
#include <chrono>
#include <cstring>
#include <type_traits>

#include "cuzk/error.hpp"
#include "cuzk/util/parallel.hpp"

#if CUZK_WITH_CUDA
#include "backend/bridge/decode_bridge.hpp"
#endif

namespace cuzk {

#if CUZK_WITH_CUDA

using namespace gpu_detail;
namespace db = decode_bridge;

namespace {

// The key's sizes for the device memory model (device_plan.hpp).
gpu_key_shape shape_of(const gpu_key::impl& k)
{
    return {uint64_t(k.n),         uint64_t(k.ni),     uint64_t(k.na), uint64_t(k.na_pts), uint64_t(k.nb_pts),
            k.dpce ? k.dpce->device_bytes() : 0, k.dpce ? k.dpce->eval_device_bytes() / 2 : 0};
}

// ---- scratch estimate --------------------------------------------------------------------
// An estimate from the sizes, meant as an upper bound of what one prove
// allocates on the device beside the key:
//   w (ni + na), a, b, c (3n), the gather buffer when |A| or |B| exceeds 2n;
//   NTT: scratch n, twiddles n (one table per stage), small tables;
//   MSM (the backend's cached slots) for the largest query q at its window c:
//     sort entries E = q·W (W = ceil(256/c)), capped at 2^30: keys and values
//     double-buffered (16 B/entry) + the sort's temporary (~8 B/entry) +
//     buckets W·2^(c−1) XYZZ points (G1 192 B, G2 384 B); where the
//     automatic choice takes the batch-affine rounds (gpu_msm_batch_affine;
//     the prover keeps msm_buckets::automatic) the groups hold
//     E' = min(E, max(q, 2^27)) entries (an eighth of the cap), and per entry
//     the two round lists (each at most 3/4 of E' entries of a point and a
//     key), the products (half a point per pair) and the counts and
//     positions (8 B per pair);
//   the witness MSM's compaction of the non-0/1 scalars and points (q·(32 +
//     point size + 8));
//   streaming: two chunk buffers.
// The buffers every prove allocates whatever the free memory: w, a/b/c,
// the gathered scalars, the NTT's scratch and twiddles (n values each).
struct prove_buffers {
    uint64_t w, abc, gath, ntt;
    uint64_t sum() const { return w + abc + gath + ntt; }
};
prove_buffers fixed_buffers(const gpu_key::impl& k)
{
    const uint64_t fr_b = sizeof(fr);
    return {(uint64_t(k.ni) + k.na) * fr_b, 3 * uint64_t(k.n) * fr_b, k.gath_elems() * fr_b,
            2 * uint64_t(k.n) * fr_b};
}

uint64_t estimate_scratch(const gpu_key::impl& k)
{
    const uint64_t fr_b = sizeof(fr);
    uint64_t s = fixed_buffers(k).sum();
    if (k.packs()) s += pb::packed_scratch_words(k.packed_elems()) * sizeof(uint32_t);
    s += (uint64_t{4} << ((k.log_n + 1) / 2)) * fr_b;   // the NTT's small tables
    auto msm_bytes = [](size_t q, bool g2) -> uint64_t {
        if (q == 0) return 0;
        const unsigned c = gpu_msm_window_bits(q, g2, 255);
        const uint64_t W = (256 + c - 1) / c;
        const uint64_t entries = std::min<uint64_t>(uint64_t(q) * W, uint64_t{1} << 30);
        const uint64_t xyzz = g2 ? 384 : 192;
        const uint64_t pt = g2 ? sizeof(g2_affine) : sizeof(g1_affine);
        const uint64_t affine_entries = std::min<uint64_t>(uint64_t(q) * W, std::max<uint64_t>(q, uint64_t{1} << 27));
        const bool rounds = gpu_msm_batch_affine(q, g2);
        const uint64_t affine = rounds ? affine_entries * (24 + 3 * (pt + 4) / 2 + pt / 4 + 4) : 0;
        return std::max(entries * 24, affine) + W * (uint64_t{1} << (c - 1)) * xyzz + uint64_t(q) * (32 + pt + 8);
    };
    const size_t q1 = std::max({k.h.size(), k.l.size(), k.a.size(), k.b1.size()});
    s += std::max(msm_bytes(q1, false), msm_bytes(k.b2.size(), true));
    if (!k.resident) s += 2 * uint64_t(k.chunk_bytes);
    return s;
}

template <class Aff>
void upload_query(query<Aff>& q)
{
    q.dev = gpu_buffer(std::max<size_t>(q.host.size_bytes(), 1));
    pb::upload_pageable(q.dev.data(), q.host.data(), q.host.size_bytes());
}

template <class Aff>
void pin_query(query<Aff>& q)
{
    q.pin = std::make_unique<host_pin>(q.host.data(), q.host.size_bytes());
}
// The snarkjs coefficient list as a PCE with A and B rows (C empty): rows =
// the highest constraint + 1. Repeated (row, signal) entries are summed, as
// prove_snarkjs's accumulation does.
std::shared_ptr<const r1cs::pce> pce_from_snarkjs(const groth16::proving_key& pk)
{
    const size_t n_vars = size_t(pk.num_inputs) + pk.num_aux;
    uint64_t rows = 0;
    for (const auto& e : pk.coefs) {
        if (e.constraint >= pk.domain_size || e.signal >= n_vars || e.matrix > 1)
            throw error(errc::bad_format,
                        fmt::format("gpu_key: coefficient (matrix {}, constraint {}, signal {}) out of range",
                                    e.matrix, e.constraint, e.signal));
        rows = std::max<uint64_t>(rows, uint64_t(e.constraint) + 1);
    }
    std::vector<std::array<r1cs::pce_row, 3>> cons(rows);
    for (const auto& e : pk.coefs) cons[e.constraint][e.matrix].push_back({e.signal, e.value});
    return std::make_shared<r1cs::pce>(r1cs::pce_from_constraints(pk.num_inputs, pk.num_aux, cons));
}

} // namespace

// ---- the key ---------------------------------------------------------------------------------------
namespace {

// Where a key's points come from while it is made: the proving key's
// vectors, or a mapped .params file decoded on demand (bellperson only).
struct point_source {
    const groth16::proving_key* pk = nullptr;
    const io::mapped_params* mp = nullptr;
    unsigned threads = 0;   // decoding threads (0 = all)

    template <class Aff>
    void decode(io::params_query q, size_t first, std::span<Aff> out) const
    {
        if constexpr (std::is_same_v<Aff, g2_affine>) mp->decode_g2(first, out, threads);
        else mp->decode_g1(q, first, out, threads);
    }
};

template <class Aff>
void set_query(query<Aff>& q, io::params_query which, const point_source& src, const std::vector<Aff>& pk_vec)
{
    q.which = which;
    if (src.pk) {
        q.host = pk_vec;
        q.count = pk_vec.size();
    } else {
        q.count = src.mp->count(which);
    }
}

// The five queries' counts (and host views of a proving key's vectors).
void set_queries(gpu_key::impl& k, const point_source& src, const groth16::proving_key& pk)
{
    using io::params_query;
    set_query(k.h, params_query::h, src, pk.h);
    set_query(k.l, params_query::l, src, pk.l);
    set_query(k.a, params_query::a, src, pk.a);
    set_query(k.b1, params_query::b_g1, src, pk.b_g1);
    set_query(k.b2, params_query::b_g2, src, pk.b_g2);
}

// The sizes every key has, checked. pkp is the key itself, or the shell of
// a mapped one (its sizes without points).
void init_sizes(gpu_key::impl& k, const std::shared_ptr<const groth16::proving_key>& pkp, const point_source& src,
                const gpu_key_options& opt)
{
    const groth16::proving_key& pk = *pkp;
    k.pk = pkp;
    k.opt = opt;
    k.overlap = opt.overlap;
    k.snarkjs = pk.conv == groth16::convention::snarkjs;
    k.n = size_t(pk.domain_size);
    k.ni = pk.num_inputs;
    k.na = pk.num_aux;
    set_queries(k, src, pk);
    if (k.n == 0 || (k.n & (k.n - 1)) != 0 || k.n > (size_t{1} << 30))
        throw error(errc::bad_format,
                    fmt::format("gpu_key: domain size {} is not a power of two in 1 … 2^30", pk.domain_size));
    k.log_n = log2_exact(k.n);
    if (k.ni == 0) throw error(errc::bad_format, "gpu_key: the key has no inputs (input 0 is the constant one)");
    if (uint64_t(k.ni) + k.na >= (uint64_t{1} << 32))
        throw error(errc::invalid_argument, "gpu_key: more than 2^32 variables");
    if (k.l.size() != k.na)
        throw error(errc::bad_format, fmt::format("gpu_key: L query has {} points for {} aux", k.l.size(), k.na));
}

// The PCE's checks against a bellperson key's sizes and density.
void check_pce(const gpu_key::impl& k, const groth16::query_density& density, const r1cs::pce& pce)
{
    if (pce.num_inputs != k.ni || pce.num_aux != k.na)
        throw error(errc::invalid_argument, fmt::format("gpu_key: the PCE has {} inputs and {} aux, the key {} and {}",
                                                        pce.num_inputs, pce.num_aux, k.ni, k.na));
    if (pce.num_constraints + k.ni > k.n)
        throw error(errc::invalid_argument,
                    fmt::format("gpu_key: {} constraints + {} input constraints do not fit the domain of {}",
                                pce.num_constraints, k.ni, k.n));
    auto same = [](const r1cs::density_bitmap& bm, const std::vector<bool>& v) {
        if (bm.bit_len != v.size()) return false;
        for (size_t i = 0; i < v.size(); ++i)
            if (bm.test(i) != bool(v[i])) return false;
        return true;
    };
    if (!same(pce.a_aux_density, density.a_aux) || !same(pce.b_input_density, density.b_input) ||
        !same(pce.b_aux_density, density.b_aux))
        throw error(errc::invalid_argument, "gpu_key: the PCE's densities differ from the given density");
}

// A bellperson key: the density's index lists (resident), the PCE's checks.
void init_bellperson(gpu_key::impl& k, groth16::query_density density, std::shared_ptr<const r1cs::pce> pce)
{
    if (density.b_input.size() != k.ni || density.a_aux.size() != k.na || density.b_aux.size() != k.na)
        throw error(errc::invalid_argument, fmt::format("gpu_key: density bitmaps do not match the key's {} inputs "
                                                        "and {} aux", k.ni, k.na));
    // Index lists: A = every input, then aux j where a_aux[j]; B = input i
    // where b_input[i], then aux j where b_aux[j] (prove_start's gather).
    std::vector<uint32_t> ia, ib;
    ia.reserve(k.ni + k.na);
    ib.reserve(k.ni + k.na);
    for (size_t i = 0; i < k.ni; ++i) {
        ia.push_back(uint32_t(i));
        if (density.b_input[i]) ib.push_back(uint32_t(i));
    }
    for (size_t j = 0; j < k.na; ++j) {
        if (density.a_aux[j]) ia.push_back(uint32_t(k.ni + j));
        if (density.b_aux[j]) ib.push_back(uint32_t(k.ni + j));
    }
    if (ia.size() != k.a.size())
        throw error(errc::invalid_argument,
                    fmt::format("gpu_key: A query has {} points, the density selects {}", k.a.size(), ia.size()));
    if (ib.size() != k.b1.size() || ib.size() != k.b2.size())
        throw error(errc::invalid_argument, fmt::format("gpu_key: B queries have {}/{} points, the density selects {}",
                                                        k.b1.size(), k.b2.size(), ib.size()));
    k.na_pts = ia.size();
    k.nb_pts = ib.size();
    if (pce) {
        check_pce(k, density, *pce);
        k.pce = pce;
        k.pce_rows = pce->num_constraints;
        k.has_user_pce = true;
    }
    k.density = std::move(density);

    // Index lists are resident whatever the budget (4 bytes per point).
    k.idx_a = gpu_buffer(std::max<size_t>(ia.size() * 4, 1));
    k.idx_b = gpu_buffer(std::max<size_t>(ib.size() * 4, 1));
    k.idx_a.upload(ia.data(), ia.size() * 4);
    k.idx_b.upload(ib.data(), ib.size() * 4);
}

// A snarkjs key: its coefficient list becomes the PCE; one point per signal.
void init_snarkjs(gpu_key::impl& k, const groth16::proving_key& pk, const groth16::query_density& density,
                  const std::shared_ptr<const r1cs::pce>& pce)
{
    if (pce) throw error(errc::invalid_argument, "gpu_key: a snarkjs key takes no PCE (it has its coefficients)");
    if (!density.a_aux.empty() || !density.b_aux.empty() || !density.b_input.empty())
        throw error(errc::invalid_argument, "gpu_key: a snarkjs key takes no density");
    const size_t n_vars = k.ni + k.na;
    if (pk.h.size() != k.n || pk.a.size() != n_vars || pk.b_g1.size() != n_vars || pk.b_g2.size() != n_vars)
        throw error(errc::bad_format, "gpu_key: the snarkjs key's point sections do not match its sizes");
    k.pce = pce_from_snarkjs(pk);
    k.pce_rows = k.pce->num_constraints;
    k.na_pts = k.nb_pts = n_vars;
}

// Two reusable host buffers and a copy stream for the chunked upload of a
// mapped key: a chunk is decoded into one buffer while the other buffer's
// copy runs. Page-locked when CUDA grants it, plain memory otherwise (a copy
// from it returns once CUDA has taken the bytes). The destructor waits for
// the copies in flight, also when decoding failed.
class upload_stage {
public:
    explicit upload_stage(size_t bytes) : bytes_(bytes)
    {
        for (int b = 0; b < 2; ++b) {
            try {
                pinned_[b] = pb::host_alloc_pinned(bytes);
            } catch (const error& e) {
                if (e.code() != errc::out_of_memory) throw;
                plain_[b].resize(bytes);
            }
        }
        stream_ = pb::stream_create();
        for (bridge::event& e : ev_) e = pb::event_create();
    }
    ~upload_stage()
    {
        pb::drain(stream_);
        for (bridge::event e : ev_) pb::event_destroy(e);
        pb::stream_destroy(stream_);
        for (void* p : pinned_) pb::host_free_pinned(p);
    }
    upload_stage(const upload_stage&) = delete;
    upload_stage& operator=(const upload_stage&) = delete;

    // Decodes q chunk by chunk into its device buffer (allocated).
    template <class Aff>
    void upload(const point_source& src, query<Aff>& q)
    {
        const size_t per = bytes_ / sizeof(Aff);
        Aff* dst = q.dev.template as<Aff>();
        for (size_t off = 0; off < q.count; off += per, ++turn_) {
            const size_t b = turn_ % 2, len = std::min(per, q.count - off);
            if (used_[b]) pb::event_synchronize(ev_[b]);   // its previous copy is done
            Aff* buf = static_cast<Aff*>(pinned_[b] ? pinned_[b] : static_cast<void*>(plain_[b].data()));
            src.decode(q.which, off, std::span<Aff>(buf, len));
            pb::copy_h2d_on(stream_, dst + off, buf, len * sizeof(Aff));
            pb::event_record(ev_[b], stream_);
            used_[b] = true;
        }
    }
    // The same on the device: q's raw bytes chunk by chunk (copied from the
    // mapping into a staging buffer by the decoding threads), each chunk
    // decoded in place after its copy (decode_bridge, the checks of the host
    // decoder). A point refused there is decoded again on the host at the
    // lowest refused index, whose error names the file, vector and index.
    template <class Aff>
    void upload_raw(const point_source& src, query<Aff>& q)
    {
        static_assert(sizeof(Aff) == 96 || sizeof(Aff) == 192, "raw encodings are as large as the points");
        const uint8_t* raw = src.mp->raw(q.which).data();
        const size_t per = bytes_ / sizeof(Aff);
        Aff* dst = q.dev.template as<Aff>();
        uint64_t* bad = bad_.as<uint64_t>();
        db::bad_reset(stream_, bad);
        for (size_t off = 0; off < q.count; off += per, ++turn_) {
            const size_t b = turn_ % 2, len = std::min(per, q.count - off);
            if (used_[b]) pb::event_synchronize(ev_[b]);
            uint8_t* buf = staging(b);
            copy_parallel(buf, raw + off * sizeof(Aff), len * sizeof(Aff), src.threads);
            pb::copy_h2d_on(stream_, dst + off, buf, len * sizeof(Aff));
            if constexpr (std::is_same_v<Aff, g2_affine>) db::g2_in_place(stream_, dst + off, len, off, bad);
            else db::g1_in_place(stream_, dst + off, len, off, bad);
            pb::event_record(ev_[b], stream_);
            used_[b] = true;
        }
        const uint64_t first_bad = db::bad_read(stream_, bad);
        if (first_bad != ~uint64_t{0}) report_refused(src, q, size_t(first_bad));
    }
    void finish()
    {
        for (size_t b = 0; b < 2; ++b)
            if (used_[b]) pb::event_synchronize(ev_[b]);
    }

private:
    uint8_t* staging(size_t b) { return static_cast<uint8_t*>(pinned_[b] ? pinned_[b] : plain_[b].data()); }
    // memcpy in pieces of 1 MiB over the decoding threads (the mapping's
    // pages are read here).
    static void copy_parallel(uint8_t* dst, const uint8_t* src, size_t bytes, unsigned threads)
    {
        constexpr size_t piece = size_t{1} << 20;
        parallel_tasks(threads, (bytes + piece - 1) / piece, [&](size_t t, unsigned) {
            const size_t o = t * piece;
            std::memcpy(dst + o, src + o, std::min(piece, bytes - o));
        });
    }
    template <class Aff>
    [[noreturn]] static void report_refused(const point_source& src, const query<Aff>& q, size_t index)
    {
        Aff p;
        src.decode(q.which, index, std::span<Aff>(&p, 1));   // throws, naming the check
        throw error(errc::internal, fmt::format("gpu_key: {}: {}[{}] refused by the device decoder, accepted by "
                                                "the host's",
                                                src.mp->path(), io::params_query_name(q.which), index));
    }

    size_t bytes_;
    gpu_buffer bad_{sizeof(uint64_t)};   // the lowest refused index of a raw upload
    void* pinned_[2] = {nullptr, nullptr};
    std::vector<uint8_t> plain_[2];
    bridge::stream stream_ = nullptr;
    bridge::event ev_[2] = {nullptr, nullptr};
    bool used_[2] = {false, false};
    size_t turn_ = 0;
};

// Queries of a mapped key onto the device: every device buffer allocated
// first (a failure leaves the caller to stream them before any decoding),
// then each query decoded in chunks into it.
template <class... Q>
void upload_mapped(const point_source& src, const gpu_key_options& opt, Q&... qs)
{
    const auto alloc = [](auto& q) { q.dev = gpu_buffer(std::max<size_t>(q.size() * sizeof(q.owned[0]), 1)); };
    (alloc(qs), ...);
    const uint64_t largest = std::max<uint64_t>({uint64_t(qs.size() * sizeof(qs.owned[0]))..., sizeof(g2_affine)});
    const uint64_t chunk = opt.stream_chunk_points ? uint64_t(opt.stream_chunk_points) * sizeof(g2_affine)
                                                   : std::min<uint64_t>(largest, uint64_t{96} << 20);
    upload_stage st(size_t(std::max<uint64_t>(chunk, sizeof(g2_affine))));
    const bool on_device = opt.device_decode && src.mp->check() == subgroup_check::skip;
    const auto up = [&](auto& q) { on_device ? st.upload_raw(src, q) : st.upload(src, q); };
    (up(qs), ...);
    st.finish();
}

// Queries onto the device whole (from a mapping, or the key's vectors);
// an allocation that fails (other users, fragmentation) frees what was
// allocated and returns false.
template <class... Q>
bool upload_queries(const point_source& src, const gpu_key_options& opt, Q&... qs)
{
    try {
        if (src.mp) upload_mapped(src, opt, qs...);
        else (upload_query(qs), ...);
        cuda_bridge::synchronize();
        return true;
    } catch (const error& e) {
        if (e.code() != errc::out_of_memory) throw;
        ((qs.dev = gpu_buffer()), ...);
        return false;
    }
}

// A streamed query of a mapped key: decoded whole into host memory the key
// owns (every prove streams decoded points), then page-locked. When the
// registration failed and a pinned copy was made, the decoded vector goes.
template <class Aff>
void decode_and_pin(const point_source& src, query<Aff>& q)
{
    if (src.mp) {
        q.owned.resize(q.count);
        src.decode(q.which, 0, std::span<Aff>(q.owned));
        q.host = q.owned;
    }
    pin_query(q);
    if (q.pin->copied() && !q.owned.empty()) {
        q.host = {};
        std::vector<Aff>().swap(q.owned);
    }
}

// Uploads the queries whole when they fit the budget (false: they did not).
bool upload_resident(gpu_key::impl& k, const point_source& src, const gpu_key_options& opt)
{
    return upload_queries(src, opt, k.h, k.l, k.a, k.b1, k.b2);
}

// Bytes of each of a streamed key's two chunk buffers: the option's count of
// G2 points, else the model's (gpu_stream_chunk_bytes, device_plan.hpp: 1/32
// of the memory free beside the PCE and index lists, at least 128 MiB, at
// most the largest query; 128 MiB chunks once made a 2^27 partition 2.1×
// slower than 2.4 GB ones) for the device as this key sees it: its free
// memory and the PCE and index lists already placed.
uint64_t stream_chunk_bytes(const gpu_key::impl& k, const gpu_key_options& opt, const gpu_key_shape& sh)
{
    if (opt.stream_chunk_points)
        return std::max<uint64_t>(bytes_of<g2_affine>(opt.stream_chunk_points), sizeof(g2_affine));
    size_t free_b = 0, total_b = 0;
    pb::mem_info(&free_b, &total_b);
    return gpu_stream_chunk_bytes(sh, uint64_t(free_b) + sh.pce_bytes + k.index_bytes());
}
uint64_t stream_chunk_bytes(const gpu_key::impl& k, const gpu_key_options& opt)
{
    return stream_chunk_bytes(k, opt, shape_of(k));
}

// A streamed key on a device too small for any prove of it: refused here,
// with the figures of the device memory model (device_plan.hpp: one prove's
// fixed buffers, the chunk buffers and the room its MSMs' sorts need), for
// the device as this key sees it (its free memory and the PCE and index
// lists already placed), rather than by an allocation in a prove.
gpu_plan streamed_plan(const gpu_key::impl& k, const gpu_key_shape& sh, uint64_t chunk_bytes)
{
    size_t free_b = 0, total_b = 0;
    pb::mem_info(&free_b, &total_b);
    const uint64_t device = uint64_t(free_b) + sh.pce_bytes + k.index_bytes() + gpu_query_bytes(sh, k.kept);
    return k.lean ? plan_gpu_key_lean(sh, device, chunk_bytes, k.low_ntt)
                  : plan_gpu_key_streamed(sh, device, chunk_bytes, 0, k.kept_placed ? int(k.kept) : -1);
}
gpu_plan streamed_plan(const gpu_key::impl& k) { return streamed_plan(k, shape_of(k), k.chunk_bytes); }
bool streamed_fits(const gpu_key::impl& k) { return streamed_plan(k).fits; }
void check_streamed_room(const gpu_key::impl& k)
{
    const gpu_plan p = streamed_plan(k);
    if (!p.fits) throw error(errc::out_of_memory, fmt::format("gpu_key: device {}: {}", k.device, p.why));
}

// A streamed key's queries: those its plan keeps on the device
// (gpu_plan::kept within opt.device_budget, none when forced to stream, or
// gpu_key_options::keep_queries) uploaded, the rest decoded into host memory
// and page-locked for streaming. A kept query whose upload fails for lack
// of memory streams instead.
void place_streamed(gpu_key::impl& k, const point_source& src, const gpu_key_options& opt)
{
    unsigned want = opt.keep_queries >= 0 ? unsigned(opt.keep_queries) & gpu_query_all
                    : k.lean || opt.force_streaming ? 0u
                                                    : streamed_plan(k).kept;
    // Kept queries count against the residency budget as resident ones do:
    // the last in the plan's order go first.
    const gpu_key_shape sh = shape_of(k);
    const uint64_t beside = sh.pce_bytes + k.index_bytes();
    if (opt.keep_queries < 0 && opt.device_budget)
        for (unsigned q : {gpu_query_a, gpu_query_l, gpu_query_h, gpu_query_b})
            if (beside + gpu_query_bytes(sh, want) > opt.device_budget) want &= ~q;
    k.kept = 0;
    const auto keep = [&](unsigned bit, auto&... qs) {
        if ((want & bit) && upload_queries(src, opt, qs...)) k.kept |= bit;
        else (decode_and_pin(src, qs), ...);
    };
    keep(gpu_query_h, k.h);
    keep(gpu_query_l, k.l);
    keep(gpu_query_a, k.a);
    keep(gpu_query_b, k.b1, k.b2);
    k.kept_placed = true;
}

// The PCE's options for this key (streamed or not).
gpu_pce_options pce_options(const gpu_key_options& opt, bool streamed)
{
    gpu_pce_options po;
    po.group_tile_log = opt.pce_group_tile_log;
    po.streamed = streamed;
    if (opt.pce_stream_tile_bytes) po.stream_tile_bytes = opt.pce_stream_tile_bytes;
    return po;
}

// The PCE streamed from host memory in place of its device copy, when the
// model finds a prove that fits beside its tile buffers: streamed, else
// lean, else lean with the low-memory NTT. False (no PCE on the device or
// streamed, not lean) when none does.
bool stream_pce(gpu_key::impl& k, const gpu_key_options& opt)
{
    const gpu_pce_options po = pce_options(opt, true);
    k.dpce.reset();   // the device copy's memory back first
    // The model first (the streamed form takes seconds and its host block to build).
    gpu_key_shape sh = shape_of(k);
    sh.pce_tile_bytes = gpu_detail::pce_tile_buffer_bytes(k.pce->memory_bytes(), po.stream_tile_bytes);
    const uint64_t chunk = stream_chunk_bytes(k, opt, sh);
    k.lean = false;
    k.low_ntt = false;
    if (!streamed_plan(k, sh, chunk).fits) {
        k.lean = gpu_lean_shape(sh);
        if (k.lean && !streamed_plan(k, sh, chunk).fits) k.low_ntt = true;
        if (!k.lean || !streamed_plan(k, sh, chunk).fits) {
            k.lean = k.low_ntt = false;
            return false;
        }
    }
    try {
        k.dpce.emplace(*k.pce, po);
    } catch (const error& e) {
        if (e.code() != errc::out_of_memory) throw;
        k.dpce.reset();   // no page-locked block of that size: a, b, c are evaluated on the host
        k.lean = k.low_ntt = false;
        return false;
    }
    k.chunk_bytes = stream_chunk_bytes(k, opt);
    return true;
}

// A streamed bellperson key's choice among the plans (device_plan.hpp's
// order): streamed with the PCE on the device; lean with it there; the PCE
// streamed from host memory (streamed, else lean, else lean with the
// low-memory NTT); the PCE back on the host
// (streamed, else lean, else lean with the low-memory NTT).
// force_lean: lean with the PCE where it is (force_low_ntt: with the
// low-memory NTT when it is on the host). A key that fits no plan is refused
// after this by check_streamed_room with the figures of the smallest: lean
// with the low-memory NTT where the shape allows it.
void place_pce_and_lean(gpu_key::impl& k, const gpu_key_options& opt, bool may_stay_on_host)
{
    if (!may_stay_on_host) return;
    const bool lean_shape = gpu_lean_shape(shape_of(k));
    k.lean = opt.force_lean;
    k.low_ntt = opt.force_lean && opt.force_low_ntt && (!k.dpce || k.dpce->streamed());
    if (k.lean || streamed_fits(k)) return;
    if (k.dpce) {
        k.lean = lean_shape;
        if (k.lean && streamed_fits(k)) return;
        k.lean = false;
        if (!k.dpce->streamed() && stream_pce(k, opt)) return;
        k.dpce.reset();   // the PCE goes back to the host to make room
        k.lean = false;
        k.chunk_bytes = stream_chunk_bytes(k, opt);
        if (streamed_fits(k)) return;
    }
    k.lean = lean_shape;
    // The plain lean prove, else the low-memory NTT's (its figures refuse
    // the key when neither fits).
    if (k.lean && !streamed_fits(k)) k.low_ntt = true;
}

// The PCE upload, residency (the queries uploaded when they fit the budget,
// otherwise page-locked on the host), and a streamed key's chunk size.
void place_queries(gpu_key::impl& k, const point_source& src, const gpu_key_options& opt)
{
    // The PCE on the device, unless it must stay on the host (below).
    const auto t_pce = std::chrono::steady_clock::now();
    // (Only a bellperson key's own PCE may stay on the host: the PCE made
    // from a snarkjs key's coefficients is evaluated on the device, always.)
    const bool may_stay_on_host = k.has_user_pce;
    if (k.pce && k.pce_rows && !(may_stay_on_host && opt.host_pce)) {
        try {
            k.dpce.emplace(*k.pce, pce_options(opt, opt.force_pce_streamed));
        } catch (const error& e) {
            if (e.code() != errc::out_of_memory || !may_stay_on_host) throw;
            k.dpce.reset();   // larger than the device: a, b, c are evaluated on the host
        }
    }
    const auto t_points = std::chrono::steady_clock::now();
    k.timings.pce_s = std::chrono::duration<double>(t_points - t_pce).count();
    const uint64_t pce_bytes = k.dpce ? k.dpce->device_bytes() : 0;

    // Residency.
    uint64_t budget = opt.device_budget;
    if (budget == 0) {
        size_t free_b = 0, total_b = 0;
        pb::mem_info(&free_b, &total_b);
        k.resident = true;   // the scratch estimate of a resident key
        const uint64_t reserve = estimate_scratch(k) + (uint64_t{512} << 20);
        budget = free_b > reserve ? free_b - reserve : 0;
        budget += pce_bytes + k.index_bytes();   // already allocated: they count against the budget below
    }
    k.resident = !opt.force_streaming && !opt.force_lean && pce_bytes + k.index_bytes() + k.query_bytes() <= budget;
    if (k.resident) k.resident = upload_resident(k, src, opt);
    if (!k.resident) {
        k.chunk_bytes = stream_chunk_bytes(k, opt);
        place_pce_and_lean(k, opt, may_stay_on_host);
        check_streamed_room(k);
        place_streamed(k, src, opt);
    }
}

// The H query's shifted copies (resident bellperson keys with a budget):
// planned in the memory the device has free once a prove has run (its
// scratch then held by the key and the backend's caches), less a margin and
// less what MSM_H over the copies takes beside the plain one (its rows of
// buckets twice: the buckets, and the second set a later window group fills)
// and the build's own scratch. A plan that does not fit is cut to fewer
// copies; copies that do not fit at all are left out. A key that has not
// proved yet keeps the budget for after its first prove.
constexpr uint64_t copies_build_scratch = uint64_t{48} * 3 * (uint64_t{1} << 24);   // two Fp arrays of a piece

uint64_t copies_extra(const gpu_msm_table_plan& p)
{
    return 2 * uint64_t(p.rows) * (uint64_t{1} << (p.window_bits - 1)) * sizeof(g1_xyzz) + copies_build_scratch;
}

gpu_msm_table_plan plan_in_room(size_t n, uint64_t budget, uint64_t room)
{
    gpu_msm_table_plan plan = gpu_msm_table_choose(n, std::min(budget, room));
    while (plan.copies > 1 && plan.bytes + copies_extra(plan) > room)
        plan = gpu_msm_table_choose(n, plan.bytes - 1);   // the next smaller plan
    return plan;
}

void build_h_copies(gpu_key::impl& k, uint64_t budget)
{
    k.h_table = gpu_msm_table();
    k.h_copies_pending = 0;
    if (!k.resident || k.snarkjs || budget == 0 || k.h.size() == 0) return;
    if (!k.proved) {
        k.h_copies_pending = budget;
        return;
    }
    size_t free_b = 0, total_b = 0;
    pb::mem_info(&free_b, &total_b);
    const uint64_t margin = std::max<uint64_t>(uint64_t{2} << 30, total_b / 64);
    const uint64_t room = free_b > margin ? free_b - margin : 0;
    const gpu_msm_table_plan plan = plan_in_room(k.h.size(), budget, room);
    if (plan.copies < 2) return;
    try {
        k.h_table = gpu_msm_table(k.h.dev.as<g1_affine>(), k.h.size(), plan);
    } catch (const error& e) {
        if (e.code() != errc::out_of_memory) throw;   // the key stays without copies
    }
}

// Everything a constructor does on the key's device; on failure what was
// made is released there before the error propagates.
void make_key(std::unique_ptr<gpu_key::impl>& p, const std::shared_ptr<const groth16::proving_key>& pkp,
              const point_source& src, groth16::query_density density, std::shared_ptr<const r1cs::pce> pce,
              const gpu_key_options& opt)
{
    gpu_key::impl& k = *p;
    k.device = opt.device >= 0 ? opt.device : cuda_current_device();
    const cuda_device_scope on(k.device);   // every allocation below lives there
    try {
        const auto t0 = std::chrono::steady_clock::now();
        init_sizes(k, pkp, src, opt);
        if (!k.snarkjs) init_bellperson(k, std::move(density), std::move(pce));
        else init_snarkjs(k, *pkp, density, pce);
        k.timings.layout_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        place_queries(k, src, opt);
        k.timings.points_s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() - k.timings.layout_s -
            k.timings.pce_s;
        build_h_copies(k, opt.h_copies_budget);   // after the first prove
    } catch (...) {
        p.reset();   // released on the key's device
        throw;
    }
}

} // namespace

void build_pending_h_copies(gpu_key::impl& k)
{
    if (k.h_copies_pending) build_h_copies(k, k.h_copies_pending);
}

gpu_key::gpu_key_t(std::shared_ptr<const groth16::proving_key> pkp, groth16::query_density density,
                   std::shared_ptr<const r1cs::pce> pce, const gpu_key_options& opt)
    : p_(std::make_unique<impl>())
{
    if (!pkp) throw error(errc::invalid_argument, "gpu_key: no proving key");
    point_source src;
    src.pk = pkp.get();
    make_key(p_, pkp, src, std::move(density), std::move(pce), opt);
}

gpu_key::gpu_key_t(std::shared_ptr<const io::mapped_params> params, groth16::query_density density,
                   std::shared_ptr<const r1cs::pce> pce, const gpu_key_options& opt)
    : p_(std::make_unique<impl>())
{
    if (!params) throw error(errc::invalid_argument, "gpu_key: no mapped parameters");
    const auto shell = std::make_shared<const groth16::proving_key>(params->key_shell());
    point_source src;
    src.mp = params.get();
    src.threads = opt.decode_threads;
    make_key(p_, shell, src, std::move(density), std::move(pce), opt);
}

gpu_key::~gpu_key_t()
{
    // The streams, events and buffers are released on the key's device.
    try {
        const cuda_device_scope on(p_->device);
        p_.reset();
    } catch (...) {   // the device was valid when the key was made; release what can be released
        p_.reset();
    }
}
const groth16::proving_key& gpu_key::pk() const noexcept { return *p_->pk; }
const groth16::query_density& gpu_key::density() const noexcept { return p_->density; }
bool gpu_key::has_pce() const noexcept { return p_->has_user_pce && p_->dpce.has_value(); }
bool gpu_key::resident() const noexcept { return p_->resident; }
uint64_t gpu_key::chunk_bytes() const noexcept { return p_->resident ? 0 : p_->chunk_bytes; }
uint64_t gpu_key::streamed_bytes() const noexcept { return p_->streamed_bytes.load(); }
bool gpu_key::overlaps() const noexcept { return p_->overlaps(); }
void gpu_key::set_overlap(bool on) noexcept { p_->overlap = on; }
int gpu_key::device() const noexcept { return p_->device; }
uint64_t gpu_key::device_bytes() const noexcept
{
    const impl& k = *p_;
    uint64_t s = k.idx_a.size() + k.idx_b.size() + (k.dpce ? k.dpce->device_bytes() : 0);
    s += k.h.dev.size() + k.l.dev.size() + k.a.dev.size() + k.b1.dev.size() + k.b2.dev.size();
    return s + k.h_table.copies().size();
}
gpu_msm_table_plan gpu_key::h_copies() const noexcept
{
    return p_->h_table.empty() ? gpu_msm_table_plan{} : p_->h_table.plan();
}
gpu_msm_table_plan gpu_key::set_h_copies(uint64_t budget)
{
    impl& k = *p_;
    const cuda_device_scope on(k.device);
    std::lock_guard<std::mutex> lk(k.mu);
    build_h_copies(k, budget);
    return h_copies();
}
uint64_t gpu_key::prove_scratch_bytes() const noexcept { return estimate_scratch(*p_); }
uint64_t gpu_key::batch_slot_bytes() const noexcept
{
    return (uint64_t(p_->ni) + p_->na + p_->n) * sizeof(fr);
}
gpu_key_shape gpu_key::shape() const noexcept { return shape_of(*p_); }
gpu_plan gpu_key::plan(uint64_t device_bytes) const
{
    const impl& k = *p_;
    if (device_bytes == 0) {
        const cuda_device_scope on(k.device);
        size_t free_b = 0, total_b = 0;
        pb::mem_info(&free_b, &total_b);
        device_bytes = std::min<uint64_t>(total_b, uint64_t(free_b) + this->device_bytes());
    }
    if (!k.resident) {   // batches need the PCE's bellperson prove
        gpu_plan p = k.lean ? plan_gpu_key_lean(shape_of(k), device_bytes, k.chunk_bytes, k.low_ntt)
                            : plan_gpu_key_streamed(shape_of(k), device_bytes, k.chunk_bytes, 0, int(k.kept));
        if (k.snarkjs || !k.has_user_pce || !k.dpce) p.batch = 1;
        p.pce_on_host = k.has_user_pce && !k.dpce;
        return p;
    }
    // Resident: as made, one partition at a time, the key's own MSM estimate as room.
    const uint64_t fixed = gpu_prove_fixed_bytes(shape_of(k)), est = estimate_scratch(k);
    gpu_plan p = plan_gpu_key(shape_of(k), device_bytes, 1, est > fixed ? est - fixed : 1);
    p.fits = p.resident = true;
    p.batch = 1;
    p.chunk = 0;
    p.one_prove = fixed;
    return p;
}
gpu_key_timings gpu_key::timings() const noexcept { return p_->timings; }
uint64_t gpu_key::host_bytes() const noexcept
{
    const impl& k = *p_;
    uint64_t s = 0;
    auto pinned = [&](const auto& q) {
        if (q.pin && q.pin->copied()) s += q.pin->bytes();
    };
    pinned(k.h);
    pinned(k.l);
    pinned(k.a);
    pinned(k.b1);
    pinned(k.b2);
    s += bytes_of<g1_affine>(k.h.owned.size() + k.l.owned.size() + k.a.owned.size() + k.b1.owned.size()) +
         bytes_of<g2_affine>(k.b2.owned.size());
    if (k.pce && !k.has_user_pce) s += k.pce->memory_bytes();
    if (k.dpce) s += k.dpce->host_bytes();   // a streamed PCE's page-locked block
    return s;
}

#else // !CUZK_WITH_CUDA

namespace {
[[noreturn]] void no_cuda(const char* fn)
{
    throw error(errc::unsupported, fmt::format("{}: cuzk was built without CUDA (CUZK_CUDA=OFF or no nvcc)", fn));
}
} // namespace

struct gpu_key::impl {
    std::shared_ptr<const groth16::proving_key> pk;
    groth16::query_density density;
};

gpu_key::gpu_key_t(std::shared_ptr<const groth16::proving_key>, groth16::query_density,
                   std::shared_ptr<const r1cs::pce>, const gpu_key_options&)
{
    no_cuda("gpu_key");
}
gpu_key::gpu_key_t(std::shared_ptr<const io::mapped_params>, groth16::query_density, std::shared_ptr<const r1cs::pce>,
                   const gpu_key_options&)
{
    no_cuda("gpu_key");
}
gpu_key::~gpu_key_t() = default;
const groth16::proving_key& gpu_key::pk() const noexcept { return *p_->pk; }
const groth16::query_density& gpu_key::density() const noexcept { return p_->density; }
bool gpu_key::has_pce() const noexcept { return false; }
bool gpu_key::resident() const noexcept { return false; }
uint64_t gpu_key::chunk_bytes() const noexcept { return 0; }
uint64_t gpu_key::streamed_bytes() const noexcept { return 0; }
bool gpu_key::overlaps() const noexcept { return false; }
void gpu_key::set_overlap(bool) noexcept {}
int gpu_key::device() const noexcept { return 0; }
uint64_t gpu_key::device_bytes() const noexcept { return 0; }
gpu_msm_table_plan gpu_key::h_copies() const noexcept { return {}; }
gpu_msm_table_plan gpu_key::set_h_copies(uint64_t) { return {}; }
uint64_t gpu_key::prove_scratch_bytes() const noexcept { return 0; }
uint64_t gpu_key::batch_slot_bytes() const noexcept { return 0; }
gpu_key_shape gpu_key::shape() const noexcept { return {}; }
gpu_plan gpu_key::plan(uint64_t) const { return {}; }
uint64_t gpu_key::host_bytes() const noexcept { return 0; }
gpu_key_timings gpu_key::timings() const noexcept { return {}; }

#endif

} // namespace cuzk
