// cuzk — a destination for an aux assignment written in slices, in a packed
// form chosen by the receiver.
//
// A circuit whose witness is made of independent parts at known positions
// (r1cs::circuit::witness_packed) hands each part's values to a sink as soon
// as the part is done, instead of writing one full aux vector first. The
// cuda backend's sink (gpu_packed_witness) keeps 2 bits per 0/1 value and
// only the other values, in the page-locked form its upload reads, so a
// 130-million-value assignment never exists at 32 bytes a value.
//
// Contract: begin(n) once, then put() for slices that together cover
// [0, n) exactly once (any order, concurrently from several threads for
// disjoint slices), then finish(). finish() throws errc::internal when the
// slices left a gap or overlapped. Values are in Montgomery form.
#pragma once

#include <cstddef>
#include <span>

#include "cuzk/ff/bls12_381.hpp"

namespace cuzk::r1cs {

class packed_aux_sink {
public:
    virtual ~packed_aux_sink() = default;
    virtual void begin(size_t n) = 0;
    // aux[at, at + values.size()) = values. Thread-safe for disjoint slices.
    virtual void put(size_t at, std::span<const fr> values) = 0;
    // `threads` threads (0 = all cores) for the final placement.
    virtual void finish(unsigned threads) = 0;
};

} // namespace cuzk::r1cs
