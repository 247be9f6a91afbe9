#include "progress.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>

namespace cuzk::cli {

namespace {

std::atomic<bool> enabled{true};

} // namespace

void set_progress_enabled(bool on) { enabled.store(on); }
bool progress_enabled() { return enabled.load(); }
bool stderr_is_terminal() { return isatty(STDERR_FILENO) == 1; }

progress_step::progress_step(std::string who, std::string what) : line_(who + ": " + what)
{
    if (progress_enabled()) watcher_ = std::thread([this] { watch(); });
}

progress_step::~progress_step() { end(); }

void progress_step::end()
{
    {
        std::lock_guard lk(m_);
        done_ = true;
    }
    cv_.notify_all();
    if (watcher_.joinable()) watcher_.join();
}

// Waits a second; then announces the step (a terminal: redrawn every second
// with the time so far, erased at the end; otherwise one plain line).
void progress_step::watch()
{
    using namespace std::chrono_literals;
    const bool tty = stderr_is_terminal();
    const auto t0 = std::chrono::steady_clock::now();
    std::unique_lock lk(m_);
    if (cv_.wait_for(lk, 1s, [this] { return done_; })) return;
    shown_ = true;
    if (!tty) {
        std::fprintf(stderr, "%s ...\n", line_.c_str());
        std::fflush(stderr);
        return;
    }
    do {
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::fprintf(stderr, "\r\033[K%s ... %.0f s", line_.c_str(), s);
        std::fflush(stderr);
    } while (!cv_.wait_for(lk, 1s, [this] { return done_; }));
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
}

} // namespace cuzk::cli
