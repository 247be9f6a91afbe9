// cuzk client — a client of a running `cuzk serve` (or of any server of the
// cuzk.v1.ProvingEngine protocol): its status, and PoRep C2 proofs sent as
// Curio sends them, from several client threads at once, timed.
#pragma once

#include <span>

namespace cuzk::daemon {

// Runs `cuzk client` with the command line after "client"; returns the exit
// status (0: done and every proof COMPLETED, 1: an RPC or a proof failed,
// 2: a malformed command line).
int client(std::span<char* const> args);

} // namespace cuzk::daemon
