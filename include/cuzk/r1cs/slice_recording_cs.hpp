// cuzk — recording a PCE in parts, concurrently: the constraint counterpart
// of slice_witness_cs.
//
// When a circuit is made of parts of known shape (each allocates a fixed
// number of aux variables and inputs at fixed positions, and adds a fixed
// number of constraints with a fixed number of entries per matrix), the parts
// can be recorded concurrently, each on its own slice_recording_cs writing
// straight into one set of pre-sized arrays (pce_parts). Rows are made
// canonical exactly as recording_cs makes them (pce_builder::canonical), and
// coefficient codes come from a table given up front, so the result equals
// what recording_cs makes of the parts run in order, array for array, when
// that table lists the coefficients (other than ±1) in the order they first
// appear in the sequential run.
//
// A part that allocates, adds rows or entries past its slice, or a
// coefficient missing from the table, throws errc::internal (the shape given
// was wrong); full() tells whether a part filled its slice exactly, and
// pce_parts::finish() refuses arrays with rows or entries left unwritten.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <unordered_map>
#include <vector>

#include "cuzk/r1cs/constraint_system.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "cuzk/r1cs/pce_builder.hpp"

namespace cuzk::r1cs {

// Where one part goes: its variables (global indices of the first aux and
// input it allocates, and how many), its rows and its entries per matrix
// (A, B, C).
struct pce_slice {
    size_t aux_begin = 0, aux_count = 0;
    size_t input_begin = 0, input_count = 0;
    uint64_t row_begin = 0, row_count = 0;
    std::array<uint64_t, 3> nnz_begin{}, nnz_count{};
};

// The arrays of a PCE under construction by parts.
class pce_parts {
public:
    // Room for `rows` constraints and nnz[i] entries in matrix i, over
    // num_inputs inputs (ONE included) and num_aux aux variables; `table`
    // holds the coefficients other than ±1 in code order.
    pce_parts(uint32_t num_inputs, uint32_t num_aux, uint64_t rows, const std::array<uint64_t, 3>& nnz,
              std::vector<fr> table);

    uint32_t num_inputs() const noexcept { return num_inputs_; }
    uint32_t num_aux() const noexcept { return num_aux_; }
    // The code of a coefficient; errc::internal when it is not in the table.
    uint32_t code_of(const fr& c) const;

    // Writes `part`, a part recorded on its own (recording_cs(1, 0): ONE, its
    // inputs, its aux), into slice `at` as if it had been recorded there:
    // its inputs and aux moved to the slice's, ONE kept, its coefficients
    // recoded into this table. Column order within a row is kept (the move
    // is monotone), so a circuit of identical parts placed at every slice
    // equals its sequential recording without synthesizing each part.
    // errc::internal when the part's counts are not the slice's or a
    // coefficient is missing from the table. Disjoint slices may be placed
    // concurrently.
    void place(const pce& part, const pce_slice& at);

    // The finished PCE, densities computed on `threads` threads (0 = all
    // cores). The parts' slices must tile the arrays (the caller lays them
    // out); as many rows and entries as the arrays hold must have been
    // written (errc::internal otherwise). Leaves this object empty.
    pce finish(unsigned threads);

private:
    friend class slice_recording_cs;
    // Arrays left uninitialised (every element is written by a part), so
    // that the pages are first touched by the threads that fill them.
    template <class T>
    struct array {
        std::unique_ptr<T[]> p;
        size_t n = 0;
    };

    uint32_t num_inputs_, num_aux_;
    uint64_t rows_;
    array<uint64_t> row_ptr_[3];
    array<uint32_t> col_[3], coef_[3];
    std::vector<fr> table_;
    std::unordered_map<pce_builder::coef_key, uint32_t, pce_builder::key_hash> index_;
    std::atomic<uint64_t> rows_written_{0}, nnz_written_[3]{};
};

class slice_recording_cs final : public constraint_system {
public:
    slice_recording_cs(pce_parts& dst, const pce_slice& at) : dst_(dst), at_(at) {}
    // Adds what this part wrote to the arrays' counts of written rows and
    // entries.
    ~slice_recording_cs() override
    {
        dst_.rows_written_ += rows_used_;
        for (int m = 0; m < 3; ++m) dst_.nnz_written_[m] += nnz_used_[m];
    }

    variable alloc(const fr& value) override;
    variable alloc_input(const fr& value) override;
    void enforce(const linear_combination& a, const linear_combination& b, const linear_combination& c) override;
    bool is_witness_generator() const override { return false; }
    bool keeps_constraints() const override { return true; }
    // Global counts: everything before the slice plus what was allocated.
    size_t num_inputs() const override { return at_.input_begin + inputs_used_; }
    size_t num_aux() const override { return at_.aux_begin + aux_used_; }
    // The constraints recorded on this system only.
    size_t num_constraints() const override { return size_t(rows_used_); }

    // True when the slice was filled exactly: variables, rows and entries.
    bool full() const noexcept;

private:
    [[noreturn]] void overflow(const char* what) const;
    // One canonical row of matrix m into the arrays; returns its entries.
    uint64_t put_row(int m, const linear_combination& lc);

    pce_parts& dst_;
    pce_slice at_;
    size_t aux_used_ = 0, inputs_used_ = 0;
    uint64_t rows_used_ = 0;
    std::array<uint64_t, 3> nnz_used_{};
    std::vector<pce_builder::entry> scratch_;
};

} // namespace cuzk::r1cs
