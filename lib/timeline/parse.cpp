// cuzk — reading timelines back (formats: include/cuzk/timeline/parse.hpp).
#include "cuzk/timeline/parse.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/io/mapped_file.hpp"
#include "cuzk/timeline/sinks.hpp"

namespace cuzk::timeline {

namespace {

constexpr std::string_view token = "TIMELINE,";
constexpr std::string_view timing_token = "CUZK_TIMING:";
constexpr size_t max_warnings = 20;

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
        s.remove_suffix(1);
    return s;
}

bool word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Position of the first `tok` that starts the line or follows a non-word
// character; npos if none.
size_t find_token(std::string_view line, std::string_view tok = token)
{
    size_t pos = 0;
    while ((pos = line.find(tok, pos)) != std::string_view::npos) {
        if (pos == 0 || !word_char(line[pos - 1])) return pos;
        pos += 1;
    }
    return std::string_view::npos;
}

std::optional<int32_t> parse_i32(std::string_view s)
{
    s = trim(s);
    int32_t v = 0;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return std::nullopt;
    return v;
}

[[noreturn]] void fail_line(const std::string& name, size_t line_no, const std::string& why)
{
    throw error(errc::bad_format, fmt::format("{}: line {}: {}", name, line_no, why));
}

// Sets the reserved fields or appends a detail.
void apply_detail(event& e, std::string key, std::string value, const std::string& name, size_t line_no)
{
    auto as_int = [&](int32_t& field) {
        const auto v = parse_i32(value);
        if (!v) fail_line(name, line_no, fmt::format("{}={} is not an integer", key, value));
        field = *v;
    };
    if (key == "partition") as_int(e.partition);
    else if (key == "worker") as_int(e.worker);
    else if (key == "device") as_int(e.device);
    else if (key == "ph") {
        if (value == "B" || value == "b") e.ph = phase::begin;
        else if (value == "E" || value == "e") e.ph = phase::end;
        else if (value == "I" || value == "i") e.ph = phase::instant;
        else fail_line(name, line_no, fmt::format("ph={} is not B, E or I", value));
    } else
        e.details.emplace_back(std::move(key), std::move(value));
}

event parse_fields(std::string_view rest, const std::string& name, size_t line_no, const parse_options& opt)
{
    // rest starts after "TIMELINE,": offset , EVENT , job [, detail]
    std::string_view f[4];
    int n = 0;
    while (n < 3) {
        const size_t c = rest.find(',');
        if (c == std::string_view::npos) break;
        f[n++] = rest.substr(0, c);
        rest.remove_prefix(c + 1);
    }
    f[n++] = rest;
    if (n < 3)
        fail_line(name, line_no,
                  fmt::format("expected TIMELINE,<offset_ms>,<EVENT>,<job_id>,<detail> but found {} field(s)", n + 1));
    event e;
    const std::string_view off = trim(f[0]);
    const auto t = parse_decimal_ns(off, 1'000'000);
    if (!t) fail_line(name, line_no, fmt::format("offset '{}' is not a number of milliseconds", off));
    e.t_ns = *t;
    const std::string_view ev = trim(f[1]);
    if (ev.empty()) fail_line(name, line_no, "empty event name");
    e.name = csv_unescape(ev);
    if (!opt.keep_names && e.name == "GPU_QUEUE") e.name = "CHAN_SEND";
    e.job = csv_unescape(trim(f[2]));
    if (n == 4) {
        const std::string_view detail = trim(f[3]);
        // Split at commas; a piece without '=' continues the previous value.
        std::vector<std::pair<std::string, std::string>> pairs;
        size_t start = 0;
        while (start <= detail.size() && !detail.empty()) {
            size_t c = detail.find(',', start);
            if (c == std::string_view::npos) c = detail.size();
            const std::string_view piece = detail.substr(start, c - start);
            const size_t eq = piece.find('=');
            if (trim(piece).empty()) {
                // an empty piece (",," or a trailing comma): nothing
            } else if (eq == std::string_view::npos) {
                if (pairs.empty()) {
                    pairs.emplace_back(std::string(trim(piece)), "");
                } else {
                    pairs.back().second.push_back(',');
                    pairs.back().second.append(piece);
                }
            } else {
                pairs.emplace_back(std::string(trim(piece.substr(0, eq))), std::string(piece.substr(eq + 1)));
            }
            start = c + 1;
        }
        for (auto& [k, v] : pairs) apply_detail(e, csv_unescape(k), csv_unescape(v), name, line_no);
    }
    return e;
}

// A JSON scalar as text (strings as they are, others as their JSON text).
std::string json_text(const io::json& v)
{
    if (v.is_string()) return v.as_string();
    if (v.is_number()) return v.number_text();
    return v.dump();
}

std::optional<int32_t> json_int(const io::json& v)
{
    if (v.is_number()) return parse_i32(v.number_text());
    if (v.is_string()) return parse_i32(v.as_string());
    return std::nullopt;
}

void sort_events(std::vector<event>& ev)
{
    std::stable_sort(ev.begin(), ev.end(), [](const event& a, const event& b) { return a.t_ns < b.t_ns; });
}

} // namespace

