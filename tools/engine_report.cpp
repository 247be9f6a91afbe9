// What the Filecoin proving commands report about an engine run
// (engine_report.hpp).
#include "engine_report.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>

#include <fmt/format.h>

#include "cuzk/backend/device_plan.hpp"
#include "cuzk/error.hpp"
#include "cuzk/io/bellperson.hpp"
#include "cuzk/timeline/sinks.hpp"
#include "cuzk/util/parallel.hpp"
#include "cli_util.hpp"

namespace cuzk::cli {

pipeline::engine_config proof_engine(const options& o, bool gpu, unsigned partitions, unsigned threads)
{
    pipeline::engine_config ec;
    ec.backend = gpu ? pipeline::engine_backend::cuda : pipeline::engine_backend::cpu;
    const device_choice dc = parse_devices(o, gpu);
    ec.cuda_devices = dc.cuda;
    ec.devices = gpu ? 0 : dc.cpu;
    ec.synth_workers = std::max(1u, std::min(2u, partitions));
    ec.synth_threads = std::max(1u, resolve_threads(threads) / ec.synth_workers);
    ec.device_threads = threads;
    if (o.has("--device-memory-budget"))
        ec.device_memory_budget = parse_size("--device-memory-budget", o.get("--device-memory-budget"));
    if (o.has("--batch")) ec.max_batch = unsigned(o.get_u64("--batch", 1, 1024));
    ec.host_memory_budget = host_memory_budget(o);
    return ec;
}

filecoin::porep_key proof_key(const options& o, const char* who, bool gpu,
                              const std::function<filecoin::porep_key(const std::string&)>& params,
                              const std::function<filecoin::porep_key()>& dev)
{
    if (o.has("--params") == o.has("--dev-key")) throw usage_error("give exactly one of --params and --dev-key");
    if (o.has("--vk") && !o.has("--dev-key")) throw usage_error("--vk goes with --dev-key");
    const auto t0 = std::chrono::steady_clock::now();
    if (o.has("--params")) {
        filecoin::porep_key k = params(o.get("--params"));
        std::fprintf(stderr, "%s: key %s %s, with its circuit, in %.1f s\n", who, o.get("--params").c_str(),
                     gpu ? "mapped (decoded onto the devices as the engine registers it)" : "loaded", secs_since(t0));
        return k;
    }
    filecoin::porep_key k = dev();
    std::fprintf(stderr, "%s: development key (NOT a trusted ceremony) made on the %s in %.1f s\n", who,
                 gpu ? "GPU" : "CPU", secs_since(t0));
    if (o.has("--vk")) io::write_vk(o.get("--vk"), k.pk->vk);
    return k;
}

const char* placement_name(pipeline::engine::key_placement p)
{
    return p == pipeline::engine::key_placement::host       ? "host"
           : p == pipeline::engine::key_placement::resident ? "resident"
                                                            : "streamed";
}

pipeline::engine::key_placement report_key(const char* who, const pipeline::engine& eng, pipeline::key_id key,
                                           bool mapped, double seconds)
{
    const auto placement = eng.placement(key);
    if (placement == pipeline::engine::key_placement::host) {
        std::fprintf(stderr, "%s: key registered in %.1f s\n", who, seconds);
        return placement;
    }
    if (mapped) {
        const pipeline::key_registration_timings rt = eng.registration_timings(key);
        std::fprintf(stderr,
                     "%s: key registered on the devices in %.1f s (index lists %.1f s, circuit %.1f s, points %.1f s)\n",
                     who, seconds, rt.layout_s, rt.pce_s, rt.points_s);
    } else {
        std::fprintf(stderr, "%s: key registered on the devices in %.1f s\n", who, seconds);
    }
    const unsigned batch = eng.batch(key);
    const std::string streamed =
        batch > 1 ? fmt::format("streamed: the devices cannot hold its points beside a prove, so they are copied from "
                                "host memory once for each batch of up to {} partitions",
                                batch)
                  : std::string("streamed: the devices cannot hold its points beside a prove, so they are copied "
                                "from host memory at every prove (slower)");
    std::fprintf(stderr, "%s: key %s (%.1f GB on each device)\n", who,
                 placement == pipeline::engine::key_placement::resident ? "resident on the devices" : streamed.c_str(),
                 eng.resident_bytes(key) / 1e9);
    const std::vector<gpu_plan> plans = eng.plans(key);
    for (size_t d = 0; d < plans.size(); ++d)
        std::fprintf(stderr, "%s: device %zu plan: %s\n", who, d, plans[d].summary().c_str());
    return placement;
}

void report_device_memory(const char* who, const pipeline::engine& eng)
{
    if (eng.config().backend != pipeline::engine_backend::cuda) return;
    const pipeline::engine_stats st = eng.stats();
    const uint64_t budget = eng.config().device_memory_budget;
    for (size_t d = 0; d < st.device_memory_high_water.size(); ++d)
        std::fprintf(stderr, "%s: device %zu held at most %.2f GB of device memory%s\n", who, d,
                     st.device_memory_high_water[d] / 1e9,
                     budget ? fmt::format(" (budget {:.2f} GB)", budget / 1e9).c_str() : "");
}

void write_timeline(const std::string& path, const std::vector<timeline::event>& events)
{
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    if (!f) throw error(errc::io, fmt::format("{}: cannot create", path));
    const bool json = path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0;
    {
        std::unique_ptr<timeline::sink> s;
        if (json) s = std::make_unique<timeline::chrome_trace_sink>(f);
        else s = std::make_unique<timeline::csv_sink>(f);
        for (const auto& e : events) s->record(e);
        s->flush();
    }
    if (!f.flush()) throw error(errc::io, fmt::format("{}: write failed", path));
}

} // namespace cuzk::cli
