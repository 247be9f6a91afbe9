// Registering a key from a mapped bellperson .params file on the GPU (the
// mapped gpu_key constructor, as the engine's add_key of a mapping runs it):
// the points decoded on the device (gpu_key_options::device_decode, the
// default) or on the host (all its threads), then kept resident.
//
// Args: log2 of the domain n; decode (1 on the device, 0 on the host). The
// file holds h: n − 1 points, l: n, a: n, b_g1: n/4 (G1) and b_g2: n/4 (G2),
// 1 input; synthetic points (bench_points: distinct group elements, not a
// setup's; decoding does not depend on their meaning). It is written once
// to the temporary folder and stays in the page cache across iterations, so
// the time is the registration from the page cache, as for a process that
// starts after the file was read once. No PCE.
//
// Manual time: the wall time of the constructor (the device buffers'
// allocation, the staging copies, the uploads and the decoding). Counters:
// GB (the file's point bytes) and GB_per_s. Without a device every benchmark
// reports SkipWithError.
#include <benchmark/benchmark.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <string>

#include "cuzk/backend/cuda.hpp"
#include "cuzk/backend/gpu_prover.hpp"
#include "cuzk/io/bellperson.hpp"

#include "bench_support.hpp"

using namespace cuzk;
using cuzk::bench::gpu_ok;
using cuzk::bench::bench_points;

namespace {

struct params_file {
    std::string path;
    groth16::query_density density;
    uint64_t point_bytes = 0;
    ~params_file() { std::filesystem::remove(path); }
};

// The key of domain 2^log_n written as a .params file (once per size; one
// file kept at a time).
const params_file& file_for(unsigned log_n)
{
    static std::map<unsigned, std::unique_ptr<params_file>> cache;
    auto& slot = cache[log_n];
    if (slot) return *slot;
    for (auto& [k, v] : cache)
        if (&v != &slot) v.reset();
    const size_t n = size_t{1} << log_n, nb = n / 4;
    groth16::proving_key pk;
    pk.conv = groth16::convention::bellperson;
    pk.num_inputs = 1;
    pk.num_aux = n;
    pk.domain_size = n;
    const std::vector<g1_affine> g1 = bench_points<g1_affine>(n, 1);
    pk.h.assign(g1.begin(), g1.end() - 1);
    pk.l = g1;
    pk.a = g1;   // the input, then n − 1 aux with a point
    pk.b_g1.assign(g1.begin(), g1.begin() + nb);
    pk.b_g2 = bench_points<g2_affine>(nb, 2);
    pk.vk.alpha_g1 = g1_affine::generator();
    pk.vk.beta_g1 = g1_affine::generator();
    pk.vk.beta_g2 = g2_affine::generator();
    pk.vk.gamma_g2 = g2_affine::generator();
    pk.vk.delta_g1 = g1_affine::generator();
    pk.vk.delta_g2 = g2_affine::generator();
    pk.vk.ic = {g1[0]};
    auto f = std::make_unique<params_file>();
    f->density.a_aux.assign(n, true);
    f->density.a_aux.back() = false;
    f->density.b_input = {true};
    f->density.b_aux.assign(n, false);
    for (size_t i = 0; i + 1 < nb; ++i) f->density.b_aux[i] = true;
    f->point_bytes = (pk.h.size() + pk.l.size() + pk.a.size() + pk.b_g1.size()) * 96 + pk.b_g2.size() * 192;
    f->path = (std::filesystem::temp_directory_path() / ("cuzk-bench-key-" + std::to_string(log_n) + ".params"))
                  .string();
    io::write_params(f->path, pk);
    slot = std::move(f);
    return *slot;
}

void bm_gpu_key_mapped(benchmark::State& st)
{
    if (!gpu_ok(st)) return;
    const params_file& f = file_for(unsigned(st.range(0)));
    const auto mp = std::make_shared<const io::mapped_params>(f.path);
    gpu_key_options opt;
    opt.device_decode = st.range(1) != 0;
    {
        const gpu_key warm(mp, f.density, nullptr, opt);   // the file into the page cache, the device warm
    }
    for (auto _ : st) {
        const auto t0 = std::chrono::steady_clock::now();
        const gpu_key key(mp, f.density, nullptr, opt);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (!key.resident()) {
            st.SkipWithError("the key is not resident on this device");
            return;
        }
        st.SetIterationTime(s);
    }
    st.counters["GB"] = double(f.point_bytes) / 1e9;
    st.counters["GB_per_s"] =
        benchmark::Counter(double(f.point_bytes) / 1e9, benchmark::Counter::kIsIterationInvariantRate);
}

} // namespace

BENCHMARK(bm_gpu_key_mapped)
    ->ArgsProduct({{20, 24}, {0, 1}})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3);
