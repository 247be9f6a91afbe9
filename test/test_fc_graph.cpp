// The SDR graph layer: ChaCha (against OpenSSL's ChaCha20 and the published
// 8-round zero-key block), the short BLAKE2b (against OpenSSL), the Feistel
// permutation (bijectivity, batch = scalar), and the graph itself against
// Filecoin's known answers: sample parents, parent-cache file digests and
// names from the parent_cache.json manifest.
#include <catch2/catch.hpp>

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/chacha8.hpp"
#include "cuzk/filecoin/common/feistel.hpp"
#include "cuzk/filecoin/common/hashers.hpp"
#include "cuzk/filecoin/porep/graph.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;

namespace {

// ChaCha20 keystream from OpenSSL: its 16-byte IV is state words 12–15 as LE.
std::vector<uint8_t> openssl_chacha20(const uint8_t key[32], uint64_t counter, uint64_t nonce, size_t n)
{
    uint8_t iv[16];
    for (int b = 0; b < 8; ++b) iv[b] = uint8_t(counter >> (8 * b)), iv[8 + b] = uint8_t(nonce >> (8 * b));
    std::unique_ptr<EVP_CIPHER_CTX, void (*)(EVP_CIPHER_CTX*)> ctx(EVP_CIPHER_CTX_new(), EVP_CIPHER_CTX_free);
    REQUIRE(EVP_EncryptInit_ex(ctx.get(), EVP_chacha20(), nullptr, key, iv) == 1);
    std::vector<uint8_t> zeros(n, 0), out(n);
    int len = 0;
    REQUIRE(EVP_EncryptUpdate(ctx.get(), out.data(), &len, zeros.data(), int(n)) == 1);
    REQUIRE(size_t(len) == n);
    return out;
}

std::string hex(const uint8_t* p, size_t n) { return to_hex(p, n); }

std::vector<uint32_t> parents_of(const sdr_graph& g, uint64_t v)
{
    std::vector<uint32_t> p(sdr_graph::degree);
    g.parents(v, p.data());
    return p;
}

porep_id_t filled(uint8_t b)
{
    porep_id_t p;
    p.fill(b);
    return p;
}

api_version api_of(int id) { return id < 5 ? api_version::v1_0 : api_version::v1_1; }

} // namespace

TEST_CASE("chacha block with 20 rounds equals OpenSSL ChaCha20", "[fc][chacha]")
{
    std::mt19937_64 rng(7);
    for (int trial = 0; trial < 8; ++trial) {
        uint8_t key[32];
        for (auto& b : key) b = uint8_t(rng());
        uint32_t kw[8];
        for (int i = 0; i < 8; ++i) kw[i] = uint32_t(key[4 * i]) | key[4 * i + 1] << 8 | key[4 * i + 2] << 16 | uint32_t(key[4 * i + 3]) << 24;
        const uint64_t counter = rng() & 0xffffffff0000ffffULL, nonce = rng();
        const auto expect = openssl_chacha20(key, counter, nonce, 3 * 64);
        for (int blk = 0; blk < 3; ++blk) {
            uint8_t got[64];
            chacha_block(kw, counter + blk, nonce, 20, got);
            CHECK(hex(got, 64) == hex(expect.data() + 64 * blk, 64));
        }
    }
}

TEST_CASE("chacha8 zero-key block matches the published 8-round vector", "[fc][chacha]")
{
    const uint32_t key[8] = {};
    uint8_t out[64];
    chacha_block(key, 0, 0, 8, out);
    CHECK(hex(out, 64) ==
          "3e00ef2f895f40d67f5bb8e81f09a5a12c840ec3ce9a7f3b181be188ef711a1e"
          "984ce172b9216f419f445367456d5619314a42a3da86b001387bfdb80e0cfe42");
}

TEST_CASE("chacha8_rng reads the keystream as LE words across block boundaries", "[fc][chacha]")
{
    std::array<uint8_t, 32> seed;
    for (int i = 0; i < 32; ++i) seed[i] = uint8_t(3 * i + 1);
    uint32_t kw[8];
    for (int i = 0; i < 8; ++i) kw[i] = uint32_t(seed[4 * i]) | seed[4 * i + 1] << 8 | seed[4 * i + 2] << 16 | uint32_t(seed[4 * i + 3]) << 24;
    uint8_t stream[3 * 64];
    for (int b = 0; b < 3; ++b) chacha_block(kw, b, 0, 8, stream + 64 * b);
    auto le = [&](size_t off, int bytes) {
        uint64_t x = 0;
        for (int i = bytes - 1; i >= 0; --i) x = x << 8 | stream[off + i];
        return x;
    };
    // One u32 first, so every later u64 straddles the block boundary at 64.
    chacha8_rng r(seed);
    CHECK(r.next_u32() == le(0, 4));
    for (size_t off = 4; off + 8 <= sizeof stream; off += 8) CHECK(r.next_u64() == le(off, 8));
}

