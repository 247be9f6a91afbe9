// cuzk — ASCII, SVG and HTML renderings of a timeline analysis
// (layout: include/cuzk/timeline/render.hpp).
//
// Time → column: col(t) = ⌊(t − t0)·W / D⌋ clamped to W − 1, where t0 is the
// first event, D the span of the log (at least 1 ns) and W the plot width;
// an interval [b, e) with e > b paints the columns col(b) … col(e − 1), so
// anything of positive length is at least one cell wide.
#include "cuzk/timeline/render.hpp"

#include <algorithm>
#include <cmath>
#include <cctype>
#include <cstdlib>
#include <utility>
#include <map>

#include <fmt/format.h>

namespace cuzk::timeline {

namespace {

constexpr unsigned min_width = 40;

struct row {
    enum kind_t { job_header, partition, device, link } kind;   // link: a device's copies over the bus
    std::string label;
    const job_timing* job = nullptr;
    const partition_timing* part = nullptr;
    const device_report* dev = nullptr;
};

std::string device_label(int32_t d, const std::string& short_word = "dev")
{
    return d >= 0 ? fmt::format("{} {}", short_word, d) : short_word + " ?";
}

std::string plural(size_t n, const char* noun) { return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s"); }

// Replaces every whole word `from` in `text` by `to`.
std::string replace_word(const std::string& text, const std::string& from, const std::string& to)
{
    std::string out;
    size_t pos = 0;
    auto is_word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    for (size_t hit; (hit = text.find(from, pos)) != std::string::npos; pos = hit + from.size()) {
        const bool left = hit == 0 || !is_word(text[hit - 1]);
        const size_t e = hit + from.size();
        const bool right = e >= text.size() || !is_word(text[e]);
        out += text.substr(pos, hit - pos) + (left && right ? to : from);
    }
    return out + text.substr(pos);
}

std::string partition_label(const partition_timing& p)
{
    std::string s = p.partition >= 0 ? fmt::format("p{}", p.partition) : std::string("whole");
    if (p.worker >= 0) s += fmt::format(" w{}", p.worker);
    return s;
}

// Rows in drawing order: per job a header and its partitions, then devices.
std::vector<row> layout(const analysis& a, size_t max_rows, size_t& hidden, const std::string& short_word = "dev")
{
    std::vector<row> rows;
    hidden = 0;
    size_t drawn = 0;
    std::map<std::string, const job_timing*> jobs;
    for (const job_timing& j : a.jobs) jobs[j.id] = &j;
    const std::string* current = nullptr;
    for (const partition_timing& p : a.partitions) {
        if (max_rows && drawn >= max_rows) {
            ++hidden;
            continue;
        }
        if (!current || *current != p.job) {
            current = &p.job;
            row h{row::job_header, p.job.empty() ? std::string("(no job)") : "job " + p.job};
            auto it = jobs.find(p.job);
            h.job = it == jobs.end() ? nullptr : it->second;
            rows.push_back(h);
        }
        row r{row::partition, partition_label(p)};
        r.part = &p;
        rows.push_back(r);
        ++drawn;
    }
    for (const device_report& d : a.devices) {
        row r{row::device, device_label(d.device, short_word) + " busy"};
        r.dev = &d;
        rows.push_back(r);
        if (d.link.empty()) continue;
        row l{row::link, device_label(d.device, short_word) + " bus"};
        l.dev = &d;
        rows.push_back(l);
    }
    return rows;
}

struct scale {
    uint64_t t0 = 0, d = 1;
    unsigned w = 1;
    unsigned col(uint64_t t) const
    {
        if (t <= t0) return 0;
        const unsigned __int128 x = (unsigned __int128)(t - t0) * w / d;
        return x >= w ? w - 1 : unsigned(x);
    }
    uint64_t cell_begin(unsigned i) const { return t0 + uint64_t((unsigned __int128)d * i / w); }
};

scale make_scale(const analysis& a, unsigned w)
{
    scale s;
    s.t0 = a.span.begin;
    s.d = std::max<uint64_t>(1, a.span.length());
    s.w = std::max(1u, w);
    return s;
}

void paint(std::string& plot, const scale& s, const interval& iv, char c)
{
    if (iv.end <= iv.begin) return;
    const unsigned c0 = s.col(iv.begin), c1 = s.col(iv.end - 1);
    for (unsigned i = c0; i <= c1 && i < plot.size(); ++i) plot[i] = c;
}

uint64_t overlap(const interval& x, uint64_t b, uint64_t e)
{
    const uint64_t lo = std::max(x.begin, b), hi = std::min(x.end, e);
    return hi > lo ? hi - lo : 0;
}

std::string device_plot(const device_report& d, const scale& s)
{
    std::string plot(s.w, ' ');
    for (unsigned i = 0; i < s.w; ++i) {
        const uint64_t b = s.cell_begin(i), e = std::max(s.cell_begin(i + 1), b + 1);
        uint64_t busy = 0;
        auto it = std::upper_bound(d.busy.begin(), d.busy.end(), b,
                                   [](uint64_t t, const interval& iv) { return t < iv.end; });
        for (; it != d.busy.end() && it->begin < e; ++it) busy += overlap(*it, b, e);
        const uint64_t in_window = overlap(d.window, b, e);
        const uint64_t idle = in_window > busy ? in_window - busy : 0;
        if (busy == 0 && idle == 0) continue;
        if (busy >= idle) {
            plot[i] = '#';
            continue;
        }
        uint64_t best = 0;
        char c = '-';
        for (const idle_gap& g : d.gaps) {
            const uint64_t o = overlap(g.span, b, e);
            if (o > best) {
                best = o;
                c = cause_letter(g.cause);
            }
        }
        plot[i] = c;
    }
    return plot;
}

// A device's copies over the bus: '>' where they fill at least half a cell.
std::string link_plot(const device_report& d, const scale& s)
{
    std::string plot(s.w, ' ');
    for (unsigned i = 0; i < s.w; ++i) {
        const uint64_t b = s.cell_begin(i), e = std::max(s.cell_begin(i + 1), b + 1);
        uint64_t busy = 0;
        auto it = std::upper_bound(d.link.begin(), d.link.end(), b,
                                   [](uint64_t t, const interval& iv) { return t < iv.end; });
        for (; it != d.link.end() && it->begin < e; ++it) busy += overlap(*it, b, e);
        if (2 * busy >= e - b) plot[i] = '>';
    }
    return plot;
}

std::string partition_plot(const partition_timing& p, const scale& s)
{
    std::string plot(s.w, ' ');
    if (p.has_synth) paint(plot, s, p.synth, '~');
    if (p.has_synth && p.has_queue && p.queue.begin > p.synth.end) paint(plot, s, {p.synth.end, p.queue.begin}, '_');
    if (p.has_queue) paint(plot, s, p.queue, '.');
    if (p.has_device) paint(plot, s, p.device_stage, '=');
    for (const interval& iv : p.lock_wait) paint(plot, s, iv, ':');
    for (const interval& iv : p.cpu_tail) paint(plot, s, iv, '*');
    for (const interval& iv : p.device_work) paint(plot, s, iv, '#');
    return plot;
}

// A tick step of 1, 2 or 5 × 10^k seconds giving at most max_ticks intervals.
double tick_step(double span_s, unsigned max_ticks, int& decimals)
{
    const double raw = span_s / std::max(1u, max_ticks);
    double p = std::pow(10.0, std::floor(std::log10(std::max(raw, 1e-9))));
    double step = p;
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        step = m * p;
        if (step >= raw) break;
    }
    decimals = std::max(0, int(-std::floor(std::log10(step) + 1e-9)));
    return step;
}

std::string fit(std::string s, size_t n)
{
    if (s.size() > n) s.resize(n);
    else s.append(n - s.size(), ' ');
    return s;
}

// Word-wrap `text` to `width`, continuation lines indented by `indent`.
std::string wrap(const std::string& text, size_t width, size_t indent)
{
    std::string out, line;
    size_t pos = text.find_first_not_of(' ');
    if (pos == std::string::npos) return "\n";
    line.assign(pos, ' ');   // keep the leading indentation
    indent += pos;
    bool fresh = true;       // the line holds only its indentation
    while (pos < text.size()) {
        size_t sp = text.find(' ', pos);
        if (sp == std::string::npos) sp = text.size();
        const std::string word = text.substr(pos, sp - pos);
        pos = sp + 1;
        if (!fresh && line.size() + 1 + word.size() > width) {
            out += line + "\n";
            line.assign(indent, ' ');
            fresh = true;
        }
        if (!fresh) line += ' ';
        line += word;
        fresh = false;
    }
    if (!fresh) out += line + "\n";
    return out;
}

std::string seconds(uint64_t ns) { return fmt::format("{:.3f} s", double(ns) * 1e-9); }

std::string xml_escape(std::string_view s)
{
    std::string o;
    o.reserve(s.size());
    for (char c : s) {
        switch (c) {
        case '&': o += "&amp;"; break;
        case '<': o += "&lt;"; break;
        case '>': o += "&gt;"; break;
        case '"': o += "&quot;"; break;
        case '\'': o += "&#39;"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') o += ' ';
            else o += c;
        }
    }
    return o;
}

const char* cause_color(gap_cause c)
{
    switch (c) {
    case gap_cause::lock_held: return "#b07aa1";
    case gap_cause::cpu_tail: return "#ff9da7";
    case gap_cause::nothing_submitted: return "#bab0ac";
    case gap_cause::no_partition_ready: return "#edc948";
    case gap_cause::queued_not_picked: return "#9c755f";
    }
    return "#000";
}

// The kernel-time lines of the summary (CUZK_TIMING, analysis.hpp).
std::string render_kernel(const kernel_report& k, unsigned width)
{
    std::string out;
    auto add = [&](const std::string& text) { out += wrap(text, width, 4); };
    add(fmt::format("kernel time (from {} CUZK_TIMING lines, {} device calls, {} device{}):", k.lines, k.calls,
                    k.devices, k.devices == 1 ? "" : "s"));
    if (!k.window.length()) {
        add(fmt::format("  kernels {}, no GPU_START..GPU_END window to compare with",
                        format_duration(k.kernel_ns)));
        return out;
    }
    const uint64_t cap = k.window.length() * k.devices;
    add(fmt::format("  {:<9} {:>6.1f}%  {} (NTT + H MSM {}, batch additions {}, tail MSMs {}) of {}", "kernels",
                    100 * k.utilisation, format_duration(k.kernel_ns), format_duration(k.ntt_msm_h_ns),
                    format_duration(k.batch_add_ns), format_duration(k.tail_msm_ns), format_duration(cap)));
    add(fmt::format("  {:<9} {:>6.1f}%  {} gpu_total_ms (kernels and the wait for CPU preprocessing)", "region",
                    100 * k.region_utilisation, format_duration(k.region_ns)));
    add(fmt::format("  {:<9} {:>6.1f}%  GPU_START..GPU_END (also the GPU lock wait, b_g2 MSM, epilogue)",
                    "brackets", 100 * k.bracket_utilisation));
    return out;
}

// The legend of the marks drawn in the plots, each explained once.
std::string legend(const std::vector<row>& rows, const std::vector<std::string>& plots, const render_options& opt,
                   bool workers)
{
    std::string part, dev;
    for (size_t i = 0; i < rows.size(); ++i) (rows[i].kind == row::partition ? part : dev) += plots[i];
    const std::string& d = opt.device_word;
    const std::pair<char, std::string> part_marks[] = {
        {'~', "synthesis"}, {'_', "waiting to be queued (lookahead full)"}, {'.', "queued for the " + d},
        {'=', d + " stage, other work"}, {':', "waiting for the " + d + " lock"}, {'*', "CPU tail"},
        {'#', d + " work"}};
    const std::pair<char, std::string> dev_marks[] = {
        {'#', "busy"}, {'S', "no synthesized partition ready"}, {'L', "lock held by a worker not using it"},
        {'T', "CPU tail"}, {'N', "nothing submitted"}, {'Q', "partition ready, not yet dispatched"},
        {'-', "short idle gaps"}, {'>', "(bus rows) copying host to device"}};
    std::string out = "legend: rows pN";
    out += workers ? " wK: partition N of the job, run by prove worker K;" : ": partition N of the job;";
    for (const auto& [c, text] : part_marks)
        if (part.find(c) != std::string::npos) out += fmt::format("  {} {}", c, text);
    out += fmt::format(".  {} rows: ", opt.device_short);
    bool first = true;
    for (const auto& [c, text] : dev_marks)
        if (dev.find(c) != std::string::npos) {
            out += fmt::format("{}{} {}", first ? "" : ", ", c,
                               c == '#' || c == '-' || c == '>' ? text : "idle, " + text);
            first = false;
        }
    return out + (first ? "none." : ".");
}

} // namespace

std::string in_device_words(const std::string& text, const render_options& opt)
{
    if (opt.device_word == "device") return text;
    std::string t = replace_word(text, "GPU_START..GPU_END", opt.device_word + " stage brackets");
    t = replace_word(t, "device spans", opt.device_word + " work spans");
    t = replace_word(t, "devices", opt.device_word + "s");
    return replace_word(t, "device", opt.device_word);
}

unsigned terminal_width() noexcept
{
    const char* c = std::getenv("COLUMNS");
    if (c && *c) {
        char* end = nullptr;
        const long v = std::strtol(c, &end, 10);
        if (end && *end == '\0' && v >= long(min_width) && v <= 100000) return unsigned(v);
    }
    return 100;
}

std::string render_waterfall(const analysis& a, const render_options& opt)
{
    const unsigned width = std::max(opt.width, min_width);
    size_t hidden = 0;
    const auto rows = layout(a, opt.max_rows, hidden, opt.device_short);
    size_t lw = 6;
    for (const row& r : rows)
        if (r.kind != row::job_header) lw = std::max(lw, r.label.size() + 2);
    lw = std::min<size_t>(lw, width / 3);
    const unsigned w = unsigned(width - lw - 2);
    const scale s = make_scale(a, w);

    std::string out;
    auto line = [&](std::string l) {
        if (l.size() > width) l.resize(width);
        out += l + "\n";
    };
    std::vector<std::string> plots(rows.size());
    std::string used;   // every mark drawn, partition rows first, then a '|', then device rows
    bool workers = false;
    for (size_t i = 0; i < rows.size(); ++i) {
        if (rows[i].kind == row::job_header) continue;
        plots[i] = rows[i].kind == row::partition ? partition_plot(*rows[i].part, s)
                   : rows[i].kind == row::link    ? link_plot(*rows[i].dev, s)
                                                  : device_plot(*rows[i].dev, s);
        workers = workers || (rows[i].kind == row::partition && rows[i].part->worker >= 0);
    }
    std::string head = fmt::format("waterfall: {} in {} over {}", plural(a.partitions.size(), "partition"),
                                   plural(a.jobs.size(), "job"), seconds(a.span.length()));
    if (a.span.begin)
        head += fmt::format(" (time 0 is the first event, {:.3f} ms into the log's clock)", double(a.span.begin) * 1e-6);
    out += wrap(head, width, 2);
    out += wrap(legend(rows, plots, opt, workers), width, 4);
    for (size_t i = 0; i < rows.size(); ++i) {
        const row& r = rows[i];
        if (r.kind == row::job_header) {
            std::string h = r.label;
            if (r.job)
                h += fmt::format(": {}, {}, {} .. {}", plural(r.job->partitions, "partition"),
                                 r.job->completed ? "completed" : "not completed",
                                 seconds(r.job->active.begin - a.span.begin), seconds(r.job->active.end - a.span.begin));
            line(h);
            continue;
        }
        out += fit("  " + r.label, lw) + "|" + plots[i] + "|\n";
    }
    if (hidden) line(fmt::format("  ... {} more partition rows not drawn", hidden));

    // Axis.
    int dec = 0;
    const double span_s = double(s.d) * 1e-9;
    const double step = tick_step(span_s, std::max(1u, w / 10), dec);
    std::string axis(w, '-'), labels(w + 1, ' ');
    size_t next_free = 0;
    for (int k = 0;; ++k) {
        const double tau = k * step;
        if (tau > span_s * (1 + 1e-9)) break;
        const unsigned c = s.col(s.t0 + uint64_t(std::llround(tau * 1e9)));
        if (k > 0) axis[c] = '+';   // t = 0 is the left border's '+'
        const std::string txt = fmt::format("{:.{}f}", tau, dec);
        if (c >= next_free && c + txt.size() <= labels.size()) {
            labels.replace(c, txt.size(), txt);
            next_free = c + txt.size() + 1;
        }
        if (k > 100000) break;
    }
    out += std::string(lw, ' ') + "+" + axis + "+\n";
    std::string last = fit(fit("  t (s)", lw) + " " + labels, width);
    last.erase(last.find_last_not_of(' ') + 1);
    out += last + "\n";
    return out;
}

namespace {

// The summary's text: each line word-wrapped to the width, in the backend's
// own words.
struct summary_text {
    const render_options& opt;
    unsigned width;
    std::string out;
    void add(const std::string& text, size_t indent = 4) { out += wrap(in_device_words(text, opt), width, indent); }
};

// The bus: bytes copied host to device, per proof, and each link's share and rate.
void summary_bus(const analysis& a, summary_text& s)
{
    if (!a.bus_bytes) return;
    std::string line = fmt::format("bus: {:.1f} GB copied host to device", double(a.bus_bytes) / 1e9);
    if (a.bus_bytes_per_proof > 0) line += fmt::format(", {:.1f} GB per proof", a.bus_bytes_per_proof / 1e9);
    s.add(line + " (a streamed key's points, a streamed PCE's tiles, the witness and a, b, c uploaded)");
    for (const device_report& d : a.devices)
        if (d.link_busy_ns)
            s.add(fmt::format("  {:<6} link busy {:.1f}% of the window ({}), {:.1f} GB/s while copying",
                              device_label(d.device, s.opt.device_short), 100 * d.link_share,
                              format_duration(d.link_busy_ns), d.link_gbps));
}

// Each device's memory high-water mark, when the log has it.
void summary_memory(const analysis& a, summary_text& s)
{
    for (const device_report& d : a.devices)
        if (d.memory_high_water)
            s.add(fmt::format("memory: {} held at most {}", device_label(d.device, s.opt.device_short),
                              d.memory_high_water >= 1000000000
                                  ? fmt::format("{:.2f} GB", double(d.memory_high_water) / 1e9)
                                  : fmt::format("{:.1f} MB", double(d.memory_high_water) / 1e6)));
}

// Utilisation per device and in all, then the kernel time.
void summary_utilisation(const analysis& a, summary_text& s)
{
    const render_options& opt = s.opt;
    s.add(fmt::format("device utilisation (from {}):", source_name(a.source)));
    for (const device_report& d : a.devices)
        s.add(fmt::format("  {:<6} {:>6.1f}%  busy {} of a {} window, {} busy intervals", device_label(d.device, opt.device_short),
                          100 * d.utilisation, format_duration(d.busy_ns), format_duration(d.window.length()),
                          d.busy.size()));
    for (const device_report& d : a.devices)
        if (d.device < 0) s.add("  (dev ?: the log names no devices; this is the union over all of them)");
    if (a.devices.empty()) s.add("  no device busy intervals");
    else s.add(fmt::format("  {:<6} {:>6.1f}%", "total", 100 * a.utilisation));
    if (a.kernel.present()) s.out += render_kernel(a.kernel, s.width);
    summary_bus(a, s);
    summary_memory(a, s);
}

// The longest listed gaps (longest first), each with its other causes.
void summary_longest_gaps(const analysis& a, std::vector<const idle_gap*> gaps, summary_text& s)
{
    const render_options& opt = s.opt;
    std::stable_sort(gaps.begin(), gaps.end(),
                     [](const idle_gap* x, const idle_gap* y) { return x->span.length() > y->span.length(); });
    if (gaps.empty() || !opt.top_gaps) return;
    s.add(fmt::format("  longest {}:", std::min(gaps.size(), opt.top_gaps)));
    for (size_t i = 0; i < gaps.size() && i < opt.top_gaps; ++i) {
        const idle_gap& g = *gaps[i];
        std::string more;
        const uint64_t main = g.by_cause[size_t(g.cause)];
        if (main < g.span.length())
            for (size_t c = 0; c < gap_cause_count; ++c)
                if (c != size_t(g.cause) && g.by_cause[c])
                    more += fmt::format(", {} {}", cause_letter(gap_cause(c)), format_duration(g.by_cause[c]));
        s.add(fmt::format("    {:<6} at {:>10}  {:>9}  {}{}", device_label(g.device, opt.device_short),
                          seconds(g.span.begin - a.span.begin), format_duration(g.span.length()),
                          cause_name(g.cause), more),
              8);
    }
}

// The idle gaps: counts, idle time by cause, the longest ones.
void summary_gaps(const analysis& a, summary_text& s)
{
    uint64_t idle = 0;
    for (uint64_t x : a.idle_by_cause) idle += x;
    size_t listed = 0, small = 0;
    uint64_t small_ns = 0;
    std::vector<const idle_gap*> gaps;
    for (const device_report& d : a.devices) {
        listed += d.gaps.size();
        small += d.small_gaps;
        small_ns += d.small_gaps_ns;
        for (const idle_gap& g : d.gaps) gaps.push_back(&g);
    }
    s.add(fmt::format("idle gaps: {} of at least {} and {} shorter ({}); idle {} in all:", listed,
                      format_duration(a.options.min_gap_ns), small, format_duration(small_ns), format_duration(idle)));
    for (size_t c = 0; c < gap_cause_count; ++c)
        if (a.idle_by_cause[c])
            s.add(fmt::format("  [{}] {:<38} {:>9} {:>6.1f}%", cause_letter(gap_cause(c)), cause_name(gap_cause(c)),
                              format_duration(a.idle_by_cause[c]), idle ? 100.0 * a.idle_by_cause[c] / idle : 0.0));
    summary_longest_gaps(a, std::move(gaps), s);
}

// Statistics per stage, and synthesis time by concurrency.
void summary_stages(const analysis& a, summary_text& s)
{
    const render_options& opt = s.opt;
    s.add(fmt::format("per partition {:>20} {:>5} {:>9} {:>9} {:>9} {:>9}", "", "n", "min", "median", "p90", "max"));
    auto stat = [&](const char* name, const stage_stats& st) {
        if (!st.count) return;
        s.add(fmt::format("  {:<32} {:>5} {:>9} {:>9} {:>9} {:>9}", in_device_words(name, opt), st.count, format_duration(st.min),
                          format_duration(st.median), format_duration(st.p90), format_duration(st.max)));
    };
    stat("synthesis", a.synth);
    stat("lookahead slot wait", a.slot_wait);
    stat("queue wait", a.queue_wait);
    const bool own_words = opt.device_word != "device";
    stat(own_words ? "device stage" : "device stage (GPU_START..END)", a.device_stage);
    stat("device lock wait", a.lock_wait);
    stat("device work (spans)", a.device_work);
    stat("NTT + H MSM (CUZK_TIMING)", a.kernel.ntt_msm_h);
    stat("batch additions (CUZK_TIMING)", a.kernel.batch_add);
    stat("tail MSMs (CUZK_TIMING)", a.kernel.tail_msm);
    stat("kernel region (gpu_total_ms)", a.kernel.region);
    if (!a.by_concurrency.empty()) {
        s.add("synthesis time by concurrent syntheses at its start:");
        for (const concurrency_bucket& b : a.by_concurrency)
            s.add(fmt::format("  {:>3} running: {:>5} partitions, median {}", b.concurrency, b.count,
                              format_duration(b.median_synth_ns)));
    }
}

// Throughput, unmatched spans, the verdict.
void summary_outcome(const analysis& a, summary_text& s)
{
    const throughput_report& t = a.throughput;
    if (t.jobs_completed)
        s.add(fmt::format("throughput: {} of {} jobs completed ({} partitions) in {}: {:.3f} s/proof, {:.2f} proofs/min",
                          t.jobs_completed, t.jobs_seen, t.partitions_done, seconds(t.wall.length()), t.s_per_proof,
                          t.proofs_per_min));
    else
        s.add(fmt::format("throughput: no job completed ({} seen, {} partitions done) in {}", t.jobs_seen,
                          t.partitions_done, seconds(t.wall.length())));
    if (a.unmatched_spans) s.add(fmt::format("note: {} span begin/end events had no partner", a.unmatched_spans));
    s.add("verdict: " + a.verdict_text);
}

} // namespace

std::string render_summary(const analysis& a, const render_options& opt)
{
    summary_text s{opt, std::max(opt.width, min_width), {}};
    summary_utilisation(a, s);
    summary_gaps(a, s);
    summary_stages(a, s);
    summary_outcome(a, s);
    return s.out;
}

std::string render_text(const analysis& a, const render_options& opt)
{
    return render_waterfall(a, opt) + "\n" + render_summary(a, opt);
}

namespace {

// An SVG drawing in progress: time → x, and the bars with their tooltips.
struct svg_canvas {
    static constexpr double label_w = 150, right = 20, top = 56, row_h = 16, bar_h = 10;
    double W, plot_w;
    uint64_t t0, d;
    std::string o;

