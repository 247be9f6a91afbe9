// cuzk — Filecoin's Fr32 padding: raw bytes -> 32-byte field elements.
//
// The raw data is read as one little-endian bit stream (bit i of byte j is
// stream bit 8j + i). Each 32-byte padded element takes the next 254 stream
// bits and two zero bits on top, so every element is < 2^254 < r, a canonical
// Fr. 127 raw bytes (4 × 254 bits) become exactly 128 padded bytes. A length
// that is not a multiple of 127 ends in a partial element, zero-filled to 32
// bytes as Filecoin's Fr32Reader does: the padded size is always a whole
// number of elements, 32 · ceil(8·n / 254).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace cuzk::filecoin {

// 32 · ceil(8·raw_bytes / 254): bytes that fr32_pad writes for raw_bytes.
size_t fr32_padded_size(size_t raw_bytes);
// The most raw bytes that padded_bytes (a multiple of 32) can hold:
// floor(254 · padded_bytes/32 / 8). Throws invalid_argument otherwise.
size_t fr32_unpadded_size(size_t padded_bytes);

// Pads raw into padded; padded.size() must equal fr32_padded_size(raw.size())
// (errc::bad_length otherwise). Whole 127-byte blocks are split over
// `threads` workers (0 = all cores).
void fr32_pad(std::span<const uint8_t> raw, std::span<uint8_t> padded, unsigned threads = 1);
std::vector<uint8_t> fr32_pad(std::span<const uint8_t> raw, unsigned threads = 1);

// The inverse: recovers raw.size() bytes from the start of padded, which must
// hold at least fr32_padded_size(raw.size()) bytes (bad_length otherwise).
// Throws invalid_argument, naming the byte offset, when an element it reads
// has either of its two spare bits (the top bits of its byte 31) set.
void fr32_unpad(std::span<const uint8_t> padded, std::span<uint8_t> raw, unsigned threads = 1);
std::vector<uint8_t> fr32_unpad(std::span<const uint8_t> padded, size_t raw_bytes, unsigned threads = 1);

} // namespace cuzk::filecoin
