// cuzk kernels — radix-2 NTT over a scalar field on the device (BLS12-381's or
// BN254's Fr: the templates take the device field), natural order in and out.
//
// The transform is the CPU's (lib/ntt/ntt.cpp): bit reversal, then
// decimation-in-time butterflies; stage s pairs a[i] and a[i + 2^s] (bit s of
// i clear) with twiddle ω^k, k = j·2^(L−1−s), j = i mod 2^s.
// Twiddle tables, one per stage: T_s[j] = ω^(j·2^(L−1−s)) (the powers of the
// 2^(s+1)-th root of unity), j < 2^s, stored at tw[2^s − 1 + j]; 2^L − 1
// elements in all. The butterflies of one stage that a warp runs have
// consecutive j, so they read consecutive entries (coalesced); a single table
// of ω^k would be read with the stride 2^(L−1−s), one sector per thread,
// which kept the L1 of the passes saturated (Nsight Compute, H200: memory
// throughput 89–93 % with DRAM at 13–23 %). The inverse uses the same
// tables: ω_m^−j = −ω_m^(m/2 − j) (j > 0, m = 2^(s+1)), so its butterfly is
// (u − v·T_s[2^s − j], u + v·T_s[2^s − j]).
//
// Schedule: passes, each one kernel whose blocks hold 2^B = 2048 elements
// (64 KiB) in shared memory and run several stages there.
//   pass 0      stages 0 … min(L, 11) − 1 on 2^11 consecutive positions of the
//               bit-reversed order; the block gathers them from the natural
//               order (the bit reversal costs no pass of its own). A coset
//               shift (a_i·g^i) is applied on this load.
//   pass p > 0  up to 8 further stages b … b+K−1: the butterflies pair indices
//               that differ only in bits b … b+K−1, so a block takes 2^K rows
//               (stride 2^b) of a tile of 2^(11−K) neighbouring columns, whose
//               rows are runs of >= 8 contiguous elements (256 B).
//   last pass   the inverse's 1/n, or (1/n)·g^−i for the coset inverse, is applied
//               on the store.
// 2^27 takes 3 passes (11 + 8 + 8 stages); each reads and writes the array once.
// Inside a pass, a thread runs R consecutive stages on 2^R elements held in
// registers (radix 2^R, R = 1, 2 or 3; stage_group), so shared memory is read
// and written, and the block synchronised, once per R stages rather than per
// stage. Registers (sm_90): R = 1: 62, 3 blocks of 256 threads per SM (the
// 64 KiB of shared memory per block is the limit); R = 2: 80, 3 blocks;
// R = 3: 128 (capped by the launch bounds; 16 bytes spilled), 2 blocks.
// Which R wins is measured (bench_gpu, CUZK_NTT_RADIX): on the H200, 2^27
// forward takes 56.8 / 49.8 / 53.4 ms with R = 1 / 2 / 3, so R = 2 is the
// default. The butterflies and twiddles per element are the same for every R,
// so the results are equal.
// Pass 0 reads out of place (data → scratch), later passes scratch → scratch in
// place, the last one back into data; a transform of one pass (L <= 11) is one
// block, in place.
// Low memory (no scratch: a device too small for the 2n of scratch and stage
// tables beside the prover's vectors): the bit reversal is a pass of its own,
// in place (element i and element rev(i) swap, each pair by one thread; the
// input scalings go with it), then every pass reads and writes data in place;
// the stage tables are kept for the first stages only (ntt_twiddles::
// table_log: entries below 2^table_log − 1) and the later stages' twiddles
// are made from the two small power tables (one more multiplication a
// butterfly there). The products are the ones the tables hold, so the
// results are the fast schedule's bit for bit.
// Work: n/2·(L − 1) − n/4 multiplications (stage 0's twiddle is 1, and so is
// the first of stage 1's two, which pass 0's stage groups of R >= 2 hold at a
// fixed register, so skipping it is a warp-uniform branch; later stages
// multiply by ω^0 too, as a warp's butterflies mostly need other powers), plus n
// for any scaling; twiddles are read from the stage tables, consecutive
// entries for a warp (the early stages' small tables stay in L1/L2).
// Powers g^i for scaling come from two small tables: g^i = lo[i mod 2^h]·hi[i >> h].
#pragma once

#include <cstddef>
#include <cstdint>

#include "ff_device.cuh"

