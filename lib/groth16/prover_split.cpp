#include "cuzk/groth16/prover_split.hpp"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/msm/msm.hpp"
#include "cuzk/util/parallel.hpp"
#include "cuzk/util/random.hpp"

namespace cuzk::groth16 {

namespace {

using clock = std::chrono::steady_clock;

uint64_t ns_since(clock::time_point t0)
{
    return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(clock::now() - t0).count());
}

// Brackets one step for the observer (exception-safe: the end is reported
// also when the step throws, so spans always close).
struct step_scope {
    prove_observer* obs;
    std::string_view step, query;
    step_scope(prove_observer* o, std::string_view s, std::string_view q) : obs(o), step(s), query(q)
    {
        if (obs) obs->step_begin(step, query);
    }
    ~step_scope()
    {
        if (obs) obs->step_end(step, query);
    }
    step_scope(const step_scope&) = delete;
    step_scope& operator=(const step_scope&) = delete;
};

// Σ k_i·P_i with Montgomery scalars k_i, in three classes: k = 0 is skipped,
// k = 1 is summed by batch addition (one mixed addition per point, no
// Pippenger windows), the rest go through Pippenger. For Groth16 witnesses of
// bit-heavy circuits most aux values are 0 or 1, so the batch sum carries
// most of the points at about a tenth of the per-point cost of a 255-bit MSM.
// Any group of either curve (F is its scalar field); obs may be null.
template <class Aff, class F>
auto msm_split(std::span<const Aff> pts, std::span<const F> sc, unsigned threads, prove_observer* obs,
               std::string_view msm_step, std::string_view query)
{
    step_scope whole(obs, msm_step, query);
    if (pts.size() != sc.size())
        throw error(errc::internal,
                    fmt::format("msm_split: query '{}' has {} points for {} scalars", query, pts.size(), sc.size()));
    const size_t n = pts.size();
    std::vector<uint8_t> ones(n, 0);
    std::vector<Aff> other_pts;
    std::vector<typename F::repr> other_sc;
    const F one = F::one();
    for (size_t i = 0; i < n; ++i) {
        if (sc[i].is_zero()) continue;
        if (sc[i] == one) {
            ones[i] = 1;
            continue;
        }
        other_pts.push_back(pts[i]);
        other_sc.push_back(sc[i].to_repr());
    }
    decltype(pts[0].to_jacobian()) acc;
    {
        step_scope ba(obs, "BATCH_ADD", query);
        acc = sum_points(pts, std::span<const uint8_t>(ones), threads);
    }
    if (!other_pts.empty()) {
        msm_options o;
        o.threads = threads;
        acc = acc.add(msm(std::span<const Aff>(other_pts), std::span<const typename F::repr>(other_sc), o));
    }
    return acc;
}

// The scalars of a density-filtered query: inputs where in_mask (all when
// in_mask is null), then aux where aux_mask.
std::vector<fr> gather(std::span<const fr> inputs, const std::vector<bool>* in_mask, std::span<const fr> aux,
                       const std::vector<bool>& aux_mask)
{
    std::vector<fr> out;
    out.reserve(inputs.size() + aux.size());
    for (size_t i = 0; i < inputs.size(); ++i)
        if (!in_mask || (*in_mask)[i]) out.push_back(inputs[i]);
    for (size_t j = 0; j < aux.size(); ++j)
        if (aux_mask[j]) out.push_back(aux[j]);
    return out;
}

} // namespace

g1_jacobian msm_witness(std::span<const g1_affine> points, std::span<const fr> scalars, unsigned threads)
{
    return msm_split(points, scalars, threads, nullptr, "", "");
}
g2_jacobian msm_witness(std::span<const g2_affine> points, std::span<const fr> scalars, unsigned threads)
{
    return msm_split(points, scalars, threads, nullptr, "", "");
}
bn254::g1_jacobian msm_witness(std::span<const bn254::g1_affine> points, std::span<const bn254::fr> scalars,
                               unsigned threads)
{
    return msm_split(points, scalars, threads, nullptr, "", "");
}
bn254::g2_jacobian msm_witness(std::span<const bn254::g2_affine> points, std::span<const bn254::fr> scalars,
                               unsigned threads)
{
    return msm_split(points, scalars, threads, nullptr, "", "");
}

