// Timeline sinks, parsing, analysis and renderers. The analysis is checked
// against answers computed by hand for constructed timelines (the numbers
// in the comments); the parsers against hand-written curio-style lines and
// against the sinks' own output (round trips).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cuzk/error.hpp"
#include "cuzk/timeline/analysis.hpp"
#include "cuzk/timeline/parse.hpp"
#include "cuzk/timeline/render.hpp"
#include "cuzk/timeline/sinks.hpp"
#include "gmp_util.hpp"

using namespace cuzk;
using namespace cuzk::timeline;

namespace {

constexpr uint64_t ms = 1'000'000;

event inst(uint64_t t_ms, const char* name, const std::string& job, int32_t part, int32_t worker = -1,
           int32_t device = -1)
{
    event e;
    e.t_ns = t_ms * ms;
    e.name = name;
    e.job = job;
    e.partition = part;
    e.worker = worker;
    e.device = device;
    return e;
}

// A begin/end pair.
void span(std::vector<event>& v, uint64_t b_ms, uint64_t e_ms, const char* name, const std::string& job, int32_t part,
          int32_t worker, int32_t device)
{
    event b = inst(b_ms, name, job, part, worker, device);
    b.ph = phase::begin;
    event e = inst(e_ms, name, job, part, worker, device);
    e.ph = phase::end;
    v.push_back(b);
    v.push_back(e);
}

// One partition's stage events with a device work span [work_b, work_e)
// on device 0 (worker w).
void partition(std::vector<event>& v, const std::string& job, int32_t p, int32_t w, uint64_t synth_b, uint64_t synth_e,
               uint64_t send, uint64_t pickup, uint64_t start, uint64_t work_b, uint64_t work_e, uint64_t end)
{
    v.push_back(inst(synth_b, "SYNTH_START", job, p));
    v.push_back(inst(synth_e, "SYNTH_END", job, p));
    v.push_back(inst(send, "CHAN_SEND", job, p));
    v.push_back(inst(pickup, "GPU_PICKUP", job, p, w, 0));
    v.push_back(inst(start, "GPU_START", job, p, w, 0));
    span(v, work_b, work_e, "MSM_H", job, p, w, 0);
    v.push_back(inst(end, "GPU_END", job, p, w, 0));
}

// The timeline with one gap of each cause (times in ms, device 0):
//   busy  [10,20) [30,40) [50,60) [70,80) [100,110) [120,130)
//   gaps  [20,30) LOCK_WAIT of worker 1        → lock_held 10
//         [40,50) CPU_TAIL span                → cpu_tail 10
//         [60,70) J1 active, nothing queued    → no_partition_ready 10
//         [80,100) J1 ended at 80, J2 starts at 94
//                  → nothing_submitted 14 + no_partition_ready 6
//         [110,120) J2 p1 sent at 105, starts at 120 → queued_not_picked 10
//   utilisation 60 / 120 = 0.5
std::vector<event> causes_timeline()
{
    std::vector<event> v;
    partition(v, "J1", 0, 0, 0, 5, 5, 8, 10, 10, 20, 20);
    partition(v, "J1", 1, 0, 0, 25, 25, 28, 30, 30, 40, 40);
    partition(v, "J1", 2, 0, 5, 50, 50, 50, 50, 50, 60, 60);
    partition(v, "J1", 3, 0, 10, 70, 70, 70, 70, 70, 80, 80);
    span(v, 20, 30, "LOCK_WAIT", "J1", 1, 1, 0);
    span(v, 40, 50, "CPU_TAIL", "J1", 1, 0, -1);
    partition(v, "J2", 0, 0, 94, 100, 100, 100, 100, 100, 110, 110);
    partition(v, "J2", 1, 0, 94, 105, 105, 118, 120, 120, 130, 130);
    return v;
}

// Serial synthesis (100 ms each) feeding 10 ms of device work per partition.
std::vector<event> synthesis_bound_timeline()
{
    std::vector<event> v;
    for (int i = 0; i < 4; ++i) {
        const uint64_t s = 100 * uint64_t(i);
        partition(v, "S", i, 0, s, s + 100, s + 100, s + 100, s + 100, s + 100, s + 110, s + 110);
    }
    return v;
}

// Four partitions synthesized together in 10 ms, then 49 ms of device work
// each with 1 ms between them.
std::vector<event> device_bound_timeline()
{
    std::vector<event> v;
    for (int i = 0; i < 4; ++i) {
        const uint64_t b = 10 + 50 * uint64_t(i);
        partition(v, "D", i, i % 2, 0, 10, 10, b, b, b, b + 49, b + 49);
    }
    return v;
}

} // namespace

// ---- intervals and statistics ---------------------------------------------------------

TEST_CASE("interval union and utilisation", "[timeline]")
{
    // overlapping [0,10) [5,15) and disjoint [20,30): union 25 over 30
    std::vector<interval> v{{20, 30}, {0, 10}, {5, 15}};
    const auto m = merge_intervals(v);
    REQUIRE(m == std::vector<interval>{{0, 15}, {20, 30}});
    CHECK(union_length(v) == 25);
    CHECK(utilisation_of(v) == Approx(25.0 / 30));
    // disjoint: 20 / 30
    CHECK(utilisation_of({{0, 10}, {20, 30}}) == Approx(2.0 / 3));
    // touching intervals merge: fully busy
    CHECK(merge_intervals({{0, 10}, {10, 20}}) == std::vector<interval>{{0, 20}});
    CHECK(utilisation_of({{0, 10}, {10, 20}}) == 1.0);
    // nested: [0,100) contains [10,20): 100 / 100
    CHECK(union_length({{0, 100}, {10, 20}}) == 100);
    // empty intervals are dropped; nothing gives 0
    CHECK(merge_intervals({{5, 5}}).empty());
    CHECK(utilisation_of({}) == 0.0);
}

TEST_CASE("stage statistics: min, median, p90 (nearest rank), max", "[timeline]")
{
    const auto s = compute_stats({5, 1, 4, 2, 3});
    CHECK(s.count == 5);
    CHECK(s.min == 1);
    CHECK(s.median == 3);
    CHECK(s.p90 == 5);   // ⌈4.5⌉ = 5th smallest
    CHECK(s.max == 5);
    std::vector<uint64_t> ten;
    for (uint64_t i = 1; i <= 10; ++i) ten.push_back(10 * i);
    const auto t = compute_stats(ten);
    CHECK(t.median == 55);   // (50 + 60) / 2
    CHECK(t.p90 == 90);      // 9th smallest
    const auto one = compute_stats({7});
    CHECK((one.min == 7 && one.median == 7 && one.p90 == 7 && one.max == 7));
    CHECK(compute_stats({}).count == 0);
}

