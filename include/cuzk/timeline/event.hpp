// cuzk — timeline events and the sink interface.
//
// Every stage of the engine and every span of work inside a stage emits an
// event to a TimelineSink. Events carry a monotonic timestamp in nanoseconds
// since the engine (or the recording) started, a kind, the job id, the
// partition, the worker and the device, and free key=value details.
//
// Stage events (names compatible with curio's cuzk logs, so one tool reads
// both): SYNTH_START, SYNTH_END, CHAN_SEND (curio's newer logs: GPU_QUEUE),
// GPU_PICKUP, GPU_START, GPU_END. Span events mark real work inside a stage,
// as a begin/end pair: PCE_EVAL, NTT, MSM_H, MSM_L, MSM_A, MSM_B1, MSM_B2,
// BATCH_ADD, H2D, D2H, LOCK_WAIT, CPU_TAIL, … Device utilisation is computed
// from the device spans when there are any (GPU_START..GPU_END brackets only
// stand in for logs without them). curio's CUZK_TIMING lines become instant
// events named CUZK_TIMING whose details carry its phase times (parse.hpp,
// analysis.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cuzk::timeline {

enum class phase : uint8_t {
    instant = 0,   // a stage event (SYNTH_START, GPU_END, …)
    begin = 1,     // a span starts
    end = 2,       // the span with the same name/job/partition/worker ends
};

struct event {
    uint64_t t_ns = 0;            // monotonic, since the recording's origin
    phase ph = phase::instant;
    std::string name;             // SYNTH_START, MSM_H, …
    std::string job;              // job id ("" when not tied to a job)
    int32_t partition = -1;       // -1: not tied to a partition
    int32_t worker = -1;
    int32_t device = -1;          // -1: host / CPU work; >= 0: a device index
    std::vector<std::pair<std::string, std::string>> details;   // key=value
};

// Where events go. record() is called from any thread, concurrently, and
// must not throw; flush() is called when a run ends.
// The engine (pipeline::engine) calls record() while it holds its internal
// lock, on its own threads and inside its public calls (submit, cancel, the
// destructor). A sink given to the engine must therefore be quick, must not
// block on anything the engine may be waiting for, and must never call into
// that engine (stats, cancel, submit, … would deadlock). A sink that needs
// to do any of that goes behind a timeline::async_sink (async_sink.hpp),
// which queues the events and delivers them on a thread of its own.
class sink {
public:
    virtual ~sink() = default;
    virtual void record(const event& e) noexcept = 0;
    virtual void flush() noexcept {}
};

} // namespace cuzk::timeline
