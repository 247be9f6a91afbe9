// cuzk — read-only memory-mapped files and a checked buffered file writer.
//
// mapped_file maps a whole file read-only (MAP_PRIVATE, PROT_READ). It is
// move-only and unmaps in its destructor. An empty file is valid: data() is
// then nullptr and size() 0. Every failure is cuzk::error(errc::io) with a
// message that names the file and the system error.
//
// output_file writes a file through a large stdio buffer, checks every write,
// and can patch bytes already written (binfile section sizes). It writes a
// temporary file beside the target and renames it into place at close(): a
// failed writer (an exception, a full disk) leaves neither a truncated file
// nor a missing one under the requested name, and never removes a path it
// did not create.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <string_view>

#include "cuzk/util/regular_file.hpp"

namespace cuzk::io {

class mapped_file {
public:
    mapped_file() = default;
    // Maps `path` read-only. Throws errc::io when the file cannot be opened,
    // stat'ed or mapped (the message names the path and errno's text).
    explicit mapped_file(std::string path);
    ~mapped_file();
    mapped_file(mapped_file&& o) noexcept;
    mapped_file& operator=(mapped_file&& o) noexcept;
    mapped_file(const mapped_file&) = delete;
    mapped_file& operator=(const mapped_file&) = delete;

    const uint8_t* data() const noexcept { return data_; }
    size_t size() const noexcept { return size_; }
    std::span<const uint8_t> bytes() const noexcept { return {data_, size_}; }
    const std::string& path() const noexcept { return path_; }
    bool is_open() const noexcept { return open_; }

    // Access-pattern hints (madvise); failures are ignored.
    void advise_sequential() const noexcept;
    void advise_willneed() const noexcept;

private:
    void release() noexcept;
    std::string path_;
    const uint8_t* data_ = nullptr;
    size_t size_ = 0;
    bool open_ = false;
};

// Every reader of cuzk opens files through open_regular_file
// (cuzk/util/regular_file.hpp: regular files only, refused by name).
using cuzk::open_regular_file;

// The largest file read_text_file accepts by default (JSON proofs, keys,
// public inputs, timeline logs).
inline constexpr uint64_t max_text_file_bytes = uint64_t(1) << 30;

// The whole file as bytes (for small files such as JSON); errc::io on
// failure, errc::bad_length past max_bytes.
std::string read_text_file(const std::string& path, uint64_t max_bytes = max_text_file_bytes);

// Writes go to a new temporary file beside `path` (`.NAME.cuzk-tmp-…`,
// with the permissions of the file it replaces), which close() renames onto
// `path` once complete: a failed or abandoned write leaves whatever was at
// `path` as it was, and removes only its own temporary file. A `path` that
// exists and is not a regular file (a device, FIFO, socket or directory)
// is refused by name before anything is written (errc::invalid_argument);
// a symbolic link is kept and the file it points to replaced.
class output_file {
public:
    // Checks `path` and creates the temporary file; errc::io on failure.
    explicit output_file(std::string path);
    ~output_file();   // removes the temporary file if close() was not reached
    output_file(const output_file&) = delete;
    output_file& operator=(const output_file&) = delete;

    void write(const void* p, size_t n);
    void write(std::span<const uint8_t> b) { write(b.data(), b.size()); }
    void write_u32_le(uint32_t v);
    void write_u64_le(uint64_t v);
    void write_u32_be(uint32_t v);
    // Bytes written so far (the current end of file).
    uint64_t tell() const noexcept { return pos_; }
    // Overwrites n bytes at `offset` (< tell()), then continues at the end.
    void write_at(uint64_t offset, const void* p, size_t n);
    // Flushes, closes and renames the file onto `path`; errc::io if
    // anything failed (then `path` is untouched).
    void close();
    const std::string& path() const noexcept { return path_; }

private:
    [[noreturn]] void fail(const char* what);
    std::string path_;
    std::string target_;   // path_, or the file a link at path_ points to
    std::string tmp_;      // the temporary file being written
    std::FILE* f_ = nullptr;
    uint64_t pos_ = 0;
};

// Writes a whole small file (JSON) through output_file.
void write_text_file(const std::string& path, std::string_view text);

} // namespace cuzk::io
