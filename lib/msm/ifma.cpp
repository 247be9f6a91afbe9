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

namespace cuzk::msm_detail::ifma {

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

// Eight field elements, limb i of every lane in l[i] (< 2^52 each).
struct fe {
    vec l[5];
};

struct consts {
    vec p[5], pinv, mask;
};

CUZK_IFMA_TARGET inline consts load_consts(const field52& f)
{
    consts k;
    for (int i = 0; i < 5; ++i) k.p[i] = _mm512_set1_epi64(int64_t(f.p[i]));
    k.pinv = _mm512_set1_epi64(int64_t(f.pinv));
    k.mask = _mm512_set1_epi64(int64_t((uint64_t{1} << 52) - 1));
    return k;
}

CUZK_IFMA_TARGET inline fe splat(const uint64_t (&v)[5])
{
    fe r;
    for (int i = 0; i < 5; ++i) r.l[i] = _mm512_set1_epi64(int64_t(v[i]));
    return r;
}

// t − p when that does not borrow, else t (t < 2p, limbs < 2^52).
CUZK_IFMA_TARGET inline fe reduce_once(const vec (&t)[5], const consts& k)
{
    vec d[5], borrow = _mm512_setzero_si512();
    for (int i = 0; i < 5; ++i) {
        d[i] = _mm512_add_epi64(_mm512_sub_epi64(t[i], k.p[i]), borrow);
        borrow = _mm512_srai_epi64(d[i], 52);   // 0 or −1
        d[i] = _mm512_and_si512(d[i], k.mask);
    }
    const __mmask8 keep_t = _mm512_cmpneq_epi64_mask(borrow, _mm512_setzero_si512());
    fe r;
    for (int i = 0; i < 5; ++i) r.l[i] = _mm512_mask_blend_epi64(keep_t, d[i], t[i]);
    return r;
}

// a·b·2^−260 mod p, operand scanning: per limb b_i, t += a·b_i, then
// m = t_0·(−p⁻¹) mod 2^52 and t = (t + m·p)/2^52. Each accumulator takes at
// most four products below 2^52 per step plus carries, far below 2^64; the
// result is < 2p before the final subtraction.
CUZK_IFMA_TARGET inline fe mul(const fe& a, const fe& b, const consts& k)
{
    const vec z = _mm512_setzero_si512();
    vec t[6] = {z, z, z, z, z, z};
    for (int i = 0; i < 5; ++i) {
        const vec bi = b.l[i];
        for (int j = 0; j < 5; ++j) {
            t[j] = _mm512_madd52lo_epu64(t[j], a.l[j], bi);
            t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], a.l[j], bi);
        }
        const vec m = _mm512_madd52lo_epu64(z, t[0], k.pinv);
        for (int j = 0; j < 5; ++j) {
            t[j] = _mm512_madd52lo_epu64(t[j], m, k.p[j]);
            t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], m, k.p[j]);
        }
        t[1] = _mm512_add_epi64(t[1], _mm512_srli_epi64(t[0], 52));
        for (int j = 0; j < 5; ++j) t[j] = t[j + 1];
        t[5] = z;
    }
    vec n[5];
    vec carry = z;
    for (int j = 0; j < 5; ++j) {
        const vec s = _mm512_add_epi64(t[j], carry);
        carry = _mm512_srli_epi64(s, 52);
        n[j] = _mm512_and_si512(s, k.mask);
    }
    return reduce_once(n, k);
}

// a − b mod p (both < p).
CUZK_IFMA_TARGET inline fe sub(const fe& a, const fe& b, const consts& k)
{
    vec d[5], borrow = _mm512_setzero_si512();
    for (int i = 0; i < 5; ++i) {
        d[i] = _mm512_add_epi64(_mm512_sub_epi64(a.l[i], b.l[i]), borrow);
        borrow = _mm512_srai_epi64(d[i], 52);
        d[i] = _mm512_and_si512(d[i], k.mask);
    }
    const __mmask8 wrap = _mm512_cmpneq_epi64_mask(borrow, _mm512_setzero_si512());
    vec carry = _mm512_setzero_si512();
    fe r;
    for (int i = 0; i < 5; ++i) {
        const vec s = _mm512_add_epi64(_mm512_add_epi64(d[i], k.p[i]), carry);
        carry = _mm512_srli_epi64(s, 52);
        r.l[i] = _mm512_mask_blend_epi64(wrap, d[i], _mm512_and_si512(s, k.mask));
    }
    return r;
}

