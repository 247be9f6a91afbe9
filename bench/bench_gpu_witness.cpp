// CUDA backend benchmarks of the witness-side kernels: the PCE evaluation on
// a PoRep-shaped random PCE (2^20 and 2^22 rows; 2.4 / 1.0 / 2.2 entries per
// row in A / B / C, 95 % of the codes ±1, columns mostly near the row), the
// 0/1 batch addition alone (2^20, 2^22, 2^24 points, all scalars one), and the
// witness MSM at 2^22 with 90 % 0/1 scalars against the plain MSM
// (gpu_msm_device) on the same points and the same scalars in canonical form.
// Device time from CUDA events (UseManualTime), data already on the device,
// one warm-up call first.
//
// Counters: median_ms, min_ms over the iterations; for the PCE GB_moved (the
// bytes the kernel must move: entries, offsets, one 32-byte witness read per
// entry, outputs) and GB_per_s; for the witness MSM split_ms, batch_add_ms,
// msm_ms of the last iteration and ones/others. Without a device every
// benchmark reports SkipWithError("no CUDA device: …").
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cuzk/backend/cuda.hpp"
#include "cuzk/util/parallel.hpp"

#include "bench_support.hpp"

using namespace cuzk;
using cuzk::bench::gpu_ok;
using cuzk::bench::bench_points;

