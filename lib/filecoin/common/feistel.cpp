// The Feistel permutation of the expander graph and its BLAKE2b round
// function. BLAKE2b (RFC 7693) is written once as a template over the word
// type, so the same code runs on one uint64_t (reference path, tests) and on
// a GCC vector of 8 lanes (the batch path).
#include "cuzk/filecoin/common/feistel.hpp"

#include <cstring>

#include "cuzk/error.hpp"

namespace cuzk::filecoin {

namespace {

constexpr uint64_t IV[8] = {0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b,
                            0xa54ff53a5f1d36f1, 0x510e527fade682d1, 0x9b05688c2b3e6c1f,
                            0x1f83d9abfb41bd6b, 0x5be0cd19137e2179};

// Message word schedule of the 12 rounds (rounds 10 and 11 reuse rows 0 and 1).
constexpr uint8_t SIGMA[10][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
};

// x = x rotated right by n (in place: a vector return value would change the
// ABI between the SIMD clones).
template <class T>
inline __attribute__((always_inline)) void rotr(T& x, int n)
{
    x = (x >> n) | (x << (64 - n));
}

template <class T>
inline __attribute__((always_inline)) void mix(T* v, int a, int b, int c, int d, const T& x,
                                               const T& y)
{
    v[a] = v[a] + v[b] + x;
    v[d] = v[d] ^ v[a];
    rotr(v[d], 32);
    v[c] = v[c] + v[d];
    v[b] = v[b] ^ v[c];
    rotr(v[b], 24);
    v[a] = v[a] + v[b] + y;
    v[d] = v[d] ^ v[a];
    rotr(v[d], 16);
    v[c] = v[c] + v[d];
    v[b] = v[b] ^ v[c];
    rotr(v[b], 63);
}

// The 12 rounds on the working vector v; msg(i) yields message word i.
template <class T, class Msg>
inline __attribute__((always_inline)) void rounds(T* v, const Msg& msg)
{
#pragma GCC unroll 12
    for (int r = 0; r < 12; ++r) {
        const uint8_t* s = SIGMA[r % 10];
        mix(v, 0, 4, 8, 12, msg(s[0]), msg(s[1]));
        mix(v, 1, 5, 9, 13, msg(s[2]), msg(s[3]));
        mix(v, 2, 6, 10, 14, msg(s[4]), msg(s[5]));
        mix(v, 3, 7, 11, 15, msg(s[6]), msg(s[7]));
        mix(v, 0, 5, 10, 15, msg(s[8]), msg(s[9]));
        mix(v, 1, 6, 11, 12, msg(s[10]), msg(s[11]));
        mix(v, 2, 7, 8, 13, msg(s[12]), msg(s[13]));
        mix(v, 3, 4, 9, 14, msg(s[14]), msg(s[15]));
    }
}

// Initial working vector for a single final block of `len` bytes, unkeyed,
// 64-byte digest. Word 0 of the chaining value carries the parameter block.
template <class T>
inline void init_single_block(T* v, uint64_t len)
{
    for (int i = 0; i < 8; ++i) v[i] = T{} + IV[i];
    v[0] = v[0] ^ uint64_t(0x01010040);
    for (int i = 0; i < 8; ++i) v[8 + i] = T{} + IV[i];
    v[12] = v[12] ^ len;   // byte counter (low word; the high word stays 0)
    v[14] = ~v[14];        // last-block flag
}

inline uint64_t load_le64(const uint8_t* p)
{
    uint64_t x = 0;
    for (int i = 7; i >= 0; --i) x = x << 8 | p[i];
    return x;
}

using u64x8 = uint64_t __attribute__((vector_size(64)));

// h0 of BLAKE2b-512 over the 16 bytes (m0, m1 as LE words) for 8 lanes. The
// other 14 message words are zero, which the unrolled rounds fold away.
// (Not under ThreadSanitizer: in a shared library the clones' resolver runs
// during relocation, before the TSan runtime is ready, and crashes.)
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_THREAD__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
void blake2b16_x8(const uint64_t* m0, const uint64_t* m1, uint64_t* h0)
{
    u64x8 a, b, v[16];
    std::memcpy(&a, m0, sizeof a);
    std::memcpy(&b, m1, sizeof b);
    init_single_block(v, 16);
    const u64x8 zero{};
    rounds(v, [&](int i) -> const u64x8& { return i == 0 ? a : i == 1 ? b : zero; });
    const u64x8 out = (v[0] ^ v[8]) ^ (IV[0] ^ uint64_t(0x01010040));
    std::memcpy(h0, &out, sizeof out);
}

} // namespace

std::array<uint8_t, 64> blake2b512_short(const uint8_t* data, size_t n)
{
    if (n > 128) throw error(errc::invalid_argument, "blake2b512_short: input over 128 bytes");
    uint8_t block[128] = {};
    if (n) std::memcpy(block, data, n);
    uint64_t m[16], v[16];
    for (int i = 0; i < 16; ++i) m[i] = load_le64(block + 8 * i);
    init_single_block(v, n);
    rounds(v, [&](int i) -> const uint64_t& { return m[i]; });
    std::array<uint8_t, 64> out{};
    for (int i = 0; i < 8; ++i) {
        uint64_t h = IV[i] ^ v[i] ^ v[8 + i];
        if (i == 0) h ^= 0x01010040;
        for (int b = 0; b < 8; ++b) out[8 * i + b] = uint8_t(h >> (8 * b));
    }
    return out;
}

feistel_permutation::feistel_permutation(uint64_t n, const std::array<uint64_t, 4>& keys)
    : n_(n), keys_(keys)
{
    if (n == 0) throw error(errc::invalid_argument, "feistel_permutation: empty domain");
    // The smallest power of 4 (at least 4) covering n: 2·half_bits bits.
    unsigned log4 = 1;
    while (log4 < 32 && (uint64_t(1) << (2 * log4)) < n) ++log4;
    half_bits_ = log4;
    right_mask_ = (uint64_t(1) << log4) - 1;
}

uint64_t feistel_permutation::round_fn(uint64_t right, uint64_t key) const
{
    const uint64_t m0 = __builtin_bswap64(right), m1 = __builtin_bswap64(key);
    uint64_t block[16] = {m0, m1};
    uint64_t v[16];
    init_single_block(v, 16);
    rounds(v, [&](int i) -> const uint64_t& { return block[i]; });
    const uint64_t h0 = IV[0] ^ 0x01010040 ^ v[0] ^ v[8];
    return __builtin_bswap64(h0) & right_mask_;
}

uint64_t feistel_permutation::encode(uint64_t x) const
{
    uint64_t left = x >> half_bits_, right = x & right_mask_;
    for (int r = 0; r < 3; ++r) {
        const uint64_t next_right = left ^ round_fn(right, keys_[r]);
        left = right;
        right = next_right;
    }
    return left << half_bits_ | right;
}

uint64_t feistel_permutation::permute(uint64_t index) const
{
    uint64_t u = encode(index);
    while (u >= n_) u = encode(u);
    return u;
}

namespace {

// Eight permutations in flight, one per SIMD lane. Each lane runs its own
// index through the rounds; when a lane's index leaves the cycle walk, its
// result is stored and the lane takes the next pending index, so lanes stay
// busy however long each walk is.
struct lane_state {
    uint64_t left[8], right[8];
    size_t job[8];
    unsigned round[8];
    bool busy[8];
};

} // namespace

void feistel_permutation::permute_range(uint64_t first, size_t count, uint64_t* out) const
{
    lane_state st{};
    size_t next = 0;
    unsigned busy = 0;
    auto start = [&](int l, uint64_t x, size_t job) {
        st.left[l] = x >> half_bits_;
        st.right[l] = x & right_mask_;
        st.round[l] = 0;
        st.job[l] = job;
    };
    for (int l = 0; l < 8; ++l) {
        st.busy[l] = next < count;
        if (st.busy[l]) start(l, first + next, next), ++next, ++busy;
    }
    uint64_t m0[8], m1[8], h0[8];
    while (busy) {
        for (int l = 0; l < 8; ++l) {
            m0[l] = __builtin_bswap64(st.right[l]);
            m1[l] = __builtin_bswap64(keys_[st.round[l]]);
        }
        blake2b16_x8(m0, m1, h0);
        for (int l = 0; l < 8; ++l) {
            if (!st.busy[l]) continue;
            const uint64_t f = __builtin_bswap64(h0[l]) & right_mask_;
            const uint64_t next_right = st.left[l] ^ f;
            st.left[l] = st.right[l];
            st.right[l] = next_right;
            if (++st.round[l] < 3) continue;
            const uint64_t x = st.left[l] << half_bits_ | st.right[l];
            if (x >= n_) {   // keep walking
                start(l, x, st.job[l]);
                continue;
            }
            out[st.job[l]] = x;
            if (next < count) start(l, first + next, next), ++next;
            else st.busy[l] = false, --busy;
        }
    }
}

} // namespace cuzk::filecoin
