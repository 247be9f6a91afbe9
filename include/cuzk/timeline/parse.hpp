// cuzk — reading timelines back: our CSV lines, our Chrome trace JSON, and
// the logs of curio's Rust cuzk daemon (TIMELINE and CUZK_TIMING lines).
//
// Line logs (CSV, curio): every line that contains the token "TIMELINE," is a
// timeline line; the token must start the line or follow a character that is
// not a letter, digit or '_' (so "[2024-05-01 INFO] TIMELINE,…" and
// "stderr: TIMELINE,…" work and "MY_TIMELINE,…" does not). Other lines are
// skipped. From the token on, the line is split into at most five fields
//   TIMELINE , offset_ms , EVENT , job_id , detail
// (the fifth is the whole rest of the line, commas included). offset_ms is an
// integer or a decimal fraction of milliseconds (read exactly to the
// nanosecond; fraction digits below a nanosecond are dropped). The detail
// is split at commas into key=value pairs; a piece without '=' continues the
// previous value ("msg=a,b" → msg = "a,b"), and a first piece without '=' is
// a key with an empty value (curio's "monolithic"). The keys partition,
// worker and device set those fields (integers; -1 when absent), ph=B / ph=E
// make the event a span begin / end; everything else stays in details in
// order. %25 %2C %3D %0D %0A are decoded (see sinks.hpp). curio's GPU_QUEUE
// is renamed CHAN_SEND unless keep_names is set. A trailing CR is dropped.
//
// CUZK_TIMING lines (curio's supraseal prover prints them to stderr, beside
// the TIMELINE lines): the token "CUZK_TIMING:" (same word-boundary rule),
// then whitespace-separated pieces, each key=value or a bare key (a label such
// as "prestage_vram"; value ""), e.g.
//   CUZK_TIMING: gpu_tid=0 tail_msm_ms=412 gpu_total_ms=3290
// Each becomes an instant event named CUZK_TIMING (job "", partition,
// worker and device -1) with the pieces as details in order. The line has no
// time of its own: it gets the offset of the last TIMELINE line before it
// (the first TIMELINE line's when none precedes it; 0 in a log without
// TIMELINE lines). A line with no pieces, or a piece "=v", is malformed.
//
// Chrome trace JSON: an object with "traceEvents" or a bare array of event
// objects. ph B/E → begin/end, i/I/R/n → instant, X → a begin and an end
// (ts, ts + dur); M (metadata) and others are skipped. ts (µs, may be
// fractional) is read exactly to the ns. job/partition/worker/device come
// from args (defaults "" / -1); other args become details (strings as they
// are, other values as their JSON text). A trace whose closing "]}" is
// missing (a process killed before finish()) is closed and read.
//
// Errors are errc::bad_format with "<name>: line L: <reason>" (or the JSON
// parser's "<name>: line L, column C: …"); with skip_bad_lines a malformed
// TIMELINE line is counted in skipped and its first few reasons kept in
// warnings instead.
//
// The events come back sorted by t_ns (stable: equal times keep file order).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/timeline/event.hpp"

namespace cuzk::timeline {

enum class log_format : uint8_t { lines, chrome_json };
const char* format_name(log_format f) noexcept;   // "TIMELINE lines" / "Chrome trace JSON"

struct parse_options {
    bool skip_bad_lines = false;   // skip malformed TIMELINE lines instead of throwing
    bool keep_names = false;       // keep GPU_QUEUE as it is (default: rename to CHAN_SEND)
};

struct parse_result {
    log_format format = log_format::lines;
    std::vector<event> events;
    size_t lines = 0;             // lines in the input (line logs)
    size_t timeline_lines = 0;    // lines with a TIMELINE token
    size_t timing_lines = 0;      // lines with a CUZK_TIMING token (and no TIMELINE token)
    size_t skipped = 0;           // malformed lines / events skipped
    std::vector<std::string> warnings;
};

// One line. nullopt when the line has no TIMELINE token; throws bad_format
// ("<name>: line L: …") when it has one but is malformed.
std::optional<event> parse_timeline_line(std::string_view line, const std::string& name = "input",
                                         size_t line_no = 0, const parse_options& opt = {});

// One CUZK_TIMING line placed at t_ns. nullopt when the line has no
// CUZK_TIMING token; throws bad_format ("<name>: line L: …") when malformed.
std::optional<event> parse_cuzk_timing_line(std::string_view line, uint64_t t_ns, const std::string& name = "input",
                                            size_t line_no = 0);

parse_result parse_lines(std::string_view text, const std::string& name = "input", const parse_options& opt = {});
parse_result parse_chrome_json(std::string_view text, const std::string& name = "input",
                               const parse_options& opt = {});

// Chrome JSON when the first non-blank character is '{', or '[' followed by
// '{' or ']'; TIMELINE lines otherwise.
log_format detect_format(std::string_view text) noexcept;
parse_result parse_log(std::string_view text, const std::string& name = "input", const parse_options& opt = {});
// Reads the whole file ("-" = standard input); errc::io names the file.
parse_result read_log_file(const std::string& path, const parse_options& opt = {});

// A decimal number of `unit_ns`-nanosecond units ("12", "12.5") as ns
// (unit_ns a power of ten; fraction digits below 1 ns are dropped); nullopt
// on anything else (sign, exponent, empty, overflow).
std::optional<uint64_t> parse_decimal_ns(std::string_view s, uint64_t unit_ns);

} // namespace cuzk::timeline