namespace cuzk::dev {

struct alignas(16) q16 {
    uint32_t v[4];
};

CUZK_HD inline uint32_t bit_reverse32(uint32_t x)
{
#if defined(__CUDA_ARCH__)
    return __brev(x);
#else
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
    return (x >> 16) | (x << 16);
#endif
}

constexpr unsigned ntt_block_log = 11;   // elements per block: 2^11 (64 KiB of Fr)
constexpr unsigned ntt_max_col = 8;      // stages per later pass (tile rows 2^8, 8 columns)
constexpr unsigned ntt_threads = 256;

// One pass: stages b … b+k−1, tiles of 2^log_t columns (pass 0: b = 0, log_t = 0).
// F is the device scalar field (dfr for BLS12-381, dbn_fr for BN254): both are
// 32 bytes, so the shared-memory layout below serves either.
template <class F>
struct ntt_pass {
    using dfr = F;
    const dfr* src;
    dfr* dst;
    const dfr* tw;        // stage tables of stages < tw_log (tw_log = log_n: all)
    const dfr* tw_lo;     // stages >= tw_log: T_s[j] = tw_lo[x mod 2^tw_h]·tw_hi[x >> tw_h], x = j·2^(L−1−s)
    const dfr* tw_hi;
    unsigned tw_log, tw_h;
    unsigned log_n, b, k, log_t;
    bool gather, inverse;
    const dfr* in_lo;   // input scaling g^i (nullptr: none)
    const dfr* in_hi;
    unsigned in_shift;
    const dfr* in_mul;    // pass 0: each input times in_mul at its index (nullptr: none)
    const dfr* out_sub;   // last pass: out_sub at its index subtracted from each output (nullptr: none)
    unsigned out_mode;   // 0 none, 1 constant out_c, 2 table out_lo/out_hi
    dfr out_c;
    const dfr* out_lo;
    const dfr* out_hi;
    unsigned out_shift;
    unsigned threads;
    unsigned radix_log;   // stages per shared-memory round trip (1 … 3; see stage_group)

    CUZK_HD unsigned elems() const { return 1u << (k + log_t); }
    // Phases between barriers: groups of radix_log stages.
    CUZK_HD unsigned stages() const { return (k + radix_log - 1) / radix_log; }
    CUZK_HD size_t lo0(size_t block) const
    {
        const unsigned lt = b - log_t;   // log of tiles per row group
        return (block & ((size_t{1} << lt) - 1)) << log_t;
    }
    // Array position of shared element e = r·2^log_t + t of this block.
    CUZK_HD size_t pos(size_t block, unsigned e) const
    {
        const unsigned lt = b - log_t;
        const size_t hi = block >> lt;
        const size_t r = e >> log_t, t = e & ((1u << log_t) - 1);
        return (hi << (b + k)) + (r << b) + lo0(block) + t;
    }
    // Shared memory: low 16 bytes of element e at sm[x], high 16 bytes at
    // sm[E + x], x = swz(e), so that 8 threads (one 128-byte wavefront of
    // 16-byte accesses) touch 8 distinct 16-byte bank groups (x mod 8). The
    // 8 threads of a wavefront vary bits 0–2 of e (loads, stores, later
    // passes, stage groups from bit 4 up), bits 2–4 (pass 0's radix-4 group
    // at stage 0: rows 4q) or bits 0, 1 and 4 (the group at stage 2); x =
    // e ⊕ (e3 | 6·e4) maps each of these to 8 distinct residues, where the
    // plain e put 4 (resp. 2) threads on one bank group.
    CUZK_HD static unsigned swz(unsigned e) { return e ^ (((e >> 3) & 1u) | (((e >> 4) & 1u) * 6u)); }
    CUZK_HD dfr get(const q16* sm, unsigned e) const
    {
        dfr v;
        e = swz(e);
        const q16 a = sm[e], c = sm[elems() + e];
        for (int i = 0; i < 4; ++i) {
            v.w[i] = a.v[i];
            v.w[4 + i] = c.v[i];
        }
        return v;
    }
    CUZK_HD void put(q16* sm, unsigned e, const dfr& v) const
    {
        q16 a, c;
        for (int i = 0; i < 4; ++i) {
            a.v[i] = v.w[i];
            c.v[i] = v.w[4 + i];
        }
        e = swz(e);
        sm[e] = a;
        sm[elems() + e] = c;
    }

