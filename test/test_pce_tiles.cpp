// A streamed PCE's tiles (lib/backend/pce_tiles.hpp) without a device: the
// tiles cover every position once and fit their bound, and a PCE copied
// tile by tile as the streamed evaluation copies it (pce_tile_copies), then
// evaluated as the kernel reads a tile (offsets less e0, outputs at the
// order's row, or at t0 + j without one), equals r1cs::evaluate bit for bit.
#include <catch2/catch.hpp>

#include <cstring>
#include <random>
#include <vector>

#include "backend/pce_tiles.hpp"
#include "cuzk/error.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "cuzk/r1cs/pce_order.hpp"

using namespace cuzk;
using namespace cuzk::gpu_detail;

namespace {

// Rows of 0 to 6 entries (a few of 40) over 3 inputs and 60 aux values,
// coefficients ±1 or random.
r1cs::pce random_pce(std::mt19937_64& rng, size_t rows)
{
    std::vector<std::array<r1cs::pce_row, 3>> cons(rows);
    for (auto& c : cons)
        for (auto& row : c) {
            const size_t len = rng() % 16 == 0 ? 40 : rng() % 7;
            for (size_t k = 0; k < len; ++k) {
                const uint64_t pick = rng() % 3;
                const fr coef = pick == 0 ? fr::one() : pick == 1 ? -fr::one() : fr::from_u64(rng() % 1000 + 2);
                row.emplace_back(uint32_t(rng() % 63), coef);
            }
        }
    return r1cs::pce_from_constraints(3, 60, cons);
}

struct host_block {
    pce_host_layout layout;
    std::vector<char> bytes;
    pce_offsets off[3];
};

// The streamed form's host block as gpu_pce builds it (lib/backend/cuda_witness.cpp).
host_block build_block(const r1cs::pce& m, std::span<const uint32_t> order, bool narrow)
{
    host_block h;
    const r1cs::csr_matrix* mats[3] = {&m.a, &m.b, &m.c};
    const uint64_t nnz[3] = {m.a.nnz(), m.b.nnz(), m.c.nnz()};
    const bool nar[3] = {narrow, narrow, narrow};
    h.layout = pce_host_layout_of(m.num_constraints, nnz, nar, !order.empty());
    h.bytes.assign(h.layout.bytes, 0);
    for (int i = 0; i < 3; ++i) {
        const std::vector<uint64_t> off = order.empty() ? std::vector<uint64_t>(mats[i]->row_ptr.begin(),
                                                                                 mats[i]->row_ptr.end())
                                                        : r1cs::reordered_offsets(*mats[i], order);
        char* o = h.bytes.data() + h.layout.off_at[i];
        for (size_t k = 0; k < off.size(); ++k) {
            if (narrow) reinterpret_cast<uint32_t*>(o)[k] = uint32_t(off[k]);
            else reinterpret_cast<uint64_t*>(o)[k] = off[k];
        }
        std::span<uint32_t> col(reinterpret_cast<uint32_t*>(h.bytes.data() + h.layout.col_at[i]), nnz[i]);
        std::span<uint32_t> code(reinterpret_cast<uint32_t*>(h.bytes.data() + h.layout.code_at[i]), nnz[i]);
        if (order.empty()) {
            std::copy(mats[i]->col.begin(), mats[i]->col.end(), col.begin());
            std::copy(mats[i]->coef.begin(), mats[i]->coef.end(), code.begin());
        } else {
            r1cs::reordered_entries(*mats[i], order, off, 0, order.size(), col, code);
        }
        h.off[i] = {o, narrow};
    }
    if (!order.empty()) std::memcpy(h.bytes.data() + h.layout.order_at, order.data(), order.size_bytes());
    return h;
}

// One tile as the kernel reads it: its buffer filled by the copies.
void eval_tile(const r1cs::pce& m, const host_block& h, const pce_tile& t, std::span<const fr> w,
               std::vector<fr> out[3])
{
    std::vector<char> buf(t.at.bytes);
    for (const pce_copy& c : pce_tile_copies(h.layout, t)) {
        REQUIRE(c.dst + c.bytes <= buf.size());
        std::memcpy(buf.data() + c.dst, h.bytes.data() + c.src, c.bytes);
    }
    for (uint64_t j = 0; j < t.t1 - t.t0; ++j) {
        const uint64_t r = h.layout.ordered ? reinterpret_cast<const uint32_t*>(buf.data() + t.at.order_at)[j] : t.t0 + j;
        for (int i = 0; i < 3; ++i) {
            const pce_offsets o{buf.data() + t.at.off_at[i], h.layout.narrow[i]};
            const auto* col = reinterpret_cast<const uint32_t*>(buf.data() + t.at.col_at[i]);
            const auto* code = reinterpret_cast<const uint32_t*>(buf.data() + t.at.code_at[i]);
            fr acc = fr::zero();
            for (uint64_t k = o[j] - t.e0[i]; k < o[j + 1] - t.e0[i]; ++k) acc += m.coefficient(code[k]) * w[col[k]];
            out[i][r] = acc;
        }
    }
}

} // namespace

