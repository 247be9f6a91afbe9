// cuzk — opening a file for reading, regular files only: the check every
// reader of cuzk shares (io::mapped_file, io::read_text_file, r1cs::load_pce).
#pragma once

#include <cstdint>
#include <string>

namespace cuzk {

// Opens `path` read-only and returns the descriptor and the file's size.
// Only regular files are accepted: a FIFO, device, directory or socket is
// refused by name (errc::io) without blocking; a file that cannot be opened
// or examined is errc::io naming the path and the system's reason.
int open_regular_file(const std::string& path, uint64_t& size);

} // namespace cuzk
