// cuzk — the ChaCha stream generator Filecoin's DRG sampling draws from.
//
// `chacha_block` is the ChaCha block function with a configurable number of
// rounds (20 for RFC 8439, 8 for the graph). `chacha8_rng` reproduces Rust's
// rand_chacha::ChaCha8Rng seeded with from_seed: the 32-byte seed is the key,
// the block counter is 64 bits wide (state words 12–13) and starts at 0, and
// the stream number (words 14–15) is 0. Its output is the keystream read as
// consecutive little-endian words: next_u32 takes 4 bytes, next_u64 takes the
// next 8 bytes (low word first), continuing seamlessly into the next block
// when a block has only one word left.
#pragma once

#include <array>
#include <cstdint>

namespace cuzk::filecoin {

// One 64-byte keystream block: key = 8 LE words, state words 12–13 =
// counter (low, high), 14–15 = nonce (low, high). `rounds` must be even.
void chacha_block(const uint32_t key[8], uint64_t counter, uint64_t nonce, unsigned rounds,
                  uint8_t out[64]);

class chacha8_rng {
public:
    explicit chacha8_rng(const std::array<uint8_t, 32>& seed);

    uint32_t next_u32();
    uint64_t next_u64();

private:
    void refill();

    uint32_t key_[8];
    uint64_t counter_ = 0;          // the next block to generate
    uint32_t words_[16];            // the current block as LE words
    unsigned pos_ = 16;             // next unread word of words_
};

} // namespace cuzk::filecoin
