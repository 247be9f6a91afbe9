// cuzk kernels — Pippenger MSM on the device: Σ k_i·P_i over G1 or G2.
//
// Method (signed digits, points sorted into buckets):
//   1. digits     one thread per point: for each window w of c bits the Booth
//                 digit d ∈ [−2^(c−1), 2^(c−1)] (the CPU's formula, msm_cpu.cpp);
//                 an entry (key = w·2^(c−1) + |d| − 1, value = i | sign·2^31),
//                 or the null key (sorted last, ignored) for d = 0.
//   2. sort       stable radix sort of the (key, value) pairs (CUB), so the
//                 entries of each bucket become contiguous.
//   2b. affine    optionally (msm_affine.cuh): rounds that add the sorted
//                 entries pairwise in affine coordinates, one inversion per
//                 batch, until about two entries per bucket are left; step 3
//                 then runs over their list instead of the sorted entries.
//   3. runs       the sorted entries are cut into equal chunks, one per thread;
//                 a thread adds the points of each run of equal keys (XYZZ
//                 mixed additions, 8M + 2S). A run wholly inside the chunk is a
//                 complete bucket and is written there; a run cut by the chunk's
//                 start or end is a partial sum, kept in a (key, XYZZ) list
//                 (compacted with a prefix sum). The list is sorted by key
//                 again, so the same step runs on it with full additions until
//                 nothing is left. Chunks of equal length keep the threads
//                 balanced whatever the scalars are (a bucket holding every
//                 point costs log(n) rounds, not n additions on one thread).
//   4. reduce     per window, buckets B_1 … B_H (H = 2^(c−1)) become Σ j·B_j
//                 in levels (msm_reduce_level): each thread takes a segment
//                 of L buckets, its running sum (2 additions per bucket) and
//                 its plain sum; the next level does the same over the
//                 segment sums, carrying the weighted parts scaled by
//                 doublings, until one point per window remains. No thread
//                 multiplies by its segment's offset, and the first level
//                 has ~2^19 threads.
//   5. combine    the W window sums go to the host: Σ_w 2^(wc)·S_w (Horner).
// Shifted copies (resident points, msm_copies and msm_table_build): with m
// copies Q_k = 2^(k·s·c)·P (k < m, s = ceil(W/m)), window w = k·s + r adds
// copy k's points into row r's buckets, since 2^(wc)·d·P = 2^(rc)·d·Q_k. The
// W windows then share s rows of buckets: step 4 reduces s rows instead of
// W, and step 5 combines s row sums. A window group that is not the first
// fills a second set of the rows it uses, then adds them into the first
// (msm_merge_rows), since the rows are shared between groups.
// Work: n·W mixed additions (W = ceil((bits + 1)/c)), ~W·2^c full additions in
// the reduction, and the sort. The window c is chosen on the host (cost model
// in lib/backend/cuda.cpp). Windows are processed in groups when n·W entries
// would exceed the backend's entry cap.
//
// Everything here is backend-neutral: a `Be` supplies buffers, launches and the
// sort (kernels/cuda_backend.cuh for the GPU; a host emulation can run the same
// code on a CPU for checking). Be must provide
//   T* buffer<T>(slot, count)        cached scratch (contents undefined)
//   zero(ptr, bytes), to_host(dst, src, bytes) (synchronising)
//   each(n, body[, block])           body(i) for 0 <= i < n
//   sort_pairs(kin, kout, vin, vout, n, end_bit)   stable, by key
//   exclusive_sum(in, out, n)
//   size_t max_entries()
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "ec_device.cuh"

#include "msm_affine.cuh"

