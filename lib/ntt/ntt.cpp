// cuzk — multi-threaded radix-2 NTT over a scalar field (BLS12-381's or
// BN254's Fr; see include/cuzk/ntt/ntt.hpp).
//
// Schedule (natural order in and out):
//   1. bit_reverse(a)                         one permutation pass, n/2 swaps at most
//   2. decimation-in-time butterflies, stage s = 0 … log n − 1 pairs a[i] and
//      a[i + 2^s] (bit s of i clear) with the twiddle ω_{2^(s+1)}^j, j = i mod 2^s,
//      read from the one table ω^k (0 <= k < n/2) at k = j·2^(log n − 1 − s).
// Each public transform promises natural order on both sides, so it pays for
// the permutation. values_on_coset chains an inverse and a forward transform
// without exposing the coefficients between them: there the inverse runs as
// decimation in frequency (the transposed butterflies (x + y, (x − y)·w) in
// reverse stage order, natural order in, bit-reversed out) and the forward DIT
// takes its output as it is, so neither bit reversal is needed.
//
// Cost: n/2·log n butterflies of one Fr multiplication and one addition and
// subtraction each; the butterflies with twiddle 1 (j = 0: n/2 + n/4 + … ≈ n
// of them) skip the multiplication. intt adds n multiplications for 1/n,
// coset variants add 2n for the powers of the shift.
//
// Cache schedule: the stages are grouped into passes, each pass touching the
// array once.
//   - Pass 0 covers stages 0 … B−1 (B = min(log n, block_log)). Butterflies of
//     those stages stay inside aligned blocks of 2^B elements, so each block
//     is an independent sub-NTT that one thread finishes in cache.
//   - Each later pass covers up to col_log consecutive stages b … b+K−1. Those
//     butterflies only pair indices that differ in bits b … b+K−1, so the array
//     splits into independent "columns" of 2^K elements at stride 2^b. A work
//     unit is a tile of 2^tile_log neighbouring columns (2^K rows of
//     2^tile_log contiguous elements = 2^block_log elements again), so every
//     row is a few whole cache lines.
// For 2^20 this is two passes instead of twenty, for 2^27 three.
// Threads split the blocks / tiles of a pass; passes are separated by the
// join of the fork/join helper (util/parallel.hpp).
//
// Inverse: ω^−k = −ω^(n/2 − k) for 0 < k < n/2, so the inverse butterfly
// computes t = v·ω^(n/2 − k) and writes (u − t, u + t) instead of (u + t, u − t);
// k = 0 uses twiddle 1 in both directions. One table serves both.
#include "cuzk/ntt/ntt.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <new>
#include <utility>
#include <vector>

#include "cuzk/error.hpp"
#include "cuzk/util/parallel.hpp"

