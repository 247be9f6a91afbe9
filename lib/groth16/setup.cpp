#include "cuzk/groth16/setup.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <span>

#include "cuzk/error.hpp"
#include "cuzk/ntt/ntt.hpp"
#include "cuzk/util/parallel.hpp"
#include "cuzk/util/random.hpp"

namespace cuzk::groth16 {

namespace {

// Fixed-base scalar multiplication k·G for many k.
// Table: for each of W = ⌈256/w⌉ windows k, the multiples d·2^(wk)·G for
// d = 1..2^w − 1 in affine form. A scalar then costs W − 1 mixed additions
// (no doublings). w = 10 ⇒ 26 windows × 1023 points. Any group of either
// curve (scalars of at most 256 bits).
template <class Aff>
class fixed_base {
public:
    using Jac = decltype(Aff{}.to_jacobian());
    using Xyzz = decltype(Aff{}.to_xyzz());
    static constexpr unsigned w = 10;
    static constexpr unsigned windows = (256 + w - 1) / w;

    fixed_base(const Aff& g, unsigned threads)
    {
        const size_t per = (size_t{1} << w) - 1;
        std::vector<Jac> tmp(windows * per);
        Jac base = g.to_jacobian();
        for (unsigned k = 0; k < windows; ++k) {
            Jac acc = base;
            for (size_t d = 0; d < per; ++d) {
                tmp[k * per + d] = acc;
                acc = acc.add(base);
            }
            base = acc;   // 2^w · base
        }
        table_.resize(tmp.size());
        batch_to_affine(tmp.data(), table_.data(), tmp.size());
        (void)threads;
    }
    // k: a canonical scalar (F::repr).
    template <class Repr>
    Jac mul(const Repr& k) const
    {
        const size_t per = (size_t{1} << w) - 1;
        Xyzz acc = Xyzz::identity();
        for (unsigned i = 0; i < windows; ++i) {
            const uint32_t d = k.bits(size_t(i) * w, w);
            if (d) acc = acc.add(table_[i * per + d - 1]);
        }
        return acc.to_jacobian();
    }

