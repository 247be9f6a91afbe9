// cuzk serve — the job table: one entry per request id, the thread that
// takes a job from its key to its checked proof, and the counters behind
// GetStatus and GetMetrics.
//
// A job's life: preparing (its key loaded, its vanilla proofs checked) →
// queued → running (the engine's partitions) → verified → completed, or
// failed (with the reason, naming the field or the partition), or cancelled.
// Every proof is verified against the request's public values before the
// job completes; one that does not verify fails the job.
//
// Ids: the request id is the job id (a generated one when it is empty). A
// request whose id is that of a job that is still going, or that completed
// within keep_results_s, attaches to that job instead of proving again
// (its content must be the same request's, or it is refused); a failed or
// cancelled job's id starts a new attempt (Curio retries a failed task with
// the same id). Ended jobs are dropped keep_results_s after they end.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "circuits.hpp"
#include "config.hpp"
#include "keys.hpp"
#include "requests.hpp"
#include "timeline_tap.hpp"

namespace cuzk::daemon {

enum class job_state : uint8_t { preparing, queued, running, completed, failed, cancelled };
inline bool ended(job_state s) noexcept { return s >= job_state::completed; }

// What AwaitProof returns of a job.
struct job_outcome {
    job_state state = job_state::preparing;
    std::vector<uint8_t> proof;
    std::string error;
    uint64_t queue_wait_ms = 0, srs_load_ms = 0, synthesis_ms = 0, gpu_compute_ms = 0, total_ms = 0;
};

class job {
public:
    job(std::string id, const circuit& c, int priority, uint64_t fingerprint);
    const std::string& id() const noexcept { return id_; }
    const circuit& target() const noexcept { return circuit_; }
    uint64_t fingerprint() const noexcept { return fingerprint_; }
    job_state state() const;
    job_outcome outcome() const;
    // Waits until the job ends or `timeout` passes (0 = no limit), polling
    // `give_up` every 100 ms (a gone client); true when the job has ended.
    bool wait(std::chrono::milliseconds timeout, const std::function<bool()>& give_up) const;
    // Cancels unless ended; true when this call ended it (or will, for a
    // job still preparing).
    bool cancel();

private:
    friend class job_table;
    void finish(job_state s, std::vector<uint8_t> proof, std::string error);

    const std::string id_;
    const circuit circuit_;
    const int priority_;
    const uint64_t fingerprint_;
    const std::chrono::steady_clock::time_point arrived_ = std::chrono::steady_clock::now();
    mutable std::mutex mu_;
    mutable std::condition_variable cv_;
    job_state state_ = job_state::preparing;
    bool cancel_asked_ = false;
    pipeline::job_handle handle_;
    job_outcome out_;
    std::chrono::steady_clock::time_point ended_at_;
};

struct kind_counts {
    unsigned pending = 0, in_progress = 0;
    uint64_t completed = 0, failed = 0, cancelled = 0;
    double seconds_sum = 0;   // completed jobs' total time
};

class job_table {
public:
    job_table(const config& cfg, key_store& keys, timeline_tap& tap);
    // Cancels every job that has not ended and waits for their threads.
    ~job_table();

    // The job `id` if it is going or completed (the one a repeated request
    // attaches to), else null.
    std::shared_ptr<job> attachable(const std::string& id) const;
    // Starts a job for a decoded request, or attaches to the job of the same
    // id (see above; *attached says which). Throws request_error when the id
    // belongs to a different request, or when the daemon is shutting down.
    std::shared_ptr<job> submit(const std::string& id, uint64_t fingerprint, decoded_request d, bool* attached);
    std::shared_ptr<job> find(const std::string& id) const;

    std::map<proof_kind, kind_counts> counts() const;
    size_t active() const;   // jobs not ended

    // Refuses new jobs, waits up to `grace` for the running ones, cancels the rest.
    void drain(std::chrono::seconds grace);
    bool draining() const noexcept { return draining_; }

private:
    void run(const std::shared_ptr<job>& j, decoded_request d);
    void prove(const std::shared_ptr<job>& j, decoded_request& d);
    void count_end(const job& j, job_state s, double seconds);
    void sweep();   // drops jobs ended more than keep_results_s ago (mu_ held)

    config cfg_;
    key_store& keys_;
    timeline_tap& tap_;
    std::atomic<bool> draining_{false};
    mutable std::mutex mu_;
    std::map<std::string, std::shared_ptr<job>> jobs_;
    std::condition_variable workers_done_;
    unsigned workers_ = 0;                         // job threads still running (the destructor waits for 0)
    std::map<proof_kind, kind_counts> ended_counts_;
    uint64_t next_id_ = 1;
};

// A job's state for a client: "preparing", "queued", …
const char* state_name(job_state s) noexcept;

} // namespace cuzk::daemon
