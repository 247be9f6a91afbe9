// cuzk serve — the loaded keys: one proving engine per circuit key, loaded
// from the parameter cache on first use (or by PreloadSRS), dropped by
// EvictSRS.
//
// Each loaded key has an engine of its own because the engine has no way to
// unregister a key: dropping the engine is what frees the key's host and
// device memory. Jobs hold their key (a shared_ptr), so an evicted key's
// memory is freed when its last running job ends, and a later request
// loads it again.
//
// Key files: key_file_names (circuits.hpp) under the parameter cache; when
// the cache holds parameters.json (or srs.parameters_json names one) and it
// lists the file, the file's digest is checked against it before use.
// --dev-keys: a circuit without a key file gets a single-party development
// key made in memory (NOT a trusted ceremony: tests only).
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "circuits.hpp"
#include "config.hpp"
#include "cuzk/groth16/types.hpp"
#include "cuzk/pipeline/engine.hpp"
#include "timeline_tap.hpp"

namespace cuzk::daemon {

struct loaded_key {
    circuit c;
    std::string source;                      // the file, or "development key"
    std::unique_ptr<engine_tap> tap;         // the engine's sink (outlives the engine)
    std::unique_ptr<pipeline::engine> engine;
    pipeline::key_id key = 0;
    groth16::verifying_key vk;
    uint64_t host_bytes = 0, device_bytes = 0;
    pipeline::engine::key_placement placement = pipeline::engine::key_placement::host;
    uint64_t load_ms = 0;
    std::atomic<unsigned> jobs{0};           // jobs using it now
};

class key_store {
public:
    // `tap` receives every engine's events; it must outlive the store.
    key_store(const config& cfg, timeline_tap& tap);
    ~key_store();

    // The key of `c`, loaded (once, however many callers ask at the same
    // time) when it is not yet. *loaded_ms, when given, is the load time
    // when this call loaded it, else 0. Throws cuzk::error: a missing key
    // file (errc::io naming the files looked for), a digest mismatch, a
    // file whose sizes are not the circuit's.
    std::shared_ptr<loaded_key> get(const circuit& c, uint64_t* loaded_ms = nullptr);
    // The key if loaded, else null.
    std::shared_ptr<loaded_key> find(const circuit& c) const;
    // Drops the key; false when it was not loaded. *freed: its host + device bytes.
    bool evict(const circuit& c, uint64_t* freed);
    std::vector<std::shared_ptr<loaded_key>> loaded() const;

    bool gpu() const noexcept { return gpu_; }
    const std::string& backend_reason() const noexcept { return backend_why_; }

private:
    struct slot {
        std::mutex load_mu;                  // one loader at a time per circuit
        std::shared_ptr<loaded_key> key;
    };
    std::shared_ptr<slot> slot_of(const circuit& c);
    std::shared_ptr<loaded_key> load(const circuit& c) const;
    std::string find_file(const circuit& c) const;

    config cfg_;
    timeline_tap& tap_;
    bool gpu_ = false;
    std::string backend_why_;
    mutable std::mutex mu_;
    std::map<std::string, std::shared_ptr<slot>> slots_;   // by circuit id
};

} // namespace cuzk::daemon
