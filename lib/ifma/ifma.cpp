// cuzk — the AVX-512 IFMA kernels of ifma.hpp. Every function that uses
// the vector instructions carries the target attribute itself; nothing in
// this file instantiates a template shared with other files, so no code
// compiled for AVX-512 can be picked by the linker for a caller elsewhere.
#include "ifma.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#define CUZK_IFMA_BUILD 1
// GCC 12's AVX-512 headers start some intrinsics from a deliberately
// undefined vector and then warn about it (GCC bug 105593).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>
#else
#define CUZK_IFMA_BUILD 0
#endif

namespace cuzk::ifma {

#if CUZK_IFMA_BUILD

bool available() noexcept
{
    static const bool ok = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma");
    }();
    return ok;
}

#define CUZK_IFMA_TARGET __attribute__((target("avx512f,avx512ifma")))

namespace {

using vec = __m512i;

// Eight field elements of L limbs, limb i of every lane in l[i] (< 2^52
// each). W: the scalar code's 64-bit words per element.
template <int L>
struct fe {
    vec l[L];
};

template <int L>
struct consts {
    vec p[L], pinv, mask;
};

template <int L>
CUZK_IFMA_TARGET inline consts<L> load_consts(const field52& f)
{
    consts<L> k;
    for (int i = 0; i < L; ++i) k.p[i] = _mm512_set1_epi64(int64_t(f.p[i]));
    k.pinv = _mm512_set1_epi64(int64_t(f.pinv));
    k.mask = _mm512_set1_epi64(int64_t((uint64_t{1} << 52) - 1));
    return k;
}

template <int L>
CUZK_IFMA_TARGET inline fe<L> splat(const uint64_t* v)
{
    fe<L> r;
    for (int i = 0; i < L; ++i) r.l[i] = _mm512_set1_epi64(int64_t(v[i]));
    return r;
}

// t − p when that does not borrow, else t (t < 2p, limbs < 2^52).
template <int L>
CUZK_IFMA_TARGET inline fe<L> reduce_once(const vec (&t)[L], const consts<L>& k)
{
    vec d[L], borrow = _mm512_setzero_si512();
    for (int i = 0; i < L; ++i) {
        d[i] = _mm512_add_epi64(_mm512_sub_epi64(t[i], k.p[i]), borrow);
        borrow = _mm512_srai_epi64(d[i], 52);   // 0 or −1
        d[i] = _mm512_and_si512(d[i], k.mask);
    }
    const __mmask8 keep_t = _mm512_cmpneq_epi64_mask(borrow, _mm512_setzero_si512());
    fe<L> r;
    for (int i = 0; i < L; ++i) r.l[i] = _mm512_mask_blend_epi64(keep_t, d[i], t[i]);
    return r;
}

// a·b·2^−52L mod p, operand scanning: per limb b_i, t += a·b_i, then
// m = t_0·(−p⁻¹) mod 2^52 and t = (t + m·p)/2^52. Each accumulator takes at
// most four products below 2^52 per step plus carries, far below 2^64; the
// result is < 2p before the final subtraction.
template <int L>
CUZK_IFMA_TARGET inline fe<L> mul(const fe<L>& a, const fe<L>& b, const consts<L>& k)
{
    const vec z = _mm512_setzero_si512();
    vec t[L + 1];
    for (int j = 0; j <= L; ++j) t[j] = z;
    for (int i = 0; i < L; ++i) {
        const vec bi = b.l[i];
        for (int j = 0; j < L; ++j) {
            t[j] = _mm512_madd52lo_epu64(t[j], a.l[j], bi);
            t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], a.l[j], bi);
        }
        const vec m = _mm512_madd52lo_epu64(z, t[0], k.pinv);
        for (int j = 0; j < L; ++j) {
            t[j] = _mm512_madd52lo_epu64(t[j], m, k.p[j]);
            t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], m, k.p[j]);
        }
        t[1] = _mm512_add_epi64(t[1], _mm512_srli_epi64(t[0], 52));
        for (int j = 0; j < L; ++j) t[j] = t[j + 1];
        t[L] = z;
    }
    vec n[L];
    vec carry = z;
    for (int j = 0; j < L; ++j) {
        const vec s = _mm512_add_epi64(t[j], carry);
        carry = _mm512_srli_epi64(s, 52);
        n[j] = _mm512_and_si512(s, k.mask);
    }
    return reduce_once(n, k);
}