    // out[i] = k[i]·G in affine form for Montgomery scalars k, multi-threaded.
    template <class F>
    void mul_many(std::span<const F> ks, std::span<Aff> out, unsigned threads) const
    {
        parallel_for(threads, ks.size(), [&](size_t lo, size_t hi, unsigned) {
            constexpr size_t block = 1024;
            std::vector<Jac> j(std::min(block, hi - lo));
            for (size_t b = lo; b < hi; b += block) {
                const size_t e = std::min(hi, b + block);
                for (size_t i = b; i < e; ++i) j[i - b] = mul(ks[i].to_repr());
                batch_to_affine(j.data(), out.data() + b, e - b);
            }
        });
    }
    template <class F>
    std::vector<Aff> mul_many(const std::vector<F>& ks, unsigned threads) const
    {
        std::vector<Aff> out(ks.size());
        mul_many(std::span<const F>(ks), std::span<Aff>(out), threads);
        return out;
    }

private:
    std::vector<Aff> table_;
};

// Random non-zero field element (a zero α, β, γ, δ or τ would break the key).
template <class F>
F nonzero_random()
{
    for (;;) {
        const F x = os_random_fr<F>();
        if (!x.is_zero()) return x;
    }
}

// c·x_i/(τ − x_i) for the n points x_i = x0·step^i, with one batch inversion
// per worker (3 multiplications per point for the inversion trick, 2 for x_i
// and the scaling, one inversion and one power per worker). Lagrange bases
// are of this form: over ⟨ω⟩ of size n, L_j(τ) = (τ^n − 1)/n · ω^j/(τ − ω^j).
template <class F>
std::vector<F> lagrange_like(const F& tau, uint64_t n, const F& x0, const F& step, const F& c, unsigned threads)
{
    std::vector<F> den(n);
    parallel_for(threads, n, [&](size_t lo, size_t hi, unsigned) {
        const size_t len = hi - lo;
        std::vector<F> pre(len);
        F xi = x0 * step.pow(bigint<1>{{uint64_t(lo)}});
        const F x_lo = xi;
        F acc = F::one();
        for (size_t i = 0; i < len; ++i) {
            const F d = tau - xi;
            den[lo + i] = d;
            pre[i] = acc;
            acc *= d;
            xi *= step;
        }
        if (acc.is_zero()) throw error(errc::internal, "setup: tau fell on an evaluation point");
        F inv = acc.inverse();
        for (size_t i = len; i-- > 0;) {
            const F d = den[lo + i];
            den[lo + i] = inv * pre[i];
            inv *= d;
        }
        xi = x_lo;
        for (size_t i = 0; i < len; ++i) {
            den[lo + i] = c * xi * den[lo + i];
            xi *= step;
        }
    });
    return den;
}

// L_j(τ) for j < n on ⟨ω⟩.
template <class F>
std::vector<F> lagrange_at(const F& tau, uint64_t n, const F& omega, unsigned threads)
{
    const F c = (tau.pow(bigint<1>{{n}}) - F::one()) * F::from_u64(n).inverse();
    return lagrange_like(tau, n, F::one(), omega, c, threads);
}

template <class F>
struct qap_at_tau_t {
    std::vector<F> u, v, w;   // per variable (unified index)
};
using qap_at_tau = qap_at_tau_t<fr>;

template <class F>
qap_at_tau_t<F> evaluate_qap(const r1cs_description_t<F>& r, const std::vector<F>& lag)
{
    const size_t nv = size_t(r.num_inputs) + r.num_aux;
    qap_at_tau_t<F> q{std::vector<F>(nv, F::zero()), std::vector<F>(nv, F::zero()), std::vector<F>(nv, F::zero())};
    r.for_each_entry([&](int m, uint32_t row, uint32_t col, const F& coeff) {
        if (row >= r.num_constraints || col >= nv || m < 0 || m > 2)
            throw error(errc::invalid_argument,
                        fmt::format("setup: matrix entry (matrix {}, row {}, column {}) is out of range", m, row, col));
        auto& dst = m == 0 ? q.u : (m == 1 ? q.v : q.w);
        dst[col] += coeff * lag[row];
    });
    // The input constraints: row num_constraints + i has A-coefficient 1 on input i.
    for (uint32_t i = 0; i < r.num_inputs; ++i) q.u[i] += lag[r.num_constraints + i];
    return q;
}

// The same from a PCE, multi-threaded: the transposed product
// u_col = Σ_row A[row][col]·L_row(τ) (and v, w from B, C). Worker t owns the
// columns [t·nv/T, (t+1)·nv/T) and scans every entry, keeping those of its
// columns, so no two workers write the same element and no transpose is
// stored. Cost: T scans of the column arrays (4 bytes per entry, streamed)
// plus one accumulation per entry (a multiplication unless ±1).
qap_at_tau evaluate_qap(const r1cs::pce& p, const std::vector<fr>& lag, unsigned threads)
{
    const size_t nv = p.num_variables();
    qap_at_tau q{std::vector<fr>(nv), std::vector<fr>(nv), std::vector<fr>(nv)};
    const unsigned T = unsigned(std::min<size_t>(resolve_threads(threads), std::max<size_t>(nv, 1)));
    const r1cs::csr_matrix* ms[3] = {&p.a, &p.b, &p.c};
    std::vector<fr>* dst[3] = {&q.u, &q.v, &q.w};
    const fr* table = p.coeffs.data();
    parallel_for(T, T, [&](size_t t, size_t, unsigned) {
        const uint32_t lo = uint32_t(nv * t / T), hi = uint32_t(nv * (t + 1) / T);
        for (int mi = 0; mi < 3; ++mi) {
            fr* d = dst[mi]->data();
            for (uint32_t c = lo; c < hi; ++c) d[c] = fr::zero();
            const r1cs::csr_matrix& m = *ms[mi];
            const size_t rows = m.rows();
            for (size_t row = 0; row < rows; ++row) {
                const uint64_t e = m.row_ptr[row + 1];
                for (uint64_t k = m.row_ptr[row]; k < e; ++k) {
                    const uint32_t c = m.col[k];
                    if (c < lo || c >= hi) continue;
                    const uint32_t code = m.coef[k];
                    if (code == r1cs::coef_plus_one) d[c] += lag[row];
                    else if (code == r1cs::coef_minus_one) d[c] -= lag[row];
                    else d[c] += table[code - r1cs::coef_table_base] * lag[row];
                }
            }
        }
        for (uint32_t i = lo; i < hi && i < p.num_inputs; ++i) q.u[i] += lag[p.num_constraints + i];
    });
    return q;
}

template <class F>
void check_description(const r1cs_description_t<F>& r)
{
    if (r.num_inputs == 0) throw error(errc::invalid_argument, "setup: a circuit has at least the input ONE");
    if (!r.for_each_entry) throw error(errc::invalid_argument, "setup: no matrix entries callback");
}

template <class F>
void check_waste(const toxic_waste_t<F>& w)
{
    const std::pair<const F*, const char*> all[] = {
        {&w.tau, "tau"}, {&w.alpha, "alpha"}, {&w.beta, "beta"}, {&w.gamma, "gamma"}, {&w.delta, "delta"}};
    for (const auto& [x, name] : all)
        if (x->is_zero()) throw error(errc::invalid_argument, fmt::format("setup: toxic waste {} is zero", name));
}


class cpu_backend final : public fixed_base_backend {
public:
    explicit cpu_backend(unsigned threads) : th_(threads) {}
    void g1(std::span<const fr> k, std::span<g1_affine> out) override
    {
        std::call_once(once1_, [&] { t1_ = std::make_unique<fixed_base<g1_affine>>(g1_affine::generator(), th_); });
        t1_->mul_many(k, out, th_);
    }
    void g2(std::span<const fr> k, std::span<g2_affine> out) override
    {
        std::call_once(once2_, [&] { t2_ = std::make_unique<fixed_base<g2_affine>>(g2_affine::generator(), th_); });
        t2_->mul_many(k, out, th_);
    }

private:
    unsigned th_;
    std::once_flag once1_, once2_;
    std::unique_ptr<fixed_base<g1_affine>> t1_;
    std::unique_ptr<fixed_base<g2_affine>> t2_;
};

// The scalar half after u, v, w (both overloads).
bellperson_scalars scalars_from_qap(qap_at_tau&& q, uint64_t n, uint32_t ni, uint32_t na, uint32_t m,
                                    const toxic_waste& tw, query_density&& dens, unsigned th)
{
    bellperson_scalars s;
    s.domain_size = n;
    s.num_inputs = ni;
    s.num_aux = na;
    s.num_constraints = m;
    s.waste = tw;
    s.density = std::move(dens);
    const fr gi = tw.gamma.inverse(), di = tw.delta.inverse();
    s.h_first = (tw.tau.pow(bigint<1>{{n}}) - fr::one()) * di;
    const auto lin = [&](size_t i) { return tw.beta * q.u[i] + tw.alpha * q.v[i] + q.w[i]; };
    s.ic.resize(ni);
    for (uint32_t i = 0; i < ni; ++i) s.ic[i] = lin(i) * gi;
    // l in place of w (aux part), then a and b by compaction in place of u, v.
    parallel_for(th, na, [&](size_t lo, size_t hi, unsigned) {
        for (size_t j = lo; j < hi; ++j) q.w[ni + j] = lin(ni + j) * di;
    });
    q.w.erase(q.w.begin(), q.w.begin() + ni);
    s.l = std::move(q.w);
    size_t ka = ni;   // inputs are always in A
    for (uint32_t j = 0; j < na; ++j)
        if (s.density.a_aux[j]) q.u[ka++] = q.u[size_t(ni) + j];
    q.u.resize(ka);
    size_t kb = 0;
    for (uint32_t i = 0; i < ni; ++i)
        if (s.density.b_input[i]) q.v[kb++] = q.v[i];
    for (uint32_t j = 0; j < na; ++j)
        if (s.density.b_aux[j]) q.v[kb++] = q.v[size_t(ni) + j];
    q.v.resize(kb);
    s.a = std::move(q.u);
    s.b = std::move(q.v);
    return s;
}

std::vector<bool> bits_of(const r1cs::density_bitmap& d)
{
    std::vector<bool> v(d.bit_len);
    for (size_t i = 0; i < d.bit_len; ++i) v[i] = d.test(i);
    return v;
}

} // namespace

template <class F>
toxic_waste_t<F> toxic_waste_t<F>::random()
{
    return {nonzero_random<F>(), nonzero_random<F>(), nonzero_random<F>(), nonzero_random<F>(), nonzero_random<F>()};
}

template <class F>
toxic_waste_t<F> toxic_waste_t<F>::from_seed(uint64_t seed)
{
    splitmix64 g{seed ^ 0x7465737420776173ull};
    const auto nz = [&] {
        for (;;) {
            const F x = F::random(g);
            if (!x.is_zero()) return x;
        }
    };
    toxic_waste_t w;
    w.tau = nz();
    w.alpha = nz();
    w.beta = nz();
    w.gamma = nz();
    w.delta = nz();
    return w;
}

template struct toxic_waste_t<fr>;
template struct toxic_waste_t<bn254::fr>;

template <class F>
uint64_t groth16_domain_size(const r1cs_description_t<F>& r)
{
    const uint64_t rows = uint64_t(r.num_constraints) + r.num_inputs;
    uint64_t n = 1;
    while (n < rows) n <<= 1;
    if (n > (uint64_t{1} << 31))
        throw error(errc::unsupported, fmt::format("setup: {} rows need a domain above 2^31", rows));
    return n;
}
template uint64_t groth16_domain_size<fr>(const r1cs_description_t<fr>&);
template uint64_t groth16_domain_size<bn254::fr>(const r1cs_description_t<bn254::fr>&);

query_density compute_density(const r1cs_description& r)
{
    query_density d{std::vector<bool>(r.num_aux, false), std::vector<bool>(r.num_inputs, false),
                    std::vector<bool>(r.num_aux, false)};
    r.for_each_entry([&](int m, uint32_t, uint32_t col, const fr& coeff) {
        if (coeff.is_zero()) return;
        if (m == 0 && col >= r.num_inputs) d.a_aux[col - r.num_inputs] = true;
        if (m == 1) {
            if (col < r.num_inputs) d.b_input[col] = true;
            else d.b_aux[col - r.num_inputs] = true;
        }
    });
    return d;
}

void bellperson_scalars::h_scalars(uint64_t begin, std::span<fr> out, unsigned threads) const
{
    if (begin + out.size() + 1 > domain_size)
        throw error(errc::invalid_argument, fmt::format("h_scalars: range [{}, {}) exceeds the {} H scalars", begin,
                                                        begin + out.size(), domain_size - 1));
    const fr& tau = waste.tau;
    parallel_for(threads, out.size(), [&](size_t lo, size_t hi, unsigned) {
        fr t = h_first * tau.pow(bigint<1>{{uint64_t(begin + lo)}});
        for (size_t i = lo; i < hi; ++i) {
            out[i] = t;
            t *= tau;
        }
    });
}

bellperson_scalars bellperson_setup_scalars(const r1cs_description& r, const toxic_waste& w, unsigned threads)
{
    check_description(r);
    check_waste(w);
    const uint64_t n = groth16_domain_size(r);
    const unsigned log_n = unsigned(__builtin_ctzll(n));
    qap_at_tau q;
    {
        const std::vector<fr> lag = lagrange_at(w.tau, n, root_of_unity(log_n, root_convention::bellperson), threads);
        q = evaluate_qap(r, lag);
    }
    return scalars_from_qap(std::move(q), n, r.num_inputs, r.num_aux, r.num_constraints, w, compute_density(r),
                            threads);
}

bellperson_scalars bellperson_setup_scalars(const r1cs::pce& p, const toxic_waste& w, unsigned threads)
{
    check_waste(w);
    if (p.num_inputs == 0) throw error(errc::invalid_argument, "setup: a circuit has at least the input ONE");
    if (p.num_constraints > UINT32_MAX) throw error(errc::unsupported, "setup: more than 2^32 constraints");
    r1cs_description shape;
    shape.num_inputs = p.num_inputs;
    shape.num_aux = p.num_aux;
    shape.num_constraints = uint32_t(p.num_constraints);
    const uint64_t n = groth16_domain_size(shape);
    const unsigned log_n = unsigned(__builtin_ctzll(n));
    qap_at_tau q;
    {
        const std::vector<fr> lag = lagrange_at(w.tau, n, root_of_unity(log_n, root_convention::bellperson), threads);
        q = evaluate_qap(p, lag, threads);
    }
    query_density d{bits_of(p.a_aux_density), bits_of(p.b_input_density), bits_of(p.b_aux_density)};
    return scalars_from_qap(std::move(q), n, p.num_inputs, p.num_aux, uint32_t(p.num_constraints), w, std::move(d),
                            threads);
}

std::unique_ptr<fixed_base_backend> cpu_fixed_base(unsigned threads)
{
    return std::make_unique<cpu_backend>(threads);
}

proving_key bellperson_key_from_scalars(bellperson_scalars&& s, fixed_base_backend& be, unsigned threads,
                                        uint64_t h_chunk)
{
    proving_key pk;
    pk.conv = convention::bellperson;
    pk.num_inputs = s.num_inputs;
    pk.num_aux = s.num_aux;
    pk.domain_size = s.domain_size;
    pk.n_constraints = s.num_constraints;
    auto& vk = pk.vk;
    {
        const fr k1[4] = {s.waste.alpha, s.waste.beta, s.waste.delta, fr::zero()};
        g1_affine p1[4];
        be.g1(std::span<const fr>(k1, 3), std::span<g1_affine>(p1, 3));
        vk.alpha_g1 = p1[0];
        vk.beta_g1 = p1[1];
        vk.delta_g1 = p1[2];
        const fr k2[3] = {s.waste.beta, s.waste.gamma, s.waste.delta};
        g2_affine p2[3];
        be.g2(k2, p2);
        vk.beta_g2 = p2[0];
        vk.gamma_g2 = p2[1];
        vk.delta_g2 = p2[2];
    }
    const auto g1_of = [&](std::vector<fr>& k, std::vector<g1_affine>& out) {
        out.resize(k.size());
        be.g1(k, out);
    };
    g1_of(s.ic, vk.ic);
    std::vector<fr>().swap(s.ic);
    g1_of(s.l, pk.l);
    std::vector<fr>().swap(s.l);
    g1_of(s.a, pk.a);
    std::vector<fr>().swap(s.a);
    g1_of(s.b, pk.b_g1);
    pk.b_g2.resize(s.b.size());
    be.g2(s.b, pk.b_g2);
    std::vector<fr>().swap(s.b);

    // H in ranges of h_chunk scalars.
    const uint64_t nh = s.domain_size - 1;
    pk.h.resize(nh);
    h_chunk = std::max<uint64_t>(1, std::min(h_chunk, nh));
    std::vector<fr> hs(h_chunk);
    for (uint64_t lo = 0; lo < nh; lo += h_chunk) {
        const uint64_t len = std::min(h_chunk, nh - lo);
        s.h_scalars(lo, std::span<fr>(hs.data(), len), threads);
        be.g1(std::span<const fr>(hs.data(), len), std::span<g1_affine>(pk.h.data() + lo, len));
    }
    return pk;
}

proving_key setup_bellperson(const r1cs_description& r, query_density* density_out, const setup_options& opt)
{
    const unsigned th = opt.threads;
    const toxic_waste tw = opt.waste ? *opt.waste : toxic_waste::random();
    bellperson_scalars s = bellperson_setup_scalars(r, tw, th);
    if (density_out) *density_out = s.density;
    cpu_backend be(th);
    return bellperson_key_from_scalars(std::move(s), be, th);
}

namespace {

// The domain of r for a snarkjs key over F: the H points need ω_2n, so 2n
// must be within F's 2-adicity (errc::invalid_argument otherwise, before any
// work).
template <class F>
uint64_t snarkjs_domain(const r1cs_description_t<F>& r)
{
    const uint64_t n = groth16_domain_size(r);
    (void)root_of_unity_of<F>(unsigned(__builtin_ctzll(n)) + 1, root_convention::snarkjs);
    return n;
}

// The snarkjs setup's state on curve C: the toxic waste, the domain, the QAP
// at τ on ⟨ω_n⟩ (roots 5^t) and the fixed-base tables of both generators.
template <class C>
struct snarkjs_setup {
    using F = typename C::fr;
    toxic_waste_t<F> tw;
    unsigned th;
    uint64_t n;
    unsigned log_n;
    qap_at_tau_t<F> q;
    fixed_base<typename C::g1_affine> g1;
    fixed_base<typename C::g2_affine> g2;