// ---- analysis ------------------------------------------------------------------------

TEST_CASE("analysis: utilisation, gaps and every cause", "[timeline]")
{
    const auto ev = causes_timeline();
    const analysis a = analyse(ev);
    CHECK(a.source == busy_source::device_spans);
    REQUIRE(a.devices.size() == 1);
    const device_report& d = a.devices[0];
    CHECK(d.device == 0);
    CHECK(d.busy.size() == 6);
    CHECK(d.window == interval{10 * ms, 130 * ms});
    CHECK(d.busy_ns == 60 * ms);
    CHECK(d.utilisation == Approx(0.5));
    CHECK(a.utilisation == Approx(0.5));
    REQUIRE(d.gaps.size() == 5);
    CHECK(d.gaps[0].span == interval{20 * ms, 30 * ms});
    CHECK(d.gaps[0].cause == gap_cause::lock_held);
    CHECK(d.gaps[1].cause == gap_cause::cpu_tail);
    CHECK(d.gaps[2].cause == gap_cause::no_partition_ready);
    CHECK(d.gaps[3].span == interval{80 * ms, 100 * ms});
    CHECK(d.gaps[3].cause == gap_cause::nothing_submitted);
    CHECK(d.gaps[3].by_cause[size_t(gap_cause::nothing_submitted)] == 14 * ms);
    CHECK(d.gaps[3].by_cause[size_t(gap_cause::no_partition_ready)] == 6 * ms);
    CHECK(d.gaps[4].cause == gap_cause::queued_not_picked);
    CHECK(a.idle_by_cause[size_t(gap_cause::lock_held)] == 10 * ms);
    CHECK(a.idle_by_cause[size_t(gap_cause::cpu_tail)] == 10 * ms);
    CHECK(a.idle_by_cause[size_t(gap_cause::nothing_submitted)] == 14 * ms);
    CHECK(a.idle_by_cause[size_t(gap_cause::no_partition_ready)] == 16 * ms);
    CHECK(a.idle_by_cause[size_t(gap_cause::queued_not_picked)] == 10 * ms);
    // lock + tail (20) is the largest share of the 60 ms idle
    CHECK(a.verdict == verdict_kind::lock_cpu_tail_bound);
    CHECK(a.verdict_text.find("lock/CPU-tail-bound") == 0);
    CHECK(a.verdict_text.find("50.0%") != std::string::npos);

    // Stages: J1 p1 synth 0..25, queue 25..28, device 30..40.
    REQUIRE(a.partitions.size() == 6);
    CHECK(a.partitions[0].job == "J1");
    CHECK(a.partitions[4].job == "J2");
    const partition_timing& p1 = a.partitions[1];
    CHECK(p1.partition == 1);
    CHECK(p1.synth == interval{0, 25 * ms});
    CHECK(p1.queue == interval{25 * ms, 28 * ms});
    CHECK(p1.device_stage == interval{30 * ms, 40 * ms});
    CHECK(p1.device_work_ns == 10 * ms);
    // queue waits 3, 3, 0, 0, 0, 13 → min 0, median 1.5, p90 (6th) 13, max 13
    CHECK(a.queue_wait.count == 6);
    CHECK(a.queue_wait.min == 0);
    CHECK(a.queue_wait.median == 1500000);
    CHECK(a.queue_wait.p90 == 13 * ms);
    CHECK(a.device_work.median == 10 * ms);
    // every partition was sent as it was synthesized; J1 p1 waited 10 ms for the lock
    CHECK(a.slot_wait.count == 6);
    CHECK(a.slot_wait.max == 0);
    CHECK(a.lock_wait.count == 1);
    CHECK(a.lock_wait.max == 10 * ms);
    // both jobs completed over 0..130 ms
    CHECK(a.throughput.jobs_completed == 2);
    CHECK(a.throughput.s_per_proof == Approx(0.065));
    CHECK(a.throughput.proofs_per_min == Approx(60.0 / 0.065));
    // the listing threshold: at 12 ms only the 20 ms gap is listed
    analysis_options o;
    o.min_gap_ns = 12 * ms;
    const analysis b = analyse(ev, o);
    CHECK(b.devices[0].gaps.size() == 1);
    CHECK(b.devices[0].small_gaps == 4);
    CHECK(b.devices[0].small_gaps_ns == 40 * ms);
    CHECK(b.idle_by_cause == a.idle_by_cause);
}

TEST_CASE("analysis: synthesis-bound and device-bound verdicts", "[timeline]")
{
    const analysis s = analyse(synthesis_bound_timeline());
    // busy 4 × 10 over [100, 410): 40 / 310; three 90 ms gaps with nothing ready
    CHECK(s.utilisation == Approx(40.0 / 310));
    REQUIRE(s.devices.size() == 1);
    CHECK(s.devices[0].gaps.size() == 3);
    CHECK(s.idle_by_cause[size_t(gap_cause::no_partition_ready)] == 270 * ms);
    CHECK(s.verdict == verdict_kind::synthesis_bound);
    CHECK(s.verdict_text.find("synthesis-bound") == 0);
    CHECK(s.verdict_text.find("12.9%") != std::string::npos);
    CHECK(s.synth.min == 100 * ms);
    CHECK(s.synth.max == 100 * ms);
    CHECK(s.throughput.jobs_completed == 1);
    CHECK(s.throughput.s_per_proof == Approx(0.41));
    // serial syntheses: each starts as the previous ends → concurrency 1
    REQUIRE(s.by_concurrency.size() == 1);
    CHECK(s.by_concurrency[0].concurrency == 1);
    CHECK(s.by_concurrency[0].count == 4);

    const analysis d = analyse(device_bound_timeline());
    // busy 4 × 49 over [10, 209): 196 / 199
    CHECK(d.utilisation == Approx(196.0 / 199));
    CHECK(d.verdict == verdict_kind::device_bound);
    CHECK(d.verdict_text.find("device-bound") == 0);
    CHECK(d.devices[0].gaps.size() == 3);   // three 1 ms gaps, listed from 1 ms
    // all four syntheses started together
    REQUIRE(d.by_concurrency.size() == 1);
    CHECK(d.by_concurrency[0].concurrency == 4);
    CHECK(d.by_concurrency[0].median_synth_ns == 10 * ms);
}

