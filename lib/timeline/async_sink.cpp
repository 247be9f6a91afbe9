// cuzk — timeline::async_sink: a queue in front of a sink, emptied by one
// delivery thread (see the header for the contract).
#include "cuzk/timeline/async_sink.hpp"
#include "cuzk/timeline/sinks.hpp"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <utility>

namespace cuzk::timeline {

// What the sink and its thread share. The thread holds its own reference,
// so the state (and the target) outlive an async_sink destroyed from inside
// the target.
struct async_sink::state {
    struct item {
        event e;
        bool flush = false;   // a flush of the target, not an event
    };

    std::shared_ptr<sink> target;
    size_t capacity = 0;
    std::mutex mu;
    std::condition_variable cv;
    std::deque<item> q;
    bool closing = false;    // no more events accepted; the thread ends when q is empty
    bool abandon = false;    // closed from the delivery thread: end after the current delivery
    std::atomic<uint64_t> dropped{0};

    // Queues `it` unless closed or full.
    void push(item&& it) noexcept
    {
        try {
            {
                std::lock_guard lk(mu);
                if (closing || (capacity && q.size() >= capacity)) {
                    dropped.fetch_add(1, std::memory_order_relaxed);
                    return;
                }
                q.push_back(std::move(it));
            }
            cv.notify_one();
        } catch (...) {   // out of memory growing the queue
            dropped.fetch_add(1, std::memory_order_relaxed);
        }
    }
};

namespace {

// The delivery thread: one queued item at a time, outside every lock.
void deliver(std::shared_ptr<async_sink::state> s) noexcept
{
    std::unique_lock lk(s->mu);
    for (;;) {
        s->cv.wait(lk, [&] { return s->abandon || s->closing || !s->q.empty(); });
        if (s->abandon) return;
        if (s->q.empty()) break;   // closing, everything delivered
        async_sink::state::item it = std::move(s->q.front());
        s->q.pop_front();
        lk.unlock();
        if (it.flush) s->target->flush();
        else s->target->record(it.e);
        lk.lock();
    }
    lk.unlock();
    s->target->flush();
}

} // namespace

async_sink::async_sink(std::shared_ptr<sink> target, size_t capacity) : s_(std::make_shared<state>())
{
    s_->target = target ? std::move(target) : std::make_shared<null_sink>();
    s_->capacity = capacity;
    thread_ = std::thread(deliver, s_);
    tid_ = thread_.get_id();
}

async_sink::~async_sink() { close(); }

void async_sink::record(const event& e) noexcept
{
    try {
        s_->push(state::item{e, false});   // the copy is made outside the lock
    } catch (...) {
        s_->dropped.fetch_add(1, std::memory_order_relaxed);
    }
}

void async_sink::flush() noexcept { s_->push(state::item{event{}, true}); }

void async_sink::abandon() noexcept
{
    {
        std::lock_guard lk(s_->mu);
        s_->closing = true;
        s_->abandon = true;
        s_->q.clear();
    }
    s_->cv.notify_one();
}

void async_sink::close() noexcept
{
    if (!thread_.joinable()) return;
    if (on_delivery_thread()) {   // cannot join itself: end after the current delivery
        abandon();
        thread_.detach();
        return;
    }
    {
        std::lock_guard lk(s_->mu);
        s_->closing = true;
    }
    s_->cv.notify_one();
    thread_.join();
}

uint64_t async_sink::dropped() const noexcept { return s_->dropped.load(std::memory_order_relaxed); }

bool async_sink::on_delivery_thread() const noexcept
{
    return std::this_thread::get_id() == tid_;
}

} // namespace cuzk::timeline
