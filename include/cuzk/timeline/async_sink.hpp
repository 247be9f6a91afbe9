// cuzk — a timeline sink that hands its events to another sink on a thread
// of its own.
//
// The engine calls sink::record() while it holds its internal lock (see
// event.hpp), so a sink that may block, take long, or call back into the
// engine (a host callback of the C ABI that asks for statistics or cancels
// a job) must not be given to the engine directly: wrap it in an async_sink.
//
// record() copies the event into a queue and returns; it never waits for the
// target. One delivery thread, started by the constructor, passes the queued
// events to the target in the order record() queued them, one at a time, on
// no lock of the engine's or of the async_sink's. flush() queues a flush of
// the target behind the events already queued (it does not wait).
//
// close() (also run by the destructor) refuses later events, delivers every
// event still queued, flushes the target and joins the thread. When close()
// runs on the delivery thread itself, i.e. from inside the target's
// record() (a host callback that destroys the engine that owns this sink),
// it cannot join: the events still queued are discarded instead, no delivery
// starts after the current one returns, and the thread ends on its own.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <thread>

#include "cuzk/timeline/event.hpp"

namespace cuzk::timeline {

class async_sink final : public sink {
public:
    // target: receives the events on the delivery thread; kept alive until
    // that thread ends (null: events are discarded). capacity: events queued at most (0 = no limit);
    // record() drops and counts an event that finds the queue full.
    // Throws std::system_error when the thread cannot be started.
    explicit async_sink(std::shared_ptr<sink> target, size_t capacity = 0);
    ~async_sink() override;   // close()
    async_sink(const async_sink&) = delete;
    async_sink& operator=(const async_sink&) = delete;

    void record(const event& e) noexcept override;
    void flush() noexcept override;

    // See above. Idempotent; not to be called from two threads at once.
    void close() noexcept;

    // Stops delivering: the events queued are discarded, later ones are
    // dropped, and no delivery starts after the current one (if any)
    // returns. Does not wait; close() still joins the thread.
    void abandon() noexcept;

    // Events dropped: queue full, out of memory, or recorded after close().
    uint64_t dropped() const noexcept;

    // Whether the caller runs on the delivery thread (inside the target).
    bool on_delivery_thread() const noexcept;

    struct state;   // shared by the sink and its delivery thread

private:
    std::shared_ptr<state> s_;
    std::thread thread_;
    std::thread::id tid_;   // the delivery thread's id (kept after a detach)
};

} // namespace cuzk::timeline