TEST_CASE("analysis: idle/submission-bound, brackets fallback, concurrency buckets", "[timeline]")
{
    // Two jobs 90 ms apart, device stages only (no device spans): source is
    // GPU_START..GPU_END; the gap [10,100) is outside both jobs.
    std::vector<event> v;
    for (int j = 0; j < 2; ++j) {
        const std::string job = j ? "B" : "A";
        const uint64_t t = 100 * uint64_t(j);
        v.push_back(inst(t, "SYNTH_START", job, 0));
        v.push_back(inst(t, "SYNTH_END", job, 0));
        v.push_back(inst(t, "CHAN_SEND", job, 0));
        v.push_back(inst(t, "GPU_PICKUP", job, 0, 0));
        v.push_back(inst(t, "GPU_START", job, 0, 0));
        v.push_back(inst(t + 10, "GPU_END", job, 0, 0));
    }
    const analysis a = analyse(v);
    CHECK(a.source == busy_source::stage_brackets);
    REQUIRE(a.devices.size() == 1);
    CHECK(a.devices[0].device == -1);
    CHECK(a.utilisation == Approx(20.0 / 110));
    CHECK(a.idle_by_cause[size_t(gap_cause::nothing_submitted)] == 90 * ms);
    CHECK(a.verdict == verdict_kind::idle_submission_bound);

    // Syntheses A [0,10), B [5,15), C [5,8), D [20,30): concurrency at the
    // start 1, 3, 3, 1 → bucket 1: {10, 10} median 10; bucket 3: {10, 3} median 6.5
    std::vector<event> c;
    const uint64_t iv[4][2] = {{0, 10}, {5, 15}, {5, 8}, {20, 30}};
    for (int i = 0; i < 4; ++i) {
        c.push_back(inst(iv[i][0], "SYNTH_START", "C", i));
        c.push_back(inst(iv[i][1], "SYNTH_END", "C", i));
    }
    const analysis ca = analyse(c);
    REQUIRE(ca.by_concurrency.size() == 2);
    CHECK(ca.by_concurrency[0].concurrency == 1);
    CHECK(ca.by_concurrency[0].median_synth_ns == 10 * ms);
    CHECK(ca.by_concurrency[1].concurrency == 3);
    CHECK(ca.by_concurrency[1].count == 2);
    CHECK(ca.by_concurrency[1].median_synth_ns == 6500000);
    CHECK(ca.verdict == verdict_kind::no_device_work);

    // LOCK_WAIT and CPU_TAIL on a device are not device work; unmatched spans are counted.
    std::vector<event> w;
    span(w, 0, 5, "LOCK_WAIT", "X", 0, 0, 0);
    span(w, 5, 9, "NTT", "X", 0, 0, 0);
    event lone = inst(9, "MSM_L", "X", 0, 0, 0);
    lone.ph = phase::end;
    w.push_back(lone);
    const analysis wa = analyse(w);
    REQUIRE(wa.devices.size() == 1);
    CHECK(wa.devices[0].busy == std::vector<interval>{{5 * ms, 9 * ms}});
    CHECK(wa.unmatched_spans == 1);
}

// ---- parsing -------------------------------------------------------------------------

TEST_CASE("parse curio daemon log lines", "[timeline]")
{
    const std::string log = "2024-05-01T10:00:00Z INFO cuzk_daemon::engine: engine started, gpus=2\n"
                            "TIMELINE,1000,SYNTH_START,job-a,partition=0\n"
                            "[2024-05-01 10:00:03 INFO] TIMELINE,3000,SYNTH_END,job-a,partition=0,synth_ms=2000\r\n"
                            "TIMELINE,3000,GPU_QUEUE,job-a,partition=0\n"
                            "an unrelated line, with commas, and = signs\n"
                            "MY_TIMELINE,1,NOT_OURS,x,partition=9\n"
                            "TIMELINE,3010,GPU_PICKUP,job-a,worker=3,partition=0\n"
                            "TIMELINE,3020.25,GPU_START,job-a,worker=3,partition=0\n"
                            "TIMELINE,4020,GPU_END,job-a,worker=3,partition=0,gpu_ms=1000\n"
                            "TIMELINE,5000,GPU_QUEUE,job-b,monolithic\n"
                            "TIMELINE,5001,NOTE,job-b,msg=a,b,c,partition=2\n";
    const parse_result r = parse_log(log, "daemon.log");
    CHECK(r.format == log_format::lines);
    CHECK(r.lines == 11);
    CHECK(r.timeline_lines == 8);
    REQUIRE(r.events.size() == 8);
    const event& e1 = r.events[1];
    CHECK(e1.t_ns == 3000 * ms);
    CHECK(e1.name == "SYNTH_END");
    CHECK(e1.job == "job-a");
    CHECK(e1.partition == 0);
    CHECK(e1.details == std::vector<std::pair<std::string, std::string>>{{"synth_ms", "2000"}});
    CHECK(r.events[2].name == "CHAN_SEND");   // GPU_QUEUE
    CHECK(r.events[3].worker == 3);
    CHECK(r.events[3].partition == 0);
    CHECK(r.events[3].device == -1);
    CHECK(r.events[4].t_ns == 3020250000ull);   // fractional ms
    CHECK(r.events[6].name == "CHAN_SEND");
    CHECK(r.events[6].partition == -1);
    CHECK(r.events[6].details == std::vector<std::pair<std::string, std::string>>{{"monolithic", ""}});
    // the fifth field is the whole detail; a piece without '=' continues the value
    CHECK(r.events[7].details == std::vector<std::pair<std::string, std::string>>{{"msg", "a,b,c"}});
    CHECK(r.events[7].partition == 2);
    // keep_names leaves GPU_QUEUE alone
    parse_options keep;
    keep.keep_names = true;
    CHECK(parse_log(log, "daemon.log", keep).events[2].name == "GPU_QUEUE");
    // the analysis reads the queue wait from GPU_QUEUE..GPU_PICKUP
    const analysis a = analyse(r.events);
    REQUIRE(!a.partitions.empty());
    CHECK(a.partitions[0].queue == interval{3000 * ms, 3010 * ms});
    CHECK(a.source == busy_source::stage_brackets);
}

