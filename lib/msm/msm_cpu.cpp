// cuzk — CPU multi-scalar multiplication: Pippenger with signed window
// digits, XYZZ or batch-affine buckets, running-sum or digit-split
// reduction, and the 0/1-scalar sum. One template over the curve, instantiated for G1 and G2.
#include "cuzk/msm/msm.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <new>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/util/parallel.hpp"
#include "lane_sums.hpp"
#include "vector_batch.hpp"

namespace cuzk {

namespace {

constexpr unsigned max_window_bits = 24;        // forced windows: 2^23 buckets per worker at most
constexpr unsigned max_auto_window_bits = 20;   // the cost model never picks more
constexpr size_t vector_block = size_t{1} << 22;   // points per MSM on the IFMA kernels (see msm_impl)

// ---- cost model ------------------------------------------------------------------
// Units: one field multiplication M of the coordinate field (S counted as M).
//   XYZZ mixed addition madd-2008-s:            8M + 2S          → 10
//   batch-affine addition, per point:            λ = (y2 − y1)/(x2 − x1),
//     x3 = λ² − x1 − x2, y3 = λ(x1 − x3) − y1:  2M + 1S
//     Montgomery's trick, per element:          3M (prefix product, two on the way back)
//     bookkeeping (conflict checks, copies):    ~0.5
//                                               → 6.5 + I/K for batches of K sharing one inversion
//   XYZZ full addition add-2008-s:              12M + 2S         → 14
// I (one inversion, in M): Fermat's little theorem costs ~570 multiplications
// and squarings in Fp; measured ~1000 M with loop overhead. An Fp2 inversion
// is one Fp inversion plus a handful of Fp operations, ~150–200 Fp2 M.
constexpr double cost_xyzz_madd = 10;
constexpr double cost_batch_add = 6.5;
constexpr double cost_xyzz_add = 14;
constexpr double cost_dbl = 7;   // Jacobian doubling dbl-2009-l, 2M + 5S
constexpr double g1_inversion_cost = 1000;
constexpr double g2_inversion_cost = 200;

// Batch size of the batch-affine buckets for window c: a quarter of the
// buckets, at most 2048. A point then meets a bucket already waiting in the
// batch with probability ~1/8 on average and waits for the next batch.
// Measured at 2^16 points, c = 13 (one thread): K = B/4 and B/8 are equally
// fast; B/2 is ~20 % slower (more deferred points, a larger working set),
// and B (one batch spans all buckets) ~50 % slower.
size_t batch_size_for(unsigned c)
{
    const size_t buckets = size_t{1} << (c - 1);
    return std::clamp<size_t>(buckets / 4, 1, 2048);
}

// ---- bucket reduction by digit split --------------------------------------------
// Σ_v v·B_v over the bucket values v = 1 … B (bucket b holds v = b + 1).
// With v = hi·2^k + lo (lo < 2^k, hi ≤ B/2^k):
//   Σ v·B_v = Σ_lo lo·G_lo + 2^k·Σ_hi hi·H_hi,
//   G_lo = Σ_{v: lo(v) = lo} B_v,   H_hi = Σ_{v: hi(v) = hi} B_v.
// Every filled affine bucket is added to one G and one H lane by batch-affine
// additions (lane_sums): 2·(6.5 + I/round) per bucket instead of the running
// sum's 10 + 14 per bucket. Lanes are split further into copies (G by hi mod
// cg, H by lo mod ch) so that about `split_rounds` rounds of distinct lanes
// cover all additions and each inversion is shared by many of them; the
// copies are summed and the lane sums weighted by two short running sums.
constexpr size_t split_rounds = 64;

struct split_shape {
    unsigned k = 0;
    size_t nlo = 0, nhi = 0;   // lo < nlo = 2^k, hi < nhi = B/2^k + 1
    size_t cg = 1, ch = 1;     // copies of each G lane and of each H lane
    size_t rounds = 0;         // max(ceil(nhi/cg), ceil(nlo/ch))

