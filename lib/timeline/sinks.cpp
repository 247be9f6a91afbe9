// cuzk — the built-in timeline sinks (formats: include/cuzk/timeline/sinks.hpp).
//
// Cost note: an event is formatted into a fmt::memory_buffer that lives on
// the stack (500 bytes inline, so a typical 60–120-byte line never touches
// the heap), then appended to the stream under the sink's mutex. The lock is
// held only for the ostream::write of the finished line; formatting runs in
// parallel on the callers' threads.
#include "cuzk/timeline/sinks.hpp"

#include <fmt/format.h>

namespace cuzk::timeline {

namespace {

// CSV escaping: % , = CR LF → %25 %2C %3D %0D %0A.
void append_csv_escaped(fmt::memory_buffer& b, std::string_view s)
{
    if (s.find_first_of("%,=\r\n") == std::string_view::npos) {   // the common case
        b.append(s.data(), s.data() + s.size());
        return;
    }
    for (char c : s) {
        switch (c) {
        case '%': b.append(std::string_view("%25")); break;
        case ',': b.append(std::string_view("%2C")); break;
        case '=': b.append(std::string_view("%3D")); break;
        case '\r': b.append(std::string_view("%0D")); break;
        case '\n': b.append(std::string_view("%0A")); break;
        default: b.push_back(c);
        }
    }
}

// t_ns as a decimal number of `unit`-ns units with the remainder as up to
// digits fraction digits, trailing zeros trimmed (unit = 10^digits).
void append_int(fmt::memory_buffer& b, int64_t v)
{
    const fmt::format_int f(v);
    b.append(f.data(), f.data() + f.size());
}

void append_fixed(fmt::memory_buffer& b, uint64_t t_ns, uint64_t unit, int digits)
{
    const fmt::format_int whole(t_ns / unit);
    b.append(whole.data(), whole.data() + whole.size());
    uint64_t frac = t_ns % unit;
    if (frac == 0) return;
    while (frac % 10 == 0) {
        frac /= 10;
        --digits;
    }
    char tmp[24];
    for (int i = digits - 1; i >= 0; --i) {
        tmp[i] = char('0' + frac % 10);
        frac /= 10;
    }
    b.push_back('.');
    b.append(tmp, tmp + digits);
}

void format_csv(fmt::memory_buffer& b, const event& e)
{
    b.append(std::string_view("TIMELINE,"));
    append_fixed(b, e.t_ns, 1'000'000, 6);
    b.push_back(',');
    append_csv_escaped(b, e.name);
    b.push_back(',');
    append_csv_escaped(b, e.job);
    b.push_back(',');
    bool first = true;
    auto sep = [&] {
        if (!first) b.push_back(',');
        first = false;
    };
    if (e.partition >= 0) {
        sep();
        b.append(std::string_view("partition="));
        append_int(b, e.partition);
    }
    if (e.worker >= 0) {
        sep();
        b.append(std::string_view("worker="));
        append_int(b, e.worker);
    }
    if (e.device >= 0) {
        sep();
        b.append(std::string_view("device="));
        append_int(b, e.device);
    }
    if (e.ph != phase::instant) {
        sep();
        b.append(std::string_view(e.ph == phase::begin ? "ph=B" : "ph=E"));
    }
    for (const auto& [k, v] : e.details) {
        sep();
        append_csv_escaped(b, k);
        b.push_back('=');
        append_csv_escaped(b, v);
    }
}

// JSON string body escaping (quotes, backslash, control characters).
void append_json_string(fmt::memory_buffer& b, std::string_view s)
{
    b.push_back('"');
    for (char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            b.push_back('\\');
            b.push_back(c);
        } else if (u < 0x20) {
            switch (c) {
            case '\n': b.append(std::string_view("\\n")); break;
            case '\r': b.append(std::string_view("\\r")); break;
            case '\t': b.append(std::string_view("\\t")); break;
            default: fmt::format_to(std::back_inserter(b), "\\u{:04x}", unsigned(u));
            }
        } else {
            b.push_back(c);
        }
    }
    b.push_back('"');
}

int32_t chrome_pid(const event& e) { return e.device >= 0 ? e.device + 1 : 0; }
int32_t chrome_tid(const event& e) { return e.worker >= 0 ? e.worker + 1 : 0; }

void format_chrome(fmt::memory_buffer& b, const event& e)
{
    b.append(std::string_view("{\"name\":"));
    append_json_string(b, e.name);
    const char* ph = e.ph == phase::begin ? "B" : e.ph == phase::end ? "E" : "i";
    b.append(std::string_view(e.ph == phase::instant ? ",\"cat\":\"stage\",\"ph\":\"" : ",\"cat\":\"span\",\"ph\":\""));
    b.append(std::string_view(ph));
    b.push_back('"');
    if (e.ph == phase::instant) b.append(std::string_view(",\"s\":\"t\""));
    b.append(std::string_view(",\"ts\":"));
    append_fixed(b, e.t_ns, 1000, 3);
    b.append(std::string_view(",\"pid\":"));
    append_int(b, chrome_pid(e));
    b.append(std::string_view(",\"tid\":"));
    append_int(b, chrome_tid(e));
    b.append(std::string_view(",\"args\":{"));
    bool first = true;
    auto sep = [&] {
        if (!first) b.push_back(',');
        first = false;
    };
    if (!e.job.empty()) {
        sep();
        b.append(std::string_view("\"job\":"));
        append_json_string(b, e.job);
    }
    if (e.partition >= 0) {
        sep();
        b.append(std::string_view("\"partition\":"));
        append_int(b, e.partition);
    }
    if (e.worker >= 0) {
        sep();
        b.append(std::string_view("\"worker\":"));
        append_int(b, e.worker);
    }
    if (e.device >= 0) {
        sep();
        b.append(std::string_view("\"device\":"));
        append_int(b, e.device);
    }
    for (const auto& [k, v] : e.details) {
        sep();
        append_json_string(b, k);
        b.push_back(':');
        append_json_string(b, v);
    }
    b.append(std::string_view("}}"));
}

} // namespace

