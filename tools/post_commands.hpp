// The `cuzk post` subcommands (Filecoin PoSt: WindowPoSt and WinningPoSt):
// each declares its flags and runs on parsed options; the helpers they share.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cuzk/filecoin/post/post.hpp"
#include "cuzk/io/json.hpp"
#include "cli_util.hpp"
#include "options.hpp"
#include "porep_common.hpp"

namespace cuzk::cli::post {

// Flags that several subcommands take with the same meaning, defined once.
namespace flag {
inline constexpr flag_spec proof{"--proof", "NAME|ID",
                                 "registered PoSt proof: its name (StackedDrgWindow32GiBV1_2, StackedDrgWinning2KiBV1, "
                                 "...) or its number 0..14 (0-4 Winning, 5-9 Window V1, 10-14 Window V1_2)"};
inline constexpr flag_spec randomness{"--randomness", "HEX", "the challenge randomness, 64 hex digits"};
inline constexpr flag_spec threads{"--threads", "T", "threads (default: all cores)"};
inline constexpr flag_spec json{"--json", nullptr, "print one JSON object"};
} // namespace flag

inline constexpr flag_spec challenges_flags[] = {
    flag::proof,
    flag::randomness,
    {"--sector-ids", "LIST", "the sectors proved, in the prover's order, e.g. 3,4: each sector's challenged leaves"},
    {"--winning-set", "N", "or (WinningPoSt): which of a prover's N sectors is challenged (an index 0..N-1)"},
    {"--prover-id", "HEX", "with --winning-set: the prover id, 64 hex digits"},
    flag::json,
};
inline constexpr flag_spec vanilla_flags[] = {
    flag::proof,
    flag::randomness,
    {"--out-dir", "DIR",
     "where to write <sector_id>.vanilla per sector (Filecoin's vanilla proof bytes); the SECTOR-DIRs are the "
     "prover's whole sector list in order (WindowPoSt V1's challenges depend on each sector's place in it)"},
    flag::threads,
    flag::json,
};
inline constexpr flag_spec circuit_flags[] = {
    flag::proof,
    flag::json,
};
inline constexpr flag_spec setup_flags[] = {
    flag::proof,
    {"--out", "FILE", "the key, bellperson .params"},
    {"--vk", "FILE", "its verifying key, bellperson .vk"},
    {"--backend", "auto|cpu|cuda", "where to make the key (default auto: the GPU when present)"},
    flag::threads,
    flag::json,
};
inline constexpr flag_spec prove_flags[] = {
    flag::proof,
    flag::randomness,
    {"--params", "FILE", "the circuit's key (bellperson .params); mapped on the GPU, decoded on the CPU"},
    {"--parameters-json", "FILE", "check the .params file's digest against its entry in Filecoin's parameters.json"},
    {"--dev-key", nullptr, "or: make a development key in memory for the proof's circuit (tests, benchmarks)"},
    {"--vk", "FILE", "with --dev-key: write its verifying key here"},
    {"--partition", "K", "the first partition's number (default 0): the sectors are partitions K, K+1, ..."},
    {"--synthetic", "N", "instead of files: made-up vanilla proofs of N sectors numbered 1 ... N (benchmarks)"},
    {"--gen-seed", "S", "with --synthetic: the generator seed (default 0)"},
    {"--repeat", "N", "prove N times with the same key and engine (a benchmark; default 1)"},
    {"--timeline", "FILE", "write the run's timeline (CSV, or a Chrome trace for *.json)"},
    {"--waterfall", nullptr, "print the waterfall and timeline summary on stderr"},
    {"--out", "FILE", "where to write the proof (192 bytes per partition)"},
    {"--backend", "auto|cpu|cuda", "where to prove (default auto: the GPU when present)"},
    {"--devices", "LIST", "CUDA devices to prove on, e.g. 0,2 (default: every visible GPU)"},
    {"--cpu-devices", "N", "devices the CPU prover models (default 1)"},
    {"--batch", "N", "GPU, a key streamed from host memory: at most N partitions proved together, each chunk of points copied once for all (default: as the device's plan fits; 1: one at a time)"},
    {"--device-memory-budget", "SIZE", "device memory for resident keys and prove scratch, e.g. 80G (default: all; "
                                       "a key is kept resident when its points fit the budget)"},
    host_budget_flag,
    flag::threads,
    flag::json,
};
inline constexpr flag_spec verify_flags[] = {
    flag::proof,
    {"--vk", "FILE", "verifying key (bellperson .vk)"},
    flag::randomness,
    {"--sectors", "LIST", "the proved sectors in the prover's order, ID:COMM_R,... (comm_r as 64 hex digits)"},
    {"--partition", "K", "the first partition's number (default 0)"},
    flag::json,
};

// --proof NAME|ID: the registered PoSt proof.
filecoin::post_config parse_post_proof(const options& o);
// --partition K (default 0); WinningPoSt has only partition 0.
unsigned parse_partition(const options& o, const filecoin::post_config& c);

// Prints `top` with its per-sector members `sectors` (objects with a
// sector_id first): with --json as one object whose "sectors" member is the
// array; otherwise `top` as print_result does, then one line per sector,
// "sector <id>: <key> <value> ...".
void print_with_sectors(io::json top, const io::json& sectors, bool json);

io::json u64_array(const std::vector<uint64_t>& v);

int post_challenges(const options& o);
int post_vanilla(const options& o);
int post_circuit_cmd(const options& o);
int post_setup(const options& o);
int post_prove_cmd(const options& o);
int post_verify_cmd(const options& o);

} // namespace cuzk::cli::post