    explicit split_shape(size_t buckets)
    {
        unsigned logb = 0;
        while ((size_t{2} << logb) <= buckets) ++logb;
        k = (logb + 1) / 2;
        nlo = size_t{1} << k;
        nhi = (buckets >> k) + 1;
        cg = std::max<size_t>(1, nhi / split_rounds);
        ch = std::max<size_t>(1, nlo / split_rounds);
        rounds = std::max((nhi + cg - 1) / cg, (nlo + ch - 1) / ch);
    }
    size_t g_lanes() const { return nlo * cg; }
    size_t lanes() const { return nlo * cg + nhi * ch; }
};

// Reduction costs of B buckets of which `filled` hold a point (see above and
// evaluate_plan).
double running_reduction_cost(size_t buckets, double filled, bool affine_buckets)
{
    return double(buckets) * cost_xyzz_add + filled * (affine_buckets ? cost_xyzz_madd : cost_xyzz_add);
}
double split_reduction_cost(size_t buckets, double filled, double inversion_cost)
{
    const split_shape sh(buckets);
    return 2 * filled * cost_batch_add + double(sh.rounds) * inversion_cost +
           double(sh.lanes()) * cost_xyzz_add + double(sh.nlo + sh.nhi) * 2 * cost_xyzz_add + sh.k * cost_dbl;
}

struct msm_plan {
    unsigned c = 1;        // window bits
    unsigned windows = 0;  // W = ceil((scalar_bits + 1)/c)
    size_t chunks = 1;     // C: point chunks per window; W·C tasks
    bool batch = false;    // affine buckets with batched inversion
    bool split = false;    // batch buckets reduced by digit split
    size_t batch_size = 1;
    double cost = 0;       // estimated time, in M per worker
};

// Estimated time of one configuration (see msm.hpp for the model in words).
//   per task: m·A + reduction, m = ceil(n/C) points
//   reduction of B = 2^(c−1) buckets by a running sum
//     (running += bucket_b; total += running, b = B … 1): the B additions into
//     `total` are full XYZZ additions; the additions of non-empty buckets into
//     `running` are mixed (affine buckets) or full (XYZZ buckets), and at most
//     min(m, B) buckets are non-empty; affine buckets are reduced by digit
//     split instead where that costs less.
//   time = ceil(W·C/T)·(per task) + combining the W·C partial sums + the W·c doublings.
msm_plan evaluate_plan(size_t n, unsigned threads, unsigned scalar_bits, unsigned c, size_t chunks,
                       msm_buckets mode, double inversion_cost)
{
    msm_plan p;
    p.c = c;
    p.windows = (scalar_bits + c) / c;
    p.chunks = chunks;
    p.batch_size = batch_size_for(c);
    const size_t buckets = size_t{1} << (c - 1);
    const size_t m = (n + chunks - 1) / chunks;
    // A task of m points runs about m/K full batches and two final flushes.
    const double inversions = double(m) / double(p.batch_size) + 2;
    const double a_batch = cost_batch_add + inversion_cost * inversions / double(std::max<size_t>(m, 1));
    if (mode == msm_buckets::automatic) p.batch = a_batch < cost_xyzz_madd;
    else p.batch = mode == msm_buckets::batch_affine;
    const double filled = double(std::min(m, buckets));
    double reduction = running_reduction_cost(buckets, filled, p.batch);
    if (p.batch) {
        const double split = split_reduction_cost(buckets, filled, inversion_cost);
        p.split = split < reduction;
        reduction = std::min(reduction, split);
    }
    const double per_task = double(m) * (p.batch ? a_batch : cost_xyzz_madd) + reduction;
    const size_t tasks = size_t(p.windows) * chunks;
    const size_t rounds = (tasks + threads - 1) / threads;
    p.cost = double(rounds) * per_task + double(tasks) * cost_xyzz_add + double(p.windows) * c * cost_dbl;
    return p;
}

// The best plan over c (or the forced c) and the chunk count. Chunks are
// tried as multiples of the fewest that give every worker a task, so that
// the last round of tasks is not left mostly idle.
msm_plan choose_plan(size_t n, unsigned threads, unsigned scalar_bits, unsigned forced_c, msm_buckets mode,
                     double inversion_cost)
{
    scalar_bits = std::max(scalar_bits, 1u);
    threads = std::max(threads, 1u);
    const unsigned lo = forced_c ? forced_c : 1, hi = forced_c ? forced_c : max_auto_window_bits;
    msm_plan best;
    best.cost = std::numeric_limits<double>::infinity();
    for (unsigned c = lo; c <= hi; ++c) {
        const unsigned windows = (scalar_bits + c) / c;
        const size_t base = std::max<size_t>(1, (threads + windows - 1) / windows);
        for (size_t mult = 1; mult <= (threads > 1 ? 8u : 1u); ++mult) {
            const size_t chunks = std::min(base * mult, std::max<size_t>(n, 1));
            const msm_plan p = evaluate_plan(n, threads, scalar_bits, c, chunks, mode, inversion_cost);
            if (p.cost < best.cost) best = p;
        }
    }
    return best;
}

// ---- signed (Booth) digits ---------------------------------------------------------
// With b_j the bits of k (b_{−1} = 0), window w of width c takes the digit
//   d_w = b_{wc−1} + Σ_{j<c−1} 2^j·b_{wc+j} − 2^(c−1)·b_{wc+c−1}   ∈ [−2^(c−1), 2^(c−1)].
// Σ_w 2^(wc)·d_w telescopes to k: the −2^(wc+c−1)·b_{wc+c−1} of window w and
// the +2^((w+1)c)·b_{(w+1)c−1} of window w+1 add up to +2^(wc+c−1)·b_{wc+c−1}.
// This needs b_{Wc−1} = 0 for the top window, i.e. W·c ≥ bits(k) + 1, hence
// W = ceil((bits + 1)/c). Each digit depends on c + 1 bits only, so digits are
// computed where they are used, in any order, without a carry pass.
// With v = bits [wc−1, wc+c) as an integer: d = ((v + 1) >> 1) − 2^c·(v >> c).
CUZK_INLINE int32_t booth_digit(const fr::repr& k, unsigned w, unsigned c)
{
    const uint32_t v = w == 0 ? (k.bits(0, c) << 1) : k.bits(size_t(w) * c - 1, c + 1);
    return int32_t((v + 1) >> 1) - int32_t((v >> c) & 1) * (int32_t{1} << c);
}

using msm_detail::lane_sums;
using msm_detail::xyzz_madd_inplace;

constexpr uint8_t st_occ = 1;    // the primary bucket (affine or XYZZ) holds a point
constexpr uint8_t st_busy = 2;   // batch-affine: the bucket waits in the current batch
constexpr uint8_t st_side = 4;   // batch-affine: the XYZZ side bucket holds a point

constexpr size_t digit_block = 64;   // digits computed ahead, for prefetching
constexpr size_t prefetch_ahead = 4;

// Per-worker scratch, reused across the worker's tasks.
template <class F, class C>
struct msm_worker {
    using aff = affine<F, C>;
    using xz = xyzz<F, C>;
    struct entry {
        const aff* p;
        uint32_t bucket;
        bool neg;
    };

