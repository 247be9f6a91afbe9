// cuzk — the built-in timeline sinks: CSV lines, Chrome trace JSON, an
// in-memory recorder and a fan-out.
//
// All of them may be called from any number of threads at once. Each record()
// formats the event into a stack buffer outside any lock and then appends it
// under one mutex, so the critical section is a memcpy-sized write; the cost
// per event is measured in bench/bench_timeline.cpp. record() never throws:
// an event that cannot be formatted or written (out of memory, a stream with
// exceptions enabled) is dropped and counted in dropped().
//
// ---- CSV line format (one event per line, compatible with curio's cuzk) -------------
//   TIMELINE,<offset_ms>,<EVENT>,<job_id>,<detail>
// offset_ms: t_ns / 10^6 in decimal, with up to six fraction digits so the
//   nanoseconds survive exactly ("1234", "1234.5", "1234.000001").
// detail: key=value pairs joined by commas, in this order:
//   partition=<p>   when partition >= 0
//   worker=<w>      when worker >= 0
//   device=<d>      when device >= 0
//   ph=B | ph=E     for a span's begin / end (instant events carry no ph)
//   then the event's own details in their order.
// The keys partition, worker, device and ph are reserved (an event detail
// with one of these keys is written but reads back as the field).
// Escaping: in the event name, the job id, detail keys and values the five
// characters % , = CR LF are written as %25 %2C %3D %0D %0A, so a line always
// splits into exactly five fields and the detail into pairs. The reader
// decodes exactly these five codes and leaves any other '%' alone, so curio's
// unescaped text reads back unchanged.
//
// ---- Chrome trace JSON (chrome://tracing, Perfetto) ---------------------------------
//   {"traceEvents":[
//    {"name":"MSM_H","cat":"span","ph":"B","ts":1234.567,"pid":1,"tid":3,
//     "args":{"job":"j1","partition":0,"worker":2,"device":0, <details as strings>}},
//    …, metadata (process_name / thread_name) events,
//   ],"displayTimeUnit":"ms"}
// ph: "B" / "E" for spans, "i" (with "s":"t") for instant events; ts in µs
// with three fraction digits (exact ns). pid = device + 1 for a device and
// 0 for the host (device -1); tid = worker + 1 (0 when no worker). The
// exact job/partition/worker/device ride in args, so the file reads back
// losslessly; "job", "partition", "worker" and "device" are reserved keys.
// The document is closed (metadata events, "]}") by finish() or by the
// destructor; flush() only flushes the stream. A trace cut off before
// finish() still reads back (the reader closes it).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <ostream>
#include <set>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cuzk/timeline/event.hpp"

namespace cuzk::timeline {

// One CSV line for `e`, without the newline.
std::string format_csv_line(const event& e);

// The escaping used by the CSV format (see above).
std::string csv_escape(std::string_view s);
std::string csv_unescape(std::string_view s);

class csv_sink final : public sink {
public:
    // The stream is borrowed for the sink's life.
    explicit csv_sink(std::ostream& out) : out_(out) {}
    void record(const event& e) noexcept override;
    void flush() noexcept override;
    uint64_t dropped() const noexcept { return dropped_.load(std::memory_order_relaxed); }

private:
    std::ostream& out_;
    std::mutex mu_;
    std::atomic<uint64_t> dropped_{0};
};

class chrome_trace_sink final : public sink {
public:
    // The stream is borrowed for the sink's life. The header is written on
    // construction.
    explicit chrome_trace_sink(std::ostream& out);
    ~chrome_trace_sink() override;
    chrome_trace_sink(const chrome_trace_sink&) = delete;
    chrome_trace_sink& operator=(const chrome_trace_sink&) = delete;

    void record(const event& e) noexcept override;   // ignored after finish()
    void flush() noexcept override;
    // Writes the metadata events and closes the document; idempotent.
    void finish() noexcept;
    uint64_t dropped() const noexcept { return dropped_.load(std::memory_order_relaxed); }

private:
    std::ostream& out_;
    std::mutex mu_;
    bool first_ = true;
    bool finished_ = false;
    std::set<int32_t> pids_;                    // seen pids
    std::set<std::pair<int32_t, int32_t>> tids_;   // seen (pid, tid)
    std::atomic<uint64_t> dropped_{0};
};

// Writes `events` (in their order) as one closed Chrome trace document, the
// chrome_trace_sink's format: any timeline read back (ours, or a curio log
// with its CUZK_TIMING instants) can be opened in Perfetto. Returns the
// number of events dropped (see chrome_trace_sink::dropped).
uint64_t write_chrome_trace(std::ostream& out, std::span<const event> events);

// Keeps every event in memory, in arrival order.
class recorder final : public sink {
public:
    void record(const event& e) noexcept override;
    std::vector<event> events() const;   // a copy
    std::vector<event> take();           // moves the events out and clears
    size_t size() const;
    void clear();
    uint64_t dropped() const noexcept { return dropped_.load(std::memory_order_relaxed); }

private:
    mutable std::mutex mu_;
    std::vector<event> events_;
    std::atomic<uint64_t> dropped_{0};
};

// Forwards every event to each child, in the order they were added. The
// children are shared; add() may be called while other threads record.
class fan_out final : public sink {
public:
    fan_out() = default;
    explicit fan_out(std::vector<std::shared_ptr<sink>> children);
    void add(std::shared_ptr<sink> child);
    void record(const event& e) noexcept override;
    void flush() noexcept override;

private:
    std::shared_mutex mu_;
    std::vector<std::shared_ptr<sink>> children_;
};

// Discards everything (an engine without a timeline).
class null_sink final : public sink {
public:
    void record(const event&) noexcept override {}
};

} // namespace cuzk::timeline
