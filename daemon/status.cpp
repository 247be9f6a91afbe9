// cuzk serve — status and metrics (status.hpp).
#include "status.hpp"

#include <google/protobuf/util/json_util.h>

#include <fmt/format.h>

#include "cuzk/backend/cuda.hpp"
#include "cuzk/timeline/analysis.hpp"

namespace cuzk::daemon {

namespace {

constexpr proof_kind all_kinds[] = {proof_kind::porep, proof_kind::snap, proof_kind::window_post,
                                    proof_kind::winning_post};

// The engine's device numbers and the CUDA device each one is.
std::vector<int> cuda_devices(const daemon_view& d)
{
    if (!d.keys.gpu()) return {};
    if (!d.cfg.devices.empty()) return d.cfg.devices;
    std::vector<int> all;
    for (int i = 0; i < cuda_device_count(); ++i) all.push_back(i);
    return all;
}

std::string device_name(const std::string& info)
{
    return info.substr(0, info.find(", compute capability"));
}

void fill_devices(const daemon_view& d, v1::GetStatusResponse& out)
{
    const std::vector<int> devs = cuda_devices(d);
    for (size_t i = 0; i < devs.size(); ++i) {
        v1::GPUStatus* g = out.add_gpus();
        g->set_ordinal(uint32_t(devs[i]));
        try {
            cuda_device_scope scope(devs[i]);
            const gpu_memory_info m = gpu_memory();
            g->set_name(device_name(cuda_device_info()));
            g->set_vram_total_bytes(m.total);
            g->set_vram_free_bytes(m.free);
        } catch (const std::exception& e) {
            g->set_name(std::string("unavailable: ") + e.what());
        }
        const std::string job = d.tap.current_job(int(i));
        g->set_current_job_id(job);
        if (!job.empty())
            if (const auto j = d.jobs.find(job)) g->set_current_proof_kind(queue_name(j->target().kind));
    }
}

v1::SRSStatus::Tier tier_of(const loaded_key& k)
{
    return k.placement == pipeline::engine::key_placement::streamed ? v1::SRSStatus::WARM : v1::SRSStatus::HOT;
}

uint64_t uptime_s(const daemon_view& d)
{
    return d.tap.now_ns() / 1'000'000'000;
}

// The recent timeline's device idle time by cause and its utilisation
// (timeline::analyse: device spans where the engine logs them).
void append_timeline_metrics(const daemon_view& d, fmt::memory_buffer& b)
{
    const std::vector<timeline::event> events = d.tap.recent();
    if (events.empty()) return;
    const timeline::analysis a = timeline::analyse(events);
    auto out = std::back_inserter(b);
    fmt::format_to(out, "# HELP cuzk_timeline_window_seconds The span of the recent events the idle figures cover.\n"
                        "# TYPE cuzk_timeline_window_seconds gauge\ncuzk_timeline_window_seconds {:.3f}\n",
                   double(a.span.end - a.span.begin) / 1e9);
    fmt::format_to(out, "# HELP cuzk_timeline_utilisation Device busy share over the recent events' device windows.\n"
                        "# TYPE cuzk_timeline_utilisation gauge\n");
    for (const timeline::device_report& r : a.devices)
        fmt::format_to(out, "cuzk_timeline_utilisation{{device=\"{}\"}} {:.4f}\n", r.device, r.utilisation);
    static const char* const causes[] = {"lock_held", "cpu_tail", "nothing_submitted", "no_partition_ready",
                                         "queued_not_picked"};
    fmt::format_to(out, "# HELP cuzk_device_idle_seconds Device idle time in the recent events, by cause.\n"
                        "# TYPE cuzk_device_idle_seconds gauge\n");
    for (const timeline::device_report& r : a.devices)
        for (size_t c = 0; c < timeline::gap_cause_count; ++c)
            fmt::format_to(out, "cuzk_device_idle_seconds{{device=\"{}\",cause=\"{}\"}} {:.3f}\n", r.device, causes[c],
                           double(r.idle_by_cause[c]) / 1e9);
}

} // namespace

void fill_status(const daemon_view& d, v1::GetStatusResponse& out)
{
    fill_devices(d, out);
    for (const auto& k : d.keys.loaded()) {
        v1::SRSStatus* s = out.add_loaded_srs();
        s->set_circuit_id(k->c.id());
        s->set_tier(tier_of(*k));
        s->set_size_bytes(k->host_bytes + k->device_bytes);
        s->set_ref_count(k->jobs.load());
    }
    // The engine's host memory for keys and staging (evicted keys still in
    // use by their jobs included) is page-locked or streamed on the CUDA backend.
    const uint64_t pinned = d.keys.gpu() ? d.keys.engine().stats().memory_resident : 0;
    const auto counts = d.jobs.counts();
    for (proof_kind kind : all_kinds) {
        const auto it = counts.find(kind);
        if (it == counts.end()) continue;
        v1::QueueStatus* q = out.add_queues();
        q->set_proof_kind(queue_name(kind));
        q->set_pending(it->second.pending);
        q->set_in_progress(it->second.in_progress);
        out.set_total_proofs_completed(out.total_proofs_completed() + it->second.completed);
        out.set_total_proofs_failed(out.total_proofs_failed() + it->second.failed);
    }
    out.set_uptime_seconds(uptime_s(d));
    out.set_pinned_memory_bytes(pinned);
    out.set_pinned_memory_limit_bytes(d.cfg.total_budget);
}

std::string status_json(const daemon_view& d)
{
    v1::GetStatusResponse s;
    fill_status(d, s);
    std::string out;
    google::protobuf::util::JsonPrintOptions o;
    o.add_whitespace = true;
    o.always_print_primitive_fields = true;
    if (!google::protobuf::util::MessageToJsonString(s, &out, o).ok()) return "{}\n";
    return out;
}

std::string metrics_text(const daemon_view& d)
{
    const auto counts = d.jobs.counts();
    kind_counts total;
    for (const auto& [k, c] : counts) {
        total.completed += c.completed;
        total.failed += c.failed;
        total.pending += c.pending;
        total.in_progress += c.in_progress;
    }
    fmt::memory_buffer b;
    auto metric = [&](const char* name, const char* type, const char* help) {
        fmt::format_to(std::back_inserter(b), "# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
    };
    metric("cuzk_proofs_completed_total", "counter", "Proofs completed (verified).");
    fmt::format_to(std::back_inserter(b), "cuzk_proofs_completed_total {}\n", total.completed);
    metric("cuzk_proofs_failed_total", "counter", "Proofs failed.");
    fmt::format_to(std::back_inserter(b), "cuzk_proofs_failed_total {}\n", total.failed);
    metric("cuzk_uptime_seconds", "gauge", "Seconds since the daemon started.");
    fmt::format_to(std::back_inserter(b), "cuzk_uptime_seconds {}\n", uptime_s(d));
    metric("cuzk_queue_depth", "gauge", "Jobs waiting (preparing or queued).");
    fmt::format_to(std::back_inserter(b), "cuzk_queue_depth {}\n", total.pending);
    metric("cuzk_running_jobs", "gauge", "Jobs proving now.");
    fmt::format_to(std::back_inserter(b), "cuzk_running_jobs {}\n", total.in_progress);
    const std::vector<int> devs = cuda_devices(d);
    metric("cuzk_gpu_workers", "gauge", "Prove workers over all devices.");
    fmt::format_to(std::back_inserter(b), "cuzk_gpu_workers {}\n",
                   (d.keys.gpu() ? devs.size() : std::max(1u, d.cfg.cpu_devices)) * std::max(1u, d.cfg.workers_per_device));
    const std::pair<const char*, uint64_t kind_counts::*> per_kind[] = {
        {"cuzk_proofs_completed", &kind_counts::completed},
        {"cuzk_proofs_failed", &kind_counts::failed},
        {"cuzk_proofs_cancelled", &kind_counts::cancelled},
        {"cuzk_proof_duration_seconds_count", &kind_counts::completed}};
    for (const auto& [name, field] : per_kind) {
        metric(name, "counter", "Per proof kind.");
        for (const auto& [k, c] : counts)
            fmt::format_to(std::back_inserter(b), "{}{{proof_kind=\"{}\"}} {}\n", name, metric_label(k), c.*field);
    }
    metric("cuzk_proof_duration_seconds_sum", "counter", "Seconds from arrival to the verified proof, completed jobs.");
    for (const auto& [k, c] : counts)
        fmt::format_to(std::back_inserter(b), "cuzk_proof_duration_seconds_sum{{proof_kind=\"{}\"}} {:.3f}\n",
                       metric_label(k), c.seconds_sum);
    const auto keys = d.keys.loaded();
    metric("cuzk_keys_loaded", "gauge", "Circuit keys loaded.");
    fmt::format_to(std::back_inserter(b), "cuzk_keys_loaded {}\n", keys.size());
    metric("cuzk_key_bytes", "gauge", "A loaded key's host plus device bytes.");
    for (const auto& k : keys)
        fmt::format_to(std::back_inserter(b), "cuzk_key_bytes{{circuit_id=\"{}\"}} {}\n", k->c.id(),
                       k->host_bytes + k->device_bytes);
    const size_t ndev = d.keys.gpu() ? devs.size() : std::max(1u, d.cfg.cpu_devices);
    const double up = std::max(1e-9, double(d.tap.now_ns()) / 1e9);
    metric("cuzk_device_busy_seconds_total", "counter", "Seconds each engine device spent proving (GPU_START to GPU_END).");
    for (size_t i = 0; i < ndev; ++i)
        fmt::format_to(std::back_inserter(b), "cuzk_device_busy_seconds_total{{device=\"{}\"}} {:.3f}\n", i,
                       double(d.tap.busy_ns(int(i))) / 1e9);
    metric("cuzk_device_utilisation", "gauge", "Busy seconds over uptime, per engine device.");
    for (size_t i = 0; i < ndev; ++i)
        fmt::format_to(std::back_inserter(b), "cuzk_device_utilisation{{device=\"{}\"}} {:.4f}\n", i,
                       double(d.tap.busy_ns(int(i))) / 1e9 / up);
    append_timeline_metrics(d, b);
    return fmt::to_string(b);
}

} // namespace cuzk::daemon
