// `cuzk bench`: N proofs × P partitions through the proving engine at job
// concurrency J, on the built-in SHA-256 preimage circuit (--blocks B sets
// its size) or on a snarkjs .zkey with a .wtns, curve bls12381 or bn128 (every
// partition proves that witness). Prints s/proof, proofs/min, the prover's utilisation (from the
// timeline), peak RSS, stage medians and the bottleneck verdict, or with
// --waterfall the waterfall and its summary instead of the short figures;
// verifies every proof; optionally writes the timeline (CSV, or Chrome trace
// JSON when the file ends in .json).
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "cli_util.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "progress.hpp"
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
    "bench [--proofs N] [--partitions P] [--jobs J] [--blocks B | --zkey F --wtns F] [engine flags] [output flags]";
const char* const bench_about =
    "Proofs through the proving engine: synthesis workers build each partition's witness, prove workers run its "
    "NTTs and multi-scalar multiplications (MSMs) on the GPU (backend cuda) or on CPU threads standing in for one "
    "(backend cpu, called the CPU prover), a CPU tail finishes each proof. Workload: the built-in SHA-256 preimage "
    "circuit (~26k constraints per block), or a snarkjs key (bls12381 or bn128) whose witness every partition proves. Every proof is "
    "verified after the run (not timed); the exit status is 0 only when all are valid.";

constexpr flag_spec bench_flags[] = {
    {"--proofs", "N", "proofs (jobs) to run (default 2); also -n N"},
    {"--partitions", "P", "partitions per proof (default 4); also -p P"},
    {"--jobs", "J", "proofs in flight at once (default 2); also -j J"},
    {"-n", "N", "short for --proofs"},
    {"-p", "P", "short for --partitions"},
    {"-j", "J", "short for --jobs"},
    {"--blocks", "B", "SHA-256 blocks per partition, 1 ... 4096 (default 1)"},
    {"--seed", "S", "message seed (default 1)"},
    {"--zkey", "F", "a snarkjs proving key (.zkey, curve bls12381 or bn128) instead of the built-in circuit"},
    {"--wtns", "F", "its witness (.wtns)"},
    {"--backend", "auto|cpu|cuda", "where the prove stage runs (default auto: the GPU when one is usable)"},
    {"--synth-workers", "S", "partitions synthesized at once (default 2)"},
    {"--synth-threads", "T", "threads per synthesis (default 1; 0 = all)"},
    {"--lookahead", "L", "synthesized partitions that may wait for the prover (default 2)"},
    {"--devices", "LIST", "CUDA devices to prove on, e.g. 0,2 (default: every visible GPU)"},
    {"--cpu-devices", "N", "devices the CPU prover models, each with its lock and workers (default 1)"},
    {"--gpu-workers", "W", "prove workers per device, sharing its lock (default 2)"},
    {"--partitions-per-call", "K", "partitions of one key a prove worker runs per lock hold (default 1)"},
    {"--device-threads", "D", "threads of the CPU prover (default 0 = all)"},
    {"--tail-threads", "T", "CPU-tail threads (default 1; 0 = tails run on the prove workers)"},
    {"--verify", nullptr, "the engine verifies every proof as it ends (the default)"},
    {"--no-verify", nullptr, "no engine self-verify"},
    {"--mem-budget", "SIZE", "host memory budget for partitions in flight, e.g. 512MiB, 2G (default unlimited)"},
    {"--batch", "N", "GPU, a key streamed from host memory: at most N partitions proved together, each chunk of points copied once for all (default: as the device's plan fits; 1: one at a time)"},
    {"--device-memory-budget", "SIZE", "device memory budget: resident keys and prove scratch (default unlimited)"},
    {"--timeline", "FILE", "write the timeline: CSV lines, or Chrome trace JSON when FILE ends in .json"},
    {"--waterfall", nullptr, "print the waterfall and its summary instead of the short figures"},
    {"--width", "N", "waterfall width, 40 ... 100000 (default $COLUMNS or 100)"},
    {"--no-progress", nullptr, "no progress on stderr"},
};