// a − b mod p (both < p).
template <int L>
CUZK_IFMA_TARGET inline fe<L> sub(const fe<L>& a, const fe<L>& b, const consts<L>& k)
{
    vec d[L], borrow = _mm512_setzero_si512();
    for (int i = 0; i < L; ++i) {
        d[i] = _mm512_add_epi64(_mm512_sub_epi64(a.l[i], b.l[i]), borrow);
        borrow = _mm512_srai_epi64(d[i], 52);
        d[i] = _mm512_and_si512(d[i], k.mask);
    }
    const __mmask8 wrap = _mm512_cmpneq_epi64_mask(borrow, _mm512_setzero_si512());
    vec carry = _mm512_setzero_si512();
    fe<L> r;
    for (int i = 0; i < L; ++i) {
        const vec s = _mm512_add_epi64(_mm512_add_epi64(d[i], k.p[i]), carry);
        carry = _mm512_srli_epi64(s, 52);
        r.l[i] = _mm512_mask_blend_epi64(wrap, d[i], _mm512_and_si512(s, k.mask));
    }
    return r;
}

// a + b mod p (both < p).
template <int L>
CUZK_IFMA_TARGET inline fe<L> add(const fe<L>& a, const fe<L>& b, const consts<L>& k)
{
    vec s[L], carry = _mm512_setzero_si512();
    for (int i = 0; i < L; ++i) {
        s[i] = _mm512_add_epi64(_mm512_add_epi64(a.l[i], b.l[i]), carry);
        carry = _mm512_srli_epi64(s[i], 52);
        s[i] = _mm512_and_si512(s[i], k.mask);
    }
    return reduce_once(s, k);
}

// W 64-bit words → L 52-bit limbs (limb i holds bits [52i, 52i + 52)), and
// back; the values fit in 52·L bits.
template <int L, int W>
CUZK_IFMA_TARGET inline fe<L> from_words(const vec (&w)[W], const consts<L>& k)
{
    fe<L> r;
    for (int i = 0; i < L; ++i) {
        const int bit = 52 * i, word = bit / 64, off = bit % 64;
        vec v = word < W ? _mm512_srli_epi64(w[word], unsigned(off)) : _mm512_setzero_si512();
        if (off > 12 && word + 1 < W) v = _mm512_or_si512(v, _mm512_slli_epi64(w[word + 1], unsigned(64 - off)));
        r.l[i] = _mm512_and_si512(v, k.mask);
    }
    return r;
}

template <int L, int W>
CUZK_IFMA_TARGET inline void to_words(const fe<L>& a, vec (&w)[W])
{
    for (int j = 0; j < W; ++j) {
        vec v = _mm512_setzero_si512();
        for (int i = 0; i < L; ++i) {
            const int shift = 52 * i - 64 * j;   // limb i's bit 0 within word j
            if (shift >= 0 && shift < 64) v = _mm512_or_si512(v, _mm512_slli_epi64(a.l[i], unsigned(shift)));
            else if (shift < 0 && shift > -52) v = _mm512_or_si512(v, _mm512_srli_epi64(a.l[i], unsigned(-shift)));
        }
        w[j] = v;
    }
}

// The element at address lane + off (bytes) of each lane's pointer.
template <int L, int W>
CUZK_IFMA_TARGET inline fe<L> gather(vec addr, int off, const consts<L>& k)
{
    vec w[W];
    for (int i = 0; i < W; ++i)
        w[i] = _mm512_i64gather_epi64(_mm512_add_epi64(addr, _mm512_set1_epi64(off + 8 * i)), nullptr, 1);
    return from_words<L, W>(w, k);
}

template <int L, int W>
CUZK_IFMA_TARGET inline void scatter(vec addr, int off, const fe<L>& a)
{
    vec w[W];
    to_words<L, W>(a, w);
    for (int i = 0; i < W; ++i)
        _mm512_i64scatter_epi64(nullptr, _mm512_add_epi64(addr, _mm512_set1_epi64(off + 8 * i)), w[i], 1);
}

// Per group of eight additions, kept between the two passes of batch_add.
template <int L>
struct group {
    fe<L> dx, dy, ax, ay, sx, pre;   // sx = x(B) + x(P)
};

template <int L, int W>
CUZK_IFMA_TARGET void convert_impl(const field52& f, uint64_t* v, size_t n, size_t stride, bool to_vec)
{
    const consts<L> k = load_consts<L>(f);
    const fe<L> c = splat<L>(to_vec ? f.to_vec : f.to_std);
    const int64_t sb = int64_t(stride * 8);
    const vec lane = _mm512_set_epi64(7 * sb, 6 * sb, 5 * sb, 4 * sb, 3 * sb, 2 * sb, sb, 0);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const vec addr = _mm512_add_epi64(lane, _mm512_set1_epi64(int64_t(reinterpret_cast<uintptr_t>(v + i * stride))));
        scatter<L, W>(addr, 0, mul(gather<L, W>(addr, 0, k), c, k));
    }
    if (i == n) return;
    // The tail through a buffer of eight (unused lanes hold zero).
    uint64_t buf[8][W] = {};
    for (size_t j = i; j < n; ++j)
        for (int w = 0; w < W; ++w) buf[j - i][w] = v[j * stride + w];
    convert_impl<L, W>(f, &buf[0][0], 8, W, to_vec);
    for (size_t j = i; j < n; ++j)
        for (int w = 0; w < W; ++w) v[j * stride + w] = buf[j - i][w];
}