namespace cuzk::dev {

// Bits [pos, pos + width) of a 256-bit scalar (4 little-endian limbs),
// width <= 32; bits past 255 read as zero.
// (Limbs are picked by selects rather than a run-time index, so that k stays
// in registers on the device.)
CUZK_HD inline uint64_t limb_at(const uint64_t* k, unsigned li)
{
    return li == 0 ? k[0] : li == 1 ? k[1] : li == 2 ? k[2] : li == 3 ? k[3] : 0;
}
CUZK_HD inline uint32_t scalar_window(const uint64_t* k, unsigned pos, unsigned width)
{
    if (pos >= 256) return 0;
    const unsigned li = pos >> 6, sh = pos & 63;
    uint64_t v = limb_at(k, li) >> sh;
    if (sh + width > 64) v |= limb_at(k, li + 1) << (64 - sh);
    return uint32_t(v & ((uint64_t{1} << width) - 1));
}

// The signed (Booth) digit of window w: with b_j the bits of k (b_{−1} = 0),
//   d_w = b_{wc−1} + Σ_{j<c−1} 2^j·b_{wc+j} − 2^(c−1)·b_{wc+c−1};
// with v = bits [wc − 1, wc + c): d = ((v + 1) >> 1) − 2^c·(v >> c).
// Σ_w 2^(wc)·d_w = k when W·c >= bits(k) + 1 (see msm_cpu.cpp).
CUZK_HD inline int32_t booth_digit(const uint64_t* k, unsigned w, unsigned c)
{
    const uint32_t v = w == 0 ? (scalar_window(k, 0, c) << 1) : scalar_window(k, w * c - 1, c + 1);
    return int32_t((v + 1) >> 1) - int32_t((v >> c) & 1) * (int32_t{1} << c);
}

// Step 1: entries of windows w0 … w0 + nw − 1 for point i, window-major.
// Without copies (s = W, shift = 31) window w0 + w has row w of the group;
// with copies (msm_copies) window w0 + w = k·s + r has row r and the entry's
// value carries the copy above the index: (k << shift) | i.
struct msm_digits {
    const uint64_t* scalars;
    uint32_t* keys;
    uint32_t* vals;
    size_t n;
    unsigned c, w0, nw;
    uint32_t null_key;
    unsigned s = ~0u, shift = 31;   // rows of shared buckets, copy bits' position

    CUZK_HD void operator()(size_t i) const
    {
        uint64_t k[4];
        for (int j = 0; j < 4; ++j) k[j] = scalars[4 * i + j];
        const uint32_t half = uint32_t{1} << (c - 1);
        for (unsigned w = 0; w < nw; ++w) {
            const int32_t d = booth_digit(k, w0 + w, c);
            const uint32_t a = d < 0 ? uint32_t(-d) : uint32_t(d);
            const unsigned gw = w0 + w;
            const uint32_t row = s == ~0u ? w : gw % s, copy = s == ~0u ? 0 : gw / s;
            keys[w * n + i] = d ? row * half + a - 1 : null_key;
            vals[w * n + i] = (copy << shift) | uint32_t(i) | (d < 0 ? 0x80000000u : 0u);
        }
    }
};

// Entry sources for step 3: sorted (key, affine point ± by sign) …
template <class Aff, class Xz>
struct msm_src_points {
    const uint32_t* keys;
    const uint32_t* vals;
    const Aff* points;
    CUZK_HD uint32_t key(size_t j) const { return keys[j]; }
    CUZK_HD void add(Xz& acc, size_t j) const
    {
        const uint32_t v = vals[j];
        Aff q = points[v & 0x7fffffffu];
        if (v >> 31) q.y = -q.y;   // −(x, y) = (x, −y); the identity (0, 0) stays itself
        acc_add(acc, q);
    }
};
// … the same over shifted copies (msm_copies): copy 0 is `points`, copy k > 0
// is table[(k − 1)·n + i] …
template <class Aff, class Xz>
struct msm_src_copies {
    const uint32_t* keys;
    const uint32_t* vals;
    const Aff* points;
    const Aff* table;
    size_t n;
    unsigned shift;
    CUZK_HD uint32_t key(size_t j) const { return keys[j]; }
    CUZK_HD void add(Xz& acc, size_t j) const
    {
        const uint32_t v = vals[j];
        const uint32_t idx = v & 0x7fffffffu, copy = idx >> shift, i = idx & ((uint32_t{1} << shift) - 1);
        Aff q = copy ? table[size_t(copy - 1) * n + i] : points[i];
        if (v >> 31) q.y = -q.y;
        acc_add(acc, q);
    }
};
// … and the (key, XYZZ partial sum) lists of later rounds.
template <class Xz>
struct msm_src_partials {
    const uint32_t* keys;
    const Xz* pts;
    CUZK_HD uint32_t key(size_t j) const { return keys[j]; }
    CUZK_HD void add(Xz& acc, size_t j) const { acc = point_add(acc, pts[j]); }
};

// Step 3, one thread per chunk [t·chunk, min((t + 1)·chunk, total)).
// Thread t writes part_flags[2t], part_flags[2t + 1] (and the matching keys
// and points) for its first run when that run began before the chunk (the
// "head"), and for its last run when it goes on past the chunk (the "tail"; a
// run that does both is a head). Every other run is a whole bucket.
template <class Src, class Xz>
struct msm_runs {
    Src src;
    size_t total, chunk;
    uint32_t null_key;
    Xz* buckets;
    Xz* part_pts;
    uint32_t* part_keys;
    uint32_t* part_flags;

