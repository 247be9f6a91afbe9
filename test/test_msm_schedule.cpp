// The device MSM (kernels/msm_device.cuh: digits, sort, runs with partial
// sums, bucket reduction) run on the host: the same code, on the host
// emulation of the device field (kernels/ff_device.cuh), with a backend whose
// `each` is a loop and whose sort is std::stable_sort. The window sums are
// combined as the CUDA backend does (Horner from the top window) and compared
// with the CPU MSM for many sizes, windows and scalar patterns, so a change to
// the schedule is checked on a machine without a GPU.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>
#include <vector>

#include "../kernels/msm_device.cuh"
#include "cuzk/backend/cuda.hpp"
#include "cuzk/msm/msm.hpp"
#include "gmp_util.hpp"
#include "test_support.hpp"

using namespace cuzk;
using namespace cuzk::dev;

namespace {

// The Be interface of msm_device.cuh on the host. Slots are plain vectors;
// max_entries is small, so that the window groups of the device code are
// exercised too.
struct host_msm_be {
    std::vector<std::vector<unsigned char>> slots = std::vector<std::vector<unsigned char>>(slot_count_all);
    size_t cap = size_t{1} << 14;
    size_t affine_rounds = 0;   // rounds of msm_affine.cuh run (each asks for its count buffer once)

    template <class T>
    T* buffer(int slot, size_t count)
    {
        if (slot == slot_aff_count) ++affine_rounds;
        auto& s = slots[size_t(slot)];
        if (s.size() < count * sizeof(T) + 16) s.resize(count * sizeof(T) + 16);
        return reinterpret_cast<T*>(s.data());
    }
    void zero(void* p, size_t bytes) { std::memset(p, 0, bytes); }
    void to_host(void* dst, const void* src, size_t bytes) { std::memmove(dst, src, bytes); }
    template <class B>
    void each(size_t n, const B& body, unsigned = 256)
    {
        for (size_t i = 0; i < n; ++i) body(i);
    }
    void sort_pairs(const uint32_t* kin, uint32_t* kout, const uint32_t* vin, uint32_t* vout, size_t n, int end_bit)
    {
        const uint32_t mask = end_bit >= 32 ? ~0u : (1u << end_bit) - 1;
        std::vector<size_t> idx(n);
        std::iota(idx.begin(), idx.end(), size_t{0});
        std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return (kin[a] & mask) < (kin[b] & mask); });
        for (size_t i = 0; i < n; ++i) {
            kout[i] = kin[idx[i]];
            vout[i] = vin[idx[i]];
        }
    }
    void exclusive_sum(const uint32_t* in, uint32_t* out, size_t n)
    {
        uint32_t acc = 0;
        for (size_t i = 0; i < n; ++i) {
            const uint32_t v = in[i];
            out[i] = acc;
            acc += v;
        }
    }
    size_t max_entries() const { return cap; }
};

static_assert(sizeof(dg1_affine) == sizeof(g1_affine) && sizeof(dg1_xyzz) == sizeof(g1_xyzz));

// The device MSM on the host, window sums combined like lib/backend/cuda.cpp.
g1_jacobian emulated_msm(const std::vector<g1_affine>& p, const std::vector<fr::repr>& k, unsigned c, size_t cap,
                         bool affine = false, size_t* rounds = nullptr)
{
    host_msm_be be;
    be.cap = cap;
    const unsigned W = (255 + c) / c;
    std::vector<g1_xyzz> ws(W);
    msm_windows(be, reinterpret_cast<const dg1_affine*>(p.data()), reinterpret_cast<const uint64_t*>(k.data()),
                p.size(), c, W, reinterpret_cast<dg1_xyzz*>(ws.data()), affine);
    if (rounds) *rounds = be.affine_rounds;
    g1_jacobian acc = g1_jacobian::identity();
    for (size_t w = W; w-- > 0;) {
        if (!acc.is_identity())
            for (unsigned i = 0; i < c; ++i) acc = acc.dbl();
        acc = acc.add(ws[w].to_jacobian());
    }
    return acc;
}

