// The PoRep circuit's PCE recorded in parallel (record_porep_pce: the
// segments of every challenge concurrently, each on a slice_recording_cs)
// against r1cs::record of the same blank circuit on one thread: equal array
// for array, at every thread count; and slice_recording_cs refusing a part
// that leaves its slice or a coefficient its table lacks.
#include <catch2/catch.hpp>

#include <algorithm>

#include "cuzk/filecoin/porep/circuit.hpp"
#include "cuzk/filecoin/porep/prove.hpp"
#include "cuzk/r1cs/constraint_system.hpp"
#include "cuzk/r1cs/slice_recording_cs.hpp"
#include "expect_error.hpp"
#include "pce_compare.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;
using cuzk::test::expect_error;
using cuzk::test::first_difference;

namespace {

r1cs::pce sequential(const seal_config& c) { return r1cs::record(porep_circuit(c)); }

} // namespace

TEST_CASE("record_porep_pce equals the sequential recording, array for array", "[filecoin][pce]")
{
    // A custom shape with two challenges, 2 KiB (V1_1) and 8 MiB (V1_1).
    const seal_config shapes[] = {seal_config::custom(8, 2, 2, {8, 0, 0}, porep_id_of(5)),
                                  registered_seal_proof(5), registered_seal_proof(6)};
    for (const seal_config& c : shapes) {
        INFO(c.name << ": " << c.nodes << " nodes, " << c.layers << " layers, " << c.challenges_per_partition
                    << " challenges");
        const r1cs::pce seq = sequential(c);
        for (unsigned threads : {1u, 2u, 3u}) {
            INFO("threads " << threads);
            const auto par = record_porep_pce(c, threads);
            CHECK(first_difference(seq, *par) == "");
        }
    }
}

TEST_CASE("record_porep_pce: the comparison tells different circuits apart", "[filecoin][pce]")
{
    // Eight times the nodes (one tree level more): the counts differ.
    const auto a = record_porep_pce(seal_config::custom(8, 2, 2, {8, 0, 0}, porep_id_of(5)), 2);
    const auto b = record_porep_pce(seal_config::custom(64, 2, 2, {8, 0, 0}, porep_id_of(5)), 2);
    CHECK(first_difference(*a, *b) == "counts");
    // Two challenges against three: the first challenges' rows agree, the counts do not.
    const auto c = record_porep_pce(seal_config::custom(8, 2, 3, {8, 0, 0}, porep_id_of(5)), 2);
    CHECK(first_difference(*a, *c) == "counts");
}

namespace {

// The counts and a 64-bit hash of every array of a PCE, in first_difference's order.
std::vector<uint64_t> digests(const r1cs::pce& p)
{
    auto h = [](auto span) { return r1cs::pce_hash64(span.data(), span.size_bytes()); };
    std::vector<uint64_t> d{p.num_inputs, p.num_aux, p.num_constraints};
    for (const r1cs::csr_matrix* m : {&p.a, &p.b, &p.c}) {
        d.push_back(h(m->row_ptr));
        d.push_back(h(m->col));
        d.push_back(h(m->coef));
    }
    d.push_back(h(p.coeffs));
    for (const r1cs::density_bitmap* b : {&p.a_aux_density, &p.b_input_density, &p.b_aux_density}) {
        d.push_back(b->popcount);
        d.push_back(h(b->words));
    }
    return d;
}

} // namespace

TEST_CASE("record_porep_pce at 32 GiB equals the sequential recording", "[slow][filecoin][pce]")
{
    // About a minute and a half on two cores; one 9 GB PCE held at a time,
    // its arrays compared by their hashes.
    const seal_config c = registered_seal_proof(8);
    std::vector<uint64_t> seq;
    {
        const r1cs::pce p = sequential(c);
        CHECK(p.num_constraints == 130'278'541);
        seq = digests(p);
    }
    CHECK(digests(*record_porep_pce(c, 0)) == seq);
}

namespace {

// x·y = k·x (or k·y): one row of one entry per matrix, one coefficient (k)
// from the table.
void toy(r1cs::constraint_system& cs, uint64_t k = 2, bool c_on_y = false)
{
    const r1cs::variable x = cs.alloc(fr::zero()), y = cs.alloc(fr::zero());
    (void)cs.alloc_input(fr::zero());
    r1cs::linear_combination a, b, c;
    a.add(x, fr::one());
    b.add(y, fr::one());
    c.add(c_on_y ? y : x, fr::from_u64(k));
    cs.enforce(a, b, c);
}

r1cs::pce recorded_toy(uint64_t k, bool c_on_y)
{
    r1cs::recording_cs rec;
    toy(rec, k, c_on_y);
    return rec.finish();
}

r1cs::pce_slice toy_slice()
{
    r1cs::pce_slice at;
    at.aux_count = 2;
    at.input_begin = 1;
    at.input_count = 1;
    at.row_count = 1;
    at.nnz_count = {1, 1, 1};
    return at;
}

} // namespace