    CUZK_HD void flush(size_t t, uint32_t key, const Xz& sum, bool head, bool tail) const
    {
        const Xz acc = acc_finish(sum);   // canonical again (ec_device.cuh)
        if (head || tail) {
            const size_t slot = head ? 2 * t : 2 * t + 1;
            part_pts[slot] = acc;
            part_keys[slot] = key;
            part_flags[slot] = 1;
        } else {
            buckets[key] = acc;
        }
    }

    CUZK_HD void operator()(size_t t) const
    {
        const size_t s = t * chunk;
        const size_t e = s + chunk < total ? s + chunk : total;
        part_flags[2 * t] = 0;
        part_flags[2 * t + 1] = 0;
        uint32_t cur = src.key(s);
        if (cur == null_key) return;
        const bool first_partial = s > 0 && src.key(s - 1) == cur;
        size_t run_start = s;
        Xz acc = Xz::identity();
        for (size_t j = s; j < e; ++j) {
            const uint32_t k = src.key(j);
            if (k != cur) {
                flush(t, cur, acc, run_start == s && first_partial, false);
                if (k == null_key) return;
                cur = k;
                run_start = j;
                acc = Xz::identity();
            }
            src.add(acc, j);
        }
        const bool continues = e < total && src.key(e) == cur;
        flush(t, cur, acc, run_start == s && first_partial, continues);
    }
};

// Compaction of the flagged partials (pos = exclusive prefix sum of flags);
// the last thread also writes the count.
template <class Xz>
struct msm_compact {
    const Xz* part_pts;
    const uint32_t* part_keys;
    const uint32_t* flags;
    const uint32_t* pos;
    size_t m;
    Xz* list_pts;
    uint32_t* list_keys;
    uint32_t* count;

    CUZK_HD void operator()(size_t i) const
    {
        if (flags[i]) {
            list_pts[pos[i]] = part_pts[i];
            list_keys[pos[i]] = part_keys[i];
        }
        if (i == m - 1) *count = pos[i] + flags[i];
    }
};

// Step 4: the window sums R = Σ_i (i + 1)·B_i (bucket i holds digit i + 1),
// in levels. Write R' = Σ_i i·x_i for a row x. Cutting a row into segments of
// L entries, i = gL + k:
//   R'(x) = Σ_g t_g + L·R'(S),  t_g = Σ_k k·x_{gL+k},  S_g = Σ_k x_{gL+k}.
// So with u = t, λ = L after the first level, every later level keeps
//   R'(B) = Σ_g u_g + λ·R'(S)
// by u'_h = Σ_k u_{hL+k} + λ·t_h (t_h over the segment h of S), S'_h = Σ_k S_{hL+k},
// λ' = λ·L. When one segment is left per row, R'(B) = u and Σ_i B_i = S, so
// R = u + S. Each thread takes one segment: t by the running sum from the top
// (2 additions per entry), log λ doublings, L additions for u. Rows are
// contiguous and L divides the row length, so segment t is entries
// [tL, tL + L) and its outputs go to index t.
template <class Xz>
struct msm_reduce_level {
    const Xz* s_in;
    const Xz* u_in;   // null on the first level (u = 0 there)
    Xz* s_out;
    Xz* u_out;
    unsigned log_l, log_lambda;
    bool last;   // one segment per row: write R = u + S to u_out

