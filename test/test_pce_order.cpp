// The rows of a PCE grouped by shape (r1cs/pce_order.hpp): the order is a
// stable permutation sorted by capped shape, in one tile or within tiles
// whose rows stay in them, and independent of the thread count; the reordered matrices hold each row's entries unchanged, in one
// piece or in several; a PCE rebuilt from them evaluates, row for row, to the
// original's values; inconsistent arguments are refused by name.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "cuzk/error.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "cuzk/r1cs/pce_order.hpp"
#include "gmp_util.hpp"

using namespace cuzk;
using namespace cuzk::r1cs;

namespace {

// Row lengths 0 … 19 (some above shape_cap), mostly short, columns distinct
// within a row; coefficients ±1, small and random.
pce random_pce(size_t rows, uint32_t ni, uint32_t na, std::mt19937_64& rng)
{
    std::vector<std::array<pce_row, 3>> cons(rows);
    const uint32_t nv = ni + na;
    for (auto& con : cons)
        for (auto& row : con) {
            const unsigned len = rng() % 16 == 0 ? unsigned(rng() % 20) : unsigned(rng() % 4);
            for (unsigned k = 0; k < len; ++k) {
                const uint64_t z = rng() % 4;
                const fr v = z == 0 ? fr::one() : z == 1 ? -fr::one() : z == 2 ? fr::from_u64(rng() % 7 + 2)
                                                                                 : fr::random(rng);
                row.push_back({uint32_t(rng() % nv), v});
            }
        }
    return pce_from_constraints(ni, na, cons);
}

uint32_t capped_shape(const pce& p, size_t r)
{
    const auto len = [&](const csr_matrix& m) {
        return uint32_t(std::min<uint64_t>(m.row_ptr[r + 1] - m.row_ptr[r], shape_cap));
    };
    return (len(p.a) * (shape_cap + 1) + len(p.b)) * (shape_cap + 1) + len(p.c);
}

struct reordered_matrix {
    std::vector<uint64_t> off;
    std::vector<uint32_t> col, code;
    csr_matrix view() const { return {off, col, code}; }
};

// The matrix in `order`, its entries written in pieces of `piece` positions.
reordered_matrix reorder(const csr_matrix& m, const std::vector<uint32_t>& order, size_t piece)
{
    reordered_matrix x;
    x.off = reordered_offsets(m, order);
    x.col.resize(m.nnz());
    x.code.resize(m.nnz());
    for (size_t t0 = 0; t0 < order.size(); t0 += piece) {
        const size_t t1 = std::min(order.size(), t0 + piece);
        const size_t b = x.off[t0], n = x.off[t1] - b;
        reordered_entries(m, order, x.off, t0, t1, std::span(x.col).subspan(b, n), std::span(x.code).subspan(b, n));
    }
    return x;
}

} // namespace

TEST_CASE("PCE rows grouped by shape: a stable sorted permutation, the same at any thread count", "[r1cs]")
{
    std::mt19937_64 rng(test::test_seed());
    for (size_t rows : {size_t(0), size_t(1), size_t(1000), size_t(200000)}) {
        INFO(rows << " rows");
        const pce p = random_pce(rows, 3, 500, rng);
        const std::vector<uint32_t> order = pce_shape_order(p);
        REQUIRE(order.size() == rows);
        std::vector<char> seen(rows, 0);
        for (uint32_t r : order) {
            REQUIRE(r < rows);
            REQUIRE(!seen[r]);
            seen[r] = 1;
        }
        for (size_t t = 1; t < rows; ++t) {
            const uint32_t s0 = capped_shape(p, order[t - 1]), s1 = capped_shape(p, order[t]);
            REQUIRE(s0 <= s1);
            if (s0 == s1) REQUIRE(order[t - 1] < order[t]);
        }
        CHECK(pce_shape_order(p, 32, 1) == order);
        CHECK(pce_shape_order(p, 32, 3) == order);
        CHECK(pce_shape_order(p, 31) == order);   // one tile larger than the PCE
    }
}