    svg_canvas(const analysis& a, const render_options& opt)
        : W(std::max(400u, opt.svg_width)), plot_w(W - label_w - right), t0(a.span.begin),
          d(std::max<uint64_t>(1, a.span.length()))
    {
    }
    double x_of(uint64_t t) const { return label_w + plot_w * double(t > t0 ? t - t0 : 0) / double(d); }
    void rect(double x0, double x1, double y, double h, const char* fill, const std::string& title)
    {
        const double w = std::max(x1 - x0, 0.75);
        o += fmt::format("<rect x=\"{:.2f}\" y=\"{:.1f}\" width=\"{:.2f}\" height=\"{:.1f}\" fill=\"{}\">"
                         "<title>{}</title></rect>\n",
                         x0, y, w, h, fill, xml_escape(title));
    }
    // A bar of the row at y (bar top by) over the interval.
    void bar(const interval& iv, double by, const char* fill, const std::string& title)
    {
        rect(x_of(iv.begin), x_of(iv.end), by, bar_h, fill, title);
    }
    std::string iv_title(const char* what, const interval& iv) const
    {
        return fmt::format("{} {} .. {} ({})", what, seconds(iv.begin - t0), seconds(iv.end - t0),
                           format_duration(iv.length()));
    }
};

// The colour legend, wrapped to the width; returns the top of the rows.
double svg_legend(svg_canvas& cv)
{
    struct item {
        const char* color;
        const char* text;
    };
    const item legend[] = {{"#4e79a7", "synthesis"},     {"#c7c7c7", "queue wait"},
                           {"#f6c28b", "device stage"},  {"#d4b9da", "lock wait"},
                           {"#8cd17d", "CPU tail"},      {"#e15759", "device work"},
                           {"#59a14f", "device busy"},   {"#edc948", "S no partition ready"},
                           {"#b07aa1", "L lock held"},   {"#ff9da7", "T CPU tail"},
                           {"#bab0ac", "N nothing submitted"}, {"#9c755f", "Q ready, not dispatched"}};
    double lx = 4;
    double ly = 32;
    for (const item& it : legend) {
        const double tw = 7.0 * double(std::char_traits<char>::length(it.text)) + 22;
        if (lx + tw > cv.W) {
            lx = 4;
            ly += 14;
        }
        cv.o += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"10\" height=\"10\" fill=\"{}\"/>"
                            "<text x=\"{:.1f}\" y=\"{:.1f}\">{}</text>\n",
                            lx, ly - 9, it.color, lx + 13, ly, it.text);
        lx += tw;
    }
    return std::max(svg_canvas::top, ly + 10);
}

// Grid lines and the time axis at axis_y (under the bars: drawn first).
void svg_axis(svg_canvas& cv, double y0, double axis_y)
{
    int dec = 0;
    const double span_s = double(cv.d) * 1e-9;
    const double step = tick_step(span_s, std::max(1u, unsigned(cv.plot_w / 70)), dec);
    for (int k = 0; k < 100000; ++k) {
        const double tau = k * step;
        if (tau > span_s * (1 + 1e-9)) break;
        const double x = svg_canvas::label_w + cv.plot_w * tau / span_s;
        cv.o += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#e6e6e6\"/>"
                            "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#000\"/>"
                            "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{:.{}f}</text>\n",
                            x, y0, x, axis_y, x, axis_y, x, axis_y + 4, x, axis_y + 16, tau, dec);
    }
    cv.o += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#000\"/>\n",
                        svg_canvas::label_w, axis_y, svg_canvas::label_w + cv.plot_w, axis_y);
    cv.o += fmt::format("<text x=\"4\" y=\"{:.1f}\">t (s)</text>\n", axis_y + 16);
}

