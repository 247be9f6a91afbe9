// The filecoin layer's byte hashes against published test vectors (FIPS 180-2,
// RFC 7693, RFC 8439).
#include <catch2/catch.hpp>

#include <string>

#include "cuzk/filecoin/common/hashers.hpp"

using namespace cuzk::filecoin;

namespace {

template <size_t N>
std::string hex(const std::array<uint8_t, N>& a)
{
    static const char digits[] = "0123456789abcdef";
    std::string s;
    for (uint8_t b : a) {
        s += digits[b >> 4];
        s += digits[b & 15];
    }
    return s;
}

} // namespace

TEST_CASE("SHA-256: FIPS 180-2 vectors, one-shot and incremental", "[filecoin][hash]")
{
    CHECK(hex(sha256(as_bytes("abc"))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const std::string two_blocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    CHECK(hex(sha256(as_bytes(two_blocks))) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    sha256_ctx ctx;
    for (char c : two_blocks) ctx.update(&c, 1);
    CHECK(hex(ctx.finish()) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    ctx.update("abc", 3);   // finish() left the context reset
    CHECK(hex(ctx.finish()) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("SHA-256 truncation and the comm_d node hash", "[filecoin][hash]")
{
    const domain t = sha256_trunc(as_bytes("abc"));
    CHECK(t[31] == (0xad & 0x3f));
    CHECK(hex(t).substr(0, 62) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015");
    domain zero{};
    // The root over two zero leaves (64 bytes of zeros), a known zero commitment.
    CHECK(hex(sha256_node(zero, zero)) == "f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb0b");
}

TEST_CASE("BLAKE2b-512 and keyed BLAKE2b: RFC 7693 vector and key sensitivity", "[filecoin][hash]")
{
    CHECK(hex(blake2b512(as_bytes("abc"))) ==
          "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc95"
          "18d38aa8dbf1925ab92386edd4009923");
    const auto k1 = blake2b256_keyed(as_bytes("key one"), as_bytes("data"));
    const auto k2 = blake2b256_keyed(as_bytes("key two"), as_bytes("data"));
    CHECK(k1 != k2);
    CHECK(k1 == blake2b256_keyed(as_bytes("key one"), as_bytes("data")));
}

TEST_CASE("ChaCha20 keystream: RFC 8439 section 2.3.2 block at any offset", "[filecoin][hash]")
{
    digest32 key;
    for (int i = 0; i < 32; ++i) key[size_t(i)] = uint8_t(i);
    const std::array<uint8_t, 12> nonce{0, 0, 0, 9, 0, 0, 0, 0x4a, 0, 0, 0, 0};
    std::array<uint8_t, 16> block1;
    chacha20_keystream(key, nonce, 64, block1);   // counter 1
    CHECK(hex(block1) == "10f1e7e4d13b5915500fdd1fa32071c4");
    std::array<uint8_t, 8> mid;
    chacha20_keystream(key, nonce, 64 + 4, mid);
    CHECK(hex(mid) == "d13b5915500fdd1f");
}
