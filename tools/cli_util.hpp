// Small helpers shared by the cuzk commands: errors that name the argument a
// file was meant to be, byte sizes for people, and the backend choice.
#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/util/bytes.hpp"
#include "options.hpp"

namespace cuzk::cli {

// Runs read() and, when it throws cuzk::error, throws it again prefixed with
// what the argument was meant to be ("argument 1, the verification key
// (verification_key.json): x.json: expected a JSON object ..."), so that files
// given in the wrong order are recognisable.
template <class Read>
auto read_as(const std::string& role, Read&& read)
{
    try {
        return std::forward<Read>(read)();
    } catch (const error& e) {
        throw error(e.code(), fmt::format("{}: {}", role, e.what()));
    }
}

using cuzk::human_size;   // cuzk/util/bytes.hpp

// "123", "512K", "512KiB", "1.5G", "2GB": K/M/G/T are powers of 1024 with or
// without "iB"; "B" alone is bytes. usage_error naming `flag` otherwise.
uint64_t parse_size(const std::string& flag, const std::string& text);
// The host memory this process can get: the physical memory, or the
// address-space limit (ulimit -v) when lower.
uint64_t host_memory_limit();
// Refuses, naming the flag, the estimate and the limit, work whose memory
// estimate (bytes, for `what`) passes host_memory_limit(): before any of it
// is allocated.
void require_host_memory(const std::string& flag, uint64_t bytes, const std::string& what);
// --host-memory-budget SIZE, for the commands that run an engine: the host
// memory it may hold for keys and partitions in flight (0: unlimited);
// default nine tenths of host_memory_limit(), so that a partition that
// would not fit waits for room (MEM_WAIT) instead of the kernel ending the
// process.
inline constexpr flag_spec host_budget_flag{
    "--host-memory-budget", "SIZE",
    "host memory the engine may hold for keys and partitions in flight; more partitions wait for room "
    "(default: 9/10 of the physical memory or ulimit -v; 0: unlimited)"};
uint64_t host_memory_budget(const options& o);

// Why no GPU can be used, in words (from cuda_available's reason).
std::string no_gpu_reason();

// --backend auto|cpu|cuda (default auto): true for the GPU. auto picks the GPU
// when one is usable; cuda without one is an error saying why.
bool choose_gpu(const options& o);

// The engine's devices from --devices LIST (CUDA device numbers, e.g. 0,2;
// GPU only) and --cpu-devices N (devices the CPU prover models; CPU only).
// Sets cuda_devices / devices of an engine_config whose backend is chosen.
struct device_choice {
    std::vector<int> cuda;   // empty: every visible device
    unsigned cpu = 1;
};
device_choice parse_devices(const options& o, bool gpu);

// Prints "usage: cuzk <usage>" (one line per form), `about` and the flags on
// stdout; returns 0 (the exit status of --help).
int show_help(const char* usage, const char* about, std::span<const flag_spec> flags);

// "1 proof", "2 proofs".
std::string count_of(uint64_t n, const char* noun);

// The items of a comma-separated argument ("0,2" -> "0", "2"; "" -> one
// empty item, for the caller to refuse).
std::vector<std::string> split_list(const std::string& list);

// Seconds since t0 on the steady clock.
inline double secs_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// A command with subcommands (`cuzk porep seal`, `cuzk post prove`): each
// subcommand's name, usage line, flags, positional argument counts and code.
struct subcommand {
    const char* name;
    const char* synopsis;
    std::span<const flag_spec> flags;
    size_t min_pos, max_pos;
    int (*run)(const options&);
};
// Runs the subcommand a[0] of `group` ("porep"): its --help, its usage
// errors (exit 2, the usage line), or its code; the group's usage for
// --help, nothing, or an unknown name.
int run_subcommand(const char* group, std::span<const subcommand> table, std::span<char* const> a);

} // namespace cuzk::cli