    // T_s[j] (j < 2^s): from the stage tables, or made from the power tables
    // as ntt_stage_table makes the tables' entries (the same product).
    CUZK_HD dfr twiddle(unsigned s, size_t j) const
    {
        if (s < tw_log) return tw[(size_t{1} << s) - 1 + j];
        const size_t x = j << (log_n - 1 - s);
        return tw_lo[x & ((size_t{1} << tw_h) - 1)] * tw_hi[x >> tw_h];
    }

    CUZK_HD void load(size_t block, unsigned tid, q16* sm) const
    {
        const unsigned E = elems();
        for (unsigned e = tid; e < E; e += threads) {
            const size_t p = pos(block, e);
            const size_t si = gather ? size_t(bit_reverse32(uint32_t(p)) >> (32 - log_n)) : p;
            dfr v = src[si];
            if (in_mul) v = v * in_mul[si];
            if (in_lo) v = v * (in_lo[si & ((size_t{1} << in_shift) - 1)] * in_hi[si >> in_shift]);
            put(sm, e, v);
        }
    }

    // Phase g: stages g·R … g·R + r − 1 of this pass (R = radix_log, r <= R
    // the stages left). With R = 1 this is one radix-2 stage per barrier.
    // (Dispatched at compile time by ntt_pass_r<R>, so that each radix is its
    // own kernel with its own register allocation.)
    template <unsigned R>
    CUZK_HD void stage_r(unsigned g, size_t block, unsigned tid, q16* sm) const
    {
        if constexpr (R == 1) {
            stage_radix2(g, block, tid, sm);
        } else {
            const unsigned sl0 = g * R;
            const unsigned r = k - sl0 < R ? k - sl0 : R;
            if (r == R) stage_group<R>(sl0, block, tid, sm);
            else if (r == 2) stage_group<2>(sl0, block, tid, sm);
            else stage_group<1>(sl0, block, tid, sm);
        }
    }

    // r stages sl0 … sl0+r−1 in registers: a thread takes the 2^r rows that
    // differ only in bits sl0 … sl0+r−1 (one column t), runs the r·2^(r−1)
    // butterflies of those stages on them, and writes them back: one shared
    // memory round trip and one barrier per r stages instead of per stage.
    // The butterflies, twiddles and their order per element are those of
    // stage_radix2, so the results are identical.
    template <unsigned r>
    CUZK_HD void stage_group(unsigned sl0, size_t block, unsigned tid, q16* sm) const
    {
        constexpr unsigned m = 1u << r;
        const unsigned groups = elems() >> r;
        const size_t base = lo0(block);
        const unsigned tmask = (1u << log_t) - 1, lmask0 = (1u << sl0) - 1;
        for (unsigned q = tid; q < groups; q += threads) {
            const unsigned t = q & tmask, rq = q >> log_t;
            const unsigned row0 = ((rq >> sl0) << (sl0 + r)) | (rq & lmask0);
            dfr x[m];
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
            for (unsigned i = 0; i < m; ++i) x[i] = get(sm, ((row0 | (i << sl0)) << log_t) | t);
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
            for (unsigned d = 0; d < r; ++d) {
                const unsigned s = b + sl0 + d;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
                for (unsigned i = 0; i < m; ++i) {
                    if (i & (1u << d)) continue;
                    const unsigned i2 = i | (1u << d);
                    const unsigned low = (row0 & lmask0) | ((i & ((1u << d) - 1)) << sl0);
                    const size_t j = (size_t(low) << b) + base + t;
                    const size_t half = size_t{1} << s;   // T_s has 2^s entries
                    if (s == 0 || (s == 1 && j == 0)) {   // ω^0 = 1: warp-uniform in pass 0 for R >= 2
                        const dfr y = x[i2];
                        x[i2] = x[i] - y;
                        x[i] = x[i] + y;
                    } else if (!inverse) {
                        const dfr y = x[i2] * twiddle(s, j);
                        x[i2] = x[i] - y;
                        x[i] = x[i] + y;
                    } else {
                        const dfr y = x[i2] * twiddle(s, j ? half - j : 0);
                        if (j) {
                            x[i2] = x[i] + y;
                            x[i] = x[i] - y;
                        } else {
                            x[i2] = x[i] - y;
                            x[i] = x[i] + y;
                        }
                    }
                }
            }
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
            for (unsigned i = 0; i < m; ++i) put(sm, ((row0 | (i << sl0)) << log_t) | t, x[i]);
        }
    }