TEST_CASE("short BLAKE2b-512 equals OpenSSL's", "[fc][blake2b]")
{
    std::mt19937_64 rng(11);
    std::vector<uint8_t> data(128);
    for (auto& b : data) b = uint8_t(rng());
    for (size_t n = 0; n <= 128; ++n) {
        const auto mine = blake2b512_short(data.data(), n);
        const auto ref = blake2b512({data.data(), n});
        REQUIRE(hex(mine.data(), 64) == hex(ref.data(), 64));
    }
    CHECK_THROWS_AS(blake2b512_short(data.data(), 129), cuzk::error);
}

TEST_CASE("feistel round function is BE(BLAKE2b-512(R BE ‖ key BE)[0..8]) masked", "[fc][feistel]")
{
    const feistel_permutation f(1000 * 8, {0x0123456789abcdefULL, 42, ~0ULL, 0});
    REQUIRE(f.half_bits() == 7);   // 4^7 = 16384 >= 8000 > 4^6
    std::mt19937_64 rng(5);
    for (int i = 0; i < 50; ++i) {
        const uint64_t r = rng() & 127, key = rng();
        uint8_t in[16];
        for (int b = 0; b < 8; ++b) in[b] = uint8_t(r >> (56 - 8 * b)), in[8 + b] = uint8_t(key >> (56 - 8 * b));
        const auto d = blake2b512({in, 16});
        uint64_t be = 0;
        for (int b = 0; b < 8; ++b) be = be << 8 | d[b];
        CHECK(f.round_fn(r, key) == (be & 127));
    }
}

TEST_CASE("feistel permutation is a bijection and the batch path agrees", "[fc][feistel]")
{
    for (uint64_t n : {1ULL, 5ULL, 37ULL, 1000ULL, 4096ULL, 8 * 777ULL}) {
        const feistel_permutation f(n, {11, 22, 33, 44});
        std::vector<uint64_t> batch(n);
        f.permute_range(0, n, batch.data());
        std::vector<bool> seen(n, false);
        for (uint64_t i = 0; i < n; ++i) {
            const uint64_t t = f.permute(i);
            REQUIRE(t < n);
            REQUIRE_FALSE(seen[t]);
            seen[t] = true;
            REQUIRE(batch[i] == t);
        }
        if (n > 3) {   // an offset, partial batch
            std::vector<uint64_t> part(n - 3);
            f.permute_range(3, n - 3, part.data());
            CHECK(std::equal(part.begin(), part.end(), batch.begin() + 3));
        }
    }
    CHECK_THROWS_AS(feistel_permutation(0, {1, 2, 3, 4}), cuzk::error);
}

TEST_CASE("2 KiB sample parents", "[fc][graph]")
{
    const sdr_graph g5(64, porep_id_of(5), api_version::v1_1);
    CHECK(parents_of(g5, 2) == std::vector<uint32_t>{1, 1, 1, 0, 1, 0, 30, 28, 55, 63, 63, 36, 37, 36});
    CHECK(parents_of(g5, 63) == std::vector<uint32_t>{62, 15, 42, 62, 61, 62, 0, 15, 30, 30, 28, 42, 49, 38});
    const sdr_graph g0(64, porep_id_of(0), api_version::v1_0);
    CHECK(parents_of(g0, 2) == std::vector<uint32_t>{0, 1, 1, 1, 1, 1, 32, 49, 26, 57, 3, 4, 47, 63});
    uint32_t drg[6];
    for (uint64_t v : {0, 1}) {
        g5.drg_parents(v, drg);
        CHECK(std::all_of(drg, drg + 6, [](uint32_t p) { return p == 0; }));
    }
}

TEST_CASE("32 GiB sample parents without building the cache", "[fc][graph]")
{
    const sdr_graph g(uint64_t(1) << 30, porep_id_of(8), api_version::v1_1);
    CHECK(parents_of(g, 2) == std::vector<uint32_t>{1, 1, 0, 1, 0, 0, 694934376, 792214855, 560882435,
                                                    923855168, 468160064, 444658509, 700174899, 650486437});
    CHECK(parents_of(g, 1000) == std::vector<uint32_t>{999, 999, 993, 999, 987, 994, 610880257, 52958456,
                                                       114467229, 442886740, 935021104, 986163808,
                                                       486080124, 611062435});
}