void svg_partition_row(svg_canvas& cv, const row& r, double y, double by)
{
    const partition_timing& p = *r.part;
    cv.o += fmt::format("<text x=\"14\" y=\"{:.1f}\">{}</text>\n", y + 12, xml_escape(r.label));
    const std::string who = fmt::format("{} p{}: ", p.job, p.partition);
    if (p.has_synth) cv.bar(p.synth, by, "#4e79a7", who + cv.iv_title("synthesis", p.synth));
    if (p.has_queue) cv.bar(p.queue, by, "#c7c7c7", who + cv.iv_title("queue wait", p.queue));
    if (p.has_device) cv.bar(p.device_stage, by, "#f6c28b", who + cv.iv_title("device stage", p.device_stage));
    for (const interval& iv : p.lock_wait) cv.bar(iv, by, "#d4b9da", who + cv.iv_title("lock wait", iv));
    for (const interval& iv : p.cpu_tail) cv.bar(iv, by, "#8cd17d", who + cv.iv_title("CPU tail", iv));
    for (const interval& iv : p.device_work) cv.bar(iv, by, "#e15759", who + cv.iv_title("device work", iv));
}

void svg_device_row(svg_canvas& cv, const row& r, double y, double by)
{
    const device_report& dv = *r.dev;
    cv.o += fmt::format("<text x=\"4\" y=\"{:.1f}\" font-weight=\"bold\">{}</text>\n", y + 12,
                        xml_escape(r.label + fmt::format(" {:.1f}%", 100 * dv.utilisation)));
    for (const idle_gap& g : dv.gaps)
        cv.bar(g.span, by, cause_color(g.cause), cv.iv_title(cause_name(g.cause), g.span));
    for (const interval& iv : dv.busy) cv.bar(iv, by, "#59a14f", cv.iv_title("busy", iv));
}

