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
    }
    return "?";
}

bool is_device_work(const event& e) noexcept
{
    if (e.device < 0 || e.ph == phase::instant) return false;
    if (e.name == "LOCK_WAIT" || e.name == "CPU_TAIL" || ends_with(e.name, "_WAIT")) return false;
    return true;
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
    std::vector<const event*> ev(input.size());
    for (size_t i = 0; i < input.size(); ++i) ev[i] = &input[i];
    std::stable_sort(ev.begin(), ev.end(), [](const event* x, const event* y) { return x->t_ns < y->t_ns; });
    a.span = {ev.front()->t_ns, ev.back()->t_ns};

    // ---- jobs (by first event) and failures
    std::map<std::string, size_t> job_index;
    std::set<std::string> failed_jobs;
    for (const event* e : ev) {
        if (e->job.empty()) continue;
        auto [it, fresh] = job_index.try_emplace(e->job, a.jobs.size());
        if (fresh) a.jobs.push_back({e->job, {e->t_ns, e->t_ns}, 0, false});
        a.jobs[it->second].active.end = e->t_ns;
        if (e->name == "JOB_FAILED" || e->name == "JOB_CANCELLED") failed_jobs.insert(e->job);
    }

    // ---- stage events → rows
    std::map<row_key, row_acc> rows;
    auto row_of = [&](const event* e) -> row_acc& {
        row_acc& r = rows[row_key{e->job, e->partition}];
        r.first_t = std::min(r.first_t, e->t_ns);
        if (e->worker >= 0) r.any_worker = e->worker;
        return r;
    };
    for (const event* e : ev) {
        if (e->ph != phase::instant) continue;
        const std::string& n = e->name;
        const uint64_t t = e->t_ns;
        if (n == "SYNTH_START") {
            auto& r = row_of(e);
            r.synth_start = std::min(r.synth_start, t);
        } else if (n == "SYNTH_END") {
            auto& r = row_of(e);
            r.synth_end = std::max(r.synth_end, t);
            r.seen_synth_end = true;
        } else if (n == "CHAN_SEND" || n == "GPU_QUEUE") {
            auto& r = row_of(e);
            r.chan_send = std::min(r.chan_send, t);
        } else if (n == "GPU_PICKUP" || n == "GPU_START" || n == "GPU_END") {
            auto& r = row_of(e);
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
    }

    // ---- spans
    std::vector<span_rec> spans;
    {
        using key = std::tuple<std::string, std::string, int32_t, int32_t, int32_t>;
        std::map<key, std::vector<const event*>> open;
        for (const event* e : ev) {
            if (e->ph == phase::instant) continue;
            key k{e->name, e->job, e->partition, e->worker, e->device};
            auto& stack = open[k];
            if (e->ph == phase::begin) {
                stack.push_back(e);
            } else if (stack.empty()) {
                ++a.unmatched_spans;
            } else {
                spans.push_back({stack.back(), {stack.back()->t_ns, e->t_ns}});
                stack.pop_back();
            }
        }
        for (const auto& [k, stack] : open) a.unmatched_spans += stack.size();
    }

    // Device work spans belong to their partition's row (created if the row
    // has no stage events but the span names a job).
    bool any_device_work = false;
    for (const span_rec& s : spans) {
        if (!is_device_work(*s.begin)) continue;
        any_device_work = true;
        if (!s.begin->job.empty()) row_of(s.begin);
    }

    // ---- rows → partition_timing, grouped by job order then partition
    for (auto& [k, r] : rows) {
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
        a.partitions.push_back(std::move(p));
    }
    {
        std::map<std::string, size_t> order;
        for (size_t i = 0; i < a.jobs.size(); ++i) order[a.jobs[i].id] = i + 1;   // "" → 0, first
        std::stable_sort(a.partitions.begin(), a.partitions.end(),
                         [&](const partition_timing& x, const partition_timing& y) {
                             const size_t ox = order[x.job], oy = order[y.job];
                             return ox != oy ? ox < oy : x.partition < y.partition;
                         });
    }
    std::map<row_key, size_t> row_index;
    for (size_t i = 0; i < a.partitions.size(); ++i)
        row_index[row_key{a.partitions[i].job, a.partitions[i].partition}] = i;

    // ---- device busy intervals
    std::map<int32_t, std::vector<interval>> busy;
    if (any_device_work) {
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
    } else {
        for (const partition_timing& p : a.partitions)
            if (p.has_device) busy[p.device].push_back(p.device_stage);
        if (!busy.empty()) a.source = busy_source::stage_brackets;
    }

    // Lock waits and CPU tails of each partition (for drawing).
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

    // ---- interval lists for the gap causes
    std::map<int32_t, std::vector<interval>> lock_iv, tail_iv;   // by device; -1 = any device
    for (const span_rec& s : spans) {
        const std::string& n = s.begin->name;
        if (n == "LOCK_WAIT") lock_iv[s.begin->device].push_back(s.iv);
        else if (n == "CPU_TAIL") tail_iv[s.begin->device].push_back(s.iv);
    }
    if (a.source == busy_source::device_spans)
        for (const partition_timing& p : a.partitions)
            if (p.has_device) tail_iv[p.device].push_back(p.device_stage);
    std::vector<interval> jobs_iv, queued_iv;
    for (const job_timing& j : a.jobs) jobs_iv.push_back(j.active);
    // A partition waits for dispatch from CHAN_SEND until its device stage
    // starts (GPU_START; GPU_PICKUP when there is none), or to the end of
    // the log if it never starts.
    for (const auto& [k, r] : rows)
        if (r.chan_send != UINT64_MAX) {
            uint64_t end = a.span.end;
            if (r.gpu_start != UINT64_MAX && r.gpu_start >= r.chan_send) end = r.gpu_start;
            else if (r.seen_pickup && r.pickup >= r.chan_send) end = r.pickup;
            queued_iv.push_back({r.chan_send, end});
        }
    jobs_iv = merge_intervals(std::move(jobs_iv));
    queued_iv = merge_intervals(std::move(queued_iv));
    // Single-instant jobs have empty intervals; they are still "active" at
    // that instant only, which no gap of positive length can contain.

    for (auto& [dev, v] : busy) {
        device_report d;
        d.device = dev;
        d.busy = merge_intervals(std::move(v));
        if (d.busy.empty()) continue;
        d.window = {d.busy.front().begin, d.busy.back().end};
        for (const interval& i : d.busy) d.busy_ns += i.length();
        d.utilisation = d.window.length() ? double(d.busy_ns) / double(d.window.length()) : 1.0;

        // The lock / tail lists that apply to this device.
        auto for_device = [&](const std::map<int32_t, std::vector<interval>>& m) {
            std::vector<interval> out;
            for (const auto& [k, iv] : m)
                if (k == dev || k < 0 || dev < 0) out.insert(out.end(), iv.begin(), iv.end());
            return merge_intervals(std::move(out));
        };
        const auto locks = for_device(lock_iv), tails = for_device(tail_iv);

        std::vector<uint64_t> cuts;
        for (size_t i = 0; i + 1 < d.busy.size(); ++i) {
            idle_gap g;
            g.device = dev;
            g.span = {d.busy[i].end, d.busy[i + 1].begin};
            const uint64_t ga = g.span.begin, gb = g.span.end;
            cuts.assign({ga, gb});
            for (const std::vector<interval>* list : {&locks, &tails, &std::as_const(jobs_iv), &std::as_const(queued_iv)})
                boundaries_inside(*list, ga, gb, cuts);
            std::sort(cuts.begin(), cuts.end());
            cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
            for (size_t c = 0; c + 1 < cuts.size(); ++c) {
                const uint64_t p = cuts[c], q = cuts[c + 1];
                gap_cause cause;
                if (overlaps(locks, p, q)) cause = gap_cause::lock_held;
                else if (overlaps(tails, p, q)) cause = gap_cause::cpu_tail;
                else if (!overlaps(jobs_iv, p, q)) cause = gap_cause::nothing_submitted;
                else if (!overlaps(queued_iv, p, q)) cause = gap_cause::no_partition_ready;
                else cause = gap_cause::queued_not_picked;
                g.by_cause[size_t(cause)] += q - p;
            }
            size_t best = 0;
            for (size_t c = 1; c < gap_cause_count; ++c)
                if (g.by_cause[c] > g.by_cause[best]) best = c;
            g.cause = gap_cause(best);
            for (size_t c = 0; c < gap_cause_count; ++c) d.idle_by_cause[c] += g.by_cause[c];
            if (g.span.length() >= opt.min_gap_ns) {
                d.gaps.push_back(g);
            } else {
                d.small_gaps_ns += g.span.length();
                ++d.small_gaps;
            }
        }
        a.busy_ns += d.busy_ns;
        a.window_ns += d.window.length();
        for (size_t c = 0; c < gap_cause_count; ++c) a.idle_by_cause[c] += d.idle_by_cause[c];
        a.devices.push_back(std::move(d));
    }
    a.utilisation = a.window_ns ? double(a.busy_ns) / double(a.window_ns) : (a.devices.empty() ? 0.0 : 1.0);

    // ---- stage statistics and concurrency
    std::vector<uint64_t> synth, queue, dstage, dwork, starts, ends;
    for (const partition_timing& p : a.partitions) {
        if (p.has_synth) {
            synth.push_back(p.synth.length());
            starts.push_back(p.synth.begin);
            ends.push_back(p.synth.end);
        }
        if (p.has_queue) queue.push_back(p.queue.length());
        if (p.has_device) dstage.push_back(p.device_stage.length());
        if (p.device_work_ns) dwork.push_back(p.device_work_ns);
    }
    a.synth = compute_stats(synth);
    a.queue_wait = compute_stats(queue);
    a.device_stage = compute_stats(dstage);
    a.device_work = compute_stats(dwork);
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

    // ---- throughput
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

    a.kernel = analyse_kernel_timing(input, a.partitions, opt.devices);

    // ---- verdict
    const uint64_t idle = a.window_ns - std::min(a.window_ns, a.busy_ns);
    const auto& ic = a.idle_by_cause;
    const uint64_t c_synth = ic[size_t(gap_cause::no_partition_ready)];
    const uint64_t c_lock = ic[size_t(gap_cause::lock_held)] + ic[size_t(gap_cause::cpu_tail)];
    const uint64_t c_idle = ic[size_t(gap_cause::nothing_submitted)];
    const uint64_t c_disp = ic[size_t(gap_cause::queued_not_picked)];
    auto share = [&](uint64_t x) { return idle ? double(x) / double(idle) : 0.0; };
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
    } else {
        const uint64_t top = std::max({c_synth, c_lock, c_idle, c_disp});
        std::string detail;
        if (top == c_synth) {
            a.verdict = verdict_kind::synthesis_bound;
            detail = fmt::format("{} of the {} idle had no synthesized partition ready", pct(share(c_synth)),
                                 format_duration(idle));
        } else if (top == c_lock) {
            a.verdict = verdict_kind::lock_cpu_tail_bound;
            detail = fmt::format("{} of the {} idle was lock held by another worker ({}) or CPU tail ({})",
                                 pct(share(c_lock)), format_duration(idle),
                                 pct(share(ic[size_t(gap_cause::lock_held)])),
                                 pct(share(ic[size_t(gap_cause::cpu_tail)])));
        } else if (top == c_idle) {
            a.verdict = verdict_kind::idle_submission_bound;
            detail = fmt::format("{} of the {} idle had no job submitted", pct(share(c_idle)), format_duration(idle));
        } else {
            a.verdict = verdict_kind::dispatch_bound;
            detail = fmt::format("{} of the {} idle had a partition ready but not dispatched", pct(share(c_disp)),
                                 format_duration(idle));
        }
        a.verdict_text = fmt::format("{}: {} < {}; {}{}", verdict_name(a.verdict), busy_txt,
                                     pct(opt.device_bound_threshold), detail, stages_txt);
    }
    if (a.kernel.present() && a.kernel.window.length())
        a.verdict_text += fmt::format("; kernels (CUZK_TIMING) ran {} of the device window, GPU_START..GPU_END "
                                      "holds {}",
                                      pct(a.kernel.utilisation), pct(a.kernel.bracket_utilisation));
    return a;
}

} // namespace cuzk::timeline
