// cuzk — a helper shared by the gadget sources (private to lib/r1cs).
#pragma once

#include "cuzk/r1cs/constraint_system.hpp"

namespace cuzk::r1cs::gadgets::detail {

// Enforces a·b = c where `make(a, b, c)` fills the three combinations; on a
// system that does not keep constraints it only counts the constraint and
// never builds them.
template <class F>
inline void constrain(constraint_system& cs, F&& make)
{
    if (!cs.keeps_constraints()) {
        cs.enforce_count();
        return;
    }
    linear_combination a, b, c;
    make(a, b, c);
    cs.enforce(a, b, c);
}

} // namespace cuzk::r1cs::gadgets::detail
