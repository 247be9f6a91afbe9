// cuzk — Fr32 padding with 64-bit word operations.
//
// A 127-byte raw block is 1016 stream bits = four 254-bit elements. Loaded as
// sixteen little-endian u64 words (the 128th byte zero), element e is the
// 254-bit window starting at bit 254·e: four words gathered with one shift
// each, the top two bits of the fourth cleared. Unpadding scatters the four
// words back at the same bit offsets. A trailing partial block runs through
// the same code on a zero-filled copy.
#include "cuzk/filecoin/common/fr32.hpp"

#include <bit>
#include <cstring>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/util/parallel.hpp"

namespace cuzk::filecoin {

static_assert(std::endian::native == std::endian::little, "fr32 word code assumes a little-endian host");

namespace {

constexpr size_t k_raw_block = 127, k_padded_block = 128;
constexpr uint64_t k_top_mask = ~uint64_t(0) >> 2;   // clears the two spare bits

// One full block: 127 raw bytes (read from a 128-byte zero-ended buffer) ->
// 128 padded bytes.
void pad_block(const uint64_t (&w)[16], uint8_t* out)
{
    for (unsigned e = 0; e < 4; ++e) {
        const unsigned s = 254 * e, q = s / 64, r = s % 64;
        uint64_t v[4];
        for (unsigned i = 0; i < 4; ++i) {
            const uint64_t hi = q + i + 1 < 16 && r ? w[q + i + 1] << (64 - r) : 0;
            v[i] = (w[q + i] >> r) | hi;
        }
        v[3] &= k_top_mask;
        std::memcpy(out + 32 * e, v, 32);
    }
}

// 128 padded bytes -> 16 words whose first 127 bytes are the raw block.
// `base` is the block's offset in the padded input, for the error message.
void unpad_block(const uint8_t* in, uint64_t (&w)[16], size_t base)
{
    std::memset(w, 0, sizeof w);
    for (unsigned e = 0; e < 4; ++e) {
        uint64_t v[4];
        std::memcpy(v, in + 32 * e, 32);
        if (v[3] >> 62)
            throw error(errc::invalid_argument,
                        fmt::format("fr32_unpad: padded byte {} has its spare top bits set (0x{:02x})",
                                    base + 32 * e + 31, in[32 * e + 31]));
        const unsigned s = 254 * e, q = s / 64, r = s % 64;
        for (unsigned i = 0; i < 4; ++i) {
            w[q + i] |= v[i] << r;
            if (r && q + i + 1 < 16) w[q + i + 1] |= v[i] >> (64 - r);
        }
    }
}

void pad_blocks(const uint8_t* raw, uint8_t* padded, size_t begin, size_t end)
{
    uint64_t w[16];
    for (size_t b = begin; b < end; ++b) {
        w[15] = 0;
        std::memcpy(w, raw + b * k_raw_block, k_raw_block);
        pad_block(w, padded + b * k_padded_block);
    }
}

void unpad_blocks(const uint8_t* padded, uint8_t* raw, size_t begin, size_t end)
{
    uint64_t w[16];
    for (size_t b = begin; b < end; ++b) {
        unpad_block(padded + b * k_padded_block, w, b * k_padded_block);
        std::memcpy(raw + b * k_raw_block, w, k_raw_block);
    }
}

// Splits whole blocks over threads; small inputs stay on this thread.
void for_blocks(unsigned threads, size_t blocks, const std::function<void(size_t, size_t)>& fn)
{
    constexpr size_t k_min_blocks_per_thread = 4096;   // ~0.5 MiB: thread start-up is noise above this
    const size_t most = blocks / k_min_blocks_per_thread + 1;
    const unsigned t = unsigned(std::min<size_t>(resolve_threads(threads), most));
    parallel_for(t, blocks, [&](size_t b, size_t e, unsigned) { fn(b, e); });
}

} // namespace

size_t fr32_padded_size(size_t raw_bytes) { return 32 * ((8 * raw_bytes + 253) / 254); }

size_t fr32_unpadded_size(size_t padded_bytes)
{
    if (padded_bytes % 32 != 0)
        throw error(errc::invalid_argument,
                    fmt::format("fr32_unpadded_size: {} padded bytes is not a whole number of 32-byte elements",
                                padded_bytes));
    return padded_bytes / 32 * 254 / 8;
}

void fr32_pad(std::span<const uint8_t> raw, std::span<uint8_t> padded, unsigned threads)
{
    if (padded.size() != fr32_padded_size(raw.size()))
        throw error(errc::bad_length, fmt::format("fr32_pad: {} raw bytes pad to {} bytes, the output has {}",
                                                  raw.size(), fr32_padded_size(raw.size()), padded.size()));
    const size_t blocks = raw.size() / k_raw_block;
    for_blocks(threads, blocks, [&](size_t b, size_t e) { pad_blocks(raw.data(), padded.data(), b, e); });
    const size_t tail = raw.size() - blocks * k_raw_block;
    if (tail == 0) return;
    uint64_t w[16] = {};
    uint8_t out[k_padded_block];
    std::memcpy(w, raw.data() + blocks * k_raw_block, tail);
    pad_block(w, out);
    std::memcpy(padded.data() + blocks * k_padded_block, out, padded.size() - blocks * k_padded_block);
}

std::vector<uint8_t> fr32_pad(std::span<const uint8_t> raw, unsigned threads)
{
    std::vector<uint8_t> out(fr32_padded_size(raw.size()));
    fr32_pad(raw, out, threads);
    return out;
}

void fr32_unpad(std::span<const uint8_t> padded, std::span<uint8_t> raw, unsigned threads)
{
    const size_t need = fr32_padded_size(raw.size());
    if (padded.size() < need)
        throw error(errc::bad_length, fmt::format("fr32_unpad: {} raw bytes need {} padded bytes, the input has {}",
                                                  raw.size(), need, padded.size()));
    const size_t blocks = raw.size() / k_raw_block;
    for_blocks(threads, blocks, [&](size_t b, size_t e) { unpad_blocks(padded.data(), raw.data(), b, e); });
    const size_t tail = raw.size() - blocks * k_raw_block;
    if (tail == 0) return;
    // Only the elements the tail needs are read; the rest of the block stays zero.
    uint8_t in[k_padded_block] = {};
    uint64_t w[16];
    std::memcpy(in, padded.data() + blocks * k_padded_block, need - blocks * k_padded_block);
    unpad_block(in, w, blocks * k_padded_block);
    std::memcpy(raw.data() + blocks * k_raw_block, w, tail);
}

std::vector<uint8_t> fr32_unpad(std::span<const uint8_t> padded, size_t raw_bytes, unsigned threads)
{
    std::vector<uint8_t> out(raw_bytes);
    fr32_unpad(padded, out, threads);
    return out;
}

} // namespace cuzk::filecoin