namespace {

void report_times(benchmark::State& st, std::vector<double>& ms)
{
    if (ms.empty()) return;
    std::sort(ms.begin(), ms.end());
    st.counters["median_ms"] = ms[ms.size() / 2];
    st.counters["min_ms"] = ms.front();
}

// ---- PCE -------------------------------------------------------------------------------------------
struct pce_arrays {
    std::vector<uint64_t> row_ptr[3];
    std::vector<uint32_t> col[3], code[3];
    std::vector<fr> table;
    std::vector<uint64_t> dens[3];
};

// Rows of a PoRep-shaped PCE, generated in parallel blocks (each block its
// own generator), then concatenated. Row lengths: Poisson-like with the
// given mean (a geometric mix of 1…6), columns r + [0, 64) mostly, 1 in 8 anywhere.
r1cs::pce porep_pce(size_t rows, uint32_t ni, uint32_t na)
{
    auto h = std::make_shared<pce_arrays>();
    std::mt19937_64 trng(0x7063650aull);
    for (int i = 0; i < 64; ++i) h->table.push_back(fr::random(trng));
    const uint32_t nv = ni + na;
    const double mean[3] = {2.4, 1.0, 2.2};
    constexpr size_t blk = size_t{1} << 16;
    const size_t nblk = (rows + blk - 1) / blk;
    for (int mi = 0; mi < 3; ++mi) {
        std::vector<std::vector<uint32_t>> bc(nblk), bk(nblk), bl(nblk);
        parallel_for(0, nblk, [&](size_t s, size_t e, unsigned) {
            for (size_t b = s; b < e; ++b) {
                std::mt19937_64 rng(0x9e37ull * (b + 1) + uint64_t(mi));
                std::poisson_distribution<unsigned> len(mean[mi]);
                const size_t r0 = b * blk, r1 = std::min(rows, r0 + blk);
                for (size_t r = r0; r < r1; ++r) {
                    const unsigned l = std::min(len(rng), 16u);
                    uint32_t cols[16];
                    unsigned k = 0;
                    while (k < l) {
                        const uint32_t c = (rng() % 8 == 0) ? uint32_t(rng() % nv) : uint32_t((r + rng() % 64) % nv);
                        if (std::find(cols, cols + k, c) == cols + k) cols[k++] = c;
                    }
                    std::sort(cols, cols + k);
                    for (unsigned j = 0; j < k; ++j) {
                        bc[b].push_back(cols[j]);
                        const uint64_t z = rng() % 100;
                        bk[b].push_back(z < 95 ? uint32_t(z & 1) : uint32_t(2 + rng() % 64));
                    }
                    bl[b].push_back(k);
                }
            }
        });
        auto& rp = h->row_ptr[mi];
        rp.reserve(rows + 1);
        rp.push_back(0);
        for (size_t b = 0; b < nblk; ++b) {
            for (uint32_t l : bl[b]) rp.push_back(rp.back() + l);
            h->col[mi].insert(h->col[mi].end(), bc[b].begin(), bc[b].end());
            h->code[mi].insert(h->code[mi].end(), bk[b].begin(), bk[b].end());
        }
    }
    r1cs::pce p;
    p.num_inputs = ni;
    p.num_aux = na;
    p.num_constraints = rows;
    r1cs::csr_matrix* m[3] = {&p.a, &p.b, &p.c};
    for (int i = 0; i < 3; ++i) *m[i] = {h->row_ptr[i], h->col[i], h->code[i]};
    p.coeffs = h->table;
    h->dens[0].assign((na + 63) / 64, 0);
    h->dens[1].assign((ni + 63) / 64, 0);
    h->dens[2].assign((na + 63) / 64, 0);
    p.a_aux_density = {h->dens[0], na, 0};
    p.b_input_density = {h->dens[1], ni, 0};
    p.b_aux_density = {h->dens[2], na, 0};
    p.storage = h;
    return p;
}

// Witness: 90 % bits, the rest random (as raw limbs below r).
std::vector<fr> bench_witness(size_t n, uint64_t seed, unsigned pct_bits = 90)
{
    std::vector<fr> w(n);
    parallel_for(0, n, [&](size_t b, size_t e, unsigned) {
        std::mt19937_64 rng(seed ^ (b * 0x9e3779b97f4a7c15ull));
        for (size_t i = b; i < e; ++i) {
            const uint64_t z = rng() % 100;
            if (z < pct_bits) w[i] = (z & 1) ? fr::one() : fr::zero();
            else w[i] = fr::random(rng);
        }
    });
    return w;
}

// Args: log2 rows; the log2 of the tiles in which rows are grouped by shape
// (gpu_pce_options::group_tile_log: 0 = the PCE's order, 32 = one tile).
void bm_pce_eval(benchmark::State& st)
{
    if (!gpu_ok(st)) return;
    const size_t rows = size_t{1} << st.range(0);
    const uint32_t ni = 16, na = uint32_t(rows);
    const r1cs::pce p = porep_pce(rows, ni, na);
    gpu_pce_options opt;
    opt.group_tile_log = unsigned(st.range(1));
    const auto u0 = std::chrono::steady_clock::now();
    gpu_pce d(p, opt);
    st.counters["upload_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - u0).count();
    const std::vector<fr> w = bench_witness(size_t(ni) + na, 0x77ull);
    gpu_buffer dw(w.size() * sizeof(fr)), out(3 * rows * sizeof(fr));
    dw.upload(std::span<const fr>(w));
    fr* o = out.as<fr>();
    gpu_pce_eval_device(d, dw.as<fr>(), o, o + rows, o + 2 * rows);   // warm-up
    gpu_timer t;
    std::vector<double> ms;
    for (auto _ : st) {
        t.start();
        gpu_pce_eval_device(d, dw.as<fr>(), o, o + rows, o + 2 * rows);
        const double m = t.stop_ms();
        st.SetIterationTime(m / 1e3);
        ms.push_back(m);
    }
    report_times(st, ms);
    const double nnz = double(p.nnz());
    const double bytes = nnz * (8 + 32) + 3.0 * double(rows) * (32 + 4);
    st.counters["nnz_per_row"] = nnz / double(rows);
    st.counters["GB_moved"] = bytes / 1e9;
    if (!ms.empty()) st.counters["GB_per_s"] = bytes / 1e9 / (ms[ms.size() / 2] / 1e3);
    st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(rows));
}


// Device points kept between benchmarks (regenerated only for a larger n).
gpu_buffer& points_for(size_t n)
{
    static gpu_buffer buf;
    static size_t have = 0;
    if (have < n) {
        buf = gpu_buffer();
        const auto p = bench_points<g1_affine>(n);
        buf = gpu_buffer(n * sizeof(g1_affine));
        buf.upload(std::span<const g1_affine>(p));
        have = n;
    }
    return buf;
}

// ---- 0/1 batch addition alone -------------------------------------------------------------------------
// Args: log2 n. All scalars one: the split, then BATCH_ADD over all n points;
// the timed figure is BATCH_ADD's device time (stats.batch_add_ms).
void bm_batch_add(benchmark::State& st)
{
    if (!gpu_ok(st)) return;
    const size_t n = size_t{1} << st.range(0);
    gpu_buffer& pts = points_for(n);
    const std::vector<fr> ones(n, fr::one());
    gpu_buffer k(n * sizeof(fr));
    k.upload(std::span<const fr>(ones));
    gpu_msm_witness_stats s;
    auto r = gpu_msm_witness_device(pts.as<g1_affine>(), k.as<fr>(), n, &s);   // warm-up
    benchmark::DoNotOptimize(r);
    std::vector<double> ms;
    double split = 0;
    for (auto _ : st) {
        r = gpu_msm_witness_device(pts.as<g1_affine>(), k.as<fr>(), n, &s);
        benchmark::DoNotOptimize(r);
        st.SetIterationTime(s.batch_add_ms / 1e3);
        ms.push_back(s.batch_add_ms);
        split = s.split_ms;
    }
    report_times(st, ms);
    st.counters["split_ms"] = split;
    st.counters["ones"] = double(s.ones);
    st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(n));
}

