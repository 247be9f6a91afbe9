// cuzk serve — what the daemon takes from its engine's timeline: each
// job's synthesis and device time (AwaitProofResponse's synthesis_ms and
// gpu_compute_ms), the job each device is proving (GetStatus), each
// device's busy time (the utilisation metric), the most recent events (the
// metrics' idle causes: timeline::analyse over them), and, when asked, the events
// as TIMELINE lines on stderr in the format of curio's daemon, so that
// `cuzk waterfall` reads the daemon's log.
//
// The engine (keys.hpp: one for every key) has a clock that starts with it:
// its engine_tap adds the engine's start on the daemon's clock, so that
// every line counts milliseconds since the daemon started.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cuzk/timeline/event.hpp"
#include "cuzk/timeline/sinks.hpp"

namespace cuzk::daemon {

struct job_times {
    uint64_t synthesis_ns = 0, device_ns = 0;
};

class timeline_tap {
public:
    explicit timeline_tap(bool print_lines);
    // Nanoseconds since the daemon started.
    uint64_t now_ns() const;
    // Called for an engine's event with that engine's start on the daemon's clock.
    void record(const timeline::event& e, uint64_t offset_ns) noexcept;
    // A job's accumulated times, forgotten after this call.
    job_times take(const std::string& job);
    // The job proving on engine device d now ("" = none), and the device's busy time.
    std::string current_job(int device) const;
    uint64_t busy_ns(int device) const;
    // The last `recent_capacity` events, on the daemon's clock, oldest first.
    std::vector<timeline::event> recent() const;
    static constexpr size_t recent_capacity = 1 << 16;

private:
    struct open_span {
        uint64_t synth_start = 0, device_start = 0;
    };
    std::chrono::steady_clock::time_point origin_;
    std::unique_ptr<timeline::csv_sink> lines_;
    mutable std::mutex mu_;
    std::map<std::string, job_times> jobs_;
    std::map<std::pair<std::string, int>, open_span> open_;   // (job, partition)
    std::map<int, std::string> current_;
    std::map<int, uint64_t> busy_;
    std::deque<timeline::event> recent_;
};

// The sink one engine gets: its events go to the tap with its start.
class engine_tap final : public timeline::sink {
public:
    explicit engine_tap(timeline_tap& tap) : tap_(tap), offset_ns_(tap.now_ns()) {}
    void record(const timeline::event& e) noexcept override { tap_.record(e, offset_ns_); }

private:
    timeline_tap& tap_;
    uint64_t offset_ns_;
};

} // namespace cuzk::daemon
