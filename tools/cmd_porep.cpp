// `cuzk porep <command>`: Filecoin PoRep test sectors and primitives.
#include <cstdio>
#include <cstring>
#include <span>

#include <fmt/format.h>

#include "cli_util.hpp"
#include "commands.hpp"
#include "porep_commands.hpp"

namespace cuzk::cli {

namespace {

const subcommand subcommands[] = {
    {"seal", "seal (--sector-size S | --nodes N) --porep-id ID (--replica-id HEX | --prover-id HEX --sector-id N --ticket HEX) [--data FILE | --zero] --out DIR",
     porep::seal_flags, 0, 0, porep::porep_seal},
    {"c1", "c1 (DIR --seed HEX | --synthetic (--sector-size S | --porep-id ID | --nodes N ... --porep-id ID) [--gen-seed N] [--zero [--miner-id N] [--sector-number N]]) --out c1.json",
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

} // namespace

int cmd_porep(args a) { return run_subcommand("porep", subcommands, a); }

} // namespace cuzk::cli
