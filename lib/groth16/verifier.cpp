#include "cuzk/groth16/verifier.hpp"

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/util/random.hpp"

namespace cuzk::groth16 {

namespace {

template <class C>
typename C::g1_jacobian public_acc(const verifying_key_t<C>& vk, std::span<const typename C::fr> x)
{
    if (x.size() + 1 != vk.ic.size())
        throw error(errc::invalid_argument, fmt::format("verify: {} public inputs given, the key expects {}", x.size(),
                                                        vk.ic.size() - 1));
    typename C::g1_jacobian acc = vk.ic[0].to_jacobian();
    for (size_t i = 0; i < x.size(); ++i) acc = acc.add(scalar_mul(vk.ic[i + 1], x[i].to_repr()));
    return acc;
}

} // namespace

template <class C>
prepared_verifying_key_t<C> prepare_verifying_key(const verifying_key_t<C>& vk)
{
    if (vk.ic.empty()) throw error(errc::bad_format, "verifying key has no IC points");
    prepared_verifying_key_t<C> p;
    p.vk = vk;
    p.alpha_beta = pairing<C>(vk.alpha_g1, vk.beta_g2);
    p.neg_gamma = prepare_g2<C>(-vk.gamma_g2);
    p.neg_delta = prepare_g2<C>(-vk.delta_g2);
    p.gamma = prepare_g2<C>(vk.gamma_g2);
    p.delta = prepare_g2<C>(vk.delta_g2);
    return p;
}

template <class C>
bool verify(const prepared_verifying_key_t<C>& pvk, const proof_t<C>& pr, std::span<const typename C::fr> x)
{
    using g1_affine = typename C::g1_affine;
    using g2_prepared = typename C::g2_prepared;
    const g1_affine acc = public_acc<C>(pvk.vk, x).to_affine();
    const g2_prepared b = prepare_g2<C>(pr.b);
    const g1_affine ps[3] = {pr.a, acc, pr.c};
    const g2_prepared* qs[3] = {&b, &pvk.neg_gamma, &pvk.neg_delta};
    const typename C::fp12 f = final_exponentiation<C>(multi_miller_loop<C>(ps, qs));
    return f == pvk.alpha_beta;
}

template <class C>
bool verify_batch(const prepared_verifying_key_t<C>& pvk, std::type_identity_t<std::span<const proof_t<C>>> proofs,
                  std::span<const std::vector<typename C::fr>> inputs)
{
    using fr = typename C::fr;
    using g1_affine = typename C::g1_affine;
    using g1_jacobian = typename C::g1_jacobian;
    using g2_prepared = typename C::g2_prepared;
    using fp12 = typename C::fp12;
    if (proofs.size() != inputs.size())
        throw error(errc::invalid_argument,
                    fmt::format("verify_batch: {} proofs but {} input vectors", proofs.size(), inputs.size()));
    if (proofs.empty()) return true;
    if (proofs.size() == 1) return verify<C>(pvk, proofs[0], inputs[0]);

    const size_t k = proofs.size();
    std::vector<g1_affine> ps;
    std::vector<g2_prepared> neg_b(k);
    std::vector<const g2_prepared*> qs;
    g1_jacobian c_acc = g1_jacobian::identity(), y_acc = g1_jacobian::identity();
    fr z_sum = fr::zero();
    os_rng rng;
    for (size_t j = 0; j < k; ++j) {
        // z_j: 128 random bits, non-zero.
        typename fr::repr zr = fr::repr::zero();
        do {
            zr.l[0] = rng();
            zr.l[1] = rng();
        } while (zr.is_zero());
        const fr z = fr::from_repr(zr);
        z_sum += z;
        ps.push_back(scalar_mul(proofs[j].a, zr).to_affine());
        neg_b[j] = prepare_g2<C>(-proofs[j].b);
        c_acc = c_acc.add(scalar_mul(proofs[j].c, zr));
        y_acc = y_acc.add(scalar_mul(public_acc<C>(pvk.vk, inputs[j]), zr));
    }
    for (size_t j = 0; j < k; ++j) qs.push_back(&neg_b[j]);
    ps.push_back(c_acc.to_affine());
    qs.push_back(&pvk.delta);
    ps.push_back(y_acc.to_affine());
    qs.push_back(&pvk.gamma);
    const fp12 f = final_exponentiation<C>(multi_miller_loop<C>(ps, qs));
    // f should equal e(α, β)^(−Σz); multiply by e(α, β)^(Σz) and compare with one.
    const fp12 ab = pvk.alpha_beta.pow(z_sum.to_repr());
    return (f * ab) == fp12::one();
}

#define CUZK_GROTH16_VERIFIER(C)                                                                             \
    template prepared_verifying_key_t<C> prepare_verifying_key<C>(const verifying_key_t<C>&);                     \
    template bool verify<C>(const prepared_verifying_key_t<C>&, const proof_t<C>&, std::span<const C::fr>);       \
    template bool verify_batch<C>(const prepared_verifying_key_t<C>&, std::type_identity_t<std::span<const proof_t<C>>>,                \
                                  std::span<const std::vector<C::fr>>);
CUZK_GROTH16_VERIFIER(bls12_381_curve)
CUZK_GROTH16_VERIFIER(bn254_curve)
#undef CUZK_GROTH16_VERIFIER

} // namespace cuzk::groth16
