#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/prover_split.hpp"

#include <chrono>
#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/msm/msm.hpp"
#include "cuzk/ntt/ntt.hpp"
#include "cuzk/util/parallel.hpp"
#include "cuzk/util/random.hpp"

namespace cuzk::groth16 {

namespace {

using clock = std::chrono::steady_clock;

uint64_t ns_since(clock::time_point t0)
{
    return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(clock::now() - t0).count());
}

unsigned log2_exact(uint64_t n, const char* what)
{
    if (n == 0 || (n & (n - 1)) != 0)
        throw error(errc::invalid_argument, fmt::format("{}: domain size {} is not a power of two", what, n));
    return unsigned(__builtin_ctzll(n));
}


g1_jacobian mul(const g1_affine& p, const fr& k) { return scalar_mul(p, k.to_repr()); }
g2_jacobian mul(const g2_affine& p, const fr& k) { return scalar_mul(p, k.to_repr()); }

// Σ k_i·P_i where the k_i are Montgomery field elements: zeros are skipped,
// ones are summed by plain batch addition, the rest go through Pippenger.
template <class Aff, class Jac>
Jac msm_split_impl(std::span<const Aff> pts, std::span<const fr> sc, unsigned threads)
{
    if (pts.size() != sc.size())
        throw error(errc::internal, fmt::format("msm: {} points for {} scalars", pts.size(), sc.size()));
    const size_t n = pts.size();
    std::vector<uint8_t> ones(n, 0);
    std::vector<Aff> other_pts;
    std::vector<fr::repr> other_sc;
    const fr one = fr::one();
    for (size_t i = 0; i < n; ++i) {
        if (sc[i].is_zero()) continue;
        if (sc[i] == one) {
            ones[i] = 1;
            continue;
        }
        other_pts.push_back(pts[i]);
        other_sc.push_back(sc[i].to_repr());
    }
    msm_options o;
    o.threads = threads;
    Jac acc = sum_points(pts, std::span<const uint8_t>(ones), threads);
    if (!other_pts.empty()) acc = acc.add(msm(std::span<const Aff>(other_pts), std::span<const fr::repr>(other_sc), o));
    return acc;
}

} // namespace

g1_jacobian msm_witness(std::span<const g1_affine> points, std::span<const fr> scalars, unsigned threads)
{
    return msm_split_impl<g1_affine, g1_jacobian>(points, scalars, threads);
}
g2_jacobian msm_witness(std::span<const g2_affine> points, std::span<const fr> scalars, unsigned threads)
{
    return msm_split_impl<g2_affine, g2_jacobian>(points, scalars, threads);
}

proof assemble_proof(const verifying_key& vk, const query_sums& q, const fr& r, const fr& s)
{
    // A = α + Σ a_i·A_i + r·δ;  B = β + Σ a_i·B_i + s·δ (in G2, and in G1 for C);
    // C = Σ aux·L + Σ h·H + s·A + r·B1 − r·s·δ1.
    const g1_jacobian A = q.a.add(vk.alpha_g1).add(mul(vk.delta_g1, r));
    const g2_jacobian B = q.b_g2.add(vk.beta_g2).add(mul(vk.delta_g2, s));
    const g1_jacobian B1 = q.b_g1.add(vk.beta_g1).add(mul(vk.delta_g1, s));
    const g1_jacobian C = q.l.add(q.h)
                              .add(scalar_mul(A, s.to_repr()))
                              .add(scalar_mul(B1, r.to_repr()))
                              .add(-mul(vk.delta_g1, r * s));
    return {A.to_affine(), B.to_affine(), C.to_affine()};
}

