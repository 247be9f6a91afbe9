// cuzk — a streamed PCE's tiles (lib/backend/pce_tiles.hpp).
#include "backend/pce_tiles.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "cuzk/error.hpp"

namespace cuzk::gpu_detail {

namespace {

constexpr uint64_t align = 256;
uint64_t up(uint64_t b) { return (b + align - 1) / align * align; }

} // namespace

pce_tile pce_tile_layout(const pce_offsets off[3], bool ordered, uint64_t t0, uint64_t t1)
{
    pce_tile t;
    t.t0 = t0;
    t.t1 = t1;
    uint64_t nnz[3];
    bool narrow[3];
    for (int i = 0; i < 3; ++i) {
        t.e0[i] = off[i][t0];
        t.e1[i] = off[i][t1];
        nnz[i] = t.e1[i] - t.e0[i];
        narrow[i] = off[i].narrow;
    }
    t.at = pce_host_layout_of(t1 - t0, nnz, narrow, ordered);
    return t;
}

std::vector<pce_tile> split_pce_tiles(const pce_offsets off[3], uint64_t rows, bool ordered, uint64_t max_bytes)
{
    std::vector<pce_tile> tiles;
    for (uint64_t t0 = 0; t0 < rows;) {
        pce_tile best = pce_tile_layout(off, ordered, t0, t0 + 1);
        if (best.at.bytes > max_bytes)
            throw error(errc::invalid_argument,
                        fmt::format("gpu_pce: position {} of the PCE takes {} bytes, more than a tile of {}", t0,
                                    best.at.bytes, max_bytes));
        // The longest tile that fits: its bytes grow with t1.
        uint64_t lo = t0 + 1, hi = rows;
        while (lo < hi) {
            const uint64_t mid = lo + (hi - lo + 1) / 2;
            const pce_tile t = pce_tile_layout(off, ordered, t0, mid);
            if (t.at.bytes <= max_bytes) {
                lo = mid;
                best = t;
            } else {
                hi = mid - 1;
            }
        }
        tiles.push_back(best);
        t0 = best.t1;
    }
    return tiles;
}

pce_host_layout pce_host_layout_of(uint64_t rows, const uint64_t nnz[3], const bool narrow[3], bool ordered)
{
    pce_host_layout h;
    h.rows = rows;
    h.ordered = ordered;
    uint64_t at = 0;
    for (int i = 0; i < 3; ++i) {
        h.nnz[i] = nnz[i];
        h.narrow[i] = narrow[i];
        h.off_at[i] = at;
        at += up((rows + 1) * (narrow[i] ? 4 : 8));
        h.col_at[i] = at;
        at += up(nnz[i] * sizeof(uint32_t));
        h.code_at[i] = at;
        at += up(nnz[i] * sizeof(uint32_t));
    }
    h.order_at = at;
    h.bytes = at + (ordered ? rows * sizeof(uint32_t) : 0);
    return h;
}

std::vector<pce_copy> pce_tile_copies(const pce_host_layout& h, const pce_tile& t, unsigned mats)
{
    std::vector<pce_copy> out;
    for (int i = 0; i < 3; ++i) {
        if (!(mats >> i & 1u)) continue;
        const uint64_t width = h.narrow[i] ? 4 : 8, entries = (t.e1[i] - t.e0[i]) * sizeof(uint32_t);
        out.push_back({t.at.off_at[i], h.off_at[i] + t.t0 * width, (t.t1 - t.t0 + 1) * width});
        out.push_back({t.at.col_at[i], h.col_at[i] + t.e0[i] * sizeof(uint32_t), entries});
        out.push_back({t.at.code_at[i], h.code_at[i] + t.e0[i] * sizeof(uint32_t), entries});
    }
    if (h.ordered)
        out.push_back({t.at.order_at, h.order_at + t.t0 * sizeof(uint32_t), (t.t1 - t.t0) * sizeof(uint32_t)});
    return out;
}

uint64_t pce_tile_buffer_bytes(uint64_t pce_bytes, uint64_t max_bytes)
{
    // A whole PCE in one tile takes its arrays plus the alignment of each (10 arrays).
    return std::min(max_bytes, pce_bytes + 10 * align);
}

} // namespace cuzk::gpu_detail
