// cuzk — packing booleans into field elements (bellperson's multipack).
//
// Bits are read least significant first. A chunk of at most fr_capacity (254)
// bits always fits in Fr, so its packed value is exact.
//   pack_into_inputs  splits the bits into chunks of 254; per chunk one new
//                     public input and one constraint (Σ 2^i·bit_i)·1 = input.
//   pack_bits         the first 254 bits into one new aux variable, with the
//                     same kind of constraint.
// Constant bits enter the sums through ONE; negated bits as 1 − v.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "cuzk/r1cs/gadgets/num.hpp"

namespace cuzk::r1cs::gadgets {

// Returns the number of inputs allocated (⌈bits/254⌉).
size_t pack_into_inputs(constraint_system& cs, std::span<const boolean> bits);

allocated_num pack_bits(constraint_system& cs, std::span<const boolean> bits);

// The input values pack_into_inputs produces for plain bits (for a verifier).
std::vector<fr> compute_multipacking(std::span<const bool> bits);

} // namespace cuzk::r1cs::gadgets
