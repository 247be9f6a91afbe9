// cuzk serve — what GetStatus, GetMetrics and the HTTP /status and /metrics
// pages report, from the job table, the loaded keys and the timeline.
//
// Devices: the CUDA devices the engine uses, with their memory from the CUDA
// runtime (no nvidia-smi) and the job proving on each now; none on the CPU
// backend. Pinned memory: the host memory the engine holds on the CUDA
// backend (keys streamed from page-locked memory and staging buffers); 0 on
// the CPU backend. Its limit is the host memory budget (0 = none).
#pragma once

#include <chrono>
#include <string>

#include "config.hpp"
#include "cuzk/v1/proving.pb.h"
#include "jobs.hpp"
#include "keys.hpp"
#include "timeline_tap.hpp"

namespace cuzk::daemon {

struct daemon_view {
    const config& cfg;
    job_table& jobs;
    key_store& keys;
    timeline_tap& tap;
};

void fill_status(const daemon_view& d, v1::GetStatusResponse& out);
// The status as JSON (the HTTP /status page).
std::string status_json(const daemon_view& d);
// Prometheus text exposition: curio's metric names (cuzk_proofs_completed_total,
// cuzk_proofs_failed_total, cuzk_uptime_seconds, cuzk_queue_depth,
// cuzk_proofs_completed{proof_kind}, cuzk_proofs_failed{proof_kind},
// cuzk_proof_duration_seconds_{count,sum}{proof_kind}, cuzk_running_jobs,
// cuzk_gpu_workers) and cuzk's: cuzk_proofs_cancelled{proof_kind},
// cuzk_keys_loaded, cuzk_key_bytes{circuit_id}, cuzk_device_busy_seconds_total{device},
// cuzk_device_utilisation{device} (busy time over uptime), and from the
// last events (timeline::analyse): cuzk_timeline_window_seconds,
// cuzk_timeline_utilisation{device}, cuzk_device_idle_seconds{device,cause}
// (cause: lock_held, cpu_tail, nothing_submitted, no_partition_ready,
// queued_not_picked).
std::string metrics_text(const daemon_view& d);

} // namespace cuzk::daemon
