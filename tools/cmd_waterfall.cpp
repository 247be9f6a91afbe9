// `cuzk waterfall <log>`: reads a timeline (our CSV lines, our Chrome trace
// JSON, or a curio cuzk daemon log with TIMELINE and CUZK_TIMING lines among
// other output), prints the waterfall and the summary (with the kernel time
// when the log has CUZK_TIMING lines), and writes SVG / HTML / a Chrome
// trace of the events on request.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli_util.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "progress.hpp"
#include "cuzk/error.hpp"
#include "cuzk/timeline/analysis.hpp"
#include "cuzk/timeline/parse.hpp"
#include "cuzk/timeline/render.hpp"
#include "cuzk/timeline/sinks.hpp"

namespace cuzk::cli {

namespace {

const char* const waterfall_usage = "waterfall <log|-> [--svg FILE] [--html FILE] [--trace FILE] [--width N] [--top N]\n"
                                    "          [--min-gap-ms X] [--max-rows N] [--gpus N] [--skip-bad]";
const char* const waterfall_about =
    "Reads a timeline: CSV TIMELINE lines (cuzk's, or a curio daemon log with its CUZK_TIMING lines among other "
    "output), or a Chrome trace JSON; - reads stdin. Prints the waterfall (one row per partition, one per device, "
    "time across; the legend above it says what each mark means), the device utilisation, the idle gaps by cause "
    "and the verdict: what bounds the throughput.";

constexpr flag_spec waterfall_flags[] = {
    {"--svg", "FILE", "also write the waterfall as SVG"},
    {"--html", "FILE", "also write a self-contained HTML page (SVG and summary)"},
    {"--trace", "FILE", "write the events as a Chrome trace JSON (chrome://tracing, Perfetto)"},
    {"--width", "N", "terminal columns, 40 ... 100000 (default $COLUMNS or 100)"},
    {"--top", "N", "idle gaps listed (default 10)"},
    {"--min-gap-ms", "X", "shortest idle gap listed, in ms (default 1)"},
    {"--max-rows", "N", "partition rows drawn (default all)"},
    {"--gpus", "N", "devices for the kernel utilisation, 1 ... 4096 (default: as many as the log names, at least 1)"},
    {"--skip-bad", nullptr, "skip malformed TIMELINE lines instead of stopping"},
};

double parse_ms(const std::string& v)
{
    char* end = nullptr;
    const double ms = std::strtod(v.c_str(), &end);
    if (v.empty() || *end || !(ms >= 0) || ms > 1e9)
        throw usage_error(fmt::format("--min-gap-ms: expected a number of milliseconds, got '{}'", v));
    return ms;
}

void write_file(const std::string& path, const std::string& text)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw error(errc::io, fmt::format("{}: cannot create: {}", path, std::strerror(errno)));
    out << text;
    out.close();
    if (!out) throw error(errc::io, fmt::format("{}: write failed", path));
}

void write_trace(const std::string& path, const std::vector<timeline::event>& events)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw error(errc::io, fmt::format("{}: cannot create: {}", path, std::strerror(errno)));
    const uint64_t dropped = timeline::write_chrome_trace(out, events);
    out.close();
    if (!out || dropped) throw error(errc::io, fmt::format("{}: write failed", path));
    std::printf("wrote %s (%zu events)\n", path.c_str(), events.size());
}

} // namespace

int cmd_waterfall(args a)
{
    const options o(a, waterfall_flags, 1, 1);
    if (o.help()) return show_help(waterfall_usage, waterfall_about, waterfall_flags);
    const std::string log = o.positional()[0], svg = o.get_or("--svg", ""), html = o.get_or("--html", ""),
                      trace = o.get_or("--trace", "");
    timeline::render_options ro;
    ro.width = unsigned(o.get_u64_or("--width", 40, 100000, timeline::terminal_width()));
    ro.top_gaps = o.get_u64_or("--top", 0, 1'000'000, ro.top_gaps);
    ro.max_rows = o.get_u64_or("--max-rows", 0, UINT32_MAX, 0);
    timeline::analysis_options ao;
    ao.devices = unsigned(o.get_u64_or("--gpus", 1, 4096, 0));
    if (o.has("--min-gap-ms")) ao.min_gap_ns = uint64_t(parse_ms(o.get("--min-gap-ms")) * 1e6);
    timeline::parse_options po;
    po.skip_bad_lines = o.has("--skip-bad");

    progress_step step("cuzk waterfall", "reading " + log);
    const timeline::parse_result pr = timeline::read_log_file(log, po);
    for (const std::string& w : pr.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
    if (pr.skipped) std::fprintf(stderr, "warning: %s: %zu malformed entries skipped\n", log.c_str(), pr.skipped);
    if (pr.events.empty()) {
        if (pr.format == timeline::log_format::lines)
            throw error(errc::bad_format,
                        fmt::format("{}: no TIMELINE lines among its {} lines", log == "-" ? "<stdin>" : log, pr.lines));
        throw error(errc::bad_format, fmt::format("{}: the trace has no events", log));
    }
    ro.title = log == "-" ? std::string("<stdin>") : log;
    const timeline::analysis an = timeline::analyse(pr.events, ao);
    step.end();
    std::printf("%s: %s, %zu events", ro.title.c_str(), timeline::format_name(pr.format), pr.events.size());
    if (pr.format == timeline::log_format::lines) {
        std::printf(" from %zu of %zu lines", pr.timeline_lines, pr.lines);
        if (pr.timing_lines) std::printf(" (%zu CUZK_TIMING)", pr.timing_lines);
    }
    std::printf("\n");
    std::fputs(timeline::render_text(an, ro).c_str(), stdout);
    if (!svg.empty()) {
        write_file(svg, timeline::render_svg(an, ro));
        std::printf("wrote %s\n", svg.c_str());
    }
    if (!html.empty()) {
        write_file(html, timeline::render_html(an, ro));
        std::printf("wrote %s\n", html.c_str());
    }
    if (!trace.empty()) write_trace(trace, pr.events);
    return 0;
}

} // namespace cuzk::cli
