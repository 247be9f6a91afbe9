// cuzk — Filecoin's parameter manifest (parameters.json): each published
// .params and .vk file is listed by name with its IPFS cid, the sector size
// and a digest, the first 32 hex digits of the BLAKE2b-512 of the file.
#pragma once

#include <string>

namespace cuzk::filecoin {

// The BLAKE2b-512 of a file, streamed (never read whole into memory), as
// Filecoin's digest: its first 16 bytes in hex.
std::string params_file_digest(const std::string& path);

// Checks `path` against its entry in the manifest `parameters_json` (the
// entry named by the file's base name). Throws errc::bad_format naming the
// file when the entry is missing or the digest differs, errc::io when a file
// cannot be read.
void check_params_digest(const std::string& path, const std::string& parameters_json);

} // namespace cuzk::filecoin