    CUZK_HD void operator()(size_t t) const
    {
        const size_t len = size_t{1} << log_l;
        const Xz* x = s_in + (t << log_l);
        Xz run = Xz::identity(), tot = Xz::identity();
        for (size_t k = len; k-- > 1;) {
            run = point_add(run, x[k]);
            tot = point_add(tot, run);
        }
        run = point_add(run, x[0]);
        for (unsigned i = 0; i < log_lambda; ++i) tot = point_dbl(tot);
        if (u_in)
            for (size_t k = 0; k < len; ++k) tot = point_add(tot, u_in[(t << log_l) + k]);
        if (last) {
            u_out[t] = point_add(tot, run);
        } else {
            u_out[t] = tot;
            s_out[t] = run;
        }
    }
};

// Sums groups of g consecutive points inside each window's row of m points:
// out[w·m2 + j] = Σ_{q<g, jg+q<m} in[w·m + jg + q].
template <class Xz>
struct msm_sum_groups {
    const Xz* in;
    Xz* out;
    size_t m, m2;
    unsigned g;

    CUZK_HD void operator()(size_t t) const
    {
        const size_t w = t / m2, j = t % m2;
        const Xz* row = in + w * m + j * g;
        Xz acc = row[0];
        for (unsigned q = 1; q < g && j * g + q < m; ++q) acc = point_add(acc, row[q]);
        out[t] = acc;
    }
};

// Segment length of the first reduction level: about 2^19 threads (a few
// waves on the device), 4 … 64 buckets each; later levels take 8.
inline unsigned msm_reduce_first_log(unsigned log_h, unsigned W)
{
    unsigned log_total = log_h;
    for (unsigned x = W - 1; x > 0; x >>= 1) ++log_total;
    const unsigned want = log_total > 19 ? log_total - 19 : 0;
    const unsigned l = want < 2 ? 2 : want > 6 ? 6 : want;
    return l < log_h ? l : log_h;
}
constexpr unsigned msm_reduce_later_log = 3;

// Chunk length of the first run step: about 2^20 threads at most, 16 entries
// each at least (fewer entries per thread only adds partial sums).
inline size_t msm_first_chunk(size_t entries)
{
    size_t ch = (entries + (size_t{1} << 20) - 1) >> 20;
    return ch < 16 ? 16 : ch;
}
constexpr size_t msm_later_chunk = 8;

inline unsigned bit_width_u32(uint32_t v)
{
    unsigned b = 0;
    while (v) {
        ++b;
        v >>= 1;
    }
    return b;
}

// Windows per sort (group): at most cap / n (the entry cap), and among those
// the group size of least estimated time, the largest on a tie. The estimate:
// a group of g windows has keys below g·H + 1, and the CUB sort takes one
// pass per 8 key bits (its onesweep digit for 32-bit keys; Nsight showed 3
// passes for 23-bit keys), ~6.5 ps per pair and pass on the H200 (1.4 ms per
// pass over 218 M pairs); every group also costs ~400 µs of launches and
// host round trips (the partial-sum rounds), measured as 2^20 points in 16
// groups taking 6.3 ms more than in one. For 2^27 points and c = 22 (W = 12,
// H = 2^21) the 8 windows that fit would need 25 bits, 4 passes; groups of 7
// and 5 need 24 bits, 3 passes. Small MSMs keep all windows in one sort.
// With shared rows (copies), every group's keys are below rows·H + 1.
inline unsigned msm_window_group(size_t n, unsigned W, size_t H, size_t cap, unsigned rows = 0)
{
    const unsigned gmax = unsigned(n * W <= cap ? W : (cap / n > 0 ? cap / n : 1));
    auto passes = [&](unsigned nw) { return (bit_width_u32(uint32_t((rows ? rows : nw) * H)) + 7) / 8; };
    constexpr double pass_s_per_pair = 6.5e-12, group_s = 400e-6;
    unsigned best_g = gmax;
    double best = -1;
    for (unsigned g = gmax; g >= 1; --g) {
        double t = 0;
        for (unsigned w0 = 0; w0 < W; w0 += g) {
            const unsigned nw = W - w0 < g ? W - w0 : g;
            t += double(nw) * double(n) * passes(nw) * pass_s_per_pair + group_s;
        }
        if (best < 0 || t < best) {
            best = t;
            best_g = g;
        }
    }
    return best_g;
}

// Shifted copies for msm_windows (see the header): copy 0 is the points
// themselves, copies 1 … m−1 are in `table` ((k − 1)·n + i); s rows of
// buckets; entry values carry the copy from bit `shift` (n <= 2^shift,
// m <= 2^(31 − shift)).
template <class Aff>
struct msm_copies {
    const Aff* table = nullptr;
    unsigned s = 0, shift = 31;
};

// Step 3's scratch: the partial sums of a run step (two slots per thread),
// their flags and positions, and the compacted list the next round reads.
template <class Xz>
struct msm_part_bufs {
    Xz* part_pts;
    uint32_t* part_keys;
    uint32_t* part_flags;
    uint32_t* part_pos;
    Xz* list_pts;
    uint32_t* list_keys;
    uint32_t* d_count;
};

// Step 3 over one group's sorted entries: the runs, then rounds over the
// partial sums until none is left. `first` is the run step over the entries.
template <class Be, class Xz, class First>
void msm_group_runs(Be& be, const First& first, size_t threads, Xz* gb, uint32_t null_key, const msm_part_bufs<Xz>& bufs)
{
    // Compacts the 2·threads partial slots into the list; returns the count.
    auto compact = [&](size_t t) -> size_t {
        const size_t slots = 2 * t;
        be.exclusive_sum(bufs.part_flags, bufs.part_pos, slots);
        be.each(slots, msm_compact<Xz>{bufs.part_pts, bufs.part_keys, bufs.part_flags, bufs.part_pos, slots, bufs.list_pts,
                                       bufs.list_keys, bufs.d_count});
        uint32_t cnt = 0;
        be.to_host(&cnt, bufs.d_count, sizeof cnt);
        return cnt;
    };
    be.each(threads, first, 128);
    size_t count = compact(threads);
    while (count > 0) {
        threads = (count + msm_later_chunk - 1) / msm_later_chunk;
        be.each(threads,
                msm_runs<msm_src_partials<Xz>, Xz>{{bufs.list_keys, bufs.list_pts}, count, msm_later_chunk, null_key, gb,
                                                   bufs.part_pts, bufs.part_keys, bufs.part_flags},
                128);
        count = compact(threads);
    }
}

// Shared rows (copies): the rows that windows w0 … w0 + nw − 1 use (w mod rows)
// of a later group's second set are cleared before its runs (all-zero XYZZ is
// the identity), and added into the first set after them.
template <class Xz>
struct msm_merge_row {
    Xz* dst;
    const Xz* src;
    CUZK_HD void operator()(size_t i) const
    {
        if (!src[i].is_identity()) dst[i] = point_add(dst[i], src[i]);
    }
};
template <class F>
void msm_group_rows(unsigned rows, unsigned w0, unsigned nw, const F& f)
{
    for (unsigned r = 0; r < rows; ++r)
        if (nw >= rows || (r + rows - w0 % rows) % rows < nw) f(r);
}
template <class Be, class Xz>
void msm_clear_rows(Be& be, Xz* merge, size_t H, unsigned rows, unsigned w0, unsigned nw)
{
    msm_group_rows(rows, w0, nw, [&](unsigned r) { be.zero(merge + r * H, H * sizeof(Xz)); });
}
template <class Be, class Xz>
void msm_merge_rows(Be& be, Xz* buckets, const Xz* merge, size_t H, unsigned rows, unsigned w0, unsigned nw)
{
    msm_group_rows(rows, w0, nw, [&](unsigned r) { be.each(H, msm_merge_row<Xz>{buckets + r * H, merge + r * H}, 128); });
}

// Step 4: reduction levels over `rows` rows of 2^(c−1) buckets until one
// point per row is left; the row sums go to `sums` (host memory).
template <class Be, class Xz>
void msm_reduce_rows(Be& be, const Xz* buckets, unsigned c, unsigned rows, Xz* sums)
{
    unsigned log_m = c - 1;   // entries per row
    unsigned log_l = msm_reduce_first_log(log_m, rows);
    const size_t first_out = rows * (size_t{1} << (log_m - log_l));
    Xz* out_a = be.template buffer<Xz>(slot_seg_a, 2 * first_out);
    Xz* out_b = be.template buffer<Xz>(slot_seg_b, first_out + 1);   // levels >= 2 have L >= 2
    const Xz* s_in = buckets;
    const Xz* u_in = nullptr;
    unsigned log_lambda = 0;
    for (;;) {
        const size_t segs = rows * (size_t{1} << (log_m - log_l));
        const bool last = log_l == log_m;
        be.each(segs, msm_reduce_level<Xz>{s_in, u_in, out_a, out_a + segs, log_l, log_lambda, last}, 128);
        if (last) break;
        s_in = out_a;
        u_in = out_a + segs;
        std::swap(out_a, out_b);
        log_lambda += log_l;
        log_m -= log_l;
        log_l = log_m < msm_reduce_later_log ? log_m : msm_reduce_later_log;
    }
    be.to_host(sums, out_a + rows, rows * sizeof(Xz));
}

// Steps 1–4 for windows 0 … W−1 of window size c; the row sums land in
// `window_sums` (host memory): W of them (one per window), or with copies
// (Copies, cp) cp.s of them, Σ_r 2^(rc)·S_r being the MSM either way.
// points/scalars/table are backend memory.
// With `affine`, the batch-affine rounds (msm_affine.cuh) accumulate first;
// their lists take ~100 bytes per entry beside the sort's 24, so the window
// groups are then cut to an eighth of the entry cap (not with copies).
template <bool Copies = false, class Be, class Aff, class Xz>
void msm_windows(Be& be, const Aff* points, const uint64_t* scalars, size_t n, unsigned c, unsigned W,
                 Xz* window_sums, bool affine = false, const msm_copies<Aff>& cp = {})
{
    const size_t H = size_t{1} << (c - 1);   // buckets per row
    const unsigned rows = Copies ? cp.s : W;
    Xz* buckets = be.template buffer<Xz>(slot_buckets, rows * H);
    be.zero(buckets, rows * H * sizeof(Xz));   // all-zero XYZZ has ZZ = 0: the identity

    auto entry_cap = [&] { return affine ? be.max_entries() / 8 : be.max_entries(); };
    size_t cap = entry_cap();
    // With copies, the rows are shared between window groups: a group after
    // the first fills a second set of rows (`merge`), which msm_merge_rows
    // then adds into the first. (Adding each run into its bucket inside the
    // run step instead made that kernel ~3× slower: the call to the full
    // addition in its loop.)
    Xz* merge = nullptr;
    if constexpr (Copies) {
        if (n * W > cap) {
            merge = be.template buffer<Xz>(slot_merge, rows * H);
            cap = entry_cap();   // less is free now
        }
    }
    const unsigned group = msm_window_group(n, W, H, cap, Copies ? rows : 0);
    const size_t max_m = size_t(group) * n;
    uint32_t* keys_a = be.template buffer<uint32_t>(slot_keys_a, max_m);
    uint32_t* keys_b = be.template buffer<uint32_t>(slot_keys_b, max_m);
    uint32_t* vals_a = be.template buffer<uint32_t>(slot_vals_a, max_m);
    uint32_t* vals_b = be.template buffer<uint32_t>(slot_vals_b, max_m);
    // Threads of the first run step for m entries: ceil(m / chunk) <= min(ceil(m/16), 2^20),
    // a bound that grows with m (the exact count need not: a smaller last group
    // can take a smaller chunk and more threads than a full one).
    const size_t max_threads = std::min((max_m + 15) / 16, size_t{1} << 20);
    const msm_part_bufs<Xz> bufs{be.template buffer<Xz>(slot_part_pts, 2 * max_threads),
                               be.template buffer<uint32_t>(slot_part_keys, 2 * max_threads),
                               be.template buffer<uint32_t>(slot_part_flags, 2 * max_threads),
                               be.template buffer<uint32_t>(slot_part_pos, 2 * max_threads),
                               be.template buffer<Xz>(slot_list_pts, 2 * max_threads),
                               be.template buffer<uint32_t>(slot_list_keys, 2 * max_threads),
                               be.template buffer<uint32_t>(slot_count, 1)};

    for (unsigned w0 = 0; w0 < W; w0 += group) {
        const unsigned nw = W - w0 < group ? W - w0 : group;
        const size_t m = size_t(nw) * n;
        const uint32_t null_key = uint32_t((Copies ? rows : nw) * H);
        Xz* gb = Copies ? (w0 == 0 ? buckets : merge) : buckets + size_t(w0) * H;
        if (Copies && w0 > 0) msm_clear_rows(be, merge, H, rows, w0, nw);

        msm_digits dg{scalars, keys_a, vals_a, n, c, w0, nw, null_key};
        if (Copies) {
            dg.s = cp.s;
            dg.shift = cp.shift;
        }
        be.each(n, dg);
        be.sort_pairs(keys_a, keys_b, vals_a, vals_b, m, int(bit_width_u32(null_key)));
        auto runs = [&](const auto& src, size_t len) {
            const size_t ch1 = msm_first_chunk(len);
            const size_t threads = (len + ch1 - 1) / ch1;
            using S = std::decay_t<decltype(src)>;
            msm_group_runs(be, msm_runs<S, Xz>{src, len, ch1, null_key, gb, bufs.part_pts, bufs.part_keys, bufs.part_flags},
                           threads, gb, null_key, bufs);
        };
        if constexpr (Copies) {
            runs(msm_src_copies<Aff, Xz>{keys_b, vals_b, points, cp.table, n, cp.shift}, m);
            if (w0 > 0) msm_merge_rows(be, buckets, merge, H, rows, w0, nw);
        } else {
            // The batch-affine rounds first (when asked, and when the buckets
            // are full enough for them), then the XYZZ runs over what is left.
            const aff_list<Aff> fin =
                affine ? msm_affine_rounds(be, keys_b, vals_b, points, m, null_key, size_t(nw) * H) : aff_list<Aff>{};
            if (fin.ran && fin.len == 0) continue;   // every digit of the group was zero
            if (fin.ran) runs(msm_src_affine<Aff, Xz>{fin.keys, fin.pts}, fin.len);
            else runs(msm_src_points<Aff, Xz>{keys_b, vals_b, points}, m);
        }
    }
    msm_reduce_rows(be, buckets, c, rows, window_sums);
}

// ---- building the shifted copies -------------------------------------------------------------
// Copy k from copy k − 1 by `dbls` doublings in Jacobian coordinates: (X, Y)
// into dst's (x, y), Z into z (one for the identity, whose X = Y = 0 then
// convert to the affine identity (0, 0)).
template <class Aff>
struct msm_table_dbl {
    const Aff* src;
    Aff* dst;
    decltype(Aff{}.x)* z;
    unsigned dbls;
    CUZK_HD void operator()(size_t i) const
    {
        using F = decltype(Aff{}.x);
        auto j = src[i].to_jacobian();
        for (unsigned d = 0; d < dbls; ++d) j = j.dbl();
        if (j.is_identity()) {
            dst[i] = Aff::identity();
            z[i] = F::one();
        } else {
            dst[i].x = j.x;
            dst[i].y = j.y;
            z[i] = j.z;
        }
    }
};
// (X, Y) with 1/Z to affine: x = X/Z², y = Y/Z³.
template <class Aff>
struct msm_table_affine {
    Aff* dst;
    const decltype(Aff{}.x)* zinv;
    CUZK_HD void operator()(size_t i) const
    {
        const auto zi = zinv[i], zi2 = zi.sqr();
        dst[i].x = dst[i].x * zi2;
        dst[i].y = dst[i].y * (zi2 * zi);
    }
};

// Copies 1 … m−1 of the n points (msm_copies): copy k = 2^(k·dbls)·P into
// table[(k − 1)·n …], each from the one before, the Z of a copy inverted
// together (batch_invert, at most direct_max values inverted one by one), in
// pieces of at most `piece` points, so the scratch (two field arrays of a
// piece) stays small beside the copies.
template <class Be, class Aff>
void msm_table_build(Be& be, const Aff* points, size_t n, unsigned dbls, unsigned m, Aff* table,
                     size_t direct_max = inv_direct_max, size_t piece = size_t{1} << 24)
{
    using F = decltype(Aff{}.x);
    if (n == 0 || m < 2) return;
    const size_t p = piece < n ? piece : n;
    F* z = be.template buffer<F>(slot_aff_pre, p);
    F* scratch = be.template buffer<F>(slot_aff_tot, batch_invert_scratch(p));
    for (unsigned k = 1; k < m; ++k) {
        const Aff* src = k == 1 ? points : table + size_t(k - 2) * n;
        Aff* dst = table + size_t(k - 1) * n;
        for (size_t o = 0; o < n; o += p) {
            const size_t len = n - o < p ? n - o : p;
            be.each(len, msm_table_dbl<Aff>{src + o, dst + o, z, dbls}, 128);
            batch_invert(be, z, len, scratch, direct_max);
            be.each(len, msm_table_affine<Aff>{dst + o, z});
        }
    }
}

} // namespace cuzk::dev