    CUZK_HD void stage_radix2(unsigned sl, size_t block, unsigned tid, q16* sm) const
    {
        const unsigned half_e = elems() / 2;
        const unsigned s = b + sl;
        const size_t half = size_t{1} << s;   // T_s: 2^s entries
        const size_t base = lo0(block);
        const unsigned tmask = (1u << log_t) - 1, lmask = (1u << sl) - 1;
        for (unsigned q = tid; q < half_e; q += threads) {
            const unsigned t = q & tmask, rq = q >> log_t;
            const unsigned low = rq & lmask;
            const unsigned r = ((rq >> sl) << (sl + 1)) | low;
            const unsigned e1 = (r << log_t) | t, e2 = ((r | (1u << sl)) << log_t) | t;
            const size_t j = (size_t(low) << b) + base + t;
            const dfr x = get(sm, e1);
            if (s == 0) {   // ω^0 = 1 throughout stage 0 (a warp-uniform branch): no multiplication
                const dfr y = get(sm, e2);
                put(sm, e1, x + y);
                put(sm, e2, x - y);
            } else if (!inverse) {
                const dfr y = get(sm, e2) * twiddle(s, j);
                put(sm, e1, x + y);
                put(sm, e2, x - y);
            } else {
                const dfr y = get(sm, e2) * twiddle(s, j ? half - j : 0);
                if (j) {
                    put(sm, e1, x - y);
                    put(sm, e2, x + y);
                } else {
                    put(sm, e1, x + y);
                    put(sm, e2, x - y);
                }
            }
        }
    }

