// `cuzk porep <command>`: Filecoin PoRep test sectors and primitives.
#include <cstdio>
#include <cstring>
#include <span>

#include <fmt/format.h>

#include "commands.hpp"
#include "porep_commands.hpp"

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
    {"seal", "seal (--sector-size S | --nodes N) --porep-id ID (--replica-id HEX | --prover-id HEX --sector-id N --ticket HEX) [--data FILE | --zero] --out DIR",
     porep::seal_flags, 0, 0, porep::porep_seal},
    {"c1", "c1 (DIR --seed HEX | --synthetic (--sector-size S | --porep-id ID | --nodes N ... --porep-id ID) [--gen-seed N] [--zero]) --out c1.json",
     porep::c1_flags, 0, 1, porep::porep_c1},
    {"check", "check c1.json [--prover-id HEX --sector-id N]", porep::check_flags, 1, 1, porep::porep_check},
    {"circuit", "circuit (--sector-size S | --nodes N [--layers L] [--challenges K] [--tree A-B-C])", porep::circuit_flags,
     0, 0, porep::porep_circuit_cmd},
    {"setup", "setup (--sector-size S | --nodes N ...) --out key.params --vk key.vk", porep::setup_flags, 0, 0,
     porep::porep_setup},
    {"c2", "c2 c1.json (--params key.params | --dev-key [--vk key.vk]) --out proof.bin [--timeline FILE] [--waterfall]", porep::c2_flags, 1, 1,
     porep::porep_c2},
    {"verify", "verify --vk key.vk --proof proof.bin (--c1 c1.json | --porep-id ID --comm-r HEX --comm-d HEX --prover-id HEX --sector-id N --ticket HEX --seed HEX)",
     porep::verify_flags, 0, 0, porep::porep_verify_cmd},
    {"labels", "labels --nodes N --porep-id ID [--api V] --replica-id HEX --layers L [--last]", porep::labels_flags, 0, 0,
     porep::porep_labels},
    {"parents", "parents --nodes N --porep-id ID (--node I | --cache-digest)", porep::parents_flags, 0, 0,
     porep::porep_parents},
    {"poseidon", "poseidon --arity A x0 x1 ...", porep::poseidon_flags, 1, 64, porep::porep_poseidon},
    {"inputs", "inputs --porep-id ID --comm-r HEX --comm-d HEX --prover-id HEX --sector-id N --ticket HEX --seed HEX [--partition K]",
     porep::inputs_flags, 0, 0, porep::porep_inputs},
};

int porep_usage(FILE* out)
{
    std::fprintf(out, "usage: cuzk porep <command> [options]   (cuzk porep <command> --help for its options)\n\ncommands:\n");
    for (const auto& s : subcommands) std::fprintf(out, "  %s\n", s.synopsis);
    return out == stdout ? 0 : 2;
}

} // namespace

int cmd_porep(args a)
{
    if (a.empty()) return porep_usage(stderr);
    if (!std::strcmp(a[0], "--help") || !std::strcmp(a[0], "-h")) return porep_usage(stdout);
    for (const auto& s : subcommands) {
        if (std::strcmp(a[0], s.name) != 0) continue;
        try {
            const options o(a.subspan(1), s.flags, s.min_pos, s.max_pos);
            if (o.help()) {
                std::printf("usage: cuzk porep %s\n\n%s", s.synopsis, describe_flags(s.flags).c_str());
                return 0;
            }
            return s.run(o);
        } catch (const usage_error& e) {
            std::fprintf(stderr, "cuzk porep %s: %s\nusage: cuzk porep %s\n", s.name, e.what(), s.synopsis);
            return 2;
        }
    }
    std::fprintf(stderr, "cuzk porep: unknown command '%s'\n", a[0]);
    return porep_usage(stderr);
}

} // namespace cuzk::cli
