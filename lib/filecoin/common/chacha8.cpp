// ChaCha block function (Bernstein's quarter-round network, "djb" layout with
// a 64-bit counter and a 64-bit nonce) and the rand_chacha-compatible ChaCha8
// generator built on it.
#include "cuzk/filecoin/common/chacha8.hpp"

#include <cstring>

namespace cuzk::filecoin {

namespace {

inline uint32_t rotl32(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

inline void quarter_round(uint32_t* s, int a, int b, int c, int d)
{
    s[a] += s[b]; s[d] = rotl32(s[d] ^ s[a], 16);
    s[c] += s[d]; s[b] = rotl32(s[b] ^ s[c], 12);
    s[a] += s[b]; s[d] = rotl32(s[d] ^ s[a], 8);
    s[c] += s[d]; s[b] = rotl32(s[b] ^ s[c], 7);
}

inline uint32_t load_le32(const uint8_t* p)
{
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

// The block as 16 words (the keystream is their LE bytes).
void chacha_words(const uint32_t key[8], uint64_t counter, uint64_t nonce, unsigned rounds,
                  uint32_t out[16])
{
    // "expand 32-byte k" as four LE words.
    uint32_t init[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
    for (int i = 0; i < 8; ++i) init[4 + i] = key[i];
    init[12] = uint32_t(counter);
    init[13] = uint32_t(counter >> 32);
    init[14] = uint32_t(nonce);
    init[15] = uint32_t(nonce >> 32);
    uint32_t s[16];
    std::memcpy(s, init, sizeof s);
    for (unsigned r = 0; r < rounds; r += 2) {
        // A column round followed by a diagonal round.
        quarter_round(s, 0, 4, 8, 12);
        quarter_round(s, 1, 5, 9, 13);
        quarter_round(s, 2, 6, 10, 14);
        quarter_round(s, 3, 7, 11, 15);
        quarter_round(s, 0, 5, 10, 15);
        quarter_round(s, 1, 6, 11, 12);
        quarter_round(s, 2, 7, 8, 13);
        quarter_round(s, 3, 4, 9, 14);
    }
    for (int i = 0; i < 16; ++i) out[i] = s[i] + init[i];
}

} // namespace

void chacha_block(const uint32_t key[8], uint64_t counter, uint64_t nonce, unsigned rounds,
                  uint8_t out[64])
{
    uint32_t w[16];
    chacha_words(key, counter, nonce, rounds, w);
    for (int i = 0; i < 16; ++i)
        for (int b = 0; b < 4; ++b) out[4 * i + b] = uint8_t(w[i] >> (8 * b));
}

chacha8_rng::chacha8_rng(const std::array<uint8_t, 32>& seed)
{
    for (int i = 0; i < 8; ++i) key_[i] = load_le32(seed.data() + 4 * i);
    std::memset(words_, 0, sizeof words_);
}

void chacha8_rng::refill()
{
    chacha_words(key_, counter_++, 0, 8, words_);
    pos_ = 0;
}

uint32_t chacha8_rng::next_u32()
{
    if (pos_ == 16) refill();
    return words_[pos_++];
}

uint64_t chacha8_rng::next_u64()
{
    // Two consecutive words of the stream, low first; a block boundary in
    // between is crossed by next_u32 itself.
    const uint64_t lo = next_u32();
    const uint64_t hi = next_u32();
    return lo | hi << 32;
}

} // namespace cuzk::filecoin