namespace cuzk {

namespace {

constexpr unsigned block_log = 12;   // 2^12 Fr = 128 KiB per block / tile (fits L2)
constexpr unsigned tile_log = 3;     // 8 contiguous elements = 256 B per tile row
constexpr unsigned col_log = block_log - tile_log;
constexpr size_t parallel_min = size_t{1} << 12;   // below this, one thread

// Runs fn(begin, end) over [0, units) on `threads` threads, or inline when
// that is one or the transform is small (n < parallel_min). The units are cut
// into about 4 contiguous chunks per worker, handed out dynamically, so a
// worker slowed by a busy machine does not hold up the pass. Which worker
// runs a chunk never changes the result.
template <class Fn>
void run(unsigned threads, size_t units, size_t n, const Fn& fn)
{
    if (units == 0) return;
    const unsigned workers = resolve_threads(threads);
    if (n < parallel_min || units == 1 || workers == 1) {
        fn(size_t{0}, units);
        return;
    }
    const size_t chunks = std::min<size_t>(units, size_t{4} * workers);
    parallel_tasks(workers, chunks, [&](size_t c, unsigned) { fn(units * c / chunks, units * (c + 1) / chunks); });
}

bool is_pow2(size_t n) { return n != 0 && (n & (n - 1)) == 0; }

unsigned log2_exact(size_t n)
{
    return n <= 1 ? 0u : 63u - static_cast<unsigned>(__builtin_clzll(n));
}

template <class F>
void check_size(std::span<F> a, const ntt_domain_t<F>& d, const char* fn)
{
    if (a.size() != d.size())
        throw error(errc::invalid_argument,
                    fmt::format("{}: input has {} elements but the domain has size {} (2^{})", fn, a.size(),
                                d.size(), d.log_size()));
}

// Reverse the low `bits` bits of i (bits >= 1).
inline size_t reverse_bits(size_t i, unsigned bits)
{
    uint64_t x = i;
    x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
    x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
    x = ((x >> 4) & 0x0f0f0f0f0f0f0f0full) | ((x & 0x0f0f0f0f0f0f0f0full) << 4);
    x = __builtin_bswap64(x);
    return static_cast<size_t>(x >> (64 - bits));
}

// One butterfly: (a[i], a[i+m]) <- (u + v·w, u − v·w) with w = ω^{±k}, k > 0.
template <bool Inv, class F>
CUZK_INLINE void butterfly(F& x, F& y, const F* tw, size_t half, size_t k)
{
    const F u = x;
    if constexpr (!Inv) {
        const F t = y * tw[k];
        x = u + t;
        y = u - t;
    } else {
        const F t = y * tw[half - k];   // v·ω^−k = −t
        x = u - t;
        y = u + t;
    }
}
template <class F>
CUZK_INLINE void butterfly_one(F& x, F& y)
{
    const F u = x;
    x = u + y;
    y = u - y;
}
// The transposed butterfly of decimation in frequency: (x, y) <- (x + y, (x − y)·w),
// w = ω^{±k}, k > 0 (for the inverse, (x − y)·ω^−k = (y − x)·ω^(n/2 − k)).
template <bool Inv, class F>
CUZK_INLINE void butterfly_dif(F& x, F& y, const F* tw, size_t half, size_t k)
{
    const F u = x;
    x = u + y;
    if constexpr (!Inv)
        y = (u - y) * tw[k];
    else
        y = (y - u) * tw[half - k];
}
// One butterfly with twiddle index k > 0, in the decimation Dif chooses.
template <bool Dif, bool Inv, class F>
CUZK_INLINE void butterfly_k(F& x, F& y, const F* tw, size_t half, size_t k)
{
    if constexpr (Dif)
        butterfly_dif<Inv>(x, y, tw, half, k);
    else
        butterfly<Inv>(x, y, tw, half, k);
}

// One stage s of the block a[0, 2^K): pairs (g + j, g + j + 2^s), twiddle
// index j·2^(log n − 1 − s).
template <bool Dif, bool Inv, class F>
void block_stage(F* blk, unsigned s, unsigned K, unsigned log_n, const F* tw, size_t half)
{
    const size_t len = size_t{1} << K;
    const size_t m = size_t{1} << s;
    const unsigned sh = log_n - 1 - s;
    for (size_t g = 0; g < len; g += 2 * m) {
        F* p = blk + g;
        butterfly_one(p[0], p[m]);
        for (size_t j = 1; j < m; ++j) butterfly_k<Dif, Inv>(p[j], p[j + m], tw, half, j << sh);
    }
}

// Stages 0 … K−1 on the aligned block a[base, base + 2^K) (decimation in
// time), or K−1 … 0 (decimation in frequency, the transposed butterflies).
template <bool Dif, bool Inv, class F>
void first_pass_block(F* a, size_t base, unsigned K, unsigned log_n, const F* tw, size_t half)
{
    F* blk = a + base;
    if constexpr (Dif)
        for (unsigned s = K; s-- > 0;) block_stage<Dif, Inv>(blk, s, K, log_n, tw, half);
    else
        for (unsigned s = 0; s < K; ++s) block_stage<Dif, Inv>(blk, s, K, log_n, tw, half);
}

// Stage b + sl on one tile: columns lo0 … lo0+T−1 (T = 2^tile_log) of the
// group whose index bits above b+K are `hi`.
template <bool Dif, bool Inv, class F>
void tile_stage(F* a, size_t base, size_t lo0, unsigned b, unsigned sl, unsigned K, unsigned log_n, const F* tw,
                size_t half)
{
    constexpr size_t T = size_t{1} << tile_log;
    const size_t rows = size_t{1} << K;
    const unsigned s = b + sl;
    const size_t m = size_t{1} << s;
    const unsigned sh = log_n - 1 - s;
    const size_t rstep = size_t{1} << sl;
    for (size_t rh = 0; rh < rows; rh += 2 * rstep) {
        for (size_t rl = 0; rl < rstep; ++rl) {
            F* row = a + base + ((rh + rl) << b);
            const size_t jbase = (rl << b) + lo0;   // j of the first element of the row
            size_t t0 = 0;
            if (jbase == 0) {
                butterfly_one(row[0], row[m]);
                t0 = 1;
            }
            for (size_t t = t0; t < T; ++t) butterfly_k<Dif, Inv>(row[t], row[t + m], tw, half, (jbase + t) << sh);
        }
    }
}

// Stages b … b+K−1 on one tile (in reverse order for decimation in frequency).
template <bool Dif, bool Inv, class F>
void column_pass_tile(F* a, size_t hi, size_t lo0, unsigned b, unsigned K, unsigned log_n, const F* tw,
                      size_t half)
{
    const size_t base = (hi << (b + K)) + lo0;
    if constexpr (Dif)
        for (unsigned sl = K; sl-- > 0;) tile_stage<Dif, Inv>(a, base, lo0, b, sl, K, log_n, tw, half);
    else
        for (unsigned sl = 0; sl < K; ++sl) tile_stage<Dif, Inv>(a, base, lo0, b, sl, K, log_n, tw, half);
}

// The passes after the first (block) one: (b, K) = stages b … b+K−1, the
// remaining log n − B stages split into passes of near-equal size, each at
// most col_log.
struct column_pass {
    unsigned b, K;
};
std::vector<column_pass> column_passes(unsigned log_n, unsigned B)
{
    std::vector<column_pass> out;
    unsigned rest = log_n - B, b = B;
    while (rest > 0) {
        const unsigned passes = (rest + col_log - 1) / col_log;
        const unsigned K = (rest + passes - 1) / passes;
        out.push_back({b, K});
        b += K;
        rest -= K;
    }
    return out;
}

unsigned block_bits(unsigned log_n) { return log_n < block_log ? log_n : block_log; }

// One column pass over the whole array, its tiles split over the threads.
template <bool Dif, bool Inv, class F>
void run_column_pass(F* p, size_t n, column_pass cp, unsigned log_n, const F* tw, unsigned threads)
{
    const size_t tiles_per_hi = (size_t{1} << cp.b) >> tile_log;
    const size_t units = (n >> (cp.b + cp.K)) * tiles_per_hi;
    run(threads, units, n, [&](size_t ub, size_t ue) {
        for (size_t u = ub; u < ue; ++u) {
            const size_t hi = u / tiles_per_hi;
            const size_t lo0 = (u % tiles_per_hi) << tile_log;
            column_pass_tile<Dif, Inv>(p, hi, lo0, cp.b, cp.K, log_n, tw, n / 2);
        }
    });
}

// The DIT butterflies of all stages on bit-reversed input.
template <bool Inv, class F>
void dit(std::span<F> a, const ntt_domain_t<F>& d, unsigned threads)
{
    const unsigned log_n = d.log_size();
    if (log_n == 0) return;
    const size_t n = a.size();
    const F* tw = d.twiddles().data();
    F* p = a.data();
    const unsigned B = block_bits(log_n);
    run(threads, n >> B, n, [&](size_t b, size_t e) {
        for (size_t u = b; u < e; ++u) first_pass_block<false, Inv>(p, u << B, B, log_n, tw, n / 2);
    });
    for (const column_pass cp : column_passes(log_n, B)) run_column_pass<false, Inv>(p, n, cp, log_n, tw, threads);
}

// a_i <- a_i · c0 · g^i.
template <class F>
void scale_powers_from(std::span<F> a, const F& c0, const F& g, unsigned threads)
{
    const size_t n = a.size();
    F* p = a.data();
    run(threads, n, n, [&](size_t b, size_t e) {
        F c = c0 * g.pow(uint64_t(b));
        for (size_t i = b; i < e; ++i) {
            p[i] *= c;
            c *= g;
        }
    });
}

template <class F>
void scale_const(std::span<F> a, const F& c, unsigned threads)
{
    const size_t n = a.size();
    F* p = a.data();
    run(threads, n, n, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) p[i] *= c;
    });
}

} // namespace