TEST_CASE("parent cache names match Filecoin's manifest", "[fc][graph]")
{
    struct row {
        int id;
        uint64_t nodes;
        const char* name;
    };
    const row rows[] = {
        {0, 64, "3f0eef38bb48af1f48ad65e14eb85b4ebfc167cec18cd81764f6d998836c9899"},
        {5, 64, "494d91dc80f2df5272c4b9e129bc7ade9405225993af9fe34e6542a39a47554b"},
        {1, 1 << 18, "dcdabb0fbe4364bf0ac28b6a18c66de246409fa1a9020a00f33fb3e3053da6dc"},
        {6, 1 << 18, "5eed212119fd91aa6220a27f31a8966444a9381842bceb3a1ea61525bd47a5b5"},
        {2, 1 << 24, "2aa9c77c3e58259481351cc4be2079cc71e1c9af39700866545c043bfa30fb42"},
        {7, 1 << 24, "7ba215a1d2345774ab90b8cb1158d296e409d6068819d7b8c7baf0b25d63dc34"},
        {3, 1ULL << 30, "e1fa5d5b811ddbd118be3412c4a8c329156b8b8acc72632bca459455b5a05a13"},
        {8, 1ULL << 30, "21981246c370f9d76c7a77ab273d94bde0ceb4e938292334960bce05585dc117"},
        {4, 1ULL << 31, "8a99e8d6b6be7ab87a56b632e6739ff201c23ea14e99737c74690f0e265574d6"},
        {9, 1ULL << 31, "4905486b7af19558ac3649bc6261411858b6add534438878c4ee3b29d8b9de0b"},
    };
    for (const row& r : rows) {
        const sdr_graph g(r.nodes, porep_id_of(r.id), api_of(r.id));
        CHECK(parent_cache_name(g) == std::string("v28-sdr-parent-") + r.name);
    }
}

TEST_CASE("2 KiB and 8 MiB parent cache digests", "[fc][graph]")
{
    struct row {
        int id;
        uint64_t nodes;
        const char* digest;
    };
    const row rows[] = {
        {0, 64, "3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d"},
        {5, 64, "840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97"},
        {1, 1 << 18, "a76604f2f59f2744c7151653bbb1d8596b6b57d295e6fa6c1f0c41d725b502ce"},
        {6, 1 << 18, "03cd13565ded97c240a5f52e54295ad127bd0461b57904cb3a4d79b097bbecab"},
    };
    for (const row& r : rows) {
        const sdr_graph g(r.nodes, porep_id_of(r.id), api_of(r.id));
        const auto cache = build_parent_cache(g, 2);
        const auto d = parent_cache_sha256(cache);
        CHECK(hex(d.data(), 32) == r.digest);
    }
}

TEST_CASE("512 MiB parent cache digests", "[fc][graph][slow]")
{
    const std::pair<int, const char*> rows[] = {
        {2, "3adcc092423aa76d6a7184016893406da44dd974b219a89cd3ece25e4e3018f5"},
        {7, "b5877d1963793efebc261fd8fde4dd6bc59e6b5c7abf52617a4ee023b8dc173a"},
    };
    for (const auto& [id, digest] : rows) {
        const sdr_graph g(1 << 24, porep_id_of(id), api_of(id));
        const auto d = parent_cache_sha256(build_parent_cache(g, 0));
        CHECK(hex(d.data(), 32) == digest);
    }
}

TEST_CASE("graph structure for a node count that is not a power of two", "[fc][graph]")
{
    for (api_version api : {api_version::v1_0, api_version::v1_1}) {
        const uint64_t n = 1000;
        const sdr_graph g(n, filled(77), api);
        const auto cache = build_parent_cache(g, 3);
        REQUIRE(cache.size() == n * 14);
        std::vector<unsigned> exp_hits(n, 0);
        for (uint64_t v = 0; v < n; ++v) {
            const auto p = parents_of(g, v);
            REQUIRE(std::equal(p.begin(), p.end(), cache.begin() + v * 14));
            if (v >= 2) {
                CHECK(p[api == api_version::v1_0 ? 5 : 0] == v - 1);
                for (int i = 0; i < 6; ++i) CHECK(p[i] < v);
            }
            for (int i = 6; i < 14; ++i) {
                REQUIRE(p[i] < n);
                ++exp_hits[p[i]];
            }
        }
        // The expander is a permutation of node·8+i collapsed by 8: every
        // node is an expander parent exactly 8 times.
        CHECK(std::all_of(exp_hits.begin(), exp_hits.end(), [](unsigned h) { return h == 8; }));
    }
}

TEST_CASE("graph argument checks", "[fc][graph]")
{
    CHECK_THROWS_AS(sdr_graph(0, filled(1), api_version::v1_1), cuzk::error);
    CHECK_THROWS_AS(sdr_graph(uint64_t(1) << 32, filled(1), api_version::v1_1), cuzk::error);
    const sdr_graph g(64, filled(1), api_version::v1_1);
    uint32_t p[14];
    CHECK_THROWS_AS(g.parents(64, p), cuzk::error);
    CHECK_THROWS_AS(g.exp_parents_range(60, 5, p), cuzk::error);
}
