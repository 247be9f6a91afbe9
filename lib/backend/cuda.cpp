// cuzk — the host side of the CUDA backend (include/cuzk/backend/cuda.hpp):
// argument checks, the window choice, the roots of unity, and the final
// combination of the MSM's window sums. The device work is behind the bridge
// (lib/backend/bridge/cuda_bridge.hpp, kernels/*.cu). Built without CUDA,
// every entry point throws errc::unsupported and cuda_available() says why.
#include "cuzk/backend/cuda.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "cuzk/error.hpp"

#if CUZK_WITH_CUDA
#include "backend/bridge/cuda_bridge.hpp"
#include "backend/bridge/prove_bridge.hpp"
#include "backend/msm_combine.hpp"
#endif

namespace cuzk {

namespace {

[[maybe_unused]] bool is_pow2(size_t n) { return n != 0 && (n & (n - 1)) == 0; }

[[maybe_unused]] unsigned log2_exact(size_t n)
{
    unsigned l = 0;
    while ((size_t{1} << l) < n) ++l;
    return l;
}

#if !CUZK_WITH_CUDA
[[noreturn]] void no_cuda(const char* fn)
{
    throw error(errc::unsupported, fmt::format("{}: cuzk was built without CUDA (CUZK_CUDA=OFF or no nvcc)", fn));
}
#endif

} // namespace

// ---- window choice ----------------------------------------------------------------------
// Estimated device time in units of one Fp multiplication M, per window size c
// with W = ceil((bits + 1)/c) windows and H = 2^(c−1) buckets per window:
//   n·W·(10 + 1)   one mixed XYZZ addition per non-zero digit (8M + 2S), plus
//                  the sort, gather and bookkeeping per entry (~1 M, measured
//                  as time per sorted pair against the multiply rate)
//   W·H·30         bucket reduction: two full XYZZ additions (12M + 2S) per
//                  bucket, plus the later levels' additions (about 3 per 8
//                  segments) and doublings
// The buckets must fit in 8 GiB (W·H·sizeof(xyzz)); c <= 22 for G1, 20 for G2.
// For G2 every M is an Fp2 multiplication (3 Fp M); the ratio, and so c, is
// the same.
unsigned gpu_msm_window_bits(size_t n, bool g2, unsigned scalar_bits)
{
    scalar_bits = std::clamp(scalar_bits, 1u, 256u);
    if (n == 0) return 1;
    const unsigned cmax = g2 ? 20 : 22;
    const double xyzz_bytes = g2 ? 384 : 192;
    unsigned best_c = 1;
    double best = -1;
    for (unsigned c = 1; c <= cmax; ++c) {
        const double W = double((scalar_bits + c) / c);
        const double H = double(size_t{1} << (c - 1));
        if (W * H * xyzz_bytes > 8.0 * (1ull << 30)) break;
        const double cost = double(n) * W * 11.0 + W * H * 30.0;
        if (best < 0 || cost < best) {
            best = cost;
            best_c = c;
        }
    }
    return best_c;
}

// Measured on the H200 (bench_gpu, bench/RESULTS.md): the rounds are ~10 %
// faster for G2 from 2^22 points (3 % at 2^20) and slower for every G1 size.
bool gpu_msm_batch_affine(size_t n, bool g2) { return g2 && n >= (size_t{1} << 20); }

#if CUZK_WITH_CUDA

// ---- discovery ----------------------------------------------------------------------------
bool cuda_available(std::string* why)
{
    std::string reason;
    const int n = cuda_bridge::device_count(&reason);
    if (n > 0) return true;
    if (why) *why = reason.empty() ? std::string("no CUDA device") : reason;
    return false;
}

int cuda_device_count()
{
    const int n = cuda_bridge::device_count(nullptr);
    return n > 0 ? n : 0;
}

std::string cuda_device_info()
{
    std::string why;
    if (!cuda_available(&why)) return "no CUDA device: " + why;
    return cuda_bridge::device_info();
}

int cuda_select_device(int device) { return cuda_bridge::select_device(device); }
int cuda_current_device() noexcept { return cuda_bridge::current_device(); }
cuda_device_scope::~cuda_device_scope()
{
    try {
        cuda_bridge::select_device(prev_);
    } catch (...) {   // prev_ was valid when the scope began: nothing to do
    }
}

// ---- memory and timing -----------------------------------------------------------------------
gpu_buffer::gpu_buffer(size_t bytes)
    : p_(cuda_bridge::alloc(bytes)), n_(bytes), device_(cuda_bridge::current_device())
{
}
gpu_buffer::~gpu_buffer() { cuda_bridge::release(p_, device_); }
gpu_buffer& gpu_buffer::operator=(gpu_buffer&& o) noexcept
{
    if (this != &o) {
        cuda_bridge::release(p_, device_);
        p_ = std::exchange(o.p_, nullptr);
        n_ = std::exchange(o.n_, 0);
        device_ = o.device_;
    }
    return *this;
}
void gpu_buffer::upload(const void* src, size_t bytes, size_t offset)
{
    if (offset > n_ || bytes > n_ - offset)
        throw error(errc::invalid_argument,
                    fmt::format("gpu_buffer::upload: {} bytes at offset {} exceed the buffer of {} bytes", bytes,
                                offset, n_));
    if (bytes) cuda_bridge::copy_to_device(static_cast<char*>(p_) + offset, src, bytes);
}
void gpu_buffer::download(void* dst, size_t bytes, size_t offset) const
{
    if (offset > n_ || bytes > n_ - offset)
        throw error(errc::invalid_argument,
                    fmt::format("gpu_buffer::download: {} bytes at offset {} exceed the buffer of {} bytes", bytes,
                                offset, n_));
    if (bytes) cuda_bridge::copy_to_host(dst, static_cast<const char*>(p_) + offset, bytes);
}

gpu_timer::gpu_timer() : t_(cuda_bridge::timer_create()) {}
gpu_timer::~gpu_timer() { cuda_bridge::timer_destroy(t_); }
void gpu_timer::start() { cuda_bridge::timer_start(t_); }
double gpu_timer::stop_ms() { return cuda_bridge::timer_stop_ms(t_); }

void gpu_synchronize() { cuda_bridge::synchronize(); }
void gpu_release_cache() { cuda_bridge::release_cache(); }
gpu_memory_info gpu_memory()
{
    size_t free_b = 0, total_b = 0;
    prove_bridge::mem_info(&free_b, &total_b);
    return {free_b, total_b};
}

// ---- field arithmetic --------------------------------------------------------------------------
namespace {
template <class F>
void field_apply(bridge::field field, gpu_field_op op, std::span<const F> a, std::span<const F> b, std::span<F> out)
{
    const bool unary = op == gpu_field_op::sqr || op == gpu_field_op::neg;
    if (a.size() != out.size() || (!unary && b.size() != a.size()))
        throw error(errc::invalid_argument,
                    fmt::format("gpu_field_apply: lengths differ (a {}, b {}, out {})", a.size(), b.size(),
                                out.size()));
    cuda_bridge::field_apply(field, op, a.data(), unary ? a.data() : b.data(), out.data(), a.size());
}
} // namespace

void gpu_field_apply(gpu_field_op op, std::span<const fp> a, std::span<const fp> b, std::span<fp> out)
{
    field_apply<fp>(bridge::field::fp, op, a, b, out);
}
void gpu_field_apply(gpu_field_op op, std::span<const fr> a, std::span<const fr> b, std::span<fr> out)
{
    field_apply<fr>(bridge::field::fr, op, a, b, out);
}
void gpu_field_apply(gpu_field_op op, std::span<const fp2> a, std::span<const fp2> b, std::span<fp2> out)
{
    field_apply<fp2>(bridge::field::fp2, op, a, b, out);
}

gpu_mul_rate gpu_bench_field_mul(gpu_field f, unsigned blocks, unsigned iters)
{
    gpu_mul_rate r;
    const bridge::field bf = f == gpu_field::fp ? bridge::field::fp : bridge::field::fr;
    r.ms = cuda_bridge::field_mul_bench(bf, std::max(blocks, 1u), iters, &r.muls);
    return r;
}

// ---- NTT ---------------------------------------------------------------------------------------
namespace {

template <class Fr>
void check_ntt(unsigned log_n, gpu_ntt_kind kind, const Fr& shift)
{
    if (log_n > 30)
        throw error(errc::invalid_argument, fmt::format("gpu_ntt: size 2^{} is above the supported 2^30", log_n));
    if (kind == gpu_ntt_kind::coset_inverse && shift.is_zero())
        throw error(errc::invalid_argument, "gpu_ntt: the coset shift of coset_inverse is zero");
}

template <class Fr>
void ntt_device_impl(Fr* data, unsigned log_n, root_convention conv, gpu_ntt_kind kind, const Fr& shift,
                     const Fr& scale, gpu_ntt_memory memory = gpu_ntt_memory::fast)
{
    check_ntt(log_n, kind, shift);
    const bool inverse = kind == gpu_ntt_kind::inverse || kind == gpu_ntt_kind::coset_inverse;
    const bool coset = kind == gpu_ntt_kind::coset_forward || kind == gpu_ntt_kind::coset_inverse;
    const Fr omega = root_of_unity_of<Fr>(log_n, conv);
    cuda_bridge::ntt(data, log_n, conv, omega, inverse, coset, shift, scale, nullptr, nullptr,
                     memory == gpu_ntt_memory::low);
}

template <class Fr>
void ntt_host_impl(std::span<Fr> a, root_convention conv, gpu_ntt_kind kind, const Fr& shift)
{
    if (!is_pow2(a.size()))
        throw error(errc::invalid_argument, fmt::format("gpu_ntt: size {} is not a power of two", a.size()));
    const unsigned log_n = log2_exact(a.size());
    check_ntt(log_n, kind, shift);
    gpu_buffer buf(a.size_bytes());
    buf.upload(a.data(), a.size_bytes());
    ntt_device_impl(buf.as<Fr>(), log_n, conv, kind, shift, Fr::one());
    buf.download(a.data(), a.size_bytes());
}

} // namespace

void gpu_ntt_device(fr* data, unsigned log_n, root_convention conv, gpu_ntt_kind kind, const fr& shift,
                    const fr& scale, gpu_ntt_memory memory)
{
    ntt_device_impl(data, log_n, conv, kind, shift, scale, memory);
}
void gpu_ntt_device(bn254::fr* data, unsigned log_n, root_convention conv, gpu_ntt_kind kind,
                    const bn254::fr& shift, const bn254::fr& scale, gpu_ntt_memory memory)
{
    ntt_device_impl(data, log_n, conv, kind, shift, scale, memory);
}
void gpu_ntt(std::span<fr> a, root_convention conv, gpu_ntt_kind kind, const fr& shift)
{
    ntt_host_impl(a, conv, kind, shift);
}
void gpu_ntt(std::span<bn254::fr> a, root_convention conv, gpu_ntt_kind kind, const bn254::fr& shift)
{
    ntt_host_impl(a, conv, kind, shift);
}

// ---- MSM -----------------------------------------------------------------------------------------
namespace {

constexpr size_t max_points = (size_t{1} << 31) - 1;   // point indices carry a sign bit in 32 bits

// The batch-affine rounds or XYZZ only (gpu_msm_options::buckets).
template <class Aff>
bool use_batch_affine(const gpu_msm_options& opt, size_t n)
{
    if (opt.buckets != msm_buckets::automatic) return opt.buckets == msm_buckets::batch_affine;
    return std::is_same_v<Aff, g2_affine> && gpu_msm_batch_affine(n, true);
}

template <class Aff, class Jac, class Xz>
Jac msm_device_impl(const Aff* points, const fr::repr* scalars, size_t n, const gpu_msm_options& opt, bool g2)
{
    if (n > max_points)
        throw error(errc::invalid_argument, fmt::format("gpu_msm: {} points exceed the limit 2^31 − 1", n));
    if (opt.window_bits > 24)
        throw error(errc::invalid_argument,
                    fmt::format("gpu_msm: window_bits = {} is above the limit 24", opt.window_bits));
    if (n == 0) return Jac::identity();
    const unsigned bits = cuda_bridge::scalar_bits(scalars, n);
    if (bits == 0) return Jac::identity();
    const unsigned c = opt.window_bits ? opt.window_bits : gpu_msm_window_bits(n, g2, bits);
    const unsigned windows = (bits + c) / c;   // W·c >= bits + 1: the top digit is non-negative
    std::vector<Xz> ws(windows);
    cuda_bridge::copy_span span;
    cuda_bridge::msm_windows(points, scalars, n, c, windows, ws.data(), opt.window_copy ? &span : nullptr,
                             use_batch_affine<Aff>(opt, n));
    if (opt.window_copy) *opt.window_copy = gpu_copy_span{span.begin, span.end};
    return backend_detail::combine_windows<Jac>(ws, c);
}

template <class Aff, class Jac, class Xz>
Jac msm_host_impl(std::span<const Aff> points, std::span<const fr::repr> scalars, const gpu_msm_options& opt,
                  bool g2)
{
    if (points.size() != scalars.size())
        throw error(errc::invalid_argument, fmt::format("gpu_msm: {} points but {} scalars", points.size(),
                                                        scalars.size()));
    const size_t n = points.size();
    if (n == 0) return Jac::identity();
    if (n > max_points)
        throw error(errc::invalid_argument, fmt::format("gpu_msm: {} points exceed the limit 2^31 − 1", n));
    gpu_buffer p(points.size_bytes()), k(scalars.size_bytes());
    p.upload(points.data(), points.size_bytes());
    k.upload(scalars.data(), scalars.size_bytes());
    return msm_device_impl<Aff, Jac, Xz>(p.as<Aff>(), k.as<fr::repr>(), n, opt, g2);
}

} // namespace

g1_jacobian gpu_msm_device(const g1_affine* points, const fr::repr* scalars, size_t n, const gpu_msm_options& opt)
{
    return msm_device_impl<g1_affine, g1_jacobian, g1_xyzz>(points, scalars, n, opt, false);
}
g2_jacobian gpu_msm_device(const g2_affine* points, const fr::repr* scalars, size_t n, const gpu_msm_options& opt)
{
    return msm_device_impl<g2_affine, g2_jacobian, g2_xyzz>(points, scalars, n, opt, true);
}
g1_jacobian gpu_msm(std::span<const g1_affine> points, std::span<const fr::repr> scalars, const gpu_msm_options& opt)
{
    return msm_host_impl<g1_affine, g1_jacobian, g1_xyzz>(points, scalars, opt, false);
}
g2_jacobian gpu_msm(std::span<const g2_affine> points, std::span<const fr::repr> scalars, const gpu_msm_options& opt)
{
    return msm_host_impl<g2_affine, g2_jacobian, g2_xyzz>(points, scalars, opt, true);
}
bn254::g1_jacobian gpu_msm_device(const bn254::g1_affine* points, const fr::repr* scalars, size_t n,
                                  const gpu_msm_options& opt)
{
    return msm_device_impl<bn254::g1_affine, bn254::g1_jacobian, bn254::g1_xyzz>(points, scalars, n, opt, false);
}
bn254::g2_jacobian gpu_msm_device(const bn254::g2_affine* points, const fr::repr* scalars, size_t n,
                                  const gpu_msm_options& opt)
{
    return msm_device_impl<bn254::g2_affine, bn254::g2_jacobian, bn254::g2_xyzz>(points, scalars, n, opt, true);
}
bn254::g1_jacobian gpu_msm(std::span<const bn254::g1_affine> points, std::span<const fr::repr> scalars,
                           const gpu_msm_options& opt)
{
    return msm_host_impl<bn254::g1_affine, bn254::g1_jacobian, bn254::g1_xyzz>(points, scalars, opt, false);
}
bn254::g2_jacobian gpu_msm(std::span<const bn254::g2_affine> points, std::span<const fr::repr> scalars,
                           const gpu_msm_options& opt)
{
    return msm_host_impl<bn254::g2_affine, bn254::g2_jacobian, bn254::g2_xyzz>(points, scalars, opt, true);
}

#else // !CUZK_WITH_CUDA

bool cuda_available(std::string* why)
{
    if (why) *why = "built without CUDA (CUZK_CUDA=OFF or no nvcc at configure time)";
    return false;
}
int cuda_device_count() { return 0; }
std::string cuda_device_info() { return "no CUDA device: built without CUDA"; }
int cuda_select_device(int) { no_cuda("cuda_select_device"); }
int cuda_current_device() noexcept { return 0; }
cuda_device_scope::~cuda_device_scope() = default;

gpu_buffer::gpu_buffer(size_t) { no_cuda("gpu_buffer"); }
gpu_buffer::~gpu_buffer() = default;
gpu_buffer& gpu_buffer::operator=(gpu_buffer&& o) noexcept
{
    p_ = std::exchange(o.p_, nullptr);
    n_ = std::exchange(o.n_, 0);
    device_ = o.device_;
    return *this;
}
void gpu_buffer::upload(const void*, size_t, size_t) { no_cuda("gpu_buffer::upload"); }
void gpu_buffer::download(void*, size_t, size_t) const { no_cuda("gpu_buffer::download"); }

gpu_timer::gpu_timer() { no_cuda("gpu_timer"); }
gpu_timer::~gpu_timer() = default;
void gpu_timer::start() { no_cuda("gpu_timer::start"); }
double gpu_timer::stop_ms() { no_cuda("gpu_timer::stop_ms"); }

void gpu_synchronize() { no_cuda("gpu_synchronize"); }
void gpu_release_cache() {}
gpu_memory_info gpu_memory() { no_cuda("gpu_memory"); }

void gpu_field_apply(gpu_field_op, std::span<const fp>, std::span<const fp>, std::span<fp>)
{
    no_cuda("gpu_field_apply");
}
void gpu_field_apply(gpu_field_op, std::span<const fr>, std::span<const fr>, std::span<fr>)
{
    no_cuda("gpu_field_apply");
}
void gpu_field_apply(gpu_field_op, std::span<const fp2>, std::span<const fp2>, std::span<fp2>)
{
    no_cuda("gpu_field_apply");
}
gpu_mul_rate gpu_bench_field_mul(gpu_field, unsigned, unsigned) { no_cuda("gpu_bench_field_mul"); }

void gpu_ntt(std::span<bn254::fr>, root_convention, gpu_ntt_kind, const bn254::fr&) { no_cuda("gpu_ntt"); }
void gpu_ntt_device(bn254::fr*, unsigned, root_convention, gpu_ntt_kind, const bn254::fr&, const bn254::fr&,
                    gpu_ntt_memory)
{
    no_cuda("gpu_ntt_device");
}
bn254::g1_jacobian gpu_msm(std::span<const bn254::g1_affine>, std::span<const fr::repr>, const gpu_msm_options&)
{
    no_cuda("gpu_msm");
}
bn254::g2_jacobian gpu_msm(std::span<const bn254::g2_affine>, std::span<const fr::repr>, const gpu_msm_options&)
{
    no_cuda("gpu_msm");
}
bn254::g1_jacobian gpu_msm_device(const bn254::g1_affine*, const fr::repr*, size_t, const gpu_msm_options&)
{
    no_cuda("gpu_msm_device");
}
bn254::g2_jacobian gpu_msm_device(const bn254::g2_affine*, const fr::repr*, size_t, const gpu_msm_options&)
{
    no_cuda("gpu_msm_device");
}
void gpu_ntt(std::span<fr>, root_convention, gpu_ntt_kind, const fr&) { no_cuda("gpu_ntt"); }
void gpu_ntt_device(fr*, unsigned, root_convention, gpu_ntt_kind, const fr&, const fr&, gpu_ntt_memory)
{
    no_cuda("gpu_ntt_device");
}

g1_jacobian gpu_msm(std::span<const g1_affine>, std::span<const fr::repr>, const gpu_msm_options&)
{
    no_cuda("gpu_msm");
}
g2_jacobian gpu_msm(std::span<const g2_affine>, std::span<const fr::repr>, const gpu_msm_options&)
{
    no_cuda("gpu_msm");
}
g1_jacobian gpu_msm_device(const g1_affine*, const fr::repr*, size_t, const gpu_msm_options&)
{
    no_cuda("gpu_msm_device");
}
g2_jacobian gpu_msm_device(const g2_affine*, const fr::repr*, size_t, const gpu_msm_options&)
{
    no_cuda("gpu_msm_device");
}

#endif

} // namespace cuzk
