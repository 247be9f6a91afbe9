// cuzk — 32-bit word gadgets (gadgets/uint32.hpp).
#include "cuzk/r1cs/gadgets/uint32.hpp"

#include <bit>

#include "cuzk/error.hpp"

namespace cuzk::r1cs::gadgets {

uint32 uint32::constant(uint32_t v)
{
    uint32 r;
    for (unsigned j = 0; j < 32; ++j) r.bits_[j] = boolean::constant((v >> j) & 1u);
    r.value_ = v;
    return r;
}

uint32 uint32::alloc(constraint_system& cs, uint32_t v)
{
    uint32 r;
    for (unsigned j = 0; j < 32; ++j) r.bits_[j] = boolean::alloc(cs, (v >> j) & 1u);
    r.value_ = v;
    return r;
}

uint32 uint32::from_bits(std::span<const boolean, 32> bits)
{
    uint32 r;
    r.value_ = 0;
    for (unsigned j = 0; j < 32; ++j) {
        r.bits_[j] = bits[j];
        r.value_ |= uint32_t(bits[j].value()) << j;
    }
    return r;
}

bool uint32::is_constant() const noexcept
{
    for (const boolean& b : bits_)
        if (!b.is_constant()) return false;
    return true;
}

uint32 uint32::rotr(unsigned n) const
{
    n %= 32;
    uint32 r;
    for (unsigned j = 0; j < 32; ++j) r.bits_[j] = bits_[(j + n) % 32];
    r.value_ = std::rotr(value_, int(n));
    return r;
}

uint32 uint32::shr(unsigned n) const
{
    uint32 r;   // constant zero bits by default
    for (unsigned j = 0; j + n < 32; ++j) r.bits_[j] = bits_[j + n];
    r.value_ = n >= 32 ? 0 : value_ >> n;
    return r;
}

uint32 uint32::xor_(constraint_system& cs, const uint32& a, const uint32& b)
{
    uint32 r;
    for (unsigned j = 0; j < 32; ++j) r.bits_[j] = boolean::xor_(cs, a.bits_[j], b.bits_[j]);
    r.value_ = a.value_ ^ b.value_;
    return r;
}

uint32 uint32::and_(constraint_system& cs, const uint32& a, const uint32& b)
{
    uint32 r;
    for (unsigned j = 0; j < 32; ++j) r.bits_[j] = boolean::and_(cs, a.bits_[j], b.bits_[j]);
    r.value_ = a.value_ & b.value_;
    return r;
}

uint32 uint32::sha256_ch(constraint_system& cs, const uint32& a, const uint32& b, const uint32& c)
{
    uint32 r;
    for (unsigned j = 0; j < 32; ++j) r.bits_[j] = boolean::sha256_ch(cs, a.bits_[j], b.bits_[j], c.bits_[j]);
    r.value_ = (a.value_ & b.value_) ^ (~a.value_ & c.value_);
    return r;
}

uint32 uint32::sha256_maj(constraint_system& cs, const uint32& a, const uint32& b, const uint32& c)
{
    uint32 r;
    for (unsigned j = 0; j < 32; ++j) r.bits_[j] = boolean::sha256_maj(cs, a.bits_[j], b.bits_[j], c.bits_[j]);
    r.value_ = (a.value_ & b.value_) ^ (a.value_ & c.value_) ^ (b.value_ & c.value_);
    return r;
}

uint32 uint32::addmany(constraint_system& cs, std::span<const uint32> ops)
{
    if (ops.empty()) throw error(errc::invalid_argument, "uint32::addmany: no operands");
    if (ops.size() > (size_t(1) << 20)) throw error(errc::invalid_argument, "uint32::addmany: too many operands");
    uint64_t max_sum = 0, sum = 0;
    bool all_constant = true;
    for (const uint32& o : ops) {
        for (unsigned j = 0; j < 32; ++j) {
            const boolean& b = o.bits_[j];
            if (!b.is_constant()) all_constant = false;
            if (!b.is_constant() || b.value()) max_sum += uint64_t(1) << j;
        }
        sum += o.value_;
    }
    if (all_constant) return constant(uint32_t(sum));

    const unsigned k = unsigned(std::bit_width(max_sum));
    uint32 r;   // bits at and above k stay constant zero
    std::array<boolean, 64> s;
    for (unsigned i = 0; i < k; ++i) s[i] = boolean::alloc(cs, (sum >> i) & 1u);
    for (unsigned i = 0; i < k && i < 32; ++i) r.bits_[i] = s[i];
    r.value_ = uint32_t(sum);

    if (!cs.keeps_constraints()) {
        cs.enforce_count();
        return r;
    }
    // (Σ operand bits·2^j)·1 = Σ s_i·2^i. Constant and negated bits put their
    // share on ONE, collected into one term.
    linear_combination lhs, rhs;
    lhs.reserve(ops.size() * 32 + 1);
    rhs.reserve(k);
    uint64_t const_part = 0;
    for (const uint32& o : ops)
        for (unsigned j = 0; j < 32; ++j) {
            const boolean& b = o.bits_[j];
            switch (b.get_kind()) {
            case boolean::kind::constant:
                if (b.value()) const_part += uint64_t(1) << j;
                break;
            case boolean::kind::is: lhs.add(b.var(), pow2(j)); break;
            case boolean::kind::is_not:
                const_part += uint64_t(1) << j;
                lhs.add(b.var(), -pow2(j));
                break;
            }
        }
    if (const_part) lhs.add(variable::one(), fr::from_u64(const_part));
    for (unsigned i = 0; i < k; ++i) rhs.add(s[i].var(), pow2(i));
    cs.enforce(lhs, variable::one(), rhs);
    return r;
}

} // namespace cuzk::r1cs::gadgets