std::vector<fr> compute_h_bellperson(std::vector<fr> a, std::vector<fr> b, std::vector<fr> c,
                                     uint64_t domain_size, unsigned threads)
{
    const unsigned log_n = log2_exact(domain_size, "compute_h_bellperson");
    if (a.size() > domain_size || b.size() != a.size() || c.size() != a.size())
        throw error(errc::invalid_argument,
                    fmt::format("compute_h_bellperson: a, b, c have {}, {}, {} rows for a domain of {}", a.size(),
                                b.size(), c.size(), domain_size));
    a.resize(domain_size, fr::zero());
    b.resize(domain_size, fr::zero());
    c.resize(domain_size, fr::zero());
    const ntt_domain d(log_n, root_convention::bellperson);
    const fr g = fr::from_u64(7);   // bellperson's coset shift: the multiplicative generator
    for (auto* v : {&a, &b, &c}) {
        intt(*v, d, threads);
        coset_ntt(*v, d, g, threads);
    }
    // On the coset g·⟨ω⟩, Z(x) = x^n − 1 takes the single value g^n − 1.
    const fr z_inv = (g.pow(bigint<1>{{domain_size}}) - fr::one()).inverse();
    parallel_for(threads, domain_size, [&](size_t lo, size_t hi, unsigned) {
        for (size_t i = lo; i < hi; ++i) a[i] = (a[i] * b[i] - c[i]) * z_inv;
    });
    coset_intt(a, d, g, threads);
    // deg h ≤ n − 2: the top coefficient is zero for a satisfying witness.
    a.resize(domain_size - 1);
    return a;
}

std::vector<fr> compute_h_snarkjs(std::vector<fr> a, std::vector<fr> b, uint64_t domain_size, unsigned threads)
{
    const unsigned log_n = log2_exact(domain_size, "compute_h_snarkjs");
    if (a.size() > domain_size || b.size() != a.size())
        throw error(errc::invalid_argument, fmt::format("compute_h_snarkjs: a, b have {}, {} rows for a domain of {}",
                                                        a.size(), b.size(), domain_size));
    a.resize(domain_size, fr::zero());
    b.resize(domain_size, fr::zero());
    std::vector<fr> c(domain_size);
    parallel_for(threads, domain_size, [&](size_t lo, size_t hi, unsigned) {
        for (size_t i = lo; i < hi; ++i) c[i] = a[i] * b[i];
    });
    const ntt_domain d(log_n, root_convention::snarkjs);
    const fr w2n = root_of_unity(log_n + 1, root_convention::snarkjs);
    // Evaluate on the odd coset: iNTT to coefficients, multiply coefficient i
    // by ω_2n^i, NTT back.
    for (auto* v : {&a, &b, &c}) {
        intt(*v, d, threads);
        scale_by_powers(*v, w2n, threads);
        ntt(*v, d, threads);
    }
    parallel_for(threads, domain_size, [&](size_t lo, size_t hi, unsigned) {
        for (size_t i = lo; i < hi; ++i) a[i] = a[i] * b[i] - c[i];
    });
    return a;
}

proof prove_bellperson(const proving_key& pk, const query_density& density, std::vector<fr> a, std::vector<fr> b,
                       std::vector<fr> c, std::span<const fr> inputs, std::span<const fr> aux, const fr& r,
                       const fr& s, const prove_options& opt, prove_timings* timings)
{
    // The device part and the CPU tail of the split prover, back to back.
    const auto t_all = clock::now();
    prove_timings tm;
    const prove_sums sums =
        prove_start(pk, density, std::move(a), std::move(b), std::move(c), inputs, aux, opt, nullptr, &tm);
    const proof pr = prove_finish(pk.vk, sums, r, s);
    tm.total_ns = ns_since(t_all);
    if (timings) *timings = tm;
    return pr;
}

proof prove_bellperson(const proving_key& pk, const query_density& density, std::vector<fr> a, std::vector<fr> b,
                       std::vector<fr> c, std::span<const fr> inputs, std::span<const fr> aux,
                       const prove_options& opt, prove_timings* timings)
{
    return prove_bellperson(pk, density, std::move(a), std::move(b), std::move(c), inputs, aux, os_random_fr(),
                            os_random_fr(), opt, timings);
}

proof prove_snarkjs(const proving_key& pk, std::span<const fr> w, const fr& r, const fr& s, const prove_options& opt,
                    prove_timings* timings)
{
    // The coefficient evaluation, the device part and the CPU tail of the split prover, back to back.
    const auto t_all = clock::now();
    prove_timings tm;
    const prove_sums sums = prove_start_snarkjs(pk, w, opt, nullptr, &tm);
    const proof pr = prove_finish(pk.vk, sums, r, s);
    tm.total_ns = ns_since(t_all);
    if (timings) *timings = tm;
    return pr;
}

proof prove_snarkjs(const proving_key& pk, std::span<const fr> witness, const prove_options& opt,
                    prove_timings* timings)
{
    return prove_snarkjs(pk, witness, os_random_fr(), os_random_fr(), opt, timings);
}

} // namespace cuzk::groth16
