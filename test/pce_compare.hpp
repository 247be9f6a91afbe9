// Test helper: comparing two PCEs array for array.
#pragma once

#include <algorithm>
#include <span>
#include <string>

#include "cuzk/r1cs/pce.hpp"

namespace cuzk::test {

template <class T>
inline bool same(std::span<const T> a, std::span<const T> b)
{
    return std::ranges::equal(a, b);
}

// Names the first array in which two PCEs differ ("" when they are equal).
inline std::string first_difference(const r1cs::pce& x, const r1cs::pce& y)
{
    if (x.num_inputs != y.num_inputs || x.num_aux != y.num_aux || x.num_constraints != y.num_constraints) return "counts";
    const r1cs::csr_matrix* mx[3] = {&x.a, &x.b, &x.c};
    const r1cs::csr_matrix* my[3] = {&y.a, &y.b, &y.c};
    for (int m = 0; m < 3; ++m) {
        const std::string name(1, "ABC"[m]);
        if (!same(mx[m]->row_ptr, my[m]->row_ptr)) return name + " row_ptr";
        if (!same(mx[m]->col, my[m]->col)) return name + " col";
        if (!same(mx[m]->coef, my[m]->coef)) return name + " coef";
    }
    if (!same(x.coeffs, y.coeffs)) return "coefficient table";
    const r1cs::density_bitmap* dx[3] = {&x.a_aux_density, &x.b_input_density, &x.b_aux_density};
    const r1cs::density_bitmap* dy[3] = {&y.a_aux_density, &y.b_input_density, &y.b_aux_density};
    for (int i = 0; i < 3; ++i)
        if (dx[i]->bit_len != dy[i]->bit_len || dx[i]->popcount != dy[i]->popcount || !same(dx[i]->words, dy[i]->words))
            return "density " + std::to_string(i);
    return "";
}

} // namespace cuzk::test