struct bench_opts {
    unsigned proofs = 2, partitions = 4, jobs = 2, blocks = 1;
    uint64_t seed = 1;
    std::string zkey_path, wtns_path, timeline_path;
    pipeline::engine_config ec;
    std::string why_cpu;   // why the CPU prover: "--backend cpu" or why no GPU is usable
    bool waterfall = false;
    unsigned width = 0;
};

// An integer flag in [lo, 10^9] given by its long or short name.
unsigned count_flag(const options& o, const char* flag, const char* alias, unsigned lo, unsigned fallback)
{
    if (alias && o.has(alias)) {
        if (o.has(flag)) throw usage_error(fmt::format("give {} or {}, not both", flag, alias));
        flag = alias;
    }
    return unsigned(o.get_u64_or(flag, lo, 1'000'000'000, fallback));
}

void parse_engine(const options& o, pipeline::engine_config& ec)
{
    ec.synth_workers = count_flag(o, "--synth-workers", nullptr, 1, 2);
    ec.synth_threads = count_flag(o, "--synth-threads", nullptr, 0, 1);
    ec.lookahead = count_flag(o, "--lookahead", nullptr, 1, 2);
    ec.workers_per_device = count_flag(o, "--gpu-workers", nullptr, 1, 2);
    ec.partitions_per_call = count_flag(o, "--partitions-per-call", nullptr, 1, 1);
    ec.max_batch = count_flag(o, "--batch", nullptr, 1, 0);
    ec.device_threads = count_flag(o, "--device-threads", nullptr, 0, 0);
    ec.tail_threads = count_flag(o, "--tail-threads", nullptr, 0, 1);
    if (o.has("--verify") && o.has("--no-verify")) throw usage_error("give --verify or --no-verify, not both");
    ec.self_verify = !o.has("--no-verify");
    if (o.has("--mem-budget")) ec.host_memory_budget = parse_size("--mem-budget", o.get("--mem-budget"));
    if (o.has("--device-memory-budget"))
        ec.device_memory_budget = parse_size("--device-memory-budget", o.get("--device-memory-budget"));
    const bool gpu = choose_gpu(o);
    ec.backend = gpu ? pipeline::engine_backend::cuda : pipeline::engine_backend::cpu;
    const device_choice dc = parse_devices(o, gpu);
    ec.cuda_devices = dc.cuda;
    ec.devices = gpu ? 0 : dc.cpu;
}

// The built-in circuit's host memory before anything is made: its key (at
// least 400 bytes a constraint: the points of H, L, A and B and the PCE;
// setup's own vectors come on top) and every partition's message, against
// what this process can get; refused naming the flags.
void check_bench_memory(const bench_opts& b)
{
    const uint64_t per_block = r1cs::record(sha256_preimage_circuit::blank(1)).num_constraints;
    const uint64_t key = uint64_t(b.blocks) * per_block * 400;
    const uint64_t messages = uint64_t(b.proofs) * b.partitions * sha256_preimage_circuit::max_message_bytes(b.blocks);
    require_host_memory("--blocks and --partitions", key + messages,
                        fmt::format("a key for {} SHA-256 blocks and the messages of {} partitions", b.blocks,
                                    uint64_t(b.proofs) * b.partitions));
}

bench_opts parse(const options& o)
{
    bench_opts b;
    b.proofs = count_flag(o, "--proofs", "-n", 1, 2);
    b.partitions = count_flag(o, "--partitions", "-p", 1, 4);
    b.jobs = count_flag(o, "--jobs", "-j", 1, 2);
    b.blocks = unsigned(o.get_u64_or("--blocks", 1, 4096, 1));
    b.seed = o.get_u64_or("--seed", 0, UINT64_MAX, 1);
    b.zkey_path = o.get_or("--zkey", "");
    b.wtns_path = o.get_or("--wtns", "");
    if (b.zkey_path.empty() != b.wtns_path.empty()) throw usage_error("--zkey and --wtns go together");
    if (!b.zkey_path.empty() && o.has("--blocks")) throw usage_error("--blocks is for the built-in circuit, not --zkey");
    if (b.zkey_path.empty()) check_bench_memory(b);
    b.timeline_path = o.get_or("--timeline", "");
    b.waterfall = o.has("--waterfall");
    b.width = unsigned(o.get_u64_or("--width", 40, 100000, 0));
    set_progress_enabled(!o.has("--no-progress"));
    parse_engine(o, b.ec);
    return b;
}

double secs(steady::duration d) { return std::chrono::duration<double>(d).count(); }

// What the report calls the prover: the backend's own words.
timeline::render_options words_of(const bench_opts& o)
{
    timeline::render_options ro;
    const bool gpu = o.ec.backend == pipeline::engine_backend::cuda;
    ro.device_word = gpu ? "GPU" : "CPU prover";
    ro.device_short = gpu ? "gpu" : "cpu";
    return ro;
}

// ---- the workload ----------------------------------------------------------------------

// A snarkjs key and the witness every partition proves, over the file's curve.
template <class C>
struct snarkjs_work {
    using curve = C;
    std::shared_ptr<const groth16::proving_key_t<C>> pk;
    std::shared_ptr<const std::vector<typename C::fr>> wtns;
};

struct workload {
    // The built-in circuit: its key, PCE and density, one circuit per partition.
    std::shared_ptr<const groth16::proving_key> pk;
    std::shared_ptr<const r1cs::pce> pce;
    groth16::query_density density;
    std::vector<std::shared_ptr<const sha256_preimage_circuit>> circuits;
    std::optional<per_curve<snarkjs_work>> snarkjs;   // --zkey: a snarkjs key and witness instead
    bool snark() const { return snarkjs.has_value(); }
};

// The key and witness of curve C, their sizes checked against each other.
template <class C>
snarkjs_work<C> read_snarkjs(const bench_opts& o)
{
    using F = typename C::fr;
    progress_step step("cuzk bench", "reading " + o.zkey_path + " and " + o.wtns_path);
    auto z = read_as("--zkey, the proving key",
                     [&] { return std::make_shared<io::zkey_t<C>>(io::read_zkey<C>(o.zkey_path)); });
    auto wt = read_as("--wtns, the witness",
                      [&] { return std::make_shared<const std::vector<F>>(io::read_wtns<F>(o.wtns_path)); });
    step.end();
    std::shared_ptr<const groth16::proving_key_t<C>> pk(z, &z->pk);
    const size_t want = size_t(pk->num_inputs) + pk->num_aux;
    if (wt->size() != want)
        throw error(errc::invalid_argument, fmt::format("--wtns {}: {} values, the key {} expects {}", o.wtns_path,
                                                        wt->size(), o.zkey_path, want));
    std::printf("cuzk bench: snarkjs key %s (curve %s): %u constraints, %u private signals, %u public signals; "
                "witness %s\n",
                o.zkey_path.c_str(), C::snarkjs_name, pk->n_constraints, pk->num_aux, pk->num_inputs - 1,
                o.wtns_path.c_str());
    std::printf("  key: domain 2^%d\n", int(__builtin_ctzll(pk->domain_size)));
    return {pk, wt};
}

workload load_snarkjs(const bench_opts& o)
{
    workload w;
    const auto t0 = steady::now();
    const curve_id c = read_as("--zkey, the proving key", [&] { return io::snarkjs_file_curve(o.zkey_path); });
    w.snarkjs = with_curve(c, [&](auto cv) { return per_curve<snarkjs_work>(read_snarkjs<decltype(cv)>(o)); });
    std::printf("  key and witness read in %.2f s\n", secs(steady::now() - t0));
    return w;
}

workload make_sha256(const bench_opts& o)
{
    workload w;
    auto t0 = steady::now();
    progress_step step("cuzk bench", "recording the circuit and setting up its key");
    auto p = std::make_shared<r1cs::pce>(r1cs::record(sha256_preimage_circuit::blank(o.blocks)));
    const double t_pce = secs(steady::now() - t0);
    t0 = steady::now();
    w.pk = std::make_shared<groth16::proving_key>(
        groth16::setup_bellperson(groth16::describe(*p), &w.density, {o.ec.device_threads}));
    step.end();
    w.pce = p;
    std::printf("cuzk bench: SHA-256 preimage circuit, %s: %llu constraints, %u aux (private) variables, %s\n",
                count_of(o.blocks, "block").c_str(), (unsigned long long)p->num_constraints, p->num_aux,
                count_of(p->num_inputs - 1, "public input").c_str());
    std::printf("  key: domain 2^%d; recorded in %.2f s, set up in %.2f s (single-party dev key, NOT a trusted "
                "ceremony)\n",
                int(__builtin_ctzll(w.pk->domain_size)), t_pce, secs(steady::now() - t0));
    std::mt19937_64 rng(o.seed);
    for (unsigned i = 0; i < o.proofs * o.partitions; ++i) {
        std::vector<uint8_t> m(sha256_preimage_circuit::max_message_bytes(o.blocks));
        for (auto& b : m) b = uint8_t(rng());
        w.circuits.push_back(std::make_shared<sha256_preimage_circuit>(std::move(m)));
    }
    return w;
}

// ---- the timeline: in memory for the analysis, a counter for progress, the file on request

// Counts finished partitions (GPU_END) for the progress line.
struct progress_counter final : timeline::sink {
    std::atomic<uint64_t> partitions{0};
    void record(const timeline::event& e) noexcept override
    {
        if (e.ph == timeline::phase::instant && e.name == "GPU_END") partitions.fetch_add(1, std::memory_order_relaxed);
    }
};

struct timeline_out {
    std::shared_ptr<timeline::recorder> rec = std::make_shared<timeline::recorder>();
    std::shared_ptr<progress_counter> counter = std::make_shared<progress_counter>();
    std::shared_ptr<timeline::fan_out> fan = std::make_shared<timeline::fan_out>();
    std::ofstream file;
    std::shared_ptr<timeline::chrome_trace_sink> chrome;
    std::string path;

    explicit timeline_out(const std::string& p) : path(p)
    {
        fan->add(rec);
        fan->add(counter);
        if (path.empty()) return;
        file.open(path, std::ios::binary | std::ios::trunc);
        if (!file) throw error(errc::io, fmt::format("--timeline {}: cannot create: {}", path, std::strerror(errno)));
        if (path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0) {
            chrome = std::make_shared<timeline::chrome_trace_sink>(file);
            fan->add(chrome);
        } else {
            fan->add(std::make_shared<timeline::csv_sink>(file));
        }
    }
    void finish()
    {
        if (chrome) chrome->finish();
        if (!file.is_open()) return;
        file.close();
        if (!file) throw error(errc::io, fmt::format("--timeline {}: write failed", path));
    }
};

std::string threads_txt(unsigned n) { return n ? std::to_string(n) : std::string("all"); }

void print_engine(const bench_opts& o)
{
    const auto& ec = o.ec;
    if (ec.backend == pipeline::engine_backend::cuda) {
        std::vector<int> devs = ec.cuda_devices;
        if (devs.empty())
            for (int d = 0; d < cuda_device_count(); ++d) devs.push_back(d);
        std::printf("  backend cuda: the prove stage on %s\n", count_of(devs.size(), "GPU").c_str());
        for (size_t i = 0; i < devs.size(); ++i) {
            const cuda_device_scope on(devs[i]);
            std::printf("    device %zu = CUDA %d: %s\n", i, devs[i], cuda_device_info().c_str());
        }
    } else {
        std::printf("  backend cpu: the prove stage (NTTs, MSMs) on %s CPU threads under one lock per device (%s), "
                    "called the CPU prover below (%s)\n",
                    threads_txt(ec.device_threads).c_str(), count_of(std::max(1u, ec.devices), "device").c_str(),
                    o.why_cpu.c_str());
    }
    std::printf("  engine: %s x %s, lookahead %u, %s per device x %s per lock hold, %s, self-verify %s; "
                "memory budget %s host, %s device\n",
                count_of(ec.synth_workers, "synthesis worker").c_str(),
                ec.synth_threads ? count_of(ec.synth_threads, "thread").c_str() : "all threads",
                ec.lookahead, count_of(ec.workers_per_device, "prove worker").c_str(),
                count_of(ec.partitions_per_call, "partition").c_str(), count_of(ec.tail_threads, "tail thread").c_str(),
                ec.self_verify ? "on" : "off",
                ec.host_memory_budget ? human_size(ec.host_memory_budget).c_str() : "unlimited",
                ec.device_memory_budget ? human_size(ec.device_memory_budget).c_str() : "unlimited");
    std::printf("  run: %s x %s, %u in flight\n", count_of(o.proofs, "proof").c_str(),
                count_of(o.partitions, "partition").c_str(), std::min(o.jobs, o.proofs));
    std::fflush(stdout);
}

// ---- the run ----------------------------------------------------------------------------

// Progress of the run on stderr: a bar redrawn in place on a terminal, a
// plain line per finished proof otherwise.
struct run_progress {
    bool on = progress_enabled(), tty = stderr_is_terminal();
    unsigned reported = 0;
    void show(uint64_t parts, uint64_t parts_total, unsigned ended, unsigned proofs, double t, bool last)
    {
        if (!on) return;
        if (!tty) {
            for (; reported < ended; ++reported)
                std::fprintf(stderr, "cuzk bench: proof %u of %u done (%llu of %llu partitions, %.1f s)\n",
                             reported + 1, proofs, (unsigned long long)parts, (unsigned long long)parts_total, t);
            return;
        }
        const unsigned cells = 30, filled = parts_total ? unsigned(cells * parts / parts_total) : 0;
        std::string bar(filled, '#');
        bar.append(cells - filled, '.');
        std::fprintf(stderr, "\r\033[K  [%s] %llu/%llu partitions, %u/%u proofs, %.1f s%s", bar.c_str(),
                     (unsigned long long)parts, (unsigned long long)parts_total, ended, proofs, t, last ? "\n" : "");
    }
};

struct run_result {
    std::vector<pipeline::job_handle> handles;
    double wall = 0;
    pipeline::engine_stats stats;
    uint64_t partition_bytes = 0, device_bytes = 0;
};

pipeline::proof_request request(const bench_opts& o, const workload& w, pipeline::key_id key, unsigned job)
{
    pipeline::proof_request req;
    req.key = key;
    req.id = fmt::format("proof-{}", job);
    for (unsigned p = 0; p < o.partitions; ++p) {
        // Built in place: GCC 12 misreads a moved-from variant temporary as
        // uninitialized (-Wmaybe-uninitialized) at -O3.
        if (w.snarkjs)
            std::visit(
                [&](const auto& s) {
                    using C = typename std::decay_t<decltype(s)>::curve;
                    req.partitions.emplace_back(std::in_place_type<pipeline::full_witness_partition_t<C>>, *s.wtns);
                },
                *w.snarkjs);
        else
            req.partitions.emplace_back(std::in_place_type<pipeline::circuit_partition>,
                                        w.circuits[job * o.partitions + p]);
    }
    return req;
}

// A snarkjs key of either curve registered on the engine (a BLS12-381 one
// with no PCE).
pipeline::key_id add_snarkjs_key(pipeline::engine& eng, std::shared_ptr<const groth16::proving_key> pk)
{
    return eng.add_key(std::move(pk), nullptr, {"zkey", 0});
}
pipeline::key_id add_snarkjs_key(pipeline::engine& eng, std::shared_ptr<const groth16::proving_key_t<bn254_curve>> pk)
{
    return eng.add_key(std::move(pk), {"zkey", 0});
}

// Keeps J jobs in flight until all N have ended.
run_result run(const bench_opts& o, const workload& w, timeline_out& tl)
{
    run_result r;
    r.handles.resize(o.proofs);
    std::mutex m;
    std::condition_variable cv;
    unsigned ended = 0, submitted = 0;
    pipeline::engine_config ec = o.ec;
    ec.sink = tl.fan.get();
    pipeline::engine eng(ec);
    const pipeline::key_id key =
        w.snarkjs ? std::visit([&](const auto& s) { return add_snarkjs_key(eng, s.pk); }, *w.snarkjs)
                  : eng.add_key(w.pk, w.pce, w.density, {"sha256", 0});
    r.partition_bytes = eng.partition_bytes(key);
    r.device_bytes = eng.device_bytes(key);
    if (ec.host_memory_budget && r.partition_bytes > ec.host_memory_budget)
        throw usage_error(fmt::format("--mem-budget {}: one partition needs about {}; no proof could ever run",
                                      human_size(ec.host_memory_budget), human_size(r.partition_bytes)));
    auto submit_one = [&] {
        pipeline::proof_request req = request(o, w, key, submitted);
        req.on_done = [&](const pipeline::job_result&) {
            std::lock_guard lk(m);
            ++ended;
            cv.notify_all();
        };
        r.handles[submitted] = eng.submit(std::move(req));
        ++submitted;
    };
    run_progress bar;
    const uint64_t parts_total = uint64_t(o.proofs) * o.partitions;
    const auto t0 = steady::now();
    std::unique_lock lk(m);
    for (;;) {
        while (submitted < o.proofs && submitted - ended < o.jobs) {
            lk.unlock();
            submit_one();
            lk.lock();
        }
        if (ended == o.proofs) break;
        cv.wait_for(lk, std::chrono::milliseconds(200));
        bar.show(tl.counter->partitions.load(), parts_total, ended, o.proofs, secs(steady::now() - t0), false);
    }
    r.wall = secs(steady::now() - t0);
    bar.show(tl.counter->partitions.load(), parts_total, ended, o.proofs, r.wall, true);
    r.stats = eng.stats();
    return r;
}

// ---- the results ------------------------------------------------------------------------

std::string median_txt(const timeline::stage_stats& s)
{
    if (s.count == 0) return "-";
    return fmt::format("{} (p90 {})", timeline::format_duration(s.median), timeline::format_duration(s.p90));
}

// The short figures (without --waterfall): throughput, stage medians, utilisation, verdict.
void print_figures(const run_result& r, unsigned completed, const timeline::analysis& an,
                   const timeline::render_options& ro)
{
    const std::string& d = ro.device_word;
    std::printf("\n  wall %.2f s for %s: %.3f s/proof, %.2f proofs/min\n", r.wall, count_of(completed, "proof").c_str(),
                completed ? r.wall / completed : 0.0, completed ? 60.0 * completed / r.wall : 0.0);
    std::printf("  per partition, median (p90): synthesis %s, queued %s, %s stage %s, %s work %s\n",
                median_txt(an.synth).c_str(), median_txt(an.queue_wait).c_str(), d.c_str(),
                median_txt(an.device_stage).c_str(), d.c_str(), median_txt(an.device_work).c_str());
    std::printf("  %s utilisation: %.1f %% (%s)\n", d.c_str(), 100.0 * an.utilisation,
                timeline::in_device_words(timeline::source_name(an.source), ro).c_str());
    std::printf("%s", timeline::in_device_words("  verdict: " + an.verdict_text + "\n", ro).c_str());
}

void print_resources(const run_result& r, const timeline::render_options& ro)
{
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    std::string held;   // per device: its lock held, share of the wall time, and its partitions
    for (size_t d = 0; d < r.stats.device_busy_ns.size(); ++d) {
        const double f = r.wall > 0 ? double(r.stats.device_busy_ns[d]) * 1e-9 / r.wall : 0;
        held += fmt::format("{}{}{:.1f} % ({})", d ? ", " : "", r.stats.device_busy_ns.size() > 1 ? fmt::format("device {} ", d) : "",
                            100.0 * f, count_of(r.stats.device_partitions[d], "partition"));
    }
    std::printf("  %s lock held of the wall time: %s; %s calls\n", ro.device_word.c_str(), held.c_str(),
                std::to_string(r.stats.device_calls).c_str());
    std::printf("  memory: peak RSS %s; estimate %s host per partition in flight, %s %s per prove; peak budget "
                "reserved %s host, %s %s\n",
                human_size(uint64_t(ru.ru_maxrss) * 1024).c_str(), human_size(r.partition_bytes).c_str(),
                human_size(r.device_bytes).c_str(), ro.device_word.c_str(), human_size(r.stats.memory_peak).c_str(),
                r.stats.device_memory_peak.empty()
                    ? "-"
                    : human_size(*std::max_element(r.stats.device_memory_peak.begin(), r.stats.device_memory_peak.end()))
                          .c_str(),
                ro.device_word.c_str());
}

// Verifies every partition proof independently of the engine's self-verify:
// the public inputs are the witness's public signals, or the circuit's digest.
// A check of partition p of job i.
using partition_check = std::function<bool(const pipeline::partition_result&, unsigned i, unsigned p)>;

template <class C>
partition_check snarkjs_check(const snarkjs_work<C>& s)
{
    auto pvk = std::make_shared<const groth16::prepared_verifying_key_t<C>>(groth16::prepare_verifying_key(s.pk->vk));
    std::vector<typename C::fr> expect(s.wtns->begin() + 1, s.wtns->begin() + s.pk->num_inputs);
    return [pvk, expect](const pipeline::partition_result& res, unsigned, unsigned) {
        const pipeline::curve_proof<C>& out = res.get<C>();
        return out.public_inputs == expect && groth16::verify<C>(*pvk, out.proof, expect);
    };
}

partition_check circuit_check(const bench_opts& o, const workload& w)
{
    auto pvk = std::make_shared<const groth16::prepared_verifying_key>(groth16::prepare_verifying_key(w.pk->vk));
    return [&o, &w, pvk](const pipeline::partition_result& res, unsigned i, unsigned p) {
        const auto a = groth16::synthesize_witness(*w.circuits[i * o.partitions + p]);
        const std::vector<fr> expect(a.inputs.begin() + 1, a.inputs.end());
        return res.public_inputs() == expect && groth16::verify(*pvk, res.proof(), expect);
    };
}

unsigned verify_all(const bench_opts& o, const workload& w, const run_result& r)
{
    const auto t0 = steady::now();
    progress_step step("cuzk bench", "verifying every proof");
    const partition_check check =
        w.snarkjs ? std::visit([](const auto& s) { return snarkjs_check(s); }, *w.snarkjs) : circuit_check(o, w);
    unsigned valid = 0;
    for (unsigned i = 0; i < o.proofs; ++i) {
        const auto& res = r.handles[i].result();
        if (res.status != pipeline::job_status::completed) continue;
        for (unsigned p = 0; p < o.partitions; ++p) {
            const auto& part = res.partitions[p];
            if (check(part, i, p)) ++valid;
            else std::printf("  INVALID: %s partition %u\n", res.id.c_str(), p);
        }
    }
    step.end();
    const unsigned total = o.proofs * o.partitions;
    std::printf("  verified %u of %u partition proofs in %.2f s: %s\n", valid, total, secs(steady::now() - t0),
                valid == total ? "all valid" : "FAILED");
    return valid;
}

} // namespace

int cmd_bench(args a)
{
    const options opts(a, bench_flags, 0, 0);
    if (opts.help()) return show_help(bench_usage, bench_about, bench_flags);
    bench_opts o = parse(opts);
    o.why_cpu = opts.get_or("--backend", "auto") == "cpu" ? "--backend cpu" : no_gpu_reason();

    const workload w = o.zkey_path.empty() ? make_sha256(o) : load_snarkjs(o);
    timeline_out tl(o.timeline_path);
    print_engine(o);
    const run_result r = run(o, w, tl);
    tl.finish();

    unsigned completed = 0;
    for (const auto& h : r.handles) {
        const auto& res = h.result();
        if (res.status == pipeline::job_status::completed) ++completed;
        else std::printf("  %s %s: %s\n", res.id.c_str(), pipeline::status_name(res.status), res.message.c_str());
    }
    const std::vector<timeline::event> events = tl.rec->events();
    const timeline::analysis an = timeline::analyse(events);
    timeline::render_options ro = words_of(o);
    if (!o.waterfall) print_figures(r, completed, an, ro);
    print_resources(r, ro);
    const unsigned valid = verify_all(o, w, r);
    if (!o.timeline_path.empty()) std::printf("  timeline: %s (%zu events)\n", o.timeline_path.c_str(), events.size());
    if (o.waterfall) {
        ro.width = o.width ? o.width : timeline::terminal_width();
        ro.title = w.snark() ? o.zkey_path : fmt::format("sha256 {}", count_of(o.blocks, "block"));
        std::printf("\n%s", timeline::render_text(an, ro).c_str());
    }
    std::fflush(stdout);
    return valid == o.proofs * o.partitions && completed == o.proofs ? 0 : 1;
}

} // namespace cuzk::cli
