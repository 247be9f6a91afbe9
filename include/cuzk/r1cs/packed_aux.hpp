// cuzk — a destination for an aux assignment written in slices, in a packed
// form chosen by the receiver.
//
// A circuit whose witness is made of independent parts at known positions
// (r1cs::circuit::witness_packed) synthesizes each part on a constraint
// system the sink hands out for that part's slice of aux: every value goes
// to the sink's form the moment it is allocated, and no aux vector exists.
// The cuda backend's sink (gpu_packed_witness) keeps 2 bits per 0/1 value
// and only the other values, in the page-locked form its upload reads, so a
// 130-million-value assignment is never written at 32 bytes a value.
//
// Contract: begin(n) once; then open() slices that together cover [0, n)
// exactly once (any order, concurrently from several threads), each filled
// by the part's synthesis and then close()d; then finish(). A slice system
// throws errc::internal when more values are allocated than its slice holds;
// finish() throws errc::internal when the slices left a gap or overlapped.
// Values are in Montgomery form.
#pragma once

#include <cstddef>
#include <memory>
#include <span>

#include "cuzk/ff/bls12_381.hpp"

namespace cuzk::r1cs {

class constraint_system;

// The system of one slice: aux variables get global indices aux_at …,
// inputs are written to the span given to open() (global indices in_at …).
class packed_slice {
public:
    virtual ~packed_slice() = default;
    virtual constraint_system& cs() = 0;
    // True when the aux slice and the input span were written to their ends.
    virtual bool full() const = 0;
    // Hands the slice's values to the sink; call once, after synthesis.
    virtual void close() = 0;
};

class packed_aux_sink {
public:
    virtual ~packed_aux_sink() = default;
    virtual void begin(size_t n) = 0;
    virtual std::unique_ptr<packed_slice> open(size_t aux_at, size_t n_aux, std::span<fr> inputs, size_t in_at) = 0;
    // `threads` threads (0 = all cores) for the final placement.
    virtual void finish(unsigned threads) = 0;
};

} // namespace cuzk::r1cs