prove_sums prove_start(const proving_key& pk, const query_density& density, std::vector<fr> a, std::vector<fr> b,
                       std::vector<fr> c, std::span<const fr> inputs, std::span<const fr> aux,
                       const prove_options& opt, prove_observer* observer, prove_timings* timings)
{
    const auto t_all = clock::now();
    if (pk.conv != convention::bellperson)
        throw error(errc::invalid_argument, "prove_start: the key follows the snarkjs convention");
    if (inputs.size() != pk.num_inputs || aux.size() != pk.num_aux)
        throw error(errc::invalid_argument,
                    fmt::format("prove_start: assignment has {} inputs and {} aux, the key expects {} and {}",
                                inputs.size(), aux.size(), pk.num_inputs, pk.num_aux));
    if (density.a_aux.size() != aux.size() || density.b_aux.size() != aux.size() ||
        density.b_input.size() != inputs.size())
        throw error(errc::invalid_argument, "prove_start: density bitmaps do not match the assignment");
    if (inputs.empty() || !inputs[0].is_one())
        throw error(errc::invalid_argument, "prove_start: input 0 must be the constant one");
    if (pk.h.size() + 1 != pk.domain_size || pk.l.size() != pk.num_aux)
        throw error(errc::bad_format, "prove_start: H or L query size does not match the key's domain");
    if (b.size() != a.size() || c.size() != a.size())
        throw error(errc::invalid_argument,
                    fmt::format("prove_start: a, b, c have {}, {}, {} rows", a.size(), b.size(), c.size()));
    const size_t rows = a.size() + inputs.size();
    if (rows > pk.domain_size)
        throw error(errc::invalid_argument,
                    fmt::format("prove_start: {} rows do not fit the key's domain of {}", rows, pk.domain_size));
    const size_t sa_count = inputs.size() + size_t(std::count(density.a_aux.begin(), density.a_aux.end(), true));
    const size_t sb_count = size_t(std::count(density.b_input.begin(), density.b_input.end(), true)) +
                            size_t(std::count(density.b_aux.begin(), density.b_aux.end(), true));
    if (sa_count != pk.a.size())
        throw error(errc::bad_format, fmt::format("prove_start: A query has {} points, density selects {}",
                                                  pk.a.size(), sa_count));
    if (sb_count != pk.b_g1.size() || sb_count != pk.b_g2.size())
        throw error(errc::bad_format, fmt::format("prove_start: B queries have {}/{} points, density selects {}",
                                                  pk.b_g1.size(), pk.b_g2.size(), sb_count));
    const unsigned th = opt.threads;
    prove_timings tm;

    // The input constraints input_i · 0 = 0 (bellperson appends them).
    for (const fr& x : inputs) {
        a.push_back(x);
        b.push_back(fr::zero());
        c.push_back(fr::zero());
    }
    auto t = clock::now();
    std::vector<fr> h;
    {
        step_scope s(observer, "NTT", "");
        h = compute_h_bellperson(std::move(a), std::move(b), std::move(c), pk.domain_size, th);
    }
    tm.h_ns = ns_since(t);

    prove_sums out;
    t = clock::now();
    out.h = msm_split<g1_affine, fr>(pk.h, h, th, observer, "MSM_H", "h");
    tm.msm_h_ns = ns_since(t);
    h = {};   // free the coefficients before the remaining MSMs
    t = clock::now();
    out.l = msm_split<g1_affine, fr>(pk.l, aux, th, observer, "MSM_L", "l");
    tm.msm_l_ns = ns_since(t);
    t = clock::now();
    {
        const std::vector<fr> sa = gather(inputs, nullptr, aux, density.a_aux);
        out.a = msm_split<g1_affine, fr>(pk.a, sa, th, observer, "MSM_A", "a");
    }
    tm.msm_a_ns = ns_since(t);
    const std::vector<fr> sb = gather(inputs, &density.b_input, aux, density.b_aux);
    t = clock::now();
    out.b1 = msm_split<g1_affine, fr>(pk.b_g1, sb, th, observer, "MSM_B1", "b1");
    tm.msm_b1_ns = ns_since(t);
    t = clock::now();
    out.b2 = msm_split<g2_affine, fr>(pk.b_g2, sb, th, observer, "MSM_B2", "b2");
    tm.msm_b2_ns = ns_since(t);
    tm.total_ns = ns_since(t_all);
    if (timings) *timings = tm;
    return out;
}

