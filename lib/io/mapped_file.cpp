// Read-only mmap wrapper and checked file writer (see include/cuzk/io/mapped_file.hpp).
#include "cuzk/io/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <utility>

#include <fmt/format.h>

#include "cuzk/error.hpp"

namespace cuzk::io {

namespace {

[[noreturn]] void io_fail(const std::string& path, const char* what, int err)
{
    throw error(errc::io, fmt::format("{}: {}: {}", path, what, std::strerror(err)));
}

} // namespace

mapped_file::mapped_file(std::string path) : path_(std::move(path))
{
    uint64_t bytes = 0;
    const int fd = open_regular_file(path_, bytes);
    size_ = static_cast<size_t>(bytes);
    if (size_ > 0) {
        void* p = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            const int e = errno;
            ::close(fd);
            size_ = 0;
            io_fail(path_, "cannot mmap", e);
        }
        data_ = static_cast<const uint8_t*>(p);
    }
    ::close(fd);   // the mapping stays valid without the descriptor
    open_ = true;
}

mapped_file::~mapped_file() { release(); }

void mapped_file::release() noexcept
{
    if (data_) ::munmap(const_cast<uint8_t*>(data_), size_);
    data_ = nullptr;
    size_ = 0;
    open_ = false;
}

mapped_file::mapped_file(mapped_file&& o) noexcept
    : path_(std::move(o.path_)), data_(std::exchange(o.data_, nullptr)), size_(std::exchange(o.size_, 0)),
      open_(std::exchange(o.open_, false))
{
}

mapped_file& mapped_file::operator=(mapped_file&& o) noexcept
{
    if (this != &o) {
        release();
        path_ = std::move(o.path_);
        data_ = std::exchange(o.data_, nullptr);
        size_ = std::exchange(o.size_, 0);
        open_ = std::exchange(o.open_, false);
    }
    return *this;
}

void mapped_file::advise_sequential() const noexcept
{
    if (data_) ::madvise(const_cast<uint8_t*>(data_), size_, MADV_SEQUENTIAL);
}
void mapped_file::advise_willneed() const noexcept
{
    if (data_) ::madvise(const_cast<uint8_t*>(data_), size_, MADV_WILLNEED);
}

std::string read_text_file(const std::string& path, uint64_t max_bytes)
{
    const mapped_file f(path);
    if (f.size() > max_bytes)
        throw error(errc::bad_length, fmt::format("{}: {} bytes, more than the {} bytes a text file may have", path,
                                                  f.size(), max_bytes));
    return std::string(reinterpret_cast<const char*>(f.data()), f.size());
}

// ---- output_file ---------------------------------------------------------------

namespace {

// The path the output goes to: `path` itself, or where a symbolic link at
// `path` points (the link is kept and its target replaced). A target that
// exists and is not a regular file (a device, FIFO, socket or directory)
// is refused by name: the program never replaces or removes it.
std::string output_target(const std::string& path)
{
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        if (errno != ENOENT) io_fail(path, "cannot stat", errno);
        return path;
    }
    if (!S_ISREG(st.st_mode))
        throw error(errc::invalid_argument,
                    fmt::format("{}: exists and is not a regular file ({}); refusing to write over it", path,
                                S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO"
                                                      : S_ISSOCK(st.st_mode)                ? "a socket"
                                                      : S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) ? "a device"
                                                                                                   : "not a file"));
    struct stat lst {};
    if (::lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {
        std::unique_ptr<char, decltype(&std::free)> real(::realpath(path.c_str(), nullptr), &std::free);
        if (!real) io_fail(path, "cannot resolve the link", errno);
        return real.get();
    }
    return path;
}

