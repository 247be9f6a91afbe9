// cuzk — 64-bit words (gadgets/uint64.hpp).
#include "cuzk/r1cs/gadgets/uint64.hpp"

#include "cuzk/r1cs/gadgets/multipack.hpp"

namespace cuzk::r1cs::gadgets {

uint64 uint64::constant(uint64_t v)
{
    uint64 r;
    for (unsigned j = 0; j < 64; ++j) r.bits_[j] = boolean::constant((v >> j) & 1u);
    r.value_ = v;
    return r;
}

uint64 uint64::alloc(constraint_system& cs, uint64_t v)
{
    uint64 r;
    for (unsigned j = 0; j < 64; ++j) r.bits_[j] = boolean::alloc(cs, (v >> j) & 1u);
    r.value_ = v;
    return r;
}

void uint64::pack_into_input(constraint_system& cs) const
{
    pack_into_inputs(cs, bits_);
}

} // namespace cuzk::r1cs::gadgets