namespace {

template <class C>
void check_snarkjs(const proving_key_t<C>& pk, std::span<const typename C::fr> w, const char* fn)
{
    if (pk.conv != convention::snarkjs)
        throw error(errc::invalid_argument, fmt::format("{}: the key follows the bellperson convention", fn));
    const size_t n_vars = size_t(pk.num_inputs) + pk.num_aux;
    if (w.size() != n_vars)
        throw error(errc::invalid_argument,
                    fmt::format("{}: the witness has {} values, the key expects {}", fn, w.size(), n_vars));
    if (w.empty() || !w[0].is_one())
        throw error(errc::invalid_argument, fmt::format("{}: witness value 0 must be the constant one", fn));
    if (pk.h.size() != pk.domain_size || pk.a.size() != n_vars || pk.b_g1.size() != n_vars ||
        pk.b_g2.size() != n_vars || pk.l.size() != pk.num_aux)
        throw error(errc::bad_format, fmt::format("{}: the key's point sections do not match its sizes", fn));
}

} // namespace

namespace {

// Checks every coefficient's indices; true when the list is ordered by
// constraint (snarkjs and cuzk write it so), so that cutting it where the
// constraint changes gives ranges that own their rows.
template <class C>
bool check_coefs(const proving_key_t<C>& pk, size_t n_vars)
{
    bool sorted = true;
    uint32_t prev = 0;
    for (const sparse_coef_t<C>& e : pk.coefs) {
        if (e.constraint >= pk.domain_size || e.signal >= n_vars || e.matrix > 1)
            throw error(errc::bad_format,
                        fmt::format("snarkjs_evaluate_ab: coefficient (matrix {}, constraint {}, signal {}) out of range",
                                    e.matrix, e.constraint, e.signal));
        sorted &= e.constraint >= prev;
        prev = e.constraint;
    }
    return sorted;
}

// Cut points of a constraint-ordered list into about `parts` ranges, each
// starting at the first coefficient of its constraint.
template <class C>
std::vector<size_t> row_cuts(const std::vector<sparse_coef_t<C>>& cs, unsigned parts)
{
    std::vector<size_t> cut{0};
    for (unsigned t = 1; t < parts; ++t) {
        size_t p = std::max(cut.back(), cs.size() * t / parts);
        while (p > 0 && p < cs.size() && cs[p].constraint == cs[p - 1].constraint) ++p;
        if (p > cut.back() && p < cs.size()) cut.push_back(p);
    }
    cut.push_back(cs.size());
    return cut;
}

} // namespace

template <class C>
void snarkjs_evaluate_ab(const proving_key_t<C>& pk, std::span<const typename C::fr> w,
                         std::vector<typename C::fr>& a, std::vector<typename C::fr>& b, unsigned threads)
{
    using F = typename C::fr;
    check_snarkjs(pk, w, "snarkjs_evaluate_ab");
    const bool sorted = check_coefs(pk, w.size());
    a.assign(pk.domain_size, F::zero());
    b.assign(pk.domain_size, F::zero());
    const auto& cs = pk.coefs;
    auto run = [&](size_t lo, size_t hi) {
        for (size_t i = lo; i < hi; ++i) (cs[i].matrix == 0 ? a : b)[cs[i].constraint] += cs[i].value * w[cs[i].signal];
    };
    const unsigned th = resolve_threads(threads);
    if (!sorted || th == 1 || cs.size() < (size_t{1} << 16)) {
        run(0, cs.size());
        return;
    }
    const std::vector<size_t> cut = row_cuts(cs, 4 * th);
    parallel_tasks(th, cut.size() - 1, [&](size_t t, unsigned) { run(cut[t], cut[t + 1]); });
}

