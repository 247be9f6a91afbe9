// cuzk — a 64-bit word as 64 booleans, least significant bit first
// (rust-fil-proofs' UInt64: only what the PoRep circuit uses).
//
// alloc: 64 allocated bits (64 booleanity constraints). pack_into_input: the
// bits as one public input (64 < 254 bits: one chunk), 1 constraint. The
// PoRep challenge costs 65 constraints this way.
#pragma once

#include <array>
#include <cstdint>

#include "cuzk/r1cs/gadgets/boolean.hpp"

namespace cuzk::r1cs::gadgets {

class uint64 {
public:
    uint64() = default;   // the constant 0

    static uint64 constant(uint64_t v);
    static uint64 alloc(constraint_system& cs, uint64_t v);

    const std::array<boolean, 64>& bits_le() const noexcept { return bits_; }
    uint64_t value() const noexcept { return value_; }

    void pack_into_input(constraint_system& cs) const;

private:
    std::array<boolean, 64> bits_;
    uint64_t value_ = 0;
};

} // namespace cuzk::r1cs::gadgets
