// The cuzk command-line program (placeholder entry; subcommands are added per layer).
#include <cstdio>
#include <cstring>

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: cuzk <command> [args]\n");
        return 2;
    }
    std::fprintf(stderr, "cuzk: unknown command '%s'\n", argv[1]);
    return 2;
}
