// cuzk — the byte-level hashes of the filecoin layer, over OpenSSL's libcrypto.
// The incremental SHA-256 below uses SHA256_CTX, deprecated (not removed) in
// OpenSSL 3: it is the only allocation-free incremental interface.
#define OPENSSL_SUPPRESS_DEPRECATED 1

#include "cuzk/filecoin/common/hashers.hpp"

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/sha.h>

#include <memory>
#include <vector>

#include "cuzk/error.hpp"

namespace cuzk::filecoin {

namespace {

[[noreturn]] void crypto_failed(const char* what)
{
    throw error(errc::internal, std::string("libcrypto: ") + what + " failed");
}

struct md_ctx_free {
    void operator()(EVP_MD_CTX* c) const { EVP_MD_CTX_free(c); }
};
struct cipher_ctx_free {
    void operator()(EVP_CIPHER_CTX* c) const { EVP_CIPHER_CTX_free(c); }
};
struct mac_free {
    void operator()(EVP_MAC* m) const { EVP_MAC_free(m); }
};
struct mac_ctx_free {
    void operator()(EVP_MAC_CTX* c) const { EVP_MAC_CTX_free(c); }
};

// One fetched implementation per process: EVP_MD_fetch is costly, the result
// is immutable and shareable between threads.
const EVP_MD* fetched_md(const char* name)
{
    const EVP_MD* md = EVP_MD_fetch(nullptr, name, nullptr);
    if (!md) crypto_failed(name);
    return md;
}

const EVP_MD* md_blake2b512()
{
    static const EVP_MD* md = fetched_md("BLAKE2B-512");
    return md;
}

} // namespace

digest32 sha256(std::span<const uint8_t> data)
{
    digest32 out;
    SHA256(data.data(), data.size(), out.data());   // one-shot; uses SHA-NI when the CPU has it
    return out;
}

domain sha256_node(const domain& left, const domain& right)
{
    uint8_t buf[64];
    std::copy(left.begin(), left.end(), buf);
    std::copy(right.begin(), right.end(), buf + 32);
    domain d;
    SHA256(buf, sizeof buf, d.data());
    truncate_fr32(d.data());
    return d;
}

// The EVP interface would cost an allocation per context and an indirect call
// per update; labels feed 1248 bytes in pieces millions of times.
sha256_ctx::sha256_ctx() : ctx_(new SHA256_CTX) { reset(); }
sha256_ctx::~sha256_ctx() { delete static_cast<SHA256_CTX*>(ctx_); }
void sha256_ctx::reset() { SHA256_Init(static_cast<SHA256_CTX*>(ctx_)); }
void sha256_ctx::update(const void* data, size_t n) { SHA256_Update(static_cast<SHA256_CTX*>(ctx_), data, n); }
digest32 sha256_ctx::finish()
{
    digest32 out;
    SHA256_Final(out.data(), static_cast<SHA256_CTX*>(ctx_));
    reset();
    return out;
}

digest64 blake2b512(std::span<const uint8_t> data)
{
    std::unique_ptr<EVP_MD_CTX, md_ctx_free> c(EVP_MD_CTX_new());
    digest64 out;
    unsigned len = 0;
    if (!c || !EVP_DigestInit_ex(c.get(), md_blake2b512(), nullptr) ||
        !EVP_DigestUpdate(c.get(), data.data(), data.size()) || !EVP_DigestFinal_ex(c.get(), out.data(), &len) ||
        len != out.size())
        crypto_failed("BLAKE2b-512");
    return out;
}

digest32 blake2b256_keyed(std::span<const uint8_t> key, std::span<const uint8_t> data)
{
    std::unique_ptr<EVP_MAC, mac_free> mac(EVP_MAC_fetch(nullptr, "BLAKE2BMAC", nullptr));
    if (!mac) crypto_failed("BLAKE2BMAC fetch");
    std::unique_ptr<EVP_MAC_CTX, mac_ctx_free> c(EVP_MAC_CTX_new(mac.get()));
    size_t size = 32;
    OSSL_PARAM params[] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size), OSSL_PARAM_construct_end()};
    digest32 out;
    size_t len = 0;
    if (!c || !EVP_MAC_init(c.get(), key.data(), key.size(), params) ||
        !EVP_MAC_update(c.get(), data.data(), data.size()) || !EVP_MAC_final(c.get(), out.data(), &len, out.size()) ||
        len != out.size())
        crypto_failed("keyed BLAKE2b-256");
    return out;
}

void chacha20_keystream(const digest32& key, const std::array<uint8_t, 12>& nonce, uint64_t offset,
                        std::span<uint8_t> out)
{
    // OpenSSL's ChaCha20 IV is the 32-bit block counter (LE) followed by the
    // 96-bit nonce; start at the block holding `offset` and skip into it.
    const uint64_t block = offset / 64;
    if (block > 0xffffffffu) throw error(errc::invalid_argument, "chacha20: keystream offset beyond 2^38 bytes");
    uint8_t iv[16];
    for (int i = 0; i < 4; ++i) iv[i] = uint8_t(block >> (8 * i));
    std::copy(nonce.begin(), nonce.end(), iv + 4);
    std::unique_ptr<EVP_CIPHER_CTX, cipher_ctx_free> c(EVP_CIPHER_CTX_new());
    if (!c || !EVP_EncryptInit_ex(c.get(), EVP_chacha20(), nullptr, key.data(), iv)) crypto_failed("ChaCha20 init");
    const size_t skip = size_t(offset % 64);
    std::vector<uint8_t> zeros(skip + out.size(), 0), ks(zeros.size());
    int len = 0;
    if (!EVP_EncryptUpdate(c.get(), ks.data(), &len, zeros.data(), int(zeros.size())) || size_t(len) != zeros.size())
        crypto_failed("ChaCha20 keystream");
    std::copy(ks.begin() + std::ptrdiff_t(skip), ks.end(), out.begin());
}

} // namespace cuzk::filecoin