    snarkjs_setup(const r1cs_description_t<F>& r, const toxic_waste_t<F>& waste, unsigned threads)
        : tw(waste), th(threads), n(snarkjs_domain(r)), log_n(unsigned(__builtin_ctzll(n))),
          g1(C::g1_affine::generator(), threads), g2(C::g2_affine::generator(), threads)
    {
        q = evaluate_qap(r, lagrange_at(tw.tau, n, root_of_unity_of<F>(log_n, root_convention::snarkjs), th));
    }

    // α, β, γ, δ times the generators; IC_i = (β·u_i + α·v_i + w_i)(τ)/γ per
    // input and L_j = (…)(τ)/δ per aux.
    void vk_ic_l(proving_key_t<C>& pk) const
    {
        auto& vk = pk.vk;
        vk.alpha_g1 = g1.mul(tw.alpha.to_repr()).to_affine();
        vk.beta_g1 = g1.mul(tw.beta.to_repr()).to_affine();
        vk.beta_g2 = g2.mul(tw.beta.to_repr()).to_affine();
        vk.gamma_g2 = g2.mul(tw.gamma.to_repr()).to_affine();
        vk.delta_g1 = g1.mul(tw.delta.to_repr()).to_affine();
        vk.delta_g2 = g2.mul(tw.delta.to_repr()).to_affine();
        const F gi = tw.gamma.inverse(), di = tw.delta.inverse();
        const auto lin = [&](size_t i) { return tw.beta * q.u[i] + tw.alpha * q.v[i] + q.w[i]; };
        std::vector<F> ic(pk.num_inputs), l(pk.num_aux);
        for (uint32_t i = 0; i < pk.num_inputs; ++i) ic[i] = lin(i) * gi;
        for (uint32_t j = 0; j < pk.num_aux; ++j) l[j] = lin(size_t(pk.num_inputs) + j) * di;
        vk.ic = g1.mul_many(ic, th);
        pk.l = g1.mul_many(l, th);
    }

