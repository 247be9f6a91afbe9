// cuzk — internal: the host half of the packed witness upload
// (prove_bridge::upload_witness_packed, kernels/prove.cu), and a host
// reference of its device expansion for tests. Not part of the public API.
//
// Format: the values are cut into tiles of `tile` (4096) values. Tile t's
// tags are the words tags[t·tile_words …] (256 words), value j of the tile in
// bits 2(j mod 16) … of word j/16: 0 for zero, 1 for the Montgomery one, 2 for
// any other value. The other values follow in index order in one compact
// array; tile t's first one is at off[t] (the exclusive prefix sum of the
// tiles' counts). Tags past the end of the last tile are 0.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>


#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/util/parallel.hpp"

namespace cuzk::witness_pack {

constexpr size_t tile = 4096;             // values per tile (one block of the expansion kernel)
constexpr size_t tile_words = tile / 16;  // tag words per tile

inline size_t tiles_of(size_t n) { return (n + tile - 1) / tile; }
// Words of tags and offsets together: tiles·tile_words + tiles.
inline size_t scratch_words(size_t n) { return tiles_of(n) * (tile_words + 1); }

// Pass 1 on `threads` threads: tags (tiles·tile_words words) and, per tile,
// the count of other values in cnt (resized) and its exclusive prefix sum in
// off (tiles words). Returns the number of other values (n < 2^32).
//   uint64_t tag(src, n, tags, off, cnt, threads)
// Pass 2 for tiles t0 … t1−1: their other values, in index order, into
// out[0 …) (out[0] is the first other value of tile t0, i.e. index off[t0]).
//   void gather_others(src, tags, off, t0, t1, out, threads)
// The device expansion on the host (tests): dst[i], i < n, from the format.
//   void unpack(tags, off, others, n, dst)
// The same format written slice by slice (r1cs::packed_aux_sink):
// witness_slices.hpp.
// (Header-only: the CUDA translation unit that uploads calls them, and the
// kernels library links after the host library.)
namespace detail {

// The tag of one value: 0 for zero, 1 for the Montgomery one, 2 otherwise
// (branchless, as tag_word below).
inline uint32_t tag_value(const fr& v)
{
    constexpr bigint<4> one = fr_params::one;
    const uint64_t* l = v.l;
    const uint64_t z = l[0] | l[1] | l[2] | l[3];
    const uint64_t o = (l[0] ^ one.l[0]) | (l[1] ^ one.l[1]) | (l[2] ^ one.l[2]) | (l[3] ^ one.l[3]);
    return 2u - 2u * uint32_t(z == 0) - uint32_t(o == 0);
}

// Tags of 16 values v[0 … m) (m <= 16; the rest of the word is 0) and their
// count of other values. Branchless: a value is zero when its limbs OR to 0,
// one when they equal the Montgomery one's; tag = 2 − 2·zero − one
// (bench_witness_pack: 2.6× the speed of is_zero()/is_one() with branches on
// one core, as fast as a memcpy of the same bytes).
inline uint32_t tag_word(const fr* v, size_t m, uint32_t& others)
{
    constexpr bigint<4> one = fr_params::one;
    uint32_t word = 0, c = 0;
    for (size_t q = 0; q < m; ++q) {
        const uint64_t* l = v[q].l;
        const uint64_t z = l[0] | l[1] | l[2] | l[3];
        const uint64_t o = (l[0] ^ one.l[0]) | (l[1] ^ one.l[1]) | (l[2] ^ one.l[2]) | (l[3] ^ one.l[3]);
        const uint32_t tg = 2u - 2u * uint32_t(z == 0) - uint32_t(o == 0);
        word |= tg << (2 * q);
        c += tg >> 1;
    }
    others += c;
    return word;
}

} // namespace detail

inline uint64_t tag(const fr* src, size_t n, uint32_t* tags, uint32_t* off, std::vector<uint32_t>& cnt, unsigned threads)
{
    const size_t tiles = tiles_of(n);
    cnt.assign(tiles, 0);
    parallel_for(threads, tiles, [&](size_t b, size_t e, unsigned) {
        for (size_t t = b; t < e; ++t) {
            const size_t i0 = t * tile;
            uint32_t c = 0;
            for (size_t w = 0; w < tile_words; ++w) {
                const size_t j0 = i0 + 16 * w;
                const size_t m = j0 >= n ? 0 : std::min<size_t>(16, n - j0);
                tags[t * tile_words + w] = m == 16 ? detail::tag_word(src + j0, 16, c) : m ? detail::tag_word(src + j0, m, c) : 0u;
            }
            cnt[t] = c;
        }
    });
    uint64_t total = 0;
    for (size_t t = 0; t < tiles; ++t) {
        off[t] = uint32_t(total);
        total += cnt[t];
    }
    return total;
}

inline void gather_others(const fr* src, const uint32_t* tags, const uint32_t* off, size_t t0, size_t t1, fr* out,
                          unsigned threads)
{
    if (t1 <= t0) return;
    const uint32_t base = off[t0];
    parallel_for(threads, t1 - t0, [&](size_t b, size_t e, unsigned) {
        for (size_t t = t0 + b; t < t0 + e; ++t) {
            fr* o = out + (off[t] - base);
            const size_t i0 = t * tile;
            for (size_t w = 0; w < tile_words; ++w) {
                // Tag 2 = bits 10: bit 2q of m is set for each other value q of the word.
                uint32_t m = (tags[t * tile_words + w] >> 1) & 0x55555555u;
                const fr* row = src + i0 + 16 * w;
                for (; m; m &= m - 1) *o++ = row[std::countr_zero(m) >> 1];
            }
        }
    });
}

inline void unpack(const uint32_t* tags, const uint32_t* off, const fr* others, size_t n, fr* dst)
{
    for (size_t t = 0; t < tiles_of(n); ++t) {
        size_t k = off[t];
        for (size_t j = 0; j < tile && t * tile + j < n; ++j) {
            const unsigned tg = (tags[t * tile_words + j / 16] >> (2 * (j % 16))) & 3u;
            dst[t * tile + j] = tg == 0 ? fr::zero() : tg == 1 ? fr::one() : others[k++];
        }
    }
}

} // namespace cuzk::witness_pack
