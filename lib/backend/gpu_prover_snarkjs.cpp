// cuzk — the snarkjs-convention prover of gpu_key_t<bn254_curve> on the
// CUDA backend (include/cuzk/backend/gpu_prover.hpp, its BN254 section): the
// key's points and its coefficient CSR resident on the device; the
// evaluation of A·w and B·w, the H step and the five MSMs (the four witness
// ones through the 0/1 path) there; the final assembly on the host.
// BLS12-381 snarkjs keys take gpu_key's path instead (gpu_key.cpp,
// gpu_prover.cpp), which streams keys that do not fit.
#include "cuzk/backend/gpu_prover.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string_view>
#include <vector>

#include "cuzk/backend/cuda.hpp"
#include "cuzk/error.hpp"
#include "cuzk/ntt/ntt.hpp"
#include "cuzk/util/random.hpp"

#if CUZK_WITH_CUDA
#include "backend/bridge/prove_bridge.hpp"
#include "backend/bridge/snarkjs_bridge.hpp"
#endif

namespace cuzk {

namespace {

using bfr = bn254::fr;
using key_bn = gpu_key_t<bn254_curve>;
using pk_bn = groth16::proving_key_t<bn254_curve>;

void check_key(const pk_bn& pk)
{
    if (pk.conv != groth16::convention::snarkjs)
        throw error(errc::invalid_argument, "gpu_key_t<bn254>: the key follows the bellperson convention");
    const size_t n_vars = size_t(pk.num_inputs) + pk.num_aux;
    if (pk.domain_size < 2 || (pk.domain_size & (pk.domain_size - 1)) || pk.h.size() != pk.domain_size ||
        pk.a.size() != n_vars || pk.b_g1.size() != n_vars || pk.b_g2.size() != n_vars || pk.l.size() != pk.num_aux)
        throw error(errc::invalid_argument,
                    fmt::format("gpu_key_t<bn254>: the key's point sections (H {}, A {}, B1 {}, B2 {}, L {}) do not "
                                "match its domain {} and {} signals",
                                pk.h.size(), pk.a.size(), pk.b_g1.size(), pk.b_g2.size(), pk.l.size(),
                                pk.domain_size, n_vars));
}

} // namespace

#if CUZK_WITH_CUDA

namespace pb = prove_bridge;

struct key_bn::impl {
    std::shared_ptr<const pk_bn> pk;
    int device = 0;
    unsigned log_n = 0;
    gpu_buffer h, l, a, b1, b2;             // the points
    gpu_buffer csr_row, csr_sig, csr_val;   // pk.coefs by row: A's n rows, then B's n
    gpu_buffer abc, w;                      // scratch of a proof: 3n scalars, n_vars scalars
    std::mutex mu;                          // one proof at a time on this key's scratch
};

struct gpu_snarkjs_access {
    static key_bn::impl* get(const key_bn& k) { return k.p_.get(); }
};

namespace {

template <class T>
gpu_buffer upload_vector(const std::vector<T>& v)
{
    gpu_buffer b(std::max<size_t>(v.size(), 1) * sizeof(T));
    if (!v.empty()) b.upload(std::span<const T>(v));
    return b;
}

// ---- the coefficient CSR ---------------------------------------------------------------------
// Row r < n is A's constraint r, row n + r is B's. Offsets 32-bit.
struct host_csr {
    std::vector<uint32_t> row;   // 2n + 1 offsets
    std::vector<uint32_t> sig;
    std::vector<bfr> val;
};

// A counting sort by row, stable (each row keeps the list's order): counts
// into row[r + 1], prefix sums give each row's start, the scatter advances
// row[r] to the row's end, which is the next row's start; one shift back
// restores the starts. Two passes over the list, no comparison sort.
host_csr build_csr(const pk_bn& pk)
{
    const size_t n = pk.domain_size, n_vars = size_t(pk.num_inputs) + pk.num_aux, rows = 2 * n;
    const auto& cs = pk.coefs;
    if (cs.size() > UINT32_MAX)
        throw error(errc::unsupported,
                    fmt::format("gpu_key_t<bn254>: {} coefficients (the device CSR holds fewer than 2^32)", cs.size()));
    host_csr m;
    m.row.assign(rows + 1, 0);
    for (const auto& e : cs) {
        if (e.matrix > 1 || e.constraint >= n || e.signal >= n_vars)
            throw error(errc::bad_format,
                        fmt::format("gpu_key_t<bn254>: coefficient (matrix {}, constraint {}, signal {}) out of range",
                                    e.matrix, e.constraint, e.signal));
        ++m.row[size_t(e.matrix) * n + e.constraint + 1];
    }
    for (size_t r = 0; r < rows; ++r) m.row[r + 1] += m.row[r];
    m.sig.resize(cs.size());
    m.val.resize(cs.size());
    for (const auto& e : cs) {
        const uint32_t p = m.row[size_t(e.matrix) * n + e.constraint]++;
        m.sig[p] = e.signal;
        m.val[p] = e.value;
    }
    for (size_t r = rows; r > 0; --r) m.row[r] = m.row[r - 1];
    m.row[0] = 0;
    return m;
}

void upload_csr(key_bn::impl& k)
{
    host_csr m = build_csr(*k.pk);
    k.csr_row = upload_vector(m.row);
    m.row = {};
    k.csr_sig = upload_vector(m.sig);
    m.sig = {};
    k.csr_val = upload_vector(m.val);
}

// out[0 … 2n) = A·w, B·w from the CSR (w and out in device memory); queued.
void eval_ab(const key_bn::impl& k, const bfr* w, bfr* out)
{
    const snarkjs_bridge::csr_device m{k.csr_row.as<uint32_t>(), k.csr_sig.as<uint32_t>(), k.csr_val.as<bfr>()};
    snarkjs_bridge::eval_rows(m, 2 * uint64_t(k.pk->domain_size), w, out);
}

void check_witness(const pk_bn& pk, std::span<const bfr> w, const char* fn)
{
    const size_t nv = size_t(pk.num_inputs) + pk.num_aux;
    if (w.size() != nv)
        throw error(errc::invalid_argument,
                    fmt::format("{}: the witness has {} values, the key expects {}", fn, w.size(), nv));
    if (!w[0].is_one())
        throw error(errc::invalid_argument, fmt::format("{}: witness value 0 must be the constant one", fn));
}

// The proof scratch of the key, grown to the key's sizes (k.mu held).
void ensure_scratch(key_bn::impl& k)
{
    const size_t n = size_t(k.pk->domain_size), nv = size_t(k.pk->num_inputs) + k.pk->num_aux;
    if (k.abc.size() < 3 * n * sizeof(bfr)) k.abc = gpu_buffer(3 * n * sizeof(bfr));
    if (k.w.size() < nv * sizeof(bfr)) k.w = gpu_buffer(std::max<size_t>(nv, 1) * sizeof(bfr));
}

// ---- the proof's steps -------------------------------------------------------------------------
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

// One query's witness MSM (0/1 path) over Montgomery scalars on the device,
// its batch addition reported as a BATCH_ADD span.
template <class Aff>
auto witness_msm(const gpu_buffer& pts, const bfr* w, size_t n, groth16::prove_observer* obs, std::string_view q)
{
    gpu_msm_witness_stats st;
    const auto r = gpu_msm_witness_device(pts.as<Aff>(), w, n, &st);
    if (obs && st.ones > 0 && st.batch_add_end >= st.batch_add_begin)
        obs->step_span("BATCH_ADD", q, st.batch_add_begin, st.batch_add_end);
    return r;
}

// The steps from a and b in k.abc (k.w holding the Montgomery witness) to
// the five sums; with host a, b given (non-empty), their upload and the
// witness's are part of the NTT step.
groth16::prove_sums_t<bn254_curve> device_sums(key_bn::impl& k, std::span<const bfr> ha,
                                               std::span<const bfr> hb, std::span<const bfr> wit,
                                               groth16::prove_observer* obs, groth16::prove_timings& tm)
{
    const pk_bn& pk = *k.pk;
    const size_t n = size_t(pk.domain_size), nv = size_t(pk.num_inputs) + pk.num_aux;
    bfr* a = k.abc.as<bfr>();
    const bfr* w = k.w.as<bfr>();
    groth16::prove_sums_t<bn254_curve> out;
    {
        step_timer s(obs, "NTT", "", &tm.h_ns);
        if (!ha.empty()) {
            k.abc.upload(ha);
            k.abc.upload(hb, n * sizeof(bfr));
            k.w.upload(wit);
        }
        h_step(a, a + n, a + 2 * n, k.log_n);
        pb::to_canonical(a, reinterpret_cast<fr::repr*>(a), n);
        gpu_synchronize();
    }
    {
        step_timer s(obs, "MSM_H", "h", &tm.msm_h_ns);
        out.h = gpu_msm_device(k.h.as<bn254::g1_affine>(), reinterpret_cast<const fr::repr*>(a), n);
    }
    {
        step_timer s(obs, "MSM_L", "l", &tm.msm_l_ns);
        out.l = witness_msm<bn254::g1_affine>(k.l, w + pk.num_inputs, pk.num_aux, obs, "l");
    }
    {
        step_timer s(obs, "MSM_A", "a", &tm.msm_a_ns);
        out.a = witness_msm<bn254::g1_affine>(k.a, w, nv, obs, "a");
    }
    {
        step_timer s(obs, "MSM_B1", "b1", &tm.msm_b1_ns);
        out.b1 = witness_msm<bn254::g1_affine>(k.b1, w, nv, obs, "b1");
    }
    {
        step_timer s(obs, "MSM_B2", "b2", &tm.msm_b2_ns);
        out.b2 = witness_msm<bn254::g2_affine>(k.b2, w, nv, obs, "b2");
    }
    return out;
}

uint64_t ns_since(std::chrono::steady_clock::time_point t0)
{
    return uint64_t(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count());
}

} // namespace

key_bn::gpu_key_t(std::shared_ptr<const pk_bn> pk) : p_(std::make_unique<impl>())
{
    if (!pk) throw error(errc::invalid_argument, "gpu_key_t<bn254>: no key");
    check_key(*pk);
    std::string why;
    if (!cuda_available(&why)) throw error(errc::unsupported, "gpu_key_t<bn254>: " + why);
    impl& k = *p_;
    k.device = cuda_current_device();
    k.log_n = unsigned(__builtin_ctzll(pk->domain_size));
    if (k.log_n + 1 > bn254::fr_params::two_adicity)
        throw error(errc::invalid_argument, fmt::format("gpu_key_t<bn254>: domain 2^{} is above BN254's 2^{}", k.log_n,
                                                        bn254::fr_params::two_adicity - 1));
    k.pk = std::move(pk);
    upload_csr(k);   // checks the coefficients first
    k.h = upload_vector(k.pk->h);
    k.l = upload_vector(k.pk->l);
    k.a = upload_vector(k.pk->a);
    k.b1 = upload_vector(k.pk->b_g1);
    k.b2 = upload_vector(k.pk->b_g2);
}

key_bn::~gpu_key_t() = default;
const pk_bn& key_bn::pk() const noexcept { return *p_->pk; }
int key_bn::device() const noexcept { return p_->device; }
uint64_t key_bn::device_bytes() const noexcept
{
    const impl& k = *p_;
    uint64_t s = 0;
    for (const gpu_buffer* b : {&k.h, &k.l, &k.a, &k.b1, &k.b2, &k.csr_row, &k.csr_sig, &k.csr_val, &k.abc, &k.w})
        s += b->size();
    return s;
}

groth16::prove_sums_t<bn254_curve> gpu_prove_start_snarkjs(const key_bn& key, std::span<const bfr> ha,
                                                           std::span<const bfr> hb, std::span<const bfr> wit,
                                                           groth16::prove_observer* obs,
                                                           groth16::prove_timings* timings)
{
    key_bn::impl& k = *gpu_snarkjs_access::get(key);
    const auto t_all = std::chrono::steady_clock::now();
    const pk_bn& pk = *k.pk;
    const size_t n = size_t(pk.domain_size), nv = wit.size();
    if (nv != size_t(pk.num_inputs) + pk.num_aux || ha.size() != n || hb.size() != n)
        throw error(errc::invalid_argument,
                    fmt::format("gpu_prove_start_snarkjs: a, b, w have {}, {}, {} values; the key expects {}, {}, {}",
                                ha.size(), hb.size(), nv, n, n, size_t(pk.num_inputs) + pk.num_aux));
    std::lock_guard<std::mutex> lk(k.mu);
    cuda_device_scope dev(k.device);
    ensure_scratch(k);
    groth16::prove_timings tm;
    auto out = device_sums(k, ha, hb, wit, obs, tm);
    tm.total_ns = ns_since(t_all);
    if (timings) *timings = tm;
    return out;
}

groth16::prove_sums_t<bn254_curve> gpu_prove_start_snarkjs(const key_bn& key, std::span<const bfr> wit,
                                                           groth16::prove_observer* obs,
                                                           groth16::prove_timings* timings)
{
    key_bn::impl& k = *gpu_snarkjs_access::get(key);
    const auto t_all = std::chrono::steady_clock::now();
    check_witness(*k.pk, wit, "gpu_prove_start_snarkjs");
    std::lock_guard<std::mutex> lk(k.mu);
    cuda_device_scope dev(k.device);
    ensure_scratch(k);
    groth16::prove_timings tm;
    {
        step_timer s(obs, "PCE_EVAL", "", &tm.h_ns);
        k.w.upload(wit);
        eval_ab(k, k.w.as<bfr>(), k.abc.as<bfr>());
        gpu_synchronize();
    }
    auto out = device_sums(k, {}, {}, {}, obs, tm);
    tm.total_ns = ns_since(t_all);
    if (timings) *timings = tm;
    return out;
}

void gpu_snarkjs_evaluate_ab(const key_bn& key, std::span<const bfr> wit, std::vector<bfr>& a,
                             std::vector<bfr>& b)
{
    key_bn::impl& k = *gpu_snarkjs_access::get(key);
    check_witness(*k.pk, wit, "gpu_snarkjs_evaluate_ab");
    const size_t n = size_t(k.pk->domain_size);
    std::lock_guard<std::mutex> lk(k.mu);
    cuda_device_scope dev(k.device);
    ensure_scratch(k);
    k.w.upload(wit);
    eval_ab(k, k.w.as<bfr>(), k.abc.as<bfr>());
    a.resize(n);
    b.resize(n);
    k.abc.download(std::span<bfr>(a), 0);
    k.abc.download(std::span<bfr>(b), n * sizeof(bfr));
}

#else // !CUZK_WITH_CUDA

struct key_bn::impl {
    std::shared_ptr<const pk_bn> pk;
};

key_bn::gpu_key_t(std::shared_ptr<const pk_bn> pk)
{
    if (pk) check_key(*pk);
    throw error(errc::unsupported, "gpu_key_t<bn254>: this build of cuzk has no CUDA backend");
}
key_bn::~gpu_key_t() = default;
const pk_bn& key_bn::pk() const noexcept { return *p_->pk; }
int key_bn::device() const noexcept { return 0; }
uint64_t key_bn::device_bytes() const noexcept { return 0; }

groth16::prove_sums_t<bn254_curve> gpu_prove_start_snarkjs(const key_bn&, std::span<const bfr>,
                                                           std::span<const bfr>, std::span<const bfr>,
                                                           groth16::prove_observer*, groth16::prove_timings*)
{
    throw error(errc::unsupported, "gpu_prove_start_snarkjs: this build of cuzk has no CUDA backend");
}
groth16::prove_sums_t<bn254_curve> gpu_prove_start_snarkjs(const key_bn&, std::span<const bfr>,
                                                           groth16::prove_observer*, groth16::prove_timings*)
{
    throw error(errc::unsupported, "gpu_prove_start_snarkjs: this build of cuzk has no CUDA backend");
}
void gpu_snarkjs_evaluate_ab(const key_bn&, std::span<const bfr>, std::vector<bfr>&, std::vector<bfr>&)
{
    throw error(errc::unsupported, "gpu_snarkjs_evaluate_ab: this build of cuzk has no CUDA backend");
}

#endif

groth16::proof_t<bn254_curve> gpu_prove_snarkjs(const key_bn& k, std::span<const bfr> witness, const bfr& r,
                                                const bfr& s, groth16::prove_observer* observer,
                                                groth16::prove_timings* timings)
{
    return groth16::prove_finish(k.pk().vk, gpu_prove_start_snarkjs(k, witness, observer, timings), r, s);
}

groth16::proof_t<bn254_curve> gpu_prove_snarkjs(const key_bn& k, std::span<const bfr> witness,
                                                groth16::prove_observer* observer, groth16::prove_timings* timings)
{
    return gpu_prove_snarkjs(k, witness, os_random_fr<bfr>(), os_random_fr<bfr>(), observer, timings);
}

} // namespace cuzk
