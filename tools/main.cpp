// cuzk — command-line entry point. Errors go to stderr with the file and the
// reason; the exit status is 0 only on success (for verify: only when valid),
// 2 for a malformed command line.
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <new>

#include "cli_util.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "cuzk/error.hpp"

namespace {

struct command {
    const char* name;
    int (*fn)(cuzk::cli::args);
    const char* synopsis;   // one line per form, as `cuzk <command> --help` prints it
    const char* what;
};

const command commands[] = {
    {"demo", cuzk::cli::cmd_demo, "demo [--quick] [--backend auto|cpu|cuda]",
     "self-checks, one Groth16 proof with the time of each step, a few figures"},
    {"info", cuzk::cli::cmd_info, "info <file>", "what a key, proof, witness, circuit or JSON file holds"},
    {"setup", cuzk::cli::cmd_setup,
     "setup <circuit.r1cs> <circuit.zkey>\n"
     "setup sha256 [--blocks B] [--threads N] <out.params> <out.vk>",
     "single-party development key (NOT a trusted ceremony): snarkjs .zkey, or the built-in SHA-256 circuit's "
     "bellperson .params/.vk"},
    {"prove", cuzk::cli::cmd_prove,
     "prove <circuit.zkey> <witness.wtns> <proof.json> <public.json> [--threads N] [--gpu]\n"
     "prove sha256 <in.params> <proof.bin> <public.json> [--blocks B] [--seed S] [--threads N]",
     "a Groth16 proof: rapidsnark's arguments, or the built-in SHA-256 circuit"},
    {"verify", cuzk::cli::cmd_verify,
     "verify <verification_key.json> <public.json> <proof.json>\n"
     "verify sha256 <in.vk> <public.json> <proof.bin>",
     "check a proof: prints OK and exits 0 when it is valid"},
    {"bench", cuzk::cli::cmd_bench, "bench [--proofs N] [--partitions P] [--jobs J] [--blocks B | --zkey F --wtns F] [...]",
     "proofs through the proving engine: throughput, utilisation, verdict, waterfall"},
    {"waterfall", cuzk::cli::cmd_waterfall, "waterfall <log|-> [--svg FILE] [--html FILE] [--trace FILE] [...]",
     "the waterfall, utilisation and bottleneck of a timeline or curio log"},
    {"porep", cuzk::cli::cmd_porep, "porep <command> ...",
     "Filecoin PoRep: seal a test sector, C1, C2, check, labels, parents, poseidon, inputs"},
    {"post", cuzk::cli::cmd_post, "post <command> ...",
     "Filecoin PoSt (WindowPoSt, WinningPoSt): challenges, vanilla proofs of sealed test sectors, circuit, setup, "
     "prove, verify"},
    {"update", cuzk::cli::cmd_update, "update <command> ...",
     "Filecoin SnapDeals (EmptySectorUpdate): circuit, prove (a made-up update), verify"},
    {"serve", cuzk::cli::cmd_serve, "serve [--config cuzk.toml] [--listen ADDR] [...]",
     "a proving daemon for Curio: the cuzk.v1.ProvingEngine gRPC service (docs/DAEMON.md)"},
    {"client", cuzk::cli::cmd_client, "client ADDR (status | porep-c2 c1.json --miner-id N --sector-number N ...)",
     "a running daemon's status, or PoRep C2 proofs sent to it as Curio sends them, timed"},
};

void print_synopsis(FILE* out, const char* synopsis, const char* first, const char* rest)
{
    const char* line = synopsis;
    for (bool head = true; *line; head = false) {
        const char* nl = std::strchr(line, '\n');
        const int n = nl ? int(nl - line) : int(std::strlen(line));
        std::fprintf(out, "%scuzk %.*s\n", head ? first : rest, n, line);
        line = nl ? nl + 1 : line + n;
    }
}

int usage(FILE* out)
{
    std::fprintf(out, "usage: cuzk <command> [arguments]   (cuzk <command> --help: its usage and flags)\n\ncommands:\n");
    for (const auto& c : commands) {
        print_synopsis(out, c.synopsis, "  ", "  ");
        std::fprintf(out, "      %s\n", c.what);
    }
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
            print_synopsis(stderr, c.synopsis, "usage: ", "       ");
            std::fprintf(stderr, "(cuzk %s --help lists the flags)\n", c.name);
            return 2;
        } catch (const cuzk::error& e) {
            std::fprintf(stderr, "cuzk %s: %s [%s]\n", c.name, e.what(), cuzk::errc_name(e.code()));
            return 1;
        } catch (const std::bad_alloc&) {   // no library text: what ran short, and what to do
            std::fprintf(stderr,
                         "cuzk %s: out of host memory: the sizes given (flags or files) need more than this process "
                         "can get (%.1f GiB: physical memory or ulimit -v); give smaller sizes or a larger machine "
                         "[out_of_memory]\n",
                         c.name, double(cuzk::cli::host_memory_limit()) / (1 << 30));
            return 1;
        } catch (const std::filesystem::filesystem_error& e) {   // the path and the system's reason, no library prefix
            std::fprintf(stderr, "cuzk %s: %s%s%s: %s [io]\n", c.name, e.path1().c_str(),
                         e.path2().empty() ? "" : " → ", e.path2().c_str(), e.code().message().c_str());
            return 1;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "cuzk %s: %s\n", c.name, e.what());
            return 1;
        }
    }
    std::fprintf(stderr, "cuzk: unknown command '%s'\n", argv[1]);
    return usage(stderr);
}
