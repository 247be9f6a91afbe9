// cuzk serve — the optional HTTP status page (daemon.status_listen):
// GET /status (the GetStatus answer as JSON) and GET /metrics (Prometheus
// text), HTTP/1.0, one request per connection, on a thread of its own.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <thread>

namespace cuzk::daemon {

class http_status {
public:
    using page = std::function<std::string()>;
    // Listens on host:port now (errc::io when it cannot); serves until destroyed.
    http_status(const std::string& host, int port, page status, page metrics);
    ~http_status();
    http_status(const http_status&) = delete;
    http_status& operator=(const http_status&) = delete;
    int port() const noexcept { return port_; }   // the bound port (for port 0)

private:
    void serve();
    void answer(int fd);

    int fd_ = -1;
    int port_ = 0;
    page status_, metrics_;
    std::atomic<bool> stop_{false};
    std::thread thread_;
};

} // namespace cuzk::daemon