std::string csv_escape(std::string_view s)
{
    fmt::memory_buffer b;
    append_csv_escaped(b, s);
    return fmt::to_string(b);
}

std::string csv_unescape(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size()) {
            const std::string_view code = s.substr(i + 1, 2);
            char c = 0;
            if (code == "25") c = '%';
            else if (code == "2C" || code == "2c") c = ',';
            else if (code == "3D" || code == "3d") c = '=';
            else if (code == "0D" || code == "0d") c = '\r';
            else if (code == "0A" || code == "0a") c = '\n';
            if (c) {
                out.push_back(c);
                i += 2;
                continue;
            }
        }
        out.push_back(s[i]);
    }
    return out;
}

std::string format_csv_line(const event& e)
{
    fmt::memory_buffer b;
    format_csv(b, e);
    return fmt::to_string(b);
}

// ---- csv_sink ------------------------------------------------------------------------

void csv_sink::record(const event& e) noexcept
{
    try {
        fmt::memory_buffer b;
        format_csv(b, e);
        b.push_back('\n');
        std::lock_guard<std::mutex> lk(mu_);
        out_.write(b.data(), std::streamsize(b.size()));
        if (!out_) dropped_.fetch_add(1, std::memory_order_relaxed);
    } catch (...) {
        dropped_.fetch_add(1, std::memory_order_relaxed);
    }
}

void csv_sink::flush() noexcept
{
    try {
        std::lock_guard<std::mutex> lk(mu_);
        out_.flush();
    } catch (...) {
    }
}

uint64_t write_chrome_trace(std::ostream& out, std::span<const event> events)
{
    chrome_trace_sink sink(out);
    for (const event& e : events) sink.record(e);
    sink.finish();
    return sink.dropped();
}

// ---- chrome_trace_sink ---------------------------------------------------------------

