// cuzk serve — the engine's timeline (timeline_tap.hpp).
#include "timeline_tap.hpp"

#include <iostream>

namespace cuzk::daemon {

timeline_tap::timeline_tap(bool print_lines) : origin_(std::chrono::steady_clock::now())
{
    if (print_lines) lines_ = std::make_unique<timeline::csv_sink>(std::cerr);
}

uint64_t timeline_tap::now_ns() const
{
    return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - origin_).count());
}

void timeline_tap::record(const timeline::event& e, uint64_t offset_ns) noexcept
{
    const uint64_t t = e.t_ns + offset_ns;
    if (lines_) {
        timeline::event shifted = e;
        shifted.t_ns = t;
        lines_->record(shifted);
    }
    try {
        std::lock_guard lk(mu_);
        if (recent_.size() == recent_capacity) recent_.pop_front();
        recent_.push_back(e);
        recent_.back().t_ns = t;
        if (e.ph != timeline::phase::instant || e.job.empty()) return;
        open_span& s = open_[{e.job, e.partition}];
        if (e.name == "SYNTH_START") {
            s.synth_start = t;
        } else if (e.name == "SYNTH_END") {
            if (s.synth_start) jobs_[e.job].synthesis_ns += t - s.synth_start;
        } else if (e.name == "GPU_START") {
            s.device_start = t;
            if (e.device >= 0) current_[e.device] = e.job;
        } else if (e.name == "GPU_END") {
            if (s.device_start) {
                jobs_[e.job].device_ns += t - s.device_start;
                if (e.device >= 0) busy_[e.device] += t - s.device_start;
            }
            if (e.device >= 0 && current_[e.device] == e.job) current_[e.device].clear();
            open_.erase({e.job, e.partition});
        }
    } catch (...) {   // out of memory: the figures miss this event
    }
}

job_times timeline_tap::take(const std::string& job)
{
    std::lock_guard lk(mu_);
    job_times t;
    if (auto it = jobs_.find(job); it != jobs_.end()) {
        t = it->second;
        jobs_.erase(it);
    }
    for (auto it = open_.begin(); it != open_.end();)
        it = it->first.first == job ? open_.erase(it) : std::next(it);
    return t;
}

std::string timeline_tap::current_job(int device) const
{
    std::lock_guard lk(mu_);
    const auto it = current_.find(device);
    return it == current_.end() ? std::string() : it->second;
}

uint64_t timeline_tap::busy_ns(int device) const
{
    std::lock_guard lk(mu_);
    const auto it = busy_.find(device);
    return it == busy_.end() ? 0 : it->second;
}

} // namespace cuzk::daemon

namespace cuzk::daemon {

std::vector<timeline::event> timeline_tap::recent() const
{
    std::lock_guard lk(mu_);
    return {recent_.begin(), recent_.end()};
}

} // namespace cuzk::daemon