TEST_CASE("parse errors name the file and the line", "[timeline]")
{
    const std::string bad = "hello\nTIMELINE,1,SYNTH_START,j,partition=0\nTIMELINE,abc,SYNTH_END,j,partition=0\n";
    try {
        parse_log(bad, "run.log");
        FAIL("no error");
    } catch (const error& e) {
        CHECK(e.code() == errc::bad_format);
        CHECK(std::string(e.what()).find("run.log: line 3") != std::string::npos);
        CHECK(std::string(e.what()).find("abc") != std::string::npos);
    }
    CHECK_THROWS_AS(parse_log("TIMELINE,1,X,j,partition=zero\n", "f"), error);
    CHECK_THROWS_AS(parse_log("TIMELINE,1,X\n", "f"), error);
    CHECK_THROWS_AS(parse_log("TIMELINE,-1,X,j,\n", "f"), error);
    CHECK_THROWS_AS(parse_log("TIMELINE,1,X,j,ph=Q\n", "f"), error);
    parse_options skip;
    skip.skip_bad_lines = true;
    const auto r = parse_log(bad, "run.log", skip);
    CHECK(r.events.size() == 1);
    CHECK(r.skipped == 1);
    REQUIRE(r.warnings.size() == 1);
    CHECK(r.warnings[0].find("line 3") != std::string::npos);
    // a Chrome trace with a bad event names the index
    try {
        parse_log(R"({"traceEvents":[{"name":"A","ph":"B","ts":1},{"name":"B","ph":"E"}]})", "t.json");
        FAIL("no error");
    } catch (const error& e) {
        CHECK(std::string(e.what()).find("t.json: traceEvents[1]") != std::string::npos);
    }
    CHECK_THROWS_AS(parse_log("{\"traceEvents\": 3}", "t.json"), error);
    CHECK_THROWS_AS(read_log_file("/nonexistent/dir/x.log"), error);
}

TEST_CASE("decimal offsets are read exactly", "[timeline]")
{
    CHECK(parse_decimal_ns("0", ms) == 0u);
    CHECK(parse_decimal_ns("1234", ms) == 1234 * ms);
    CHECK(parse_decimal_ns("1234.567891", ms) == 1234567891u);
    CHECK(parse_decimal_ns("0.5", ms) == 500000u);
    CHECK(parse_decimal_ns("1.0000019", ms) == 1000001u);   // below 1 ns dropped
    CHECK(parse_decimal_ns("12.345", 1000) == 12345u);
    CHECK(!parse_decimal_ns("", ms));
    CHECK(!parse_decimal_ns("-1", ms));
    CHECK(!parse_decimal_ns("1e3", ms));
    CHECK(!parse_decimal_ns("1.", ms));
    CHECK(!parse_decimal_ns("99999999999999999999", ms));
}

namespace {

std::vector<event> sample_events()
{
    std::vector<event> v;
    event a = inst(0, "SYNTH_START", "job,1=x%y", 0, 2, -1);
    a.t_ns = 123456789;
    v.push_back(a);
    event b = inst(0, "SYNTH_END", "job,1=x%y", 0, 2, -1);
    b.t_ns = 1000000000;
    b.details = {{"synth_ms", "876.5"}, {"note", "a,b=c%2Cd \"quoted\" \\ back"}, {"empty", ""}};
    v.push_back(b);
    event c = inst(0, "MSM_H", "j2", 3, 1, 0);
    c.t_ns = 1000000001;
    c.ph = phase::begin;
    v.push_back(c);
    event d = c;
    d.t_ns = 2500000000ull;
    d.ph = phase::end;
    d.details = {{"points", "1048576"}};
    v.push_back(d);
    event e = inst(3, "ENGINE_IDLE", "", -1, -1, -1);
    e.t_ns = 2500000500ull;
    v.push_back(e);
    event f = inst(0, "H2D", "j2", 3, 0, 7);
    f.t_ns = 3000000000ull;
    f.ph = phase::begin;
    f.details = {{"bytes", "64"}, {"tab", "x\ty\nz"}};
    v.push_back(f);
    return v;
}

void check_same(const std::vector<event>& got, const std::vector<event>& want)
{
    REQUIRE(got.size() == want.size());
    for (size_t i = 0; i < want.size(); ++i) {
        INFO("event " << i << " " << want[i].name);
        CHECK(got[i].t_ns == want[i].t_ns);
        CHECK(got[i].ph == want[i].ph);
        CHECK(got[i].name == want[i].name);
        CHECK(got[i].job == want[i].job);
        CHECK(got[i].partition == want[i].partition);
        CHECK(got[i].worker == want[i].worker);
        CHECK(got[i].device == want[i].device);
        CHECK(got[i].details == want[i].details);
    }
}

} // namespace

TEST_CASE("CSV sink round trip", "[timeline]")
{
    const auto ev = sample_events();
    std::ostringstream os;
    {
        csv_sink s(os);
        for (const event& e : ev) s.record(e);
        s.flush();
        CHECK(s.dropped() == 0);
    }
    const std::string text = os.str();
    // the documented shape of a line
    CHECK(text.find("TIMELINE,123.456789,SYNTH_START,job%2C1%3Dx%25y,partition=0,worker=2\n") == 0);
    CHECK(text.find("TIMELINE,1000.000001,MSM_H,j2,partition=3,worker=1,device=0,ph=B\n") != std::string::npos);
    CHECK(text.find("TIMELINE,2500.0005,ENGINE_IDLE,,\n") != std::string::npos);
    check_same(parse_log(text, "csv").events, ev);
    // mixed with other log output, with a prefix
    std::string mixed;
    std::istringstream is(text);
    for (std::string line; std::getline(is, line);) mixed += "noise line\n[INFO] " + line + "\n";
    check_same(parse_log(mixed, "mixed").events, ev);
}

