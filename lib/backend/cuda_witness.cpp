// cuzk — the PCE evaluation and the witness MSM of the CUDA backend
// (include/cuzk/backend/cuda.hpp, sections "sparse constraint evaluation" and
// "witness MSM"): argument checks, the upload of the CSR matrices, and the
// host side of the witness MSM (buffer sizing, the final sum of the batch
// addition's partials, the Pippenger of the other scalars through
// gpu_msm_device), for BLS12-381 and BN254. The device work is behind
// lib/backend/bridge/witness_bridge.hpp (kernels/pce.cu,
// kernels/witness_msm.cu, kernels/witness_msm_bn254.cu). Built without
// CUDA, every entry point throws errc::unsupported.
#include "cuzk/backend/cuda.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <vector>

#include "backend/pce_tiles.hpp"
#include "cuzk/error.hpp"
#include "cuzk/r1cs/pce_order.hpp"
#include "cuzk/util/parallel.hpp"

#if CUZK_WITH_CUDA
#include "backend/bridge/prove_bridge.hpp"
#include "backend/bridge/witness_bridge.hpp"
#endif

namespace cuzk {

// The device copy of a PCE: per matrix the row offsets (32-bit when the
// matrix has fewer than 2^32 entries, else 64-bit), columns and codes; the
// coefficient table.
struct gpu_pce::impl {
    uint32_t num_inputs = 0, num_aux = 0;
    uint64_t rows = 0;
    gpu_buffer row_ptr[3], col[3], code[3], table;
    gpu_buffer order;   // empty: rows in the PCE's order; else r1cs::pce_shape_order
    bool row_ptr_32[3] = {false, false, false};
    uint64_t bytes = 0;
    // Streamed (gpu_pce_options::streamed): the arrays in one page-locked
    // host block (offsets, columns and codes of each matrix, then the
    // order), their byte offsets in it, and the tiles of an evaluation.
    std::shared_ptr<void> host;
    gpu_detail::pce_host_layout layout;
    std::vector<gpu_detail::pce_tile> tiles;
    uint64_t tile_buffer = 0;   // bytes of each of the two tile buffers
};

gpu_pce::~gpu_pce() = default;
gpu_pce::gpu_pce(gpu_pce&&) noexcept = default;
gpu_pce& gpu_pce::operator=(gpu_pce&&) noexcept = default;
uint32_t gpu_pce::num_inputs() const noexcept { return p_ ? p_->num_inputs : 0; }
uint32_t gpu_pce::num_aux() const noexcept { return p_ ? p_->num_aux : 0; }
uint64_t gpu_pce::num_constraints() const noexcept { return p_ ? p_->rows : 0; }
uint64_t gpu_pce::device_bytes() const noexcept { return p_ ? p_->bytes : 0; }
bool gpu_pce::streamed() const noexcept { return p_ && p_->host != nullptr; }
uint64_t gpu_pce::host_bytes() const noexcept { return p_ && p_->host ? p_->layout.bytes : 0; }
uint64_t gpu_pce::eval_device_bytes() const noexcept { return p_ ? 2 * p_->tile_buffer : 0; }

#if CUZK_WITH_CUDA

namespace {

constexpr size_t max_points = (size_t{1} << 31) - 1;   // indices are 32-bit on the device

const char* const matrix_name[3] = {"A", "B", "C"};

// Uploads the row offsets as 32-bit values, converted on the host in chunks
// (the host copy of a 130 M-row matrix is not doubled).
void upload_offsets_32(gpu_buffer& dst, std::span<const uint64_t> src)
{
    constexpr size_t chunk = size_t{1} << 22;
    std::vector<uint32_t> tmp(std::min(chunk, src.size()));
    for (size_t s = 0; s < src.size(); s += chunk) {
        const size_t len = std::min(chunk, src.size() - s);
        parallel_for(0, len, [&](size_t b, size_t e, unsigned) {
            for (size_t i = b; i < e; ++i) tmp[i] = uint32_t(src[s + i]);
        });
        dst.upload(tmp.data(), len * sizeof(uint32_t), s * sizeof(uint32_t));
    }
}

void upload_offsets(gpu_buffer& dst, std::span<const uint64_t> off, bool narrow)
{
    dst = gpu_buffer(off.size() * (narrow ? sizeof(uint32_t) : sizeof(uint64_t)));
    if (narrow) upload_offsets_32(dst, off);
    else dst.upload(off);
}

// The matrix's entries as they stand.
void upload_entries(gpu_pce::impl& d, int i, const r1cs::csr_matrix& x)
{
    d.col[i] = gpu_buffer(x.col.size_bytes());
    d.col[i].upload(x.col);
    d.code[i] = gpu_buffer(x.coef.size_bytes());
    d.code[i].upload(x.coef);
}

// The matrix's offsets and entries in the order `order`, the entries
// rewritten on the host in pieces of 2^22 rows.
void upload_reordered(gpu_pce::impl& d, int i, const r1cs::csr_matrix& x, std::span<const uint32_t> order)
{
    const std::vector<uint64_t> off = r1cs::reordered_offsets(x, order);
    upload_offsets(d.row_ptr[i], off, d.row_ptr_32[i]);
    d.col[i] = gpu_buffer(x.col.size_bytes());
    d.code[i] = gpu_buffer(x.coef.size_bytes());
    constexpr size_t piece = size_t{1} << 22;
    std::vector<uint32_t> col, code;
    for (size_t t0 = 0; t0 < order.size(); t0 += piece) {
        const size_t t1 = std::min(order.size(), t0 + piece), n = off[t1] - off[t0];
        col.resize(n);
        code.resize(n);
        r1cs::reordered_entries(x, order, off, t0, t1, col, code);
        d.col[i].upload(col.data(), n * sizeof(uint32_t), off[t0] * sizeof(uint32_t));
        d.code[i].upload(code.data(), n * sizeof(uint32_t), off[t0] * sizeof(uint32_t));
    }
}

// ---- the streamed form ----
gpu_detail::pce_offsets host_offsets(const gpu_pce::impl& d, int i)
{
    return {static_cast<const char*>(d.host.get()) + d.layout.off_at[i], d.layout.narrow[i]};
}

// Matrix i into the host block: its offsets (narrowed when narrow) and
// entries, in the order when there is one.
void fill_streamed_matrix(gpu_pce::impl& d, int i, const r1cs::csr_matrix& x, std::span<const uint32_t> order)
{
    char* h = static_cast<char*>(d.host.get());
    const gpu_detail::pce_host_layout& L = d.layout;
    const std::vector<uint64_t> re = order.empty() ? std::vector<uint64_t>() : r1cs::reordered_offsets(x, order);
    const std::span<const uint64_t> off = order.empty() ? x.row_ptr : std::span<const uint64_t>(re);
    auto* o32 = reinterpret_cast<uint32_t*>(h + L.off_at[i]);
    auto* o64 = reinterpret_cast<uint64_t*>(h + L.off_at[i]);
    parallel_for(0, off.size(), [&](size_t b, size_t e, unsigned) {
        for (size_t k = b; k < e; ++k) {
            if (L.narrow[i]) o32[k] = uint32_t(off[k]);
            else o64[k] = off[k];
        }
    });
    const std::span<uint32_t> col(reinterpret_cast<uint32_t*>(h + L.col_at[i]), x.col.size());
    const std::span<uint32_t> code(reinterpret_cast<uint32_t*>(h + L.code_at[i]), x.coef.size());
    if (order.empty()) {
        std::memcpy(col.data(), x.col.data(), x.col.size_bytes());
        std::memcpy(code.data(), x.coef.data(), x.coef.size_bytes());
    } else {
        r1cs::reordered_entries(x, order, off, 0, order.size(), col, code);
    }
}

// The host block (page-locked), filled, and the tiles of an evaluation.
void build_streamed(gpu_pce::impl& d, const r1cs::csr_matrix* const mats[3], std::span<const uint32_t> order,
                    uint64_t tile_bytes)
{
    const uint64_t nnz[3] = {mats[0]->nnz(), mats[1]->nnz(), mats[2]->nnz()};
    d.layout = gpu_detail::pce_host_layout_of(d.rows, nnz, d.row_ptr_32, !order.empty());
    d.host = std::shared_ptr<void>(prove_bridge::host_alloc_pinned(d.layout.bytes),
                                   [](void* p) { prove_bridge::host_free_pinned(p); });
    for (int i = 0; i < 3; ++i) fill_streamed_matrix(d, i, *mats[i], order);
    if (!order.empty())
        std::memcpy(static_cast<char*>(d.host.get()) + d.layout.order_at, order.data(), order.size_bytes());
    const gpu_detail::pce_offsets off[3] = {host_offsets(d, 0), host_offsets(d, 1), host_offsets(d, 2)};
    d.tiles = gpu_detail::split_pce_tiles(off, d.rows, d.layout.ordered, tile_bytes);
    for (const gpu_detail::pce_tile& t : d.tiles) d.tile_buffer = std::max(d.tile_buffer, t.at.bytes);
}

void check_pce_arrays(const r1cs::pce& m, const r1cs::csr_matrix* const mats[3])
{
    for (int i = 0; i < 3; ++i) {
        const r1cs::csr_matrix& x = *mats[i];
        if (x.row_ptr.size() != m.num_constraints + 1)
            throw error(errc::invalid_argument,
                        fmt::format("gpu_pce: matrix {} has {} row offsets for {} constraints (want {})",
                                    matrix_name[i], x.row_ptr.size(), m.num_constraints, m.num_constraints + 1));
        if (x.coef.size() != x.col.size() || x.row_ptr.back() != x.col.size() || x.row_ptr.front() != 0)
            throw error(errc::invalid_argument,
                        fmt::format("gpu_pce: matrix {} is inconsistent ({} columns, {} codes, offsets {} … {})",
                                    matrix_name[i], x.col.size(), x.coef.size(), x.row_ptr.front(),
                                    x.row_ptr.back()));
    }
}

void check_pce_eval_pointers(const gpu_pce& m, const void* w, const void* a, const void* b, const void* c)
{
    if (m.num_constraints() == 0) return;
    if (!a || !b || !c)
        throw error(errc::invalid_argument, "gpu_pce_eval_device: a, b and c must be device arrays (null given)");
    if (!w && uint64_t(m.num_inputs()) + m.num_aux() > 0)
        throw error(errc::invalid_argument, "gpu_pce_eval_device: w is null");
}

} // namespace

gpu_pce::gpu_pce(const r1cs::pce& m, const gpu_pce_options& opt) : p_(std::make_unique<impl>())
{
    impl& d = *p_;
    d.num_inputs = m.num_inputs;
    d.num_aux = m.num_aux;
    d.rows = m.num_constraints;
    const r1cs::csr_matrix* mats[3] = {&m.a, &m.b, &m.c};
    check_pce_arrays(m, mats);
    std::vector<uint32_t> order;
    // Row numbers of the order are 32-bit: a larger PCE keeps its own order.
    if (opt.group_tile_log > 0 && d.rows > 1 && d.rows <= 0xffffffffull) {
        order = r1cs::pce_shape_order(m, opt.group_tile_log);
        if (!opt.streamed) {
            d.order = gpu_buffer(order.size() * sizeof(uint32_t));
            d.order.upload(std::span<const uint32_t>(order));
            d.bytes += order.size() * sizeof(uint32_t);
        }
    }
    for (int i = 0; i < 3; ++i) d.row_ptr_32[i] = !opt.wide_offsets && mats[i]->nnz() < (uint64_t(1) << 32);
    if (opt.streamed) build_streamed(d, mats, order, opt.stream_tile_bytes);
    for (int i = 0; i < 3 && !opt.streamed; ++i) {
        const r1cs::csr_matrix& x = *mats[i];
        if (order.empty()) {
            upload_offsets(d.row_ptr[i], x.row_ptr, d.row_ptr_32[i]);
            upload_entries(d, i, x);
        } else {
            upload_reordered(d, i, x, order);
        }
        d.bytes += d.row_ptr[i].size() + x.col.size_bytes() + x.coef.size_bytes();
    }
    d.table = gpu_buffer(m.coeffs.size_bytes());
    d.table.upload(m.coeffs);
    d.bytes += m.coeffs.size_bytes();
}
namespace {
struct pce_device_args {
    witness_bridge::csr_device mats[3];
    const uint32_t* order;   // null: rows in the PCE's order
    const fr* table;
    uint64_t rows, nw;
};
pce_device_args pce_args(const gpu_pce& m)
{
    const gpu_pce::impl& d = m.get();
    pce_device_args x{{}, d.order.as<uint32_t>(), d.table.as<fr>(), d.rows, uint64_t(d.num_inputs) + d.num_aux};
    for (int i = 0; i < 3; ++i)
        x.mats[i] = {d.row_ptr[i].data(), d.row_ptr_32[i], d.col[i].as<uint32_t>(), d.code[i].as<uint32_t>()};
    return x;
}

// A streamed evaluation's copy stream and events, drained (the device done
// with the tile buffers) before the buffers declared ahead of it are freed.
struct tile_stream {
    bridge::stream s = prove_bridge::stream_create();
    bridge::event copied[2] = {prove_bridge::event_create(), prove_bridge::event_create()};
    bridge::event used[2] = {prove_bridge::event_create(), prove_bridge::event_create()};
    tile_stream() = default;
    tile_stream(const tile_stream&) = delete;
    tile_stream& operator=(const tile_stream&) = delete;
    ~tile_stream()
    {
        prove_bridge::drain(s);
        for (bridge::event e : {copied[0], copied[1], used[0], used[1]}) prove_bridge::event_destroy(e);
        prove_bridge::stream_destroy(s);
    }
};

// Tile t's arrays (of the matrices in mats) from the host block into dst,
// on stream s; returns the bytes.
uint64_t copy_tile(const gpu_pce::impl& d, const gpu_detail::pce_tile& t, unsigned mats, char* dst, bridge::stream s)
{
    const char* h = static_cast<const char*>(d.host.get());
    uint64_t bytes = 0;
    for (const gpu_detail::pce_copy& c : gpu_detail::pce_tile_copies(d.layout, t, mats)) {
        prove_bridge::copy_h2d_on(s, dst + c.dst, h + c.src, c.bytes);
        bytes += c.bytes;
    }
    return bytes;
}

// Tile t's kernel on the backend stream, its arrays in src. Without an
// order, position t0 + j is row t0 + j: the outputs start at t0.
void eval_tile(const gpu_pce::impl& d, const gpu_detail::pce_tile& t, char* src, const fr* w, fr* a, fr* b, fr* c,
               bool check)
{
    witness_bridge::csr_device mats[3];
    for (int i = 0; i < 3; ++i)
        mats[i] = {src + t.at.off_at[i], d.row_ptr_32[i], reinterpret_cast<const uint32_t*>(src + t.at.col_at[i]),
                   reinterpret_cast<const uint32_t*>(src + t.at.code_at[i]), t.e0[i]};
    const uint64_t shift = d.layout.ordered ? 0 : t.t0;
    const auto at = [&](fr* x) { return x ? x + shift : nullptr; };
    const auto* order = d.layout.ordered ? reinterpret_cast<const uint32_t*>(src + t.at.order_at) : nullptr;
    witness_bridge::pce_eval_classified(mats, order, d.table.as<fr>(), t.t1 - t.t0, w,
                                        uint64_t(d.num_inputs) + d.num_aux, at(a), at(b), at(c), check);
}

// The streamed form: the classes of w once, then tile by tile, the copy of
// each tile (on its own stream) beside the previous tile's kernel; a buffer
// is written again once the kernel two tiles back has read it. a and b null:
// C only (its arrays alone are copied). check: the first row with a·b != c
// (−1 when none) is returned, else −1. Returns with the work queued (waited
// for with the check) and the tile buffers' last reader complete.
int64_t eval_streamed(const gpu_pce::impl& d, const fr* w, fr* a, fr* b, fr* c, bool check,
                      const gpu_detail::pce_copy_report* report)
{
    const unsigned mats = a ? 7u : 4u;
    gpu_buffer buf[2] = {gpu_buffer(d.tile_buffer), gpu_buffer(d.tiles.size() > 1 ? d.tile_buffer : 0)};
    tile_stream ts;
    witness_bridge::pce_classify(w, uint64_t(d.num_inputs) + d.num_aux);
    if (check) witness_bridge::pce_check_begin();
    for (size_t j = 0; j < d.tiles.size(); ++j) {
        const unsigned k = unsigned(j & 1);
        if (j >= 2) prove_bridge::event_synchronize(ts.used[k]);
        char* dst = static_cast<char*>(buf[k].data());
        const bridge::event rb = report ? report->event() : nullptr;
        if (rb) prove_bridge::event_record(rb, ts.s);
        const uint64_t bytes = copy_tile(d, d.tiles[j], mats, dst, ts.s);
        if (rb) {
            const bridge::event re = report->event();
            prove_bridge::event_record(re, ts.s);
            report->add(bytes, rb, re);
        }
        prove_bridge::event_record(ts.copied[k], ts.s);
        prove_bridge::stream_wait(ts.copied[k]);
        eval_tile(d, d.tiles[j], dst, w, a, b, c, check);
        prove_bridge::event_record(ts.used[k], nullptr);
    }
    for (unsigned k = 0; k < 2 && k < d.tiles.size(); ++k) prove_bridge::event_synchronize(ts.used[k]);
    return check ? witness_bridge::pce_check_end() : -1;
}
} // namespace

int64_t gpu_detail::pce_eval_parts(const gpu_pce& m, const fr* w, fr* a, fr* b, fr* c, bool check,
                                   const pce_copy_report* report)
{
    if (m.num_constraints() == 0) return -1;
    if (m.streamed()) return eval_streamed(m.get(), w, a, b, c, check, report);
    const pce_device_args x = pce_args(m);
    if (check) return witness_bridge::pce_eval_check(x.mats, x.order, x.table, x.rows, w, x.nw, a, b, c);
    witness_bridge::pce_eval(x.mats, x.order, x.table, x.rows, w, x.nw, a, b, c);
    return -1;
}

void gpu_pce_eval_device(const gpu_pce& m, const fr* w, fr* a, fr* b, fr* c)
{
    check_pce_eval_pointers(m, w, a, b, c);
    gpu_detail::pce_eval_parts(m, w, a, b, c, false);
}

int64_t gpu_pce_eval_check_device(const gpu_pce& m, const fr* w, fr* a, fr* b, fr* c)
{
    check_pce_eval_pointers(m, w, a, b, c);
    return gpu_detail::pce_eval_parts(m, w, a, b, c, true);
}

int64_t gpu_pce_eval_ab_check_device(const gpu_pce& m, const fr* w, fr* a, fr* b)
{
    check_pce_eval_pointers(m, w, a, b, b);
    return gpu_detail::pce_eval_parts(m, w, a, b, nullptr, true);
}

void gpu_pce_eval_c_device(const gpu_pce& m, const fr* w, fr* c)
{
    check_pce_eval_pointers(m, w, c, c, c);
    gpu_detail::pce_eval_parts(m, w, nullptr, nullptr, c, false);
}

void gpu_pce_eval(const gpu_pce& m, std::span<const fr> inputs, std::span<const fr> aux, std::span<fr> a,
                  std::span<fr> b, std::span<fr> c)
{
    if (inputs.size() != m.num_inputs() || aux.size() != m.num_aux())
        throw error(errc::invalid_argument,
                    fmt::format("gpu_pce_eval: the witness has {} inputs and {} aux values, the PCE expects {} and {}",
                                inputs.size(), aux.size(), m.num_inputs(), m.num_aux()));
    const uint64_t rows = m.num_constraints();
    if (a.size() != rows || b.size() != rows || c.size() != rows)
        throw error(errc::invalid_argument,
                    fmt::format("gpu_pce_eval: a, b, c hold {}/{}/{} values, the PCE has {} constraints", a.size(),
                                b.size(), c.size(), rows));
    gpu_buffer w((inputs.size() + aux.size()) * sizeof(fr));
    w.upload(inputs);
    w.upload(aux, inputs.size_bytes());
    gpu_buffer out(3 * rows * sizeof(fr));
    fr* d = out.as<fr>();
    gpu_pce_eval_device(m, w.as<fr>(), d, d + rows, d + 2 * rows);
    out.download(a, 0);
    out.download(b, rows * sizeof(fr));
    out.download(c, 2 * rows * sizeof(fr));
}

int64_t gpu_first_unsatisfied_device(const fr* a, const fr* b, const fr* c, size_t n)
{
    if (n == 0) return -1;
    if (!a || !b || !c)
        throw error(errc::invalid_argument, "gpu_first_unsatisfied_device: a, b and c must be device arrays");
    return witness_bridge::first_unsatisfied(a, b, c, n);
}

// ---- witness MSM ---------------------------------------------------------------------------------
namespace {

// The steps (stats in parentheses):
//   split       classify and compact on the device (zeros, ones, others; split_ms)
//   BATCH_ADD   the ones' points summed on the device, the ≤ 64 partial sums
//               here (batch_add_ms, batch_add_begin/end; their copy back
//               is d2h_begin/end)
//   Pippenger   gpu_msm_device on the compacted others (msm_ms)
// Device scratch: 16 B per 4096 scalars, 4 B per one, sizeof(point) + 32 B
// per other, freed on return. F is the curve's scalar field (fr or
// bn254::fr, Montgomery form); the others' canonical scalars are 256-bit
// words on both curves.
template <class Aff, class Jac, class Xz, class F>
Jac msm_witness_impl(const Aff* points, const F* scalars, size_t n, gpu_msm_witness_stats* stats)
{
    if (stats) *stats = gpu_msm_witness_stats{};
    if (n == 0) return Jac::identity();
    if (n > max_points)
        throw error(errc::invalid_argument, fmt::format("gpu_msm_witness: {} points exceed the limit 2^31 − 1", n));
    if (!points || !scalars)
        throw error(errc::invalid_argument, "gpu_msm_witness_device: points and scalars must be device arrays");

    gpu_timer split_timer;
    split_timer.start();
    gpu_buffer tiles(witness_bridge::split_scratch_words(n) * sizeof(uint32_t));
    const witness_bridge::split_counts cnt = witness_bridge::split_count(scalars, n, tiles.as<uint32_t>());
    gpu_buffer one_idx(cnt.ones * sizeof(uint32_t));
    gpu_buffer other_pts(cnt.others * sizeof(Aff)), other_sc(cnt.others * sizeof(fr::repr));
    witness_bridge::split_scatter(points, scalars, n, tiles.as<uint32_t>(), one_idx.as<uint32_t>(),
                                  other_pts.as<Aff>(), other_sc.as<fr::repr>());
    const double split_ms = split_timer.stop_ms();

    Xz partials[witness_bridge::batch_add_max_partials];
    witness_bridge::batch_add_timing bt;
    const size_t np = witness_bridge::batch_add(points, one_idx.as<uint32_t>(), cnt.ones, partials, &bt);
    const auto partials_back = std::chrono::steady_clock::now();   // batch_add's copy has synchronised
    Jac acc = Jac::identity();
    for (size_t i = 0; i < np; ++i) acc = acc.add(partials[i].to_jacobian());

    double msm_ms = 0;
    if (cnt.others > 0) {
        gpu_timer t;
        t.start();
        gpu_msm_options mo;
        gpu_copy_span d2h;
        if (stats) mo.window_copy = &d2h;
        acc = acc.add(gpu_msm_device(other_pts.as<Aff>(), other_sc.as<fr::repr>(), cnt.others, mo));
        if (stats) stats->others_d2h = d2h;
        msm_ms = t.stop_ms();
    }
    if (stats) {
        stats->zeros = cnt.zeros;
        stats->ones = cnt.ones;
        stats->others = cnt.others;
        stats->split_ms = split_ms;
        stats->batch_add_ms = bt.ms;
        stats->msm_ms = msm_ms;
        stats->batch_add_begin = bt.begin;
        stats->batch_add_end = bt.end;
        if (np > 0 && partials_back >= bt.end) {
            stats->d2h_begin = bt.end;
            stats->d2h_end = partials_back;
        }
    }
    return acc;
}

template <class Aff, class Jac, class Xz, class F>
Jac msm_witness_host(std::span<const Aff> points, std::span<const F> scalars, gpu_msm_witness_stats* stats)
{
    if (points.size() != scalars.size())
        throw error(errc::invalid_argument,
                    fmt::format("gpu_msm_witness: {} points but {} scalars", points.size(), scalars.size()));
    const size_t n = points.size();
    if (n > max_points)
        throw error(errc::invalid_argument, fmt::format("gpu_msm_witness: {} points exceed the limit 2^31 − 1", n));
    if (n == 0) {
        if (stats) *stats = gpu_msm_witness_stats{};
        return Jac::identity();
    }
    gpu_buffer p(points.size_bytes()), k(scalars.size_bytes());
    p.upload(points);
    k.upload(scalars);
    return msm_witness_impl<Aff, Jac, Xz, F>(p.as<Aff>(), k.as<F>(), n, stats);
}

} // namespace

g1_jacobian gpu_msm_witness_device(const g1_affine* points, const fr* scalars, size_t n, gpu_msm_witness_stats* stats)
{
    return msm_witness_impl<g1_affine, g1_jacobian, g1_xyzz>(points, scalars, n, stats);
}
g2_jacobian gpu_msm_witness_device(const g2_affine* points, const fr* scalars, size_t n, gpu_msm_witness_stats* stats)
{
    return msm_witness_impl<g2_affine, g2_jacobian, g2_xyzz>(points, scalars, n, stats);
}
g1_jacobian gpu_msm_witness(std::span<const g1_affine> points, std::span<const fr> scalars,
                            gpu_msm_witness_stats* stats)
{
    return msm_witness_host<g1_affine, g1_jacobian, g1_xyzz>(points, scalars, stats);
}
g2_jacobian gpu_msm_witness(std::span<const g2_affine> points, std::span<const fr> scalars,
                            gpu_msm_witness_stats* stats)
{
    return msm_witness_host<g2_affine, g2_jacobian, g2_xyzz>(points, scalars, stats);
}
bn254::g1_jacobian gpu_msm_witness_device(const bn254::g1_affine* points, const bn254::fr* scalars, size_t n,
                                          gpu_msm_witness_stats* stats)
{
    return msm_witness_impl<bn254::g1_affine, bn254::g1_jacobian, bn254::g1_xyzz>(points, scalars, n, stats);
}
bn254::g2_jacobian gpu_msm_witness_device(const bn254::g2_affine* points, const bn254::fr* scalars, size_t n,
                                          gpu_msm_witness_stats* stats)
{
    return msm_witness_impl<bn254::g2_affine, bn254::g2_jacobian, bn254::g2_xyzz>(points, scalars, n, stats);
}
bn254::g1_jacobian gpu_msm_witness(std::span<const bn254::g1_affine> points, std::span<const bn254::fr> scalars,
                                   gpu_msm_witness_stats* stats)
{
    return msm_witness_host<bn254::g1_affine, bn254::g1_jacobian, bn254::g1_xyzz>(points, scalars, stats);
}
bn254::g2_jacobian gpu_msm_witness(std::span<const bn254::g2_affine> points, std::span<const bn254::fr> scalars,
                                   gpu_msm_witness_stats* stats)
{
    return msm_witness_host<bn254::g2_affine, bn254::g2_jacobian, bn254::g2_xyzz>(points, scalars, stats);
}

#else // !CUZK_WITH_CUDA

namespace {
[[noreturn]] void no_cuda(const char* fn)
{
    throw error(errc::unsupported, fmt::format("{}: cuzk was built without CUDA (CUZK_CUDA=OFF or no nvcc)", fn));
}
} // namespace

gpu_pce::gpu_pce(const r1cs::pce&, const gpu_pce_options&) { no_cuda("gpu_pce"); }
void gpu_pce_eval_device(const gpu_pce&, const fr*, fr*, fr*, fr*) { no_cuda("gpu_pce_eval_device"); }
int64_t gpu_pce_eval_check_device(const gpu_pce&, const fr*, fr*, fr*, fr*)
{
    no_cuda("gpu_pce_eval_check_device");
}
int64_t gpu_pce_eval_ab_check_device(const gpu_pce&, const fr*, fr*, fr*)
{
    no_cuda("gpu_pce_eval_ab_check_device");
}
int64_t gpu_detail::pce_eval_parts(const gpu_pce&, const fr*, fr*, fr*, fr*, bool, const pce_copy_report*)
{
    no_cuda("gpu_pce_eval_device");
}
void gpu_pce_eval_c_device(const gpu_pce&, const fr*, fr*) { no_cuda("gpu_pce_eval_c_device"); }
void gpu_pce_eval(const gpu_pce&, std::span<const fr>, std::span<const fr>, std::span<fr>, std::span<fr>,
                  std::span<fr>)
{
    no_cuda("gpu_pce_eval");
}
int64_t gpu_first_unsatisfied_device(const fr*, const fr*, const fr*, size_t)
{
    no_cuda("gpu_first_unsatisfied_device");
}
g1_jacobian gpu_msm_witness_device(const g1_affine*, const fr*, size_t, gpu_msm_witness_stats*)
{
    no_cuda("gpu_msm_witness_device");
}
g2_jacobian gpu_msm_witness_device(const g2_affine*, const fr*, size_t, gpu_msm_witness_stats*)
{
    no_cuda("gpu_msm_witness_device");
}
g1_jacobian gpu_msm_witness(std::span<const g1_affine>, std::span<const fr>, gpu_msm_witness_stats*)
{
    no_cuda("gpu_msm_witness");
}
g2_jacobian gpu_msm_witness(std::span<const g2_affine>, std::span<const fr>, gpu_msm_witness_stats*)
{
    no_cuda("gpu_msm_witness");
}
bn254::g1_jacobian gpu_msm_witness_device(const bn254::g1_affine*, const bn254::fr*, size_t, gpu_msm_witness_stats*)
{
    no_cuda("gpu_msm_witness_device");
}
bn254::g2_jacobian gpu_msm_witness_device(const bn254::g2_affine*, const bn254::fr*, size_t, gpu_msm_witness_stats*)
{
    no_cuda("gpu_msm_witness_device");
}
bn254::g1_jacobian gpu_msm_witness(std::span<const bn254::g1_affine>, std::span<const bn254::fr>,
                                   gpu_msm_witness_stats*)
{
    no_cuda("gpu_msm_witness");
}
bn254::g2_jacobian gpu_msm_witness(std::span<const bn254::g2_affine>, std::span<const bn254::fr>,
                                   gpu_msm_witness_stats*)
{
    no_cuda("gpu_msm_witness");
}

#endif

} // namespace cuzk
