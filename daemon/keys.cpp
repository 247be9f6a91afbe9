// cuzk serve — loading and dropping keys (keys.hpp).
#include "keys.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "cuzk/backend/cuda.hpp"
#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/parameters.hpp"
#include "cuzk/filecoin/porep/prove.hpp"
#include "cuzk/filecoin/post/prove.hpp"
#include "cuzk/filecoin/update/prove.hpp"
#include "cuzk/io/bellperson.hpp"

namespace cuzk::daemon {

namespace fc = filecoin;
namespace fs = std::filesystem;

namespace {

unsigned all_threads()
{
    return std::max(1u, std::thread::hardware_concurrency());
}

pipeline::engine_config engine_config_of(const config& cfg, bool gpu, timeline::sink* sink)
{
    pipeline::engine_config ec;
    ec.backend = gpu ? pipeline::engine_backend::cuda : pipeline::engine_backend::cpu;
    ec.cuda_devices = gpu ? cfg.devices : std::vector<int>{};
    ec.devices = gpu ? 0 : std::max(1u, cfg.cpu_devices);
    ec.workers_per_device = std::max(1u, cfg.workers_per_device);
    ec.synth_workers = std::max(1u, cfg.synthesis_workers);
    const unsigned threads = cfg.synthesis_threads ? cfg.synthesis_threads : all_threads();
    ec.synth_threads = std::max(1u, threads / ec.synth_workers);
    ec.lookahead = std::max(1u, cfg.lookahead);
    ec.host_memory_budget = cfg.total_budget;
    ec.device_memory_budget = cfg.device_memory_budget;
    ec.sink = sink;
    return ec;
}

std::string read_text(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

fc::porep_key dev_key(const circuit& c, bool gpu, unsigned threads)
{
    switch (c.kind) {
    case proof_kind::porep:
        return fc::porep_dev_setup(fc::record_porep_pce(fc::registered_seal_proof(c.registered), threads), gpu, threads);
    case proof_kind::snap: return fc::update_dev_setup(fc::registered_update_proof(c.registered), gpu, threads);
    case proof_kind::window_post:
    case proof_kind::winning_post: return fc::post_dev_setup(fc::registered_post_proof(c.registered), gpu, threads);
    }
    throw error(errc::internal, "unknown proof kind");
}

fc::porep_key file_key(const circuit& c, const std::string& path, bool gpu, unsigned threads)
{
    switch (c.kind) {
    case proof_kind::porep: {
        const fc::seal_config cfg = fc::registered_seal_proof(c.registered);
        return gpu ? fc::map_porep_key(cfg, path) : fc::load_porep_key(cfg, path, threads);
    }
    case proof_kind::snap: {
        const fc::update_config cfg = fc::registered_update_proof(c.registered);
        return gpu ? fc::map_update_key(cfg, path, threads) : fc::load_update_key(cfg, path, threads);
    }
    case proof_kind::window_post:
    case proof_kind::winning_post: {
        const fc::post_config cfg = fc::registered_post_proof(c.registered);
        return gpu ? fc::map_post_key(cfg, path, threads) : fc::load_post_key(cfg, path, threads);
    }
    }
    throw error(errc::internal, "unknown proof kind");
}

// A development key's verifying key beside the key files, so that its
// proofs can be checked outside the daemon (tests); a warning when it
// cannot be written.
void write_dev_vk(const std::string& dir, const circuit& c, const groth16::verifying_key& vk)
{
    const std::string path = (fs::path(dir) / fmt::format("cuzk-{}.dev.vk", c.id())).string();
    try {
        io::write_vk(path, vk);
        std::fprintf(stderr, "cuzk serve: its verifying key written to %s\n", path.c_str());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "cuzk serve: warning: the development key's verifying key not written: %s\n", e.what());
    }
}

} // namespace

key_store::key_store(const config& cfg, timeline_tap& tap) : cfg_(cfg), tap_(tap)
{
    std::string why;
    const bool have = cuda_available(&why);
    if (cfg.backend == "cuda" && !have) throw error(errc::unsupported, "backend cuda: " + why);
    gpu_ = cfg.backend != "cpu" && have;
    backend_why_ = gpu_ ? "a GPU is usable" : cfg.backend == "cpu" ? "asked for the CPU" : why;
    sink_ = std::make_unique<engine_tap>(tap_);
    engine_ = std::make_unique<pipeline::engine>(engine_config_of(cfg_, gpu_, sink_.get()));
}

key_store::~key_store()
{
    engine_.reset();   // before its sink
}

std::shared_ptr<key_store::slot> key_store::slot_of(const circuit& c)
{
    std::lock_guard lk(mu_);
    std::shared_ptr<slot>& s = slots_[c.id()];
    if (!s) s = std::make_shared<slot>();
    return s;
}

std::string key_store::find_file(const circuit& c) const
{
    for (const std::string& name : key_file_names(c)) {
        const fs::path p = fs::path(cfg_.param_cache) / name;
        std::error_code ec;
        if (fs::is_regular_file(p, ec)) return p.string();
    }
    return {};
}

std::shared_ptr<loaded_key> key_store::load(const circuit& c) const
{
    const unsigned threads = cfg_.synthesis_threads ? cfg_.synthesis_threads : all_threads();
    const auto t0 = std::chrono::steady_clock::now();
    auto k = std::make_shared<loaded_key>();
    k->c = c;
    fc::porep_key key;
    const std::string path = find_file(c);
    if (!path.empty()) {
        std::string manifest = cfg_.parameters_json;
        if (manifest.empty() && fs::is_regular_file(fs::path(cfg_.param_cache) / "parameters.json"))
            manifest = (fs::path(cfg_.param_cache) / "parameters.json").string();
        const std::string base = fs::path(path).filename().string();
        if (!manifest.empty() && read_text(manifest).find('"' + base + '"') != std::string::npos) {
            fc::check_params_digest(path, manifest);
            std::fprintf(stderr, "cuzk serve: %s matches its digest in %s\n", path.c_str(), manifest.c_str());
        }
        key = file_key(c, path, gpu_, threads);
        k->source = path;
    } else if (cfg_.dev_keys) {
        std::fprintf(stderr, "cuzk serve: WARNING: no key file for %s: making a DEVELOPMENT key (--dev-keys; NOT a "
                             "trusted ceremony, never for production)\n", c.id().c_str());
        key = dev_key(c, gpu_, threads);
        k->source = "development key";
        write_dev_vk(cfg_.param_cache, c, key.pk->vk);
    } else {
        std::string looked;
        for (const std::string& n : key_file_names(c)) looked += (looked.empty() ? "" : ", ") + n;
        throw error(errc::io, fmt::format("no key file for {} in the parameter cache {} (looked for {})", c.id(),
                                          cfg_.param_cache, looked));
    }
    k->vk = key.pk->vk;
    k->key = fc::add_porep_key(*engine_, key, pipeline::key_options{c.id()});
    k->host_bytes = engine_->host_bytes(k->key);
    k->device_bytes = engine_->resident_bytes(k->key);
    k->placement = engine_->placement(k->key);
    k->load_ms = uint64_t(std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count());
    std::fprintf(stderr, "cuzk serve: key %s loaded from %s in %.1f s (%s)\n", c.id().c_str(), k->source.c_str(),
                 double(k->load_ms) / 1000, gpu_ ? "cuda" : "cpu");
    return k;
}

std::shared_ptr<loaded_key> key_store::get(const circuit& c, uint64_t* loaded_ms)
{
    if (loaded_ms) *loaded_ms = 0;
    const std::shared_ptr<slot> s = slot_of(c);
    std::lock_guard lk(s->load_mu);
    std::shared_ptr<loaded_key> k;
    {
        std::lock_guard g(mu_);
        k = s->key;
    }
    if (k) return k;
    k = load(c);
    if (loaded_ms) *loaded_ms = k->load_ms;
    std::lock_guard g(mu_);
    s->key = k;
    return k;
}

std::shared_ptr<loaded_key> key_store::find(const circuit& c) const
{
    std::lock_guard lk(mu_);
    const auto it = slots_.find(c.id());
    return it == slots_.end() ? nullptr : it->second->key;
}

bool key_store::evict(const circuit& c, uint64_t* freed)
{
    *freed = 0;
    std::shared_ptr<slot> s;
    {
        std::lock_guard lk(mu_);
        const auto it = slots_.find(c.id());
        if (it == slots_.end()) return false;
        s = it->second;
    }
    std::lock_guard lk(s->load_mu);   // not while it loads
    std::shared_ptr<loaded_key> k;
    {
        std::lock_guard g(mu_);
        k = std::move(s->key);
    }
    if (!k) return false;
    std::lock_guard sl(k->submit_mu);   // no job submits to it from here on
    k->evicted = true;
    const pipeline::key_removal r = engine_->remove_key(k->key);
    *freed = r.host_bytes + r.device_bytes;
    std::fprintf(stderr, "cuzk serve: key %s evicted: %.1f MiB %s\n", c.id().c_str(), double(*freed) / (1 << 20),
                 r.freed ? "freed" : fmt::format("to be freed when the work still using it ends ({} job(s))", r.jobs).c_str());
    return true;
}

std::vector<std::shared_ptr<loaded_key>> key_store::loaded() const
{
    std::lock_guard lk(mu_);
    std::vector<std::shared_ptr<loaded_key>> out;
    for (const auto& [id, s] : slots_)
        if (s->key) out.push_back(s->key);
    return out;
}

} // namespace cuzk::daemon
