// `cuzk porep circuit | setup | c2 | verify`: the PoRep circuit's size, a
// development key for a shape, C2 (every partition of a C1 output through
// the proving engine), and verification of the concatenated proof.
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <exception>
#include <fstream>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "cuzk/backend/cuda.hpp"
#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/parameters.hpp"
#include "cuzk/filecoin/porep/c1_json.hpp"
#include "cuzk/filecoin/porep/challenges.hpp"
#include "cuzk/filecoin/porep/circuit.hpp"
#include "cuzk/filecoin/porep/prove.hpp"
#include "cuzk/filecoin/porep/vanilla_verify.hpp"
#include "cuzk/io/bellperson.hpp"
#include "cuzk/io/mapped_file.hpp"
#include "cuzk/timeline/analysis.hpp"
#include "cuzk/timeline/render.hpp"
#include "cuzk/timeline/sinks.hpp"
#include "cuzk/util/parallel.hpp"
#include "cli_util.hpp"
#include "engine_report.hpp"
#include "porep_commands.hpp"

namespace cuzk::cli::porep {

using io::json;
namespace fc = filecoin;

namespace {

using steady = std::chrono::steady_clock;

void write_file(const std::string& path, std::span<const uint8_t> bytes)
{
    io::output_file f(path);
    f.write(bytes);
    f.close();
}

// Counts proved partitions (GPU_END instants) for the progress lines.
struct partition_counter final : timeline::sink {
    std::atomic<uint64_t> n{0};
    void record(const timeline::event& e) noexcept override
    {
        if (e.ph == timeline::phase::instant && e.name == "GPU_END") n.fetch_add(1, std::memory_order_relaxed);
    }
    uint64_t count() const { return n.load(std::memory_order_relaxed); }
};

fc::c1_output read_c1(const std::string& path)
{
    return fc::read_c1_json(io::read_text_file(path), path);
}

} // namespace

fc::seal_config circuit_shape(const options& o)
{
    if (o.has("--sector-size") == o.has("--nodes")) throw usage_error("give exactly one of --sector-size and --nodes");
    if (o.has("--sector-size")) {
        const uint64_t bytes = fc::parse_sector_size(o.get("--sector-size"));
        for (int id = 5; id <= 9; ++id)
            if (fc::registered_seal_proof(id).sector_bytes() == bytes) return fc::registered_seal_proof(id);
        throw usage_error(fmt::format("--sector-size: no Filecoin sector has {} bytes", bytes));
    }
    fc::tree_shape t;
    const std::string ts = o.get_or("--tree", "8-0-0");
    if (std::sscanf(ts.c_str(), "%u-%u-%u", &t.base, &t.sub, &t.top) != 3 || t.name() != ts)
        throw usage_error(fmt::format("--tree: expected A-B-C (e.g. 8-0-0), got '{}'", ts));
    return fc::seal_config::custom(o.get_u64("--nodes", 2, uint64_t(1) << 32), unsigned(o.get_u64_or("--layers", 1, 15, 2)),
                                   unsigned(o.get_u64_or("--challenges", 1, 18, 2)), t, fc::porep_id_of(5));
}

int porep_circuit_cmd(const options& o)
{
    const fc::seal_config c = circuit_shape(o);
    return print_circuit_size(o, fc::porep_circuit(c),
                              {{"shape", json::string(fmt::format("{} nodes, {} layers, {} challenges, tree {}", c.nodes,
                                                                  c.layers, c.challenges_per_partition,
                                                                  c.tree.name()))}});
}

int porep_setup(const options& o)
{
    const fc::seal_config c = circuit_shape(o);
    const bool gpu = use_gpu(o);
    const unsigned threads = unsigned(o.get_u64_or("--threads", 0, 1024, 0));
    auto t0 = steady::now();
    std::fprintf(stderr, "cuzk porep setup: recording the circuit (%llu nodes, %u layers, %u challenges, tree %s)\n",
                 (unsigned long long)c.nodes, c.layers, c.challenges_per_partition, c.tree.name().c_str());
    auto pce = fc::record_porep_pce(c, threads);
    std::fprintf(stderr, "cuzk porep setup: %llu constraints recorded in %.1f s; making the key on the %s\n",
                 (unsigned long long)pce->num_constraints, secs_since(t0), gpu ? "GPU" : "CPU");
    t0 = steady::now();
    const fc::porep_key k = fc::porep_dev_setup(pce, gpu, threads);
    std::fprintf(stderr, "cuzk porep setup: key made in %.1f s (single-party development key, NOT a trusted ceremony)\n",
                 secs_since(t0));
    io::write_params(o.get("--out"), *k.pk);
    io::write_vk(o.get("--vk"), k.pk->vk);
    print_result(json::object({{"params", json::string(o.get("--out"))},
                               {"vk", json::string(o.get("--vk"))},
                               {"constraints", json::number(uint64_t(pce->num_constraints))},
                               {"inputs", json::number(uint64_t(pce->num_inputs))},
                               {"aux", json::number(uint64_t(pce->num_aux))}}),
                 o.has("--json"));
    return 0;
}

// Says where the circuit came from (recorded, or the --pce-cache file).
void print_circuit_source(const fc::porep_pce_source& s)
{
    if (!s.note.empty()) std::fprintf(stderr, "cuzk porep c2: %s\n", s.note.c_str());
    if (s.loaded)
        std::fprintf(stderr, "cuzk porep c2: the circuit (its PCE) mapped from %s in %.1f s\n", s.path.c_str(),
                     s.seconds);
    else
        std::fprintf(stderr, "cuzk porep c2: the circuit (its PCE) recorded%s%s in %.1f s\n",
                     s.saved ? " and written to " : "", s.saved ? s.path.c_str() : "", s.seconds);
}

// The key C2 proves with: a .params file, or (--dev-key) a development key
// made in memory for the C1 output's shape, its .vk written when --vk is given.
// On the GPU the .params file is only mapped here: the engine decodes its
// points chunk by chunk straight into device memory when it registers the
// key; the CPU prover needs them in RAM, so the CPU path decodes them here.
fc::porep_key c2_key(const options& o, const fc::seal_config& c, bool gpu, unsigned threads)
{
    if (o.has("--params") == o.has("--dev-key")) throw usage_error("give exactly one of --params and --dev-key");
    const std::string cache = o.has("--pce-cache") ? o.get("--pce-cache") : std::string();
    fc::porep_pce_source src;
    const auto t0 = steady::now();
    if (o.has("--params")) {
        if (o.has("--parameters-json")) {
            fc::check_params_digest(o.get("--params"), o.get("--parameters-json"));
            std::fprintf(stderr, "cuzk porep c2: %s matches its entry in %s\n", o.get("--params").c_str(),
                         o.get("--parameters-json").c_str());
        }
        fc::porep_key k = gpu ? fc::map_porep_key(c, o.get("--params"), cache, &src)
                              : fc::load_porep_key(c, o.get("--params"), threads, cache, &src);
        print_circuit_source(src);
        std::fprintf(stderr, "cuzk porep c2: key %s %s, with its circuit, in %.1f s\n", o.get("--params").c_str(),
                     gpu ? "mapped (decoded onto the devices as the engine registers it)" : "loaded", secs_since(t0));
        return k;
    }
    auto pce = fc::porep_pce(c, cache, &src, threads);
    print_circuit_source(src);
    fc::porep_key k = fc::porep_dev_setup(std::move(pce), gpu, threads);
    std::fprintf(stderr, "cuzk porep c2: development key (NOT a trusted ceremony) made on the %s in %.1f s\n",
                 gpu ? "GPU" : "CPU", secs_since(t0));
    if (o.has("--vk")) io::write_vk(o.get("--vk"), k.pk->vk);
    return k;
}

// The proofs of a --repeat run: the last proof, each proof's seconds (one
// after the other: from its submission to its result; --concurrent: from the
// common start, in the order they finished), and the wall time of the run.
struct c2_runs {
    fc::c2_output out;
    json seconds = json::array();
    double wall = 0;
};

// One proof after the other, with a progress line per partition.
c2_runs prove_in_turn(pipeline::engine& eng, pipeline::key_id key, const fc::c1_output& c1, unsigned repeat,
                      const partition_counter& done)
{
    c2_runs runs;
    const auto t_all = steady::now();
    for (unsigned r = 0; r < repeat; ++r) {
        const auto t0 = steady::now();
        uint64_t shown = done.count();
        runs.out = fc::porep_c2(eng, key, c1, [&](unsigned, unsigned total) {
            if (done.count() == shown) return;
            shown = done.count();
            std::fprintf(stderr, "cuzk porep c2: %.1f s, %llu/%u partitions proved\n", secs_since(t0),
                         (unsigned long long)(shown - r * total), total);
        });
        runs.seconds.push_back(json::number(fmt::format("{:.3f}", secs_since(t0))));
    }
    runs.wall = secs_since(t_all);
    return runs;
}

// Every proof submitted at once (one thread each, the engine queues their
// partitions), so that the device goes from one proof's partitions to the
// next without waiting for a synthesis; the first failure is rethrown after
// all have finished. All proofs are of the same C1 output, so they are equal
// up to their randomness; the last one is written. The threads race to
// submit, so proofs are counted, and their times listed, in the order they
// finish.
c2_runs prove_concurrent(pipeline::engine& eng, pipeline::key_id key, const fc::c1_output& c1, unsigned repeat)
{
    std::vector<fc::c2_output> outs(repeat);
    std::vector<double> secs(repeat, 0);
    std::vector<std::exception_ptr> errs(repeat);
    std::atomic<unsigned> finished{0};
    const auto t_all = steady::now();
    {
        std::vector<std::jthread> th;
        for (unsigned r = 0; r < repeat; ++r)
            th.emplace_back([&, r] {
                try {
                    outs[r] = fc::porep_c2(eng, key, c1);
                    secs[r] = secs_since(t_all);
                    std::fprintf(stderr, "cuzk porep c2: %u of %u proofs done at %.1f s\n", ++finished, repeat, secs[r]);
                } catch (...) {
                    errs[r] = std::current_exception();
                }
            });
    }
    for (const std::exception_ptr& e : errs)
        if (e) std::rethrow_exception(e);
    c2_runs runs;
    runs.wall = secs_since(t_all);
    std::sort(secs.begin(), secs.end());
    for (double s : secs) runs.seconds.push_back(json::number(fmt::format("{:.3f}", s)));
    runs.out = std::move(outs.back());
    std::fprintf(stderr, "cuzk porep c2: %u proofs at once in %.1f s: %.2f s per proof\n", repeat, runs.wall,
                 runs.wall / repeat);
    return runs;
}

int porep_c2(const options& o)
{
    if (o.has("--concurrent") && !o.has("--repeat")) throw usage_error("--concurrent goes with --repeat N");
    const std::string& c1_path = o.positional()[0];
    const unsigned threads = unsigned(o.get_u64_or("--threads", 0, 1024, 0));
    // Flags are checked before any file is read or key made (the backend
    // included: --backend cuda without a GPU is refused here).
    const uint64_t device_budget = o.has("--device-memory-budget")
                                       ? parse_size("--device-memory-budget", o.get("--device-memory-budget"))
                                       : 0;
    const unsigned max_batch = unsigned(o.get_u64_or("--batch", 1, 1024, 0));
    const uint64_t chunk_bytes = o.has("--chunk-size") ? parse_size("--chunk-size", o.get("--chunk-size")) : 0;
    const uint64_t host_budget = host_memory_budget(o);
    if (o.has("--chunk-size") && chunk_bytes < 192)
        throw usage_error("--chunk-size: at least one point (192 bytes)");
    const unsigned repeat = unsigned(o.get_u64_or("--repeat", 1, 100, 1));
    const unsigned synth_workers = unsigned(o.get_u64_or("--synth-workers", 1, 64, 2));
    const unsigned h_copies_gb = unsigned(o.get_u64_or("--h-copies-gb", 0, 1024, 0));
    const bool gpu = use_gpu(o);
    const device_choice dc = parse_devices(o, gpu);
    const fc::c1_output c1 = read_c1(c1_path);
    try {
        fc::verify_c1(c1, threads);
    } catch (const error& e) {
        throw error(e.code(), fmt::format("{}: {}", c1_path, e.what()));
    }
    const fc::porep_key k = c2_key(o, c1.config, gpu, threads);

    timeline::recorder rec;
    partition_counter done;
    timeline::fan_out sinks;
    sinks.add(std::shared_ptr<timeline::sink>(&rec, [](timeline::sink*) {}));
    sinks.add(std::shared_ptr<timeline::sink>(&done, [](timeline::sink*) {}));
    pipeline::engine_config ec;
    ec.backend = gpu ? pipeline::engine_backend::cuda : pipeline::engine_backend::cpu;
    ec.cuda_devices = dc.cuda;
    ec.devices = gpu ? 0 : dc.cpu;
    ec.synth_workers = synth_workers;
    // Each synthesis runs the circuit's parallel witness on its share of the cores.
    ec.synth_threads = std::max(1u, resolve_threads(threads) / ec.synth_workers);
    ec.sink = &sinks;
    ec.device_memory_budget = device_budget;
    ec.host_memory_budget = host_budget;
    ec.max_batch = max_batch;
    pipeline::engine eng(ec);
    auto t_add = steady::now();
    pipeline::key_options ko{"porep"};
    ko.h_copies_bytes = uint64_t(h_copies_gb) << 30;
    ko.host_decode = o.has("--host-decode");
    ko.stream_chunk_bytes = chunk_bytes;
    const auto key = fc::add_porep_key(eng, k, ko);
    const auto placement = report_key("cuzk porep c2", eng, key, k.params != nullptr, secs_since(t_add));
    const bool concurrent = o.has("--concurrent");
    const c2_runs runs = concurrent ? prove_concurrent(eng, key, c1, repeat) : prove_in_turn(eng, key, c1, repeat, done);
    write_file(o.get("--out"), runs.out.proof);
    const std::vector<timeline::event> events = rec.events();
    if (o.has("--timeline")) write_timeline(o.get("--timeline"), events);
    if (o.has("--waterfall")) std::fputs(timeline::render_text(timeline::analyse(events)).c_str(), stderr);
    report_device_memory("cuzk porep c2", eng);
    if (const uint64_t sb = eng.streamed_bytes(key))
        std::fprintf(stderr, "cuzk porep c2: the key's points crossed the bus %.1f GB (%.1f GB per proof)\n", sb / 1e9,
                     sb / 1e9 / repeat);
    json result = json::object({{"proof", json::string(o.get("--out"))},
                                {"bytes", json::number(uint64_t(runs.out.proof.size()))},
                                {"partitions", json::number(uint64_t(c1.partitions.size()))},
                                {"backend", json::string(gpu ? "cuda" : "cpu")},
                                {"key", json::string(placement_name(placement))},
                                {"seconds", runs.seconds}});
    if (concurrent) {
        result.set("wall_seconds", json::number(fmt::format("{:.3f}", runs.wall)));
        result.set("seconds_per_proof", json::number(fmt::format("{:.3f}", runs.wall / repeat)));
    }
    print_result(result, o.has("--json"));
    return 0;
}

int porep_verify_cmd(const options& o)
{
    const groth16::verifying_key vk = io::read_vk(o.get("--vk"));
    const io::mapped_file proof(o.get("--proof"));
    fc::seal_config cfg;
    fc::domain rid, comm_d, comm_r, seed;
    if (o.has("--c1")) {
        const fc::c1_output c1 = read_c1(o.get("--c1"));
        cfg = c1.config;
        rid = c1.replica_id, comm_d = c1.comm_d, comm_r = c1.comm_r, seed = c1.seed;
    } else {
        const porep_id_arg pid = parse_porep_id(o);
        if (pid.registered < 0) throw usage_error("--porep-id: give a registered proof number (the shape comes from it)");
        cfg = fc::registered_seal_proof(pid.registered);
        comm_d = hex32(o, "--comm-d"), comm_r = hex32(o, "--comm-r"), seed = hex32(o, "--seed");
        rid = fc::replica_id(hex32(o, "--prover-id"), o.get_u64("--sector-id", 0, UINT64_MAX), hex32(o, "--ticket"),
                             comm_d, cfg.porep_id);
    }
    if (fc::porep_verify(vk, proof.bytes(), cfg, rid, comm_d, comm_r, seed)) {
        std::printf("OK\n");
        return 0;
    }
    std::printf("INVALID: %s does not verify under %s for these commitments and seed\n", o.get("--proof").c_str(),
                o.get("--vk").c_str());
    return 1;
}

} // namespace cuzk::cli::porep