// Scalars of a pattern: 0 random; 1 edge values (0, 1, r − 1, 2^k); 2 one
// scalar for all (one bucket holds everything).
std::vector<fr::repr> pattern_scalars(size_t n, int pattern, std::mt19937_64& rng)
{
    const fr::repr r_minus_1 = (fr::zero() - fr::one()).to_repr();
    std::vector<fr::repr> k(n);
    const fr same = fr::random(rng);
    for (size_t i = 0; i < n; ++i) {
        if (pattern == 0) k[i] = fr::random(rng).to_repr();
        else if (pattern == 1) {
            const auto e = rng() % 4;
            k[i] = e == 0 ? fr::zero().to_repr()
                 : e == 1 ? fr::one().to_repr()
                 : e == 2 ? r_minus_1
                          : fr::from_u64(uint64_t{1} << (rng() % 64)).to_repr();
        } else {
            k[i] = same.to_repr();
        }
    }
    return k;
}

} // namespace

TEST_CASE("device MSM schedule equals the CPU MSM (host emulation)")
{
    std::mt19937_64 rng(test::test_seed() + 70);
    struct shape {
        size_t n;
        unsigned c;
        size_t cap;   // entries per window group
    };
    // Odd sizes, windows from 1 to 11, and groups of one window or several.
    for (const shape& s : {shape{1, 4, 1 << 14}, shape{2, 2, 1 << 14}, shape{5, 1, 1 << 14}, shape{3, 5, 1 << 14},
                           shape{100, 7, 1 << 14}, shape{257, 8, 300}, shape{1000, 6, 1 << 14}, shape{1000, 10, 2500},
                           shape{2049, 11, 1 << 16}}) {
        const auto p = test::random_points<g1_affine>(s.n, rng);
        for (int pattern = 0; pattern < 3; ++pattern) {
            const std::vector<fr::repr> k = pattern_scalars(s.n, pattern, rng);
            INFO("n " << s.n << " c " << s.c << " cap " << s.cap << " pattern " << pattern);
            const g1_jacobian want = msm(std::span<const g1_affine>(p), std::span<const fr::repr>(k));
            CHECK(emulated_msm(p, k, s.c, s.cap) == want);
        }
    }
}

TEST_CASE("device MSM with batch-affine rounds equals the CPU MSM (host emulation)")
{
    std::mt19937_64 rng(test::test_seed() + 71);
    struct shape {
        size_t n;
        unsigned c;
        size_t cap;
    };
    // Full buckets (the rounds run only from 4 entries per bucket), groups of
    // one window or several; odd lengths leave a lone last entry.
    for (const shape& s : {shape{600, 3, 1 << 14}, shape{1001, 4, 1 << 16}, shape{2000, 6, 1 << 16},
                           shape{3001, 5, 8 * 3001}}) {
        auto p = test::random_points<g1_affine>(s.n, rng);
        for (int pattern = 0; pattern < 4; ++pattern) {
            std::vector<fr::repr> k(s.n);
            const fr same = fr::random(rng);
            for (size_t i = 0; i < s.n; ++i) k[i] = (pattern == 1 ? same : fr::random(rng)).to_repr();
            auto q = p;
            if (pattern == 2) {
                // Few distinct points, the identity among them: pairs of equal
                // points (tangent), of P and −P (sum the identity) and with
                // the identity, all in the same buckets.
                for (size_t i = 0; i < s.n; ++i) q[i] = i % 5 == 0 ? g1_affine::identity() : p[i % 3];
                for (size_t i = 0; i < s.n; ++i) k[i] = (i % 2 ? same : -same).to_repr();
            }
            if (pattern == 3)
                for (size_t i = 0; i < s.n; ++i) q[i] = p[i % 7];   // random scalars, repeated points
            INFO("n " << s.n << " c " << s.c << " cap " << s.cap << " pattern " << pattern);
            const g1_jacobian want = msm(std::span<const g1_affine>(q), std::span<const fr::repr>(k));
            size_t rounds = 0;
            CHECK(emulated_msm(q, k, s.c, s.cap, true, &rounds) == want);
            CHECK(rounds > 0);
            CHECK(emulated_msm(q, k, s.c, s.cap, false, &rounds) == want);
            CHECK(rounds == 0);
        }
    }
}

