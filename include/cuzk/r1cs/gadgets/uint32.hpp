// cuzk — 32-bit words as 32 booleans, least significant bit first.
//
// Rotations and shifts only permute the bits (shifts bring in constant
// zeros): they cost no constraints. Bitwise operations cost one constraint
// per non-constant bit pair (see boolean.hpp).
//
// addmany (sum of n words mod 2^32) — cost:
//   Let M = Σ over operands of their largest possible value (a bit that is
//   constant false contributes 0, any other bit 2^j). The full sum S < 2^k with
//   k = bit_width(M) (32 + ⌈log2 n⌉ for n full words). We allocate the k bits
//   of S (k booleanity constraints) and enforce one linear constraint
//       (Σ_operands Σ_j 2^j·bit_j)·1 = Σ_{i<k} 2^i·s_i,
//   which pins S exactly because k < 255 (no wrap in Fr). The result is the
//   low 32 bits; the carries are dropped. Total k + 1 constraints, e.g. 34 for
//   two words, 36 for five to seven. A sum of constants folds to a constant.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "cuzk/r1cs/gadgets/boolean.hpp"

namespace cuzk::r1cs::gadgets {

class uint32 {
public:
    uint32() = default;   // the constant 0

    static uint32 constant(uint32_t v);
    // 32 new allocated bits holding v.
    static uint32 alloc(constraint_system& cs, uint32_t v);
    // From booleans, bits[0] the least significant.
    static uint32 from_bits(std::span<const boolean, 32> bits);

    const std::array<boolean, 32>& bits() const noexcept { return bits_; }
    uint32_t value() const noexcept { return value_; }
    bool is_constant() const noexcept;

    uint32 rotr(unsigned n) const;
    uint32 shr(unsigned n) const;

    static uint32 xor_(constraint_system& cs, const uint32& a, const uint32& b);
    static uint32 and_(constraint_system& cs, const uint32& a, const uint32& b);
    static uint32 sha256_ch(constraint_system& cs, const uint32& a, const uint32& b, const uint32& c);
    static uint32 sha256_maj(constraint_system& cs, const uint32& a, const uint32& b, const uint32& c);
    // (Σ operands) mod 2^32. Throws errc::invalid_argument for an empty span.
    static uint32 addmany(constraint_system& cs, std::span<const uint32> operands);

private:
    std::array<boolean, 32> bits_;
    uint32_t value_ = 0;
};

} // namespace cuzk::r1cs::gadgets
