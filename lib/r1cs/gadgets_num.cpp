// cuzk — field-element gadgets (gadgets/num.hpp).
#include "cuzk/r1cs/gadgets/num.hpp"

#include "gadget_constrain.hpp"

namespace cuzk::r1cs::gadgets {

using detail::constrain;

void allocated_num::inputize(constraint_system& cs) const
{
    const variable in = cs.alloc_input(value);
    // input·1 = x
    constrain(cs, [&](linear_combination& a, linear_combination& b, linear_combination& c) {
        a += in;
        b += variable::one();
        c += var;
    });
}

std::vector<boolean> allocated_num::to_bits_le(constraint_system& cs) const
{
    const fr::repr r = value.to_repr();
    std::vector<boolean> bits;
    bits.reserve(fr_num_bits);
    for (unsigned i = 0; i < fr_num_bits; ++i) bits.push_back(boolean::alloc(cs, r.bit(i)));
    // 0·0 = Σ 2^i·b_i − x
    constrain(cs, [&](linear_combination&, linear_combination&, linear_combination& c) {
        c.reserve(fr_num_bits + 1);
        for (unsigned i = 0; i < fr_num_bits; ++i) c.add(bits[i].var(), pow2(i));
        c -= var;
    });
    return bits;
}

std::vector<boolean> allocated_num::to_bits_le_decomp(constraint_system& cs) const
{
    const fr::repr r = value.to_repr();
    std::vector<boolean> bits;
    bits.reserve(fr_num_bits);
    for (unsigned i = 0; i < fr_num_bits; ++i) bits.push_back(boolean::alloc(cs, r.bit(i)));
    // (Σ 2^i·b_i)·1 = x
    constrain(cs, [&](linear_combination& a, linear_combination& b, linear_combination& c) {
        a.reserve(fr_num_bits);
        for (unsigned i = 0; i < fr_num_bits; ++i) a.add(bits[i].var(), pow2(i));
        b += variable::one();
        c += var;
    });
    return bits;
}

allocated_num allocated_num::square(constraint_system& cs) const
{
    const allocated_num r = alloc(cs, value.sqr());
    constrain(cs, [&](linear_combination& a, linear_combination& b, linear_combination& c) {
        a += var;
        b += var;
        c += r.var;
    });
    return r;
}

allocated_num allocated_num::mul(constraint_system& cs, const allocated_num& other) const
{
    const allocated_num r = alloc(cs, value * other.value);
    constrain(cs, [&](linear_combination& a, linear_combination& b, linear_combination& c) {
        a += var;
        b += other.var;
        c += r.var;
    });
    return r;
}

std::vector<boolean> reverse_bit_numbering(std::vector<boolean> bits)
{
    while (bits.size() % 8 != 0) bits.push_back(boolean::constant(false));
    for (size_t i = 0; i < bits.size(); i += 8)
        for (size_t j = 0; j < 4; ++j) std::swap(bits[i + j], bits[i + 7 - j]);
    return bits;
}

namespace constraint {

void equal(constraint_system& cs, const allocated_num& x, const allocated_num& y)
{
    constrain(cs, [&](linear_combination& a, linear_combination& b, linear_combination& c) {
        a += x.var;
        b += variable::one();
        c += y.var;
    });
}

void sum(constraint_system& cs, const allocated_num& x, const allocated_num& y, const allocated_num& s)
{
    constrain(cs, [&](linear_combination& a, linear_combination& b, linear_combination& c) {
        a += x.var;
        a += y.var;
        b += variable::one();
        c += s.var;
    });
}

allocated_num add(constraint_system& cs, const allocated_num& x, const allocated_num& y)
{
    const allocated_num s = allocated_num::alloc(cs, x.value + y.value);
    sum(cs, x, y, s);
    return s;
}

} // namespace constraint

} // namespace cuzk::r1cs::gadgets
