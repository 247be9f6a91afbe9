// cuzk serve — the daemon's settings: defaults, the TOML file (the keys
// curio's cuzk daemon reads where they mean something here, plus cuzk's
// own), and the command line on top. docs/DAEMON.md lists every key.
//
// The TOML reader is a small subset written here (Debian 12 has no C++ TOML
// library package): [table] and [a.b] headers, `key = value` with basic
// strings, integers, booleans and one-line arrays of those, # comments. A
// key outside that subset is an error naming the line; a key the daemon
// does not know is named in a warning and otherwise ignored.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cuzk::daemon {

struct config {
    // [daemon]
    std::string listen = "unix:///run/curio/cuzk.sock";   // host:port or unix:///path
    std::string status_listen;                           // HTTP /status and /metrics ("" = off)
    std::string backend = "auto";                        // auto | cpu | cuda
    unsigned shutdown_grace_s = 30;                      // running jobs may finish this long on SIGTERM
    bool timeline = false;                               // TIMELINE lines on stderr
    // [jobs]
    unsigned keep_results_s = 600;                       // finished jobs answer repeated ids this long
    bool cancel_on_disconnect = false;                   // Prove's client gone: cancel its job
    // [gpus]
    std::vector<int> devices;                            // CUDA devices (empty = all)
    unsigned workers_per_device = 2;
    uint64_t device_memory_budget = 0;                   // bytes per device (0 = all)
    unsigned cpu_devices = 1;                            // cpu backend: devices modelled
    // [memory]
    uint64_t total_budget = 0;                           // host bytes (0 = auto: MemTotal − safety_margin)
    uint64_t safety_margin = uint64_t(5) << 30;
    // [srs]
    std::string param_cache;                             // FIL_PROOFS_PARAMETER_CACHE, else /data/zk/params
    std::string parameters_json;                         // digest manifest ("" = <param_cache>/parameters.json if present)
    bool dev_keys = false;                               // development keys on first use (tests only)
    // [synthesis], [pipeline]
    unsigned synthesis_threads = 0;                      // 0 = all cores
    unsigned synthesis_workers = 2;
    unsigned lookahead = 2;

    std::vector<std::string> warnings;                   // unknown or ignored keys, for the log
};

// The defaults with the environment applied (FIL_PROOFS_PARAMETER_CACHE).
config default_config();

// Applies the TOML text `text` (from `source`, for messages) on top of `c`.
// Throws cuzk::error(errc::bad_format) naming the source, line and key for a
// malformed line or a value of the wrong type.
void apply_toml(config& c, const std::string& text, const std::string& source);
// A file's whole contents (the config file, a client's C1 output);
// errc::io naming the path when it cannot be read.
std::string read_file(const std::string& path);

// "64GiB", "512MiB", "1000" (bytes) or "auto" (0); errc::bad_format naming `what`.
uint64_t parse_bytes(const std::string& text, const std::string& what);

} // namespace cuzk::daemon