    std::vector<uint8_t> st;
    std::vector<xz> xb;    // XYZZ buckets, or the side buckets of the batch-affine method
    std::vector<aff> ab;   // affine buckets
    std::vector<entry> batch, deferred, retry;
    std::vector<F> dx, pre;
    lane_sums<F, C> lanes;   // the digit-split reduction's accumulators
    // With vec.field set, the points and affine buckets are in the kernels'
    // R' form (vector_batch.hpp) until the reduction converts the buckets.
    msm_detail::vector_batch<F, C> vec;
    int32_t digits[digit_block];
    size_t batch_cap = 1, deferred_cap = 0;

    // ---- XYZZ buckets ----
    // Per point: one mixed addition (10 M) or a copy into an empty bucket.
    xz run_xyzz(const aff* pts, const fr::repr* sc, size_t count, unsigned w, unsigned c)
    {
        const size_t nb = size_t{1} << (c - 1);
        st.assign(nb, 0);
        if (xb.size() < nb) xb.resize(nb);
        for (size_t blk = 0; blk < count; blk += digit_block) {
            const size_t len = std::min(digit_block, count - blk);
            for (size_t j = 0; j < len; ++j) digits[j] = booth_digit(sc[blk + j], w, c);
            for (size_t j = 0; j < len; ++j) {
                if (j + prefetch_ahead < len && digits[j + prefetch_ahead] != 0) {
                    const int32_t d = digits[j + prefetch_ahead];
                    __builtin_prefetch(&xb[size_t(d < 0 ? -d : d) - 1], 1);
                }
                const int32_t d = digits[j];
                if (d == 0) continue;
                const aff& p = pts[blk + j];
                if (p.is_identity()) continue;
                const size_t b = size_t(d < 0 ? -d : d) - 1;
                const F y = d < 0 ? -p.y : p.y;
                if (!(st[b] & st_occ)) {
                    xb[b] = {p.x, y, F::one(), F::one()};
                    st[b] = st_occ;
                } else {
                    xyzz_madd_inplace(xb[b], p.x, y);
                }
            }
        }
        // Running sum: Σ_b (b+1)·bucket_b = Σ_b Σ_{b' ≥ b} bucket_b'.
        xz running = xz::identity(), total = xz::identity();
        for (size_t b = nb; b-- > 0;) {
            if (st[b] & st_occ) running = running.add(xb[b]);
            total = total.add(running);
        }
        return total;
    }

