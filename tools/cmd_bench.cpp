// `cuzk bench`: N proofs × P partitions through the proving engine at job
// concurrency J, on the built-in SHA-256 preimage circuit (--blocks B sets
// its size) or on a snarkjs .zkey with a .wtns (every partition proves that
// witness). Prints s/proof, proofs/min, device utilisation (from the
// timeline's device spans), peak RSS, stage medians and the bottleneck
// verdict; verifies every proof; optionally writes the timeline (CSV, or
// Chrome trace JSON when the file ends in .json) and prints the waterfall.
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"
#include "options.hpp"
#include "cuzk/backend/cuda.hpp"
#include "cuzk/error.hpp"
#include "cuzk/groth16/circuit.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/snarkjs.hpp"
#include "cuzk/pipeline/engine.hpp"
#include "cuzk/r1cs/gadgets/sha256.hpp"
#include "cuzk/timeline/analysis.hpp"
#include "cuzk/timeline/render.hpp"
#include "cuzk/timeline/sinks.hpp"

namespace cuzk::cli {

namespace {

using r1cs::gadgets::sha256_preimage_circuit;
using steady = std::chrono::steady_clock;

const char* const bench_usage =
    "usage: cuzk bench [--proofs N] [--partitions P] [--jobs J] [--blocks B | --zkey F --wtns F] [engine flags]\n"
    "                   [output flags]\n"
    "  workload (built-in SHA-256 preimage circuit, ~26k constraints per block):\n"
    "    --proofs N, -n N    proofs (jobs) to run (default 2)\n"
    "    --partitions P, -p P  partitions per proof (default 4)\n"
    "    --jobs J, -j J      proofs in flight at once (default 2)\n"
    "    --blocks B          SHA-256 blocks per partition (default 1)\n"
    "    --seed S            message seed (default 1)\n"
    "  or a snarkjs circuit (curve bls12381; every partition proves the same witness):\n"
    "    --zkey F            the proving key (.zkey)\n"
    "    --wtns F            the witness (.wtns)\n"
    "  engine:\n"
    "    --synth-workers S   partitions synthesized at once (default 2)\n"
    "    --synth-threads T   threads per synthesis (default 1; 0 = all)\n"
    "    --lookahead L       synthesized partitions that may wait for the device (default 2)\n"
    "    --gpu-workers W     prove workers per device, sharing its lock (default 2)\n"
    "    --partitions-per-call K  partitions of one key a prove worker runs per device-lock hold (default 1)\n"
    "    --backend cpu|cuda  where the device part runs (default cpu)\n"
    "    --device-threads D  threads of the CPU backend's device work (default 0 = all)\n"
    "    --tail-threads T    CPU-tail threads (default 1; 0 = tails run on the prove workers)\n"
    "    --verify | --no-verify   engine self-verify of every proof (default on)\n"
    "    --mem-budget SIZE   host memory budget for partitions in flight, e.g. 512MiB, 2G (default unlimited)\n"
    "    --device-memory-budget SIZE  device memory budget per device: resident keys and device parts\n"
    "                        (default unlimited; the cpu backend accounts its model estimate)\n"
    "  output:\n"
    "    --timeline FILE     write the timeline: CSV lines, or Chrome trace JSON when FILE ends in .json\n"
    "    --waterfall         print the waterfall and the timeline summary\n"
    "    --width N           waterfall width (default $COLUMNS or 100)\n"
    "    --no-progress       no progress line on stderr\n"
    "Every proof is verified after the run (not timed); the exit status is 0 only when all are valid.\n";

struct bench_opts {
    unsigned proofs = 2, partitions = 4, jobs = 2, blocks = 1;
    uint64_t seed = 1;
    std::string zkey_path, wtns_path;
    pipeline::engine_config ec;
    std::string timeline_path;
    bool waterfall = false;
    bool progress = true;
    unsigned width = 0;
};

// An integer flag in [lo, 10^9] (options.hpp's strict parser: usage_error).
unsigned long parse_uint(const std::string& flag, const std::string& v, unsigned long lo)
{
    return static_cast<unsigned long>(parse_u64(flag, v, lo, 1'000'000'000ul));
}

// "123", "512K", "512KiB", "1.5G", "2GB" (K/M/G/T are powers of 1024 with or
// without "iB"; "B" alone is bytes).
uint64_t parse_size(const std::string& flag, const std::string& v)
{
    char* end = nullptr;
    const double x = std::strtod(v.c_str(), &end);
    std::string unit(end);
    for (auto& ch : unit) ch = char(std::toupper(static_cast<unsigned char>(ch)));
    double mul = 1;
    if (unit.empty() || unit == "B") mul = 1;
    else if (unit == "K" || unit == "KB" || unit == "KIB") mul = 1024.0;
    else if (unit == "M" || unit == "MB" || unit == "MIB") mul = 1024.0 * 1024;
    else if (unit == "G" || unit == "GB" || unit == "GIB") mul = 1024.0 * 1024 * 1024;
    else if (unit == "T" || unit == "TB" || unit == "TIB") mul = 1024.0 * 1024 * 1024 * 1024;
    else mul = -1;
    if (v.empty() || end == v.c_str() || mul < 0 || !(x >= 0) || x * mul > 1.8e19)
        throw error(errc::invalid_argument, fmt::format("{}: '{}' is not a size (e.g. 4096, 512MiB, 2G)", flag, v));
    return uint64_t(std::llround(x * mul));
}

bench_opts parse(args a)
{
    bench_opts o;
    o.ec.synth_workers = 2;
    o.ec.synth_threads = 1;
    o.ec.lookahead = 2;
    o.ec.workers_per_device = 2;
    o.ec.device_threads = 0;
    o.ec.tail_threads = 1;
    o.ec.self_verify = true;
    for (size_t i = 0; i < a.size(); ++i) {
        const std::string s = a[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= a.size()) throw error(errc::invalid_argument, fmt::format("{} needs a value", s));
            return a[++i];
        };
        if (s == "--proofs" || s == "-n") o.proofs = unsigned(parse_uint(s, next(), 1));
        else if (s == "--partitions" || s == "-p") o.partitions = unsigned(parse_uint(s, next(), 1));
        else if (s == "--jobs" || s == "-j") o.jobs = unsigned(parse_uint(s, next(), 1));
        else if (s == "--blocks") o.blocks = unsigned(parse_uint(s, next(), 1));
        else if (s == "--seed") o.seed = parse_uint(s, next(), 0);
        else if (s == "--synth-workers") o.ec.synth_workers = unsigned(parse_uint(s, next(), 1));
        else if (s == "--synth-threads") o.ec.synth_threads = unsigned(parse_uint(s, next(), 0));
        else if (s == "--lookahead") o.ec.lookahead = unsigned(parse_uint(s, next(), 1));
        else if (s == "--gpu-workers") o.ec.workers_per_device = unsigned(parse_uint(s, next(), 1));
        else if (s == "--device-threads") o.ec.device_threads = unsigned(parse_uint(s, next(), 0));
        else if (s == "--tail-threads") o.ec.tail_threads = unsigned(parse_uint(s, next(), 0));
        else if (s == "--verify") o.ec.self_verify = true;
        else if (s == "--no-verify") o.ec.self_verify = false;
        else if (s == "--mem-budget") o.ec.host_memory_budget = parse_size(s, next());
        else if (s == "--device-memory-budget") o.ec.device_memory_budget = parse_size(s, next());
        else if (s == "--partitions-per-call") o.ec.partitions_per_call = unsigned(parse_uint(s, next(), 1));
        else if (s == "--backend") {
            const std::string b = next();
            if (b == "cpu") o.ec.backend = pipeline::engine_backend::cpu;
            else if (b == "cuda") o.ec.backend = pipeline::engine_backend::cuda;
            else throw error(errc::invalid_argument, fmt::format("--backend: '{}' is not cpu or cuda", b));
        }
        else if (s == "--zkey") o.zkey_path = next();
        else if (s == "--wtns") o.wtns_path = next();
        else if (s == "--timeline") o.timeline_path = next();
        else if (s == "--waterfall") o.waterfall = true;
        else if (s == "--width") o.width = unsigned(parse_uint(s, next(), 40));
        else if (s == "--no-progress") o.progress = false;
        else
            throw error(errc::invalid_argument, fmt::format("unknown argument '{}' (cuzk bench --help)", s));
    }
    if (o.zkey_path.empty() != o.wtns_path.empty())
        throw error(errc::invalid_argument, "--zkey and --wtns go together");
    return o;
}

double secs(steady::duration d) { return std::chrono::duration<double>(d).count(); }

std::string mib(uint64_t bytes) { return fmt::format("{:.1f} MiB", double(bytes) / 1048576.0); }

// Counts finished partitions (GPU_END) for the progress line.
struct progress_counter final : timeline::sink {
    std::atomic<uint64_t> partitions{0};
    void record(const timeline::event& e) noexcept override
    {
        if (e.ph == timeline::phase::instant && e.name == "GPU_END") partitions.fetch_add(1, std::memory_order_relaxed);
    }
};

void draw_progress(uint64_t parts_done, uint64_t parts_total, unsigned jobs_done, unsigned jobs_total, double t)
{
    const unsigned cells = 30;
    const unsigned filled = parts_total ? unsigned(cells * parts_done / parts_total) : 0;
    std::string bar(filled, '#');
    bar.append(cells - filled, '.');
    std::fprintf(stderr, "\r\033[K  [%s] %llu/%llu partitions, %u/%u proofs, %.1f s", bar.c_str(),
                 (unsigned long long)parts_done, (unsigned long long)parts_total, jobs_done, jobs_total, t);
    std::fflush(stderr);
}

std::string median_txt(const timeline::stage_stats& s)
{
    if (s.count == 0) return "-";
    return fmt::format("{} (p90 {})", timeline::format_duration(s.median), timeline::format_duration(s.p90));
}

} // namespace

int cmd_bench(args a)
{
    for (size_t i = 0; i < a.size(); ++i)
        if (!std::strcmp(a[i], "-h") || !std::strcmp(a[i], "--help")) {
            std::fputs(bench_usage, stdout);
            return 0;
        }
    bench_opts o = parse(a);
    const bool tty = o.progress && isatty(STDERR_FILENO);

    if (std::string why; o.ec.backend == pipeline::engine_backend::cuda && !cuda_available(&why))   // before the setup
        throw error(errc::unsupported, fmt::format("--backend cuda: CUDA is not available: {}", why));

    // ---- the workload: a snarkjs key and witness, or the built-in circuit with a development key
    const bool snark = !o.zkey_path.empty();
    auto t0 = steady::now();
    std::shared_ptr<const groth16::proving_key> pk;
    std::shared_ptr<const r1cs::pce> pce;
    groth16::query_density density;
    std::shared_ptr<const std::vector<fr>> wtns;   // snark: the witness every partition proves
    if (snark) {
        auto z = std::make_shared<io::zkey>(io::read_zkey(o.zkey_path));
        wtns = std::make_shared<const std::vector<fr>>(io::read_wtns(o.wtns_path));
        const double t_read = secs(steady::now() - t0);
        pk = std::shared_ptr<const groth16::proving_key>(z, &z->pk);
        std::printf("cuzk bench: snarkjs key %s: %u constraints, %u private signals, %u public signals; witness %s\n",
                    o.zkey_path.c_str(), pk->n_constraints, pk->num_aux, pk->num_inputs - 1, o.wtns_path.c_str());
        std::printf("  key: domain 2^%d; key and witness read in %.2f s\n", int(__builtin_ctzll(pk->domain_size)),
                    t_read);
        if (wtns->size() != size_t(pk->num_inputs) + pk->num_aux)
            throw error(errc::invalid_argument,
                        fmt::format("{}: {} values, the key {} expects {}", o.wtns_path, wtns->size(), o.zkey_path,
                                    size_t(pk->num_inputs) + pk->num_aux));
    } else {
        auto p = std::make_shared<r1cs::pce>(r1cs::record(sha256_preimage_circuit::blank(o.blocks)));
        pce = p;
        const double t_pce = secs(steady::now() - t0);
        std::printf("cuzk bench: SHA-256 preimage circuit, %u block(s): %llu constraints, %u aux, %u public inputs\n",
                    o.blocks, (unsigned long long)pce->num_constraints, pce->num_aux, pce->num_inputs - 1);
        std::fflush(stdout);
        t0 = steady::now();
        pk = std::make_shared<groth16::proving_key>(
            groth16::setup_bellperson(groth16::describe(*pce), &density, {o.ec.device_threads}));
        const double t_setup = secs(steady::now() - t0);
        std::printf("  key: domain 2^%d; recorded in %.2f s, set up in %.2f s (single-party dev key, NOT a trusted "
                    "ceremony)\n",
                    int(__builtin_ctzll(pk->domain_size)), t_pce, t_setup);
    }
    const groth16::prepared_verifying_key pvk = groth16::prepare_verifying_key(pk->vk);

    // ---- messages: one per partition, from the seed
    const unsigned n_parts_total = o.proofs * o.partitions;
    std::vector<std::shared_ptr<const sha256_preimage_circuit>> circuits;
    if (!snark) {
        std::mt19937_64 rng(o.seed);
        for (unsigned i = 0; i < n_parts_total; ++i) {
            std::vector<uint8_t> m(sha256_preimage_circuit::max_message_bytes(o.blocks));
            for (auto& b : m) b = uint8_t(rng());
            circuits.push_back(std::make_shared<sha256_preimage_circuit>(std::move(m)));
        }
    }

    // ---- timeline: in memory for the analysis, a counter for progress, the file on request
    auto rec = std::make_shared<timeline::recorder>();
    auto counter = std::make_shared<progress_counter>();
    auto fan = std::make_shared<timeline::fan_out>();
    fan->add(rec);
    fan->add(counter);
    std::ofstream tl_file;
    std::shared_ptr<timeline::chrome_trace_sink> chrome;
    if (!o.timeline_path.empty()) {
        tl_file.open(o.timeline_path, std::ios::binary | std::ios::trunc);
        if (!tl_file)
            throw error(errc::io, fmt::format("{}: cannot create: {}", o.timeline_path, std::strerror(errno)));
        const bool json = o.timeline_path.size() >= 5 &&
                          o.timeline_path.compare(o.timeline_path.size() - 5, 5, ".json") == 0;
        if (json) {
            chrome = std::make_shared<timeline::chrome_trace_sink>(tl_file);
            fan->add(chrome);
        } else {
            fan->add(std::make_shared<timeline::csv_sink>(tl_file));
        }
    }
    o.ec.sink = fan.get();

    const auto& ec = o.ec;
    std::printf("  engine: backend %s; %u synthesis worker(s) x %s thread(s), lookahead %u, 1 device x %u prove "
                "worker(s) x %u partition(s) per call (device threads %s), %u tail thread(s), self-verify %s, memory "
                "budget %s host, %s device\n",
                pipeline::backend_name(ec.backend), ec.synth_workers,
                ec.synth_threads ? std::to_string(ec.synth_threads).c_str() : "all", ec.lookahead,
                ec.workers_per_device, ec.partitions_per_call,
                ec.device_threads ? std::to_string(ec.device_threads).c_str() : "all", ec.tail_threads,
                ec.self_verify ? "on" : "off", ec.host_memory_budget ? mib(ec.host_memory_budget).c_str() : "unlimited",
                ec.device_memory_budget ? mib(ec.device_memory_budget).c_str() : "unlimited");
    std::printf("  run: %u proof(s) x %u partition(s), %u in flight\n", o.proofs, o.partitions, o.jobs);
    std::fflush(stdout);

    // ---- run
    std::vector<pipeline::job_handle> handles(o.proofs);
    std::mutex m;
    std::condition_variable cv;
    unsigned ended = 0;
    steady::time_point t_start, t_end;
    pipeline::engine_stats st;
    {
        pipeline::engine eng(o.ec);
        const pipeline::key_id key =
            snark ? eng.add_key(pk, nullptr, {"zkey", 0}) : eng.add_key(pk, pce, density, {"sha256", 0});
        std::printf("  memory estimate: %s host per partition in flight, %s device per device part\n",
                    mib(eng.partition_bytes(key)).c_str(), mib(eng.device_bytes(key)).c_str());
        std::fflush(stdout);
        unsigned submitted = 0;
        auto submit_one = [&] {
            pipeline::proof_request req;
            req.key = key;
            req.id = fmt::format("proof-{}", submitted);
            for (unsigned p = 0; p < o.partitions; ++p) {
                if (snark) req.partitions.push_back(pipeline::full_witness_partition{*wtns});
                else req.partitions.push_back(pipeline::circuit_partition{circuits[submitted * o.partitions + p]});
            }
            req.on_done = [&](const pipeline::job_result&) {
                std::lock_guard lk(m);
                ++ended;
                cv.notify_all();
            };
            handles[submitted] = eng.submit(std::move(req));
            ++submitted;
        };
        t_start = steady::now();
        for (unsigned j = 0; j < o.jobs && submitted < o.proofs; ++j) submit_one();
        std::unique_lock lk(m);
        for (;;) {
            // Keep J jobs in flight: one new job per ended one.
            while (submitted < o.proofs && submitted - ended < o.jobs) {
                lk.unlock();
                submit_one();
                lk.lock();
            }
            if (ended == o.proofs) break;
            cv.wait_for(lk, std::chrono::milliseconds(200));
            if (tty)
                draw_progress(counter->partitions.load(), n_parts_total, ended, o.proofs, secs(steady::now() - t_start));
        }
        t_end = steady::now();
        lk.unlock();
        if (tty) {
            draw_progress(counter->partitions.load(), n_parts_total, ended, o.proofs, secs(t_end - t_start));
            std::fprintf(stderr, "\n");
        }
        st = eng.stats();
    }
    if (chrome) chrome->finish();
    if (tl_file.is_open()) {
        tl_file.close();
        if (!tl_file) throw error(errc::io, fmt::format("{}: write failed", o.timeline_path));
    }

    // ---- results
    const double wall = secs(t_end - t_start);
    unsigned completed = 0;
    for (const auto& h : handles) {
        const auto& r = h.result();
        if (r.status == pipeline::job_status::completed) ++completed;
        else std::printf("  %s %s: %s\n", r.id.c_str(), pipeline::status_name(r.status), r.message.c_str());
    }
    std::printf("\n  wall %.2f s for %u proof(s): %.3f s/proof, %.2f proofs/min\n", wall, completed,
                completed ? wall / completed : 0.0, completed ? 60.0 * completed / wall : 0.0);

    const std::vector<timeline::event> events = rec->events();
    const timeline::analysis an = timeline::analyse(events);
    std::printf("  per partition: synthesis %s, queue wait %s, device stage %s, device work %s\n",
                median_txt(an.synth).c_str(), median_txt(an.queue_wait).c_str(), median_txt(an.device_stage).c_str(),
                median_txt(an.device_work).c_str());
    const double lock_util = wall > 0 && !st.device_busy_ns.empty() ? double(st.device_busy_ns[0]) * 1e-9 / wall : 0;
    std::printf("  device utilisation: %.1f %% (%s); device lock held %.1f %% of the wall time\n",
                100.0 * an.utilisation, timeline::source_name(an.source), 100.0 * lock_util);
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    std::printf("  peak RSS %s; peak budget reserved %s host, %s device; %llu device call(s) for %llu partition(s)\n",
                mib(uint64_t(ru.ru_maxrss) * 1024).c_str(), mib(st.memory_peak).c_str(),
                st.device_memory_peak.empty() ? "-" : mib(st.device_memory_peak[0]).c_str(),
                (unsigned long long)st.device_calls, (unsigned long long)st.partitions_proved);

    // Verify every proof (independently of the engine's self-verify).
    t0 = steady::now();
    unsigned valid = 0, checked = 0;
    for (unsigned i = 0; i < o.proofs; ++i) {
        const auto& r = handles[i].result();
        if (r.status != pipeline::job_status::completed) continue;
        for (unsigned p = 0; p < o.partitions; ++p) {
            // The public inputs: the witness's public signals, or what the
            // circuit commits to (its digest) from a plain witness run.
            std::vector<fr> expect;
            if (snark) {
                expect.assign(wtns->begin() + 1, wtns->begin() + pk->num_inputs);
            } else {
                const auto w = groth16::synthesize_witness(*circuits[i * o.partitions + p]);
                expect.assign(w.inputs.begin() + 1, w.inputs.end());
            }
            ++checked;
            if (r.partitions[p].public_inputs == expect && groth16::verify(pvk, r.partitions[p].proof, expect))
                ++valid;
            else
                std::printf("  INVALID: %s partition %u\n", r.id.c_str(), p);
        }
    }
    std::printf("  verified %u of %u partition proofs (%u checked) in %.2f s: %s\n", valid, n_parts_total, checked,
                secs(steady::now() - t0),
                valid == n_parts_total ? "all valid" : "FAILED");
    if (!o.timeline_path.empty()) std::printf("  timeline: %s (%zu events)\n", o.timeline_path.c_str(), events.size());
    std::printf("  verdict: %s\n", an.verdict_text.c_str());
    if (o.waterfall) {
        timeline::render_options ro;
        ro.width = o.width ? o.width : timeline::terminal_width();
        ro.title = snark ? fmt::format("cuzk bench: {} x {} partitions, {}", o.proofs, o.partitions, o.zkey_path)
                         : fmt::format("cuzk bench: {} x {} partitions, sha256 {} block(s)", o.proofs, o.partitions,
                                       o.blocks);
        std::printf("\n%s", timeline::render_text(an, ro).c_str());
    }
    std::fflush(stdout);
    return valid == n_parts_total && completed == o.proofs ? 0 : 1;
}

} // namespace cuzk::cli
