// cuzk serve — the HTTP status page (http.hpp).
#include "http.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "cuzk/error.hpp"

namespace cuzk::daemon {

namespace {

void send_all(int fd, const std::string& s)
{
    size_t off = 0;
    while (off < s.size()) {
        const ssize_t n = ::send(fd, s.data() + off, s.size() - off, MSG_NOSIGNAL);
        if (n <= 0) return;
        off += size_t(n);
    }
}

std::string response(int code, const char* reason, const char* type, const std::string& body)
{
    return fmt::format("HTTP/1.0 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{}", code,
                       reason, type, body.size(), body);
}

} // namespace

http_status::http_status(const std::string& host, int port, page status, page metrics)
    : status_(std::move(status)), metrics_(std::move(metrics))
{
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    addrinfo* res = nullptr;
    const std::string port_s = std::to_string(port);
    if (::getaddrinfo(host.empty() ? nullptr : host.c_str(), port_s.c_str(), &hints, &res) != 0 || !res)
        throw error(errc::io, fmt::format("status_listen: cannot resolve '{}'", host));
    fd_ = ::socket(res->ai_family, SOCK_STREAM, 0);
    const int one = 1;
    if (fd_ >= 0) ::setsockopt(fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    const bool ok = fd_ >= 0 && ::bind(fd_, res->ai_addr, res->ai_addrlen) == 0 && ::listen(fd_, 16) == 0;
    ::freeaddrinfo(res);
    if (!ok) {
        const std::string why = std::strerror(errno);
        if (fd_ >= 0) ::close(fd_);
        throw error(errc::io, fmt::format("status_listen: {}:{}: {}", host, port, why));
    }
    sockaddr_storage sa{};
    socklen_t len = sizeof sa;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&sa), &len);
    port_ = sa.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&sa)->sin6_port)
                                     : ntohs(reinterpret_cast<sockaddr_in*>(&sa)->sin_port);
    thread_ = std::thread([this] { serve(); });
}

http_status::~http_status()
{
    stop_ = true;
    if (thread_.joinable()) thread_.join();
    ::close(fd_);
}

void http_status::serve()
{
    while (!stop_) {
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, 200) <= 0) continue;
        const int c = ::accept(fd_, nullptr, nullptr);
        if (c < 0) continue;
        answer(c);
        ::close(c);
    }
}

void http_status::answer(int fd)
{
    std::string req;
    char buf[1024];
    while (req.find("\r\n\r\n") == std::string::npos && req.size() < 8192) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 2000) <= 0) return;
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n <= 0) break;
        req.append(buf, size_t(n));
    }
    const std::string line = req.substr(0, req.find("\r\n"));
    try {
        if (line.rfind("GET /status ", 0) == 0 || line == "GET /status")
            send_all(fd, response(200, "OK", "application/json", status_()));
        else if (line.rfind("GET /metrics ", 0) == 0 || line == "GET /metrics")
            send_all(fd, response(200, "OK", "text/plain; version=0.0.4", metrics_()));
        else
            send_all(fd, response(404, "Not Found", "text/plain", "GET /status or /metrics\n"));
    } catch (const std::exception& e) {
        send_all(fd, response(500, "Internal Server Error", "text/plain", std::string(e.what()) + "\n"));
    }
}

} // namespace cuzk::daemon
