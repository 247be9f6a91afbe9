#include "cuzk/groth16/verifier.hpp"

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/util/random.hpp"

namespace cuzk::groth16 {

namespace {

g1_jacobian public_acc(const verifying_key& vk, std::span<const fr> x)
{
    if (x.size() + 1 != vk.ic.size())
        throw error(errc::invalid_argument, fmt::format("verify: {} public inputs given, the key expects {}", x.size(),
                                                        vk.ic.size() - 1));
    g1_jacobian acc = vk.ic[0].to_jacobian();
    for (size_t i = 0; i < x.size(); ++i) acc = acc.add(scalar_mul(vk.ic[i + 1], x[i].to_repr()));
    return acc;
}

} // namespace

prepared_verifying_key prepare_verifying_key(const verifying_key& vk)
{
    if (vk.ic.empty()) throw error(errc::bad_format, "verifying key has no IC points");
    prepared_verifying_key p;
    p.vk = vk;
    p.alpha_beta = pairing(vk.alpha_g1, vk.beta_g2);
    p.neg_gamma = prepare_g2(-vk.gamma_g2);
    p.neg_delta = prepare_g2(-vk.delta_g2);
    p.gamma = prepare_g2(vk.gamma_g2);
    p.delta = prepare_g2(vk.delta_g2);
    return p;
}

bool verify(const prepared_verifying_key& pvk, const proof& pr, std::span<const fr> x)
{
    const g1_affine acc = public_acc(pvk.vk, x).to_affine();
    const g2_prepared b = prepare_g2(pr.b);
    const g1_affine ps[3] = {pr.a, acc, pr.c};
    const g2_prepared* qs[3] = {&b, &pvk.neg_gamma, &pvk.neg_delta};
    const fp12 f = final_exponentiation(multi_miller_loop(ps, qs));
    return f == pvk.alpha_beta;
}

bool verify_batch(const prepared_verifying_key& pvk, std::span<const proof> proofs,
                  std::span<const std::vector<fr>> inputs)
{
    if (proofs.size() != inputs.size())
        throw error(errc::invalid_argument,
                    fmt::format("verify_batch: {} proofs but {} input vectors", proofs.size(), inputs.size()));
    if (proofs.empty()) return true;
    if (proofs.size() == 1) return verify(pvk, proofs[0], inputs[0]);

    const size_t k = proofs.size();
    std::vector<g1_affine> ps;
    std::vector<g2_prepared> neg_b(k);
    std::vector<const g2_prepared*> qs;
    g1_jacobian c_acc = g1_jacobian::identity(), y_acc = g1_jacobian::identity();
    fr z_sum = fr::zero();
    os_rng rng;
    for (size_t j = 0; j < k; ++j) {
        // z_j: 128 random bits, non-zero.
        fr::repr zr = fr::repr::zero();
        do {
            zr.l[0] = rng();
            zr.l[1] = rng();
        } while (zr.is_zero());
        const fr z = fr::from_repr(zr);
        z_sum += z;
        ps.push_back(scalar_mul(proofs[j].a, zr).to_affine());
        neg_b[j] = prepare_g2(-proofs[j].b);
        c_acc = c_acc.add(scalar_mul(proofs[j].c, zr));
        y_acc = y_acc.add(scalar_mul(public_acc(pvk.vk, inputs[j]), zr));
    }
    for (size_t j = 0; j < k; ++j) qs.push_back(&neg_b[j]);
    ps.push_back(c_acc.to_affine());
    qs.push_back(&pvk.delta);
    ps.push_back(y_acc.to_affine());
    qs.push_back(&pvk.gamma);
    const fp12 f = final_exponentiation(multi_miller_loop(ps, qs));
    // f should equal e(α, β)^(−Σz); multiply by e(α, β)^(Σz) and compare with one.
    const fp12 ab = pvk.alpha_beta.pow(z_sum.to_repr());
    return (f * ab) == fp12::one();
}

} // namespace cuzk::groth16