namespace {

// The device MSM over shifted copies (msm_table_build, msm_windows<true>) on
// the host: m copies of the points, s = ceil(W/m) rows of buckets, the row
// sums combined by Horner with c doublings between rows.
g1_jacobian emulated_table_msm(const std::vector<g1_affine>& p, const std::vector<fr::repr>& k, unsigned c,
                               unsigned m, size_t cap)
{
    host_msm_be be;
    be.cap = cap;
    const size_t n = p.size();
    const unsigned W = (255 + c) / c, s = (W + m - 1) / m;
    std::vector<g1_affine> table((m - 1) * n);
    const auto* dp = reinterpret_cast<const dg1_affine*>(p.data());
    // A direct limit of 16: the batch inversion's levels, and far fewer slow
    // inversions; pieces of 97 points: the larger shapes are built in several.
    msm_table_build(be, dp, n, s * c, m, reinterpret_cast<dg1_affine*>(table.data()), 16, 97);
    // The copies are the points times 2^(k·s·c).
    for (unsigned q = 1; q < m && n > 0; ++q) {
        fr e = fr::one();
        for (unsigned d = 0; d < q * s * c; ++d) e = e + e;
        CHECK(table[(q - 1) * n + n / 2] == scalar_mul(p[n / 2], e.to_repr()).to_affine());
    }
    msm_copies<dg1_affine> cp{reinterpret_cast<const dg1_affine*>(table.data()), s,
                              std::max(1u, bit_width_u32(uint32_t(n - 1)))};
    std::vector<g1_xyzz> rows(s);
    msm_windows<true>(be, dp, reinterpret_cast<const uint64_t*>(k.data()), n, c, W,
                      reinterpret_cast<dg1_xyzz*>(rows.data()), false, cp);
    g1_jacobian acc = g1_jacobian::identity();
    for (size_t r = s; r-- > 0;) {
        if (!acc.is_identity())
            for (unsigned i = 0; i < c; ++i) acc = acc.dbl();
        acc = acc.add(rows[r].to_jacobian());
    }
    return acc;
}

} // namespace

TEST_CASE("device MSM over shifted copies equals the CPU MSM (host emulation)")
{
    std::mt19937_64 rng(test::test_seed() + 73);
    struct shape {
        size_t n;
        unsigned c, m;   // window, copies (W = ceil(256/c) copies: one row)
        size_t cap;
    };
    // One row (m = W), several rows (m < W, the last copy with fewer
    // windows), one copy (rows = windows), groups of windows sharing rows.
    for (const shape& sh : {shape{1, 4, 64, 1 << 14}, shape{40, 7, 37, 1 << 14}, shape{257, 8, 3, 300},
                            shape{60, 6, 43, 1 << 14}, shape{500, 10, 5, 1200}, shape{700, 11, 2, 1 << 16},
                            shape{300, 9, 1, 1 << 14}}) {
        const auto p = test::random_points<g1_affine>(sh.n, rng);
        for (int pattern = 0; pattern < 3; ++pattern) {
            const std::vector<fr::repr> k = pattern_scalars(sh.n, pattern, rng);
            INFO("n " << sh.n << " c " << sh.c << " copies " << sh.m << " cap " << sh.cap << " pattern " << pattern);
            const g1_jacobian want = msm(std::span<const g1_affine>(p), std::span<const fr::repr>(k));
            CHECK(emulated_table_msm(p, k, sh.c, sh.m, sh.cap) == want);
        }
    }
}

