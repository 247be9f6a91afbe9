// cuzk — radix-2 number-theoretic transforms over Fr (the BLS12-381 scalar
// field, and BN254's), multi-threaded, with coset variants and both
// ecosystems' roots.
//
// r − 1 = 2^32·t with t odd, so Fr has primitive 2^k-th roots of unity for
// k <= 32. Two choices of the 2^32-th root are in use (docs/FORMATS.md §4):
//   bellperson / blstrs / arkworks:       ω_{2^32} = 7^t  (7 = multiplicative generator)
//   snarkjs / ffjavascript / ICICLE:      ω_{2^32} = 5^t  (5 = smallest non-residue)
// and in both ω_{2^k} = ω_{2^32}^(2^(32−k)). The evaluation grids differ by a
// permutation, so a prover must use the convention its keys were made with.
//
// Coset conventions of the two Groth16 provers (docs/FORMATS.md §2.4, §4):
//   bellperson evaluates on 7·⟨ω_n⟩           → coset_ntt(a, d, fr::from_u64(7))
//   snarkjs evaluates on ω_{2n}·⟨ω_n⟩ (odd)   → coset_ntt(a, d, root_of_unity(k + 1, snarkjs))
//                                                (k = 32 would need 5²; not reachable here)
//
// Every transform is in place, takes and returns natural order, and splits
// its work over an explicit number of threads (0 = all hardware threads).
#pragma once

#include <cstddef>
#include <span>
#include <type_traits>
#include <vector>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/ff/bn254.hpp"

namespace cuzk {

enum class root_convention {
    bellperson,   // ω_{2^32} = 7^t
    snarkjs,      // ω_{2^32} = 5^t = 0x0212d79e5b416b6f0fd56dc8d168d6c0c4024ff270b3e0941b788f500b912f1f
};

// Primitive 2^log_n-th root of unity of the convention, log_n <= 32
// (log_n = 0 gives 1). Throws errc::invalid_argument for log_n > 32.
fr root_of_unity(unsigned log_n, root_convention c);
// The same for any scalar field F (Fr of BLS12-381 or of BN254), log_n up to
// its 2-adicity (BN254: r − 1 = 2^28·t): ω_{2^s} = g^t with g = 7
// (bellperson) or 5 (snarkjs, also BN254's snarkjs/circom roots).
// errc::invalid_argument when log_n is too large or g is a square in F.
template <class F>
F root_of_unity_of(unsigned log_n, root_convention c);

// A transform size n = 2^log_n with its precomputed twiddle table.
//
// Memory: n/2 elements of F (16·n bytes): ω^0, ω^1, …, ω^(n/2 − 1). The
// inverse transforms read the same table (ω^−j = −ω^(n/2 − j)), so no second
// table is kept. 2^27 ⇒ 2 GiB. `threads` only affects the precomputation.
// Instantiated for fr and bn254::fr; ntt_domain is BLS12-381's.
template <class F>
class ntt_domain_t {
public:
    ntt_domain_t(unsigned log_n, root_convention c, unsigned threads = 0);

    size_t size() const { return size_t{1} << log_n_; }
    unsigned log_size() const { return log_n_; }
    root_convention convention() const { return conv_; }
    const F& omega() const { return omega_; }
    const F& omega_inv() const { return omega_inv_; }
    const F& size_inv() const { return size_inv_; }
    // ω^j for 0 <= j < n/2.
    std::span<const F> twiddles() const { return tw_; }

private:
    unsigned log_n_;
    root_convention conv_;
    F omega_, omega_inv_, size_inv_;
    std::vector<F> tw_;
};
using ntt_domain = ntt_domain_t<fr>;

// The transforms take the field from the domain (the span of values is not
// used to deduce it, so vectors convert).
// a_i <- Σ_j a_j ω^{ij}.
template <class F>
void ntt(std::type_identity_t<std::span<F>> a, const ntt_domain_t<F>& d, unsigned threads = 0);
// a_i <- (1/n) Σ_j a_j ω^{−ij}, the inverse of ntt.
template <class F>
void intt(std::type_identity_t<std::span<F>> a, const ntt_domain_t<F>& d, unsigned threads = 0);
// a_i <- Σ_j a_j (shift·ω^i)^j: evaluates the polynomial with coefficients a
// on the coset shift·⟨ω⟩.
template <class F>
void coset_ntt(std::type_identity_t<std::span<F>> a, const ntt_domain_t<F>& d, const F& shift,
               unsigned threads = 0);
// The inverse of coset_ntt: values on shift·⟨ω⟩ back to coefficients.
// shift must be non-zero (throws errc::invalid_argument otherwise).
template <class F>
void coset_intt(std::type_identity_t<std::span<F>> a, const ntt_domain_t<F>& d, const F& shift,
                unsigned threads = 0);

// a_i <- p(shift·ω^i), where p is the polynomial of degree < n with
// p(ω^i) = a_i on input: values on ⟨ω⟩ to values on the coset shift·⟨ω⟩.
// The same result as intt followed by coset_ntt, bit for bit, with fewer
// passes over memory and no bit reversal (the inverse runs as decimation in
// frequency, so the forward transform reads the coefficients in the order the
// inverse leaves them); the prover's H step is three of these.
template <class F>
void values_on_coset(std::type_identity_t<std::span<F>> a, const ntt_domain_t<F>& d, const F& shift,
                     unsigned threads = 0);

// a_i <-> a_{rev(i)} where rev reverses the low log2(n) bits; a.size() must be
// a power of two (or 0).
template <class F>
void bit_reverse(std::span<F> a, unsigned threads = 0);
inline void bit_reverse(std::span<fr> a, unsigned threads = 0) { bit_reverse<fr>(a, threads); }
inline void bit_reverse(std::span<bn254::fr> a, unsigned threads = 0) { bit_reverse<bn254::fr>(a, threads); }
// a_i <- a_i · g^i.
template <class F>
void scale_by_powers(std::type_identity_t<std::span<F>> a, const F& g, unsigned threads = 0);

// Every function above throws cuzk::error(errc::invalid_argument) when
// a.size() != d.size() (or is not a power of two for bit_reverse).

} // namespace cuzk
