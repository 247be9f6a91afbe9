// Opening a regular file for reading (see include/cuzk/util/regular_file.hpp).
#include "cuzk/util/regular_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "cuzk/error.hpp"

namespace cuzk {

namespace {

[[noreturn]] void open_fail(const std::string& path, const char* what, int err)
{
    throw error(errc::io, fmt::format("{}: {}: {}", path, what, std::strerror(err)));
}

const char* file_kind(mode_t m)
{
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISDIR(m)) return "a directory";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

} // namespace

int open_regular_file(const std::string& path, uint64_t& size)
{
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a
    // writer. It changes nothing for the regular files that get past fstat.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) open_fail(path, "cannot open", errno);
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const int e = errno;
        ::close(fd);
        open_fail(path, "cannot stat", e);
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        throw error(errc::io, fmt::format("{}: is {}; cuzk reads regular files only", path, file_kind(st.st_mode)));
    }
    size = uint64_t(st.st_size);
    return fd;
}

} // namespace cuzk