TEST_CASE("Chrome trace sink round trip", "[timeline]")
{
    const auto ev = sample_events();
    std::ostringstream os;
    {
        chrome_trace_sink s(os);
        for (const event& e : ev) s.record(e);
        s.finish();
        s.finish();   // idempotent
    }
    const std::string text = os.str();
    CHECK(detect_format(text) == log_format::chrome_json);
    CHECK(text.find("\"ph\":\"B\",\"ts\":1000000.001,\"pid\":1,\"tid\":2") != std::string::npos);
    CHECK(text.find("\"process_name\"") != std::string::npos);
    const parse_result r = parse_log(text, "trace.json");
    CHECK(r.format == log_format::chrome_json);
    check_same(r.events, ev);

    // cut off before finish(): still readable
    std::ostringstream cut;
    {
        auto s = std::make_unique<chrome_trace_sink>(cut);
        for (const event& e : ev) s->record(e);
        s->flush();
        const std::string partial = cut.str();
        const parse_result pr = parse_log(partial, "cut.json");
        check_same(pr.events, ev);
        CHECK(!pr.warnings.empty());
        // cut in the middle of the last event: the complete ones are read
        const std::string half = partial.substr(0, partial.size() - 20);
        const parse_result hr = parse_log(half, "half.json");
        check_same(hr.events, std::vector<event>(ev.begin(), ev.end() - 1));
    }

    // foreign shapes: a bare array, X (complete) events, metadata skipped
    const auto fr = parse_log(R"([{"name":"process_name","ph":"M","pid":1,"args":{"name":"x"}},
        {"name":"NTT","ph":"X","ts":10.5,"dur":2,"pid":1,"tid":1,"args":{"device":0,"job":"q","n":5}},
        {"name":"GPU_QUEUE","ph":"i","ts":1,"pid":0,"tid":0,"args":{"partition":"4"}}])",
                              "foreign.json");
    REQUIRE(fr.events.size() == 3);
    CHECK(fr.events[0].name == "CHAN_SEND");
    CHECK(fr.events[0].partition == 4);
    CHECK(fr.events[1].t_ns == 10500);
    CHECK(fr.events[1].ph == phase::begin);
    CHECK(fr.events[1].device == 0);
    CHECK(fr.events[1].details == std::vector<std::pair<std::string, std::string>>{{"n", "5"}});
    CHECK(fr.events[2].t_ns == 12500);
    CHECK(fr.events[2].ph == phase::end);
}

TEST_CASE("sinks record every event from 8 threads", "[timeline]")
{
    constexpr int threads = 8, per_thread = 4000;
    auto rec = std::make_shared<recorder>();
    std::ostringstream csv_out, json_out;
    auto csv = std::make_shared<csv_sink>(csv_out);
    auto chrome = std::make_shared<chrome_trace_sink>(json_out);
    fan_out fan({rec, csv});
    fan.add(chrome);
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            for (int i = 0; i < per_thread; ++i) {
                event e = inst(0, "MSM_H", "job", i, t, t % 2);
                e.t_ns = uint64_t(t) * per_thread + uint64_t(i);
                e.ph = phase::begin;
                e.details = {{"seq", std::to_string(i)}};
                fan.record(e);
            }
        });
    for (auto& th : pool) th.join();
    fan.flush();
    chrome->finish();
    auto check_all = [&](const std::vector<event>& got, const char* what) {
        INFO(what);
        REQUIRE(got.size() == size_t(threads) * per_thread);
        std::set<std::pair<int, int>> seen;
        for (const event& e : got) {
            CHECK(e.details.size() == 1);
            CHECK(e.details[0].second == std::to_string(e.partition));
            seen.insert({e.worker, e.partition});
        }
        CHECK(seen.size() == size_t(threads) * per_thread);
    };
    check_all(rec->events(), "recorder");
    check_all(parse_log(csv_out.str(), "csv").events, "csv");
    check_all(parse_log(json_out.str(), "json").events, "chrome");
    CHECK(csv->dropped() == 0);
    CHECK(chrome->dropped() == 0);
    CHECK(rec->take().size() == size_t(threads) * per_thread);
    CHECK(rec->size() == 0);
}

// ---- renderers -----------------------------------------------------------------------

TEST_CASE("renderers: width, rows, SVG and HTML", "[timeline]")
{
    const analysis a = analyse(causes_timeline());
    for (unsigned width : {60u, 100u, 157u}) {
        INFO("width " << width);
        render_options o;
        o.width = width;
        const std::string wf = render_waterfall(a, o);
        std::istringstream is(wf);
        size_t rows = 0;
        std::string device_row;
        for (std::string line; std::getline(is, line);) {
            CHECK(line.size() <= width);
            for (char c : line) CHECK(static_cast<unsigned char>(c) < 128);
            if (line.find('|') != std::string::npos) {
                CHECK(line.size() == width);
                CHECK(line.back() == '|');
                ++rows;
            }
            if (line.find("dev 0 busy") == 0 || line.find("  dev 0 busy") == 0) device_row = line;
        }
        CHECK(rows == 6 + 1);   // six partitions and one device
        CHECK(wf.find("job J1") != std::string::npos);
        CHECK(wf.find("job J2") != std::string::npos);
        CHECK(wf.find("p3 w0") != std::string::npos);
        CHECK(wf.find("t (s)") != std::string::npos);
        REQUIRE(!device_row.empty());
        for (char c : {'#', 'L', 'T', 'S', 'N', 'Q'}) CHECK(device_row.find(c) != std::string::npos);
        const std::string sum = render_summary(a, o);
        std::istringstream ss(sum);
        for (std::string line; std::getline(ss, line);) CHECK(line.size() <= width);
        CHECK(sum.find("verdict: lock/CPU-tail-bound") != std::string::npos);
        CHECK(sum.find("from device spans") != std::string::npos);
        CHECK(sum.find("no synthesized partition ready") != std::string::npos);
        CHECK(sum.find("lock held by another worker") != std::string::npos);
    }
    // Partition rows: J1 p0 synth 0..5, queue 5..8, device 10..20 of a 130 ms
    // span; at 130 plot columns (1 ms each) the row is exact. The label
    // column is "  dev 0 busy" wide (12), plus the two bars.
    render_options o;
    o.width = 12 + 130 + 2;
    const std::string wf = render_waterfall(a, o);
    const size_t p0 = wf.find("  p0 w0");
    REQUIRE(p0 != std::string::npos);
    const std::string row = wf.substr(p0, o.width);
    const std::string plot = row.substr(row.find('|') + 1, 130);
    CHECK(plot.substr(0, 5) == "~~~~~");
    CHECK(plot.substr(5, 3) == "...");
    CHECK(plot.substr(8, 2) == "  ");
    CHECK(plot.substr(10, 10) == std::string(10, '#'));
    CHECK(plot.substr(20, 5) == "     ");

    render_options so;
    so.title = "causes <test>";
    const std::string svg = render_svg(a, so);
    CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1200\"", 0) == 0);
    CHECK(svg.find("</svg>") == svg.size() - 7);
    CHECK(svg.find("causes &lt;test&gt;") != std::string::npos);
    CHECK(svg.find("job J2") != std::string::npos);
    CHECK(svg.find("lock held by another worker") != std::string::npos);
    const std::string html = render_html(a, so);
    CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
    CHECK(html.find("<svg") != std::string::npos);
    CHECK(html.find("verdict: lock/CPU-tail-bound") != std::string::npos);
    for (const char* ext : {"<script", "<link", "src=", "url(", "href=", "@import"})
        CHECK(html.find(ext) == std::string::npos);

    // width from $COLUMNS
    setenv("COLUMNS", "87", 1);
    CHECK(terminal_width() == 87u);
    setenv("COLUMNS", "junk", 1);
    CHECK(terminal_width() == 100u);
    unsetenv("COLUMNS");
    CHECK(terminal_width() == 100u);
}