// The rows from y0 down, then the note on rows not drawn.
void svg_rows(svg_canvas& cv, const std::vector<row>& rows, size_t hidden, double y0)
{
    double y = y0;
    for (const row& r : rows) {
        const double by = y + (svg_canvas::row_h - svg_canvas::bar_h) / 2;
        if (r.kind == row::job_header) {
            std::string h = r.label;
            if (r.job) h += fmt::format(" ({} partitions, {})", r.job->partitions, r.job->completed ? "completed" : "not completed");
            cv.o += fmt::format("<text x=\"4\" y=\"{:.1f}\" font-weight=\"bold\">{}</text>\n", y + 12, xml_escape(h));
        } else if (r.kind == row::partition) {
            svg_partition_row(cv, r, y, by);
        } else if (r.kind == row::link) {
            cv.o += fmt::format("<text x=\"4\" y=\"{:.1f}\">{}</text>\n", y + 12, xml_escape(r.label));
            for (const interval& iv : r.dev->link) cv.bar(iv, by, "#4e79a7", cv.iv_title("copy host to device", iv));
        } else {
            svg_device_row(cv, r, y, by);
        }
        y += svg_canvas::row_h;
    }
    if (hidden)
        cv.o += fmt::format("<text x=\"4\" y=\"{:.1f}\">… {} more partition rows not drawn</text>\n", y + 12,
                            hidden);
}

} // namespace

