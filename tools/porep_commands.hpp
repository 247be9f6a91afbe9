// The `cuzk porep` subcommands: each declares its flags and runs on parsed options.
#pragma once

#include "cli_util.hpp"
#include "options.hpp"
#include "porep_common.hpp"

namespace cuzk::cli::porep {

// Flags that several subcommands take with the same meaning, defined once.
// A flag whose help differs between commands (--out, --backend, --vk, and the
// shape flags where a command says more) stays in that command's table.
namespace flag {
inline constexpr flag_spec threads{"--threads", "T", "threads (default: all cores)"};
inline constexpr flag_spec json{"--json", nullptr, "print one JSON object"};

// A test shape given by --nodes instead of a sector size.
inline constexpr flag_spec shape_nodes{"--nodes", "N",
                                       "a test shape of N nodes instead (with --layers, --challenges, --tree)"};
inline constexpr flag_spec shape_layers{"--layers", "L", "layers of a --nodes shape (default 2)"};
inline constexpr flag_spec shape_challenges{"--challenges", "K",
                                            "challenges per partition of a --nodes shape (default 2)"};
inline constexpr flag_spec shape_tree{"--tree", "A-B-C", "tree shape of a --nodes shape (default 8-0-0)"};
inline constexpr flag_spec circuit_sector_size{
    "--sector-size", "S", "a Filecoin sector's partition circuit: 2KiB, 8MiB, 512MiB, 32GiB or 64GiB"};

// The graph of labels and parents.
inline constexpr flag_spec graph_nodes{"--nodes", "N", "sector nodes (32-byte)"};
inline constexpr flag_spec graph_porep_id{"--porep-id", "ID", "registered proof number or 64 hex digits"};
inline constexpr flag_spec graph_api{"--api", "1.0|1.1|1.2",
                                     "API version (parent order); default: the proof's, or 1.1"};

// A sector's identity and commitments (the public inputs).
inline constexpr flag_spec comm_r{"--comm-r", "HEX", "comm_r"};
inline constexpr flag_spec comm_d{"--comm-d", "HEX", "comm_d"};
inline constexpr flag_spec prover_id{"--prover-id", "HEX", "prover id"};
inline constexpr flag_spec sector_id{"--sector-id", "N", "sector number"};
inline constexpr flag_spec ticket{"--ticket", "HEX", "ticket"};
inline constexpr flag_spec seed{"--seed", "HEX", "interactive seed"};
} // namespace flag

inline constexpr flag_spec seal_flags[] = {
    {"--sector-size", "S", "2KiB, 8MiB, 512MiB, 32GiB or 64GiB"},
    flag::shape_nodes,
    flag::shape_layers,
    {"--challenges", "K", "challenges of a --nodes shape (default 2, one partition)"},
    flag::shape_tree,
    {"--porep-id", "ID", "registered proof number (5 = 2 KiB V1_1, ...) or 64 hex digits"},
    {"--replica-id", "HEX", "the replica id, given outright"},
    {"--prover-id", "HEX", "prover id (with --sector-id and --ticket: the replica id is derived)"},
    flag::sector_id,
    flag::ticket,
    {"--data", "FILE", "unpadded data (at most 127/128 of the sector; zero-filled after); --zero: all zero (default)"},
    {"--zero", nullptr, "seal all-zero data (the default)"},
    {"--out", "DIR", "the sealed sector's directory"},
    flag::threads,
    flag::json,
    {"--backend", "auto|cpu|cuda", "where to hash the Poseidon trees (default auto: the GPU when present)"},
};
inline constexpr flag_spec c1_flags[] = {
    {"--seed", "HEX", "the interactive seed (64 hex digits) of the sealed sector DIR"},
    {"--synthetic", nullptr, "no DIR: generate a consistent C1 for a shape without sealing (interactive proofs only)"},
    {"--sector-size", "S", "--synthetic: 2KiB ... 64GiB (the V1_1 proof of that size unless --porep-id says otherwise)"},
    {"--porep-id", "ID", "--synthetic: registered proof number (8 = 32 GiB V1_1), or 64 hex digits with a size or shape"},
    {"--nodes", "N", "--synthetic: a test shape of N nodes instead (with --layers, --challenges, --partitions, --tree)"},
    flag::shape_layers,
    flag::shape_challenges,
    {"--partitions", "P", "partitions of a --nodes shape (default 1)"},
    flag::shape_tree,
    {"--gen-seed", "N", "--synthetic: the 64-bit generator seed (default 0); the same seed gives the same file"},
    {"--zero", nullptr, "--synthetic: an all-zero (committed-capacity) sector, replica_id derived as Filecoin's"},
    {"--miner-id", "N", "--zero: sealed by actor f0N (its prover id), e.g. for a daemon request with miner_id N"},
    {"--sector-number", "N", "--zero: the sector number replica_id derives from (default the generator's)"},
    {"--out", "FILE", "where to write the C1 output JSON"},
    flag::threads,
    flag::json,
    {"--backend", "auto|cpu|cuda", "where to rebuild the Poseidon trees (default auto: the GPU when present)"},
};
inline constexpr flag_spec check_flags[] = {
    {"--prover-id", "HEX", "with --sector-id: also check that replica_id derives from them and the ticket"},
    flag::sector_id,
    flag::threads,
    flag::json,
};
inline constexpr flag_spec labels_flags[] = {
    flag::graph_nodes,
    flag::graph_porep_id,
    flag::graph_api,
    {"--replica-id", "HEX", "replica id, 64 hex digits"},
    {"--layers", "L", "layers to label"},
    {"--last", nullptr, "print only the last label (layer L, node N-1)"},
    flag::threads,
    flag::json,
};
inline constexpr flag_spec parents_flags[] = {
    flag::graph_nodes,
    flag::graph_porep_id,
    flag::graph_api,
    {"--node", "I", "print the parents of node I"},
    {"--cache-digest", nullptr, "print the SHA-256 of the whole parent cache"},
    flag::threads,
    flag::json,
};
inline constexpr flag_spec poseidon_flags[] = {
    {"--arity", "A", "2, 4, 8, 11, 16, 24 or 36 (MerkleTree domain tag)"},
    flag::json,
};
inline constexpr flag_spec inputs_flags[] = {
    {"--porep-id", "ID", "registered proof number (the shape comes from it)"},
    flag::comm_r,
    flag::comm_d,
    flag::prover_id,
    flag::sector_id,
    flag::ticket,
    flag::seed,
    {"--partition", "K", "partition (default 0)"},
    flag::json,
};

inline constexpr flag_spec circuit_flags[] = {
    flag::circuit_sector_size,
    flag::shape_nodes,
    {"--layers", "L", "layers of a --nodes shape (default 2; the column hash needs 2 or 11)"},
    flag::shape_challenges,
    flag::shape_tree,
    flag::json,
};
inline constexpr flag_spec setup_flags[] = {
    flag::circuit_sector_size,
    flag::shape_nodes,
    flag::shape_layers,
    flag::shape_challenges,
    flag::shape_tree,
    {"--out", "FILE", "the key, bellperson .params"},
    {"--vk", "FILE", "its verifying key, bellperson .vk"},
    {"--backend", "auto|cpu|cuda", "where to make the key (default auto: the GPU when present)"},
    flag::threads,
    flag::json,
};
inline constexpr flag_spec c2_flags[] = {
    {"--params", "FILE",
     "the circuit's key (bellperson .params); on the GPU it is mapped, copied to device memory in chunks and "
     "decoded there"},
    {"--host-decode", nullptr, "with --params on the GPU: decode the points on the host instead (slower; a check)"},
    {"--parameters-json", "FILE", "check the .params file's digest against its entry in Filecoin's parameters.json"},
    {"--dev-key", nullptr, "or: make a development key in memory for the C1 output's shape (benchmarks, tests)"},
    {"--vk", "FILE", "with --dev-key: write its verifying key here"},
    {"--pce-cache", "DIR",
     "keep the recorded circuit (its PCE, ~9 GB for 32 GiB) in DIR: the first run writes it, later runs map it "
     "instead of recording (about a minute for 32 GiB)"},
    {"--out", "FILE", "where to write the proof (192 bytes per partition)"},
    {"--backend", "auto|cpu|cuda", "where to prove (default auto: the GPU when present)"},
    {"--synth-workers", "N", "partitions synthesized at once (default 2)"},
    {"--devices", "LIST", "CUDA devices to prove on, e.g. 0,2 (default: every visible GPU)"},
    {"--cpu-devices", "N", "devices the CPU prover models (default 1)"},
    {"--repeat", "N", "prove the C1 output N times with the same key (a benchmark; default 1)"},
    {"--concurrent", nullptr,
     "with --repeat: submit the N proofs at once, as a proving service does, so that one proof's synthesis "
     "overlaps another's device work; prints the throughput (wall seconds per proof)"},
    {"--h-copies-gb", "G",
     "GPU: up to G GiB of device memory per device for shifted copies of the H query, which shorten MSM_H "
     "(default 0: none)"},
    {"--device-memory-budget", "SIZE",
     "GPU: the most device memory the engine may hold on each device, every allocation counted, e.g. 16G to "
     "prove as a 16 GB card would (default: all of it)"},
    host_budget_flag,
    {"--batch", "N",
     "GPU, a key streamed from host memory: at most N partitions proved together, each chunk of points "
     "copied once for all of them (default: as many as the device's plan fits; 1: one at a time)"},
    {"--chunk-size", "SIZE",
     "GPU, a key streamed from host memory: each of its two device chunk buffers, e.g. 4G (default: the "
     "device's plan; larger chunks mean fewer MSMs and a smaller batch)"},
    {"--timeline", "FILE", "write the run's timeline (CSV, or a Chrome trace for *.json)"},
    {"--waterfall", nullptr, "print the waterfall and timeline summary on stderr"},
    flag::threads,
    flag::json,
};
inline constexpr flag_spec verify_flags[] = {
    {"--vk", "FILE", "verifying key (bellperson .vk)"},
    {"--proof", "FILE", "the proof (192 bytes per partition)"},
    {"--c1", "FILE", "take the shape, commitments, replica id and seed from this C1 output"},
    {"--porep-id", "ID", "or: the registered proof number"},
    flag::comm_r,
    flag::comm_d,
    flag::prover_id,
    flag::sector_id,
    flag::ticket,
    flag::seed,
};

int porep_circuit_cmd(const options& o);
int porep_setup(const options& o);
int porep_c2(const options& o);
int porep_verify_cmd(const options& o);
int porep_seal(const options& o);
int porep_c1(const options& o);
int porep_check(const options& o);
int porep_labels(const options& o);
int porep_parents(const options& o);
int porep_poseidon(const options& o);
int porep_inputs(const options& o);

} // namespace cuzk::cli::porep