chrome_trace_sink::chrome_trace_sink(std::ostream& out) : out_(out)
{
    try {
        out_ << "{\"traceEvents\":[";
    } catch (...) {
    }
}

chrome_trace_sink::~chrome_trace_sink() { finish(); }

void chrome_trace_sink::record(const event& e) noexcept
{
    try {
        fmt::memory_buffer b;
        format_chrome(b, e);
        const int32_t pid = chrome_pid(e), tid = chrome_tid(e);
        std::lock_guard<std::mutex> lk(mu_);
        if (finished_) {
            dropped_.fetch_add(1, std::memory_order_relaxed);
            return;
        }
        pids_.insert(pid);
        tids_.insert({pid, tid});
        out_.write(first_ ? "\n" : ",\n", first_ ? 1 : 2);
        first_ = false;
        out_.write(b.data(), std::streamsize(b.size()));
        if (!out_) dropped_.fetch_add(1, std::memory_order_relaxed);
    } catch (...) {
        dropped_.fetch_add(1, std::memory_order_relaxed);
    }
}

void chrome_trace_sink::flush() noexcept
{
    try {
        std::lock_guard<std::mutex> lk(mu_);
        out_.flush();
    } catch (...) {
    }
}

void chrome_trace_sink::finish() noexcept
{
    try {
        std::lock_guard<std::mutex> lk(mu_);
        if (finished_) return;
        finished_ = true;
        fmt::memory_buffer b;
        auto meta = [&](const char* what, int32_t pid, int32_t tid, const std::string& name) {
            b.append(std::string_view(first_ ? "\n" : ",\n"));
            first_ = false;
            fmt::format_to(std::back_inserter(b), "{{\"name\":\"{}\",\"ph\":\"M\",\"pid\":{},\"tid\":{},\"args\":{{\"name\":",
                           what, pid, tid);
            append_json_string(b, name);
            b.append(std::string_view("}}"));
        };
        for (int32_t pid : pids_) meta("process_name", pid, 0, pid == 0 ? "host" : fmt::format("device {}", pid - 1));
        for (const auto& [pid, tid] : tids_)
            meta("thread_name", pid, tid, tid == 0 ? std::string("no worker") : fmt::format("worker {}", tid - 1));
        b.append(std::string_view("\n],\"displayTimeUnit\":\"ms\"}\n"));
        out_.write(b.data(), std::streamsize(b.size()));
        out_.flush();
    } catch (...) {
    }
}

// ---- recorder ------------------------------------------------------------------------

void recorder::record(const event& e) noexcept
{
    try {
        event copy = e;   // allocate outside the lock
        std::lock_guard<std::mutex> lk(mu_);
        events_.push_back(std::move(copy));
    } catch (...) {
        dropped_.fetch_add(1, std::memory_order_relaxed);
    }
}

std::vector<event> recorder::events() const
{
    std::lock_guard<std::mutex> lk(mu_);
    return events_;
}

std::vector<event> recorder::take()
{
    std::lock_guard<std::mutex> lk(mu_);
    std::vector<event> out;
    out.swap(events_);
    return out;
}

size_t recorder::size() const
{
    std::lock_guard<std::mutex> lk(mu_);
    return events_.size();
}

void recorder::clear()
{
    std::lock_guard<std::mutex> lk(mu_);
    events_.clear();
}

// ---- fan_out -------------------------------------------------------------------------

fan_out::fan_out(std::vector<std::shared_ptr<sink>> children) : children_(std::move(children)) {}

void fan_out::add(std::shared_ptr<sink> child)
{
    if (!child) return;
    std::unique_lock<std::shared_mutex> lk(mu_);
    children_.push_back(std::move(child));
}

void fan_out::record(const event& e) noexcept
{
    std::shared_lock<std::shared_mutex> lk(mu_);
    for (const auto& c : children_)
        if (c) c->record(e);
}

void fan_out::flush() noexcept
{
    std::shared_lock<std::shared_mutex> lk(mu_);
    for (const auto& c : children_)
        if (c) c->flush();
}

} // namespace cuzk::timeline
