// cuzk — inserting a number into a vector at a position given by bits
// (rust-fil-proofs' storage-proofs-core gadgets/insertion.rs), the step that
// places the current node among its siblings in a Merkle path.
//
// insert(element, bits, elements) returns elements with `element` inserted
// before elements[n] (n = Σ 2^i·bits[i]; n = elements.size() puts it last).
// elements.size() + 1 must be 2^bits.size(). Every output position is a new
// variable chosen by pick (1 constraint each):
//   size 2: 2 picks (a conditional swap)                     2 constraints
//   size 4: two picks per position                           8
//   size 8: b0 nor b1, b0 and b1, then 20 picks              22
//   other sizes: a select tree per position          size·(size − 1)
// The bits for sizes 8 must be plain allocated bits (not constants, not
// negated), as upstream requires.
#pragma once

#include <span>
#include <vector>

#include "cuzk/r1cs/gadgets/num.hpp"

namespace cuzk::r1cs::gadgets {

// cond ? a : b, as a new variable c with (b − a)·cond = b − c.
allocated_num pick(constraint_system& cs, const boolean& cond, const allocated_num& a, const allocated_num& b);

// from[n], n given by path_bits (LSB first); from.size() = 2^path_bits.size().
// size − 1 picks, most significant bit first.
allocated_num select(constraint_system& cs, std::span<const allocated_num> from, std::span<const boolean> path_bits);

std::vector<allocated_num> insert(constraint_system& cs, const allocated_num& element, std::span<const boolean> bits,
                                  std::span<const allocated_num> elements);

} // namespace cuzk::r1cs::gadgets
