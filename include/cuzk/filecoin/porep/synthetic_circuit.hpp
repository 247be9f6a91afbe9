// cuzk — a synthetic "PoRep-shaped" circuit, built directly as a PCE with a
// satisfying witness (no circuit recording), for benchmarks at up to a 2^27
// domain (~134 M constraints) and for tests at small sizes.
//
// Targets (what a 32 GiB PoRep partition looks like, issue 5): per row about
// 2.4 non-zeros in A, 1.0 in B, 2.2 in C; 99.7 % of the aux variables occur
// in A, 25.4 % in B; ~90 % of the witness values are 0 or 1.
//
// Design. Every row allocates exactly one fresh aux variable (its output);
// each chunk of synthetic_chunk_rows rows also allocates synthetic_chunk_seeds
// free seed variables first (16 random bits and one random field element)
// and one free random bit every synthetic_refresh_rows rows. Row kinds:
//   AND   a·b = c              A {a}    B {b}      C {c}             (1,1,1)
//   XOR   (2a)·b = a + b − c   A {a:2}  B {b}      C {a, b, c:−1}    (1,1,3)
//   LIN   (g·μ + Σ_j 2^j·x_j)·1 = y
//                              A {g:μ, x_0:1, x_1:2, …}  B {ONE}  C {y}  (k,1,1)
//   BOOL  x·(1 − x) = 0        A {x}    B {ONE, x:−1}  C {}          (1,2,0)
//   COPY  input_i·1 = y        (chunk 0 only, once per public input)  (1,1,1)
// a, b, x_j are earlier bits (so c is a bit), g an earlier general value
// (a LIN output, a COPY output or the chunk's seed), μ a random constant
// drawn from the seed, so y is a full-size field element: LIN outputs are the
// ~10 % of non-0/1 values. With p_K the share of kind K, matching the targets
//   0/1 fraction f  ⇒ p_lin  = 1 − f   (less the public inputs, their COPY
//                                       rows and the general seeds, which
//                                       are non-0/1 too; matters below 2^14)
//   nnz B           ⇒ p_bool = nnz_b − 1                       (B: 1 + p_bool)
//   nnz C           ⇒ p_xor  = (nnz_c − 1 + p_bool)/2           (C: 2·p_xor + 1 − p_bool)
//                     p_and  = 1 − p_lin − p_bool − p_xor
//   nnz A           ⇒ k      = (nnz_a − 1 + p_lin)/p_lin  A entries per LIN row
// and the defaults give p_lin 0.1, p_xor 0.6, p_and 0.3, p_bool 0, k = 15.
// Kinds are interleaved by largest deficit (exact frequencies, no drift) with
// a random jitter; a fractional k alternates between ⌊k⌋ and ⌈k⌉ the same way.
// Densities: each AND/XOR output bit is "A-exempt" at the rate that leaves
// (1 − a_aux_density) of the aux out of A, and "B-marked" at the rate that
// puts b_aux_density of them in B (with the seed bits, always in B).
// Operand a (and the x_j) is taken first from the queue of non-exempt bits
// not yet used in A, else uniformly from the 64 most recent non-exempt bits;
// operand b likewise from the B-marked bits. Supply exceeds demand (2.3 A slots and 0.9 B slots per row for 0.9
// and 0.25 new variables), so the queues stay short and every non-exempt /
// marked bit is used. Operands never cross a chunk, so chunks are generated
// independently: pass 1 counts each chunk's entries, pass 2 writes rows and
// witness at their final offsets, both multi-threaded (parallel_tasks) and
// deterministic from the seed (independent of the thread count).
// Columns in a row are distinct and sorted (the PCE layout's invariant).
//
// Sizes: num_constraints = 2^log2_domain − num_inputs − margin, so the
// constraints plus bellperson's num_inputs input constraints fill the domain
// but for `margin` rows; num_aux = num_constraints + chunks·chunk_seeds +
// the refresh bits (~1.0084·num_constraints in all).
//
// Achieved statistics (measure_synthetic, default parameters, seed 1):
//   2^14: 16304 rows, 16449 aux; nnz/row A 2.399 B 1.000 C 2.199; aux
//         density A 99.68 % B 25.38 %; 0/1 values 90.01 % (zeros 60.3 %,
//         ones 29.8 %)
//   2^22: 4194224 rows, 4229168 aux; nnz/row A 2.400 B 1.000 C 2.200; aux
//         density A 99.69 % B 25.40 %; 0/1 values 90.00 % (zeros 69.4 %,
//         ones 20.6 %)
// (the zero/one split varies by seed and size between ~60/30 and ~72/18;
// test_synthetic checks the tolerances at 2^10 … 2^14). Without the fresh
// bit every synthetic_refresh_rows rows, a chunk could fall into the
// all-zero state, which AND and XOR never leave.
// Cost: 2^22 in ~3 s on two shared cores (both passes, witness included),
// so 2^27 (134 M rows) in ~15–20 s on 16; memory = the PCE (~44 bytes per
// row: 5.6 entries of 8 bytes plus three row offsets of 8, ~6 GB at 2^27)
// plus the witness (32 bytes per variable, ~4.3 GB at 2^27).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/r1cs/pce.hpp"

// Filed with the PoRep code whose shape it imitates; it is a plain PCE
// built on r1cs alone, and its names stay r1cs's (r1cs::synthetic_porep).
namespace cuzk::r1cs {

struct synthetic_params {
    unsigned log2_domain = 22;    // 6 … 31
    uint32_t num_inputs = 16;     // including ONE (≥ 1)
    uint32_t margin = 64;         // domain rows left free
    double nnz_a = 2.4, nnz_b = 1.0, nnz_c = 2.2;   // non-zeros per row
    double a_aux_density = 0.997, b_aux_density = 0.254;
    double frac01 = 0.9;          // share of witness values that are 0 or 1
    uint64_t seed = 1;
    unsigned threads = 0;         // 0 = all hardware threads
};

inline constexpr uint32_t synthetic_chunk_rows = 1u << 15;
inline constexpr uint32_t synthetic_chunk_seeds = 17;
inline constexpr uint32_t synthetic_refresh_rows = 128;

struct synthetic_circuit {
    pce p;
    std::vector<fr> inputs;   // inputs[0] = 1, then random public inputs
    std::vector<fr> aux;
};

// Builds the PCE and its witness. Throws errc::invalid_argument when the
// targets lie outside what the row kinds can reach (frac01 in (0, 1),
// 1 ≤ nnz_b ≤ 1 + f, 0 ≤ p_xor, p_and ≥ 0, 2 ≤ k ≤ 64, densities in [0, 1],
// b_aux_density below the bit share) or the sizes do not fit (naming the
// parameter).
synthetic_circuit synthetic_porep(const synthetic_params& params);

// Measured statistics of a PCE and witness (any circuit).
struct synthetic_stats {
    double nnz_a = 0, nnz_b = 0, nnz_c = 0;    // per constraint
    double a_aux_density = 0, b_aux_density = 0;
    double frac01 = 0, frac_zero = 0, frac_one = 0;   // over inputs and aux
};
synthetic_stats measure_synthetic(const pce& p, std::span<const fr> inputs, std::span<const fr> aux,
                                  unsigned threads = 0);

} // namespace cuzk::r1cs
