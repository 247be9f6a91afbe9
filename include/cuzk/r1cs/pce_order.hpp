// cuzk — the rows of a PCE grouped by their shape.
//
// An evaluator that gives each constraint row to one GPU thread runs a warp
// of 32 rows in lockstep: the warp takes as long as its longest row, and
// rows of different lengths leave most of its threads idle. A PCE is fixed
// per circuit, so its rows can be evaluated in another order, chosen once:
// pce_shape_order sorts the rows by their shape, the triple of their entry
// counts (|A_r|, |B_r|, |C_r|), each capped at shape_cap (longer rows share
// the last value). The sort is stable, so rows of one shape keep their
// relative order, and it may be confined to tiles of 2^tile_log consecutive
// rows: a row then moves only within its tile, so the witness values a warp
// reads and the outputs it writes stay as close together as the rows were
// (which matters when a circuit's shapes are many and its neighbouring rows
// read neighbouring columns). The evaluator then reads the matrices rewritten in that
// order (reordered_offsets, reordered_entries: position t holds the entries
// of row order[t], their order within the row unchanged) and writes row
// order[t]'s results to index order[t], so the outputs are those of the
// unordered evaluation, bit for bit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/r1cs/pce.hpp"

namespace cuzk::r1cs {

inline constexpr uint32_t shape_cap = 15;

// order[t] = the row at position t (a permutation of 0 … num_constraints−1),
// rows sorted by shape within each tile of 2^tile_log rows (tile_log >= 32:
// the whole PCE is one tile). num_constraints must be below 2^32
// (errc::invalid_argument otherwise). threads: 0 = all hardware threads.
std::vector<uint32_t> pce_shape_order(const pce& p, unsigned tile_log = 32, unsigned threads = 0);

// The row offsets of m with its rows in `order` (order.size() + 1 values).
std::vector<uint64_t> reordered_offsets(const csr_matrix& m, std::span<const uint32_t> order, unsigned threads = 0);

// The columns and codes of positions t0 … t1−1 of m in `order`, written to
// col and code; `offsets` is reordered_offsets(m, order), and col and code
// hold offsets[t1] − offsets[t0] values (errc::invalid_argument otherwise).
void reordered_entries(const csr_matrix& m, std::span<const uint32_t> order, std::span<const uint64_t> offsets,
                       size_t t0, size_t t1, std::span<uint32_t> col, std::span<uint32_t> code,
                       unsigned threads = 0);

} // namespace cuzk::r1cs
