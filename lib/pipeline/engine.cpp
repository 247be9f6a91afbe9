// The public engine (cuzk/pipeline/engine.hpp): its start and shutdown,
// submit and the job handles. The workers are in engine_synthesis.cpp,
// engine_device.cpp and engine_tail.cpp, the keys in engine_keys.cpp; what
// they share is engine_core.hpp.
#include "engine_core.hpp"

namespace cuzk::pipeline {

using detail::job_state;
using detail::key_entry;
using detail::size_text;
using detail::variables;

// ---- engine ---------------------------------------------------------------------------

namespace {

// The estimates' formulas (engine.hpp) over the domain n and the v variables.
uint64_t host_estimate(uint64_t n, uint64_t v)
{
    return 32 * v + 4 * 32 * n + 16 * n + v * (32 + 1 + 192) + (uint64_t{1} << 20);
}
uint64_t device_estimate(uint64_t n, uint64_t v) { return 32 * v + 4 * 32 * n + 32 * v + 16 * v + (uint64_t{1} << 20); }

} // namespace

template <class C>
uint64_t partition_bytes_estimate(const groth16::proving_key_t<C>& pk)
{
    return host_estimate(pk.domain_size, variables(pk));
}
template uint64_t partition_bytes_estimate(const groth16::proving_key_t<bls12_381_curve>&);
template uint64_t partition_bytes_estimate(const groth16::proving_key_t<bn254_curve>&);
uint64_t partition_bytes_estimate_cuda(const groth16::proving_key& pk, bool host_abc)
{
    return 32 * variables(pk) + (host_abc ? 3 * 32 * pk.domain_size : 0) + (uint64_t{1} << 20);
}
template <class C>
uint64_t device_bytes_estimate(const groth16::proving_key_t<C>& pk)
{
    return device_estimate(pk.domain_size, variables(pk));
}
template uint64_t device_bytes_estimate(const groth16::proving_key_t<bls12_381_curve>&);
template uint64_t device_bytes_estimate(const groth16::proving_key_t<bn254_curve>&);

const char* backend_name(engine_backend b) noexcept
{
    switch (b) {
    case engine_backend::cpu: return "cpu";
    case engine_backend::cuda: return "cuda";
    }
    return "?";
}

const char* status_name(job_status s) noexcept
{
    switch (s) {
    case job_status::queued: return "queued";
    case job_status::running: return "running";
    case job_status::completed: return "completed";
    case job_status::failed: return "failed";
    case job_status::cancelled: return "cancelled";
    }
    return "?";
}

namespace {

// The engine's devices: CUDA device numbers (cuda) or 0 … n−1 (cpu).
std::vector<int> resolve_devices(const engine_config& cfg)
{
    std::vector<int> out;
    if (cfg.backend == engine_backend::cpu) {
        if (!cfg.cuda_devices.empty())
            throw error(errc::invalid_argument, "engine: cuda_devices is for the cuda backend (the cpu backend takes devices)");
        for (unsigned d = 0; d < std::max(1u, cfg.devices); ++d) out.push_back(int(d));
        return out;
    }
    std::string why;
    if (!cuda_available(&why))
        throw error(errc::unsupported, fmt::format("engine: backend cuda is not available: {}", why));
    const int visible = cuda_device_count();
    if (!cfg.cuda_devices.empty()) {
        if (cfg.devices != 0 && cfg.devices != cfg.cuda_devices.size())
            throw error(errc::invalid_argument,
                        fmt::format("engine: devices is {} but cuda_devices names {}", cfg.devices,
                                    cfg.cuda_devices.size()));
        out = cfg.cuda_devices;
    } else {
        const int n = cfg.devices == 0 ? visible : int(std::min<unsigned>(cfg.devices, 1u << 16));
        for (int d = 0; d < n; ++d) out.push_back(d);
    }
    for (size_t i = 0; i < out.size(); ++i) {
        if (out[i] < 0 || out[i] >= visible)
            throw error(errc::invalid_argument, fmt::format("engine: CUDA device {} does not exist ({} visible)",
                                                            out[i], visible));
        if (std::find(out.begin(), out.begin() + long(i), out[i]) != out.begin() + long(i))
            throw error(errc::invalid_argument, fmt::format("engine: CUDA device {} is listed twice", out[i]));
    }
    return out;
}

// cuda: the device memory budget becomes each device's memory cap (every
// allocation counted, cuda.hpp), and the high-water marks start from here.
void cap_devices(detail::engine_core& c)
{
    for (int n : c.numbers) {
        if (c.cfg.device_memory_budget != 0) {
            c.caps_set.emplace_back(n, gpu_memory_use_of(n).cap);
            gpu_set_memory_cap(n, c.cfg.device_memory_budget);
        }
        gpu_reset_memory_peak(n);
    }
}

} // namespace

engine::engine(const engine_config& cfg) : cfg_(cfg)
{
    if (cfg.synth_workers == 0 || cfg.lookahead == 0 || cfg.workers_per_device == 0 || cfg.partitions_per_call == 0)
        throw error(errc::invalid_argument,
                    fmt::format("engine: synth_workers ({}), lookahead ({}), workers_per_device ({}) and "
                                "partitions_per_call ({}) must be at least 1",
                                cfg.synth_workers, cfg.lookahead, cfg.workers_per_device, cfg.partitions_per_call));
    if (cfg.backend != engine_backend::cpu && cfg.backend != engine_backend::cuda)
        throw error(errc::invalid_argument, "engine: unknown backend");
    auto p = std::make_shared<detail::engine_core>();
    p->cfg = cfg;
    p->numbers = resolve_devices(cfg);
    p->lookahead_cap = cfg.lookahead;
    const size_t n_dev = p->numbers.size();
    cfg_.devices = p->cfg.devices = unsigned(n_dev);
    cfg_.cuda_devices = p->cfg.cuda_devices = cfg.backend == engine_backend::cuda ? p->numbers : std::vector<int>{};
    p->live_devices = unsigned(n_dev);
    p->consecutive_errors.assign(n_dev, 0);
    p->counters.device_busy_ns.assign(n_dev, 0);
    p->counters.device_partitions.assign(n_dev, 0);
    p->counters.device_failures.assign(n_dev, 0);
    p->counters.device_excluded.assign(n_dev, 0);
    p->counters.device_numbers = p->numbers;
    p->dev_reserved.assign(n_dev, 0);
    p->dev_peak.assign(n_dev, 0);
    p->dev_mem_next.assign(n_dev, 0);
    p->dev_mem_turn.assign(n_dev, 0);
    if (cfg.backend == engine_backend::cuda) {
        // The backend's page-locked staging buffers (per device) count in the host budget.
        p->resident_host = gpu_staging_host_bytes() * n_dev;
        if (cfg.host_memory_budget != 0 && p->resident_host > cfg.host_memory_budget)
            throw error(errc::out_of_memory,
                        fmt::format("engine: the host memory budget of {} cannot hold the cuda backend's "
                                    "page-locked staging buffers ({} for {} devices)",
                                    human_size(cfg.host_memory_budget), human_size(p->resident_host), n_dev));
        p->peak = p->resident_host;
    }
    for (size_t d = 0; d < n_dev; ++d) p->device_locks.push_back(std::make_unique<detail::fifo_mutex>());
    if (cfg.backend == engine_backend::cuda) cap_devices(*p);
    p_ = std::move(p);
    // Worker numbers: synthesis, then prove workers (device-major), then tails.
    try {
        int32_t w = 0;
        for (unsigned i = 0; i < cfg.synth_workers; ++i, ++w) p_->threads.emplace_back([q = p_.get(), w] { q->synth_loop(w); });
        for (unsigned d = 0; d < cfg_.devices; ++d)
            for (unsigned i = 0; i < cfg.workers_per_device; ++i, ++w)
                p_->threads.emplace_back([q = p_.get(), w, d] { q->prove_loop(w, int32_t(d)); });
        for (unsigned i = 0; i < cfg.tail_threads; ++i, ++w) p_->threads.emplace_back([q = p_.get(), w] { q->tail_loop(w); });
        p_->threads.emplace_back([q = p_.get()] { q->reap_loop(); });
    } catch (...) {
        {
            std::lock_guard lk(p_->mu);
            p_->stopping = true;
        }
        {
            std::lock_guard lk(p_->reap_mu);
            p_->reap_stop = true;
        }
        p_->reap_cv.notify_all();
        p_->cv_synth.notify_all();
        p_->cv_prove.notify_all();
        p_->cv_tail.notify_all();
        p_->cv_devmem.notify_all();
        for (auto& t : p_->threads) t.join();
        for (const auto& [n, cap] : p_->caps_set) gpu_set_memory_cap(n, cap);
        throw;
    }
}

engine::~engine()
{
    std::vector<std::shared_ptr<job_state>> pending;
    {
        std::lock_guard lk(p_->mu);
        p_->stopping = true;
        for (auto& [id, j] : p_->live) pending.push_back(j);
    }
    p_->cv_synth.notify_all();
    p_->cv_prove.notify_all();
    p_->cv_tail.notify_all();
    p_->cv_devmem.notify_all();
    std::sort(pending.begin(), pending.end(), [](const auto& x, const auto& y) { return x->seq < y->seq; });
    for (auto& j : pending) p_->finish(j, job_status::cancelled, fmt::format("job {}: engine shut down", j->id), errc::cancelled, -1);
    {
        std::lock_guard lk(p_->reap_mu);
        p_->reap_stop = true;
    }
    p_->reap_cv.notify_all();
    for (auto& t : p_->threads) t.join();
    for (const auto& [n, cap] : p_->caps_set) gpu_set_memory_cap(n, cap);
    {
        std::lock_guard lk(p_->mu);
        p_->lookahead.clear();
        p_->tails.clear();
        p_->dispatch.clear();
    }
    if (cfg_.sink) cfg_.sink->flush();
}

uint64_t engine::now_ns() const noexcept { return p_->now_ns(); }

namespace {

// The partitions' forms against the key (before anything is queued).
void check_forms(const proof_request& req, const key_entry& key)
{
    if (req.partitions.empty()) throw error(errc::invalid_argument, fmt::format("submit {}: no partitions", req.id));
    if (req.partitions.size() > UINT32_MAX)
        throw error(errc::invalid_argument, fmt::format("submit {}: too many partitions", req.id));
    for (size_t i = 0; i < req.partitions.size(); ++i) {
        const partition& pt = req.partitions[i];
        if (auto* c = std::get_if<circuit_partition>(&pt); c && !c->circuit)
            throw error(errc::invalid_argument, fmt::format("submit {}: partition {} has no circuit", req.id, i));
        const bool abc = std::holds_alternative<abc_partition>(pt) || std::holds_alternative<borrowed_abc_partition>(pt);
        // Every form but a BN254 full witness is over BLS12-381's scalars.
        const curve_id over = std::holds_alternative<full_witness_partition_t<bn254_curve>>(pt) ? curve_id::bn254
                                                                                                 : curve_id::bls12_381;
        if (over != key.curve) {
            throw error(errc::invalid_argument,
                        fmt::format("submit {}: partition {}: key {} is a {} key, which takes no {} partition", req.id,
                                    i, key.name, curve_name(key.curve), curve_name(over)));
        } else if (key.snarkjs) {
            if (over == curve_id::bls12_381 && !std::holds_alternative<full_witness_partition>(pt) &&
                !std::holds_alternative<witness_partition>(pt))
                throw error(errc::invalid_argument,
                            fmt::format("submit {}: partition {}: key {} is a snarkjs key, which takes witness "
                                        "partitions (owned) only", req.id, i, key.name));
        } else if (!abc && !key.pce) {
            throw error(errc::invalid_argument,
                        fmt::format("submit {}: partition {} needs a PCE and key {} has none", req.id, i, key.name));
        }
    }
}

// Refuses a job whose partition could never fit the host or device budget.
void check_budgets(detail::engine_core& c, const std::string& id, const key_entry& key)
{
    if (const uint64_t budget = c.cfg.host_memory_budget; budget != 0) {
        uint64_t resident = 0;
        {
            std::lock_guard lk(c.mu);
            resident = c.resident_host;
        }
        if (resident > budget || key.partition_bytes > budget - resident)
            throw error(errc::out_of_memory,
                        fmt::format("submit {}: one partition of key {} needs about {}; the host memory budget is "
                                    "{}, {} of it held by the registered keys; it could never run (raise the budget)",
                                    id, key.name, size_text(key.partition_bytes), size_text(budget),
                                    size_text(resident)));
    }
    if (const uint64_t dbudget = c.cfg.device_memory_budget; dbudget != 0) {
        uint64_t resident = 0;
        {
            std::lock_guard lk(c.mu);
            resident = c.resident_total;
        }
        if (resident > dbudget || key.device_bytes > dbudget - resident)
            throw error(errc::out_of_memory,
                        fmt::format("submit {}: one device part of key {} needs {} of device memory; the device "
                                    "memory budget is {}, {} of it held by resident keys; it could never run (raise "
                                    "the budget)",
                                    id, key.name, size_text(key.device_bytes), size_text(dbudget),
                                    size_text(resident)));
    }
    std::lock_guard lk(c.mu);
    if (c.live_devices == 0)
        throw error(errc::device, fmt::format("submit {}: every device of the engine is excluded", id));
}

} // namespace

job_handle engine::submit(proof_request req)
{
    std::shared_ptr<const key_entry> key;
    {
        std::lock_guard lk(p_->mu);
        key = p_->live_key_locked(req.key, fmt::format("submit {}", req.id));
    }
    check_forms(req, *key);
    check_budgets(*p_, req.id, *key);
    auto job = std::make_shared<job_state>();
    job->priority = req.priority;
    job->n_parts = uint32_t(req.partitions.size());
    job->key = std::move(key);
    job->on_done = std::move(req.on_done);
    job->eng = p_;
    job->inputs = std::move(req.partitions);
    job->results.resize(job->n_parts);
    {
        std::lock_guard lk(p_->mu);
        if (p_->stopping) throw error(errc::cancelled, fmt::format("submit {}: the engine is shutting down", req.id));
        // remove_key may have run since the key was looked up.
        (void)p_->live_key_locked(req.key, fmt::format("submit {}", req.id));
        job->seq = p_->next_seq++;
        if (req.id.empty()) {
            req.id = fmt::format("job-{}", job->seq);
            for (unsigned k = 1; p_->live.count(req.id); ++k) req.id = fmt::format("job-{}-{}", job->seq, k);
        } else if (p_->live.count(req.id)) {
            throw error(errc::invalid_argument,
                        fmt::format("submit: a job with id '{}' is already queued or running", req.id));
        }
        job->id = std::move(req.id);
        job->submitted_ns = p_->now_ns();
        p_->live.emplace(job->id, job);
        p_->dispatch.emplace(std::pair{-int64_t(job->priority), job->seq}, job);
        ++p_->counters.jobs_submitted;
        p_->emit(timeline::phase::instant, "JOB_SUBMIT", job.get(), -1, -1, -1,
                 {{"partitions", std::to_string(job->n_parts)}, {"priority", std::to_string(job->priority)}});
    }
    p_->cv_synth.notify_all();
    return job_handle(job);
}

unsigned engine::device_count() const noexcept { return cfg_.devices; }

bool engine::exclude_device(unsigned d, const std::string& reason)
{
    if (d >= cfg_.devices)
        throw error(errc::invalid_argument,
                    fmt::format("exclude_device: no device {} (the engine has {})", d, cfg_.devices));
    return p_->exclude(d, reason);
}

engine_stats engine::stats() const
{
    std::lock_guard lk(p_->mu);
    engine_stats s = p_->counters;
    s.memory_reserved = p_->reserved;
    s.memory_resident = p_->resident_host;
    s.memory_pooled = p_->pooled;
    s.memory_peak = p_->peak;
    s.jobs_live = p_->live.size();
    s.lookahead_queued = p_->lookahead.size();
    s.device_memory_reserved = p_->dev_reserved;
    s.device_memory_peak = p_->dev_peak;
    s.device_memory_high_water = p_->dev_peak;
    for (size_t d = 0; d < s.device_memory_high_water.size(); ++d)
        s.device_memory_high_water[d] = p_->memory_high_water(d);
    s.keys_registered = size_t(std::count_if(p_->keys.begin(), p_->keys.end(), [](const auto& k) { return bool(k); }));
    s.keys_retiring = p_->retiring.size();
    s.uptime_ns = p_->now_ns();
    return s;
}

// ---- job_handle -------------------------------------------------------------------------

namespace {
const std::shared_ptr<job_state>& need(const std::shared_ptr<job_state>& s)
{
    if (!s) throw error(errc::invalid_argument, "job_handle: empty handle");
    return s;
}
} // namespace

const std::string& job_handle::id() const { return need(s_)->id; }

job_status job_handle::poll() const { return need(s_)->status.load(); }

const job_result& job_handle::wait() const
{
    auto& s = need(s_);
    std::unique_lock lk(s->m);
    s->cv.wait(lk, [&] { return s->published; });
    return s->result;
}

bool job_handle::wait_for(std::chrono::nanoseconds timeout) const
{
    auto& s = need(s_);
    std::unique_lock lk(s->m);
    return s->cv.wait_for(lk, timeout, [&] { return s->published; });
}

bool job_handle::cancel()
{
    auto& s = need(s_);
    if (s->ending.load()) return false;
    std::shared_ptr<detail::engine_core> eng = s->eng.lock();
    if (!eng) return false;   // the engine is gone, so the job has ended
    return eng->finish(s, job_status::cancelled, fmt::format("job {}: cancelled", s->id), errc::cancelled, -1);
}

const job_result& job_handle::result() const
{
    auto& s = need(s_);
    std::lock_guard lk(s->m);
    if (!s->published)
        throw error(errc::invalid_argument, fmt::format("job {}: result() before the job ended", s->id));
    return s->result;
}

} // namespace cuzk::pipeline