// A new temporary file beside `target` (same folder, so the rename is
// atomic), with the permissions the target has, or a new file would get.
std::string create_temp(const std::string& target, std::FILE*& f)
{
    static std::atomic<uint64_t> counter{0};
    const size_t slash = target.find_last_of('/');
    const std::string dir = slash == std::string::npos ? std::string() : target.substr(0, slash + 1);
    const std::string base = slash == std::string::npos ? target : target.substr(slash + 1);
    struct stat st {};
    const bool exists = ::stat(target.c_str(), &st) == 0;
    for (int attempt = 0;; ++attempt) {
        const std::string tmp =
            fmt::format("{}.{}.cuzk-tmp-{}-{}", dir, base, ::getpid(), counter.fetch_add(1));
        const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0) {
            if (errno == EEXIST && attempt < 100) continue;
            io_fail(target, "cannot create", errno);
        }
        if (exists) (void)::fchmod(fd, st.st_mode & 07777);
        f = ::fdopen(fd, "wb");
        if (!f) {
            const int e = errno;
            ::close(fd);
            ::unlink(tmp.c_str());
            io_fail(target, "cannot create", e);
        }
        return tmp;
    }
}

} // namespace

output_file::output_file(std::string path) : path_(std::move(path))
{
    target_ = output_target(path_);
    tmp_ = create_temp(target_, f_);
    // 4 MiB buffer: large sequential writes of point arrays.
    std::setvbuf(f_, nullptr, _IOFBF, size_t{4} << 20);
}

output_file::~output_file()
{
    if (f_) {
        std::fclose(f_);
        ::unlink(tmp_.c_str());
    }
}

void output_file::fail(const char* what)
{
    const int e = errno;
    if (f_) {
        std::fclose(f_);
        f_ = nullptr;
        ::unlink(tmp_.c_str());
    }
    io_fail(path_, what, e);
}

void output_file::write(const void* p, size_t n)
{
    if (!f_) throw error(errc::io, fmt::format("{}: write after close", path_));
    if (n && std::fwrite(p, 1, n, f_) != n) fail("write failed");
    pos_ += n;
}

void output_file::write_u32_le(uint32_t v)
{
    uint8_t b[4];
    for (int i = 0; i < 4; ++i) b[i] = uint8_t(v >> (8 * i));
    write(b, 4);
}
void output_file::write_u64_le(uint64_t v)
{
    uint8_t b[8];
    for (int i = 0; i < 8; ++i) b[i] = uint8_t(v >> (8 * i));
    write(b, 8);
}
void output_file::write_u32_be(uint32_t v)
{
    uint8_t b[4];
    for (int i = 0; i < 4; ++i) b[i] = uint8_t(v >> (8 * (3 - i)));
    write(b, 4);
}

void output_file::write_at(uint64_t offset, const void* p, size_t n)
{
    if (!f_) throw error(errc::io, fmt::format("{}: write after close", path_));
    if (offset + n > pos_) throw error(errc::internal, fmt::format("{}: patch past the end of the file", path_));
    if (std::fflush(f_) != 0) fail("write failed");
    if (::fseeko(f_, static_cast<off_t>(offset), SEEK_SET) != 0) fail("seek failed");
    if (n && std::fwrite(p, 1, n, f_) != n) fail("write failed");
    if (std::fflush(f_) != 0) fail("write failed");
    if (::fseeko(f_, 0, SEEK_END) != 0) fail("seek failed");
}

void output_file::close()
{
    if (!f_) return;
    if (std::fflush(f_) != 0) fail("write failed");
    std::FILE* f = std::exchange(f_, nullptr);
    if (std::fclose(f) != 0) {
        const int e = errno;
        ::unlink(tmp_.c_str());
        io_fail(path_, "close failed", e);
    }
    if (::rename(tmp_.c_str(), target_.c_str()) != 0) {
        const int e = errno;
        ::unlink(tmp_.c_str());
        io_fail(path_, "cannot put the finished file in place", e);
    }
}

void write_text_file(const std::string& path, std::string_view text)
{
    output_file out(path);
    out.write(text.data(), text.size());
    out.close();
}

} // namespace cuzk::io
