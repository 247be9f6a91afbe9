// cuzk — the SHA-256 compression function as a circuit, and a preimage
// circuit built on it (FIPS 180-4).
//
// Bit order ("SHA order"): a message is a sequence of bits, byte 0 first and
// within a byte the most significant bit first. Block word t (t < 16) is the
// big-endian 32-bit value of bytes 4t … 4t+3, so its LSB-first bit j is
// message bit 32t + 31 − j. The digest is H0 … H7 written big-endian, in the
// same bit order.
//
// Cost of one compression with a variable state and block (measured by
// test_sha256_gadget, which prints it): the message schedule expands 48 words
// with σ0, σ1 (two 32-bit xors each, minus the bits that meet shifted-in
// constant zeros) and a 4-operand addmany; each of the 64 rounds has Σ1, Σ0
// (two xors each), ch (32), maj (64), and two addmany — the sum
// T1 = h + Σ1 + ch + K_t + W_t is never materialised, its operands are added
// straight into e' = d + T1 and a' = T1 + Σ0 + maj (6 and 7 operands, 36
// constraints each); the final state update is 8 two-operand additions.
// A constant state (the IV) or constant padding bits fold away for free.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/r1cs/gadgets/uint32.hpp"

namespace cuzk::r1cs::gadgets {

const std::array<uint32_t, 8>& sha256_iv_words();
const std::array<uint32_t, 64>& sha256_round_constants();

// One compression: the new chaining state from `state` (H0..H7) and the 16
// block words.
std::array<uint32, 8> sha256_compression(constraint_system& cs, const std::array<uint32, 8>& state,
                                         std::span<const uint32, 16> block);

// The same with the block as 512 bits in SHA order.
std::array<uint32, 8> sha256_compression_bits(constraint_system& cs, const std::array<uint32, 8>& state,
                                              std::span<const boolean, 512> block);

// The digest (256 bits, SHA order) of an already padded message (a multiple
// of 512 bits), starting from the constant IV.
std::vector<boolean> sha256_padded(constraint_system& cs, std::span<const boolean> padded);

// SHA-256 of a message of any bit length; the padding (a one bit, zeros, the
// 64-bit length) is added as constants, so it costs nothing.
std::vector<boolean> sha256(constraint_system& cs, std::span<const boolean> message);

// "I know a message of `message_bytes` bytes whose SHA-256 is the public digest."
//
// Private: the message bits (one allocated bit each, with its booleanity
// constraint), allocated first. The padding is fixed by the length and enters
// as constants. The circuit runs blocks_for(message_bytes) compressions.
// Public: the digest as two inputs of 128 bits: input 1 = the big-endian
// integer of digest bytes 0..15, input 2 = that of bytes 16..31 (each below
// 2^128 < r), each tied to the digest bits by one linear constraint
// (Σ 2^(127−i)·bit_i)·1 = input. With ONE, num_inputs = 3.
class sha256_preimage_circuit final : public circuit {
public:
    explicit sha256_preimage_circuit(std::vector<uint8_t> message) : message_(std::move(message)) {}
    // The longest message that fits `blocks` blocks (64·blocks − 9 bytes), all
    // zero: for recording, or benchmarks of a given size. blocks >= 1.
    static sha256_preimage_circuit blank(size_t blocks);
    static size_t max_message_bytes(size_t blocks) { return blocks * 64 - 9; }
    static size_t blocks_for(size_t message_bytes) { return (message_bytes + 9 + 63) / 64; }

    size_t blocks() const { return blocks_for(message_.size()); }
    const std::vector<uint8_t>& message() const noexcept { return message_; }

    void synthesize(constraint_system& cs) const override;

    // The values of inputs 1 and 2 for a digest.
    static std::array<fr, 2> public_inputs(std::span<const uint8_t, 32> digest);

private:
    std::vector<uint8_t> message_;
};

} // namespace cuzk::r1cs::gadgets
