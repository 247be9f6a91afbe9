// cuzk — BLS12-381 point encodings in the zcash / blst / bellperson convention.
//
// Layout (see docs/FORMATS.md §1.1):
//   Fp            48 bytes, big-endian, canonical (not Montgomery), < p.
//   Fp2 c0 + c1·u 96 bytes: c1 first, then c0.
//   G1            uncompressed 96 bytes x ‖ y;  compressed 48 bytes x.
//   G2            uncompressed 192 bytes x ‖ y; compressed 96 bytes x.
// Since p < 2^381 the top three bits of byte 0 are free and carry flags:
//   0x80 C  compressed form;
//   0x40 I  point at infinity — every other bit of the encoding is then zero,
//           so infinity is 0x40 ‖ 0… (uncompressed) or 0xC0 ‖ 0… (compressed);
//   0x20 S  compressed non-infinity encodings only: y is the lexicographically
//           largest of ±y, i.e. y > (p − 1)/2 for Fp; for Fp2 the comparison is
//           made on c1 when c1 ≠ 0, otherwise on c0.
//
// Decoding is strict about the length: a 48-byte G1 (96-byte G2) buffer must
// carry the C bit and a 96-byte G1 (192-byte G2) buffer must not. blst's
// 96/192-byte decoder also accepts a compressed encoding in the first half of
// the buffer; cuzk rejects that with errc::bad_flags, as zcash's fixed-size
// from_compressed / from_uncompressed do.
//
// Failures throw cuzk::error with one of
//   bad_length      the buffer is neither the compressed nor the uncompressed size
//   bad_flags       flag bits inconsistent with the length or with each other, or
//                   an infinity encoding with any other bit set
//   non_canonical   a coordinate is >= p
//   not_on_curve    uncompressed coordinates do not satisfy the curve equation
//   no_square_root  compressed x with x³ + b not a square
//   not_in_subgroup on the curve but not of order r (only with subgroup_check::check)
// Subgroup membership costs a 255-bit scalar multiplication per point (about
// as much as decompression on G1, several times more on G2); callers that trust
// their input (Filecoin's large parameter files) pass subgroup_check::skip.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "cuzk/ec/bls12_381.hpp"

namespace cuzk {

enum class subgroup_check : bool { skip = false, check = true };

inline constexpr size_t g1_compressed_size = 48;
inline constexpr size_t g1_uncompressed_size = 96;
inline constexpr size_t g2_compressed_size = 96;
inline constexpr size_t g2_uncompressed_size = 192;

// Encoders accept any affine point (the identity included); they do not check
// that the point is on the curve.
void g1_serialize(const g1_affine& p, std::span<uint8_t, 96> out);   // uncompressed
void g1_compress(const g1_affine& p, std::span<uint8_t, 48> out);
void g2_serialize(const g2_affine& p, std::span<uint8_t, 192> out);  // uncompressed
void g2_compress(const g2_affine& p, std::span<uint8_t, 96> out);

// Decode 48 (compressed) or 96 (uncompressed) bytes; infinity decodes to the identity.
g1_affine g1_deserialize(std::span<const uint8_t> in, subgroup_check chk = subgroup_check::check);
// Decode 96 (compressed) or 192 (uncompressed) bytes; infinity decodes to the identity.
g2_affine g2_deserialize(std::span<const uint8_t> in, subgroup_check chk = subgroup_check::check);

// "Lexicographically largest" in the zcash sense (the S flag): for Fp,
// y > (p − 1)/2; for Fp2, that test on c1 if c1 ≠ 0, else on c0.
bool lexicographically_largest(const fp& y);
bool lexicographically_largest(const fp2& y);

} // namespace cuzk
