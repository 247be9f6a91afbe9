#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/prover_split.hpp"

#include <chrono>
#include <fmt/format.h>

#include "cuzk/error.hpp"
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

// k·P for a Montgomery scalar k, on any group.
template <class Aff, class F>
auto mul(const Aff& p, const F& k)
{
    return scalar_mul(p, k.to_repr());
}

} // namespace

template <class C>
proof_t<C> assemble_proof(const verifying_key_t<C>& vk, const query_sums_t<C>& q, const typename C::fr& r,
                          const typename C::fr& s)
{
    // A = α + Σ a_i·A_i + r·δ;  B = β + Σ a_i·B_i + s·δ (in G2, and in G1 for C);
    // C = Σ aux·L + Σ h·H + s·A + r·B1 − r·s·δ1.
    using J1 = typename C::g1_jacobian;
    const J1 A = q.a.add(vk.alpha_g1).add(mul(vk.delta_g1, r));
    const typename C::g2_jacobian B = q.b_g2.add(vk.beta_g2).add(mul(vk.delta_g2, s));
    const J1 B1 = q.b_g1.add(vk.beta_g1).add(mul(vk.delta_g1, s));
    const J1 Cj = q.l.add(q.h)
                               .add(mul(A, s))
                               .add(mul(B1, r))
                               .add(-mul(vk.delta_g1, r * s));
    return {A.to_affine(), B.to_affine(), Cj.to_affine()};
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
    // On the coset g·⟨ω⟩, Z(x) = x^n − 1 takes the single value g^n − 1, so
    //   h = cosetINTT((A'·B' − C')/Z) = (cosetINTT(A'·B') − C)·Z⁻¹,
    // A', B', C' the values on the coset, C the coefficients of c: deg C < n,
    // so the coset iNTT of C' is C itself, which c's iNTT gives. Six
    // transforms instead of seven (c needs no coset NTT).
    for (auto* v : {&a, &b}) values_on_coset(*v, d, g, threads);
    intt<fr>(c, d, threads);
    parallel_for(threads, domain_size, [&](size_t lo, size_t hi, unsigned) {
        for (size_t i = lo; i < hi; ++i) a[i] *= b[i];
    });
    coset_intt(a, d, g, threads);
    const fr z_inv = (g.pow(bigint<1>{{domain_size}}) - fr::one()).inverse();
    parallel_for(threads, domain_size, [&](size_t lo, size_t hi, unsigned) {
        for (size_t i = lo; i < hi; ++i) a[i] = (a[i] - c[i]) * z_inv;
    });
    // deg h ≤ n − 2: the top coefficient is zero for a satisfying witness.
    a.resize(domain_size - 1);
    return a;
}

template <class F>
std::vector<F> compute_h_snarkjs(std::vector<F> a, std::vector<F> b, uint64_t domain_size, unsigned threads)
{
    const unsigned log_n = log2_exact(domain_size, "compute_h_snarkjs");
    if (a.size() > domain_size || b.size() != a.size())
        throw error(errc::invalid_argument, fmt::format("compute_h_snarkjs: a, b have {}, {} rows for a domain of {}",
                                                        a.size(), b.size(), domain_size));
    a.resize(domain_size, F::zero());
    b.resize(domain_size, F::zero());
    std::vector<F> c(domain_size);
    parallel_for(threads, domain_size, [&](size_t lo, size_t hi, unsigned) {
        for (size_t i = lo; i < hi; ++i) c[i] = a[i] * b[i];
    });
    const ntt_domain_t<F> d(log_n, root_convention::snarkjs);
    const F w2n = root_of_unity_of<F>(log_n + 1, root_convention::snarkjs);
    // Evaluate on the odd coset ω_2n·⟨ω_n⟩ (iNTT to coefficients, coefficient
    // i times ω_2n^i, NTT back, in one call).
    for (auto* v : {&a, &b, &c}) values_on_coset(*v, d, w2n, threads);
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

template <class C>
proof_t<C> prove_snarkjs(const proving_key_t<C>& pk, std::span<const typename C::fr> w, const typename C::fr& r,
                         const typename C::fr& s, const prove_options& opt, prove_timings* timings)
{
    // The coefficient evaluation, the device part and the CPU tail of the split prover, back to back.
    const auto t_all = clock::now();
    prove_timings tm;
    const prove_sums_t<C> sums = prove_start_snarkjs(pk, w, opt, nullptr, &tm);
    const proof_t<C> pr = prove_finish(pk.vk, sums, r, s);
    tm.total_ns = ns_since(t_all);
    if (timings) *timings = tm;
    return pr;
}

template <class C>
proof_t<C> prove_snarkjs(const proving_key_t<C>& pk, std::span<const typename C::fr> witness,
                         const prove_options& opt, prove_timings* timings)
{
    using F = typename C::fr;
    return prove_snarkjs(pk, witness, os_random_fr<F>(), os_random_fr<F>(), opt, timings);
}

template std::vector<fr> compute_h_snarkjs<fr>(std::vector<fr>, std::vector<fr>, uint64_t, unsigned);
template std::vector<bn254::fr> compute_h_snarkjs<bn254::fr>(std::vector<bn254::fr>, std::vector<bn254::fr>,
                                                             uint64_t, unsigned);

#define CUZK_GROTH16_PROVER(C)                                                                                      \
    template proof_t<C> assemble_proof<C>(const verifying_key_t<C>&, const query_sums_t<C>&, const C::fr&,         \
                                          const C::fr&);                                                           \
    template proof_t<C> prove_snarkjs<C>(const proving_key_t<C>&, std::span<const C::fr>, const C::fr&,            \
                                         const C::fr&, const prove_options&, prove_timings*);                      \
    template proof_t<C> prove_snarkjs<C>(const proving_key_t<C>&, std::span<const C::fr>, const prove_options&,    \
                                         prove_timings*);
CUZK_GROTH16_PROVER(bls12_381_curve)
CUZK_GROTH16_PROVER(bn254_curve)
#undef CUZK_GROTH16_PROVER

} // namespace cuzk::groth16
