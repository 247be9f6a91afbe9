// cuzk serve — listening addresses: "host:port" (TCP) or "unix:///path" /
// "unix:/path" (a unix socket: its parent folders are made, and a socket
// file no process answers on, left by a daemon that did not exit cleanly,
// is removed; a live one is an error).
#pragma once

#include <string>

namespace cuzk::daemon {

struct listen_address {
    bool unix_socket = false;
    std::string path;    // unix: the socket file
    std::string host;    // tcp
    int port = 0;        // tcp
    std::string grpc;    // the form grpc::ServerBuilder takes
};

// Parses `text`; errc::invalid_argument naming `what` for anything else.
listen_address parse_address(const std::string& text, const std::string& what);

// For a unix address: makes the parent folders and removes a stale socket.
// errc::io when another process listens there or the path is not a socket.
void prepare_unix_socket(const listen_address& a);

} // namespace cuzk::daemon