    CUZK_HD void store(size_t block, unsigned tid, q16* sm) const
    {
        const unsigned E = elems();
        for (unsigned e = tid; e < E; e += threads) {
            const size_t p = pos(block, e);
            dfr v = get(sm, e);
            if (out_mode == 1) v = v * out_c;
            else if (out_mode == 2) v = v * (out_lo[p & ((size_t{1} << out_shift) - 1)] * out_hi[p >> out_shift]);
            if (out_sub) v = v - out_sub[p];
            dst[p] = v;
        }
    }
};

// The pass with its radix fixed at compile time (the kernel body). R = 3 holds
// 8 elements per thread in registers (about 130 registers unbounded); asking
// for 2 blocks of 256 threads per SM caps it at 128.
template <class F, unsigned R>
struct ntt_pass_r : ntt_pass<F> {
    static constexpr unsigned min_blocks_per_sm = R == 1 ? 1 : R == 2 ? 3 : 2;
    CUZK_HD void stage(unsigned g, size_t block, unsigned tid, q16* sm) const { this->template stage_r<R>(g, block, tid, sm); }
};

// out[i] = f·g^i (square and multiply; i below 2^16 or so).
template <class dfr>
struct ntt_pow_table {
    dfr* out;
    dfr g, f;
    CUZK_HD void operator()(size_t i) const { out[i] = f * g.pow_u64(i); }
};
// floor(log2(v)), v > 0.
CUZK_HD inline unsigned log2_floor(uint64_t v)
{
#if defined(__CUDA_ARCH__)
    return 63u - unsigned(__clzll((long long)v));
#else
    unsigned r = 0;
    while (v >>= 1) ++r;
    return r;
#endif
}
// Elements of the stage tables of a transform of 2^L: 2^L − 1 (one for L = 0).
CUZK_HD inline size_t ntt_twiddle_count(unsigned L) { return L ? (size_t{1} << L) - 1 : 1; }
// Entry i = 2^s − 1 + j of the stage tables: T_s[j] = ω^x, x = j·2^(L−1−s) < 2^(L−1),
// as lo[x mod 2^h]·hi[x >> h] (lo = ω^0 …, hi = ω^(2^h·k)).
template <class dfr>
struct ntt_stage_table {
    dfr* out;
    const dfr* lo;
    const dfr* hi;
    unsigned h, L;
    CUZK_HD void operator()(size_t i) const
    {
        const unsigned s = log2_floor(uint64_t(i) + 1);
        const size_t j = i + 1 - (size_t{1} << s);
        const size_t x = j << (L - 1 - s);
        out[i] = lo[x & ((size_t{1} << h) - 1)] * hi[x >> h];
    }
};

// Scaling of pass 0's input (coset) and of the last pass's output (inverse).
template <class dfr>
struct ntt_scaling_t {
    const dfr* in_lo = nullptr;
    const dfr* in_hi = nullptr;
    unsigned in_shift = 0;
    unsigned out_mode = 0;
    dfr out_c = dfr::one();
    const dfr* out_lo = nullptr;
    const dfr* out_hi = nullptr;
    unsigned out_shift = 0;
    // Element-wise work fused into the transform: x ← x ∘ in_mul before it,
    // y ← y − out_sub after it (after the output scaling), each on the pass
    // that reads or writes the data anyway (device arrays of 2^L; nullptr: none).
    const dfr* in_mul = nullptr;
    const dfr* out_sub = nullptr;
};
using ntt_scaling = ntt_scaling_t<dfr>;

// The twiddles a transform reads: the stage tables of stages < table_log
// (table_log = L: all of them), and for the later stages the two power
// tables of ω they are made from (lo = ω^i, i < 2^h; hi = ω^(2^h·i)).
template <class dfr>
struct ntt_twiddles {
    const dfr* table = nullptr;
    unsigned table_log = 0;
    const dfr* lo = nullptr;
    const dfr* hi = nullptr;
    unsigned h = 0;
};
// The power tables' split of the 2^(L−1) distinct powers: h = ceil((L − 1)/2).
CUZK_HD inline unsigned ntt_power_split(unsigned L) { return L / 2; }
// Elements of the power tables of a transform of 2^L (L >= 1).
CUZK_HD inline size_t ntt_power_count(unsigned L)
{
    return (size_t{1} << ntt_power_split(L)) + (size_t{1} << (L - 1 - ntt_power_split(L)));
}
// Fills the power tables of ω for a transform of 2^L at lo (ntt_power_count(L)
// elements: lo, then hi); returns h.
template <class Be, class dfr>
unsigned ntt_build_power_tables(Be& be, dfr* lo, unsigned L, const dfr& omega)
{
    const unsigned hl = L - 1;   // log of the number of distinct powers
    const unsigned h = ntt_power_split(L);
    dfr* hi = lo + (size_t{1} << h);
    dfr g = omega;
    be.each(size_t{1} << h, ntt_pow_table<dfr>{lo, g, dfr::one()});
    for (unsigned i = 0; i < h; ++i) g = g.sqr();
    be.each(size_t{1} << (hl - h), ntt_pow_table<dfr>{hi, g, dfr::one()});
    return h;
}
// Fills the stage tables tw[0 … 2^S − 1) of ω for a transform of 2^L (the
// tables of stages < S; S = L: ntt_twiddle_count(L) elements, all of them),
// from the power tables at lo (ntt_build_power_tables).
template <class Be, class dfr>
void ntt_build_stage_tables(Be& be, dfr* tw, unsigned S, unsigned L, const dfr* lo)
{
    const unsigned h = ntt_power_split(L);
    if (S) be.each((size_t{1} << S) - 1, ntt_stage_table<dfr>{tw, lo, lo + (size_t{1} << h), h, L});
}
// Fills the stage tables tw[0 … 2^L − 1) of ω (ntt_twiddle_count(L) elements),
// using tmp (>= ntt_power_count(L) elements).
template <class Be, class dfr>
void ntt_build_twiddles(Be& be, dfr* tw, unsigned L, const dfr& omega, dfr* tmp)
{
    if (L == 0) return;
    ntt_build_power_tables(be, tmp, L, omega);
    ntt_build_stage_tables(be, tw, L, L, tmp);
}

// Fills the two tables of f·g^i for i < 2^L: lo (2^h entries) and hi (2^(L−h)),
// h = ceil(L/2); returns h.
template <class Be, class dfr>
unsigned ntt_build_powers(Be& be, dfr* lo, dfr* hi, unsigned L, const dfr& g, const dfr& f)
{
    const unsigned h = (L + 1) / 2;
    be.each(size_t{1} << h, ntt_pow_table<dfr>{lo, g, f});
    dfr gh = g;
    for (unsigned i = 0; i < h; ++i) gh = gh.sqr();
    be.each(size_t{1} << (L - h), ntt_pow_table<dfr>{hi, gh, dfr::one()});
    return h;
}

struct ntt_pass_plan {
    unsigned b, k, log_t;
};
// Pass 0 takes min(L, 11) stages; the rest is split into passes of near-equal
// size, at most 8 stages each.
inline int ntt_plan(unsigned L, ntt_pass_plan* out)
{
    if (L <= ntt_block_log) {
        out[0] = {0, L, 0};
        return 1;
    }
    out[0] = {0, ntt_block_log, 0};
    int np = 1;
    unsigned rest = L - ntt_block_log, b = ntt_block_log;
    while (rest > 0) {
        const unsigned passes = (rest + ntt_max_col - 1) / ntt_max_col;
        const unsigned k = (rest + passes - 1) / passes;
        out[np++] = {b, k, ntt_block_log - k};
        b += k;
        rest -= k;
    }
    return np;
}

// The low-memory schedule's first pass: the input scalings of pass 0 at
// each element's own index, then the bit reversal, in place (the thread of
// i < rev(i) swaps the pair; i = rev(i) stays).
template <class dfr>
struct ntt_permute_scale {
    dfr* d;
    unsigned log_n;
    const dfr* in_mul;
    const dfr* in_lo;
    const dfr* in_hi;
    unsigned in_shift;
    CUZK_HD dfr scaled(size_t i) const
    {
        dfr v = d[i];
        if (in_mul) v = v * in_mul[i];
        if (in_lo) v = v * (in_lo[i & ((size_t{1} << in_shift) - 1)] * in_hi[i >> in_shift]);
        return v;
    }
    CUZK_HD void operator()(size_t i) const
    {
        const size_t r = size_t(bit_reverse32(uint32_t(i)) >> (32 - log_n));
        if (r < i) return;
        const dfr vi = scaled(i);
        if (r == i) {
            d[i] = vi;
            return;
        }
        const dfr vr = scaled(r);
        d[i] = vr;
        d[r] = vi;
    }
};

// The transform of data[0 … 2^L), L >= 1; scratch holds 2^L elements when L >
// 11, or is null for the low-memory schedule (see the top). Be provides
// each(n, body) and blocks(nblocks, threads, smem_bytes, body) running
// body.load / body.stage(s) / body.store with a barrier between phases.
template <class Be, class dfr>
void ntt_run(Be& be, dfr* data, dfr* scratch, const ntt_twiddles<dfr>& tw, unsigned L, bool inverse,
             const ntt_scaling_t<dfr>& sc, unsigned radix_log = 2)
{
    radix_log = radix_log < 1 ? 1 : radix_log > 3 ? 3 : radix_log;
    ntt_pass_plan plan[8];
    const int np = ntt_plan(L, plan);
    const bool low = !scratch && np > 1;
    if (low)
        be.each(size_t{1} << L, ntt_permute_scale<dfr>{data, L, sc.in_mul, sc.in_lo, sc.in_hi, sc.in_shift});
    for (int p = 0; p < np; ++p) {
        ntt_pass<dfr> ps{};
        ps.src = p == 0 || low ? data : scratch;
        ps.dst = p == np - 1 || low ? data : scratch;
        ps.tw = tw.table;
        ps.tw_log = tw.table_log;
        ps.tw_lo = tw.lo;
        ps.tw_hi = tw.hi;
        ps.tw_h = tw.h;
        ps.log_n = L;
        ps.b = plan[p].b;
        ps.k = plan[p].k;
        ps.log_t = plan[p].log_t;
        ps.gather = p == 0 && !low;
        ps.inverse = inverse;
        if (p == 0 && !low) {
            ps.in_lo = sc.in_lo;
            ps.in_hi = sc.in_hi;
            ps.in_shift = sc.in_shift;
            ps.in_mul = sc.in_mul;
        }
        ps.out_c = dfr::one();
        if (p == np - 1) {
            ps.out_mode = sc.out_mode;
            ps.out_c = sc.out_c;
            ps.out_lo = sc.out_lo;
            ps.out_hi = sc.out_hi;
            ps.out_shift = sc.out_shift;
            ps.out_sub = sc.out_sub;
        }
        ps.radix_log = radix_log;
        const unsigned E = ps.elems();
        // One thread per group of 2^R elements (R = radix_log), at most ntt_threads.
        const unsigned per = E >> (radix_log < ps.k ? radix_log : ps.k);
        ps.threads = per < ntt_threads ? (per ? per : 1) : ntt_threads;
        const size_t blocks = (size_t{1} << L) / E;
        const size_t smem = size_t(2) * E * sizeof(q16);
        if (radix_log == 3) be.blocks(blocks, ps.threads, smem, ntt_pass_r<dfr, 3>{ps});
        else if (radix_log == 2) be.blocks(blocks, ps.threads, smem, ntt_pass_r<dfr, 2>{ps});
        else be.blocks(blocks, ps.threads, smem, ntt_pass_r<dfr, 1>{ps});
    }
}

} // namespace cuzk::dev