    // ---- batch-affine buckets ----
    // Buckets are affine points. An addition bucket += P waits in a batch of
    // up to K additions to distinct buckets; a batch shares one inversion of
    // Π (x_P − x_bucket) (Montgomery's trick), then each addition is
    // 2M + 1S. Special cases never enter a batch, so every denominator is
    // non-zero:
    //   empty bucket            → the point is copied in;
    //   x_P = x_bucket          → (P = ±bucket) the point goes to the bucket's
    //                             XYZZ side bucket, whose complete formulas
    //                             handle doubling and cancellation;
    //   bucket already in batch → the addition is deferred to the next batch
    //                             (up to K/2 of them; beyond that, or at the
    //                             end of the task, to the side bucket), so
    //                             repeated digits cost at most an XYZZ addition.
    void side_add(const entry& e)
    {
        F x = e.p->x, py = e.p->y;
        if constexpr (msm_detail::vector_capable<F>) {
            if (vec.field) {
                x = msm_detail::from_rprime(x);
                py = msm_detail::from_rprime(py);
            }
        }
        const F y = e.neg ? -py : py;
        if (xb.size() < ab.size()) xb.resize(ab.size());
        if (!(st[e.bucket] & st_side)) {
            xb[e.bucket] = {x, y, F::one(), F::one()};
            st[e.bucket] |= st_side;
        } else {
            xyzz_madd_inplace(xb[e.bucket], x, y);
        }
    }

    void insert(const entry& e)
    {
        uint8_t& s = st[e.bucket];
        if (s & st_busy) {
            if (deferred.size() < deferred_cap) deferred.push_back(e);
            else side_add(e);
            return;
        }
        aff& a = ab[e.bucket];
        if (!(s & st_occ)) {
            a.x = e.p->x;
            a.y = e.neg ? -e.p->y : e.p->y;
            s |= st_occ;
            return;
        }
        if (a.x == e.p->x) {
            side_add(e);
            return;
        }
        s |= st_busy;
        batch.push_back(e);
        if (batch.size() >= batch_cap) flush(true);
    }