std::string render_svg(const analysis& a, const render_options& opt)
{
    svg_canvas cv(a, opt);
    size_t hidden = 0;
    const auto rows = layout(a, opt.max_rows, hidden);
    // The header is written last, when the height is known.
    cv.o += fmt::format("<text x=\"4\" y=\"14\" font-size=\"13\">{}</text>\n",
                        xml_escape((opt.title.empty() ? std::string("cuzk waterfall") : opt.title) + " — " +
                                   verdict_name(a.verdict)));
    const double y0 = svg_legend(cv);
    const double axis_y = y0 + svg_canvas::row_h * double(rows.size() + (hidden ? 1 : 0)) + 2;
    svg_axis(cv, y0, axis_y);
    svg_rows(cv, rows, hidden, y0);
    cv.o += "</svg>\n";
    const double W = cv.W, H = axis_y + 24;
    return fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.0f}\" height=\"{:.0f}\" "
                       "viewBox=\"0 0 {:.0f} {:.0f}\" font-family=\"monospace\" font-size=\"11\">\n"
                       "<rect width=\"{:.0f}\" height=\"{:.0f}\" fill=\"#ffffff\"/>\n",
                       W, H, W, H, W, H) +
           cv.o;
}

std::string render_html(const analysis& a, const render_options& opt)
{
    const std::string title = opt.title.empty() ? std::string("cuzk waterfall") : "cuzk waterfall: " + opt.title;
    std::string o;
    o += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + xml_escape(title) +
         "</title>\n<style>\nbody{font-family:sans-serif;margin:16px;color:#222}\n"
         "pre{font-family:monospace;font-size:12px;background:#f7f7f7;padding:8px;overflow-x:auto}\n"
         "svg{display:block;max-width:100%;height:auto}\n</style>\n</head>\n<body>\n";
    o += "<h1>" + xml_escape(title) + "</h1>\n";
    o += "<p><b>" + xml_escape(a.verdict_text) + "</b></p>\n";
    o += render_svg(a, opt);
    render_options text_opt = opt;
    text_opt.width = std::max(opt.width, 120u);
    o += "<h2>Summary</h2>\n<pre>" + xml_escape(render_summary(a, text_opt)) + "</pre>\n";
    o += "<h2>Waterfall (text)</h2>\n<pre>" + xml_escape(render_waterfall(a, text_opt)) + "</pre>\n";
    o += "</body>\n</html>\n";
    return o;
}

} // namespace cuzk::timeline