const char* format_name(log_format f) noexcept
{
    return f == log_format::chrome_json ? "Chrome trace JSON" : "TIMELINE lines";
}

std::optional<uint64_t> parse_decimal_ns(std::string_view s, uint64_t unit_ns)
{
    if (s.empty()) return std::nullopt;
    int digits = 0;   // fraction digits that are >= 1 ns
    for (uint64_t u = unit_ns; u > 1; u /= 10) ++digits;
    const size_t dot = s.find('.');
    const std::string_view ip = s.substr(0, dot);
    const std::string_view fp = dot == std::string_view::npos ? std::string_view() : s.substr(dot + 1);
    if (ip.empty() || (dot != std::string_view::npos && fp.empty())) return std::nullopt;
    uint64_t whole = 0;
    for (char c : ip) {
        if (c < '0' || c > '9') return std::nullopt;
        if (whole > (UINT64_MAX - 9) / 10) return std::nullopt;
        whole = whole * 10 + uint64_t(c - '0');
    }
    uint64_t frac = 0, scale = unit_ns;
    for (size_t i = 0; i < fp.size(); ++i) {
        const char c = fp[i];
        if (c < '0' || c > '9') return std::nullopt;
        if (int(i) < digits) {
            scale /= 10;
            frac += uint64_t(c - '0') * scale;
        }
    }
    if (whole > (UINT64_MAX - frac) / unit_ns) return std::nullopt;
    return whole * unit_ns + frac;
}

std::optional<event> parse_timeline_line(std::string_view line, const std::string& name, size_t line_no,
                                         const parse_options& opt)
{
    const size_t pos = find_token(line);
    if (pos == std::string_view::npos) return std::nullopt;
    return parse_fields(line.substr(pos + token.size()), name, line_no, opt);
}

std::optional<event> parse_cuzk_timing_line(std::string_view line, uint64_t t_ns, const std::string& name,
                                            size_t line_no)
{
    const size_t pos = find_token(line, timing_token);
    if (pos == std::string_view::npos) return std::nullopt;
    std::string_view rest = line.substr(pos + timing_token.size());
    event e;
    e.t_ns = t_ns;
    e.name = "CUZK_TIMING";
    auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while (!rest.empty()) {
        size_t i = 0;
        while (i < rest.size() && blank(rest[i])) ++i;
        size_t j = i;
        while (j < rest.size() && !blank(rest[j])) ++j;
        const std::string_view piece = rest.substr(i, j - i);
        rest.remove_prefix(j);
        if (piece.empty()) continue;
        const size_t eq = piece.find('=');
        if (eq == 0) fail_line(name, line_no, fmt::format("CUZK_TIMING piece '{}' has no key", piece));
        if (eq == std::string_view::npos) e.details.emplace_back(std::string(piece), "");
        else e.details.emplace_back(std::string(piece.substr(0, eq)), std::string(piece.substr(eq + 1)));
    }
    if (e.details.empty()) fail_line(name, line_no, "CUZK_TIMING line without key=value pairs");
    return e;
}