    // Applies the batch: prefix products pre_j = Π_{i<j} dx_i, one inversion
    // of Π dx, then backwards 1/dx_j = pre_j·(Π_{i≤j} dx_i)⁻¹ and the affine
    // additions. With reinsert, the deferred additions are tried again; there
    // are fewer than K of them, so that cannot fill the batch and recurse.
    void flush(bool reinsert)
    {
        const size_t n = batch.size();
        if (n && vec.field) {
            if constexpr (msm_detail::vector_capable<F>)
                vec.run(
                    n, [&](size_t j) -> const aff& { return *batch[j].p; },
                    [&](size_t j) -> aff& { return ab[batch[j].bucket]; }, [&](size_t j) { return batch[j].neg; });
            for (const entry& e : batch) st[e.bucket] &= uint8_t(~st_busy);
            batch.clear();
        } else if (n) {
            F acc = F::one();
            for (size_t j = 0; j < n; ++j) {
                dx[j] = batch[j].p->x - ab[batch[j].bucket].x;
                pre[j] = acc;
                acc *= dx[j];
            }
            F inv = acc.inverse();
            for (size_t j = n; j-- > 0;) {
                const entry& e = batch[j];
                aff& a = ab[e.bucket];
                F ij = inv;
                if (j) {
                    ij = inv * pre[j];
                    inv *= dx[j];
                }
                const F y2 = e.neg ? -e.p->y : e.p->y;
                const F lambda = (y2 - a.y) * ij;
                const F x3 = lambda.sqr() - a.x - e.p->x;
                a.y = lambda * (a.x - x3) - a.y;
                a.x = x3;
                st[e.bucket] &= uint8_t(~st_busy);
            }
            batch.clear();
        }
        if (reinsert && !deferred.empty()) {
            retry.swap(deferred);
            for (const entry& e : retry) insert(e);
            retry.clear();
        }
    }

    xz run_batch(const aff* pts, const fr::repr* sc, size_t count, unsigned w, unsigned c, size_t k, bool split)
    {
        const size_t nb = size_t{1} << (c - 1);
        st.assign(nb, 0);
        if (ab.size() < nb) ab.resize(nb);
        batch_cap = k;
        deferred_cap = k / 2;
        batch.reserve(k);
        deferred.reserve(deferred_cap);
        retry.reserve(deferred_cap);
        if (dx.size() < k) {
            dx.resize(k);
            pre.resize(k);
        }
        for (size_t blk = 0; blk < count; blk += digit_block) {
            const size_t len = std::min(digit_block, count - blk);
            for (size_t j = 0; j < len; ++j) digits[j] = booth_digit(sc[blk + j], w, c);
            for (size_t j = 0; j < len; ++j) {
                if (j + prefetch_ahead < len && digits[j + prefetch_ahead] != 0) {
                    const int32_t d = digits[j + prefetch_ahead];
                    __builtin_prefetch(&ab[size_t(d < 0 ? -d : d) - 1], 1);
                }
                const int32_t d = digits[j];
                if (d == 0) continue;
                const aff* p = pts + blk + j;
                if (p->is_identity()) continue;
                insert({p, uint32_t((d < 0 ? -d : d) - 1), d < 0});
            }
        }
        flush(true);
        flush(false);
        for (const entry& e : deferred) side_add(e);
        deferred.clear();

        if (split) return reduce_split(nb);
        if constexpr (msm_detail::vector_capable<F>)
            if (vec.field) ifma::convert(*vec.field, ab[0].x.l, 2 * nb, F::N, false);
        xz running = xz::identity(), total = xz::identity();
        for (size_t b = nb; b-- > 0;) {
            const uint8_t s = st[b];
            if (s & st_occ) running = running.add(ab[b]);
            if (s & st_side) running = running.add(xb[b]);
            total = total.add(running);
        }
        return total;
    }