// ω_{2^s} = g^t with r − 1 = 2^s·t (t odd), then s − log_n squarings; g = 7
// (bellperson) or 5 (snarkjs). The root must be primitive: its 2^(s−1)-th
// power is −1 (g a non-residue), else the convention does not exist for F.
template <class F>
F root_of_unity_of(unsigned log_n, root_convention c)
{
    constexpr unsigned s = F::params::two_adicity;
    if (log_n > s)
        throw error(errc::invalid_argument,
                    fmt::format("root_of_unity: log_n = {} exceeds the 2-adicity {} of the scalar field", log_n, s));
    constexpr bigint<F::N> t = shr(sub_small(F::params::modulus, 1), s);
    const F w_top = F::from_u64(c == root_convention::snarkjs ? 5 : 7).pow(t);
    F half = w_top;
    for (unsigned i = 1; i < s; ++i) half = half.sqr();
    if (half != -F::one())
        throw error(errc::invalid_argument, fmt::format("root_of_unity: the {} convention's generator is a square in "
                                                        "this field (no primitive 2^{} root from it)",
                                                        c == root_convention::snarkjs ? "snarkjs" : "bellperson", s));
    F w = w_top;
    for (unsigned i = log_n; i < s; ++i) w = w.sqr();
    return w;
}

