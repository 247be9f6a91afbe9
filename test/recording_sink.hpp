// cuzk tests — a timeline sink that keeps every event, independent of the
// timeline library's own recorder (the engine tests check spans with it).
#pragma once

#include <mutex>
#include <vector>

#include "cuzk/timeline/sinks.hpp"

namespace cuzk::test {

struct recording_sink final : timeline::sink {
    std::mutex mu;
    std::vector<timeline::event> events;
    void record(const timeline::event& e) noexcept override
    {
        std::lock_guard lk(mu);
        events.push_back(e);
    }
    std::vector<timeline::event> take()
    {
        std::lock_guard lk(mu);
        return std::move(events);
    }
};

} // namespace cuzk::test