    // Σ_b (b+1)·bucket_b by digit split (split_shape): round r adds the
    // buckets with hi in [r·cg, r·cg + cg) to G lane lo·cg + hi mod cg, and
    // those with lo in [r·ch, r·ch + ch) to H lane hi·ch + lo mod ch; each
    // lane appears at most once per round. On the IFMA kernels (vec.field)
    // the buckets and lanes stay in the R' form until the lanes are summed.
    xz reduce_split(size_t nb)
    {
        const split_shape sh(nb);
        const size_t g = sh.g_lanes();
        lanes.reset(sh.lanes(), sh.lanes());
        lanes.vec = &vec;
        auto put = [&](size_t hi, size_t lo, size_t lane) {
            const size_t v = hi * sh.nlo + lo;
            if (v == 0 || v > nb) return;
            const uint8_t s = st[v - 1];
            if (s & st_occ) lanes.add(lane, ab[v - 1]);
            if (s & st_side) lanes.add_side(lane, xb[v - 1]);
        };
        for (size_t r = 0; r < sh.rounds; ++r) {
            for (size_t hi = r * sh.cg; hi < std::min(r * sh.cg + sh.cg, sh.nhi); ++hi)
                for (size_t lo = 0; lo < sh.nlo; ++lo) put(hi, lo, lo * sh.cg + hi % sh.cg);
            for (size_t lo = r * sh.ch; lo < std::min(r * sh.ch + sh.ch, sh.nlo); ++lo)
                for (size_t hi = 0; hi < sh.nhi; ++hi) put(hi, lo, g + hi * sh.ch + lo % sh.ch);
            lanes.end_round();
        }
        lanes.to_standard();
        // Σ_j j·(Σ_copies lane) over j = count−1 … 1, by a running sum.
        auto weighted = [&](size_t first, size_t count, size_t copies) {
            xz running = xz::identity(), total = xz::identity();
            for (size_t j = count; j-- > 1;) {
                for (size_t cp = 0; cp < copies; ++cp) running = running.add(lanes.total(first + j * copies + cp));
                total = total.add(running);
            }
            return total;
        };
        xz high = weighted(g, sh.nhi, sh.ch);
        for (unsigned i = 0; i < sh.k; ++i) high = high.dbl();
        return weighted(0, sh.nlo, sh.cg).add(high);
    }
};

template <class F, class C>
jacobian<F, C> msm_impl(std::span<const affine<F, C>> points, std::span<const fr::repr> scalars,
                        const msm_options& opt, double inversion_cost)
{
    using xz = xyzz<F, C>;
    using jac = jacobian<F, C>;
    if (points.size() != scalars.size())
        throw error(errc::invalid_argument,
                    fmt::format("msm: {} points but {} scalars", points.size(), scalars.size()));
    if (opt.window_bits > max_window_bits)
        throw error(errc::invalid_argument,
                    fmt::format("msm: window_bits {} is above the maximum {}", opt.window_bits, max_window_bits));
    const size_t n = points.size();
    if (n == 0) return jac::identity();
    // The kernels work on a converted copy of the points: above
    // vector_block points the MSM runs block by block, which bounds the
    // copy (384 MiB of BLS12-381 G1) at ~2 % more reduction work.
    if (n > vector_block && opt.avx512 && msm_detail::vector_field<F>()) {
        jac acc = jac::identity();
        for (size_t b = 0; b < n; b += vector_block) {
            const size_t len = std::min(vector_block, n - b);
            acc = acc.add(msm_impl(points.subspan(b, len), scalars.subspan(b, len), opt, inversion_cost));
        }
        return acc;
    }

    // Significant bits of the largest scalar: fewer windows for short scalars.
    fr::repr all = fr::repr::zero();
    for (const fr::repr& k : scalars)
        for (size_t i = 0; i < 4; ++i) all.l[i] |= k.l[i];
    const unsigned nbits = unsigned(all.num_bits());
    if (nbits == 0) return jac::identity();

    const unsigned threads = resolve_threads(opt.threads);
    const msm_plan plan = choose_plan(n, threads, nbits, opt.window_bits, opt.buckets, inversion_cost);
    const unsigned c = plan.c, nw = plan.windows;
    const size_t nc = plan.chunks;
    const size_t ntasks = size_t(nw) * nc;

    // Task t covers window t % W of chunk t / W: neighbouring tasks read the
    // same points, which then stay in the shared cache.
    std::vector<xz> partial(ntasks, xz::identity());
    std::vector<msm_worker<F, C>> workers(std::min<size_t>(threads, ntasks));
    // The eight-lane kernels, where they apply: on a copy of the points in
    // their R' form (one vector multiplication per coordinate).
    const ifma::field52* vf = plan.batch && opt.avx512 ? msm_detail::vector_field<F>() : nullptr;
    std::vector<affine<F, C>> vpoints;
    if constexpr (msm_detail::vector_capable<F>) {
        if (vf) {
            vpoints.assign(points.begin(), points.end());
            parallel_for(threads, n, [&](size_t b, size_t e, unsigned) {
                ifma::convert(*vf, vpoints[b].x.l, 2 * (e - b), F::N, true);
            });
            for (auto& w : workers) w.vec.field = vf;
        }
    }
    const affine<F, C>* pts = vf ? vpoints.data() : points.data();
    const size_t q = n / nc, r = n % nc;
    parallel_tasks(threads, ntasks, [&](size_t t, unsigned wk) {
        const unsigned w = unsigned(t % nw);
        const size_t chunk = t / nw;
        const size_t begin = chunk * q + std::min(chunk, r);
        const size_t count = q + (chunk < r ? 1 : 0);
        auto& ws = workers[wk];
        partial[t] = plan.batch ? ws.run_batch(pts + begin, scalars.data() + begin, count, w, c,
                                               plan.batch_size, plan.split)
                                : ws.run_xyzz(points.data() + begin, scalars.data() + begin, count, w, c);
    });

    // Σ_w 2^(wc)·S_w by Horner: c doublings between consecutive windows.
    jac acc = jac::identity();
    for (unsigned w = nw; w-- > 0;) {
        for (unsigned i = 0; i < c; ++i) acc = acc.dbl();
        xz s = xz::identity();
        for (size_t chunk = 0; chunk < nc; ++chunk) s = s.add(partial[chunk * nw + w]);
        acc = acc.add(s.to_jacobian());
    }
    return acc;
}

// ---- the 0/1 sum ------------------------------------------------------------------------
// The selected points of a worker's range are dealt round-robin to K lanes,
// so the K additions of one round go to distinct lanes and share one
// inversion (Montgomery's trick): per point 6.5 + I/K M instead of 10 M for
// an XYZZ mixed addition. A lane and a point with equal x go to an XYZZ side
// accumulator instead. At the end the lanes are summed by K mixed additions.
// For m points the total m·(6.5 + I/K) + 10·K is smallest at K = √(m·I/10);
// the batch path is taken when it beats m·10.
template <class F, class C, class Sel>
xyzz<F, C> sum_range(const affine<F, C>* pts, size_t begin, size_t end, const Sel& selected,
                     double inversion_cost)
{
    using xz = xyzz<F, C>;
    size_t m = 0;
    for (size_t i = begin; i < end; ++i) m += selected(i) ? 1 : 0;
    size_t k = size_t(std::sqrt(double(m) * inversion_cost / cost_xyzz_madd));
    k = std::min<size_t>(k, 4096);
    const double batch_cost = double(m) * (cost_batch_add + inversion_cost / double(std::max<size_t>(k, 1))) +
                              cost_xyzz_madd * double(k);
    if (k < 2 || batch_cost >= double(m) * cost_xyzz_madd) {
        xz side = xz::identity();
        for (size_t i = begin; i < end; ++i) {
            if (!selected(i) || pts[i].is_identity()) continue;
            xyzz_madd_inplace(side, pts[i].x, pts[i].y);
        }
        return side;
    }
    lane_sums<F, C> lanes;
    lanes.reset(k, k);
    size_t next = 0;
    for (size_t i = begin; i < end; ++i) {
        if (!selected(i) || pts[i].is_identity()) continue;
        lanes.add(next, pts[i]);
        if (++next == k) {   // a round is complete: every lane appears at most once
            lanes.end_round();
            next = 0;
        }
    }
    lanes.end_round();
    return lanes.sum_all();
}

template <class F, class C, class Sel>
jacobian<F, C> sum_impl(std::span<const affine<F, C>> points, size_t mask_size, const Sel& selected,
                        unsigned threads, double inversion_cost)
{
    using xz = xyzz<F, C>;
    if (points.size() != mask_size)
        throw error(errc::invalid_argument,
                    fmt::format("sum_points: {} points but a mask of {}", points.size(), mask_size));
    const size_t n = points.size();
    if (n == 0) return jacobian<F, C>::identity();
    // Ranges of at least 4096 points: below that a thread costs more than it saves.
    const unsigned workers = unsigned(std::clamp<size_t>(n / 4096, 1, resolve_threads(threads)));
    std::vector<xz> part(workers, xz::identity());
    parallel_for(workers, n, [&](size_t begin, size_t end, unsigned w) {
        part[w] = sum_range<F, C>(points.data(), begin, end, selected, inversion_cost);
    });
    xz s = xz::identity();
    for (const xz& p : part) s = s.add(p);
    return s.to_jacobian();
}

} // namespace

unsigned msm_window_bits(size_t n, unsigned threads, unsigned scalar_bits)
{
    if (n == 0) return 1;
    return choose_plan(n, resolve_threads(threads), std::min(scalar_bits, 256u), 0, msm_buckets::automatic,
                       g1_inversion_cost)
        .c;
}

// Bucket arrays of large forced windows are the one big allocation here;
// running out of memory is reported as cuzk::error like every other failure.
g1_jacobian msm(std::span<const g1_affine> points, std::span<const fr::repr> scalars, const msm_options& opt)
{
    try {
        return msm_impl<fp, g1_curve>(points, scalars, opt, g1_inversion_cost);
    } catch (const std::bad_alloc&) {
        throw error(errc::out_of_memory, fmt::format("msm: out of memory for {} G1 points", points.size()));
    }
}

g2_jacobian msm(std::span<const g2_affine> points, std::span<const fr::repr> scalars, const msm_options& opt)
{
    try {
        return msm_impl<fp2, g2_curve>(points, scalars, opt, g2_inversion_cost);
    } catch (const std::bad_alloc&) {
        throw error(errc::out_of_memory, fmt::format("msm: out of memory for {} G2 points", points.size()));
    }
}

// BN254: the same code. Its 4-limb Fp inversion costs about the same number
// of its (cheaper) multiplications as BLS12-381's, so the cost model's
// constants carry over.
bn254::g1_jacobian msm(std::span<const bn254::g1_affine> points, std::span<const fr::repr> scalars,
                       const msm_options& opt)
{
    try {
        return msm_impl<bn254::fp, bn254::g1_curve>(points, scalars, opt, g1_inversion_cost);
    } catch (const std::bad_alloc&) {
        throw error(errc::out_of_memory, fmt::format("msm: out of memory for {} BN254 G1 points", points.size()));
    }
}

bn254::g2_jacobian msm(std::span<const bn254::g2_affine> points, std::span<const fr::repr> scalars,
                       const msm_options& opt)
{
    try {
        return msm_impl<bn254::fp2, bn254::g2_curve>(points, scalars, opt, g2_inversion_cost);
    } catch (const std::bad_alloc&) {
        throw error(errc::out_of_memory, fmt::format("msm: out of memory for {} BN254 G2 points", points.size()));
    }
}

bn254::g1_jacobian sum_points(std::span<const bn254::g1_affine> points, std::span<const uint8_t> mask,
                              unsigned threads)
{
    return sum_impl<bn254::fp, bn254::g1_curve>(points, mask.size(), [&](size_t i) { return mask[i] != 0; }, threads,
                                                g1_inversion_cost);
}

bn254::g2_jacobian sum_points(std::span<const bn254::g2_affine> points, std::span<const uint8_t> mask,
                              unsigned threads)
{
    return sum_impl<bn254::fp2, bn254::g2_curve>(points, mask.size(), [&](size_t i) { return mask[i] != 0; },
                                                 threads, g2_inversion_cost);
}

g1_jacobian sum_points(std::span<const g1_affine> points, std::span<const uint8_t> mask, unsigned threads)
{
    return sum_impl<fp, g1_curve>(points, mask.size(), [&](size_t i) { return mask[i] != 0; }, threads,
                                  g1_inversion_cost);
}

g2_jacobian sum_points(std::span<const g2_affine> points, std::span<const uint8_t> mask, unsigned threads)
{
    return sum_impl<fp2, g2_curve>(points, mask.size(), [&](size_t i) { return mask[i] != 0; }, threads,
                                   g2_inversion_cost);
}

g1_jacobian sum_points(std::span<const g1_affine> points, const std::vector<bool>& mask, unsigned threads)
{
    return sum_impl<fp, g1_curve>(points, mask.size(), [&](size_t i) { return bool(mask[i]); }, threads,
                                  g1_inversion_cost);
}

g2_jacobian sum_points(std::span<const g2_affine> points, const std::vector<bool>& mask, unsigned threads)
{
    return sum_impl<fp2, g2_curve>(points, mask.size(), [&](size_t i) { return bool(mask[i]); }, threads,
                                   g2_inversion_cost);
}

} // namespace cuzk