// a + b mod p (both < p).
CUZK_IFMA_TARGET inline fe add(const fe& a, const fe& b, const consts& k)
{
    vec s[5], carry = _mm512_setzero_si512();
    for (int i = 0; i < 5; ++i) {
        s[i] = _mm512_add_epi64(_mm512_add_epi64(a.l[i], b.l[i]), carry);
        carry = _mm512_srli_epi64(s[i], 52);
        s[i] = _mm512_and_si512(s[i], k.mask);
    }
    return reduce_once(s, k);
}

// Four 64-bit limbs → five 52-bit limbs, and back.
CUZK_IFMA_TARGET inline fe from_words(const vec (&w)[4], const consts& k)
{
    fe r;
    r.l[0] = _mm512_and_si512(w[0], k.mask);
    r.l[1] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w[0], 52), _mm512_slli_epi64(w[1], 12)), k.mask);
    r.l[2] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w[1], 40), _mm512_slli_epi64(w[2], 24)), k.mask);
    r.l[3] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w[2], 28), _mm512_slli_epi64(w[3], 36)), k.mask);
    r.l[4] = _mm512_srli_epi64(w[3], 16);
    return r;
}

CUZK_IFMA_TARGET inline void to_words(const fe& a, vec (&w)[4])
{
    w[0] = _mm512_or_si512(a.l[0], _mm512_slli_epi64(a.l[1], 52));
    w[1] = _mm512_or_si512(_mm512_srli_epi64(a.l[1], 12), _mm512_slli_epi64(a.l[2], 40));
    w[2] = _mm512_or_si512(_mm512_srli_epi64(a.l[2], 24), _mm512_slli_epi64(a.l[3], 28));
    w[3] = _mm512_or_si512(_mm512_srli_epi64(a.l[3], 36), _mm512_slli_epi64(a.l[4], 16));
}

// The element at address lane + off (bytes) of each lane's pointer.
CUZK_IFMA_TARGET inline fe gather(vec addr, int off, const consts& k)
{
    vec w[4];
    for (int i = 0; i < 4; ++i)
        w[i] = _mm512_i64gather_epi64(_mm512_add_epi64(addr, _mm512_set1_epi64(off + 8 * i)), nullptr, 1);
    return from_words(w, k);
}

CUZK_IFMA_TARGET inline void scatter(vec addr, int off, const fe& a)
{
    vec w[4];
    to_words(a, w);
    for (int i = 0; i < 4; ++i)
        _mm512_i64scatter_epi64(nullptr, _mm512_add_epi64(addr, _mm512_set1_epi64(off + 8 * i)), w[i], 1);
}

// Per group of eight additions, kept between the two passes of batch_add.
struct group {
    fe dx, dy, ax, ay, sx, pre;   // sx = x(B) + x(P)
};

CUZK_IFMA_TARGET void convert_impl(const field52& f, uint64_t* v, size_t n, size_t stride, bool to_vec)
{
    const consts k = load_consts(f);
    const fe c = splat(to_vec ? f.to_vec : f.to_std);
    const int64_t sb = int64_t(stride * 8);
    const vec lane = _mm512_set_epi64(7 * sb, 6 * sb, 5 * sb, 4 * sb, 3 * sb, 2 * sb, sb, 0);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const vec addr = _mm512_add_epi64(lane, _mm512_set1_epi64(int64_t(reinterpret_cast<uintptr_t>(v + i * stride))));
        scatter(addr, 0, mul(gather(addr, 0, k), c, k));
    }
    if (i == n) return;
    // The tail through a buffer of eight (unused lanes hold zero).
    uint64_t buf[8][4] = {};
    for (size_t j = i; j < n; ++j)
        for (int w = 0; w < 4; ++w) buf[j - i][w] = v[j * stride + w];
    convert_impl(f, &buf[0][0], 8, 4, to_vec);
    for (size_t j = i; j < n; ++j)
        for (int w = 0; w < 4; ++w) v[j * stride + w] = buf[j - i][w];
}