// ---- robustness ----------------------------------------------------------------------

TEST_CASE("parsers and the analysis survive damaged input", "[timeline]")
{
    // Every prefix and random byte damage of valid CSV and JSON: either parsed
    // or rejected with cuzk::error; whatever parses also analyses and renders.
    std::mt19937_64 rng(cuzk::test::test_seed());
    std::ostringstream csv_os, json_os;
    {
        csv_sink c(csv_os);
        chrome_trace_sink j(json_os);
        for (const event& e : causes_timeline()) {
            c.record(e);
            j.record(e);
        }
    }
    const char alphabet[] = "TIMELINE,=%.-0123456789{}[]\":\n\rBEph";
    for (const std::string& good : {csv_os.str(), json_os.str()}) {
        for (int round = 0; round < 300; ++round) {
            std::string t = good;
            if (round % 3 == 0) {
                t.resize(size_t(rng() % (t.size() + 1)));
            } else {
                const int edits = 1 + int(rng() % 4);
                for (int k = 0; k < edits && !t.empty(); ++k)
                    t[size_t(rng() % t.size())] = alphabet[rng() % (sizeof(alphabet) - 1)];
            }
            try {
                const parse_result r = parse_log(t, "damaged");
                const analysis a = analyse(r.events);
                render_options o;
                o.width = 80;
                CHECK(!render_text(a, o).empty());
                CHECK(!render_html(a, o).empty());
            } catch (const error& e) {
                CHECK(e.code() == errc::bad_format);
            }
        }
    }
}

// ---- curio's CUZK_TIMING lines, kernel time, traces of any log, D2H ------------------------

namespace {

using kv = std::vector<std::pair<std::string, std::string>>;

// A curio-style daemon log written for these tests (format of supraseal's
// fprintf(stderr, "CUZK_TIMING: …") lines beside the engine's TIMELINE
// lines): one GPU worker, two partitions proved one after the other.
//   brackets  p0 GPU_START 1000 .. GPU_END 5000, p1 5000 .. 9000
//             → window 8000 ms, all of it inside a bracket (100%)
//   kernels   p0 2000 + 1000 + 500, p1 2100 + 900 + 500 = 7000 ms → 87.5%
//   regions   3800 + 3700 = 7500 ms → 93.75%
const char* const curio_log =
    "CUZK_TIMING: split_vectors_ms=3 setup_to_split_ms=4\n"
    "TIMELINE,100,SYNTH_START,job-k,partition=0\n"
    "TIMELINE,100,SYNTH_START,job-k,partition=1\n"
    "TIMELINE,900,SYNTH_END,job-k,partition=0\n"
    "TIMELINE,900,GPU_QUEUE,job-k,partition=0\n"
    "TIMELINE,950,SYNTH_END,job-k,partition=1\n"
    "TIMELINE,950,GPU_QUEUE,job-k,partition=1\n"
    "TIMELINE,1000,GPU_PICKUP,job-k,worker=0,partition=0\n"
    "TIMELINE,1000,GPU_START,job-k,worker=0,partition=0\n"
    "CUZK_TIMING: prestage_vram free_mib=70000 usable_mib=69488\n"
    "CUZK_TIMING: gpu_tid=0 ntt_msm_h_ms=2000\n"
    "CUZK_TIMING: prep_msm_ms=1200\n"
    "2024-05-01T10:00:04Z INFO cuzk_daemon: partition proved\n"
    "CUZK_TIMING: gpu_tid=0 batch_add_ms=1000\n"
    "\tCUZK_TIMING:  gpu_tid=0   tail_msm_ms=500 gpu_total_ms=3800\r\n"
    "TIMELINE,5000,GPU_END,job-k,worker=0,partition=0,gpu_ms=4000\n"
    "TIMELINE,5000,GPU_PICKUP,job-k,worker=0,partition=1\n"
    "TIMELINE,5000,GPU_START,job-k,worker=0,partition=1\n"
    "CUZK_TIMING: gpu_tid=0 ntt_msm_h_ms=2100\n"
    "CUZK_TIMING: gpu_tid=0 batch_add_ms=900\n"
    "CUZK_TIMING: gpu_tid=0 tail_msm_ms=500 gpu_total_ms=3700\n"
    "CUZK_TIMING: b_g2_msm_ms=700 num_circuits=1\n"
    "TIMELINE,9000,GPU_END,job-k,worker=0,partition=1,gpu_ms=4000\n"
    "XCUZK_TIMING: gpu_tid=0 ntt_msm_h_ms=99999\n";

} // namespace