TEST_CASE("slice_recording_cs: a part that fits its slice equals recording_cs", "[r1cs][pce]")
{
    const r1cs::pce want = recorded_toy(2, false);
    r1cs::pce_parts parts(2, 2, 1, {1, 1, 1}, {want.coeffs.begin(), want.coeffs.end()});
    {
        r1cs::slice_recording_cs cs(parts, toy_slice());
        toy(cs);
        CHECK(cs.full());
    }
    CHECK(first_difference(want, parts.finish(1)) == "");
    // The comparison sees a changed column and a changed coefficient.
    CHECK(first_difference(want, recorded_toy(2, true)) == "C col");
    CHECK(first_difference(want, recorded_toy(3, false)) == "coefficient table");
}

TEST_CASE("pce_parts::place: a part recorded once, placed at two slices, equals recording both", "[r1cs][pce]")
{
    // Two toys one after the other: aux 0, 1 | 2, 3; inputs 1 | 2.
    r1cs::recording_cs rec;
    toy(rec);
    toy(rec);
    const r1cs::pce want = rec.finish();
    const r1cs::pce part = recorded_toy(2, false);
    r1cs::pce_parts parts(3, 4, 2, {2, 2, 2}, {part.coeffs.begin(), part.coeffs.end()});
    for (size_t i = 0; i < 2; ++i) {
        r1cs::pce_slice at = toy_slice();
        at.aux_begin = 2 * i;
        at.input_begin = 1 + i;
        at.row_begin = i;
        at.nnz_begin = {i, i, i};
        parts.place(part, at);
    }
    CHECK(first_difference(want, parts.finish(1)) == "");
    // A slice of other counts, or a table without the part's coefficient.
    r1cs::pce_parts other(3, 4, 2, {2, 2, 2}, {part.coeffs.begin(), part.coeffs.end()});
    r1cs::pce_slice wrong = toy_slice();
    wrong.aux_count = 3;
    expect_error([&] { other.place(part, wrong); }, errc::internal, {"does not fit"});
    r1cs::pce_parts no_table(3, 4, 2, {2, 2, 2}, {});
    expect_error([&] { no_table.place(part, toy_slice()); }, errc::internal, {"missing from the table"});
}

TEST_CASE("slice_recording_cs: leaving the slice, a missing coefficient, unwritten rows", "[r1cs][pce]")
{
    const std::vector<fr> table{fr::from_u64(2)};
    SECTION("too few variables")
    {
        r1cs::pce_parts parts(2, 2, 1, {1, 1, 1}, table);
        r1cs::pce_slice at = toy_slice();
        at.aux_count = 1;
        r1cs::slice_recording_cs cs(parts, at);
        expect_error([&] { toy(cs); }, errc::internal, {"slice", "aux"});
    }
    SECTION("too few entries in C")
    {
        r1cs::pce_parts parts(2, 2, 1, {1, 1, 1}, table);
        r1cs::pce_slice at = toy_slice();
        at.nnz_count = {1, 1, 0};
        r1cs::slice_recording_cs cs(parts, at);
        expect_error([&] { toy(cs); }, errc::internal, {"slice", "C"});
    }
    SECTION("a coefficient the table lacks")
    {
        r1cs::pce_parts parts(2, 2, 1, {1, 1, 1}, {fr::from_u64(3)});
        r1cs::slice_recording_cs cs(parts, toy_slice());
        expect_error([&] { toy(cs); }, errc::internal, {"coefficient"});
    }
    SECTION("a slice that records less, and rows never written")
    {
        r1cs::pce_parts parts(2, 2, 1, {1, 1, 1}, table);
        {
            r1cs::slice_recording_cs cs(parts, toy_slice());
            (void)cs.alloc(fr::zero());
            CHECK_FALSE(cs.full());
        }
        expect_error([&] { (void)parts.finish(1); }, errc::internal, {"0 of 1 rows"});
    }
    SECTION("every row, but an entry short")
    {
        r1cs::pce_parts parts(2, 2, 1, {1, 1, 2}, table);
        r1cs::pce_slice at = toy_slice();
        at.nnz_count = {1, 1, 2};
        {
            r1cs::slice_recording_cs cs(parts, at);
            toy(cs);
            CHECK_FALSE(cs.full());
        }
        expect_error([&] { (void)parts.finish(1); }, errc::internal, {"1 of 2 entries of C"});
    }
}

TEST_CASE("recording_cs of a part: variables from the given counts, earlier ones usable", "[r1cs][pce]")
{
    r1cs::recording_cs part(5, 7);
    const r1cs::variable x = part.alloc(fr::zero());
    const r1cs::variable in = part.alloc_input(fr::zero());
    CHECK((!x.is_input && x.index == 7));
    CHECK((in.is_input && in.index == 5));
    r1cs::linear_combination a, b, c;
    a.add(r1cs::variable::aux(3), fr::one());   // a variable of an earlier part
    b.add(x, fr::one());
    c.add(in, fr::one());
    part.enforce(a, b, c);
    const r1cs::pce p = part.finish();
    CHECK(p.num_inputs == 6);
    CHECK(p.num_aux == 8);
    CHECK(p.a.col[0] == 6 + 3);
    expect_error([] { r1cs::recording_cs bad(0, 0); }, errc::invalid_argument, {"input 0 is ONE"});
}