    // H_i = L^(2n)_(2i+1)(τ)/δ: the Lagrange basis of the 2n-domain at the odd
    // points x_i = ω_2n^(2i+1). With x_i^n = −1, Σ_i P(x_i)·L^(2n)_(2i+1)(τ)
    // = Z(τ)·h(τ) for P = h·Z of degree < 2n, so the prover's coset values of
    // A·B − C give the H term directly.
    //   L^(2n)_k(τ) = (τ^2n − 1)/(2n) · ω_2n^k/(τ − ω_2n^k)
    std::vector<typename C::g1_affine> h_points() const
    {
        const F w2n = root_of_unity_of<F>(log_n + 1, root_convention::snarkjs);
        const F c2n = (tw.tau.pow(bigint<1>{{2 * n}}) - F::one()) * F::from_u64(2 * n).inverse() * tw.delta.inverse();
        return g1.mul_many(lagrange_like(tw.tau, n, w2n, w2n.sqr(), c2n, th), th);
    }
};

// The coefficient list: A and B entries, then A-entries for the input constraints.
template <class C>
std::vector<sparse_coef_t<C>> snarkjs_coefs(const r1cs_description_t<typename C::fr>& r)
{
    using F = typename C::fr;
    std::vector<sparse_coef_t<C>> out;
    r.for_each_entry([&](int m, uint32_t row, uint32_t col, const F& coeff) {
        if (m == 2 || coeff.is_zero()) return;
        out.push_back({uint32_t(m), row, col, coeff});
    });
    for (uint32_t i = 0; i < r.num_inputs; ++i) out.push_back({0, r.num_constraints + i, i, F::one()});
    return out;
}

} // namespace

template <class C>
proving_key_t<C> setup_snarkjs(const r1cs_description_t<typename C::fr>& r, const setup_options_t<C>& opt)
{
    using F = typename C::fr;
    check_description(r);
    const toxic_waste_t<F> tw = opt.waste ? *opt.waste : toxic_waste_t<F>::random();
    check_waste(tw);
    const snarkjs_setup<C> st(r, tw, opt.threads);
    proving_key_t<C> pk;
    pk.conv = convention::snarkjs;
    pk.num_inputs = r.num_inputs;
    pk.num_aux = r.num_aux;
    pk.domain_size = st.n;
    pk.n_constraints = r.num_constraints;
    st.vk_ic_l(pk);
    pk.a = st.g1.mul_many(st.q.u, st.th);
    pk.b_g1 = st.g1.mul_many(st.q.v, st.th);
    pk.b_g2 = st.g2.mul_many(st.q.v, st.th);
    pk.h = st.h_points();
    pk.coefs = snarkjs_coefs<C>(r);
    return pk;
}

template proving_key_t<bls12_381_curve> setup_snarkjs<bls12_381_curve>(const r1cs_description_t<fr>&,
                                                                       const setup_options_t<bls12_381_curve>&);
template proving_key_t<bn254_curve> setup_snarkjs<bn254_curve>(const r1cs_description_t<bn254::fr>&,
                                                               const setup_options_t<bn254_curve>&);

} // namespace cuzk::groth16