parse_result parse_lines(std::string_view text, const std::string& name, const parse_options& opt)
{
    parse_result r;
    r.format = log_format::lines;
    size_t line_no = 0, start = 0;
    // CUZK_TIMING lines carry no time: each takes the offset of the last
    // TIMELINE line before it (both go to stderr unbuffered, so the log's
    // order is the order they were printed in).
    uint64_t last_t = 0, first_t = 0;
    bool seen_timeline = false;
    std::vector<size_t> early;   // CUZK_TIMING events before any TIMELINE line
    while (start < text.size()) {
        size_t nl = text.find('\n', start);
        if (nl == std::string_view::npos) nl = text.size();
        const std::string_view line = text.substr(start, nl - start);
        start = nl + 1;
        ++line_no;
        const bool timeline = find_token(line) != std::string_view::npos;
        if (!timeline && find_token(line, timing_token) == std::string_view::npos) continue;
        try {
            if (timeline) {
                auto e = parse_timeline_line(line, name, line_no, opt);
                ++r.timeline_lines;
                last_t = e->t_ns;
                if (!seen_timeline) first_t = last_t;
                seen_timeline = true;
                r.events.push_back(std::move(*e));
            } else {
                auto e = parse_cuzk_timing_line(line, last_t, name, line_no);
                ++r.timing_lines;
                if (!seen_timeline) early.push_back(r.events.size());
                r.events.push_back(std::move(*e));
            }
        } catch (const error& err) {
            if (!opt.skip_bad_lines) throw;
            ++(timeline ? r.timeline_lines : r.timing_lines);
            ++r.skipped;
            if (r.warnings.size() < max_warnings) r.warnings.emplace_back(err.what());
        }
    }
    // CUZK_TIMING lines before the first TIMELINE line: at its time.
    for (size_t i : early) r.events[i].t_ns = first_t;
    r.lines = line_no;
    sort_events(r.events);
    return r;
}

namespace {

// A trace cut off before finish(), closed and parsed again: first as it is,
// then without a partly written last event (the sink writes ",\n" before
// each event and never a raw newline inside one). nullopt if neither parses.
std::optional<io::json> parse_cut_trace(std::string_view text, const std::string& name)
{
    std::string_view t = trim(text);
    for (int attempt = 0; attempt < 2; ++attempt) {
        if (attempt == 1) {
            const size_t cut = t.rfind(",\n");
            if (cut == std::string_view::npos) break;
            t = t.substr(0, cut);
        }
        for (const char* tail : {"]}", "]"}) {
            std::string closed(t);
            if (!closed.empty() && closed.back() == ',') closed.pop_back();
            closed += tail;
            try {
                return io::json::parse(closed, name);
            } catch (const error&) {
            }
        }
    }
    return std::nullopt;
}

// The trace's JSON document; a cut-off trace is read with a warning, else
// the parser's error stands.
io::json parse_trace_document(std::string_view text, const std::string& name, parse_result& r)
{
    try {
        return io::json::parse(text, name);
    } catch (const error&) {
        std::optional<io::json> doc = parse_cut_trace(text, name);
        if (!doc) throw;
        r.warnings.push_back(fmt::format("{}: the trace was not closed (cut off?); read the complete events", name));
        return std::move(*doc);
    }
}

// Where traceEvents[i] goes, and what a bad one does: throw, or with
// skip_bad_lines be counted, warned about and skipped.
struct trace_context {
    const std::string& name;
    const parse_options& opt;
    parse_result& r;
    size_t i;

