// cuzk — helpers shared by the libFuzzer harnesses (fuzz/fuzz_*.cpp).
//
// Every harness feeds one input to one reader. A cuzk::error is the reader's
// normal answer to bad bytes and is swallowed; anything else (a sanitizer
// report, an uncaught std:: exception, a huge allocation that libFuzzer's
// -malloc_limit_mb catches, a failed property check) is a finding.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>

#include "cuzk/error.hpp"

namespace cuzk::fuzz {

// The input as an anonymous in-memory file, reachable by a path, for the
// readers that open files themselves (mapped_params, load_pce). The path is
// /proc/self/fd/N of a memfd, a regular file for open_regular_file.
class memory_file {
public:
    explicit memory_file(std::span<const uint8_t> data)
    {
        fd_ = ::memfd_create("cuzk-fuzz", MFD_CLOEXEC);
        if (fd_ < 0) std::abort();
        size_t done = 0;
        while (done < data.size()) {
            const ssize_t w = ::write(fd_, data.data() + done, data.size() - done);
            if (w <= 0) std::abort();
            done += size_t(w);
        }
        path_ = "/proc/self/fd/" + std::to_string(fd_);
    }
    ~memory_file() { ::close(fd_); }
    memory_file(const memory_file&) = delete;
    memory_file& operator=(const memory_file&) = delete;
    const std::string& path() const { return path_; }

private:
    int fd_ = -1;
    std::string path_;
};

inline std::string_view as_text(const uint8_t* data, size_t size)
{
    return {reinterpret_cast<const char*>(data), size};
}

// A property that must hold for every input the reader accepted.
inline void require(bool ok, const char* what)
{
    if (ok) return;
    std::fprintf(stderr, "fuzz property violated: %s\n", what);
    std::abort();
}

// Runs f; a cuzk::error is the expected refusal of bad input.
template <class F>
void expect_errors(F&& f)
{
    try {
        f();
    } catch (const cuzk::error&) {
    }
}

} // namespace cuzk::fuzz
