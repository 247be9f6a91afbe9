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

#include "commands.hpp"
#include "cuzk/error.hpp"
#include "cuzk/timeline/analysis.hpp"
#include "cuzk/timeline/parse.hpp"
#include "cuzk/timeline/render.hpp"
#include "cuzk/timeline/sinks.hpp"

namespace cuzk::cli {

namespace {

const char* const waterfall_usage =
    "usage: cuzk waterfall <log|-> [--svg FILE] [--html FILE] [--trace FILE] [--width N] [--top N]\n"
    "                      [--min-gap-ms X] [--max-rows N] [--gpus N] [--skip-bad]\n"
    "  <log>: CSV TIMELINE lines (ours, or curio's daemon log with its CUZK_TIMING lines)\n"
    "         or a Chrome trace JSON; - reads stdin\n"
    "  --trace FILE    write the events as a Chrome trace JSON (chrome://tracing, Perfetto)\n"
    "  --gpus N        devices for the kernel utilisation (default: as many as the log names, at least 1)\n"
    "  --width N       terminal columns (default $COLUMNS or 100)\n"
    "  --top N         idle gaps listed (default 10)\n"
    "  --min-gap-ms X  shortest idle gap listed (default 1)\n"
    "  --max-rows N    partition rows drawn (default all)\n"
    "  --skip-bad      skip malformed TIMELINE lines instead of stopping\n";

unsigned long parse_count(const char* flag, const char* v)
{
    char* end = nullptr;
    errno = 0;
    const unsigned long n = std::strtoul(v, &end, 10);
    if (!*v || *end || errno || v[0] == '-')
        throw error(errc::invalid_argument, fmt::format("{}: '{}' is not a non-negative integer", flag, v));
    return n;
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
    std::string log, svg, html, trace;
    timeline::render_options ro;
    ro.width = timeline::terminal_width();
    timeline::analysis_options ao;
    timeline::parse_options po;
    for (size_t i = 0; i < a.size(); ++i) {
        const std::string arg = a[i];
        auto value = [&]() -> const char* {
            if (i + 1 >= a.size()) throw error(errc::invalid_argument, fmt::format("{} needs a value", arg));
            return a[++i];
        };
        if (arg == "-h" || arg == "--help") {
            std::fputs(waterfall_usage, stdout);
            return 0;
        } else if (arg == "--svg") svg = value();
        else if (arg == "--html") html = value();
        else if (arg == "--trace") trace = value();
        else if (arg == "--gpus") {
            ao.devices = unsigned(parse_count("--gpus", value()));
            if (ao.devices == 0 || ao.devices > 4096)
                throw error(errc::invalid_argument, "--gpus: expected 1 … 4096 devices");
        }
        else if (arg == "--width") ro.width = unsigned(parse_count("--width", value()));
        else if (arg == "--top") ro.top_gaps = parse_count("--top", value());
        else if (arg == "--max-rows") ro.max_rows = parse_count("--max-rows", value());
        else if (arg == "--skip-bad") po.skip_bad_lines = true;
        else if (arg == "--min-gap-ms") {
            const char* v = value();
            char* end = nullptr;
            const double ms = std::strtod(v, &end);
            if (!*v || *end || !(ms >= 0) || ms > 1e9)
                throw error(errc::invalid_argument, fmt::format("--min-gap-ms: '{}' is not a number of ms", v));
            ao.min_gap_ns = uint64_t(ms * 1e6);
        } else if (arg.size() > 1 && arg[0] == '-' && arg != "-") {
            std::fprintf(stderr, "cuzk waterfall: unknown option %s\n%s", arg.c_str(), waterfall_usage);
            return 2;
        } else if (log.empty()) log = arg;
        else {
            std::fprintf(stderr, "cuzk waterfall: more than one log given\n%s", waterfall_usage);
            return 2;
        }
    }
    if (log.empty()) {
        std::fputs(waterfall_usage, stderr);
        return 2;
    }

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
