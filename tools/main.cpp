// cuzk — command-line entry point. Errors go to stderr with the file and the
// reason; the exit status is 0 only on success (for verify: only when valid).
#include <cstdio>
#include <cstring>
#include <exception>

#include "commands.hpp"
#include "options.hpp"
#include "cuzk/error.hpp"

namespace {

struct command {
    const char* name;
    int (*fn)(cuzk::cli::args);
    const char* usage;
};

const command commands[] = {
    {"demo", cuzk::cli::cmd_demo, "demo [--quick]                      self-checks, a proof, and a few figures"},
    {"info", cuzk::cli::cmd_info, "info <file>                         what a key, proof, witness or circuit file holds"},
    {"setup", cuzk::cli::cmd_setup,
     "setup <circuit.r1cs> <circuit.zkey> single-party dev key (NOT a trusted ceremony)\n"
     "       setup sha256 <blocks> <out.params> [--vk out.vk]   built-in SHA-256 circuit, bellperson format"},
    {"prove", cuzk::cli::cmd_prove,
     "prove <circuit.zkey> <witness.wtns> <proof.json> <public.json> [--threads N] [--gpu]\n"
     "       prove sha256 <params> <proof.bin> [--threads N]"},
    {"verify", cuzk::cli::cmd_verify,
     "verify <verification_key.json> <public.json> <proof.json>\n"
     "       verify sha256 <vk> <proof.bin>"},
    {"bench", cuzk::cli::cmd_bench, "bench [--proofs N] [--partitions P] [--jobs J] [--blocks B] [...]   proofs through the engine: throughput, utilisation, verdict (--help)"},
    {"porep", cuzk::cli::cmd_porep,
     "porep <command> ...                 Filecoin PoRep: seal a test sector, C1, check, labels, parents, poseidon, inputs"},
    {"waterfall", cuzk::cli::cmd_waterfall, "waterfall <log> [--svg FILE] [--html FILE] [--width N]   waterfall, device utilisation and bottleneck of a timeline"},
};

int usage(FILE* out)
{
    std::fprintf(out, "usage: cuzk <command> [args]\n\ncommands:\n");
    for (const auto& c : commands) std::fprintf(out, "  %s\n", c.usage);
    return out == stdout ? 0 : 2;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 2) return usage(stderr);
    if (!std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "help"))
        return usage(stdout);
    for (const auto& c : commands) {
        if (std::strcmp(argv[1], c.name) != 0) continue;
        try {
            return c.fn(cuzk::cli::args(argv + 2, size_t(argc - 2)));
        } catch (const cuzk::cli::usage_error& e) {   // a malformed command line: exit 2
            std::fprintf(stderr, "cuzk %s: %s\n", c.name, e.what());
            return 2;
        } catch (const cuzk::error& e) {
            std::fprintf(stderr, "cuzk %s: %s [%s]\n", c.name, e.what(), cuzk::errc_name(e.code()));
            return 1;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "cuzk %s: %s\n", c.name, e.what());
            return 1;
        }
    }
    std::fprintf(stderr, "cuzk: unknown command '%s'\n", argv[1]);
    return usage(stderr);
}
