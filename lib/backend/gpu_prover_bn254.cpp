// cuzk — the BN254 Groth16 prover on the CUDA backend
// (include/cuzk/backend/gpu_prover_bn254.hpp): the key's points resident on
// the device, the H step and the five MSMs there, the evaluation of A·w and
// B·w and the final assembly on the host.
#include "cuzk/backend/gpu_prover_bn254.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <string_view>
#include <vector>

#include "cuzk/backend/cuda.hpp"
#include "cuzk/error.hpp"
#include "cuzk/ntt/ntt.hpp"
#include "cuzk/util/random.hpp"

#if CUZK_WITH_CUDA
#include "backend/bridge/prove_bridge.hpp"
#endif

namespace cuzk {

namespace {

using bfr = bn254::fr;

void check_key(const bn254_proving_key& pk)
{
    if (pk.conv != groth16::convention::snarkjs)
        throw error(errc::invalid_argument, "gpu_key_bn254: the key follows the bellperson convention");
    const size_t n_vars = size_t(pk.num_inputs) + pk.num_aux;
    if (pk.domain_size < 2 || (pk.domain_size & (pk.domain_size - 1)) || pk.h.size() != pk.domain_size ||
        pk.a.size() != n_vars || pk.b_g1.size() != n_vars || pk.b_g2.size() != n_vars || pk.l.size() != pk.num_aux)
        throw error(errc::invalid_argument,
                    fmt::format("gpu_key_bn254: the key's point sections (H {}, A {}, B1 {}, B2 {}, L {}) do not "
                                "match its domain {} and {} signals",
                                pk.h.size(), pk.a.size(), pk.b_g1.size(), pk.b_g2.size(), pk.l.size(),
                                pk.domain_size, n_vars));
}

} // namespace

#if CUZK_WITH_CUDA

namespace pb = prove_bridge;

struct gpu_key_bn254::impl {
    std::shared_ptr<const bn254_proving_key> pk;
    int device = 0;
    unsigned log_n = 0;
    gpu_buffer h, l, a, b1, b2;   // the points
    gpu_buffer abc, w;            // scratch of a proof: 3n scalars, n_vars scalars
    std::mutex mu;                // one proof at a time on this key's scratch
};

struct gpu_bn254_access {
    static gpu_key_bn254::impl* get(const gpu_key_bn254& k) { return k.p_.get(); }
};

namespace {

template <class T>
gpu_buffer upload_points(const std::vector<T>& v)
{
    gpu_buffer b(std::max<size_t>(v.size(), 1) * sizeof(T));
    if (!v.empty()) b.upload(std::span<const T>(v));
    return b;
}

// Brackets a step for the observer, and adds its time to *ns.
class step_timer {
public:
    step_timer(groth16::prove_observer* obs, std::string_view step, std::string_view query, uint64_t* ns)
        : obs_(obs), step_(step), query_(query), ns_(ns), t0_(std::chrono::steady_clock::now())
    {
        if (obs_) obs_->step_begin(step_, query_);
    }
    ~step_timer()
    {
        *ns_ += uint64_t(
            std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0_).count());
        if (obs_) obs_->step_end(step_, query_);
    }
    step_timer(const step_timer&) = delete;
    step_timer& operator=(const step_timer&) = delete;

private:
    groth16::prove_observer* obs_;
    std::string_view step_, query_;
    uint64_t* ns_;
    std::chrono::steady_clock::time_point t0_;
};

// a ← A·B − C on the odd coset from a = A·w, b = B·w (n values each, on the
// device; c is scratch): the H step of groth16::compute_h_snarkjs.
void h_step(bfr* a, bfr* b, bfr* c, unsigned log_n)
{
    const size_t n = size_t{1} << log_n;
    pb::mul_into(a, b, c, n);
    const bfr w2n = root_of_unity_of<bfr>(log_n + 1, root_convention::snarkjs);
    const bfr n_fr = bfr::from_u64(n), n_inv = n_fr.inverse();
    for (bfr* v : {a, b, c}) {
        gpu_ntt_device(v, log_n, root_convention::snarkjs, gpu_ntt_kind::inverse, bfr::one(), n_fr);
        gpu_ntt_device(v, log_n, root_convention::snarkjs, gpu_ntt_kind::coset_forward, w2n, n_inv);
    }
    pb::mul_sub(a, b, c, n);
}

} // namespace