TEST_CASE("parse curio CUZK_TIMING lines", "[timeline]")
{
    const parse_result r = parse_log(curio_log, "curio.log");
    CHECK(r.lines == 24);
    CHECK(r.timeline_lines == 12);
    CHECK(r.timing_lines == 10);   // not XCUZK_TIMING
    std::vector<const event*> t;
    for (const event& e : r.events)
        if (e.name == "CUZK_TIMING") t.push_back(&e);
    REQUIRE(t.size() == 10);
    // Before any TIMELINE line: at the first TIMELINE line's time.
    CHECK(t[0]->t_ns == 100 * ms);
    CHECK(t[0]->details == kv{{"split_vectors_ms", "3"}, {"setup_to_split_ms", "4"}});
    // At the last TIMELINE line before it; a bare key is a label.
    CHECK(t[1]->t_ns == 1000 * ms);
    CHECK(t[1]->details == kv{{"prestage_vram", ""}, {"free_mib", "70000"}, {"usable_mib", "69488"}});
    CHECK(t[1]->job.empty());
    CHECK(t[1]->partition == -1);
    CHECK(t[1]->worker == -1);
    CHECK(t[1]->device == -1);
    CHECK(t[1]->ph == phase::instant);
    // Leading tab, repeated blanks and the CR.
    CHECK(t[5]->details == kv{{"gpu_tid", "0"}, {"tail_msm_ms", "500"}, {"gpu_total_ms", "3800"}});
    CHECK(t[5]->t_ns == 1000 * ms);
    CHECK(t[6]->t_ns == 5000 * ms);
    CHECK(t[9]->details == kv{{"b_g2_msm_ms", "700"}, {"num_circuits", "1"}});
    // Sorted by time, file order kept among equal times.
    CHECK(std::is_sorted(r.events.begin(), r.events.end(),
                         [](const event& a, const event& b) { return a.t_ns < b.t_ns; }));

    // One line on its own, and malformed ones.
    const auto one = parse_cuzk_timing_line("[stderr] CUZK_TIMING: epilogue_ms=12 pre_destructor_ms=3400", 7);
    REQUIRE(one);
    CHECK(one->t_ns == 7);
    CHECK(one->details == kv{{"epilogue_ms", "12"}, {"pre_destructor_ms", "3400"}});
    CHECK_FALSE(parse_cuzk_timing_line("MY_CUZK_TIMING: a=1", 0));
    CHECK_FALSE(parse_cuzk_timing_line("CUZK_TIMING a=1", 0));
    try {
        parse_log("TIMELINE,1,SYNTH_START,j,partition=0\nCUZK_TIMING:   \n", "run.log");
        FAIL("no error");
    } catch (const error& e) {
        CHECK(e.code() == errc::bad_format);
        CHECK(std::string(e.what()).find("run.log: line 2") != std::string::npos);
    }
    CHECK_THROWS_AS(parse_log("CUZK_TIMING: =5\n", "f"), error);
    parse_options skip;
    skip.skip_bad_lines = true;
    const auto s = parse_log("CUZK_TIMING: =5\nCUZK_TIMING: a_ms=1\n", "f", skip);
    CHECK(s.skipped == 1);
    CHECK(s.timing_lines == 2);
    REQUIRE(s.events.size() == 1);
    CHECK(s.events[0].t_ns == 0);   // no TIMELINE line at all
}

TEST_CASE("kernel time from CUZK_TIMING beside the stage brackets", "[timeline]")
{
    const parse_result r = parse_log(curio_log, "curio.log");
    const analysis a = analyse(r.events);
    CHECK(a.source == busy_source::stage_brackets);
    CHECK(a.utilisation == Approx(1.0));
    const kernel_report& k = a.kernel;
    REQUIRE(k.present());
    CHECK(k.lines == 10);
    CHECK(k.calls == 2);
    CHECK(k.ntt_msm_h_ns == 4100 * ms);
    CHECK(k.batch_add_ns == 1900 * ms);
    CHECK(k.tail_msm_ns == 1000 * ms);
    CHECK(k.kernel_ns == 7000 * ms);
    CHECK(k.region_ns == 7500 * ms);
    CHECK(k.window == interval{1000 * ms, 9000 * ms});
    CHECK(k.devices == 1);
    CHECK(k.utilisation == Approx(0.875));
    CHECK(k.region_utilisation == Approx(0.9375));
    CHECK(k.bracket_utilisation == Approx(1.0));
    CHECK(k.ntt_msm_h.count == 2);
    CHECK(k.ntt_msm_h.median == 2050 * ms);
    CHECK(k.region.max == 3800 * ms);
    CHECK(a.verdict_text.find("kernels (CUZK_TIMING) ran 87.5% of the device window") != std::string::npos);
    CHECK(a.verdict_text.find("GPU_START..GPU_END holds 100.0%") != std::string::npos);
    render_options ro;
    ro.width = 120;
    const std::string sum = render_summary(a, ro);
    CHECK(sum.find("kernel time (from 10 CUZK_TIMING lines, 2 device calls, 1 device)") != std::string::npos);
    CHECK(sum.find("87.5%") != std::string::npos);
    CHECK(sum.find("93.8%") != std::string::npos);
    CHECK(sum.find("tail MSMs (CUZK_TIMING)") != std::string::npos);

    // Two devices named on the command line halve the kernel figure.
    analysis_options two;
    two.devices = 2;
    const analysis a2 = analyse(r.events, two);
    CHECK(a2.kernel.devices == 2);
    CHECK(a2.kernel.utilisation == Approx(0.4375));
    CHECK(a2.kernel.bracket_utilisation == Approx(1.0));

    // Without CUZK_TIMING lines: no kernel report, the verdict as before.
    std::vector<event> plain;
    for (const event& e : r.events)
        if (e.name != "CUZK_TIMING") plain.push_back(e);
    const analysis p = analyse(plain);
    CHECK_FALSE(p.kernel.present());
    CHECK(p.kernel.lines == 0);
    CHECK(p.verdict_text.find("CUZK_TIMING") == std::string::npos);
    CHECK(render_summary(p, ro).find("kernel time") == std::string::npos);

    // Kernel lines but no device stage: no window, no utilisation.
    std::vector<event> only;
    for (const event& e : r.events)
        if (e.name == "CUZK_TIMING") only.push_back(e);
    const analysis o = analyse(only);
    CHECK(o.kernel.kernel_ns == 7000 * ms);
    CHECK(o.kernel.window.length() == 0);
    CHECK(o.kernel.utilisation == 0);
}

