// cuzk — BN254 points and Groth16 proofs in the encoding of Ethereum's
// pairing precompile (EIP-197, with EIP-196's G1), which is also the order
// of snarkjs's `zkey export soliditycalldata` and its Solidity verifier.
//
// Layout, every coordinate 32 bytes big-endian, canonical (< q), not in
// Montgomery form:
//   G1     x ‖ y                                   64 bytes
//   G2     x.c1 ‖ x.c0 ‖ y.c1 ‖ y.c0               128 bytes (Fp2 = c0 + c1·u,
//                                                  the imaginary part first)
//   proof  A (G1) ‖ B (G2) ‖ C (G1)                 256 bytes, uncompressed
// The point at infinity is all-zero bytes (the precompile's convention);
// (0, 0) is on neither curve, so the encoding is unambiguous.
//
// Decoding checks, in this order, and throws cuzk::error with
//   bad_length      a proof buffer that is not 256 bytes
//   non_canonical   a coordinate >= q
//   not_on_curve    coordinates (not all zero) off y² = x³ + 3 (G1) or
//                   y² = x³ + 3/ξ (G2)
//   not_in_subgroup a G2 point on the twist but not of order r (G1 has
//                   cofactor 1: every point on it is in the group)
// Messages name the point ("proof B", "proof B x.c1"). The identity is
// accepted, as the precompile accepts it; a proof with an identity point
// simply does not verify.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "cuzk/groth16/types.hpp"

namespace cuzk::io {

inline constexpr size_t eip197_g1_size = 64;
inline constexpr size_t eip197_g2_size = 128;
inline constexpr size_t eip197_proof_size = 256;

// Encoders accept any affine point (the identity included) and do not check
// that it is on its curve.
void eip197_g1_encode(const bn254::g1_affine& p, std::span<uint8_t, eip197_g1_size> out);
void eip197_g2_encode(const bn254::g2_affine& p, std::span<uint8_t, eip197_g2_size> out);
void eip197_proof_encode(const groth16::proof_t<bn254_curve>& p, std::span<uint8_t, eip197_proof_size> out);
std::array<uint8_t, eip197_proof_size> eip197_proof_bytes(const groth16::proof_t<bn254_curve>& p);

// Decoders validate as above; `what` names the point in messages.
bn254::g1_affine eip197_g1_decode(std::span<const uint8_t, eip197_g1_size> in, const std::string& what);
bn254::g2_affine eip197_g2_decode(std::span<const uint8_t, eip197_g2_size> in, const std::string& what);
// Any length: errc::bad_length unless in.size() is 256.
groth16::proof_t<bn254_curve> eip197_proof_decode(std::span<const uint8_t> in);

} // namespace cuzk::io