template <int L, int W>
CUZK_IFMA_TARGET void batch_add_impl(const field52& f, const batch& b, uint64_t* scratch, invert8_fn invert8,
                                     const void* ctx)
{
    const consts<L> k = load_consts<L>(f);
    auto* g = reinterpret_cast<group<L>*>((reinterpret_cast<uintptr_t>(scratch) + 63) & ~uintptr_t{63});
    const size_t groups = b.n / 8;
    constexpr int yoff = 8 * W;   // y follows x
    fe<L> acc = splat<L>(f.one);
    // Forward: the differences, and per lane the prefix products of dx.
    for (size_t q = 0; q < groups; ++q) {
        const vec pa = _mm512_loadu_si512(b.pt + 8 * q), ba = _mm512_loadu_si512(b.bk + 8 * q);
        __mmask8 neg = 0;
        for (int i = 0; i < 8; ++i) neg = __mmask8(neg | (b.neg[8 * q + i] ? 1u << i : 0u));
        const fe<L> px = gather<L, W>(pa, 0, k), ax = gather<L, W>(ba, 0, k);
        fe<L> py = gather<L, W>(pa, yoff, k);
        const fe<L> ny = sub(fe<L>{}, py, k);
        for (int i = 0; i < L; ++i) py.l[i] = _mm512_mask_blend_epi64(neg, py.l[i], ny.l[i]);
        group<L>& gr = g[q];
        gr.ax = ax;
        gr.ay = gather<L, W>(ba, yoff, k);
        gr.dx = sub(px, ax, k);
        gr.dy = sub(py, gr.ay, k);
        gr.sx = add(ax, px, k);
        gr.pre = acc;
        acc = mul(acc, gr.dx, k);
    }
    // The eight lane products inverted together by the caller.
    {
        vec w[W];
        to_words<L, W>(acc, w);
        alignas(64) uint64_t col[W][8];
        uint64_t lanes[8][6] = {};
        for (int i = 0; i < W; ++i) _mm512_store_si512(col[i], w[i]);
        for (int j = 0; j < 8; ++j)
            for (int i = 0; i < W; ++i) lanes[j][i] = col[i][j];
        invert8(lanes, ctx);
        for (int j = 0; j < 8; ++j)
            for (int i = 0; i < W; ++i) col[i][j] = lanes[j][i];
        for (int i = 0; i < W; ++i) w[i] = _mm512_load_si512(col[i]);
        acc = from_words<L, W>(w, k);
    }
    // Backward: 1/dx = pre·(Π_{≤} dx)⁻¹, then λ = dy/dx, x3 = λ² − x(B) − x(P),
    // y3 = λ·(x(B) − x3) − y(B).
    fe<L> inv = acc;
    for (size_t q = groups; q-- > 0;) {
        const group<L>& gr = g[q];
        const fe<L> ij = mul(inv, gr.pre, k);
        inv = mul(inv, gr.dx, k);
        const fe<L> lambda = mul(gr.dy, ij, k);
        const fe<L> x3 = sub(mul(lambda, lambda, k), gr.sx, k);
        const fe<L> y3 = sub(mul(lambda, sub(gr.ax, x3, k), k), gr.ay, k);
        const vec ba = _mm512_loadu_si512(b.bk + 8 * q);
        scatter<L, W>(ba, 0, x3);
        scatter<L, W>(ba, yoff, y3);
    }
}

} // namespace

void convert(const field52& f, uint64_t* v, size_t n, size_t stride, bool to_vec)
{
    if (f.limbs == 5) convert_impl<5, 4>(f, v, n, stride, to_vec);
    else convert_impl<8, 6>(f, v, n, stride, to_vec);
}

void batch_add(const field52& f, const batch& b, uint64_t* scratch, invert8_fn invert8, const void* ctx)
{
    if (f.limbs == 5) batch_add_impl<5, 4>(f, b, scratch, invert8, ctx);
    else batch_add_impl<8, 6>(f, b, scratch, invert8, ctx);
}

#else

bool available() noexcept { return false; }
void convert(const field52&, uint64_t*, size_t, size_t, bool) {}
void batch_add(const field52&, const batch&, uint64_t*, invert8_fn, const void*) {}

#endif

} // namespace cuzk::ifma
