// cuzk serve — the loaded keys: one proving engine for every circuit, its
// keys loaded from the parameter cache on first use (or by PreloadSRS) and
// removed by EvictSRS.
//
// One engine serves every circuit, so its priority order, device locks and
// memory budgets (memory.total_budget, gpus.device_memory_budget) hold
// across circuits: a WinningPoSt job overtakes queued PoRep partitions, and
// the keys of every circuit share one budget. EvictSRS removes the key from
// the engine (engine::remove_key): no job submits to it afterwards (a job
// that loaded it but had not submitted loads it again), the jobs already
// queued or running with it go on, and its host and device memory goes
// back to the budgets when the last of them ends. A later request loads the
// key again (under a new engine key id).
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
    pipeline::key_id key = 0;                // in key_store::engine()
    groth16::verifying_key vk;
    uint64_t host_bytes = 0, device_bytes = 0;
    pipeline::engine::key_placement placement = pipeline::engine::key_placement::host;
    uint64_t load_ms = 0;
    std::atomic<unsigned> jobs{0};           // jobs using it now
    // Held while a job submits to the key and while EvictSRS removes it:
    // a job that finds `evicted` loads the key again.
    std::mutex submit_mu;
    bool evicted = false;                    // under submit_mu
};

class key_store {
public:
    // Makes the engine (on the backend cfg asks for; throws cuzk::error when
    // it cannot start). `tap` receives its events; it must outlive the store.
    key_store(const config& cfg, timeline_tap& tap);
    // Destroys the engine: jobs not ended are cancelled.
    ~key_store();

    // The engine every key is in. Submit to a key with its submit_mu held
    // and `evicted` false (else get() it again).
    pipeline::engine& engine() noexcept { return *engine_; }

    // The key of `c`, loaded (once, however many callers ask at the same
    // time) when it is not yet. *loaded_ms, when given, is the load time
    // when this call loaded it, else 0. Throws cuzk::error: a missing key
    // file (errc::io naming the files looked for), a digest mismatch, a
    // file whose sizes are not the circuit's.
    std::shared_ptr<loaded_key> get(const circuit& c, uint64_t* loaded_ms = nullptr);
    // The key if loaded, else null.
    std::shared_ptr<loaded_key> find(const circuit& c) const;
    // Removes the key from the engine; false when it was not loaded.
    // *freed: the host + device bytes it gives back (engine::remove_key: at
    // once, or when the jobs still running with it end).
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
    std::unique_ptr<engine_tap> sink_;           // the engine's sink (outlives it)
    std::unique_ptr<pipeline::engine> engine_;
    mutable std::mutex mu_;
    std::map<std::string, std::shared_ptr<slot>> slots_;   // by circuit id
};

} // namespace cuzk::daemon