// ---- witness MSM vs plain MSM --------------------------------------------------------------------------
// Args: log2 n, mode (0 witness MSM with the 0/1 path, 1 plain gpu_msm_device
// on the canonical forms of the same scalars). Scalars: 45 % zero, 45 % one,
// 10 % random.
void bm_witness_msm(benchmark::State& st)
{
    if (!gpu_ok(st)) return;
    const size_t n = size_t{1} << st.range(0);
    const bool plain = st.range(1) != 0;
    gpu_buffer& pts = points_for(n);
    const std::vector<fr> w = bench_witness(n, 0x5ca1ull);
    gpu_buffer k(n * sizeof(fr));
    if (plain) {
        std::vector<fr::repr> c(n);
        parallel_for(0, n, [&](size_t b, size_t e, unsigned) {
            for (size_t i = b; i < e; ++i) c[i] = w[i].to_repr();
        });
        k.upload(std::span<const fr::repr>(c));
    } else {
        k.upload(std::span<const fr>(w));
    }
    gpu_msm_witness_stats s;
    auto run = [&] {
        return plain ? gpu_msm_device(pts.as<g1_affine>(), k.as<fr::repr>(), n)
                     : gpu_msm_witness_device(pts.as<g1_affine>(), k.as<fr>(), n, &s);
    };
    auto r = run();   // warm-up
    benchmark::DoNotOptimize(r);
    gpu_timer t;
    std::vector<double> ms;
    for (auto _ : st) {
        t.start();
        r = run();
        const double m = t.stop_ms();
        benchmark::DoNotOptimize(r);
        st.SetIterationTime(m / 1e3);
        ms.push_back(m);
    }
    report_times(st, ms);
    if (!plain) {
        st.counters["split_ms"] = s.split_ms;
        st.counters["batch_add_ms"] = s.batch_add_ms;
        st.counters["msm_ms"] = s.msm_ms;
        st.counters["ones"] = double(s.ones);
        st.counters["others"] = double(s.others);
    }
    st.SetItemsProcessed(int64_t(st.iterations()) * int64_t(n));
}

} // namespace

BENCHMARK(bm_pce_eval)->ArgNames({"log", "tile"})->ArgsProduct({{20, 22, 24, 26}, {0, 8, 10, 12, 14, 32}})->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(10);
BENCHMARK(bm_batch_add)->Arg(20)->Arg(22)->Arg(24)->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(10);
BENCHMARK(bm_witness_msm)
    ->Args({22, 0})
    ->Args({22, 1})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(5);
