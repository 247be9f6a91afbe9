// The cuzk command-line program: one function per subcommand.
#pragma once

#include <span>
#include <string_view>

namespace cuzk::cli {

using args = std::span<char* const>;   // arguments after the subcommand name

int cmd_demo(args a);
int cmd_info(args a);
int cmd_setup(args a);
int cmd_prove(args a);
int cmd_verify(args a);
int cmd_waterfall(args a);
int cmd_bench(args a);
int cmd_porep(args a);
int cmd_post(args a);
int cmd_update(args a);
int cmd_serve(args a);   // tools/cmd_serve.cpp: the daemon, when built (daemon/)
int cmd_client(args a);  // tools/cmd_serve.cpp: a client of a running daemon

} // namespace cuzk::cli
