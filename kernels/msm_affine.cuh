// cuzk kernels — the MSM's batch-affine rounds: bucket accumulation in affine
// coordinates, one shared inversion per batch of additions.
//
// Input: the entries of a window group sorted by key (step 2 of
// msm_device.cuh), null keys last. A round pairs entries 2j and 2j + 1 of the
// list; when both have the same (non-null) key the pair becomes one entry
// holding their affine sum, otherwise each entry passes through unchanged.
// The outputs keep the list's order (positions from a prefix sum of the
// counts), so the next round works on a list sorted by key again. A run of
// L equal keys becomes ~L/2 entries, so a few rounds bring the list down to
// about one entry per bucket; the XYZZ runs of msm_device.cuh then finish
// it (msm_src_affine), with partial sums, as they do for any list.
//
// The affine sum of P0 and P1: λ = (y1 − y0)/(x1 − x0) (chord), or
// 3·x0²/(2·y0) when P0 = P1 (tangent); x3 = λ² − x0 − x1, y3 = λ(x0 − x3) − y0.
// The denominators of a round are inverted together (Montgomery's trick):
//   forward  each thread takes K pairs, stores for each the product of the
//            denominators before it (pre) and its chunk's product (tot);
//   invert   tot is inverted the same way, recursively, down to a few
//            thousand values inverted one by one (Fermat);
//   back     each thread walks its pairs backwards: 1/den = inv·pre, then
//            inv ← inv·den, and writes the sums.
// Per addition: 1 multiplication forward, 2 back, λ, λ², λ·(x0 − x3) — five
// multiplications and a square, against 8M + 2S for an XYZZ mixed addition.
// Pairs with an identity, or with P0 = −P1, need no denominator: their sum
// is the other point, or the identity (0, 0).
#pragma once

#include <cstddef>
#include <cstdint>

#include "msm_slots.cuh"

namespace cuzk::dev {

// Entry sources of a round: the sorted (key, ±index) entries …
template <class Aff>
struct aff_src_index {
    const uint32_t* keys;
    const uint32_t* vals;
    const Aff* points;
    CUZK_HD uint32_t key(size_t j) const { return keys[j]; }
    CUZK_HD Aff point(size_t j) const
    {
        const uint32_t v = vals[j];
        const Aff q = points[v & 0x7fffffffu];
        return v >> 31 ? -q : q;
    }
};
// … or a (key, affine point) list of an earlier round.
template <class Aff>
struct aff_src_list {
    const uint32_t* keys;
    const Aff* pts;
    CUZK_HD uint32_t key(size_t j) const { return keys[j]; }
    CUZK_HD Aff point(size_t j) const { return pts[j]; }
};

// The XYZZ runs over a round's output list (msm_runs' source).
template <class Aff, class Xz>
struct msm_src_affine {
    const uint32_t* keys;
    const Aff* pts;
    CUZK_HD uint32_t key(size_t j) const { return keys[j]; }
    CUZK_HD void add(Xz& acc, size_t j) const { acc_add(acc, pts[j]); }
};

// Pair j of a list of m entries: entries 2j and 2j + 1 with the same key.
template <class Src>
CUZK_HD inline bool aff_paired(const Src& src, size_t j, size_t m, uint32_t null_key)
{
    const size_t e = 2 * j;
    if (e + 1 >= m) return false;
    const uint32_t k = src.key(e);
    return k != null_key && src.key(e + 1) == k;
}

// The denominator of P0 + P1, or false when the sum needs none.
template <class Aff, class F>
CUZK_HD inline bool aff_denominator(const Aff& p0, const Aff& p1, F& den)
{
    if (p0.is_identity() || p1.is_identity()) return false;
    if (p0.x != p1.x) {
        den = p1.x - p0.x;
        return true;
    }
    if (p0.y != p1.y || p0.y.is_zero()) return false;   // P0 = −P1: the identity
    den = p0.y + p0.y;
    return true;
}

// P0 + P1 given 1/den (only read when aff_denominator said so).
template <class Aff, class F>
CUZK_HD inline Aff aff_sum(const Aff& p0, const Aff& p1, const F& inv_den)
{
    if (p0.is_identity()) return p1;
    if (p1.is_identity()) return p0;
    F lambda;
    if (p0.x != p1.x) lambda = (p1.y - p0.y) * inv_den;
    else if (p0.y != p1.y || p0.y.is_zero()) return Aff::identity();
    else {
        const F xx = p0.x.sqr();
        lambda = (xx + xx + xx) * inv_den;
    }
    const F x3 = lambda.sqr() - p0.x - p1.x;
    return {x3, lambda * (p0.x - x3) - p0.y};
}

// Entries that pair j emits: 0, 1 (a sum, or a lone entry before the nulls)
// or 2 (two entries of different keys).
template <class Src>
struct aff_count {
    Src src;
    size_t m;
    uint32_t null_key;
    uint32_t* count;

