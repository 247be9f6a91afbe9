// cuzk — timeline analysis (definitions: include/cuzk/timeline/analysis.hpp).
//
// Cost: sorting the events O(E log E); span matching O(E) with a hash map of
// open spans; merging per device O(S log S). Gap classification cuts each gap
// at the boundaries of four merged interval lists (lock waits, CPU tails,
// active jobs, queued partitions) found by binary search, so it costs
// O((G + B) log I) for G gaps, B boundaries inside gaps and I intervals.
#include "cuzk/timeline/analysis.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <tuple>
#include <utility>
#include <unordered_map>

#include <fmt/format.h>

namespace cuzk::timeline {

namespace {

bool ends_with(const std::string& s, std::string_view suf)
{
    return s.size() >= suf.size() && s.compare(s.size() - suf.size(), suf.size(), suf) == 0;
}

// A closed span.
struct span_rec {
    const event* begin;   // the begin event (name, job, partition, worker, device)
    interval iv;
};

// Does some interval of the merged, sorted list overlap (p, q)?
bool overlaps(const std::vector<interval>& merged, uint64_t p, uint64_t q)
{
    auto it = std::upper_bound(merged.begin(), merged.end(), p,
                               [](uint64_t t, const interval& iv) { return t < iv.end; });
    return it != merged.end() && it->begin < q;
}

// Boundaries of the merged list strictly inside (a, b).
void boundaries_inside(const std::vector<interval>& merged, uint64_t a, uint64_t b, std::vector<uint64_t>& out)
{
    auto it = std::upper_bound(merged.begin(), merged.end(), a,
                               [](uint64_t t, const interval& iv) { return t < iv.end; });
    for (; it != merged.end() && it->begin < b; ++it) {
        if (it->begin > a && it->begin < b) out.push_back(it->begin);
        if (it->end > a && it->end < b) out.push_back(it->end);
    }
}

uint64_t median_of(std::vector<uint64_t> v)
{
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : v[n / 2 - 1] + (v[n / 2] - v[n / 2 - 1]) / 2;
}

struct row_key {
    std::string job;
    int32_t partition;
    bool operator<(const row_key& o) const { return std::tie(job, partition) < std::tie(o.job, o.partition); }
};

// Raw stage times of one partition (UINT64_MAX / 0: not seen).
struct row_acc {
    uint64_t synth_start = UINT64_MAX, synth_end = 0;
    uint64_t chan_send = UINT64_MAX, pickup = 0, first_pickup = UINT64_MAX;
    uint64_t gpu_start = UINT64_MAX, gpu_end = 0;
    bool seen_synth_end = false, seen_pickup = false, seen_gpu_end = false;
    int32_t worker = -1, device = -1, any_worker = -1;
    uint64_t first_t = UINT64_MAX;
};

std::string pct(double f) { return fmt::format("{:.1f}%", 100.0 * f); }

} // namespace

// ---- small helpers -----------------------------------------------------------------

std::vector<interval> merge_intervals(std::vector<interval> v)
{
    v.erase(std::remove_if(v.begin(), v.end(), [](const interval& i) { return i.end <= i.begin; }), v.end());
    std::sort(v.begin(), v.end(), [](const interval& a, const interval& b) { return a.begin < b.begin; });
    std::vector<interval> out;
    for (const interval& i : v) {
        if (!out.empty() && i.begin <= out.back().end) out.back().end = std::max(out.back().end, i.end);
        else out.push_back(i);
    }
    return out;
}

uint64_t union_length(std::vector<interval> v)
{
    uint64_t s = 0;
    for (const interval& i : merge_intervals(std::move(v))) s += i.length();
    return s;
}

double utilisation_of(std::vector<interval> v)
{
    const auto m = merge_intervals(std::move(v));
    if (m.empty()) return 0;
    const uint64_t window = m.back().end - m.front().begin;
    uint64_t s = 0;
    for (const interval& i : m) s += i.length();
    return window ? double(s) / double(window) : 0;
}

const char* source_name(busy_source s) noexcept
{
    switch (s) {
    case busy_source::device_spans: return "device spans";
    case busy_source::stage_brackets: return "GPU_START..GPU_END";
    default: return "none";
    }
}

const char* cause_name(gap_cause c) noexcept
{
    switch (c) {
    case gap_cause::lock_held: return "lock held by another worker";
    case gap_cause::cpu_tail: return "CPU tail";
    case gap_cause::nothing_submitted: return "nothing submitted";
    case gap_cause::no_partition_ready: return "no synthesized partition ready";
    case gap_cause::queued_not_picked: return "partition ready, waiting for dispatch";
    }
    return "?";
}

char cause_letter(gap_cause c) noexcept
{
    switch (c) {
    case gap_cause::lock_held: return 'L';
    case gap_cause::cpu_tail: return 'T';
    case gap_cause::nothing_submitted: return 'N';
    case gap_cause::no_partition_ready: return 'S';
    case gap_cause::queued_not_picked: return 'Q';
    }
    return '?';
}

const char* verdict_name(verdict_kind k) noexcept
{
    switch (k) {
    case verdict_kind::device_bound: return "device-bound";
    case verdict_kind::synthesis_bound: return "synthesis-bound";
    case verdict_kind::lock_cpu_tail_bound: return "lock/CPU-tail-bound";
    case verdict_kind::idle_submission_bound: return "idle/submission-bound";
    case verdict_kind::dispatch_bound: return "dispatch-bound";
    case verdict_kind::no_device_work: return "no device work";
    case verdict_kind::link_bound: return "link-bound";
    }
    return "?";
}

namespace {
// The whole number of detail `key` (0 when absent or not a number).
uint64_t detail_u64(const event& e, std::string_view key) noexcept
{
    for (const auto& [k, v] : e.details)
        if (k == key) {
            uint64_t b = 0;
            for (char c : v) {
                if (c < '0' || c > '9' || b > (UINT64_MAX - 9) / 10) return 0;
                b = b * 10 + uint64_t(c - '0');
            }
            return b;
        }
    return 0;
}
} // namespace

uint64_t copy_bytes(const event& e) noexcept
{
    if (e.device < 0 || e.ph != phase::begin) return 0;
    return detail_u64(e, "bytes");
}

uint64_t memory_high_water(const event& e) noexcept
{
    if (e.device < 0 || e.ph != phase::instant || e.name != "DEVICE_MEMORY") return 0;
    return detail_u64(e, "high_water");
}

bool is_device_work(const event& e) noexcept
{
    if (e.device < 0 || e.ph == phase::instant) return false;
    if (e.name == "LOCK_WAIT" || e.name == "CPU_TAIL" || ends_with(e.name, "_WAIT")) return false;
    return copy_bytes(e) == 0;
}

stage_stats compute_stats(std::vector<uint64_t> v)
{
    stage_stats s;
    if (v.empty()) return s;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    s.count = n;
    s.min = v.front();
    s.max = v.back();
    s.median = n % 2 ? v[n / 2] : v[n / 2 - 1] + (v[n / 2] - v[n / 2 - 1]) / 2;
    const size_t rank = (9 * n + 9) / 10;   // ⌈0.9·n⌉, integer arithmetic
    s.p90 = v[std::max<size_t>(rank, 1) - 1];
    return s;
}

std::string format_duration(uint64_t ns)
{
    auto fmt3 = [](double v, const char* unit) {
        if (v >= 100) return fmt::format("{:.0f} {}", v, unit);
        if (v >= 10) return fmt::format("{:.1f} {}", v, unit);
        return fmt::format("{:.2f} {}", v, unit);
    };
    if (ns >= 1'000'000'000) return fmt3(double(ns) * 1e-9, "s");
    if (ns >= 1'000'000) return fmt3(double(ns) * 1e-6, "ms");
    if (ns >= 1'000) return fmt3(double(ns) * 1e-3, "us");
    return fmt::format("{} ns", ns);
}

// ---- the analysis, step by step -----------------------------------------------------

namespace {

using row_map = std::map<row_key, row_acc>;
using row_index_map = std::map<row_key, size_t>;
using device_lists = std::map<int32_t, std::vector<interval>>;   // by device; -1 = any device

// The events in time order (stable: equal times keep the log's order).
std::vector<const event*> sorted_events(std::span<const event> input)
{
    std::vector<const event*> ev(input.size());
    for (size_t i = 0; i < input.size(); ++i) ev[i] = &input[i];
    std::stable_sort(ev.begin(), ev.end(), [](const event* x, const event* y) { return x->t_ns < y->t_ns; });
    return ev;
}

// Jobs in the order of their first event, active until their last; returns
// the jobs that failed or were cancelled.
std::set<std::string> collect_jobs(const std::vector<const event*>& ev, analysis& a)
{
    std::map<std::string, size_t> job_index;
    std::set<std::string> failed_jobs;
    for (const event* e : ev) {
        if (e->job.empty()) continue;
        auto [it, fresh] = job_index.try_emplace(e->job, a.jobs.size());
        if (fresh) a.jobs.push_back({e->job, {e->t_ns, e->t_ns}, 0, false});
        a.jobs[it->second].active.end = e->t_ns;
        if (e->name == "JOB_FAILED" || e->name == "JOB_CANCELLED") failed_jobs.insert(e->job);
    }
    return failed_jobs;
}

// The row of e's partition, created on first sight.
row_acc& row_of(row_map& rows, const event* e)
{
    row_acc& r = rows[row_key{e->job, e->partition}];
    r.first_t = std::min(r.first_t, e->t_ns);
    if (e->worker >= 0) r.any_worker = e->worker;
    return r;
}

// GPU_PICKUP, GPU_START or GPU_END of a row.
void add_device_stage_event(row_acc& r, const event* e)
{
    const std::string& n = e->name;
    const uint64_t t = e->t_ns;
    if (e->worker >= 0) r.worker = e->worker;
    if (e->device >= 0) r.device = e->device;
    if (n == "GPU_PICKUP") {
        r.pickup = std::max(r.pickup, t);
        r.first_pickup = std::min(r.first_pickup, t);
        r.seen_pickup = true;
    } else if (n == "GPU_START") {
        r.gpu_start = std::min(r.gpu_start, t);
    } else {
        r.gpu_end = std::max(r.gpu_end, t);
        r.seen_gpu_end = true;
    }
}

// The stage events (instants) into the rows of their partitions.
void collect_stage_events(const std::vector<const event*>& ev, row_map& rows)
{
    for (const event* e : ev) {
        if (e->ph != phase::instant) continue;
        const std::string& n = e->name;
        const uint64_t t = e->t_ns;
        if (n == "SYNTH_START") {
            auto& r = row_of(rows, e);
            r.synth_start = std::min(r.synth_start, t);
        } else if (n == "SYNTH_END") {
            auto& r = row_of(rows, e);
            r.synth_end = std::max(r.synth_end, t);
            r.seen_synth_end = true;
        } else if (n == "CHAN_SEND" || n == "GPU_QUEUE") {
            auto& r = row_of(rows, e);
            r.chan_send = std::min(r.chan_send, t);
        } else if (n == "GPU_PICKUP" || n == "GPU_START" || n == "GPU_END") {
            add_device_stage_event(row_of(rows, e), e);
        }
    }
}

// Begin/end pairs matched per (name, job, partition, worker, device), the
// innermost open begin first; counts the events left without a partner.
std::vector<span_rec> match_spans(const std::vector<const event*>& ev, size_t& unmatched)
{
    std::vector<span_rec> spans;
    using key = std::tuple<std::string, std::string, int32_t, int32_t, int32_t>;
    std::map<key, std::vector<const event*>> open;
    for (const event* e : ev) {
        if (e->ph == phase::instant) continue;
        key k{e->name, e->job, e->partition, e->worker, e->device};
        auto& stack = open[k];
        if (e->ph == phase::begin) {
            stack.push_back(e);
        } else if (stack.empty()) {
            ++unmatched;
        } else {
            spans.push_back({stack.back(), {stack.back()->t_ns, e->t_ns}});
            stack.pop_back();
        }
    }
    for (const auto& [k, stack] : open) unmatched += stack.size();
    return spans;
}

// Device work spans belong to their partition's row (created if the row has
// no stage events but the span names a job). Returns whether there are any.
bool add_device_work_rows(const std::vector<span_rec>& spans, row_map& rows)
{
    bool any_device_work = false;
    for (const span_rec& s : spans) {
        if (!is_device_work(*s.begin)) continue;
        any_device_work = true;
        if (!s.begin->job.empty()) row_of(rows, s.begin);
    }
    return any_device_work;
}

partition_timing timing_of(const row_key& k, const row_acc& r)
{
    partition_timing p;
    p.job = k.job;
    p.partition = k.partition;
    p.worker = r.worker >= 0 ? r.worker : r.any_worker;
    p.device = r.device;
    if (r.synth_start != UINT64_MAX && r.seen_synth_end && r.synth_end >= r.synth_start) {
        p.has_synth = true;
        p.synth = {r.synth_start, r.synth_end};
    }
    if (r.chan_send != UINT64_MAX && r.seen_pickup && r.pickup >= r.chan_send) {
        p.has_queue = true;
        p.queue = {r.chan_send, r.pickup};
    }
    const uint64_t dstart = r.gpu_start != UINT64_MAX ? r.gpu_start : r.first_pickup;
    if (dstart != UINT64_MAX && r.seen_gpu_end && r.gpu_end >= dstart) {
        p.has_device = true;
        p.device_stage = {dstart, r.gpu_end};
    }
    p.done = r.seen_gpu_end;
    return p;
}

// Rows → partition_timing, grouped by job order then partition; returns
// each partition's index in a.partitions.
row_index_map build_partitions(const row_map& rows, analysis& a)
{
    for (const auto& [k, r] : rows) a.partitions.push_back(timing_of(k, r));
    std::map<std::string, size_t> order;
    for (size_t i = 0; i < a.jobs.size(); ++i) order[a.jobs[i].id] = i + 1;   // "" → 0, first
    std::stable_sort(a.partitions.begin(), a.partitions.end(),
                     [&](const partition_timing& x, const partition_timing& y) {
                         const size_t ox = order[x.job], oy = order[y.job];
                         return ox != oy ? ox < oy : x.partition < y.partition;
                     });
    row_index_map row_index;
    for (size_t i = 0; i < a.partitions.size(); ++i)
        row_index[row_key{a.partitions[i].job, a.partitions[i].partition}] = i;
    return row_index;
}

// Device busy intervals, from the device work spans when there are any
// (also giving each partition its device work), else from the device stages.
device_lists device_busy(const std::vector<span_rec>& spans, bool any_device_work, const row_index_map& row_index,
                         analysis& a)
{
    device_lists busy;
    if (!any_device_work) {
        for (const partition_timing& p : a.partitions)
            if (p.has_device) busy[p.device].push_back(p.device_stage);
        if (!busy.empty()) a.source = busy_source::stage_brackets;
        return busy;
    }
    a.source = busy_source::device_spans;
    std::map<size_t, std::vector<interval>> per_row;
    for (const span_rec& s : spans) {
        if (!is_device_work(*s.begin)) continue;
        busy[s.begin->device].push_back(s.iv);
        auto it = row_index.find(row_key{s.begin->job, s.begin->partition});
        if (it != row_index.end()) {
            per_row[it->second].push_back(s.iv);
            if (a.partitions[it->second].device < 0) a.partitions[it->second].device = s.begin->device;
        }
    }
    for (auto& [i, v] : per_row) {
        a.partitions[i].device_work = merge_intervals(std::move(v));
        for (const interval& iv : a.partitions[i].device_work) a.partitions[i].device_work_ns += iv.length();
    }
    return busy;
}

// Lock waits and CPU tails of each partition (for drawing).
void attach_locks_and_tails(const std::vector<span_rec>& spans, const row_index_map& row_index, analysis& a)
{
    std::map<size_t, std::vector<interval>> locks, tails;
    for (const span_rec& s : spans) {
        const std::string& n = s.begin->name;
        if (n != "LOCK_WAIT" && n != "CPU_TAIL") continue;
        auto it = row_index.find(row_key{s.begin->job, s.begin->partition});
        if (it == row_index.end()) continue;
        (n == "LOCK_WAIT" ? locks : tails)[it->second].push_back(s.iv);
    }
    for (auto& [i, v] : locks) a.partitions[i].lock_wait = merge_intervals(std::move(v));
    for (auto& [i, v] : tails) a.partitions[i].cpu_tail = merge_intervals(std::move(v));
}

// The interval lists that decide a gap's cause.
struct cause_lists {
    device_lists lock_iv, tail_iv;   // by device
    std::vector<interval> jobs_iv;   // merged: some job active
    std::vector<interval> queued_iv; // merged: some partition waiting for dispatch
};

cause_lists build_cause_lists(const std::vector<span_rec>& spans, const row_map& rows, const analysis& a)
{
    cause_lists l;
    for (const span_rec& s : spans) {
        const std::string& n = s.begin->name;
        if (n == "LOCK_WAIT") l.lock_iv[s.begin->device].push_back(s.iv);
        else if (n == "CPU_TAIL") l.tail_iv[s.begin->device].push_back(s.iv);
    }
    if (a.source == busy_source::device_spans)
        for (const partition_timing& p : a.partitions)
            if (p.has_device) l.tail_iv[p.device].push_back(p.device_stage);
    for (const job_timing& j : a.jobs) l.jobs_iv.push_back(j.active);
    // A partition waits for dispatch from CHAN_SEND until its device stage
    // starts (GPU_START; GPU_PICKUP when there is none), or to the end of
    // the log if it never starts.
    for (const auto& [k, r] : rows)
        if (r.chan_send != UINT64_MAX) {
            uint64_t end = a.span.end;
            if (r.gpu_start != UINT64_MAX && r.gpu_start >= r.chan_send) end = r.gpu_start;
            else if (r.seen_pickup && r.pickup >= r.chan_send) end = r.pickup;
            l.queued_iv.push_back({r.chan_send, end});
        }
    l.jobs_iv = merge_intervals(std::move(l.jobs_iv));
    l.queued_iv = merge_intervals(std::move(l.queued_iv));
    // Single-instant jobs have empty intervals; they are still "active" at
    // that instant only, which no gap of positive length can contain.
    return l;
}

// The lock / tail intervals that apply to device dev, merged.
std::vector<interval> for_device(const device_lists& m, int32_t dev)
{
    std::vector<interval> out;
    for (const auto& [k, iv] : m)
        if (k == dev || k < 0 || dev < 0) out.insert(out.end(), iv.begin(), iv.end());
    return merge_intervals(std::move(out));
}

// The merged lists a device's gaps are classified against.
struct device_causes {
    std::vector<interval> locks, tails;
    const std::vector<interval>& jobs;
    const std::vector<interval>& queued;
};

// A gap cut at every list boundary inside it; each piece is charged to the
// first cause that holds over it, and the gap's cause is the largest share.
idle_gap classify_gap(int32_t dev, interval span, const device_causes& dc, std::vector<uint64_t>& cuts)
{
    idle_gap g;
    g.device = dev;
    g.span = span;
    const uint64_t ga = g.span.begin, gb = g.span.end;
    cuts.assign({ga, gb});
    for (const std::vector<interval>* list : {&dc.locks, &dc.tails, &dc.jobs, &dc.queued})
        boundaries_inside(*list, ga, gb, cuts);
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    for (size_t c = 0; c + 1 < cuts.size(); ++c) {
        const uint64_t p = cuts[c], q = cuts[c + 1];
        gap_cause cause;
        if (overlaps(dc.locks, p, q)) cause = gap_cause::lock_held;
        else if (overlaps(dc.tails, p, q)) cause = gap_cause::cpu_tail;
        else if (!overlaps(dc.jobs, p, q)) cause = gap_cause::nothing_submitted;
        else if (!overlaps(dc.queued, p, q)) cause = gap_cause::no_partition_ready;
        else cause = gap_cause::queued_not_picked;
        g.by_cause[size_t(cause)] += q - p;
    }
    size_t best = 0;
    for (size_t c = 1; c < gap_cause_count; ++c)
        if (g.by_cause[c] > g.by_cause[best]) best = c;
    g.cause = gap_cause(best);
    return g;
}

// One device's busy time, window and classified gaps; busy is not empty.
device_report report_device(int32_t dev, std::vector<interval> busy, const cause_lists& l,
                            const analysis_options& opt)
{
    device_report d;
    d.device = dev;
    d.busy = std::move(busy);
    d.window = {d.busy.front().begin, d.busy.back().end};
    for (const interval& i : d.busy) d.busy_ns += i.length();
    d.utilisation = d.window.length() ? double(d.busy_ns) / double(d.window.length()) : 1.0;
    const device_causes dc{for_device(l.lock_iv, dev), for_device(l.tail_iv, dev), l.jobs_iv, l.queued_iv};
    std::vector<uint64_t> cuts;
    for (size_t i = 0; i + 1 < d.busy.size(); ++i) {
        const idle_gap g = classify_gap(dev, {d.busy[i].end, d.busy[i + 1].begin}, dc, cuts);
        for (size_t c = 0; c < gap_cause_count; ++c) d.idle_by_cause[c] += g.by_cause[c];
        if (g.span.length() >= opt.min_gap_ns) {
            d.gaps.push_back(g);
        } else {
            d.small_gaps_ns += g.span.length();
            ++d.small_gaps;
        }
    }
    return d;
}

void report_devices(device_lists& busy, const cause_lists& l, const analysis_options& opt, analysis& a)
{
    for (auto& [dev, v] : busy) {
        std::vector<interval> merged = merge_intervals(std::move(v));
        if (merged.empty()) continue;
        device_report d = report_device(dev, std::move(merged), l, opt);
        a.busy_ns += d.busy_ns;
        a.window_ns += d.window.length();
        for (size_t c = 0; c < gap_cause_count; ++c) a.idle_by_cause[c] += d.idle_by_cause[c];
        a.devices.push_back(std::move(d));
    }
    a.utilisation = a.window_ns ? double(a.busy_ns) / double(a.window_ns) : (a.devices.empty() ? 0.0 : 1.0);
}

// Per-stage statistics over the partitions.
void stage_statistics(analysis& a)
{
    std::vector<uint64_t> synth, queue, dstage, dwork, slot, lock;
    for (const partition_timing& p : a.partitions) {
        if (p.has_synth) synth.push_back(p.synth.length());
        if (p.has_queue) queue.push_back(p.queue.length());
        if (p.has_device) dstage.push_back(p.device_stage.length());
        if (p.device_work_ns) dwork.push_back(p.device_work_ns);
        if (p.has_synth && p.has_queue && p.queue.begin >= p.synth.end) slot.push_back(p.queue.begin - p.synth.end);
        if (!p.lock_wait.empty()) lock.push_back(union_length(p.lock_wait));
    }
    a.synth = compute_stats(synth);
    a.queue_wait = compute_stats(queue);
    a.device_stage = compute_stats(dstage);
    a.device_work = compute_stats(dwork);
    a.slot_wait = compute_stats(slot);
    a.lock_wait = compute_stats(lock);
}

// The syntheses running at each synthesis' start, and the synthesis time by
// that count.
void synthesis_concurrency(analysis& a)
{
    std::vector<uint64_t> starts, ends;
    for (const partition_timing& p : a.partitions)
        if (p.has_synth) {
            starts.push_back(p.synth.begin);
            ends.push_back(p.synth.end);
        }
    std::sort(starts.begin(), starts.end());
    std::sort(ends.begin(), ends.end());
    std::map<int, std::vector<uint64_t>> buckets;
    for (partition_timing& p : a.partitions) {
        if (!p.has_synth) continue;
        // running at t = started at or before t, minus ended at or before t
        const uint64_t t = p.synth.begin;
        const auto started = std::upper_bound(starts.begin(), starts.end(), t) - starts.begin();
        const auto ended = std::upper_bound(ends.begin(), ends.end(), t) - ends.begin();
        p.synth_concurrency = std::max<int>(1, int(started - ended));
        buckets[p.synth_concurrency].push_back(p.synth.length());
    }
    for (auto& [c, v] : buckets) a.by_concurrency.push_back({c, v.size(), median_of(v)});
}

// Each device's memory high-water mark: the largest DEVICE_MEMORY figure.
void report_memory(const std::vector<const event*>& ev, analysis& a)
{
    for (const event* e : ev)
        if (const uint64_t hw = memory_high_water(*e))
            for (device_report& d : a.devices)
                if (d.device == e->device) d.memory_high_water = std::max(d.memory_high_water, hw);
}

// Jobs completed (every partition done, not failed) over the log's span.
// The bus: each device's copies (merged), their bytes, share and rate.
void report_links(const std::vector<span_rec>& spans, analysis& a)
{
    std::map<int32_t, std::vector<interval>> ivs;
    std::map<int32_t, uint64_t> bytes;
    for (const span_rec& s : spans)
        if (const uint64_t b = copy_bytes(*s.begin)) {
            ivs[s.begin->device].push_back(s.iv);
            bytes[s.begin->device] += b;
        }
    for (device_report& d : a.devices) {
        auto it = ivs.find(d.device);
        if (it == ivs.end()) continue;
        d.link = merge_intervals(std::move(it->second));
        for (const interval& iv : d.link) d.link_busy_ns += iv.length();
        d.link_bytes = bytes[d.device];
        // The share of the window both cover (copies may begin before the first device work).
        const interval both{std::min(d.window.begin, d.link.front().begin), std::max(d.window.end, d.link.back().end)};
        d.link_share = both.length() ? double(d.link_busy_ns) / double(both.length()) : 0;
        d.link_gbps = d.link_busy_ns ? double(d.link_bytes) / double(d.link_busy_ns) : 0;
        a.bus_bytes += d.link_bytes;
    }
}

void measure_throughput(const std::set<std::string>& failed_jobs, analysis& a)
{
    std::map<std::string, std::pair<size_t, size_t>> per_job;   // partitions, done
    for (const partition_timing& p : a.partitions) {
        auto& pj = per_job[p.job];
        ++pj.first;
        if (p.done) {
            ++pj.second;
            ++a.throughput.partitions_done;
        }
    }
    for (job_timing& j : a.jobs) {
        const auto it = per_job.find(j.id);
        if (it == per_job.end()) continue;
        j.partitions = it->second.first;
        j.completed = it->second.first > 0 && it->second.first == it->second.second && !failed_jobs.count(j.id);
        if (j.completed) ++a.throughput.jobs_completed;
    }
    a.throughput.jobs_seen = a.jobs.size();
    a.throughput.wall = a.span;
    const double wall_s = double(a.span.length()) * 1e-9;
    if (a.throughput.jobs_completed && wall_s > 0) {
        a.throughput.s_per_proof = wall_s / double(a.throughput.jobs_completed);
        a.throughput.proofs_per_min = 60.0 * double(a.throughput.jobs_completed) / wall_s;
    }
}

// Below the device-bound threshold: the verdict of the largest idle cause
// (ties: synthesis, then lock/tail, then idle), and its sentence.
std::string idle_verdict(analysis& a)
{
    const uint64_t idle = a.window_ns - std::min(a.window_ns, a.busy_ns);
    const auto& ic = a.idle_by_cause;
    const uint64_t c_synth = ic[size_t(gap_cause::no_partition_ready)];
    const uint64_t c_lock = ic[size_t(gap_cause::lock_held)] + ic[size_t(gap_cause::cpu_tail)];
    const uint64_t c_idle = ic[size_t(gap_cause::nothing_submitted)];
    const uint64_t c_disp = ic[size_t(gap_cause::queued_not_picked)];
    auto share = [&](uint64_t x) { return idle ? double(x) / double(idle) : 0.0; };
    const uint64_t top = std::max({c_synth, c_lock, c_idle, c_disp});
    if (top == c_synth) {
        a.verdict = verdict_kind::synthesis_bound;
        return fmt::format("{} of the {} idle had no synthesized partition ready", pct(share(c_synth)),
                           format_duration(idle));
    }
    if (top == c_lock) {
        a.verdict = verdict_kind::lock_cpu_tail_bound;
        return fmt::format("{} of the {} idle was lock held by another worker ({}) or CPU tail ({})",
                           pct(share(c_lock)), format_duration(idle), pct(share(ic[size_t(gap_cause::lock_held)])),
                           pct(share(ic[size_t(gap_cause::cpu_tail)])));
    }
    if (top == c_idle) {
        a.verdict = verdict_kind::idle_submission_bound;
        return fmt::format("{} of the {} idle had no job submitted", pct(share(c_idle)), format_duration(idle));
    }
    a.verdict = verdict_kind::dispatch_bound;
    return fmt::format("{} of the {} idle had a partition ready but not dispatched", pct(share(c_disp)),
                       format_duration(idle));
}

// The device whose link was busy the largest share of its window, or null.
const device_report* busiest_link(const analysis& a)
{
    const device_report* best = nullptr;
    for (const device_report& d : a.devices)
        if (d.link_busy_ns && (!best || d.link_share > best->link_share)) best = &d;
    return best;
}

void decide_verdict(analysis& a, const analysis_options& opt)
{
    const std::string busy_txt = fmt::format("device busy {} of its {} window (from {})", pct(a.utilisation),
                                             format_duration(a.window_ns), source_name(a.source));
    const std::string stages_txt =
        a.synth.count && (a.device_work.count || a.device_stage.count)
            ? fmt::format("; median synthesis {} vs device {} per partition", format_duration(a.synth.median),
                          format_duration(a.device_work.count ? a.device_work.median : a.device_stage.median))
            : std::string();
    if (a.devices.empty()) {
        a.verdict = verdict_kind::no_device_work;
        a.verdict_text = "no device work: the timeline has no device spans and no GPU_START..GPU_END";
    } else if (a.utilisation >= opt.device_bound_threshold) {
        a.verdict = verdict_kind::device_bound;
        a.verdict_text = fmt::format("{}: {} >= {}{}", verdict_name(a.verdict), busy_txt,
                                     pct(opt.device_bound_threshold), stages_txt);
    } else if (const device_report* l = busiest_link(a); l && l->link_share >= opt.device_bound_threshold) {
        a.verdict = verdict_kind::link_bound;
        a.verdict_text = fmt::format("{}: {} < {}; the bus to device {} was busy {} of its window ({} GB at {:.1f} "
                                     "GB/s){}",
                                     verdict_name(a.verdict), busy_txt, pct(opt.device_bound_threshold), l->device,
                                     pct(l->link_share), fmt::format("{:.1f}", double(l->link_bytes) / 1e9),
                                     l->link_gbps, stages_txt);
    } else {
        const std::string detail = idle_verdict(a);
        a.verdict_text = fmt::format("{}: {} < {}; {}{}", verdict_name(a.verdict), busy_txt,
                                     pct(opt.device_bound_threshold), detail, stages_txt);
    }
    if (a.kernel.present() && a.kernel.window.length())
        a.verdict_text += fmt::format("; kernels (CUZK_TIMING) ran {} of the device window, GPU_START..GPU_END "
                                      "holds {}",
                                      pct(a.kernel.utilisation), pct(a.kernel.bracket_utilisation));
}

} // namespace

// ---- the analysis ------------------------------------------------------------------

analysis analyse(std::span<const event> input, const analysis_options& opt)
{
    analysis a;
    a.options = opt;
    a.events = input.size();
    if (input.empty()) {
        a.verdict_text = "no device work: the timeline is empty";
        return a;
    }
    const std::vector<const event*> ev = sorted_events(input);
    a.span = {ev.front()->t_ns, ev.back()->t_ns};

    const std::set<std::string> failed_jobs = collect_jobs(ev, a);
    row_map rows;
    collect_stage_events(ev, rows);
    const std::vector<span_rec> spans = match_spans(ev, a.unmatched_spans);
    const bool any_device_work = add_device_work_rows(spans, rows);
    const row_index_map row_index = build_partitions(rows, a);

    device_lists busy = device_busy(spans, any_device_work, row_index, a);
    attach_locks_and_tails(spans, row_index, a);
    report_devices(busy, build_cause_lists(spans, rows, a), opt, a);

    stage_statistics(a);
    synthesis_concurrency(a);
    measure_throughput(failed_jobs, a);
    report_links(spans, a);
    report_memory(ev, a);
    if (a.throughput.jobs_completed) a.bus_bytes_per_proof = double(a.bus_bytes) / double(a.throughput.jobs_completed);
    a.kernel = analyse_kernel_timing(input, a.partitions, opt.devices);
    decide_verdict(a, opt);
    return a;
}

} // namespace cuzk::timeline
