// cuzk — a witness system that writes one slice of a larger assignment.
//
// Parallel witness generation: when a circuit's allocation order is known in
// advance (each part allocates a fixed number of aux variables and inputs at
// fixed positions), the parts can be synthesized concurrently, each on its
// own slice_witness_cs, straight into one pre-sized aux vector and one input
// vector. The variables it hands out carry their global indices, so gadgets
// built on them are the same as under witness_cs, and the values land where
// a sequential witness_cs would have put them; no second copy is made.
//
// Like witness_cs it keeps no constraints (keeps_constraints() is false) and
// only counts them. Allocating past the end of a slice throws
// errc::internal (the part is larger than its layout said); full()
// tells whether the part filled its slice exactly.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/r1cs/constraint_system.hpp"

namespace cuzk::r1cs {

// Sizes the vector that slices will tile to n values. A vector of that size
// already is reused as it is: the slices must each be filled, so every value
// is overwritten and the zero fill is wasted work. Otherwise fresh memory is
// reserved and, on Linux, asked for transparent huge pages before the zero
// fill of resize (with 4 KiB pages the faults dominate: a 4.2 GB aux vector
// took 2.0 s against 0.9 s with huge pages on a 16-core host).
void size_for_slices(std::vector<fr>& v, size_t n);

class slice_witness_cs final : public constraint_system {
public:
    // Writes aux[aux_begin, aux_begin + aux_slice.size()) through `aux_slice`
    // and inputs likewise; the begin offsets are the global indices of the
    // slices' first elements.
    slice_witness_cs(std::span<fr> aux_slice, size_t aux_begin, std::span<fr> input_slice, size_t input_begin)
        : aux_(aux_slice), inputs_(input_slice), aux_begin_(aux_begin), input_begin_(input_begin)
    {
    }

    variable alloc(const fr& value) override
    {
        if (aux_used_ == aux_.size()) overflow("aux", aux_.size(), aux_begin_);
        aux_[aux_used_] = value;
        return variable::aux(uint32_t(aux_begin_ + aux_used_++));
    }
    variable alloc_input(const fr& value) override
    {
        if (inputs_used_ == inputs_.size()) overflow("input", inputs_.size(), input_begin_);
        inputs_[inputs_used_] = value;
        return variable::input(uint32_t(input_begin_ + inputs_used_++));
    }
    void enforce(const linear_combination&, const linear_combination&, const linear_combination&) override
    {
        ++constraints_;
    }
    bool is_witness_generator() const override { return true; }
    bool keeps_constraints() const override { return false; }
    // Global counts: everything before the slice plus what was written.
    size_t num_inputs() const override { return input_begin_ + inputs_used_; }
    size_t num_aux() const override { return aux_begin_ + aux_used_; }
    // The constraints counted on this system only.
    size_t num_constraints() const override { return constraints_; }

    // True when both slices were written to their ends.
    bool full() const noexcept { return aux_used_ == aux_.size() && inputs_used_ == inputs_.size(); }

private:
    [[noreturn]] static void overflow(const char* what, size_t size, size_t begin)
    {
        throw error(errc::internal,
                    fmt::format("slice_witness_cs: the {} slice of {} values at {} overflows", what, size, begin));
    }

    std::span<fr> aux_, inputs_;
    size_t aux_begin_, input_begin_;
    size_t aux_used_ = 0, inputs_used_ = 0;
    size_t constraints_ = 0;
};

} // namespace cuzk::r1cs
