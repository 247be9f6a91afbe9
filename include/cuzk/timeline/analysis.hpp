// cuzk — what a timeline says: per-partition stages, device utilisation, idle
// gaps with their causes, stage statistics, throughput and a verdict.
//
// Definitions (all times in ns on the events' clock):
// - Stage intervals of a partition (job, partition): synthesis SYNTH_START..
//   SYNTH_END, queue wait CHAN_SEND (or GPU_QUEUE)..GPU_PICKUP, device stage
//   GPU_START..GPU_END (GPU_PICKUP..GPU_END when there is no GPU_START). When
//   an event repeats (a retry), the first start and the last end count.
//   Between them: the lookahead slot wait SYNTH_END..CHAN_SEND, and inside
//   the device stage the LOCK_WAIT spans; their statistics' maxima show a
//   partition left waiting while others went ahead.
// - Spans: a begin is closed by the next end with the same name, job,
//   partition, worker and device (innermost first). Unclosed begins and
//   unopened ends are counted in unmatched_spans and otherwise ignored.
// - Device work spans: spans with device >= 0 whose name is not LOCK_WAIT,
//   CPU_TAIL or any other name ending in "_WAIT" (waiting is not work).
// - Busy intervals of a device: the merged device work spans of that device
//   when the timeline has any device work span (source device_spans);
//   otherwise the merged device-stage intervals GPU_START..GPU_END (source
//   stage_brackets), grouped by the device of the GPU_START / GPU_END event;
//   a log without device numbers (curio's) gives one pseudo-device -1, the
//   union over all devices.
// - Copies over the bus: spans with device >= 0 whose begin event carries a
//   `bytes` detail (the GPU prover's chunks of a streamed key's points,
//   H2D, timed on its copy stream). They are the link's work, not device
//   work: per device, their merged intervals (link busy), their bytes, the
//   link's busy share of the device's window stretched over the copies
//   (first busy or copy .. last busy or copy), the rate while copying
//   (bytes / link busy time); bytes per proof = all copies' bytes / the
//   completed jobs.
// - Utilisation of a device = |union of busy| / (end of its last busy −
//   start of its first busy). Total = Σ busy / Σ windows over devices (the
//   time-weighted mean; with one device it equals that device's).
// - Idle gaps: the holes between consecutive busy intervals of a device.
//   Each gap is cut at every boundary of the intervals below and every piece
//   gets the first cause that holds on it, in this order:
//     1 lock_held: a LOCK_WAIT span (on this device, or with device -1)
//       overlaps: someone waits for the device while the lock holder does
//       no device work.
//     2 cpu_tail: a CPU_TAIL span overlaps, or (source device_spans) a
//       device stage GPU_START..GPU_END of this device (or device -1) does:
//       a worker inside its stage is doing CPU work.
//     3 nothing_submitted: no job is active (a job is active from its first
//       to its last event).
//     4 no_partition_ready: a job is active but no partition is ready
//       (ready: from its CHAN_SEND until its GPU_START, or GPU_PICKUP when
//       it has no GPU_START, or the end of the log).
//     5 queued_not_picked: a partition is ready and nothing above explains
//       the wait (no prove worker free to pick it up, or pickup latency).
//   The gap's cause is the one with the most time; by_cause keeps the split.
//   Gaps shorter than min_gap_ns are classified and counted but not listed.
// - Stage statistics: min, median (mean of the two middle values for an
//   even count), p90 (nearest rank: the ⌈0.9·n⌉-th smallest) and max.
// - Concurrency: for each synthesis, the number of syntheses running at its
//   start (itself included; intervals are [start, end)); partitions are
//   bucketed by it, with the median synthesis time per bucket.
// - Throughput: a job is completed when each of its partitions has a
//   GPU_END and it has no JOB_FAILED / JOB_CANCELLED event. The wall span
//   runs from the first event to the last; s/proof = wall / completed,
//   proofs/min = 60 · completed / wall.
// - Verdict: device-bound when total utilisation >= device_bound_threshold;
//   otherwise link-bound when some device's link was busy at least that
//   share of its window; otherwise the idle time is split into synthesis (no_partition_ready),
//   lock/CPU tail (lock_held + cpu_tail), submission (nothing_submitted) and
//   dispatch (queued_not_picked), and the largest names the bottleneck.
// - Kernel time (curio logs): from the CUZK_TIMING events (parse.hpp).
//   supraseal's prover prints, per device call, after each device phase:
//     gpu_tid=T ntt_msm_h_ms=A             NTT of a, b, c and the H MSM
//     gpu_tid=T batch_add_ms=B             the L, A, B_G1, B_G2 batch additions
//     gpu_tid=T tail_msm_ms=C gpu_total_ms=D   the tail MSMs; D runs from the
//                                          start of the NTT to the end of C
//   (its other keys, prep_msm_ms, b_g2_msm_ms, epilogue_ms, …, time host
//   work and are not counted). Kernel busy = Σ (A + B + C): the host's wall
//   time of the three device phases, which leaves out what GPU_START..
//   GPU_END also holds: the wait for the GPU lock, the pre-staging, the wait
//   inside D for the CPU preprocessing, the CPU's b_g2 MSM and the epilogue.
//   The window is first GPU_START .. last GPU_END (over all partitions);
//   kernel utilisation = kernel busy / (devices × window) and region
//   utilisation = Σ D / (devices × window), where devices is
//   analysis_options::devices, or when 0 the number of devices the device
//   stages name (at least 1; curio's logs name none). Bracket utilisation =
//   |∪ GPU_START..GPU_END| / window (the stage-bracket figure; with one
//   device it is the analysis' utilisation from stage_brackets). When there
//   is kernel time, the verdict text adds the kernel figure.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cuzk/timeline/event.hpp"

