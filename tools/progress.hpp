// Progress of the cuzk program on stderr, for steps that take more than about
// a second (a key setup, a proof, a file read): stdout keeps the results.
//
// A step that is still running after one second is announced: on a terminal
// as a status line that counts the seconds and is erased when the step ends
// (the result line on stdout then says how long it took); elsewhere (a log,
// a pipe) as one plain line "cuzk <command>: <what> ..." per step, so that a
// log shows what a long run was doing. Steps that end within the second
// print nothing.
#pragma once

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace cuzk::cli {

// Turns every announcement off (--no-progress) or back on.
void set_progress_enabled(bool on);
bool progress_enabled();
// Whether stderr is a terminal (then progress lines are redrawn in place).
bool stderr_is_terminal();

class progress_step {
public:
    // who: "cuzk bench"; what: "setting up the key".
    progress_step(std::string who, std::string what);
    ~progress_step();
    progress_step(const progress_step&) = delete;
    progress_step& operator=(const progress_step&) = delete;

    void end();   // idempotent; the destructor calls it

private:
    void watch();

    std::string line_;
    std::mutex m_;
    std::condition_variable cv_;
    bool done_ = false;
    bool shown_ = false;
    std::thread watcher_;
};

} // namespace cuzk::cli
