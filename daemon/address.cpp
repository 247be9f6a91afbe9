// cuzk serve — listening addresses (address.hpp).
#include "address.hpp"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "cuzk/error.hpp"

namespace cuzk::daemon {

listen_address parse_address(const std::string& text, const std::string& what)
{
    listen_address a;
    if (text.rfind("unix:", 0) == 0) {
        std::string p = text.substr(5);
        if (p.rfind("//", 0) == 0) p = p.substr(2);   // unix:///path → /path
        if (p.empty() || p[0] != '/')
            throw error(errc::invalid_argument, fmt::format("{}: '{}': a unix address is unix:///absolute/path", what, text));
        if (p.size() >= sizeof(sockaddr_un{}.sun_path))
            throw error(errc::invalid_argument, fmt::format("{}: '{}': the socket path is too long", what, text));
        a.unix_socket = true;
        a.path = p;
        a.grpc = "unix:" + p;
        return a;
    }
    const size_t colon = text.rfind(':');
    if (text.find("://") != std::string::npos || colon == std::string::npos || colon == 0)
        throw error(errc::invalid_argument,
                    fmt::format("{}: '{}': expected host:port (e.g. 0.0.0.0:9820) or unix:///path", what, text));
    const std::string port = text.substr(colon + 1);
    if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos ||
        std::stoi(port) > 65535)
        throw error(errc::invalid_argument, fmt::format("{}: '{}': the port must be 0..65535", what, text));
    a.host = text.substr(0, colon);
    a.port = std::stoi(port);
    a.grpc = text;
    return a;
}

void prepare_unix_socket(const listen_address& a)
{
    namespace fs = std::filesystem;
    const fs::path p(a.path);
    std::error_code ec;
    fs::create_directories(p.parent_path(), ec);
    if (ec) throw error(errc::io, fmt::format("{}: cannot make its folder: {}", a.path, ec.message()));
    struct stat st;
    if (::lstat(a.path.c_str(), &st) != 0) return;   // nothing there
    if (!S_ISSOCK(st.st_mode)) throw error(errc::io, fmt::format("{}: exists and is not a socket", a.path));
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    if (fd < 0) throw error(errc::io, fmt::format("socket: {}", std::strerror(errno)));
    sockaddr_un sa{};
    sa.sun_family = AF_UNIX;
    std::strncpy(sa.sun_path, a.path.c_str(), sizeof sa.sun_path - 1);
    const bool live = ::connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) == 0;
    ::close(fd);
    if (live) throw error(errc::io, fmt::format("{}: another process is listening there", a.path));
    if (::unlink(a.path.c_str()) != 0)
        throw error(errc::io, fmt::format("{}: cannot remove the stale socket: {}", a.path, std::strerror(errno)));
}

} // namespace cuzk::daemon