template <class C>
prove_sums_t<C> prove_start_snarkjs(const proving_key_t<C>& pk, std::vector<typename C::fr> a,
                                    std::vector<typename C::fr> b, std::span<const typename C::fr> w,
                                    const prove_options& opt, prove_observer* observer, prove_timings* timings)
{
    using F = typename C::fr;
    using G1 = typename C::g1_affine;
    const auto t_all = clock::now();
    check_snarkjs(pk, w, "prove_start_snarkjs");
    if (a.size() != pk.domain_size || b.size() != pk.domain_size)
        throw error(errc::invalid_argument,
                    fmt::format("prove_start_snarkjs: a, b have {}, {} values for a domain of {}", a.size(), b.size(),
                                pk.domain_size));
    const unsigned th = opt.threads;
    prove_timings tm;
    auto t = clock::now();
    std::vector<F> h;
    {
        step_scope s(observer, "NTT", "");
        h = compute_h_snarkjs(std::move(a), std::move(b), pk.domain_size, th);
    }
    tm.h_ns = ns_since(t);

    prove_sums_t<C> out;
    t = clock::now();
    out.h = msm_split<G1, F>(pk.h, h, th, observer, "MSM_H", "h");
    tm.msm_h_ns = ns_since(t);
    h = {};
    t = clock::now();
    out.l = msm_split<G1, F>(pk.l, w.subspan(pk.num_inputs), th, observer, "MSM_L", "l");
    tm.msm_l_ns = ns_since(t);
    t = clock::now();
    out.a = msm_split<G1, F>(pk.a, w, th, observer, "MSM_A", "a");
    tm.msm_a_ns = ns_since(t);
    t = clock::now();
    out.b1 = msm_split<G1, F>(pk.b_g1, w, th, observer, "MSM_B1", "b1");
    tm.msm_b1_ns = ns_since(t);
    t = clock::now();
    out.b2 = msm_split<typename C::g2_affine, F>(pk.b_g2, w, th, observer, "MSM_B2", "b2");
    tm.msm_b2_ns = ns_since(t);
    tm.total_ns = ns_since(t_all);
    if (timings) *timings = tm;
    return out;
}

template <class C>
prove_sums_t<C> prove_start_snarkjs(const proving_key_t<C>& pk, std::span<const typename C::fr> w,
                                    const prove_options& opt, prove_observer* observer, prove_timings* timings)
{
    const auto t_all = clock::now();
    std::vector<typename C::fr> a, b;
    snarkjs_evaluate_ab(pk, w, a, b, opt.threads);
    const uint64_t eval_ns = ns_since(t_all);
    prove_timings tm;
    prove_sums_t<C> out = prove_start_snarkjs(pk, std::move(a), std::move(b), w, opt, observer, &tm);
    tm.h_ns += eval_ns;
    tm.total_ns = ns_since(t_all);
    if (timings) *timings = tm;
    return out;
}

template <class C>
proof_t<C> prove_finish(const verifying_key_t<C>& vk, const prove_sums_t<C>& sums, const typename C::fr& r,
                        const typename C::fr& s)
{
    return assemble_proof(vk, {sums.h, sums.l, sums.a, sums.b1, sums.b2}, r, s);
}

template <class C>
proof_t<C> prove_finish(const verifying_key_t<C>& vk, const prove_sums_t<C>& sums)
{
    using F = typename C::fr;
    return prove_finish(vk, sums, os_random_fr<F>(), os_random_fr<F>());
}

#define CUZK_GROTH16_PROVER_SPLIT(C)                                                                                \
    template void snarkjs_evaluate_ab<C>(const proving_key_t<C>&, std::span<const C::fr>, std::vector<C::fr>&,     \
                                         std::vector<C::fr>&, unsigned);                                           \
    template prove_sums_t<C> prove_start_snarkjs<C>(const proving_key_t<C>&, std::vector<C::fr>,                   \
                                                    std::vector<C::fr>, std::span<const C::fr>,                    \
                                                    const prove_options&, prove_observer*, prove_timings*);        \
    template prove_sums_t<C> prove_start_snarkjs<C>(const proving_key_t<C>&, std::span<const C::fr>,               \
                                                    const prove_options&, prove_observer*, prove_timings*);        \
    template proof_t<C> prove_finish<C>(const verifying_key_t<C>&, const prove_sums_t<C>&, const C::fr&,           \
                                        const C::fr&);                                                             \
    template proof_t<C> prove_finish<C>(const verifying_key_t<C>&, const prove_sums_t<C>&);
CUZK_GROTH16_PROVER_SPLIT(bls12_381_curve)
CUZK_GROTH16_PROVER_SPLIT(bn254_curve)
#undef CUZK_GROTH16_PROVER_SPLIT

} // namespace cuzk::groth16