fr root_of_unity(unsigned log_n, root_convention c)
{
    static const fr w32_bellperson = root_of_unity_of<fr>(fr_params::two_adicity, root_convention::bellperson);
    static const fr w32_snarkjs = root_of_unity_of<fr>(fr_params::two_adicity, root_convention::snarkjs);
    if (log_n > fr_params::two_adicity)
        throw error(errc::invalid_argument,
                    fmt::format("root_of_unity: log_n = {} exceeds the 2-adicity 32 of Fr", log_n));
    fr w = c == root_convention::snarkjs ? w32_snarkjs : w32_bellperson;
    for (unsigned i = log_n; i < fr_params::two_adicity; ++i) w = w.sqr();
    return w;
}

template <class F>
ntt_domain_t<F>::ntt_domain_t(unsigned log_n, root_convention c, unsigned threads)
    : log_n_(log_n), conv_(c), omega_(root_of_unity_of<F>(log_n, c))   // throws for log_n > 2-adicity
{
    omega_inv_ = omega_.inverse();
    size_inv_ = F::from_u64(uint64_t{1} << log_n).inverse();
    const size_t half = size() / 2;
    try {
        tw_.resize(half);
    } catch (const std::bad_alloc&) {
        throw error(errc::out_of_memory,
                    fmt::format("ntt_domain: cannot allocate the twiddle table of 2^{} elements", log_n ? log_n - 1 : 0));
    }
    F* p = tw_.data();
    const F w = omega_;
    run(threads, half, half, [&](size_t b, size_t e) {
        F x = w.pow(uint64_t(b));
        for (size_t i = b; i < e; ++i) {
            p[i] = x;
            x *= w;
        }
    });
}

template <class F>
void bit_reverse(std::span<F> a, unsigned threads)
{
    const size_t n = a.size();
    if (n != 0 && !is_pow2(n))
        throw error(errc::invalid_argument,
                    fmt::format("bit_reverse: size {} is not a power of two", n));
    if (n <= 2) return;
    const unsigned bits = log2_exact(n);
    F* p = a.data();
    // Each pair {i, rev(i)} is swapped by the thread that owns the smaller index.
    run(threads, n, n, [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) {
            const size_t j = reverse_bits(i, bits);
            if (i < j) std::swap(p[i], p[j]);
        }
    });
}

template <class F>
void scale_by_powers(std::type_identity_t<std::span<F>> a, const F& g, unsigned threads)
{
    scale_powers_from<F>(a, F::one(), g, threads);
}

template <class F>
void ntt(std::type_identity_t<std::span<F>> a, const ntt_domain_t<F>& d, unsigned threads)
{
    check_size<F>(a, d, "ntt");
    bit_reverse<F>(a, threads);
    dit<false, F>(a, d, threads);
}

template <class F>
void intt(std::type_identity_t<std::span<F>> a, const ntt_domain_t<F>& d, unsigned threads)
{
    check_size<F>(a, d, "intt");
    bit_reverse<F>(a, threads);
    dit<true, F>(a, d, threads);
    scale_const<F>(a, d.size_inv(), threads);
}

// Σ_j a_j (s·ω^i)^j = Σ_j (a_j s^j) ω^{ij}: scale, then transform.
template <class F>
void coset_ntt(std::type_identity_t<std::span<F>> a, const ntt_domain_t<F>& d, const F& shift, unsigned threads)
{
    check_size<F>(a, d, "coset_ntt");
    scale_powers_from<F>(a, F::one(), shift, threads);
    bit_reverse<F>(a, threads);
    dit<false, F>(a, d, threads);
}