TEST_CASE("PCE rows grouped by shape in tiles: rows stay in their tile, sorted there", "[r1cs]")
{
    std::mt19937_64 rng(test::test_seed());
    const size_t rows = 70000;   // the last tile of 2^10 or 2^12 is partial
    const pce p = random_pce(rows, 3, 900, rng);
    for (unsigned tile_log : {0u, 1u, 5u, 10u, 12u}) {
        INFO("tiles of 2^" << tile_log);
        const size_t tile = size_t{1} << tile_log;
        const std::vector<uint32_t> order = pce_shape_order(p, tile_log);
        REQUIRE(order.size() == rows);
        std::vector<char> seen(rows, 0);
        for (size_t t = 0; t < rows; ++t) {
            REQUIRE(order[t] / tile == t / tile);
            REQUIRE(!seen[order[t]]);
            seen[order[t]] = 1;
            if (t % tile == 0) continue;
            const uint32_t s0 = capped_shape(p, order[t - 1]), s1 = capped_shape(p, order[t]);
            REQUIRE(s0 <= s1);
            if (s0 == s1) REQUIRE(order[t - 1] < order[t]);
        }
        CHECK(pce_shape_order(p, tile_log, 1) == order);
    }
}

TEST_CASE("PCE rows grouped by shape: reordered matrices evaluate to the same values", "[r1cs]")
{
    std::mt19937_64 rng(test::test_seed());
    const size_t rows = 150000;
    const pce p = random_pce(rows, 4, 3000, rng);
    const std::vector<uint32_t> order = pce_shape_order(p, GENERATE(32u, 9u));
    const size_t pieces[3] = {rows, 4097, 1};
    const reordered_matrix ma = reorder(p.a, order, pieces[0]), mb = reorder(p.b, order, pieces[1]),
                           mc = reorder(p.c, order, pieces[2]);
    for (size_t t = 0; t < rows; t += 37) {
        const uint32_t r = order[t];
        const uint64_t s = p.b.row_ptr[r], n = p.b.row_ptr[r + 1] - s;
        REQUIRE(mb.off[t + 1] - mb.off[t] == n);
        REQUIRE(std::equal(p.b.col.begin() + s, p.b.col.begin() + s + n, mb.col.begin() + mb.off[t]));
        REQUIRE(std::equal(p.b.coef.begin() + s, p.b.coef.begin() + s + n, mb.code.begin() + mb.off[t]));
    }
    pce q = p;
    q.a = ma.view();
    q.b = mb.view();
    q.c = mc.view();
    std::vector<fr> in(p.num_inputs), aux(p.num_aux);
    for (auto& x : in) x = fr::random(rng);
    for (auto& x : aux) x = rng() % 2 ? fr::from_u64(rng() % 2) : fr::random(rng);
    std::vector<fr> a(rows), b(rows), c(rows), qa(rows), qb(rows), qc(rows);
    evaluate(p, in, aux, a, b, c);
    evaluate(q, in, aux, qa, qb, qc);
    size_t bad = 0;
    for (size_t t = 0; t < rows; ++t) {
        const uint32_t r = order[t];
        bad += qa[t] != a[r] || qb[t] != b[r] || qc[t] != c[r];
    }
    CHECK(bad == 0);
}

TEST_CASE("PCE rows grouped by shape: inconsistent arguments are refused", "[r1cs]")
{
    std::mt19937_64 rng(test::test_seed());
    const pce p = random_pce(100, 2, 50, rng);
    std::vector<uint32_t> order = pce_shape_order(p);
    const std::vector<uint64_t> off = reordered_offsets(p.a, order);
    std::vector<uint32_t> col(off.back()), code(off.back());
    const auto message = [](auto&& f) {
        try {
            f();
        } catch (const error& e) {
            return e.code() == errc::invalid_argument ? std::string(e.what()) : std::string("wrong code");
        }
        return std::string("no error");
    };
    CHECK(message([&] { reordered_entries(p.a, order, off, 0, 100, std::span(col).first(col.size() - 1), code); })
              .find("entries") != std::string::npos);
    CHECK(message([&] { reordered_entries(p.a, order, off, 50, 101, col, code); }).find("positions") !=
          std::string::npos);
    CHECK(message([&] { (void)reordered_offsets(p.a, std::span(order).first(99)); }).find("order has 99") !=
          std::string::npos);
    // offsets of another matrix do not fit this one's rows
    const std::vector<uint64_t> off_b = reordered_offsets(p.b, order);
    std::vector<uint32_t> col_b(off_b.back()), code_b(off_b.back());
    REQUIRE(off_b != off);
    CHECK(message([&] { reordered_entries(p.a, order, off_b, 0, 100, col_b, code_b); })
                  .find("does not match") != std::string::npos);
    order[7] = 100;
    CHECK(message([&] { (void)reordered_offsets(p.a, order); }).find("names row 100") != std::string::npos);
}
