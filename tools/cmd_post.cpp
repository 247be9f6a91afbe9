// `cuzk post <command>`: Filecoin PoSt (WindowPoSt, WinningPoSt) on sealed
// test sectors: challenges, vanilla proofs, the circuit, keys, proofs.
#include <cstdio>
#include <cstring>
#include <span>

#include "commands.hpp"
#include "post_commands.hpp"

namespace cuzk::cli {

namespace {

struct subcommand {
    const char* name;
    const char* synopsis;
    std::span<const flag_spec> flags;
    size_t min_pos, max_pos;
    int (*run)(const options&);
};

const subcommand subcommands[] = {
    {"challenges",
     "challenges --proof P --randomness HEX (--sector-ids ID,... | --winning-set N --prover-id HEX)",
     post::challenges_flags, 0, 0, post::post_challenges},
    {"vanilla", "vanilla --proof P --randomness HEX --out-dir DIR SECTOR-DIR...", post::vanilla_flags, 1, 1u << 20,
     post::post_vanilla},
    {"circuit", "circuit --proof P", post::circuit_flags, 0, 0, post::post_circuit_cmd},
    {"setup", "setup --proof P --out key.params --vk key.vk", post::setup_flags, 0, 0, post::post_setup},
    {"prove",
     "prove --proof P --randomness HEX (--params key.params | --dev-key [--vk key.vk]) [--partition K] "
     "[--repeat N] --out proof.bin (VANILLA... | --synthetic N)",
     post::prove_flags, 0, 1u << 20, post::post_prove_cmd},
    {"verify", "verify --proof P --vk key.vk --randomness HEX --sectors ID:COMM_R,... [--partition K] proof.bin",
     post::verify_flags, 1, 1, post::post_verify_cmd},
};

int post_usage(FILE* out)
{
    std::fprintf(out, "usage: cuzk post <command> [options]   (cuzk post <command> --help for its options)\n\ncommands:\n");
    for (const auto& s : subcommands) std::fprintf(out, "  %s\n", s.synopsis);
    return out == stdout ? 0 : 2;
}

} // namespace

int cmd_post(args a)
{
    if (a.empty()) return post_usage(stderr);
    if (!std::strcmp(a[0], "--help") || !std::strcmp(a[0], "-h")) return post_usage(stdout);
    for (const auto& s : subcommands) {
        if (std::strcmp(a[0], s.name) != 0) continue;
        try {
            const options o(a.subspan(1), s.flags, s.min_pos, s.max_pos);
            if (o.help()) {
                std::printf("usage: cuzk post %s\n\n%s", s.synopsis, describe_flags(s.flags).c_str());
                return 0;
            }
            return s.run(o);
        } catch (const usage_error& e) {
            std::fprintf(stderr, "cuzk post %s: %s\nusage: cuzk post %s\n", s.name, e.what(), s.synopsis);
            return 2;
        }
    }
    std::fprintf(stderr, "cuzk post: unknown command '%s'\n", a[0]);
    return post_usage(stderr);
}

} // namespace cuzk::cli
