// cuzk pipeline — a mutex that grants the lock in the order lock() was called.
//
// The engine's device lock. A std::mutex makes no promise of order: a prove
// worker that releases the device and comes straight back with its next
// partition can win the lock again and again while another worker, woken
// too late each time, waits behind it. On the H200 one partition of three
// concurrent proofs waited 42 s while the other worker took the device 28
// times, so the first proof submitted finished last. Here each lock() takes
// a ticket and waits until the tickets before it have unlocked: first come,
// first served.
//
// Meets BasicLockable (std::unique_lock, std::lock_guard). Not recursive;
// unlock() by the holder only.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace cuzk::pipeline::detail {

class fifo_mutex {
public:
    void lock() { wait(take()); }
    // lock() in two steps, so that a caller can note the wait once it has
    // its place in line: take() the place, then wait() until it is served
    // (every ticket taken must be waited for, or the line stops).
    uint64_t take()
    {
        std::lock_guard lk(m_);
        return next_++;
    }
    void wait(uint64_t ticket)
    {
        std::unique_lock lk(m_);
        cv_.wait(lk, [&] { return serving_ == ticket; });
    }
    void unlock()
    {
        {
            std::lock_guard lk(m_);
            ++serving_;
        }
        cv_.notify_all();
    }
    // Threads inside lock() or holding the lock.
    uint64_t queued() const
    {
        std::lock_guard lk(m_);
        return next_ - serving_;
    }

private:
    mutable std::mutex m_;
    std::condition_variable cv_;
    uint64_t next_ = 0;      // the ticket of the next lock()
    uint64_t serving_ = 0;   // the ticket that holds or may take the lock
};

} // namespace cuzk::pipeline::detail
