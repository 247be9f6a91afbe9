// cuzk — the byte-level hashes Filecoin's PoRep uses, over OpenSSL's libcrypto
// (SHA-256 with the CPU's SHA extensions where present, BLAKE2b, ChaCha20).
//
// "Truncated" SHA-256 (`sha256_trunc`) is Filecoin's way to make a digest a
// field element: the 32 digest bytes are read as a little-endian Fr repr and
// the two top bits of byte 31 are cleared (254 bits).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "cuzk/filecoin/common/types.hpp"

namespace cuzk::filecoin {

using digest32 = std::array<uint8_t, 32>;
using digest64 = std::array<uint8_t, 64>;

digest32 sha256(std::span<const uint8_t> data);
// Clears the two top bits of byte 31 (Filecoin's trim_to_fr32).
inline void truncate_fr32(uint8_t* d) { d[31] &= 0x3f; }
inline domain sha256_trunc(std::span<const uint8_t> data)
{
    domain d = sha256(data);
    truncate_fr32(d.data());
    return d;
}
// trunc(SHA256(left ‖ right)): a node of the comm_d tree.
domain sha256_node(const domain& left, const domain& right);

// Incremental SHA-256 (for labels: a 1248-byte preimage fed in pieces).
class sha256_ctx {
public:
    sha256_ctx();
    ~sha256_ctx();
    sha256_ctx(const sha256_ctx&) = delete;
    sha256_ctx& operator=(const sha256_ctx&) = delete;
    void reset();
    void update(const void* data, size_t n);
    digest32 finish();   // the context is reset afterwards

private:
    void* ctx_;
};

digest64 blake2b512(std::span<const uint8_t> data);
// Keyed BLAKE2b with a 32-byte output (Filecoin's synthetic-challenge keys).
digest32 blake2b256_keyed(std::span<const uint8_t> key, std::span<const uint8_t> data);

// ChaCha20 (RFC 8439: 20 rounds, 32-bit block counter, 96-bit nonce) keystream
// bytes [offset, offset + out.size()) for `key` and `nonce`, counter starting at 0.
void chacha20_keystream(const digest32& key, const std::array<uint8_t, 12>& nonce, uint64_t offset,
                        std::span<uint8_t> out);

inline std::span<const uint8_t> as_bytes(std::string_view s)
{
    return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

} // namespace cuzk::filecoin
