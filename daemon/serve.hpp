// cuzk serve — the proving daemon's entry point (`cuzk serve`).
#pragma once

#include <span>

namespace cuzk::daemon {

// Runs the daemon with the command line after "serve" until SIGTERM or
// SIGINT; returns the exit status (0 after a clean shutdown, 1 on a start-up
// error, 2 for a malformed command line).
int serve(std::span<char* const> args);

} // namespace cuzk::daemon