gpu_key_bn254::gpu_key_bn254(std::shared_ptr<const bn254_proving_key> pk) : p_(std::make_unique<impl>())
{
    if (!pk) throw error(errc::invalid_argument, "gpu_key_bn254: no key");
    check_key(*pk);
    std::string why;
    if (!cuda_available(&why)) throw error(errc::unsupported, "gpu_key_bn254: " + why);
    impl& k = *p_;
    k.device = cuda_current_device();
    k.log_n = unsigned(__builtin_ctzll(pk->domain_size));
    if (k.log_n + 1 > bn254::fr_params::two_adicity)
        throw error(errc::invalid_argument, fmt::format("gpu_key_bn254: domain 2^{} is above BN254's 2^{}", k.log_n,
                                                        bn254::fr_params::two_adicity - 1));
    k.h = upload_points(pk->h);
    k.l = upload_points(pk->l);
    k.a = upload_points(pk->a);
    k.b1 = upload_points(pk->b_g1);
    k.b2 = upload_points(pk->b_g2);
    k.pk = std::move(pk);
}

gpu_key_bn254::~gpu_key_bn254() = default;
const bn254_proving_key& gpu_key_bn254::pk() const noexcept { return *p_->pk; }
int gpu_key_bn254::device() const noexcept { return p_->device; }
uint64_t gpu_key_bn254::device_bytes() const noexcept
{
    const impl& k = *p_;
    uint64_t s = 0;
    for (const gpu_buffer* b : {&k.h, &k.l, &k.a, &k.b1, &k.b2, &k.abc, &k.w}) s += b->size();
    return s;
}

groth16::prove_sums_t<bn254_curve> gpu_prove_start_snarkjs(const gpu_key_bn254& key, std::span<const bfr> ha,
                                                           std::span<const bfr> hb, std::span<const bfr> wit,
                                                           groth16::prove_observer* obs,
                                                           groth16::prove_timings* timings)
{
    gpu_key_bn254::impl& k = *gpu_bn254_access::get(key);
    const auto t_all = std::chrono::steady_clock::now();
    const bn254_proving_key& pk = *k.pk;
    const size_t n = size_t(pk.domain_size), nv = wit.size();
    if (nv != size_t(pk.num_inputs) + pk.num_aux || ha.size() != n || hb.size() != n)
        throw error(errc::invalid_argument,
                    fmt::format("gpu_prove_start_snarkjs: a, b, w have {}, {}, {} values; the key expects {}, {}, {}",
                                ha.size(), hb.size(), nv, n, n, size_t(pk.num_inputs) + pk.num_aux));
    std::lock_guard<std::mutex> lk(k.mu);
    cuda_device_scope dev(k.device);
    if (k.abc.size() < 3 * n * sizeof(bfr)) k.abc = gpu_buffer(3 * n * sizeof(bfr));
    if (k.w.size() < nv * sizeof(bfr)) k.w = gpu_buffer(nv * sizeof(bfr));
    bfr* a = k.abc.as<bfr>();
    auto* wc = k.w.as<fr::repr>();
    groth16::prove_timings tm;
    groth16::prove_sums_t<bn254_curve> out;
    {
        step_timer s(obs, "NTT", "", &tm.h_ns);
        k.abc.upload(ha);
        k.abc.upload(hb, n * sizeof(bfr));
        k.w.upload(wit);
        pb::to_canonical(k.w.as<bfr>(), wc, nv);
        h_step(a, a + n, a + 2 * n, k.log_n);
        pb::to_canonical(a, reinterpret_cast<fr::repr*>(a), n);
    }
    const auto* hc = reinterpret_cast<const fr::repr*>(a);
    {
        step_timer s(obs, "MSM_H", "h", &tm.msm_h_ns);
        out.h = gpu_msm_device(k.h.as<bn254::g1_affine>(), hc, n);
    }
    {
        step_timer s(obs, "MSM_L", "l", &tm.msm_l_ns);
        out.l = gpu_msm_device(k.l.as<bn254::g1_affine>(), wc + pk.num_inputs, pk.num_aux);
    }
    {
        step_timer s(obs, "MSM_A", "a", &tm.msm_a_ns);
        out.a = gpu_msm_device(k.a.as<bn254::g1_affine>(), wc, nv);
    }
    {
        step_timer s(obs, "MSM_B1", "b1", &tm.msm_b1_ns);
        out.b1 = gpu_msm_device(k.b1.as<bn254::g1_affine>(), wc, nv);
    }
    {
        step_timer s(obs, "MSM_B2", "b2", &tm.msm_b2_ns);
        out.b2 = gpu_msm_device(k.b2.as<bn254::g2_affine>(), wc, nv);
    }
    tm.total_ns = uint64_t(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t_all).count());
    if (timings) *timings = tm;
    return out;
}

