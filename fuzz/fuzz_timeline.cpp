// Fuzzes the timeline readers: TIMELINE / CUZK_TIMING line logs (curio's
// cuzk daemon) and Chrome trace JSON (timeline::parse_log), strict and
// skipping bad lines.
#include "cuzk/timeline/parse.hpp"
#include "fuzz_util.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string_view text = cuzk::fuzz::as_text(data, size);
    for (bool skip : {false, true}) {
        cuzk::fuzz::expect_errors([&] {
            cuzk::timeline::parse_options opt;
            opt.skip_bad_lines = skip;
            const cuzk::timeline::parse_result r = cuzk::timeline::parse_log(text, "fuzz.log", opt);
            for (size_t i = 1; i < r.events.size(); ++i)
                cuzk::fuzz::require(r.events[i - 1].t_ns <= r.events[i].t_ns, "timeline: events sorted by time");
        });
    }
    return 0;
}
