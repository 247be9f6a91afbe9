// `cuzk post <command>`: Filecoin PoSt (WindowPoSt, WinningPoSt) on sealed
// test sectors: challenges, vanilla proofs, the circuit, keys, proofs.
#include <cstdio>
#include <cstring>
#include <span>

#include "cli_util.hpp"
#include "commands.hpp"
#include "post_commands.hpp"

namespace cuzk::cli {

namespace {

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

} // namespace

int cmd_post(args a) { return run_subcommand("post", subcommands, a); }

} // namespace cuzk::cli