TEST_CASE("MSM copies plan: the cost model's choice within the memory budget")
{
    const size_t n26 = size_t{1} << 26, n27 = size_t{1} << 27;
    // No budget: no copies, the plain window and one row per window.
    const auto plain = gpu_msm_table_choose(n26, 0);
    CHECK(plain.copies == 1);
    CHECK(plain.window_bits == gpu_msm_window_bits(n26, false, 255));
    CHECK(plain.rows == (256 + plain.window_bits) / plain.window_bits);
    CHECK(plain.bytes == 0);
    // Room for everything: 24-bit windows (11 of them) in one row.
    const auto full = gpu_msm_table_choose(n26, ~uint64_t{0});
    CHECK(full.window_bits == 24);
    CHECK(full.copies == 11);
    CHECK(full.rows == 1);
    CHECK(full.bytes == 10 * uint64_t(n26) * sizeof(g1_affine));
    // A budget of three copies of 2^27 points: within it, rows·copies cover
    // the windows, and it beats no copies by the model.
    const uint64_t budget = 3 * uint64_t(n27) * sizeof(g1_affine);
    const auto part = gpu_msm_table_choose(n27, budget);
    CHECK(part.bytes <= budget);
    CHECK(part.copies >= 2);
    CHECK(part.copies * part.rows >= (255 + part.window_bits) / part.window_bits);
    CHECK(part.bytes == (part.copies - 1) * uint64_t(n27) * sizeof(g1_affine));
    // Every plan covers the windows of any 256-bit scalar (W·c >= 257).
    for (size_t n : {size_t{1}, size_t{100}, size_t{4097}, size_t{1} << 20})
        for (uint64_t budget : {uint64_t{0}, uint64_t(n) * 96, ~uint64_t{0}}) {
            const auto p = gpu_msm_table_choose(n, budget);
            INFO("n " << n << " budget " << budget);
            CHECK(p.copies * p.rows >= (256 + p.window_bits) / p.window_bits);
        }
    // Small inputs keep small windows; no points, no plan.
    CHECK(gpu_msm_table_choose(1000, ~uint64_t{0}).window_bits < 16);
    CHECK(gpu_msm_table_choose(0, ~uint64_t{0}).window_bits == 0);
}

TEST_CASE("batch inversion of a field array (host emulation)")
{
    std::mt19937_64 rng(test::test_seed() + 72);
    host_msm_be be;
    for (size_t n : {size_t{1}, size_t{31}, size_t{33}, size_t{5000}}) {
        std::vector<fp> v(n);
        for (auto& x : v) x = fp::random(rng);
        std::vector<fp> scratch(batch_invert_scratch(n));
        auto got = v;
        // A direct limit of 16 takes three levels at n = 5000.
        batch_invert(be, reinterpret_cast<dfp*>(got.data()), n, reinterpret_cast<dfp*>(scratch.data()), 16);
        for (size_t i = 0; i < n; ++i) {
            INFO("n " << n << " i " << i);
            CHECK(got[i] == v[i].inverse());
        }
    }
}

TEST_CASE("MSM window groups: within the entry cap, by radix passes and group overheads")
{
    const size_t n27 = size_t{1} << 27, n24 = size_t{1} << 24;
    // Everything fits and 13·2^19 keys need 23 bits: one group.
    CHECK(msm_window_group(n24, 13, size_t{1} << 19, size_t{1} << 30) == 13);
    // 2^27 points, c = 22: 8 windows fit, but 8·2^21 needs 25 bits (4 passes);
    // 7·2^21 needs 24 (3 passes), and 7 + 5 windows keep 3 passes each.
    CHECK(msm_window_group(n27, 12, size_t{1} << 21, 8 * n27) == 7);
    // Only 4 fit: 4·2^21 = 2^23 needs 24 bits, 3 passes.
    CHECK(msm_window_group(n27, 12, size_t{1} << 21, 4 * n27 + 5) == 4);
    // 2^20 points, c = 16: one sort of 20-bit keys (3 passes) rather than 16
    // sorts of 16-bit keys (2 passes each) and their launch overheads.
    CHECK(msm_window_group(size_t{1} << 20, 16, size_t{1} << 15, size_t{1} << 30) == 16);
    // The cap below n still gives one window per group.
    CHECK(msm_window_group(n27, 12, size_t{1} << 21, n27 / 2) == 1);
}
