// timeline::async_sink: events reach the target in order on one thread of
// the sink's own, record() never waits for the target, close() delivers the
// rest, and closing from inside the target (the C ABI's "destroy the engine
// from its callback") neither deadlocks nor delivers again.
#include <catch2/catch.hpp>

#include <chrono>
#include <condition_variable>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "cuzk/timeline/async_sink.hpp"

using namespace cuzk::timeline;

namespace {

// A deadlock guard: long enough never to trigger on a loaded machine.
constexpr auto patience = std::chrono::seconds(60);

// Keeps what it receives, the thread it ran on, and can hold the delivery
// thread inside record() until released.
struct probe final : sink {
    std::mutex mu;
    std::condition_variable cv;
    std::vector<uint64_t> seen;           // t_ns of each event, flushes as ~0
    std::vector<std::thread::id> threads;
    bool hold = false, holding = false;
    std::function<void()> on_first;       // run inside the first record()
    std::promise<size_t> gone;            // set by the destructor: how many it saw

    ~probe() override { gone.set_value(seen.size()); }
    void record(const event& e) noexcept override
    {
        std::function<void()> f;
        {
            std::unique_lock lk(mu);
            seen.push_back(e.t_ns);
            threads.push_back(std::this_thread::get_id());
            holding = true;
            cv.notify_all();
            cv.wait(lk, [&] { return !hold; });
            holding = false;
            std::swap(f, on_first);
        }
        if (f) f();
    }
    void flush() noexcept override
    {
        std::lock_guard lk(mu);
        seen.push_back(~uint64_t(0));
    }
    void release()
    {
        std::lock_guard lk(mu);
        hold = false;
        cv.notify_all();
    }
    bool wait_holding()
    {
        std::unique_lock lk(mu);
        return cv.wait_for(lk, patience, [&] { return holding; });
    }
};

event at(uint64_t t)
{
    event e;
    e.t_ns = t;
    e.name = "E";
    return e;
}

} // namespace

TEST_CASE("async_sink delivers in order on its own thread, then flushes on close", "[timeline]")
{
    auto p = std::make_shared<probe>();
    async_sink s(p);
    CHECK_FALSE(s.on_delivery_thread());
    for (uint64_t i = 0; i < 500; ++i) s.record(at(i));
    s.flush();
    for (uint64_t i = 500; i < 1000; ++i) s.record(at(i));
    s.close();
    s.record(at(7));   // after close: dropped
    REQUIRE(p->seen.size() == 1002);
    for (uint64_t i = 0; i < 500; ++i) REQUIRE(p->seen[i] == i);
    CHECK(p->seen[500] == ~uint64_t(0));
    for (uint64_t i = 500; i < 1000; ++i) REQUIRE(p->seen[i + 1] == i);
    CHECK(p->seen[1001] == ~uint64_t(0));   // close flushes the target
    for (auto id : p->threads) {
        REQUIRE(id == p->threads[0]);
        REQUIRE(id != std::this_thread::get_id());
    }
    CHECK(s.dropped() == 1);
}

TEST_CASE("async_sink::record does not wait for a blocked target; capacity drops", "[timeline]")
{
    auto p = std::make_shared<probe>();
    p->hold = true;
    async_sink s(p, 2);
    s.record(at(0));
    REQUIRE(p->wait_holding());   // the delivery thread is stuck inside the target
    for (uint64_t i = 1; i <= 5; ++i) s.record(at(i));   // returns: 2 queued, 3 dropped
    CHECK(s.dropped() == 3);
    p->release();
    s.close();
    CHECK(p->seen == std::vector<uint64_t>{0, 1, 2, ~uint64_t(0)});
}

TEST_CASE("async_sink::abandon discards what is queued; close still joins", "[timeline]")
{
    auto p = std::make_shared<probe>();
    p->hold = true;
    async_sink s(p);
    s.record(at(0));
    REQUIRE(p->wait_holding());
    for (uint64_t i = 1; i <= 3; ++i) s.record(at(i));
    s.abandon();
    s.record(at(4));   // dropped
    p->release();
    s.close();
    CHECK(p->seen == std::vector<uint64_t>{0});   // neither the queued events nor a flush
    CHECK(s.dropped() == 1);
}

TEST_CASE("async_sink destroyed from inside its target: no deadlock, the rest discarded", "[timeline]")
{
    auto p = std::make_shared<probe>();
    std::future<size_t> gone = p->gone.get_future();
    p->hold = true;
    auto s = std::make_shared<async_sink>(p);
    std::promise<bool> inside;
    // The first delivery destroys the sink (its last reference) on the delivery thread.
    p->on_first = [&s, &inside] {
        inside.set_value(s->on_delivery_thread());
        s.reset();
    };
    std::future<bool> was_inside = inside.get_future();
    for (uint64_t i = 0; i < 10; ++i) s->record(at(i));
    p->release();
    REQUIRE(was_inside.wait_for(patience) == std::future_status::ready);
    CHECK(was_inside.get());
    p.reset();
    // The delivery thread ends on its own and lets the target go; the nine
    // events queued behind the first were discarded.
    REQUIRE(gone.wait_for(patience) == std::future_status::ready);
    CHECK(gone.get() == 1);
}

TEST_CASE("async_sink takes events from many threads at once", "[timeline]")
{
    auto p = std::make_shared<probe>();
    {
        async_sink s(p);
        std::vector<std::thread> ts;
        for (uint64_t t = 0; t < 4; ++t)
            ts.emplace_back([&s, t] {
                for (uint64_t i = 0; i < 250; ++i) s.record(at(t * 1000 + i));
            });
        for (auto& t : ts) t.join();
    }   // the destructor closes
    REQUIRE(p->seen.size() == 1001);
    CHECK(p->seen.back() == ~uint64_t(0));
    // Each thread's events arrive in the order that thread recorded them.
    std::vector<uint64_t> next(4, 0);
    for (size_t i = 0; i + 1 < p->seen.size(); ++i) {
        const uint64_t t = p->seen[i] / 1000, k = p->seen[i] % 1000;
        REQUIRE(t < 4);
        REQUIRE(k == next[t]);
        ++next[t];
    }
}