groth16::prove_sums_t<bn254_curve> gpu_prove_start_snarkjs(const gpu_key_bn254& key, std::span<const bfr> wit,
                                                           groth16::prove_observer* obs,
                                                           groth16::prove_timings* timings)
{
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<bfr> ha, hb;
    groth16::snarkjs_evaluate_ab(key.pk(), wit, ha, hb);   // checks the witness
    const uint64_t eval_ns =
        uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count());
    groth16::prove_timings tm;
    auto out = gpu_prove_start_snarkjs(key, ha, hb, wit, obs, &tm);
    tm.h_ns += eval_ns;
    tm.total_ns += eval_ns;
    if (timings) *timings = tm;
    return out;
}

#else // !CUZK_WITH_CUDA

struct gpu_key_bn254::impl {
    std::shared_ptr<const bn254_proving_key> pk;
};

gpu_key_bn254::gpu_key_bn254(std::shared_ptr<const bn254_proving_key> pk)
{
    if (pk) check_key(*pk);
    throw error(errc::unsupported, "gpu_key_bn254: this build of cuzk has no CUDA backend");
}
gpu_key_bn254::~gpu_key_bn254() = default;
const bn254_proving_key& gpu_key_bn254::pk() const noexcept { return *p_->pk; }
int gpu_key_bn254::device() const noexcept { return 0; }
uint64_t gpu_key_bn254::device_bytes() const noexcept { return 0; }

groth16::prove_sums_t<bn254_curve> gpu_prove_start_snarkjs(const gpu_key_bn254&, std::span<const bfr>,
                                                           std::span<const bfr>, std::span<const bfr>,
                                                           groth16::prove_observer*, groth16::prove_timings*)
{
    throw error(errc::unsupported, "gpu_prove_start_snarkjs: this build of cuzk has no CUDA backend");
}
groth16::prove_sums_t<bn254_curve> gpu_prove_start_snarkjs(const gpu_key_bn254&, std::span<const bfr>,
                                                           groth16::prove_observer*, groth16::prove_timings*)
{
    throw error(errc::unsupported, "gpu_prove_start_snarkjs: this build of cuzk has no CUDA backend");
}

#endif

groth16::proof_t<bn254_curve> gpu_prove_snarkjs(const gpu_key_bn254& k, std::span<const bfr> witness, const bfr& r,
                                                const bfr& s, groth16::prove_observer* observer,
                                                groth16::prove_timings* timings)
{
    return groth16::prove_finish(k.pk().vk, gpu_prove_start_snarkjs(k, witness, observer, timings), r, s);
}

groth16::proof_t<bn254_curve> gpu_prove_snarkjs(const gpu_key_bn254& k, std::span<const bfr> witness,
                                                groth16::prove_observer* observer, groth16::prove_timings* timings)
{
    return gpu_prove_snarkjs(k, witness, os_random_fr<bfr>(), os_random_fr<bfr>(), observer, timings);
}

} // namespace cuzk