CUZK_IFMA_TARGET void batch_add_impl(const field52& f, const batch& b, uint64_t* scratch, invert8_fn invert8,
                                     const void* ctx)
{
    const consts k = load_consts(f);
    auto* g = reinterpret_cast<group*>((reinterpret_cast<uintptr_t>(scratch) + 63) & ~uintptr_t{63});
    const size_t groups = b.n / 8;
    fe acc = splat(f.one);
    // Forward: the differences, and per lane the prefix products of dx.
    for (size_t q = 0; q < groups; ++q) {
        const vec pa = _mm512_loadu_si512(b.pt + 8 * q), ba = _mm512_loadu_si512(b.bk + 8 * q);
        __mmask8 neg = 0;
        for (int i = 0; i < 8; ++i) neg = __mmask8(neg | (b.neg[8 * q + i] ? 1u << i : 0u));
        const fe px = gather(pa, 0, k), ax = gather(ba, 0, k);
        fe py = gather(pa, 32, k);
        const fe ny = sub(fe{}, py, k);
        for (int i = 0; i < 5; ++i) py.l[i] = _mm512_mask_blend_epi64(neg, py.l[i], ny.l[i]);
        group& gr = g[q];
        gr.ax = ax;
        gr.ay = gather(ba, 32, k);
        gr.dx = sub(px, ax, k);
        gr.dy = sub(py, gr.ay, k);
        gr.sx = add(ax, px, k);
        gr.pre = acc;
        acc = mul(acc, gr.dx, k);
    }
    // The eight lane products inverted together by the caller.
    alignas(64) uint64_t lanes[8][4];
    {
        vec w[4];
        to_words(acc, w);
        alignas(64) uint64_t col[4][8];
        for (int i = 0; i < 4; ++i) _mm512_store_si512(col[i], w[i]);
        for (int j = 0; j < 8; ++j)
            for (int i = 0; i < 4; ++i) lanes[j][i] = col[i][j];
        invert8(lanes, ctx);
        for (int j = 0; j < 8; ++j)
            for (int i = 0; i < 4; ++i) col[i][j] = lanes[j][i];
        for (int i = 0; i < 4; ++i) w[i] = _mm512_load_si512(col[i]);
        acc = from_words(w, k);
    }
    // Backward: 1/dx = pre·(Π_{≤} dx)⁻¹, then λ = dy/dx, x3 = λ² − x(B) − x(P),
    // y3 = λ·(x(B) − x3) − y(B).
    fe inv = acc;
    for (size_t q = groups; q-- > 0;) {
        const group& gr = g[q];
        const fe ij = mul(inv, gr.pre, k);
        inv = mul(inv, gr.dx, k);
        const fe lambda = mul(gr.dy, ij, k);
        const fe x3 = sub(mul(lambda, lambda, k), gr.sx, k);
        const fe y3 = sub(mul(lambda, sub(gr.ax, x3, k), k), gr.ay, k);
        const vec ba = _mm512_loadu_si512(b.bk + 8 * q);
        scatter(ba, 0, x3);
        scatter(ba, 32, y3);
    }
}

} // namespace

void convert(const field52& f, uint64_t* v, size_t n, size_t stride, bool to_vec)
{
    convert_impl(f, v, n, stride, to_vec);
}

void batch_add(const field52& f, const batch& b, uint64_t* scratch, invert8_fn invert8, const void* ctx)
{
    batch_add_impl(f, b, scratch, invert8, ctx);
}

#else

bool available() noexcept { return false; }
void convert(const field52&, uint64_t*, size_t, size_t, bool) {}
void batch_add(const field52&, const batch&, uint64_t*, invert8_fn, const void*) {}

#endif

} // namespace cuzk::msm_detail::ifma