    void bad(const std::string& why) const
    {
        const std::string msg = fmt::format("{}: traceEvents[{}]: {}", name, i, why);
        if (!opt.skip_bad_lines) throw error(errc::bad_format, msg);
        ++r.skipped;
        if (r.warnings.size() < max_warnings) r.warnings.push_back(msg);
    }
};

// The phase of a "ph" value ("X", complete, is a begin with a duration);
// nullopt for metadata, counters, flows, async: not ours.
std::optional<phase> trace_phase(const std::string& p, bool& complete)
{
    complete = false;
    if (p == "B") return phase::begin;
    if (p == "E") return phase::end;
    if (p == "i" || p == "I" || p == "R" || p == "n") return phase::instant;
    if (p == "X") {
        complete = true;
        return phase::begin;
    }
    return std::nullopt;
}

// A member in µs (a decimal number) as ns; nullopt when missing or not one.
std::optional<uint64_t> trace_us(const io::json& je, const char* key)
{
    const io::json* v = je.find(key);
    if (v && v->is_number()) return parse_decimal_ns(v->number_text(), 1000);
    return std::nullopt;
}

// The event's args: job, partition / worker / device (integers), the rest
// as details. False (after cx.bad) for a non-integer id.
bool read_trace_args(const io::json& je, event& e, const trace_context& cx)
{
    const io::json* args = je.find("args");
    if (!args || !args->is_object()) return true;
    for (const auto& [k, v] : args->as_object()) {
        if (k == "job") {
            e.job = json_text(v);
        } else if (k == "partition" || k == "worker" || k == "device") {
            const auto n = json_int(v);
            if (!n) {
                cx.bad(fmt::format("args.{} is not an integer", k));
                return false;
            }
            (k == "partition" ? e.partition : k == "worker" ? e.worker : e.device) = *n;
        } else {
            e.details.emplace_back(k, json_text(v));
        }
    }
    return true;
}

// traceEvents[cx.i] into cx.r: one event, or a begin and an end for "X".
void read_trace_event(const io::json& je, const trace_context& cx)
{
    if (!je.is_object()) return cx.bad("not an object");
    const io::json* ph = je.find("ph");
    if (!ph || !ph->is_string()) return cx.bad("no \"ph\" string");
    event e;
    bool complete = false;
    const std::optional<phase> p = trace_phase(ph->as_string(), complete);
    if (!p) return;
    e.ph = *p;
    const io::json* nm = je.find("name");
    if (!nm || !nm->is_string()) return cx.bad("no \"name\" string");
    e.name = nm->as_string();
    if (!cx.opt.keep_names && e.name == "GPU_QUEUE") e.name = "CHAN_SEND";
    const std::optional<uint64_t> t = trace_us(je, "ts");
    if (!t) return cx.bad("\"ts\" is missing or not a non-negative decimal number of µs");
    e.t_ns = *t;
    std::optional<uint64_t> dur;
    if (complete) {
        dur = trace_us(je, "dur");
        if (!dur) return cx.bad("an \"X\" event without a valid \"dur\"");
    }
    if (!read_trace_args(je, e, cx)) return;
    if (complete) {
        event end = e;
        end.ph = phase::end;
        end.t_ns = e.t_ns + *dur;
        cx.r.events.push_back(std::move(e));
        cx.r.events.push_back(std::move(end));
    } else {
        cx.r.events.push_back(std::move(e));
    }
}

} // namespace

parse_result parse_chrome_json(std::string_view text, const std::string& name, const parse_options& opt)
{
    parse_result r;
    r.format = log_format::chrome_json;
    const io::json doc = parse_trace_document(text, name, r);
    const io::json* arr = &doc;
    if (doc.is_object()) {
        arr = doc.find("traceEvents");
        if (!arr) throw error(errc::bad_format, fmt::format("{}: no \"traceEvents\" member", name));
    }
    if (!arr->is_array()) throw error(errc::bad_format, fmt::format("{}: traceEvents is not an array", name));
    size_t idx = 0;
    for (const io::json& je : arr->as_array()) read_trace_event(je, trace_context{name, opt, r, idx++});
    sort_events(r.events);
    return r;
}

log_format detect_format(std::string_view text) noexcept
{
    size_t i = 0;
    if (text.substr(0, 3) == "\xEF\xBB\xBF") i = 3;   // UTF-8 byte order mark
    auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while (i < text.size() && blank(text[i])) ++i;
    if (i >= text.size()) return log_format::lines;
    if (text[i] == '{') return log_format::chrome_json;
    if (text[i] == '[') {
        size_t j = i + 1;
        while (j < text.size() && blank(text[j])) ++j;
        if (j >= text.size() || text[j] == '{' || text[j] == ']') return log_format::chrome_json;
    }
    return log_format::lines;
}

parse_result parse_log(std::string_view text, const std::string& name, const parse_options& opt)
{
    if (detect_format(text) == log_format::chrome_json) {
        if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
        return parse_chrome_json(text, name, opt);
    }
    return parse_lines(text, name, opt);
}

parse_result read_log_file(const std::string& path, const parse_options& opt)
{
    std::string text;
    if (path == "-") {   // the same bound as a file
        char buf[1 << 16];
        while (std::cin.read(buf, sizeof buf) || std::cin.gcount() > 0) {
            if (text.size() + size_t(std::cin.gcount()) > io::max_text_file_bytes)
                throw error(errc::bad_length, fmt::format("<stdin>: more than {} bytes (the limit of a log read)",
                                                          io::max_text_file_bytes));
            text.append(buf, size_t(std::cin.gcount()));
        }
        return parse_log(text, "<stdin>", opt);
    }
    text = io::read_text_file(path);   // regular files only, bounded
    return parse_log(text, path, opt);
}

} // namespace cuzk::timeline