// Inverse transform gives a_j s^j; multiply by (1/n)·s^−j (1/n folded in).
template <class F>
void coset_intt(std::type_identity_t<std::span<F>> a, const ntt_domain_t<F>& d, const F& shift, unsigned threads)
{
    check_size<F>(a, d, "coset_intt");
    if (shift.is_zero()) throw error(errc::invalid_argument, "coset_intt: the coset shift is zero");
    bit_reverse<F>(a, threads);
    dit<true, F>(a, d, threads);
    scale_powers_from<F>(a, d.size_inv(), shift.inverse(), threads);
}

namespace {

// v[l] = y^rev(l) for 0 <= l < 2^bits.
template <class F>
std::vector<F> bit_reversed_powers(const F& y, unsigned bits)
{
    std::vector<F> v(size_t{1} << bits);
    v[0] = F::one();
    for (size_t j = 1; j < v.size(); ++j) v[j] = v[j - 1] * y;
    bit_reverse<F>(v, 1);
    return v;
}

} // namespace

// Three sweeps of the array instead of intt's and coset_ntt's eight (two of
// them bit reversals):
//   1. the inverse transform's column passes as decimation in frequency, top
//      stages first;
//   2. per block of 2^B: the inverse's block stages (DIF), after which
//      position i holds n·(coefficient rev(i)); position i times
//      (1/n)·shift^rev(i); the forward transform's block stages (DIT), which
//      read their input in bit-reversed order;
//   3. the forward transform's column passes.
// With i = u·2^B + l, rev(i) = rev_B(l)·2^(log n − B) + rev_(log n − B)(u),
// so the factor is y^rev_B(l) (one table of 2^B) times (1/n)·shift^rev(u)
// (one per block), y = shift^(2^(log n − B)).
template <class F>
void values_on_coset(std::type_identity_t<std::span<F>> a, const ntt_domain_t<F>& d, const F& shift,
                     unsigned threads)
{
    check_size<F>(a, d, "values_on_coset");
    const unsigned log_n = d.log_size();
    if (log_n == 0) return;   // a constant polynomial: its one value is unchanged
    const size_t n = a.size();
    const F* tw = d.twiddles().data();
    F* p = a.data();
    const unsigned B = block_bits(log_n), hb = log_n - B;
    const auto passes = column_passes(log_n, B);
    for (auto it = passes.rbegin(); it != passes.rend(); ++it) run_column_pass<true, true>(p, n, *it, log_n, tw, threads);
    const std::vector<F> lo = bit_reversed_powers(shift.pow(uint64_t{1} << hb), B);
    run(threads, n >> B, n, [&](size_t b, size_t e) {
        for (size_t u = b; u < e; ++u) {
            first_pass_block<true, true>(p, u << B, B, log_n, tw, n / 2);
            const F cu = d.size_inv() * shift.pow(uint64_t(hb ? reverse_bits(u, hb) : 0));
            F* blk = p + (u << B);
            for (size_t l = 0; l < lo.size(); ++l) blk[l] *= lo[l] * cu;
            first_pass_block<false, false>(p, u << B, B, log_n, tw, n / 2);
        }
    });
    for (const column_pass cp : passes) run_column_pass<false, false>(p, n, cp, log_n, tw, threads);
}

#define CUZK_NTT(F)                                                                                      \
    template F root_of_unity_of<F>(unsigned, root_convention);                                           \
    template class ntt_domain_t<F>;                                                                       \
    template void bit_reverse<F>(std::span<F>, unsigned);                                                 \
    template void scale_by_powers<F>(std::type_identity_t<std::span<F>>, const F&, unsigned);            \
    template void ntt<F>(std::type_identity_t<std::span<F>>, const ntt_domain_t<F>&, unsigned);          \
    template void intt<F>(std::type_identity_t<std::span<F>>, const ntt_domain_t<F>&, unsigned);         \
    template void coset_ntt<F>(std::type_identity_t<std::span<F>>, const ntt_domain_t<F>&, const F&, unsigned); \
    template void coset_intt<F>(std::type_identity_t<std::span<F>>, const ntt_domain_t<F>&, const F&, unsigned); \
    template void values_on_coset<F>(std::type_identity_t<std::span<F>>, const ntt_domain_t<F>&, const F&, unsigned);
CUZK_NTT(fr)
CUZK_NTT(bn254::fr)
#undef CUZK_NTT

} // namespace cuzk
