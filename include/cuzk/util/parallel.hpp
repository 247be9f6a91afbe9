// cuzk — explicit fork/join helpers for the compute layers (MSM, NTT, PCE).
//
// Not a pool and no global state: every call starts the threads it needs,
// runs, and joins them before returning. The caller passes the thread count
// (0 = std::thread::hardware_concurrency()); one thread, or one item of work,
// runs inline on the calling thread without starting anything. Starting a
// std::thread costs ~10–50 µs, noise next to the millisecond-scale loops these
// helpers are meant for; loops of microseconds should call with threads = 1.
//
// Worker numbers are dense, 0 … workers−1, and worker 0 is always the calling
// thread, so a caller can size per-worker scratch with resolve_threads().
//
// Exceptions: each worker stops at its first exception; after the join the
// exception of the lowest-numbered failing worker is rethrown on the calling
// thread. If the system refuses to start a thread, that worker's share runs on
// the calling thread instead (the result is the same, only slower).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <thread>
#include <vector>

namespace cuzk {

// The number of workers a thread count means: `threads`, or the hardware
// concurrency (at least 1) when it is 0.
inline unsigned resolve_threads(unsigned threads)
{
    if (threads != 0) return threads;
    const unsigned h = std::thread::hardware_concurrency();
    return h ? h : 1;
}

namespace detail {

// Runs body(worker) for worker = 0 … workers−1, worker 0 on this thread.
inline void fork_join(unsigned workers, const std::function<void(unsigned)>& body)
{
    if (workers <= 1) {
        body(0);
        return;
    }
    std::vector<std::exception_ptr> errs(workers);
    auto guarded = [&](unsigned w) {
        try {
            body(w);
        } catch (...) {
            errs[w] = std::current_exception();
        }
    };
    std::vector<std::thread> pool;
    std::vector<unsigned> not_started;
    pool.reserve(workers - 1);
    for (unsigned w = 1; w < workers; ++w) {
        try {
            pool.emplace_back(guarded, w);
        } catch (...) {   // no thread available: run that share here afterwards
            not_started.push_back(w);
        }
    }
    guarded(0);
    for (unsigned w : not_started) guarded(w);
    for (auto& t : pool) t.join();
    for (auto& e : errs)
        if (e) std::rethrow_exception(e);
}

} // namespace detail

// Static split: [0, n) is cut into min(resolve_threads(threads), n)
// contiguous ranges whose sizes differ by at most one, and worker w gets the
// w-th range: fn(begin, end, w). Nothing is called when n == 0.
inline void parallel_for(unsigned threads, size_t n,
                         const std::function<void(size_t begin, size_t end, unsigned worker)>& fn)
{
    if (n == 0) return;
    const unsigned workers = unsigned(std::min<size_t>(resolve_threads(threads), n));
    if (workers == 1) {
        fn(0, n, 0);
        return;
    }
    const size_t q = n / workers, r = n % workers;
    detail::fork_join(workers, [&](unsigned w) {
        const size_t begin = w * q + std::min<size_t>(w, r);
        const size_t end = begin + q + (w < r ? 1 : 0);
        fn(begin, end, w);
    });
}

// Dynamic split: tasks 0 … ntasks−1 are handed out one at a time, in
// increasing order, from a shared counter to min(resolve_threads(threads),
// ntasks) workers: fn(task, worker). For tasks of uneven cost, or on a busy
// machine where some threads run slower. After a task throws, no new tasks
// are started.
inline void parallel_tasks(unsigned threads, size_t ntasks,
                           const std::function<void(size_t task, unsigned worker)>& fn)
{
    if (ntasks == 0) return;
    const unsigned workers = unsigned(std::min<size_t>(resolve_threads(threads), ntasks));
    if (workers == 1) {
        for (size_t t = 0; t < ntasks; ++t) fn(t, 0);
        return;
    }
    std::atomic<size_t> next{0};
    detail::fork_join(workers, [&](unsigned w) {
        for (;;) {
            const size_t t = next.fetch_add(1, std::memory_order_relaxed);
            if (t >= ntasks) return;
            try {
                fn(t, w);
            } catch (...) {
                next.store(ntasks, std::memory_order_relaxed);
                throw;
            }
        }
    });
}

} // namespace cuzk
