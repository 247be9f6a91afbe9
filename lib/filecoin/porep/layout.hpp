// cuzk — where each part of the PoRep partition circuit goes (private to
// lib/filecoin): the layout shared by the parallel witness
// (witness.cpp) and the parallel recording of the circuit's PCE
// (record.cpp).
//
// Every challenge allocates the same aux variables and inputs and adds the
// same constraints, in the same segments (circuit_parts.hpp), so where
// each segment's variables and rows go is known before anything runs: the
// global part first, then challenge 0, 1, … each laid out segment after
// segment. A shape's layout is measured once per process, on one blank
// challenge, and cached.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/filecoin/common/types.hpp"

namespace cuzk::filecoin::porep_parts {

// Where the variables go in the assignment of one partition.
struct layout {
    size_t global_aux = 0, global_inputs = 0;        // global_inputs counts ONE
    std::vector<size_t> seg_aux, seg_inputs;         // per segment of a challenge
    std::vector<size_t> seg_aux_at, seg_inputs_at;   // offsets inside a challenge
    size_t challenge_aux = 0, challenge_inputs = 0;
};

// Where the constraints go: rows, and entries of A, B, C, of the global part
// and of each segment of a challenge (with offsets inside a challenge), and
// the coefficients other than ±1 in the order a sequential recording meets
// them first (the global part, then one challenge: every challenge uses the
// same ones).
struct constraint_layout {
    using counts = std::array<uint64_t, 3>;
    uint64_t global_rows = 0;
    counts global_nnz{};
    std::vector<uint64_t> seg_rows, seg_rows_at;
    std::vector<counts> seg_nnz, seg_nnz_at;
    uint64_t challenge_rows = 0;
    counts challenge_nnz{};
    std::vector<fr> table;
};

// The layouts of `c`'s shape, measured on first use on `threads` threads.
std::shared_ptr<const layout> layout_of(const seal_config& c, unsigned threads);
std::shared_ptr<const constraint_layout> constraint_layout_of(const seal_config& c, unsigned threads);

// Runs the segments of n challenges in three stages of independent tasks:
// every challenge's columns segment (the labels need its rows); every leaf
// and label segment, in `order`; every tail (it needs the labels and the
// leaf). run(challenge, segment).
void run_stages(unsigned threads, size_t n, unsigned layers, const std::vector<unsigned>& order,
                const std::function<void(size_t challenge, unsigned segment)>& run);
// The stage-2 segments (0 and 2 … L+1), largest (most aux) first; without
// sizes, in order.
std::vector<unsigned> stage2_order(unsigned layers, const std::vector<size_t>& seg_aux);

} // namespace cuzk::filecoin::porep_parts
