// cuzk — the pairing's templates (pairing/pairing.hpp) over the curve: the
// checks of the inputs, the identities, the products of pairings, built on
// each curve's Miller loop and final exponentiation
// (curve_pairing.hpp, lib/pairing/<curve>_pairing.cpp).
#include "cuzk/pairing/pairing.hpp"

#include <string>

#include "cuzk/error.hpp"
#include "curve_pairing.hpp"

namespace cuzk {

namespace {

using pairing_detail::curve_pairing;

template <class C>
std::string name(const char* fn)
{
    return std::string(curve_pairing<C>::prefix) + fn;
}

template <class C>
void check_g1(const typename C::g1_affine& p, const std::string& where)
{
    if (!p.is_on_curve())
        throw error(errc::not_on_curve,
                    where + ": the G1 point is not on the curve " + curve_pairing<C>::g1_curve);
}
template <class C>
void check_g2(const typename C::g2_affine& q, const std::string& where)
{
    if (!q.is_on_curve())
        throw error(errc::not_on_curve,
                    where + ": the G2 point is not on the curve " + curve_pairing<C>::g2_curve);
}

// Every prepared point present and of the curve's length, every P on the curve.
template <class C>
void check_inputs(const typename C::g1_affine* ps, const g2_prepared_t<C>* const* qs, size_t n,
                  const std::string& where)
{
    constexpr size_t n_coeffs = curve_pairing<C>::n_coeffs;
    for (size_t j = 0; j < n; ++j) {
        if (qs[j] == nullptr) throw error(errc::invalid_argument, where + ": null g2_prepared");
        if (!qs[j]->infinity && qs[j]->coeffs.size() != n_coeffs)
            throw error(errc::invalid_argument,
                        where + ": g2_prepared has " + std::to_string(qs[j]->coeffs.size()) +
                            " line coefficients, expected " + std::to_string(n_coeffs));
        check_g1<C>(ps[j], where);
    }
}

template <class C>
void check_sizes(size_t n_ps, size_t n_qs, const char* fn, const char* what)
{
    if (n_ps != n_qs)
        throw error(errc::invalid_argument, name<C>(fn) + ": " + std::to_string(n_ps) + " G1 points but " +
                                                std::to_string(n_qs) + " " + what);
}

} // namespace

template <class C>
g2_prepared_t<C> prepare_g2(const typename C::g2_affine& q)
{
    if (q.is_identity()) return {};
    check_g2<C>(q, "prepare_g2");
    return curve_pairing<C>::prepare(q);
}

template <class C>
typename C::fp12 miller_loop(const typename C::g1_affine& p, const g2_prepared_t<C>& q)
{
    const g2_prepared_t<C>* qp = &q;
    const std::string where = name<C>("miller_loop");
    check_inputs<C>(&p, &qp, 1, where);
    return curve_pairing<C>::miller(&p, &qp, 1);
}

template <class C>
typename C::fp12 multi_miller_loop(std::span<const typename C::g1_affine> ps,
                                   std::span<const g2_prepared_t<C>* const> qs)
{
    check_sizes<C>(ps.size(), qs.size(), "multi_miller_loop", "prepared G2 points");
    check_inputs<C>(ps.data(), qs.data(), ps.size(), name<C>("multi_miller_loop"));
    return curve_pairing<C>::miller(ps.data(), qs.data(), ps.size());
}

template <class C>
typename C::fp12 final_exponentiation(const typename C::fp12& f)
{
    return curve_pairing<C>::final_exp(f);
}

template <class C>
typename C::fp12 final_exponentiation_minimal(const typename C::fp12& f)
{
    return curve_pairing<C>::final_exp(f).cyclotomic_pow(curve_pairing<C>::inv_k_mod_r);
}

template <class C>
typename C::fp12 pairing(const typename C::g1_affine& p, const typename C::g2_affine& q)
{
    if (p.is_identity() || q.is_identity()) {
        const std::string where = name<C>("pairing");
        check_g1<C>(p, where);
        check_g2<C>(q, where);
        return C::fp12::one();
    }
    return final_exponentiation<C>(miller_loop<C>(p, prepare_g2<C>(q)));
}

template <class C>
typename C::fp12 multi_pairing(std::span<const typename C::g1_affine> ps, std::span<const typename C::g2_affine> qs)
{
    check_sizes<C>(ps.size(), qs.size(), "multi_pairing", "G2 points");
    std::vector<g2_prepared_t<C>> prep;
    prep.reserve(qs.size());
    std::vector<const g2_prepared_t<C>*> ptr;
    ptr.reserve(qs.size());
    for (const auto& q : qs) {
        prep.push_back(prepare_g2<C>(q));
        ptr.push_back(&prep.back());
    }
    return final_exponentiation<C>(multi_miller_loop<C>(ps, ptr));
}

template <class C>
bool pairing_check(std::span<const typename C::g1_affine> ps, std::span<const typename C::g2_affine> qs)
{
    return multi_pairing<C>(ps, qs).is_one();
}

#define CUZK_PAIRING(C)                                                                                          \
    template g2_prepared_t<C> prepare_g2<C>(const C::g2_affine&);                                                \
    template C::fp12 miller_loop<C>(const C::g1_affine&, const g2_prepared_t<C>&);                              \
    template C::fp12 multi_miller_loop<C>(std::span<const C::g1_affine>, std::span<const g2_prepared_t<C>* const>); \
    template C::fp12 final_exponentiation<C>(const C::fp12&);                                                   \
    template C::fp12 final_exponentiation_minimal<C>(const C::fp12&);                                           \
    template C::fp12 pairing<C>(const C::g1_affine&, const C::g2_affine&);                                       \
    template C::fp12 multi_pairing<C>(std::span<const C::g1_affine>, std::span<const C::g2_affine>);             \
    template bool pairing_check<C>(std::span<const C::g1_affine>, std::span<const C::g2_affine>);
CUZK_PAIRING(bls12_381_curve)
CUZK_PAIRING(bn254_curve)
#undef CUZK_PAIRING

} // namespace cuzk