TEST_CASE("a Chrome trace of any log: curio lines, CSV, trace JSON", "[timeline]")
{
    const parse_result curio = parse_log(curio_log, "curio.log");
    std::ostringstream os;
    CHECK(write_chrome_trace(os, curio.events) == 0);
    const std::string text = os.str();
    CHECK(text.find("\"name\":\"CUZK_TIMING\",\"cat\"") != std::string::npos);
    const std::string tail = "],\"displayTimeUnit\":\"ms\"}\n";   // closed
    CHECK(text.size() > tail.size());
    CHECK(text.compare(text.size() - tail.size(), tail.size(), tail) == 0);
    const parse_result back = parse_log(text, "trace.json");
    CHECK(back.format == log_format::chrome_json);
    CHECK(back.warnings.empty());
    check_same(back.events, curio.events);
    // The same analysis, kernel report included.
    const analysis a = analyse(curio.events), b = analyse(back.events);
    CHECK(b.kernel.kernel_ns == a.kernel.kernel_ns);
    CHECK(b.kernel.utilisation == a.kernel.utilisation);
    CHECK(b.verdict_text == a.verdict_text);

    // Our CSV and our trace JSON give the same trace text.
    const auto ev = sample_events();
    std::ostringstream csv, from_csv, from_json, direct;
    {
        csv_sink s(csv);
        for (const event& e : ev) s.record(e);
    }
    write_chrome_trace(from_csv, parse_log(csv.str(), "csv").events);
    write_chrome_trace(direct, ev);
    write_chrome_trace(from_json, parse_log(direct.str(), "json").events);
    // (parse sorts by time; sample_events is in time order)
    CHECK(from_csv.str() == direct.str());
    CHECK(from_json.str() == direct.str());
}

TEST_CASE("D2H spans are device work", "[timeline]")
{
    // A device stage with a D2H copy after its MSM, on device 0:
    //   MSM_L [10, 20), D2H [20, 22), then idle to the next NTT at 30.
    std::vector<event> v;
    v.push_back(inst(5, "GPU_START", "J", 0, 0, 0));
    span(v, 10, 20, "MSM_L", "J", 0, 0, 0);
    span(v, 20, 22, "D2H", "J", 0, 0, 0);
    span(v, 30, 40, "NTT", "J", 0, 0, 0);
    v.push_back(inst(41, "GPU_END", "J", 0, 0, 0));
    CHECK(is_device_work(v[3]));
    event host = v[3];
    host.device = -1;
    CHECK_FALSE(is_device_work(host));
    const analysis a = analyse(v);
    CHECK(a.source == busy_source::device_spans);
    REQUIRE(a.devices.size() == 1);
    CHECK(a.devices[0].busy_ns == 22 * ms);   // 10 + 2 + 10
    CHECK(a.devices[0].busy == std::vector<interval>{{10 * ms, 22 * ms}, {30 * ms, 40 * ms}});
    REQUIRE(a.partitions.size() == 1);
    CHECK(a.partitions[0].device_work_ns == 22 * ms);
}

TEST_CASE("copies over the bus: link busy, bytes, rate, link-bound verdict and bus rows", "[timeline]")
{
    // One partition of job J on device 0: H2D chunk copies with their bytes
    // at [0, 40) and [45, 85) (the link), MSM spans [40, 45) and [85, 90)
    // (device work): the device is busy 10 of its 90 ms window, the link 80.
    std::vector<event> v;
    v.push_back(inst(0, "GPU_START", "J", 0, 0, 0));
    for (uint64_t t : {0, 45}) {
        span(v, t, t + 40, "H2D", "J", 0, 0, 0);
        v[v.size() - 2].details = {{"query", "h"}, {"bytes", "2000000000"}};
        span(v, t + 40, t + 45, "MSM_H", "J", 0, 0, 0);
    }
    v.push_back(inst(90, "GPU_END", "J", 0, 0, 0));
    CHECK(copy_bytes(v[1]) == 2000000000);
    CHECK_FALSE(is_device_work(v[1]));
    CHECK(copy_bytes(v[3]) == 0);   // MSM_H: no bytes
    CHECK(is_device_work(v[3]));
    const analysis a = analyse(v);
    REQUIRE(a.devices.size() == 1);
    const device_report& d = a.devices[0];
    CHECK(d.busy_ns == 10 * ms);
    CHECK(d.link_busy_ns == 80 * ms);
    CHECK(d.link_bytes == 4000000000u);
    CHECK(d.link_gbps == Approx(50.0));   // 4 GB in 80 ms
    CHECK(d.utilisation == Approx(10.0 / 50.0));   // the device's window is 40 .. 90 ms
    CHECK(d.link_share == Approx(80.0 / 90.0));    // stretched over the copies: 0 .. 90 ms
    CHECK(a.bus_bytes == 4000000000u);
    CHECK(a.bus_bytes_per_proof == Approx(4e9));   // one completed job
    CHECK(a.verdict == verdict_kind::link_bound);
    CHECK(a.verdict_text.find("link-bound") == 0);
    const std::string text = render_text(a);
    CHECK(text.find("bus: 4.0 GB copied host to device, 4.0 GB per proof") != std::string::npos);
    CHECK(text.find("dev 0 bus") != std::string::npos);
    CHECK(text.find("> (bus rows) copying host to device") != std::string::npos);
    // A bad bytes detail is no copy.
    event bad = v[1];
    bad.details = {{"bytes", "12x"}};
    CHECK(copy_bytes(bad) == 0);
    CHECK(d.memory_high_water == 0);   // no DEVICE_MEMORY events: no memory line
    CHECK(text.find("held at most") == std::string::npos);
}

TEST_CASE("the device memory high-water mark: the largest DEVICE_MEMORY figure per device, in the summary", "[timeline]")
{
    std::vector<event> v;
    v.push_back(inst(0, "GPU_START", "J", 0, 0, 0));
    span(v, 0, 10, "MSM_H", "J", 0, 0, 0);
    v.push_back(inst(10, "GPU_END", "J", 0, 0, 0));
    for (const char* hw : {"84250000000", "70000000000", "bad"}) {
        event m = inst(11, "DEVICE_MEMORY", "", -1, -1, 0);
        m.details = {{"high_water", hw}};
        v.push_back(m);
    }
    CHECK(memory_high_water(v.back()) == 0);   // not a number
    CHECK(memory_high_water(v[0]) == 0);       // another event
    const analysis a = analyse(v);
    REQUIRE(a.devices.size() == 1);
    CHECK(a.devices[0].memory_high_water == 84250000000u);
    CHECK(render_text(a).find("memory: dev 0 held at most 84.25 GB") != std::string::npos);
}
