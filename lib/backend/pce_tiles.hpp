// cuzk — internal: a streamed PCE's tiles (gpu_pce_options::streamed,
// include/cuzk/backend/cuda.hpp). A PCE too large for the device beside a
// prove stays in page-locked host memory, stored as the device would hold
// it (per matrix the row offsets, columns and codes, rows in the shape
// order); each evaluation copies it to the device a tile at a time: the
// positions t0 … t1−1 of every matrix, with their offsets as they stand and
// their entries e0[i] … e1[i]−1 (the kernel subtracts e0[i] from the
// offsets: witness_bridge::csr_device::base), and the order's slice. One
// tile buffer holds the arrays one after the other, each 256-byte aligned.
// Plain C++ (the CPU build tests the arithmetic: test_device_plan).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "backend/bridge/handles.hpp"
#include "cuzk/ec/bls12_381.hpp"

namespace cuzk {
class gpu_pce;
}

namespace cuzk::gpu_detail {

// One matrix's row offsets: 32-bit (narrow) or 64-bit values.
struct pce_offsets {
    const void* p = nullptr;
    bool narrow = true;
    uint64_t operator[](uint64_t i) const noexcept
    {
        return narrow ? static_cast<const uint32_t*>(p)[i] : static_cast<const uint64_t*>(p)[i];
    }
    unsigned width() const noexcept { return narrow ? 4u : 8u; }
};

// The host block of a streamed PCE: per matrix its offsets (rows + 1
// values, 32-bit when narrow), columns and codes (nnz each), then the order
// (rows values, when ordered); byte offsets of each array, 256-byte aligned.
struct pce_host_layout {
    uint64_t rows = 0, nnz[3] = {};
    bool narrow[3] = {true, true, true};
    bool ordered = false;
    uint64_t off_at[3] = {}, col_at[3] = {}, code_at[3] = {}, order_at = 0, bytes = 0;
};
pce_host_layout pce_host_layout_of(uint64_t rows, const uint64_t nnz[3], const bool narrow[3], bool ordered);

// A tile: positions t0 … t1−1 of every matrix and each matrix's entries
// e0[i] … e1[i]−1; its buffer holds the arrays laid out as a host block of
// t1 − t0 rows (offsets t1 − t0 + 1 values as they stand, the entries, the
// order's slice).
struct pce_tile {
    uint64_t t0 = 0, t1 = 0;
    uint64_t e0[3] = {}, e1[3] = {};
    pce_host_layout at;   // at.bytes: the tile buffer's bytes
};

// One copy of a tile's arrays: bytes from host block offset src to tile
// buffer offset dst.
struct pce_copy {
    uint64_t dst = 0, src = 0, bytes = 0;
};
// The copies that fill a tile's buffer from the host block: those of the
// matrices in `mats` (bit i: matrix i, A B C), and the order's (empty arrays
// included, with 0 bytes).
std::vector<pce_copy> pce_tile_copies(const pce_host_layout& h, const pce_tile& t, unsigned mats = 7);

// The tile of positions t0 … t1−1 (t0 < t1 <= rows), laid out.
pce_tile pce_tile_layout(const pce_offsets off[3], bool ordered, uint64_t t0, uint64_t t1);

// Tiles of at most max_bytes each, in position order, covering positions
// 0 … rows−1 (none when rows is 0); greedy, each as long as fits. A single
// position larger than max_bytes throws errc::invalid_argument naming it.
std::vector<pce_tile> split_pce_tiles(const pce_offsets off[3], uint64_t rows, bool ordered, uint64_t max_bytes);

// Bytes of each of the two tile buffers of a streamed PCE's evaluation
// (the device memory it adds beside the witness and a, b, c): max_bytes, or
// the whole PCE's arrays when smaller.
uint64_t pce_tile_buffer_bytes(uint64_t pce_bytes, uint64_t max_bytes);

// A streamed evaluation's copies, for the timeline: each tile's copies
// between two events recorded on the copy stream (events from `event`, the
// caller's pool, so that they outlive the evaluation), with their bytes.
struct pce_copy_report {
    std::function<bridge::event()> event;
    std::function<void(uint64_t bytes, bridge::event begin, bridge::event end)> add;
};

// The evaluation of include/cuzk/backend/cuda.hpp's gpu_pce_eval_*_device
// (pointers checked there): a, b, c written (a and b null: C only; c null:
// A and B only, C's rows read for the check); with check, the first row with
// a·b != c (waits), else −1 (queued). A streamed PCE reports its copies to
// `report` when given. lib/backend/cuda_witness.cpp.
int64_t pce_eval_parts(const gpu_pce& m, const fr* w, fr* a, fr* b, fr* c, bool check,
                       const pce_copy_report* report = nullptr);

} // namespace cuzk::gpu_detail
