#include "cuzk/filecoin/common/parameters.hpp"

#include <openssl/evp.h>

#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/types.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/io/mapped_file.hpp"

namespace cuzk::filecoin {

std::string params_file_digest(const std::string& path)
{
    const io::mapped_file f(path);
    f.advise_sequential();
    std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> c(EVP_MD_CTX_new(), EVP_MD_CTX_free);
    if (!c || !EVP_DigestInit_ex(c.get(), EVP_blake2b512(), nullptr))
        throw error(errc::internal, "libcrypto: BLAKE2b-512 init failed");
    constexpr size_t chunk = size_t(64) << 20;   // hashed in pieces: pages are read once, in order
    for (size_t off = 0; off < f.size(); off += chunk)
        if (!EVP_DigestUpdate(c.get(), f.data() + off, std::min(chunk, f.size() - off)))
            throw error(errc::internal, "libcrypto: BLAKE2b-512 update failed");
    uint8_t d[64];
    unsigned len = 0;
    if (!EVP_DigestFinal_ex(c.get(), d, &len) || len != 64) throw error(errc::internal, "libcrypto: BLAKE2b-512 failed");
    return to_hex(d, 16);
}

void check_params_digest(const std::string& path, const std::string& parameters_json)
{
    const io::json manifest = io::json::parse(io::read_text_file(parameters_json), parameters_json);
    const std::string name = std::filesystem::path(path).filename().string();
    const io::json* entry = manifest.is_object() ? manifest.find(name) : nullptr;
    const io::json* digest = entry && entry->is_object() ? entry->find("digest") : nullptr;
    if (!digest || !digest->is_string())
        throw error(errc::bad_format, fmt::format("{}: no entry with a digest for {}", parameters_json, name));
    const std::string got = params_file_digest(path);
    if (got != digest->as_string())
        throw error(errc::bad_format, fmt::format("{}: BLAKE2b digest {} differs from {}'s entry {}", path, got,
                                                  parameters_json, digest->as_string()));
}

} // namespace cuzk::filecoin
