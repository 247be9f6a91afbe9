// cuzk — SHA-256 exactly as bellperson's gadget builds it (the circuit that
// Filecoin's published PoRep parameters were made for).
//
// This differs from r1cs/gadgets/sha256.hpp, cuzk's own leaner circuit, in two
// ways that change the constraint count:
//  - addmany allocates bit_width(n·(2^32 − 1)) result bits for n operands,
//    whatever bits are constant (33 for 2 operands, 34 for 4, 35 for 5..8);
//  - the linear equalities of the additions are not enforced one each: a
//    multi_eq batches consecutive ones into a single constraint,
//    Σ_k 2^(o_k)·lhs_k = Σ_k 2^(o_k)·rhs_k, packing them at bit offsets o_k
//    while they fit below 254 bits. A batch is emitted when the next
//    equality would not fit, and at the end of each compression.
// The round structure is bellperson's too: e' and a' stay deferred operand
// lists (h + Σ1 + ch + K + W, plus d or Σ0 + maj) until the next round needs
// them, and the final state update folds H0 into a' (8 operands) and H4 into
// e' (7 operands); the other six words are two-operand additions.
//
// Bits are in SHA order (byte 0 first, MSB first within a byte), as
// bellperson's `sha256` takes and returns them.
#pragma once

#include <array>
#include <span>
#include <vector>

#include "cuzk/r1cs/gadgets/uint32.hpp"

namespace cuzk::r1cs::gadgets::bp {

// Batches linear equalities (bellperson's MultiEq). finish() must be called
// once the last equality is added (it emits the pending batch).
class multi_eq {
public:
    explicit multi_eq(constraint_system& cs) : cs_(cs) {}
    multi_eq(const multi_eq&) = delete;
    multi_eq& operator=(const multi_eq&) = delete;

    constraint_system& cs() noexcept { return cs_; }
    // lhs = rhs, both sides below 2^num_bits.
    void enforce_equal(unsigned num_bits, const linear_combination& lhs, const linear_combination& rhs);
    void finish();

private:
    void flush();

    constraint_system& cs_;
    unsigned bits_used_ = 0;
    linear_combination lhs_, rhs_;
};

// (Σ operands) mod 2^32, 2 ≤ n ≤ 10 operands (errc::invalid_argument
// otherwise). All-constant operands fold to a constant.
uint32 addmany(multi_eq& meq, std::span<const uint32> operands);

// One compression of `block` (512 bits) into `state`.
std::array<uint32, 8> sha256_compression(constraint_system& cs, std::span<const boolean> block,
                                         const std::array<uint32, 8>& state);

// SHA-256 of a message of whole bytes (bits.size() % 8 == 0); constant
// padding. Returns the 256 digest bits.
std::vector<boolean> sha256(constraint_system& cs, std::span<const boolean> message);

} // namespace cuzk::r1cs::gadgets::bp
