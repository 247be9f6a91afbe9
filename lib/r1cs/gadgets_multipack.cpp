// cuzk — packing booleans into field elements (gadgets/multipack.hpp).
#include "cuzk/r1cs/gadgets/multipack.hpp"

#include <algorithm>

#include "gadget_constrain.hpp"

namespace cuzk::r1cs::gadgets {

using detail::constrain;

namespace {

// Σ 2^i·bit_i over a chunk of at most 254 bits.
fr packed_value(std::span<const boolean> chunk)
{
    fr v = fr::zero();
    for (size_t i = 0; i < chunk.size(); ++i)
        if (chunk[i].value()) v += pow2(unsigned(i));
    return v;
}

// (Σ 2^i·bit_i)·1 = target.
void enforce_packing(constraint_system& cs, std::span<const boolean> chunk, variable target)
{
    constrain(cs, [&](linear_combination& a, linear_combination& b, linear_combination& c) {
        a.reserve(chunk.size() + 1);
        for (size_t i = 0; i < chunk.size(); ++i) chunk[i].add_to(a, pow2(unsigned(i)));
        b += variable::one();
        c += target;
    });
}

} // namespace

size_t pack_into_inputs(constraint_system& cs, std::span<const boolean> bits)
{
    size_t n = 0;
    for (size_t at = 0; at < bits.size(); at += fr_capacity, ++n) {
        const auto chunk = bits.subspan(at, std::min<size_t>(fr_capacity, bits.size() - at));
        const variable in = cs.alloc_input(packed_value(chunk));
        enforce_packing(cs, chunk, in);
    }
    return n;
}

allocated_num pack_bits(constraint_system& cs, std::span<const boolean> bits)
{
    const auto chunk = bits.first(std::min<size_t>(fr_capacity, bits.size()));
    const allocated_num r = allocated_num::alloc(cs, packed_value(chunk));
    enforce_packing(cs, chunk, r.var);
    return r;
}

std::vector<fr> compute_multipacking(std::span<const bool> bits)
{
    std::vector<fr> out;
    for (size_t at = 0; at < bits.size(); at += fr_capacity) {
        fr v = fr::zero();
        for (size_t i = 0; i < fr_capacity && at + i < bits.size(); ++i)
            if (bits[at + i]) v += pow2(unsigned(i));
        out.push_back(v);
    }
    return out;
}

} // namespace cuzk::r1cs::gadgets
