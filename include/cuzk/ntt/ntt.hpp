// cuzk — radix-2 number-theoretic transforms over Fr (the BLS12-381 scalar
// field), multi-threaded, with coset variants and both ecosystems' roots.
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
#include <vector>

#include "cuzk/ff/bls12_381.hpp"

namespace cuzk {

enum class root_convention {
    bellperson,   // ω_{2^32} = 7^t
    snarkjs,      // ω_{2^32} = 5^t = 0x0212d79e5b416b6f0fd56dc8d168d6c0c4024ff270b3e0941b788f500b912f1f
};

// Primitive 2^log_n-th root of unity of the convention, log_n <= 32
// (log_n = 0 gives 1). Throws errc::invalid_argument for log_n > 32.
fr root_of_unity(unsigned log_n, root_convention c);

// A transform size n = 2^log_n with its precomputed twiddle table.
//
// Memory: n/2 elements of Fr (16·n bytes): ω^0, ω^1, …, ω^(n/2 − 1). The
// inverse transforms read the same table (ω^−j = −ω^(n/2 − j)), so no second
// table is kept. 2^27 ⇒ 2 GiB. `threads` only affects the precomputation.
class ntt_domain {
public:
    ntt_domain(unsigned log_n, root_convention c, unsigned threads = 0);

    size_t size() const { return size_t{1} << log_n_; }
    unsigned log_size() const { return log_n_; }
    root_convention convention() const { return conv_; }
    const fr& omega() const { return omega_; }
    const fr& omega_inv() const { return omega_inv_; }
    const fr& size_inv() const { return size_inv_; }
    // ω^j for 0 <= j < n/2.
    std::span<const fr> twiddles() const { return tw_; }

private:
    unsigned log_n_;
    root_convention conv_;
    fr omega_, omega_inv_, size_inv_;
    std::vector<fr> tw_;
};

// a_i <- Σ_j a_j ω^{ij}.
void ntt(std::span<fr> a, const ntt_domain& d, unsigned threads = 0);
// a_i <- (1/n) Σ_j a_j ω^{−ij}, the inverse of ntt.
void intt(std::span<fr> a, const ntt_domain& d, unsigned threads = 0);
// a_i <- Σ_j a_j (shift·ω^i)^j: evaluates the polynomial with coefficients a
// on the coset shift·⟨ω⟩.
void coset_ntt(std::span<fr> a, const ntt_domain& d, const fr& shift, unsigned threads = 0);
// The inverse of coset_ntt: values on shift·⟨ω⟩ back to coefficients.
// shift must be non-zero (throws errc::invalid_argument otherwise).
void coset_intt(std::span<fr> a, const ntt_domain& d, const fr& shift, unsigned threads = 0);

// a_i <-> a_{rev(i)} where rev reverses the low log2(n) bits; a.size() must be
// a power of two (or 0).
void bit_reverse(std::span<fr> a, unsigned threads = 0);
// a_i <- a_i · g^i.
void scale_by_powers(std::span<fr> a, const fr& g, unsigned threads = 0);

// Every function above throws cuzk::error(errc::invalid_argument) when
// a.size() != d.size() (or is not a power of two for bit_reverse).

} // namespace cuzk
