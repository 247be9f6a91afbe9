// cuzk — field-element gadgets: an allocated number (one variable holding an
// Fr value) and the few constraints built directly on such numbers.
//
// These reproduce bellpepper-core's AllocatedNum and rust-fil-proofs'
// `gadgets::constraint` helpers constraint for constraint and variable for
// variable (same allocation order, same A/B/C split), so that circuits built
// from them have the R1CS of bellperson's. Costs:
//   alloc / alloc_input   one variable, no constraint
//   inputize              one new input, 1 constraint  input·1 = x
//   to_bits_le            255 allocated bits (booleanity each) and the
//                         packing constraint 0·0 = Σ 2^i·b_i − x: 256. Not
//                         strict: the bits may also encode x + r when that
//                         fits in 255 bits.
//   square / mul          1 variable, 1 constraint
//   constraint::equal     1 constraint  a·1 = b
//   constraint::add       1 variable, 1 constraint  (a + b)·1 = sum
#pragma once

#include <span>
#include <vector>

#include "cuzk/r1cs/gadgets/boolean.hpp"

namespace cuzk::r1cs::gadgets {

// Bits of an Fr that the field can pack without overflow (Fr::CAPACITY).
inline constexpr unsigned fr_capacity = 254;
// Bits of the modulus (Fr::NUM_BITS): to_bits_le produces this many.
inline constexpr unsigned fr_num_bits = 255;

struct allocated_num {
    variable var{};
    fr value{};

    static allocated_num alloc(constraint_system& cs, const fr& v) { return {cs.alloc(v), v}; }
    static allocated_num alloc_input(constraint_system& cs, const fr& v) { return {cs.alloc_input(v), v}; }

    // Makes the value public: a new input tied to this variable.
    void inputize(constraint_system& cs) const;
    // The 255 little-endian bits of the value (non-strict decomposition).
    std::vector<boolean> to_bits_le(constraint_system& cs) const;
    // The same 255 bits tied by (Σ 2^i·b_i)·1 = x instead (SnapDeals'
    // allocated_num_to_allocated_bits: bellperson's
    // field_into_allocated_bits_le and that "binary decomp" constraint).
    std::vector<boolean> to_bits_le_decomp(constraint_system& cs) const;
    allocated_num square(constraint_system& cs) const;
    allocated_num mul(constraint_system& cs, const allocated_num& other) const;
};

// Pads to whole bytes with constant false bits, then reverses the bit order
// inside each byte: LSB-first bits of a little-endian number become the
// byte stream in SHA order (byte 0 first, MSB first within a byte).
std::vector<boolean> reverse_bit_numbering(std::vector<boolean> bits);

namespace constraint {

// a·1 = b.
void equal(constraint_system& cs, const allocated_num& a, const allocated_num& b);
// (a + b)·1 = sum, for an existing sum.
void sum(constraint_system& cs, const allocated_num& a, const allocated_num& b, const allocated_num& s);
// A new variable a + b with its sum constraint.
allocated_num add(constraint_system& cs, const allocated_num& a, const allocated_num& b);

} // namespace constraint

} // namespace cuzk::r1cs::gadgets