TEST_CASE("pce tiles: a PCE copied and evaluated tile by tile equals the whole evaluation")
{
    std::mt19937_64 rng(7);
    const r1cs::pce m = random_pce(rng, 700);
    std::vector<fr> inputs{fr::one(), fr::from_u64(5), fr::from_u64(9)}, aux(60);
    for (auto& v : aux) v = rng() % 3 == 0 ? fr::zero() : fr::from_u64(rng());
    std::vector<fr> want[3] = {std::vector<fr>(700), std::vector<fr>(700), std::vector<fr>(700)};
    r1cs::evaluate(m, inputs, aux, want[0], want[1], want[2]);
    std::vector<fr> w(inputs);
    w.insert(w.end(), aux.begin(), aux.end());

    for (bool ordered : {false, true})
        for (bool narrow : {true, false})
            for (uint64_t max_bytes : {uint64_t{3000}, uint64_t{20000}, uint64_t{1} << 30}) {
                INFO("ordered " << ordered << ", narrow " << narrow << ", tiles of " << max_bytes);
                const std::vector<uint32_t> order = ordered ? r1cs::pce_shape_order(m, 32) : std::vector<uint32_t>();
                const host_block h = build_block(m, order, narrow);
                const std::vector<pce_tile> tiles = split_pce_tiles(h.off, 700, ordered, max_bytes);
                REQUIRE_FALSE(tiles.empty());
                CHECK(tiles.front().t0 == 0);
                CHECK(tiles.back().t1 == 700);
                for (size_t j = 0; j < tiles.size(); ++j) {
                    CHECK(tiles[j].at.bytes <= max_bytes);
                    CHECK(tiles[j].t0 < tiles[j].t1);
                    if (j) CHECK(tiles[j].t0 == tiles[j - 1].t1);
                    // Greedy: one more position would not have fitted.
                    if (tiles[j].t1 < 700)
                        CHECK(pce_tile_layout(h.off, ordered, tiles[j].t0, tiles[j].t1 + 1).at.bytes > max_bytes);
                }
                if (max_bytes == 3000) CHECK(tiles.size() > 10);
                if (max_bytes == (uint64_t{1} << 30)) CHECK(tiles.size() == 1);
                std::vector<fr> got[3] = {std::vector<fr>(700), std::vector<fr>(700), std::vector<fr>(700)};
                for (const pce_tile& t : tiles) eval_tile(m, h, t, w, got);
                for (int i = 0; i < 3; ++i) CHECK(got[i] == want[i]);
            }
}

TEST_CASE("pce tiles: a position larger than a tile is refused, naming it")
{
    std::mt19937_64 rng(11);
    const r1cs::pce m = random_pce(rng, 50);
    const host_block h = build_block(m, {}, true);
    CHECK_THROWS_WITH(split_pce_tiles(h.off, 50, false, 600), Catch::Contains("position 0 of the PCE"));
    CHECK(split_pce_tiles(h.off, 0, false, 600).empty());
    CHECK(pce_tile_buffer_bytes(100, uint64_t{256} << 20) == 100 + 10 * 256);
    CHECK(pce_tile_buffer_bytes(uint64_t{7650000000}, uint64_t{256} << 20) == uint64_t{256} << 20);
}
