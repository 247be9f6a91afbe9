// cuzk — the setup's point half on the GPU (backend/gpu_setup.hpp).
#include "cuzk/backend/gpu_setup.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <vector>

#include "cuzk/error.hpp"
#include "cuzk/util/parallel.hpp"

#if CUZK_WITH_CUDA
#include "backend/bridge/setup_bridge.hpp"
#endif

namespace cuzk {

namespace {

using clock = std::chrono::steady_clock;
[[maybe_unused]] uint64_t ns_since(clock::time_point t0)
{
    return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(clock::now() - t0).count());
}

[[maybe_unused]] unsigned pick_window(unsigned requested, uint64_t expected)
{
    if (requested != 0) {
        if (requested > 20)
            throw error(errc::invalid_argument, fmt::format("gpu setup: window bits {} exceed 20", requested));
        return requested;
    }
    return expected >= (uint64_t{1} << 20) ? 16 : 8;
}

#if CUZK_WITH_CUDA

// The window table of the generator: windows·(2^w − 1) affine points,
// entry k·(2^w − 1) + d − 1 = d·2^(wk)·G. One worker per window: 2^w − 1
// mixed additions from 2^(wk)·G (w·k doublings), converted to affine in one
// batch. Cost at w = 16: 65535 additions per window (G1 ~30 ms, G2 ~0.2 s).
template <class Aff>
std::vector<Aff> window_table(unsigned w, unsigned windows, unsigned threads)
{
    using Jac = decltype(Aff{}.to_jacobian());
    const size_t per = (size_t{1} << w) - 1;
    std::vector<Aff> t(size_t(windows) * per);
    parallel_tasks(threads, windows, [&](size_t k, unsigned) {
        Jac base = Aff::generator().to_jacobian();
        for (size_t i = 0; i < size_t(w) * k; ++i) base = base.dbl();
        const Aff b = base.to_affine();
        std::vector<Jac> tmp(per);
        Jac acc = b.to_jacobian();
        for (size_t d = 0; d < per; ++d) {
            tmp[d] = acc;
            acc = acc.add(b);
        }
        batch_to_affine(tmp.data(), t.data() + k * per, per);
    });
    return t;
}

class gpu_backend final : public groth16::fixed_base_backend {
public:
    gpu_backend(const gpu_setup_options& opt, uint64_t e1, uint64_t e2)
        : th_(opt.threads),
          w1_(pick_window(opt.window_bits_g1, e1)),
          w2_(pick_window(opt.window_bits_g2, e2)),
          chunk_(opt.chunk_points ? opt.chunk_points : uint64_t{1} << 22)
    {
    }
    ~gpu_backend() override
    {
        setup_bridge::table_destroy(h1_);
        setup_bridge::table_destroy(h2_);
    }
    void g1(std::span<const fr> k, std::span<g1_affine> out) override
    {
        check(k.size(), out.size());
        if (!h1_) {
            const auto t0 = clock::now();
            const unsigned W = (255 + w1_ - 1) / w1_;
            const auto tab = window_table<g1_affine>(w1_, W, th_);
            h1_ = setup_bridge::table_create_g1(tab.data(), w1_, W);
            tables_ns += ns_since(t0);
        }
        kernel_ms += setup_bridge::fixed_base_g1(h1_, k.data(), k.size(), out.data(), chunk_);
    }
    void g2(std::span<const fr> k, std::span<g2_affine> out) override
    {
        check(k.size(), out.size());
        if (!h2_) {
            const auto t0 = clock::now();
            const unsigned W = (255 + w2_ - 1) / w2_;
            const auto tab = window_table<g2_affine>(w2_, W, th_);
            h2_ = setup_bridge::table_create_g2(tab.data(), w2_, W);
            tables_ns += ns_since(t0);
        }
        kernel_ms += setup_bridge::fixed_base_g2(h2_, k.data(), k.size(), out.data(), chunk_);
    }

    uint64_t tables_ns = 0;
    double kernel_ms = 0;

private:
    static void check(size_t k, size_t out)
    {
        if (k != out)
            throw error(errc::invalid_argument,
                        fmt::format("gpu fixed base: {} scalars but room for {} points", k, out));
    }
    unsigned th_, w1_, w2_;
    uint64_t chunk_;
    bridge::fixed_base_table h1_ = nullptr;
    bridge::fixed_base_table h2_ = nullptr;
};

#endif

} // namespace

#if CUZK_WITH_CUDA

std::unique_ptr<groth16::fixed_base_backend> gpu_fixed_base(const gpu_setup_options& opt, uint64_t expected_g1,
                                                            uint64_t expected_g2)
{
    return std::make_unique<gpu_backend>(opt, expected_g1, expected_g2);
}

groth16::proving_key gpu_setup_bellperson(const r1cs::pce& p, const groth16::toxic_waste& waste,
                                          groth16::query_density* density_out, const gpu_setup_options& opt,
                                          gpu_setup_timings* timings)
{
    const auto t0 = clock::now();
    gpu_setup_timings tm;
    groth16::bellperson_scalars s = groth16::bellperson_setup_scalars(p, waste, opt.threads);
    tm.scalars_ns = ns_since(t0);
    if (density_out) *density_out = s.density;
    const uint64_t n1 = s.ic.size() + s.l.size() + s.a.size() + s.b.size() + (s.domain_size - 1) + 3;
    const uint64_t n2 = s.b.size() + 3;
    gpu_backend be(opt, n1, n2);
    const auto t1 = clock::now();
    const uint64_t chunk = opt.chunk_points ? opt.chunk_points : uint64_t{1} << 22;
    groth16::proving_key pk = groth16::bellperson_key_from_scalars(std::move(s), be, opt.threads, chunk);
    tm.tables_ns = be.tables_ns;
    tm.points_ns = ns_since(t1) - be.tables_ns;
    tm.kernel_ms = be.kernel_ms;
    tm.total_ns = ns_since(t0);
    if (timings) *timings = tm;
    return pk;
}

#else

std::unique_ptr<groth16::fixed_base_backend> gpu_fixed_base(const gpu_setup_options&, uint64_t, uint64_t)
{
    throw error(errc::unsupported, "gpu_fixed_base: cuzk was built without CUDA (CUZK_CUDA=OFF or no nvcc)");
}

groth16::proving_key gpu_setup_bellperson(const r1cs::pce&, const groth16::toxic_waste&, groth16::query_density*,
                                          const gpu_setup_options&, gpu_setup_timings*)
{
    throw error(errc::unsupported, "gpu_setup_bellperson: cuzk was built without CUDA (CUZK_CUDA=OFF or no nvcc)");
}

#endif

} // namespace cuzk