    CUZK_HD void operator()(size_t j) const
    {
        const size_t e = 2 * j;
        const uint32_t k0 = src.key(e);
        uint32_t c = 0;
        if (k0 != null_key) {
            c = 1;
            if (e + 1 < m) {
                const uint32_t k1 = src.key(e + 1);
                if (k1 != k0 && k1 != null_key) c = 2;
            }
        }
        count[j] = c;
    }
};

// Forward pass: thread t, pairs [tK, min(tK + K, pairs)).
template <class Src, class F>
struct aff_forward {
    Src src;
    size_t pairs, m;
    uint32_t null_key;
    unsigned k_per;
    F* pre;
    F* tot;

    CUZK_HD void operator()(size_t t) const
    {
        const size_t s = t * k_per, e = s + k_per < pairs ? s + k_per : pairs;
        F acc = F::one();
        for (size_t j = s; j < e; ++j) {
            if (!aff_paired(src, j, m, null_key)) continue;
            F den;
            if (!aff_denominator(src.point(2 * j), src.point(2 * j + 1), den)) continue;
            pre[j] = acc;
            acc = acc * den;
        }
        tot[t] = acc;
    }
};

// Back pass: thread t walks its pairs backwards from tot_inv[t] and writes
// the outputs at pos[j] (exclusive prefix sum of aff_count).
template <class Src, class Aff, class F>
struct aff_back {
    Src src;
    size_t pairs, m;
    uint32_t null_key;
    unsigned k_per;
    const F* pre;
    const F* tot_inv;
    const uint32_t* pos;
    uint32_t* out_keys;
    Aff* out_pts;

