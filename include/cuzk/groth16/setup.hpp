// cuzk — a single-party Groth16 setup for tests, demos and benchmarks.
//
// NOT A TRUSTED CEREMONY: one process draws the toxic waste τ, α, β, γ, δ
// from the OS CSPRNG (or takes it from the caller: setup_options::waste),
// uses it and forgets it. Anyone who could read this
// process's memory could forge proofs for the circuit. Production keys come
// from multi-party ceremonies (Filecoin's parameters, snarkjs phase 2).
//
// The circuit is described by its three sparse matrices over the unified
// variable index (0 = ONE, then public inputs, then aux) through a callback,
// so that a PCE or a circom .r1cs can feed it without copying.
//
// The snarkjs-convention setup serves BLS12-381 and BN254 (templates over
// the curve, curve.hpp; the plain names are BLS12-381's); the bellperson
// setup and its device hooks are BLS12-381's only.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "cuzk/groth16/types.hpp"
#include "cuzk/r1cs/pce.hpp"

namespace cuzk::groth16 {

// The circuit over the scalar field F (BLS12-381's fr or bn254::fr).
template <class F>
struct r1cs_description_t {
    uint32_t num_inputs = 0;        // including ONE
    uint32_t num_aux = 0;
    uint32_t num_constraints = 0;   // without the per-input constraints added by the conventions
    // Calls fn(matrix 0=A 1=B 2=C, row, column, coefficient) for every non-zero entry.
    std::function<void(const std::function<void(int, uint32_t, uint32_t, const F&)>& fn)> for_each_entry;
};
using r1cs_description = r1cs_description_t<fr>;

// The secret scalars of a setup. Drawn from the OS CSPRNG by default; a
// caller may fix them (tests comparing two setups, benchmarks that want
// reproducible keys). None may be zero. Instantiated for fr and bn254::fr.
template <class F>
struct toxic_waste_t {
    F tau, alpha, beta, gamma, delta;
    static toxic_waste_t random();                 // OS CSPRNG
    static toxic_waste_t from_seed(uint64_t seed); // deterministic; tests and benchmarks only
};
using toxic_waste = toxic_waste_t<fr>;
extern template struct toxic_waste_t<fr>;
extern template struct toxic_waste_t<bn254::fr>;

template <class C>
struct setup_options_t {
    unsigned threads = 0;
    const toxic_waste_t<typename C::fr>* waste = nullptr;   // null: toxic_waste_t::random()
};
using setup_options = setup_options_t<bls12_381_curve>;

// The smallest power of two that holds the constraints plus one input
// constraint per input (both conventions add those rows); either field.
template <class F>
uint64_t groth16_domain_size(const r1cs_description_t<F>& r);

// Bellperson-convention key (H in the monomial basis, roots 7^t, filtered
// A/B queries) and the matching density bitmaps for the prover.
proving_key setup_bellperson(const r1cs_description& r, query_density* density_out, const setup_options& opt = {});

// snarkjs-convention key (Lagrange H points on the odd coset, roots 5^t,
// one A/B1/B2 point per signal, coefficient list for A and B) on either
// curve: setup_snarkjs(r) is BLS12-381's, setup_snarkjs<bn254_curve>(r)
// BN254's (C is also deduced from the options). CPU fixed-base tables only.
// Throws errc::invalid_argument for an out-of-range matrix entry, a zero
// toxic scalar, or a domain whose 2n exceeds the field's 2-adicity (BN254:
// n <= 2^27).
template <class C = bls12_381_curve>
proving_key_t<C> setup_snarkjs(const r1cs_description_t<typename C::fr>& r, const setup_options_t<C>& opt = {});

// The densities of a circuit, computed from its matrices (bellperson's prover rules).
query_density compute_density(const r1cs_description& r);

// ---- the bellperson setup in two halves ------------------------------------------------
// setup_bellperson = bellperson_setup_scalars (the field work: Lagrange basis
// at τ, the QAP polynomials at τ, the query scalars) followed by
// bellperson_key_from_scalars (one fixed-base multiplication k·G per query
// point), so that a device backend can do the second half
// (backend/gpu_setup.hpp).
//
// Scalars of the key: vk points are α, β, γ, δ times the generators; then
//   ic_i = (β·u_i + α·v_i + w_i)/γ           per input (G1)
//   l_j  = (β·u_j + α·v_j + w_j)/δ           per aux (G1)
//   a    = u over the inputs and the A-dense aux (G1)
//   b    = v over the B-dense inputs and aux (G1 and G2)
//   h_i  = τ^i·Z(τ)/δ, i < n − 1 (G1), produced in ranges by h_scalars
// where u, v, w are the QAP polynomials evaluated at τ (the input
// constraints add L_{m+i}(τ) to u_i).
//
// Cost of the scalar half at a 2^27 domain (134 M constraints, 135 M aux;
// bench_porep's synthetic PoRep-shaped circuit): 18.2 s measured on the 16
// cores of the H200 box. Its parts: the Lagrange basis (6 multiplications per
// point, one inversion and one power per worker); u, v, w from a PCE by a
// transposed product, each worker scanning all ~730 M entries for its column
// range (one multiplication per entry unless the coefficient is ±1); l (3
// multiplications per aux); the compaction of a and b. Memory: the Lagrange
// basis (32·n bytes) while u, v, w are built (3·32 bytes per variable), then
// l, a, b in place of w, u, v: ~17 GB peak at 2^27. The description overload
// reads the entries through the callback on one thread (tests, small
// circuits).
struct bellperson_scalars {
    uint64_t domain_size = 0;
    uint32_t num_inputs = 0, num_aux = 0, num_constraints = 0;
    toxic_waste waste;
    fr h_first;              // Z(τ)/δ = h_0
    std::vector<fr> ic, l, a, b;
    query_density density;
    // h_i for i in [begin, begin + out.size()), i < n − 1.
    void h_scalars(uint64_t begin, std::span<fr> out, unsigned threads = 0) const;
};
bellperson_scalars bellperson_setup_scalars(const r1cs_description& r, const toxic_waste& w, unsigned threads = 0);
bellperson_scalars bellperson_setup_scalars(const r1cs::pce& p, const toxic_waste& w, unsigned threads = 0);

// k_i·G1 and k_i·G2 for the generators, affine (identity for k = 0); scalars
// in Montgomery form. The CPU one is cpu_fixed_base().
class fixed_base_backend {
public:
    virtual ~fixed_base_backend() = default;
    virtual void g1(std::span<const fr> k, std::span<g1_affine> out) = 0;
    virtual void g2(std::span<const fr> k, std::span<g2_affine> out) = 0;
};
// Window tables of 10 bits (26 windows × 1023 points per group), built on
// first use; multi-threaded.
std::unique_ptr<fixed_base_backend> cpu_fixed_base(unsigned threads = 0);

// The key from its scalars. H is produced in ranges of h_chunk scalars
// (bounded host memory besides the key). Frees s's vectors as it goes when
// s is an rvalue.
proving_key bellperson_key_from_scalars(bellperson_scalars&& s, fixed_base_backend& be, unsigned threads = 0,
                                        uint64_t h_chunk = uint64_t{1} << 22);

} // namespace cuzk::groth16