namespace cuzk::timeline {

struct interval {
    uint64_t begin = 0;
    uint64_t end = 0;
    uint64_t length() const noexcept { return end > begin ? end - begin : 0; }
    friend bool operator==(const interval&, const interval&) = default;
};

// Sorted, overlapping and touching intervals joined, empty ones dropped.
std::vector<interval> merge_intervals(std::vector<interval> v);
uint64_t union_length(std::vector<interval> v);
// |union| / (last end − first begin); 0 for nothing.
double utilisation_of(std::vector<interval> v);

enum class busy_source : uint8_t { device_spans, stage_brackets, none };
const char* source_name(busy_source s) noexcept;   // "device spans" / "GPU_START..GPU_END" / "none"

enum class gap_cause : uint8_t {
    lock_held = 0,
    cpu_tail = 1,
    nothing_submitted = 2,
    no_partition_ready = 3,
    queued_not_picked = 4,
};
constexpr size_t gap_cause_count = 5;
// "lock held by another worker", "CPU tail", "nothing submitted",
// "no synthesized partition ready", "partition ready, waiting for dispatch"
const char* cause_name(gap_cause c) noexcept;
char cause_letter(gap_cause c) noexcept;   // L T N S Q (the waterfall's device rows)

struct partition_timing {
    std::string job;
    int32_t partition = -1;
    int32_t worker = -1;   // the prove worker (GPU_PICKUP / GPU_START / GPU_END), else any
    int32_t device = -1;   // the device of its device stage, -1 when not logged
    bool has_synth = false, has_queue = false, has_device = false;
    interval synth;         // SYNTH_START..SYNTH_END
    interval queue;         // CHAN_SEND..GPU_PICKUP
    interval device_stage;  // GPU_START..GPU_END
    std::vector<interval> device_work;   // its merged device work spans
    std::vector<interval> lock_wait;     // its merged LOCK_WAIT spans
    std::vector<interval> cpu_tail;      // its merged CPU_TAIL spans
    uint64_t device_work_ns = 0;
    int synth_concurrency = 0;           // syntheses running at its SYNTH_START
    bool done = false;                   // has a GPU_END
};

struct job_timing {
    std::string id;
    interval active;       // first..last event of the job
    size_t partitions = 0;
    bool completed = false;
};

struct idle_gap {
    int32_t device = -1;
    interval span;
    gap_cause cause = gap_cause::nothing_submitted;
    std::array<uint64_t, gap_cause_count> by_cause{};   // ns per cause
};

struct device_report {
    int32_t device = -1;
    std::vector<interval> busy;   // merged
    interval window;              // first busy begin .. last busy end
    uint64_t busy_ns = 0;
    double utilisation = 0;
    std::vector<idle_gap> gaps;   // >= min_gap_ns, in time order
    std::array<uint64_t, gap_cause_count> idle_by_cause{};   // all gaps, listed or not
    uint64_t small_gaps_ns = 0;   // idle in gaps below min_gap_ns
    size_t small_gaps = 0;
    // The bus (copies, see above).
    std::vector<interval> link;   // merged
    uint64_t link_busy_ns = 0;
    uint64_t link_bytes = 0;
    double link_share = 0;   // link_busy_ns / (the window stretched over the copies)
    double link_gbps = 0;    // link_bytes / link_busy_ns, in GB/s
    // The most device memory held (the engine's DEVICE_MEMORY events after
    // each device call: the allocation count's high-water mark on CUDA, the
    // reservations' on the cpu backend); 0 when the log has none.
    uint64_t memory_high_water = 0;
};

struct stage_stats {
    size_t count = 0;
    uint64_t min = 0, median = 0, p90 = 0, max = 0;
};
// Statistics of the values (any order).
stage_stats compute_stats(std::vector<uint64_t> v);

struct concurrency_bucket {
    int concurrency = 0;
    size_t count = 0;
    uint64_t median_synth_ns = 0;
};

struct throughput_report {
    size_t jobs_seen = 0;
    size_t jobs_completed = 0;
    size_t partitions_done = 0;
    interval wall;             // first event .. last event
    double s_per_proof = 0;    // 0 when no job completed
    double proofs_per_min = 0;
};

enum class verdict_kind : uint8_t {
    device_bound,
    synthesis_bound,
    lock_cpu_tail_bound,
    idle_submission_bound,
    dispatch_bound,
    no_device_work,
    link_bound,
};
// "device-bound", "synthesis-bound", "lock/CPU-tail-bound",
// "idle/submission-bound", "dispatch-bound", "no device work", "link-bound"
const char* verdict_name(verdict_kind k) noexcept;

struct analysis_options {
    uint64_t min_gap_ns = 1'000'000;       // gaps listed from 1 ms
    double device_bound_threshold = 0.85;
    unsigned devices = 0;                  // for the kernel utilisation; 0 = from the log
};

// Device time from CUZK_TIMING events (see above); all zero without them.
struct kernel_report {
    size_t lines = 0;                 // CUZK_TIMING events
    size_t calls = 0;                 // device calls (events with gpu_total_ms)
    uint64_t ntt_msm_h_ns = 0, batch_add_ns = 0, tail_msm_ns = 0;
    uint64_t kernel_ns = 0;           // the sum of the three
    uint64_t region_ns = 0;           // Σ gpu_total_ms
    stage_stats ntt_msm_h, batch_add, tail_msm, region;   // per event
    interval window;                  // first GPU_START .. last GPU_END
    unsigned devices = 1;
    double utilisation = 0;           // kernel_ns / (devices × window)
    double region_utilisation = 0;    // region_ns / (devices × window)
    double bracket_utilisation = 0;   // |∪ GPU_START..GPU_END| / window
    bool present() const noexcept { return kernel_ns > 0 || region_ns > 0; }
};

struct analysis {
    busy_source source = busy_source::none;
    interval span;                                // first..last event
    std::vector<job_timing> jobs;                 // by first event
    std::vector<partition_timing> partitions;     // grouped by job (job order), then partition number
    std::vector<device_report> devices;           // by device number
    uint64_t busy_ns = 0, window_ns = 0;          // Σ over devices
    double utilisation = 0;                       // busy_ns / window_ns
    std::array<uint64_t, gap_cause_count> idle_by_cause{};   // Σ over devices
    stage_stats synth, queue_wait, device_stage, device_work;
    // SYNTH_END..CHAN_SEND (waiting for a lookahead slot; partitions with
    // both events) and the LOCK_WAIT time of each partition that has any:
    // a long maximum in either names a partition left waiting.
    stage_stats slot_wait, lock_wait;
    std::vector<concurrency_bucket> by_concurrency;
    throughput_report throughput;
    verdict_kind verdict = verdict_kind::no_device_work;
    std::string verdict_text;                     // one line, with the numbers
    kernel_report kernel;                         // from CUZK_TIMING events
    uint64_t bus_bytes = 0;                       // Σ link_bytes over devices
    double bus_bytes_per_proof = 0;               // bus_bytes / completed jobs (0 when none)
    size_t events = 0;
    size_t unmatched_spans = 0;
    analysis_options options;
};

// Events in any order (they are sorted by time first).
analysis analyse(std::span<const event> events, const analysis_options& opt = {});

// The kernel report of `events` (any order) given the analysed partitions'
// device stages; analyse() calls it.
kernel_report analyse_kernel_timing(std::span<const event> events, const std::vector<partition_timing>& partitions,
                                    unsigned devices = 0);

// True for a span that counts as device work (see above).
bool is_device_work(const event& e) noexcept;
// True for a copy over the bus (see above); its bytes, 0 when none.
uint64_t copy_bytes(const event& e) noexcept;
// A DEVICE_MEMORY instant's high_water detail (bytes), 0 for any other event.
uint64_t memory_high_water(const event& e) noexcept;

// "1.23 s", "45.6 ms", "789 us", "12 ns" (three significant digits).
std::string format_duration(uint64_t ns);

} // namespace cuzk::timeline