    CUZK_HD void operator()(size_t t) const
    {
        const size_t s = t * k_per, e = s + k_per < pairs ? s + k_per : pairs;
        F inv = tot_inv[t];
        for (size_t j = e; j-- > s;) {
            const size_t e0 = 2 * j;
            const uint32_t k0 = src.key(e0);
            if (k0 == null_key) continue;
            const size_t p = pos[j];
            const Aff p0 = src.point(e0);
            if (!aff_paired(src, j, m, null_key)) {
                out_keys[p] = k0;
                out_pts[p] = p0;
                if (e0 + 1 < m && src.key(e0 + 1) != null_key) {
                    out_keys[p + 1] = src.key(e0 + 1);
                    out_pts[p + 1] = src.point(e0 + 1);
                }
                continue;
            }
            const Aff p1 = src.point(e0 + 1);
            F den = F::one(), inv_den = F::one();
            if (aff_denominator(p0, p1, den)) {
                inv_den = inv * pre[j];
                inv = inv * den;
            }
            out_keys[p] = k0;
            out_pts[p] = aff_sum(p0, p1, inv_den);
        }
    }
};

// ---- batch inversion of a field array ------------------------------------------------------
template <class F>
struct inv_forward {
    const F* v;
    F* pre;
    F* tot;
    size_t n;
    unsigned k_per;
    CUZK_HD void operator()(size_t t) const
    {
        const size_t s = t * k_per, e = s + k_per < n ? s + k_per : n;
        F acc = F::one();
        for (size_t i = s; i < e; ++i) {
            pre[i] = acc;
            acc = acc * v[i];
        }
        tot[t] = acc;
    }
};
template <class F>
struct inv_back {
    F* v;
    const F* pre;
    const F* tot_inv;
    size_t n;
    unsigned k_per;
    CUZK_HD void operator()(size_t t) const
    {
        const size_t s = t * k_per, e = s + k_per < n ? s + k_per : n;
        F inv = tot_inv[t];
        for (size_t i = e; i-- > s;) {
            const F x = v[i];
            v[i] = inv * pre[i];
            inv = inv * x;
        }
    }
};
template <class F>
struct inv_each {
    F* v;
    CUZK_HD void operator()(size_t i) const { v[i] = v[i].inverse(); }
};

constexpr unsigned aff_pairs_per_thread = 16;
constexpr unsigned inv_per_thread = 32;
constexpr size_t inv_direct_max = size_t{1} << 13;

// Values of scratch batch_invert needs for n values: n + 2·(n/32 + n/32² + …)
// + rounding < n + n/8 + 64.
inline size_t batch_invert_scratch(size_t n) { return n + n / 8 + 64; }

// v[i] ← 1/v[i], i < n (all non-zero), with `scratch` of batch_invert_scratch(n);
// at most direct_max values are inverted one by one.
template <class Be, class F>
void batch_invert(Be& be, F* v, size_t n, F* scratch, size_t direct_max = inv_direct_max)
{
    if (n == 0) return;
    if (n <= direct_max) {
        be.each(n, inv_each<F>{v}, 128);
        return;
    }
    const size_t t = (n + inv_per_thread - 1) / inv_per_thread;
    F* pre = scratch;
    F* tot = scratch + n;
    be.each(t, inv_forward<F>{v, pre, tot, n, inv_per_thread}, 128);
    batch_invert(be, tot, t, tot + t, direct_max);
    be.each(t, inv_back<F>{v, pre, tot, n, inv_per_thread}, 128);
}

// ---- the rounds --------------------------------------------------------------------------
template <class Aff>
struct aff_list {
    const uint32_t* keys = nullptr;
    const Aff* pts = nullptr;
    size_t len = 0;
    bool ran = false;   // false: no round ran, the sorted entries stand as they were
};

// One round over `len` entries of src; the output list goes to the buffers
// of slots key_slot and pt_slot (never those src reads).
template <class Be, class Aff, class Src>
aff_list<Aff> msm_affine_round(Be& be, const Src& src, size_t len, uint32_t null_key, int key_slot, int pt_slot)
{
    using F = decltype(Aff{}.x);
    const size_t pairs = (len + 1) / 2;
    uint32_t* cnt = be.template buffer<uint32_t>(slot_aff_count, pairs + 1);
    uint32_t* pos = be.template buffer<uint32_t>(slot_aff_pos, pairs + 1);
    be.each(pairs, aff_count<Src>{src, len, null_key, cnt});
    be.zero(cnt + pairs, sizeof(uint32_t));
    be.exclusive_sum(cnt, pos, pairs + 1);   // pos[pairs] = the output's length
    uint32_t total = 0;
    be.to_host(&total, pos + pairs, sizeof total);

    const size_t threads = (pairs + aff_pairs_per_thread - 1) / aff_pairs_per_thread;
    F* pre = be.template buffer<F>(slot_aff_pre, pairs);
    F* tot = be.template buffer<F>(slot_aff_tot, threads + batch_invert_scratch(threads));
    be.each(threads, aff_forward<Src, F>{src, pairs, len, null_key, aff_pairs_per_thread, pre, tot}, 128);
    batch_invert(be, tot, threads, tot + threads);
    uint32_t* out_keys = be.template buffer<uint32_t>(key_slot, total + 1);
    Aff* out_pts = be.template buffer<Aff>(pt_slot, total + 1);
    be.each(threads,
            aff_back<Src, Aff, F>{src, pairs, len, null_key, aff_pairs_per_thread, pre, tot, pos, out_keys, out_pts},
            128);
    return {out_keys, out_pts, total, true};
}

// Rounds over m sorted entries (keys, vals: step 2's output) while the list
// holds more than two entries per bucket on average, at most 8, and only
// when it starts with at least four (below that a round removes too few
// entries to pay for its passes). A round that removes less than a tenth of
// its list is the last (points repeated so often that they pair as P, −P or
// identities are left to the XYZZ runs).
template <class Be, class Aff>
aff_list<Aff> msm_affine_rounds(Be& be, const uint32_t* keys, const uint32_t* vals, const Aff* points, size_t m,
                                uint32_t null_key, size_t buckets)
{
    aff_list<Aff> cur;
    if (m < 4 * buckets) return cur;
    size_t len = m;
    for (unsigned r = 0; r < 8 && len > 2 * buckets; ++r) {
        const int ks = r % 2 ? slot_aff_keys_b : slot_aff_keys_a;
        const int ps = r % 2 ? slot_aff_pts_b : slot_aff_pts_a;
        cur = r == 0 ? msm_affine_round<Be, Aff>(be, aff_src_index<Aff>{keys, vals, points}, len, null_key, ks, ps)
                     : msm_affine_round<Be, Aff>(be, aff_src_list<Aff>{cur.keys, cur.pts}, len, null_key, ks, ps);
        const bool slow = cur.len * 10 > len * 9;
        len = cur.len;
        if (slow) break;
    }
    return cur;
}

} // namespace cuzk::dev
