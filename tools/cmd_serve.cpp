// `cuzk serve`: the proving daemon (daemon/, docs/DAEMON.md), when this
// build has it (CUZK_DAEMON: gRPC and protobuf were found).
#include <cstdio>
#include <cstring>

#include "commands.hpp"

#if CUZK_WITH_DAEMON
#include "serve.hpp"
#endif

namespace cuzk::cli {

int cmd_serve(args a)
{
#if CUZK_WITH_DAEMON
    return daemon::serve(a);
#else
    for (char* s : a)
        if (!std::strcmp(s, "--help") || !std::strcmp(s, "-h")) {
            std::printf("usage: cuzk serve [--config FILE] [--listen ADDR] [flags]\n"
                        "  this cuzk was built without the daemon (CUZK_DAEMON: gRPC and protobuf not found;\n"
                        "  scripts/setup.sh installs them)\n");
            return 0;
        }
    std::fprintf(stderr, "cuzk serve: this cuzk was built without the daemon (CUZK_DAEMON: gRPC and protobuf "
                         "not found; scripts/setup.sh installs them)\n");
    return 1;
#endif
}

} // namespace cuzk::cli
