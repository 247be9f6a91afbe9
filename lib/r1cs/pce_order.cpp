// cuzk — the rows of a PCE grouped by their shape (include/cuzk/r1cs/pce_order.hpp).
//
// The whole PCE as one tile: a stable counting sort over the 16^3 capped
// shapes. The rows are cut into fixed chunks, each chunk counts its shapes,
// an exclusive scan over (shape, chunk) gives every chunk its first position
// per shape, and each chunk then places its rows in their original order.
// Smaller tiles: each tile sorted on its own, by (shape, row). Neither way
// depends on the number of threads.
#include "cuzk/r1cs/pce_order.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "cuzk/error.hpp"
#include "cuzk/util/parallel.hpp"

namespace cuzk::r1cs {

namespace {

constexpr uint32_t shape_levels = shape_cap + 1;
constexpr size_t num_shapes = size_t(shape_levels) * shape_levels * shape_levels;

uint64_t row_len(const csr_matrix& m, size_t r) { return m.row_ptr[r + 1] - m.row_ptr[r]; }

uint32_t shape_of(const pce& p, size_t r)
{
    const auto capped = [&](const csr_matrix& m) { return uint32_t(std::min<uint64_t>(row_len(m, r), shape_cap)); };
    return (capped(p.a) * shape_levels + capped(p.b)) * shape_levels + capped(p.c);
}

void check_rows(const pce& p)
{
    const csr_matrix* mats[3] = {&p.a, &p.b, &p.c};
    for (const csr_matrix* m : mats)
        if (m->rows() != p.num_constraints)
            throw error(errc::invalid_argument, fmt::format("pce_shape_order: a matrix has {} rows, the PCE {}",
                                                            m->rows(), p.num_constraints));
    if (p.num_constraints > 0xffffffffull)
        throw error(errc::invalid_argument,
                    fmt::format("pce_shape_order: {} constraints do not fit 32-bit row numbers", p.num_constraints));
}

// Each tile of 2^tile_log rows sorted by (shape, row).
std::vector<uint32_t> tiled_order(const pce& p, unsigned tile_log, unsigned threads)
{
    const size_t rows = size_t(p.num_constraints), tile = size_t{1} << tile_log;
    std::vector<uint32_t> order(rows);
    parallel_tasks(threads, (rows + tile - 1) / tile, [&](size_t k, unsigned) {
        const size_t r0 = k * tile, r1 = std::min(rows, r0 + tile);
        std::vector<uint64_t> keys(r1 - r0);
        for (size_t r = r0; r < r1; ++r) keys[r - r0] = uint64_t(shape_of(p, r)) << 32 | r;
        std::sort(keys.begin(), keys.end());
        for (size_t r = r0; r < r1; ++r) order[r] = uint32_t(keys[r - r0]);
    });
    return order;
}

// The whole PCE as one tile: the stable counting sort.
std::vector<uint32_t> whole_order(const pce& p, unsigned threads)
{
    const size_t rows = size_t(p.num_constraints);
    const size_t chunks = std::clamp<size_t>(rows >> 16, 1, 64);
    const auto chunk_begin = [&](size_t k) { return rows * k / chunks; };
    std::vector<uint64_t> count(chunks * num_shapes, 0);   // count[k * num_shapes + s]
    parallel_tasks(threads, chunks, [&](size_t k, unsigned) {
        uint64_t* c = count.data() + k * num_shapes;
        for (size_t r = chunk_begin(k); r < chunk_begin(k + 1); ++r) ++c[shape_of(p, r)];
    });
    uint64_t pos = 0;   // exclusive scan, shape-major, chunk-minor: stable
    for (size_t s = 0; s < num_shapes; ++s)
        for (size_t k = 0; k < chunks; ++k) {
            const uint64_t n = count[k * num_shapes + s];
            count[k * num_shapes + s] = pos;
            pos += n;
        }
    std::vector<uint32_t> order(rows);
    parallel_tasks(threads, chunks, [&](size_t k, unsigned) {
        uint64_t* next = count.data() + k * num_shapes;
        for (size_t r = chunk_begin(k); r < chunk_begin(k + 1); ++r) order[next[shape_of(p, r)]++] = uint32_t(r);
    });
    return order;
}

} // namespace

std::vector<uint32_t> pce_shape_order(const pce& p, unsigned tile_log, unsigned threads)
{
    check_rows(p);
    if (tile_log < 32 && (uint64_t{1} << tile_log) < p.num_constraints) return tiled_order(p, tile_log, threads);
    return whole_order(p, threads);
}

std::vector<uint64_t> reordered_offsets(const csr_matrix& m, std::span<const uint32_t> order, unsigned threads)
{
    if (order.size() != m.rows())
        throw error(errc::invalid_argument,
                    fmt::format("reordered_offsets: the order has {} rows, the matrix {}", order.size(), m.rows()));
    std::vector<uint64_t> off(order.size() + 1, 0);
    parallel_for(threads, order.size(), [&](size_t b, size_t e, unsigned) {
        for (size_t t = b; t < e; ++t) {
            if (order[t] >= order.size())
                throw error(errc::invalid_argument,
                            fmt::format("reordered_offsets: position {} names row {} of {}", t, order[t], order.size()));
            off[t + 1] = row_len(m, order[t]);
        }
    });
    for (size_t t = 0; t < order.size(); ++t) off[t + 1] += off[t];
    return off;
}

void reordered_entries(const csr_matrix& m, std::span<const uint32_t> order, std::span<const uint64_t> offsets,
                       size_t t0, size_t t1, std::span<uint32_t> col, std::span<uint32_t> code, unsigned threads)
{
    if (t0 > t1 || t1 > order.size() || offsets.size() != order.size() + 1)
        throw error(errc::invalid_argument,
                    fmt::format("reordered_entries: positions {} … {} of {} ({} offsets)", t0, t1, order.size(),
                                offsets.size()));
    const uint64_t base = offsets[t0], n = offsets[t1] - base;
    if (col.size() != n || code.size() != n)
        throw error(errc::invalid_argument,
                    fmt::format("reordered_entries: {} entries, {} columns and {} codes given", n, col.size(),
                                code.size()));
    parallel_for(threads, t1 - t0, [&](size_t b, size_t e, unsigned) {
        for (size_t t = t0 + b; t < t0 + e; ++t) {
            const uint32_t r = order[t];
            const uint64_t len = offsets[t + 1] - offsets[t];
            if (r >= m.rows() || row_len(m, r) != len)
                throw error(errc::invalid_argument,
                            fmt::format("reordered_entries: position {} names row {}, which does not match its offsets",
                                        t, r));
            const uint64_t s = m.row_ptr[r];
            std::copy_n(m.col.begin() + s, len, col.begin() + (offsets[t] - base));
            std::copy_n(m.coef.begin() + s, len, code.begin() + (offsets[t] - base));
        }
    });
}

} // namespace cuzk::r1cs
