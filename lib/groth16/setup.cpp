#include "cuzk/groth16/setup.hpp"

#include <fmt/format.h>

#include <memory>
#include <mutex>

#include "cuzk/error.hpp"
#include "cuzk/ntt/ntt.hpp"
#include "cuzk/util/parallel.hpp"
#include "cuzk/util/random.hpp"

namespace cuzk::groth16 {

namespace {

// Fixed-base scalar multiplication k·G for many k.
// Table: for each of W = ⌈256/w⌉ windows k, the multiples d·2^(wk)·G for
// d = 1..2^w − 1 in affine form. A scalar then costs W − 1 mixed additions
// (no doublings). w = 10 ⇒ 26 windows × 1023 points.
template <class Aff, class Jac, class Xyzz>
class fixed_base {
public:
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
    Jac mul(const fr::repr& k) const
    {
        const size_t per = (size_t{1} << w) - 1;
        Xyzz acc = Xyzz::identity();
        for (unsigned i = 0; i < windows; ++i) {
            const uint32_t d = k.bits(size_t(i) * w, w);
            if (d) acc = acc.add(table_[i * per + d - 1]);
        }
        return acc.to_jacobian();
    }

    // out[i] = k[i]·G in affine form, multi-threaded.
    std::vector<Aff> mul_many(const std::vector<fr>& ks, unsigned threads) const
    {
        std::vector<Jac> j(ks.size());
        parallel_for(threads, ks.size(), [&](size_t lo, size_t hi, unsigned) {
            for (size_t i = lo; i < hi; ++i) j[i] = mul(ks[i].to_repr());
        });
        std::vector<Aff> out(ks.size());
        parallel_for(threads, ks.size(), [&](size_t lo, size_t hi, unsigned) {
            batch_to_affine(j.data() + lo, out.data() + lo, hi - lo);
        });
        return out;
    }

private:
    std::vector<Aff> table_;
};

// Random non-zero field element (a zero α, β, γ, δ or τ would break the key).
fr nonzero_random()
{
    for (;;) {
        const fr x = os_random_fr();
        if (!x.is_zero()) return x;
    }
}

// c·x_i/(τ − x_i) for the n points x_i = x0·step^i, with one batch inversion
// (3(n−1) multiplications and one inversion). Lagrange bases are of this
// form: over ⟨ω⟩ of size n, L_j(τ) = (τ^n − 1)/n · ω^j/(τ − ω^j).
std::vector<fr> lagrange_like(const fr& tau, uint64_t n, const fr& x0, const fr& step, const fr& c, unsigned threads)
{
    std::vector<fr> x(n), den(n), pre(n);
    fr xi = x0;
    for (uint64_t i = 0; i < n; ++i) {
        x[i] = xi;
        den[i] = tau - xi;
        xi *= step;
    }
    fr acc = fr::one();
    for (uint64_t i = 0; i < n; ++i) {
        pre[i] = acc;
        acc *= den[i];
    }
    if (acc.is_zero()) throw error(errc::internal, "setup: tau fell on an evaluation point");
    fr inv = acc.inverse();
    for (uint64_t i = n; i-- > 0;) {
        const fr d = den[i];
        den[i] = inv * pre[i];
        inv *= d;
    }
    parallel_for(threads, n, [&](size_t lo, size_t hi, unsigned) {
        for (size_t i = lo; i < hi; ++i) den[i] = c * x[i] * den[i];
    });
    return den;
}

// L_j(τ) for j < n on ⟨ω⟩.
std::vector<fr> lagrange_at(const fr& tau, uint64_t n, const fr& omega, unsigned threads)
{
    const fr c = (tau.pow(bigint<1>{{n}}) - fr::one()) * fr::from_u64(n).inverse();
    return lagrange_like(tau, n, fr::one(), omega, c, threads);
}

struct qap_at_tau {
    std::vector<fr> u, v, w;   // per variable (unified index)
};

qap_at_tau evaluate_qap(const r1cs_description& r, const std::vector<fr>& lag)
{
    const size_t nv = size_t(r.num_inputs) + r.num_aux;
    qap_at_tau q{std::vector<fr>(nv, fr::zero()), std::vector<fr>(nv, fr::zero()), std::vector<fr>(nv, fr::zero())};
    r.for_each_entry([&](int m, uint32_t row, uint32_t col, const fr& coeff) {
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

void check_description(const r1cs_description& r)
{
    if (r.num_inputs == 0) throw error(errc::invalid_argument, "setup: a circuit has at least the input ONE");
    if (!r.for_each_entry) throw error(errc::invalid_argument, "setup: no matrix entries callback");
}

} // namespace

uint64_t groth16_domain_size(const r1cs_description& r)
{
    const uint64_t rows = uint64_t(r.num_constraints) + r.num_inputs;
    uint64_t n = 1;
    while (n < rows) n <<= 1;
    if (n > (uint64_t{1} << 31))
        throw error(errc::unsupported, fmt::format("setup: {} rows need a domain above 2^31", rows));
    return n;
}

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

namespace {

// What both conventions share: the toxic waste, the QAP evaluated at τ on the
// convention's domain, the fixed-base tables, the verifying key, IC and L.
struct common_setup {
    fr tau, alpha, beta, delta_inv;
    uint64_t n = 0;
    unsigned log_n = 0;
    qap_at_tau q;
    fixed_base<g1_affine, g1_jacobian, g1_xyzz> g1;
    fixed_base<g2_affine, g2_jacobian, g2_xyzz> g2;

    common_setup(const r1cs_description& r, root_convention rc, convention conv, proving_key& pk, unsigned th)
        : g1(g1_affine::generator(), th), g2(g2_affine::generator(), th)
    {
        check_description(r);
        n = groth16_domain_size(r);
        log_n = unsigned(__builtin_ctzll(n));
        tau = nonzero_random();
        alpha = nonzero_random();
        beta = nonzero_random();
        const fr gamma = nonzero_random(), delta = nonzero_random();
        q = evaluate_qap(r, lagrange_at(tau, n, root_of_unity(log_n, rc), th));
        const fr gi = gamma.inverse();
        delta_inv = delta.inverse();

        pk.conv = conv;
        pk.num_inputs = r.num_inputs;
        pk.num_aux = r.num_aux;
        pk.domain_size = n;
        pk.n_constraints = r.num_constraints;
        auto& vk = pk.vk;
        vk.alpha_g1 = g1.mul(alpha.to_repr()).to_affine();
        vk.beta_g1 = g1.mul(beta.to_repr()).to_affine();
        vk.beta_g2 = g2.mul(beta.to_repr()).to_affine();
        vk.gamma_g2 = g2.mul(gamma.to_repr()).to_affine();
        vk.delta_g1 = g1.mul(delta.to_repr()).to_affine();
        vk.delta_g2 = g2.mul(delta.to_repr()).to_affine();

        // IC_i = (β·u_i + α·v_i + w_i)(τ)/γ for inputs, L_j = (…)(τ)/δ for aux.
        const auto lin = [&](size_t i) { return beta * q.u[i] + alpha * q.v[i] + q.w[i]; };
        std::vector<fr> ic(r.num_inputs), l(r.num_aux);
        for (uint32_t i = 0; i < r.num_inputs; ++i) ic[i] = lin(i) * gi;
        for (uint32_t j = 0; j < r.num_aux; ++j) l[j] = lin(size_t(r.num_inputs) + j) * delta_inv;
        vk.ic = g1.mul_many(ic, th);
        pk.l = g1.mul_many(l, th);
    }
};

} // namespace

proving_key setup_bellperson(const r1cs_description& r, query_density* density_out, const setup_options& opt)
{
    const unsigned th = opt.threads;
    proving_key pk;
    const common_setup cs(r, root_convention::bellperson, convention::bellperson, pk, th);
    const uint64_t n = cs.n;
    const query_density dens = compute_density(r);

    // H: τ^i·Z(τ)/δ for i < n − 1.
    std::vector<fr> h(n - 1);
    fr t = (cs.tau.pow(bigint<1>{{n}}) - fr::one()) * cs.delta_inv;
    for (uint64_t i = 0; i + 1 < n; ++i) {
        h[i] = t;
        t *= cs.tau;
    }
    pk.h = cs.g1.mul_many(h, th);

    // A and B queries filtered by density (inputs always present in A).
    const auto& q = cs.q;
    std::vector<fr> a, b;
    for (uint32_t i = 0; i < r.num_inputs; ++i) a.push_back(q.u[i]);
    for (uint32_t j = 0; j < r.num_aux; ++j)
        if (dens.a_aux[j]) a.push_back(q.u[size_t(r.num_inputs) + j]);
    for (uint32_t i = 0; i < r.num_inputs; ++i)
        if (dens.b_input[i]) b.push_back(q.v[i]);
    for (uint32_t j = 0; j < r.num_aux; ++j)
        if (dens.b_aux[j]) b.push_back(q.v[size_t(r.num_inputs) + j]);
    pk.a = cs.g1.mul_many(a, th);
    pk.b_g1 = cs.g1.mul_many(b, th);
    pk.b_g2 = cs.g2.mul_many(b, th);
    if (density_out) *density_out = dens;
    return pk;
}

proving_key setup_snarkjs(const r1cs_description& r, const setup_options& opt)
{
    const unsigned th = opt.threads;
    proving_key pk;
    const common_setup cs(r, root_convention::snarkjs, convention::snarkjs, pk, th);
    const uint64_t n = cs.n;
    pk.a = cs.g1.mul_many(cs.q.u, th);
    pk.b_g1 = cs.g1.mul_many(cs.q.v, th);
    pk.b_g2 = cs.g2.mul_many(cs.q.v, th);

    // H_i = L^(2n)_(2i+1)(τ)/δ: the Lagrange basis of the 2n-domain at the odd
    // points x_i = ω_2n^(2i+1). With x_i^n = −1, Σ_i P(x_i)·L^(2n)_(2i+1)(τ)
    // = Z(τ)·h(τ) for P = h·Z of degree < 2n, so the prover's coset values of
    // A·B − C give the H term directly.
    //   L^(2n)_k(τ) = (τ^2n − 1)/(2n) · ω_2n^k/(τ − ω_2n^k)
    const fr w2n = root_of_unity(cs.log_n + 1, root_convention::snarkjs);
    const fr c2n = (cs.tau.pow(bigint<1>{{2 * n}}) - fr::one()) * fr::from_u64(2 * n).inverse() * cs.delta_inv;
    pk.h = cs.g1.mul_many(lagrange_like(cs.tau, n, w2n, w2n.sqr(), c2n, th), th);

    // The coefficient list: A and B entries, then A-entries for the input constraints.
    r.for_each_entry([&](int m, uint32_t row, uint32_t col, const fr& coeff) {
        if (m == 2 || coeff.is_zero()) return;
        pk.coefs.push_back({uint32_t(m), row, col, coeff});
    });
    for (uint32_t i = 0; i < r.num_inputs; ++i) pk.coefs.push_back({0, r.num_constraints + i, i, fr::one()});
    return pk;
}

} // namespace cuzk::groth16
