// cuzk serve — the job table (jobs.hpp).
#include "jobs.hpp"

#include <cstdio>
#include <thread>

#include <fmt/format.h>

#include "cuzk/error.hpp"

namespace cuzk::daemon {

namespace {

using steady = std::chrono::steady_clock;

uint64_t ms_between(steady::time_point a, steady::time_point b)
{
    return uint64_t(std::chrono::duration_cast<std::chrono::milliseconds>(b - a).count());
}

unsigned job_threads(const config& cfg)
{
    return cfg.synthesis_threads ? cfg.synthesis_threads : std::max(1u, std::thread::hardware_concurrency());
}

} // namespace

const char* state_name(job_state s) noexcept
{
    static const char* const names[] = {"preparing", "queued", "running", "completed", "failed", "cancelled"};
    return names[size_t(s)];
}

// ---- job -------------------------------------------------------------------------

job::job(std::string id, const circuit& c, int priority, uint64_t fingerprint)
    : id_(std::move(id)), circuit_(c), priority_(priority), fingerprint_(fingerprint)
{
}

job_state job::state() const
{
    std::lock_guard lk(mu_);
    if (state_ == job_state::queued && handle_.valid() && handle_.poll() == pipeline::job_status::running)
        return job_state::running;
    return state_;
}

job_outcome job::outcome() const
{
    std::lock_guard lk(mu_);
    job_outcome o = out_;
    o.state = state_;
    if (!ended(state_)) o.total_ms = ms_between(arrived_, steady::now());
    return o;
}

bool job::wait(std::chrono::milliseconds timeout, const std::function<bool()>& give_up) const
{
    const auto deadline = steady::now() + timeout;
    std::unique_lock lk(mu_);
    for (;;) {
        if (ended(state_)) return true;
        auto until = steady::now() + std::chrono::milliseconds(100);
        if (timeout.count() > 0) {
            if (steady::now() >= deadline) return false;
            until = std::min(until, deadline);
        }
        cv_.wait_until(lk, until);
        if (!ended(state_) && give_up && give_up()) return false;
    }
}

bool job::cancel()
{
    pipeline::job_handle h;
    {
        std::lock_guard lk(mu_);
        if (ended(state_) || cancel_asked_) return false;
        cancel_asked_ = true;
        h = handle_;
    }
    // Queued or running on the engine: the engine ends it now (work in
    // progress is discarded). Still preparing: the job's thread sees
    // cancel_asked_ before it submits.
    if (h.valid()) h.cancel();
    return true;
}

void job::finish(job_state s, std::vector<uint8_t> proof, std::string error)
{
    {
        std::lock_guard lk(mu_);
        state_ = s;
        out_.proof = std::move(proof);
        out_.error = std::move(error);
        ended_at_ = steady::now();
        out_.total_ms = ms_between(arrived_, ended_at_);
    }
    cv_.notify_all();
}

// ---- job_table ---------------------------------------------------------------------

job_table::job_table(const config& cfg, key_store& keys, timeline_tap& tap) : cfg_(cfg), keys_(keys), tap_(tap) {}

job_table::~job_table()
{
    draining_ = true;
    std::vector<std::shared_ptr<job>> all;
    {
        std::lock_guard lk(mu_);
        for (const auto& [id, j] : jobs_) all.push_back(j);
    }
    for (const auto& j : all) j->cancel();
    std::unique_lock lk(mu_);
    workers_done_.wait(lk, [&] { return workers_ == 0; });
}

std::shared_ptr<job> job_table::attachable(const std::string& id) const
{
    std::lock_guard lk(mu_);
    const auto it = jobs_.find(id);
    if (it == jobs_.end()) return nullptr;
    const job_state s = it->second->state();
    return s == job_state::failed || s == job_state::cancelled ? nullptr : it->second;
}

std::shared_ptr<job> job_table::find(const std::string& id) const
{
    std::lock_guard lk(mu_);
    const auto it = jobs_.find(id);
    return it == jobs_.end() ? nullptr : it->second;
}

std::shared_ptr<job> job_table::submit(const std::string& id_in, uint64_t fingerprint, decoded_request d, bool* attached)
{
    *attached = false;
    std::shared_ptr<job> j;
    {
        std::lock_guard lk(mu_);
        sweep();
        if (draining_) throw request_error("the daemon is shutting down: no new jobs");
        std::string id = id_in.empty() ? fmt::format("cuzk-{:x}-{}", tap_.now_ns(), next_id_++) : id_in;
        if (const auto it = jobs_.find(id); it != jobs_.end()) {
            const job_state s = it->second->state();
            if (s != job_state::failed && s != job_state::cancelled) {
                if (it->second->fingerprint() != fingerprint)
                    throw request_error(fmt::format("request_id: '{}' belongs to a different request (job {})", id,
                                                    state_name(s)));
                *attached = true;
                return it->second;
            }
        }
        j = std::make_shared<job>(id, d.c, d.priority, fingerprint);
        jobs_[id] = j;
        ++workers_;
    }
    std::thread([this, j, d = std::move(d)]() mutable { run(j, std::move(d)); }).detach();
    return j;
}

void job_table::run(const std::shared_ptr<job>& j, decoded_request d)
{
    try {
        prove(j, d);
    } catch (const std::exception& e) {
        j->finish(job_state::failed, {}, e.what());
    }
    const job_outcome o = j->outcome();
    count_end(*j, o.state, double(o.total_ms) / 1000);
    std::lock_guard lk(mu_);
    if (--workers_ == 0) workers_done_.notify_all();
}

void job_table::prove(const std::shared_ptr<job>& j, decoded_request& d)
{
    const unsigned threads = job_threads(cfg_);
    d.check(threads);   // before the key: a bad request fails without loading one
    uint64_t load_ms = 0;
    // The key this job uses (counted in its jobs while the job holds it).
    struct key_use {
        std::shared_ptr<loaded_key> k;
        void hold(std::shared_ptr<loaded_key> n)
        {
            if (k) k->jobs.fetch_sub(1);
            k = std::move(n);
            k->jobs.fetch_add(1);
        }
        ~key_use()
        {
            if (k) k->jobs.fetch_sub(1);
        }
    } key;
    key.hold(keys_.get(d.c, &load_ms));
    pipeline::proof_request req = d.make(key.k->key, threads);
    req.id = j->id();
    req.priority = d.priority;
    pipeline::job_handle h;
    for (;;) {
        std::unique_lock sl(key.k->submit_mu);
        if (key.k->evicted) {   // EvictSRS removed it since: load it again
            sl.unlock();
            uint64_t ms = 0;
            key.hold(keys_.get(d.c, &ms));
            load_ms += ms;
            continue;
        }
        req.key = key.k->key;
        std::lock_guard lk(j->mu_);
        j->out_.srs_load_ms = load_ms;
        j->out_.queue_wait_ms = ms_between(j->arrived_, steady::now());
        if (j->cancel_asked_) {
            j->state_ = job_state::cancelled;   // finish() below sets the rest
        } else {
            h = keys_.engine().submit(std::move(req));
            j->handle_ = h;
            j->state_ = job_state::queued;
        }
        break;
    }
    if (!h.valid()) return j->finish(job_state::cancelled, {}, "cancelled before proving");
    const pipeline::job_result& r = h.wait();
    const job_times t = tap_.take(j->id());
    {
        std::lock_guard lk(j->mu_);
        j->out_.synthesis_ms = t.synthesis_ns / 1'000'000;
        j->out_.gpu_compute_ms = t.device_ns / 1'000'000;
    }
    if (r.status == pipeline::job_status::cancelled) return j->finish(job_state::cancelled, {}, r.message);
    if (r.status != pipeline::job_status::completed) return j->finish(job_state::failed, {}, r.message);
    std::vector<uint8_t> proof;
    for (const auto& p : r.partitions) proof.insert(proof.end(), p.bytes.begin(), p.bytes.end());
    if (!d.verify(key.k->vk, proof))
        return j->finish(job_state::failed, {},
                         fmt::format("the proof does not verify for the request's public values ({} key from {})",
                                     d.c.id(), key.k->source));
    j->finish(job_state::completed, std::move(proof), {});
}

void job_table::count_end(const job& j, job_state s, double seconds)
{
    std::lock_guard lk(mu_);
    kind_counts& k = ended_counts_[j.target().kind];
    if (s == job_state::completed) {
        ++k.completed;
        k.seconds_sum += seconds;
    } else if (s == job_state::failed) {
        ++k.failed;
    } else {
        ++k.cancelled;
    }
}

void job_table::sweep()
{
    const auto now = steady::now();
    for (auto it = jobs_.begin(); it != jobs_.end();) {
        job& j = *it->second;
        bool old = false;
        {
            std::lock_guard lk(j.mu_);
            old = ended(j.state_) && now - j.ended_at_ >= std::chrono::seconds(cfg_.keep_results_s);
        }
        it = old ? jobs_.erase(it) : std::next(it);
    }
}

std::map<proof_kind, kind_counts> job_table::counts() const
{
    std::lock_guard lk(mu_);
    std::map<proof_kind, kind_counts> out = ended_counts_;
    for (const auto& [id, j] : jobs_) {
        const job_state s = j->state();
        if (s == job_state::running) ++out[j->target().kind].in_progress;
        else if (!ended(s)) ++out[j->target().kind].pending;
    }
    return out;
}

size_t job_table::active() const
{
    std::lock_guard lk(mu_);
    size_t n = 0;
    for (const auto& [id, j] : jobs_) n += ended(j->state()) ? 0 : 1;
    return n;
}

void job_table::drain(std::chrono::seconds grace)
{
    draining_ = true;
    const auto deadline = steady::now() + grace;
    while (active() > 0 && steady::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::vector<std::shared_ptr<job>> left;
    {
        std::lock_guard lk(mu_);
        for (const auto& [id, j] : jobs_)
            if (!ended(j->state())) left.push_back(j);
    }
    if (!left.empty()) std::fprintf(stderr, "cuzk serve: grace period over: cancelling %zu job(s)\n", left.size());
    for (const auto& j : left) j->cancel();
    std::unique_lock lk(mu_);
    workers_done_.wait(lk, [&] { return workers_ == 0; });
}

} // namespace cuzk::daemon
