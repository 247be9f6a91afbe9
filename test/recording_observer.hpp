// cuzk tests — a prove_observer that records the prover's calls, for the
// checks of step order and device spans (test_gpu_prove, test_gpu_bn254).
#pragma once

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/groth16/prover_split.hpp"

namespace cuzk::test {

struct recording_observer final : groth16::prove_observer {
    // "+STEP:query" at a begin, "-STEP:query" at an end, and with log_spans
    // "=STEP:query" at each step_span.
    std::vector<std::string> log;
    bool log_spans = false;
    struct span {
        std::string step, query;
        std::chrono::steady_clock::time_point b, e;
    };
    std::vector<span> spans;
    void step_begin(std::string_view s, std::string_view q) noexcept override
    {
        log.push_back("+" + std::string(s) + ":" + std::string(q));
    }
    void step_end(std::string_view s, std::string_view q) noexcept override
    {
        log.push_back("-" + std::string(s) + ":" + std::string(q));
    }
    void step_span(std::string_view s, std::string_view q, std::chrono::steady_clock::time_point b,
                   std::chrono::steady_clock::time_point e) noexcept override
    {
        spans.push_back({std::string(s), std::string(q), b, e});
        if (log_spans) log.push_back("=" + std::string(s) + ":" + std::string(q));
    }
};

} // namespace cuzk::test
