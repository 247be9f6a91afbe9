// cuzk — the Feistel permutation behind the SDR expander parents, with the
// short-input BLAKE2b-512 it uses as round function.
//
// The permutation acts on [0, n): indices are split into two halves of
// `half_bits` bits each (the smallest power of 4, at least 4, that is >= n
// gives the width), three rounds (L, R) -> (R, L ^ F(R, key_i)) are applied,
// and outputs that land at or above n are encrypted again ("cycle walking")
// until they fall inside the range. F(R, k) is the first 8 bytes, read big-
// endian, of BLAKE2b-512 over the 16 bytes R ‖ k (both u64 big-endian),
// masked to half_bits.
//
// BLAKE2b here is a private single-block implementation: OpenSSL's EVP
// interface costs more per call than the 12 rounds themselves, and the
// permutation needs hundreds of millions of calls for a 512 MiB graph.
// `permute_range` evaluates 8 permutations side by side so the compiler can
// keep one lane per SIMD element.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace cuzk::filecoin {

// BLAKE2b-512 (unkeyed) of n <= 128 bytes: a single compression. Throws
// errc::invalid_argument for n > 128.
std::array<uint8_t, 64> blake2b512_short(const uint8_t* data, size_t n);

class feistel_permutation {
public:
    // keys: the first three are the round keys (a fourth is accepted and
    // unused, as Filecoin derives four). n >= 1.
    feistel_permutation(uint64_t n, const std::array<uint64_t, 4>& keys);

    uint64_t size() const { return n_; }
    unsigned half_bits() const { return half_bits_; }

    // The round function F(right, key), masked.
    uint64_t round_fn(uint64_t right, uint64_t key) const;
    // One pass of the three rounds over the full 2·half_bits-bit domain.
    uint64_t encode(uint64_t x) const;
    // The permutation of [0, n): encode with cycle walking. index < n.
    uint64_t permute(uint64_t index) const;
    // out[i] = permute(first + i) for i < count; all indices < n.
    void permute_range(uint64_t first, size_t count, uint64_t* out) const;

private:
    uint64_t n_;
    std::array<uint64_t, 4> keys_;
    unsigned half_bits_;
    uint64_t right_mask_;
};

} // namespace cuzk::filecoin
