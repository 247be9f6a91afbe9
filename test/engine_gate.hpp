// cuzk tests — a gate for the engine tests: work that passes it (a circuit's
// witness generation, say) announces its arrival and waits until the test
// opens the gate, so that a test can hold the engine's workers at a known
// point (queued jobs, cancellation, budgets).
#pragma once

#include <catch2/catch.hpp>

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace cuzk::test {

struct gate {
    std::mutex mu;
    std::condition_variable cv;
    bool open = false;
    int arrived = 0;
    void pass()
    {
        std::unique_lock lk(mu);
        ++arrived;
        cv.notify_all();
        cv.wait(lk, [&] { return open; });
    }
    // Waits (30 s at most: a failed REQUIRE) until n have arrived.
    void wait_arrived(int n)
    {
        std::unique_lock lk(mu);
        REQUIRE(cv.wait_for(lk, std::chrono::seconds(30), [&] { return arrived >= n; }));
    }
    void release()
    {
        std::lock_guard lk(mu);
        open = true;
        cv.notify_all();
    }
};

} // namespace cuzk::test
