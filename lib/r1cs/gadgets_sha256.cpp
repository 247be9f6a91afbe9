// cuzk — SHA-256 gadgets and the preimage circuit (gadgets/sha256.hpp).
#include "cuzk/r1cs/gadgets/sha256.hpp"

#include <string>

#include "cuzk/error.hpp"

namespace cuzk::r1cs::gadgets {

const std::array<uint32_t, 8>& sha256_iv_words()
{
    // First 32 bits of the fractional parts of the square roots of the first 8 primes.
    static const std::array<uint32_t, 8> iv = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                               0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    return iv;
}

const std::array<uint32_t, 64>& sha256_round_constants()
{
    // First 32 bits of the fractional parts of the cube roots of the first 64 primes.
    static const std::array<uint32_t, 64> k = {
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
    return k;
}

namespace {

// x ⊕ y ⊕ z; callers put a shifted word (constant top bits) last so those
// bits fold.
uint32 xor3(constraint_system& cs, const uint32& x, const uint32& y, const uint32& z)
{
    return uint32::xor_(cs, uint32::xor_(cs, x, y), z);
}

} // namespace

std::array<uint32, 8> sha256_compression(constraint_system& cs, const std::array<uint32, 8>& state,
                                         std::span<const uint32, 16> block)
{
    const auto& K = sha256_round_constants();

    // Message schedule: W_t = σ1(W_{t−2}) + W_{t−7} + σ0(W_{t−15}) + W_{t−16}.
    std::array<uint32, 64> w;
    for (size_t t = 0; t < 16; ++t) w[t] = block[t];
    for (size_t t = 16; t < 64; ++t) {
        const uint32& x = w[t - 15];
        const uint32& y = w[t - 2];
        const uint32 s0 = xor3(cs, x.rotr(7), x.rotr(18), x.shr(3));
        const uint32 s1 = xor3(cs, y.rotr(17), y.rotr(19), y.shr(10));
        const uint32 ops[4] = {w[t - 16], s0, w[t - 7], s1};
        w[t] = uint32::addmany(cs, ops);
    }

    uint32 a = state[0], b = state[1], c = state[2], d = state[3];
    uint32 e = state[4], f = state[5], g = state[6], h = state[7];
    for (size_t t = 0; t < 64; ++t) {
        const uint32 S1 = xor3(cs, e.rotr(6), e.rotr(11), e.rotr(25));
        const uint32 ch = uint32::sha256_ch(cs, e, f, g);
        const uint32 S0 = xor3(cs, a.rotr(2), a.rotr(13), a.rotr(22));
        const uint32 maj = uint32::sha256_maj(cs, a, b, c);
        const uint32 k = uint32::constant(K[t]);
        // T1 = h + Σ1 + ch + K + W stays a list of operands (never allocated).
        const uint32 ops_e[6] = {d, h, S1, ch, k, w[t]};
        const uint32 ops_a[7] = {h, S1, ch, k, w[t], S0, maj};
        const uint32 new_e = uint32::addmany(cs, ops_e);
        const uint32 new_a = uint32::addmany(cs, ops_a);
        h = g;
        g = f;
        f = e;
        e = new_e;
        d = c;
        c = b;
        b = a;
        a = new_a;
    }
    const uint32 x[8] = {a, b, c, d, e, f, g, h};
    std::array<uint32, 8> out;
    for (size_t i = 0; i < 8; ++i) {
        const uint32 ops[2] = {state[i], x[i]};
        out[i] = uint32::addmany(cs, ops);
    }
    return out;
}

std::array<uint32, 8> sha256_compression_bits(constraint_system& cs, const std::array<uint32, 8>& state,
                                              std::span<const boolean, 512> block)
{
    std::array<uint32, 16> words;
    std::array<boolean, 32> le;
    for (size_t t = 0; t < 16; ++t) {
        for (size_t j = 0; j < 32; ++j) le[j] = block[32 * t + 31 - j];
        words[t] = uint32::from_bits(le);
    }
    return sha256_compression(cs, state, words);
}

std::vector<boolean> sha256_padded(constraint_system& cs, std::span<const boolean> padded)
{
    if (padded.size() % 512 != 0)
        throw error(errc::invalid_argument,
                    "sha256_padded: " + std::to_string(padded.size()) + " bits is not a multiple of 512");
    std::array<uint32, 8> state;
    for (size_t i = 0; i < 8; ++i) state[i] = uint32::constant(sha256_iv_words()[i]);
    for (size_t off = 0; off < padded.size(); off += 512)
        state = sha256_compression_bits(cs, state, std::span<const boolean, 512>(padded.data() + off, 512));
    std::vector<boolean> digest(256);
    for (size_t i = 0; i < 256; ++i) digest[i] = state[i / 32].bits()[31 - i % 32];
    return digest;
}

std::vector<boolean> sha256(constraint_system& cs, std::span<const boolean> message)
{
    // Padding: a one bit, zeros up to 448 mod 512, the bit length as 64 bits big-endian.
    const uint64_t len = message.size();
    std::vector<boolean> p(message.begin(), message.end());
    p.push_back(boolean::constant(true));
    while (p.size() % 512 != 448) p.push_back(boolean::constant(false));
    for (int i = 63; i >= 0; --i) p.push_back(boolean::constant((len >> i) & 1u));
    return sha256_padded(cs, p);
}

sha256_preimage_circuit sha256_preimage_circuit::blank(size_t blocks)
{
    if (blocks == 0) throw error(errc::invalid_argument, "sha256_preimage_circuit: blocks must be >= 1");
    return sha256_preimage_circuit(std::vector<uint8_t>(max_message_bytes(blocks), 0));
}

void sha256_preimage_circuit::synthesize(constraint_system& cs) const
{
    std::vector<boolean> bits;
    bits.reserve(message_.size() * 8);
    for (uint8_t byte : message_)
        for (int j = 7; j >= 0; --j) bits.push_back(boolean::alloc(cs, (byte >> j) & 1u));
    const std::vector<boolean> digest = sha256(cs, bits);

    for (size_t k = 0; k < 2; ++k) {
        // input = Σ_{i<128} 2^(127−i)·digest[128k + i]
        bigint<4> v = bigint<4>::zero();
        for (size_t i = 0; i < 128; ++i)
            if (digest[128 * k + i].value()) v.l[(127 - i) / 64] |= uint64_t(1) << ((127 - i) % 64);
        const variable in = cs.alloc_input(fr::from_repr(v));
        if (!cs.keeps_constraints()) {
            cs.enforce_count();
            continue;
        }
        linear_combination lhs;
        lhs.reserve(129);
        for (size_t i = 0; i < 128; ++i) digest[128 * k + i].add_to(lhs, pow2(unsigned(127 - i)));
        cs.enforce(lhs, variable::one(), in);
    }
}

std::array<fr, 2> sha256_preimage_circuit::public_inputs(std::span<const uint8_t, 32> digest)
{
    std::array<fr, 2> r;
    for (size_t k = 0; k < 2; ++k) {
        bigint<4> v = bigint<4>::zero();
        for (size_t i = 0; i < 16; ++i) v.l[1 - i / 8] |= uint64_t(digest[16 * k + i]) << (8 * (7 - i % 8));
        r[k] = fr::from_repr(v);
    }
    return r;
}

} // namespace cuzk::r1cs::gadgets
