// `cuzk serve`: the proving daemon (daemon/, docs/DAEMON.md), and `cuzk
// client`, its client, when this build has them (CUZK_DAEMON: gRPC and
// protobuf were found).
#include <cstdio>
#include <cstring>

#include "commands.hpp"

#if CUZK_WITH_DAEMON
#include "client.hpp"
#include "serve.hpp"
#endif

namespace cuzk::cli {

namespace {

#if !CUZK_WITH_DAEMON
int without_daemon(const char* cmd, const char* usage, args a)
{
    for (char* s : a)
        if (!std::strcmp(s, "--help") || !std::strcmp(s, "-h")) {
            std::printf("usage: cuzk %s %s\n"
                        "  this cuzk was built without the daemon (CUZK_DAEMON: gRPC and protobuf not found;\n"
                        "  scripts/setup.sh installs them)\n",
                        cmd, usage);
            return 0;
        }
    std::fprintf(stderr, "cuzk %s: this cuzk was built without the daemon (CUZK_DAEMON: gRPC and protobuf "
                         "not found; scripts/setup.sh installs them)\n",
                 cmd);
    return 1;
}
#endif

} // namespace

int cmd_serve(args a)
{
#if CUZK_WITH_DAEMON
    return daemon::serve(a);
#else
    return without_daemon("serve", "[--config FILE] [--listen ADDR] [flags]", a);
#endif
}

int cmd_client(args a)
{
#if CUZK_WITH_DAEMON
    return daemon::client(a);
#else
    return without_daemon("client", "ADDR (status | porep-c2 c1.json ...)", a);
#endif
}

} // namespace cuzk::cli
