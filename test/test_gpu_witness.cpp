// The CUDA backend's PCE evaluation and witness MSM against the CPU paths
// (include/cuzk/backend/cuda.hpp, sections "sparse constraint evaluation" and
// "witness MSM"): a = A·w, b = B·w, c = C·w bit for bit with
// r1cs::evaluate on random PCEs (1 row … 2^18 rows, empty rows, ±1-only rows,
// table coefficients, 32- and 64-bit row offsets); the first unsatisfied
// constraint (none, first, last, several); the witness MSM on G1 and G2 equal
// to groth16::msm_witness for sizes 1 … 2^16 + 3 with all-zero, all-one,
// 90 % 0/1, random and edge (r − 1, 2) scalars, identity, repeated and
// opposite points among the ones, and its stats.
//
// Every case is tagged [gpu] and starts with GPU_OR_SKIP: without a usable
// device (or in a build without CUDA) it prints "SKIPPED: <reason>" and
// returns. The random seed is printed by main and in each case's INFO.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "cuzk/backend/cuda.hpp"
#include "cuzk/error.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "gmp_util.hpp"
#include "test_support.hpp"

using namespace cuzk;
using cuzk::test::jac_of;
using cuzk::test::random_points;

namespace {

std::string hex(const fr& x)
{
    const fr::repr k = x.to_repr();
    char buf[80];
    std::snprintf(buf, sizeof buf, "%016llx%016llx%016llx%016llx", (unsigned long long)k.l[3],
                  (unsigned long long)k.l[2], (unsigned long long)k.l[1], (unsigned long long)k.l[0]);
    return buf;
}

// ---- PCE helpers -------------------------------------------------------------------------------
enum class coef_mix { pm_one, table, mixed };

// A random PCE through pce_from_constraints (the real builder: sorted columns,
// merged repeats, codes). Rows: lengths 0 … max_len (a fraction empty), columns
// over all variables; coefficients ±1 (pm_one), from a small table plus
// random values (table), or 80 % ±1 (mixed).
r1cs::pce random_pce(size_t rows, uint32_t ni, uint32_t na, coef_mix mix, std::mt19937_64& rng,
                     unsigned max_len = 6, double empty_frac = 0.1)
{
    const uint32_t nv = ni + na;
    const std::vector<fr> small_table = {fr::from_u64(2), fr::from_u64(3), -fr::from_u64(2),
                                         fr::from_u64(1ull << 40)};
    std::uniform_real_distribution<double> u01(0, 1);
    auto coef = [&]() -> fr {
        const bool pm = mix == coef_mix::pm_one || (mix == coef_mix::mixed && u01(rng) < 0.8);
        if (pm) return (rng() & 1) ? fr::one() : -fr::one();
        if (rng() % 3 == 0) return fr::random(rng);
        return small_table[rng() % small_table.size()];
    };
    std::vector<std::array<r1cs::pce_row, 3>> cons(rows);
    for (auto& k : cons)
        for (auto& row : k) {
            if (u01(rng) < empty_frac) continue;
            const unsigned len = 1 + unsigned(rng() % max_len);
            for (unsigned j = 0; j < len; ++j) row.push_back({uint32_t(rng() % nv), coef()});
        }
    return r1cs::pce_from_constraints(ni, na, cons);
}

// The arrays of a PCE built directly (large PoRep-shaped cases).
struct pce_arrays {
    std::vector<uint64_t> row_ptr[3];
    std::vector<uint32_t> col[3], code[3];
    std::vector<fr> table;
    std::vector<uint64_t> dens[3];
};

// PoRep shape: about 2.4 / 1.0 / 2.2 entries per row in A / B / C, codes 95 %
// ±1, the rest from a 64-entry table; columns near the row's own index (as a
// circuit's wires are) with some far ones.
r1cs::pce porep_like_pce(size_t rows, uint32_t ni, uint32_t na, std::mt19937_64& rng)
{
    auto h = std::make_shared<pce_arrays>();
    for (int i = 0; i < 64; ++i) h->table.push_back(fr::random(rng));
    const double mean[3] = {2.4, 1.0, 2.2};
    const uint32_t nv = ni + na;
    for (int mi = 0; mi < 3; ++mi) {
        std::poisson_distribution<unsigned> len(mean[mi]);
        auto& rp = h->row_ptr[mi];
        rp.push_back(0);
        std::set<uint32_t> cols;
        for (size_t r = 0; r < rows; ++r) {
            cols.clear();
            const unsigned l = std::min(len(rng), 40u);
            while (cols.size() < std::min<size_t>(l, nv)) {
                uint32_t c = (rng() % 8 == 0) ? uint32_t(rng() % nv) : uint32_t((r + rng() % 64) % nv);
                cols.insert(c);
            }
            for (uint32_t c : cols) {
                h->col[mi].push_back(c);
                const uint64_t z = rng() % 100;
                h->code[mi].push_back(z < 95 ? uint32_t(z & 1) : uint32_t(r1cs::coef_table_base + rng() % 64));
            }
            rp.push_back(h->col[mi].size());
        }
    }
    r1cs::pce p;
    p.num_inputs = ni;
    p.num_aux = na;
    p.num_constraints = rows;
    r1cs::csr_matrix* m[3] = {&p.a, &p.b, &p.c};
    for (int i = 0; i < 3; ++i) *m[i] = {h->row_ptr[i], h->col[i], h->code[i]};
    p.coeffs = h->table;
    h->dens[0].assign((na + 63) / 64, 0);
    h->dens[1].assign((ni + 63) / 64, 0);
    h->dens[2].assign((na + 63) / 64, 0);
    p.a_aux_density = {h->dens[0], na, 0};
    p.b_input_density = {h->dens[1], ni, 0};
    p.b_aux_density = {h->dens[2], na, 0};
    p.storage = h;
    return p;
}

// Witness values: ONE first, then a mix of 0, 1, −1 and random elements.
std::vector<fr> random_values(size_t n, std::mt19937_64& rng)
{
    std::vector<fr> v(n);
    for (auto& x : v) {
        switch (rng() % 5) {
        case 0: x = fr::zero(); break;
        case 1: x = fr::one(); break;
        case 2: x = -fr::one(); break;
        default: x = fr::random(rng);
        }
    }
    return v;
}

void check_eval_device(const r1cs::pce& p, const gpu_pce_options& o, const std::vector<fr>& inputs,
                       const std::vector<fr>& aux, const std::vector<fr>& ea, const std::vector<fr>& eb,
                       const std::vector<fr>& ec)
{
    const size_t m = size_t(p.num_constraints);
    std::vector<fr> ga(m), gb(m), gc(m);
    gpu_pce d(p, o);
    REQUIRE(d.num_inputs() == p.num_inputs);
    REQUIRE(d.num_aux() == p.num_aux);
    REQUIRE(d.num_constraints() == p.num_constraints);
    REQUIRE(d.streamed() == o.streamed);
    REQUIRE((o.streamed ? d.host_bytes() : d.device_bytes()) >= (p.a.nnz() + p.b.nnz() + p.c.nnz()) * 8);
    if (o.streamed) REQUIRE(d.eval_device_bytes() <= 2 * o.stream_tile_bytes);
    // poison the outputs: every value must be written
    std::fill(ga.begin(), ga.end(), fr::from_u64(12345));
    gb = ga;
    gc = ga;
    gpu_pce_eval(d, inputs, aux, ga, gb, gc);
    const std::vector<fr>* want[3] = {&ea, &eb, &ec};
    const std::vector<fr>* got[3] = {&ga, &gb, &gc};
    for (int k = 0; k < 3; ++k) {
        size_t bad = 0, first_bad = m;
        for (size_t r = 0; r < m; ++r)
            if ((*got[k])[r] != (*want[k])[r]) {
                if (first_bad == m) first_bad = r;
                ++bad;
            }
        if (bad) {
            const char* name = k == 0 ? "a" : k == 1 ? "b" : "c";
            FAIL_CHECK(name << ": " << bad << " of " << m << " rows differ; first row " << first_bad << ": gpu "
                            << hex((*got[k])[first_bad]) << ", cpu " << hex((*want[k])[first_bad]));
        }
    }
}

// The device's a, b, c equal r1cs::evaluate's for a random witness, with the
// rows grouped by shape (in tiles of the default size, of 16 rows, of 2^14
// rows) and in the PCE's order.
void check_eval(const r1cs::pce& p, std::mt19937_64& rng, const char* what, bool wide = false)
{
    INFO(what << ": " << p.num_constraints << " rows, " << p.num_inputs << " inputs, " << p.num_aux
              << " aux, nnz " << p.a.nnz() << "/" << p.b.nnz() << "/" << p.c.nnz() << ", table "
              << p.coeffs.size() << (wide ? ", 64-bit offsets" : ""));
    std::vector<fr> inputs = random_values(p.num_inputs, rng), aux = random_values(p.num_aux, rng);
    if (!inputs.empty()) inputs[0] = fr::one();
    const size_t m = size_t(p.num_constraints);
    std::vector<fr> ea(m), eb(m), ec(m);
    r1cs::evaluate(p, inputs, aux, ea, eb, ec);
    for (unsigned tile_log : {gpu_pce_options{}.group_tile_log, 4u, 14u, 0u}) {
        INFO("rows grouped by shape in tiles of 2^" << tile_log << " (0: not grouped)");
        gpu_pce_options o;
        o.wide_offsets = wide;
        o.group_tile_log = tile_log;
        check_eval_device(p, o, inputs, aux, ea, eb, ec);
        if (tile_log != gpu_pce_options{}.group_tile_log && tile_log != 0) continue;
        // Streamed from host memory: tiles of 64 KiB (many, each copied
        // beside the previous one's kernel), and the default (one here).
        for (uint64_t tile : {uint64_t{64} << 10, gpu_pce_options{}.stream_tile_bytes}) {
            INFO("streamed in tiles of " << tile << " bytes");
            o.streamed = true;
            o.stream_tile_bytes = tile;
            check_eval_device(p, o, inputs, aux, ea, eb, ec);
        }
    }
}

enum class scalar_mix { all_zero, all_one, bits90, random, edge };
const char* mix_name(scalar_mix m)
{
    switch (m) {
    case scalar_mix::all_zero: return "all zero";
    case scalar_mix::all_one: return "all one";
    case scalar_mix::bits90: return "90% 0/1";
    case scalar_mix::random: return "random";
    default: return "edge (0, 1, 2, r-1, random)";
    }
}

std::vector<fr> witness_scalars(size_t n, scalar_mix mix, std::mt19937_64& rng)
{
    std::vector<fr> s(n);
    for (auto& x : s) {
        switch (mix) {
        case scalar_mix::all_zero: x = fr::zero(); break;
        case scalar_mix::all_one: x = fr::one(); break;
        case scalar_mix::bits90: {
            const uint64_t z = rng() % 100;
            x = z < 45 ? fr::zero() : z < 90 ? fr::one() : fr::random(rng);
            break;
        }
        case scalar_mix::random: x = fr::random(rng); break;
        case scalar_mix::edge:
            switch (rng() % 5) {
            case 0: x = fr::zero(); break;
            case 1: x = fr::one(); break;
            case 2: x = fr::from_u64(2); break;
            case 3: x = -fr::one(); break;   // r − 1
            default: x = fr::random(rng);
            }
        }
    }
    return s;
}

// Puts identities, repeated and opposite points among the points (with
// scalar one for some, so the batch addition meets P + P and P + (−P)).
template <class Aff>
void add_special_points(std::vector<Aff>& p, std::vector<fr>& s, scalar_mix mix)
{
    const size_t n = p.size();
    if (n < 8) return;
    p[1] = Aff::identity();
    p[3] = p[2];     // repeated
    p[5] = -p[4];    // opposite
    p[n - 1] = p[0];
    if (mix != scalar_mix::all_zero && mix != scalar_mix::random) {
        s[2] = s[3] = fr::one();
        s[4] = s[5] = fr::one();
        s[1] = fr::one();
    }
}

template <class Aff>
void check_witness_msm(size_t n, scalar_mix mix, std::mt19937_64& rng)
{
    auto p = random_points<Aff>(n, rng);
    auto s = witness_scalars(n, mix, rng);
    add_special_points(p, s, mix);
    size_t zeros = 0, ones = 0;
    for (const fr& x : s) {
        zeros += x.is_zero();
        ones += x == fr::one();
    }
    INFO((sizeof(Aff) > 96 ? "G2" : "G1") << ", n = " << n << ", scalars " << mix_name(mix) << ", seed 0x" << std::hex
                                         << test::test_seed() << std::dec);
    const auto want = groth16::msm_witness(std::span<const Aff>(p), std::span<const fr>(s), 0);
    gpu_msm_witness_stats st;
    st.zeros = 999;   // must be overwritten
    const auto got = gpu_msm_witness(std::span<const Aff>(p), std::span<const fr>(s), &st);
    CHECK(got == want);
    CHECK(got.to_affine() == want.to_affine());
    CHECK(st.zeros == zeros);
    CHECK(st.ones == ones);
    CHECK(st.others == n - zeros - ones);
    CHECK(st.batch_add_ms >= 0);
    CHECK(st.msm_ms >= 0);
    CHECK(st.split_ms >= 0);
    CHECK(st.batch_add_end >= st.batch_add_begin);
    if (ones == 0) CHECK(st.batch_add_ms == 0);
    if (n - zeros - ones == 0) CHECK(st.msm_ms == 0);
}

} // namespace

// ---- PCE evaluation ------------------------------------------------------------------------------
TEST_CASE("gpu: PCE evaluation equals r1cs::evaluate on random PCEs of many sizes", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 101);
    INFO("seed 0x" << std::hex << test::test_seed() << std::dec);
    for (size_t rows : {size_t(1), size_t(2), size_t(3), size_t(17), size_t(255), size_t(256), size_t(257),
                        size_t(1000), size_t(4097), size_t(65537)}) {
        const uint32_t ni = 1 + uint32_t(rng() % 5);
        const uint32_t na = 1 + uint32_t(rng() % (2 * rows + 8));
        check_eval(random_pce(rows, ni, na, coef_mix::pm_one, rng), rng, "±1 only");
        check_eval(random_pce(rows, ni, na, coef_mix::table, rng), rng, "table coefficients");
        check_eval(random_pce(rows, ni, na, coef_mix::mixed, rng), rng, "mixed");
        check_eval(random_pce(rows, ni, na, coef_mix::mixed, rng, 6, 0.6), rng, "mostly empty rows");
    }
}

TEST_CASE("gpu: PCE evaluation with long rows, all-empty rows and 64-bit offsets", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 102);
    INFO("seed 0x" << std::hex << test::test_seed() << std::dec);
    // rows of up to 300 entries (the packing rows of real circuits)
    check_eval(random_pce(500, 3, 2000, coef_mix::mixed, rng, 300, 0.05), rng, "long rows");
    // every row empty: a, b, c all zero
    check_eval(random_pce(1000, 2, 50, coef_mix::mixed, rng, 6, 1.0), rng, "all rows empty");
    // the 64-bit offset kernels
    for (size_t rows : {size_t(1), size_t(333), size_t(10007)}) {
        check_eval(random_pce(rows, 2, uint32_t(rows + 10), coef_mix::mixed, rng), rng, "mixed", true);
        check_eval(random_pce(rows, 2, uint32_t(rows + 10), coef_mix::table, rng, 8, 0.2), rng, "table", true);
    }
}

TEST_CASE("gpu: PCE evaluation on a PoRep-shaped PCE of 2^18 rows", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 103);
    INFO("seed 0x" << std::hex << test::test_seed() << std::dec);
    const size_t rows = size_t{1} << 18;
    const r1cs::pce p = porep_like_pce(rows, 17, uint32_t(rows + 1000), rng);
    check_eval(p, rng, "PoRep-shaped");
    check_eval(p, rng, "PoRep-shaped", true);
}

TEST_CASE("gpu: PCE evaluation of an empty PCE, and size checks", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 104);
    const r1cs::pce p0 = random_pce(0, 1, 3, coef_mix::mixed, rng);
    gpu_pce d0(p0);
    CHECK(d0.num_constraints() == 0);
    std::vector<fr> in{fr::one()}, aux(3, fr::one()), none;
    gpu_pce_eval(d0, in, aux, none, none, none);   // nothing to do, no throw

    const r1cs::pce p = random_pce(10, 2, 5, coef_mix::mixed, rng);
    gpu_pce d(p);
    std::vector<fr> in2(2), aux5(5), aux4(4), o10(10), o9(9);
    CHECK_THROWS_MATCHES(gpu_pce_eval(d, in2, aux4, o10, o10, o10), error,
                         Catch::Matchers::Predicate<error>([](const error& e) { return e.code() == errc::invalid_argument; }));
    CHECK_THROWS_MATCHES(gpu_pce_eval(d, in2, aux5, o10, o9, o10), error,
                         Catch::Matchers::Predicate<error>([](const error& e) { return e.code() == errc::invalid_argument; }));
    CHECK_NOTHROW(gpu_pce_eval(d, in2, aux5, o10, o10, o10));
}

// ---- first unsatisfied -----------------------------------------------------------------------------
TEST_CASE("gpu: first unsatisfied constraint (none, first, last, several)", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 105);
    INFO("seed 0x" << std::hex << test::test_seed() << std::dec);
    for (size_t n : {size_t(1), size_t(2), size_t(1000), size_t(4097), (size_t{1} << 20) + 5}) {
        std::vector<fr> a(n), b(n), c(n);
        for (size_t i = 0; i < n; ++i) {
            a[i] = (i % 7 == 0) ? fr::zero() : fr::random(rng);
            b[i] = (i % 5 == 0) ? fr::one() : fr::random(rng);
            c[i] = a[i] * b[i];
        }
        gpu_buffer da(n * sizeof(fr)), db(n * sizeof(fr)), dc(n * sizeof(fr));
        da.upload(std::span<const fr>(a));
        db.upload(std::span<const fr>(b));
        auto run = [&](const std::vector<fr>& cc) {
            dc.upload(std::span<const fr>(cc));
            return gpu_first_unsatisfied_device(da.as<fr>(), db.as<fr>(), dc.as<fr>(), n);
        };
        INFO("n = " << n);
        CHECK(run(c) == -1);
        CHECK(!r1cs::first_unsatisfied(a, b, c).has_value());
        std::vector<std::vector<size_t>> bad_sets = {{0}, {n - 1}};
        if (n > 2) {
            std::vector<size_t> several;
            for (int j = 0; j < 5; ++j) several.push_back(1 + rng() % (n - 1));
            bad_sets.push_back(several);
            bad_sets.push_back({n / 2, n - 1, n / 3});
        }
        for (const auto& bad : bad_sets) {
            std::vector<fr> cc = c;
            for (size_t i : bad) cc[i] += fr::one();
            const size_t want = *std::min_element(bad.begin(), bad.end());
            INFO("corrupted rows: " << bad.size() << ", smallest " << want);
            CHECK(run(cc) == int64_t(want));
            CHECK(r1cs::first_unsatisfied(a, b, cc).value_or(n) == want);
        }
    }
    CHECK(gpu_first_unsatisfied_device(nullptr, nullptr, nullptr, 0) == -1);
}

TEST_CASE("gpu: PCE evaluation then the satisfaction check, on the device", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 106);
    INFO("seed 0x" << std::hex << test::test_seed() << std::dec);
    // Boolean constraints x_j · x_j = x_j for every aux j (rows in a shuffled
    // order), plus x_j · (ONE − x_j) = 0: satisfied by bits only.
    const uint32_t ni = 2, na = 5000;
    std::vector<uint32_t> order(na);
    for (uint32_t j = 0; j < na; ++j) order[j] = j;
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<std::array<r1cs::pce_row, 3>> cons;
    for (uint32_t j : order) {
        const uint32_t col = ni + j;
        cons.push_back({r1cs::pce_row{{col, fr::one()}}, r1cs::pce_row{{col, fr::one()}}, r1cs::pce_row{{col, fr::one()}}});
        cons.push_back({r1cs::pce_row{{col, fr::one()}}, r1cs::pce_row{{0, fr::one()}, {col, -fr::one()}}, r1cs::pce_row{}});
    }
    const r1cs::pce p = r1cs::pce_from_constraints(ni, na, cons);
    gpu_pce grouped(p), plain(p, gpu_pce_options{.group_tile_log = 0}),
        streamed(p, gpu_pce_options{.streamed = true, .stream_tile_bytes = uint64_t{16} << 10});
    const size_t m = p.num_constraints;
    std::vector<fr> inputs{fr::one(), fr::from_u64(7)}, aux(na);
    for (auto& x : aux) x = (rng() & 1) ? fr::one() : fr::zero();
    gpu_buffer w((ni + na) * sizeof(fr)), abc(3 * m * sizeof(fr));
    fr* o = abc.as<fr>();
    auto check_with = [&](const gpu_pce& d) {
        INFO((&d == &grouped ? "rows grouped by shape" : &d == &plain ? "rows in the PCE's order" : "streamed"));
        w.upload(std::span<const fr>(inputs));
        w.upload(std::span<const fr>(aux), ni * sizeof(fr));
        gpu_pce_eval_device(d, w.as<fr>(), o, o + m, o + 2 * m);
        const int64_t got = gpu_first_unsatisfied_device(o, o + m, o + 2 * m, m);
        const auto want = r1cs::first_unsatisfied(p, inputs, aux);
        INFO("cpu: " << (want ? int64_t(*want) : -1) << ", gpu: " << got);
        CHECK(got == (want ? int64_t(*want) : -1));
        // the check made with the evaluation, on poisoned outputs
        std::vector<fr> poison(3 * m, fr::from_u64(12345));
        abc.upload(std::span<const fr>(poison));
        const int64_t fused = gpu_pce_eval_check_device(d, w.as<fr>(), o, o + m, o + 2 * m);
        CHECK(fused == got);
        std::vector<fr> out(3 * m);
        abc.download(std::span<fr>(out));
        std::vector<fr> ea(m), eb(m), ec(m);
        r1cs::evaluate(p, inputs, aux, ea, eb, ec);
        CHECK((std::equal(ea.begin(), ea.end(), out.begin()) && std::equal(eb.begin(), eb.end(), out.begin() + m) &&
               std::equal(ec.begin(), ec.end(), out.begin() + 2 * m)));
    };
    auto check = [&]() {
        for (const gpu_pce* pd : {&grouped, &plain, &streamed})
            check_with(*pd);
    };
    check();   // all bits: satisfied
    aux[order[0]] = fr::from_u64(2);
    check();   // the first row fails
    aux[order[0]] = fr::zero();
    aux[order[na - 1]] = fr::random(rng);
    check();   // the second-to-last or last row fails
    aux[order[na / 2]] = fr::from_u64(3);
    aux[order[na / 3]] = -fr::one();
    check();   // several
}

// ---- witness MSM ------------------------------------------------------------------------------------
TEST_CASE("gpu: witness MSM on G1 equals groth16::msm_witness", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 107);
    for (size_t n : {size_t(1), size_t(2), size_t(3), size_t(17), size_t(1000), size_t(4097), (size_t{1} << 16) + 3})
        for (auto mix : {scalar_mix::all_zero, scalar_mix::all_one, scalar_mix::bits90, scalar_mix::random,
                         scalar_mix::edge})
            check_witness_msm<g1_affine>(n, mix, rng);
}

TEST_CASE("gpu: witness MSM on G2 equals groth16::msm_witness", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 108);
    for (size_t n : {size_t(1), size_t(2), size_t(3), size_t(17), size_t(1000), size_t(4097)})
        for (auto mix : {scalar_mix::all_zero, scalar_mix::all_one, scalar_mix::bits90, scalar_mix::random,
                         scalar_mix::edge})
            check_witness_msm<g2_affine>(n, mix, rng);
    check_witness_msm<g2_affine>((size_t{1} << 16) + 3, scalar_mix::bits90, rng);
    check_witness_msm<g2_affine>((size_t{1} << 16) + 3, scalar_mix::edge, rng);
}

TEST_CASE("gpu: witness MSM over device memory, and the empty MSM", "[gpu]")
{
    GPU_OR_SKIP();
    std::mt19937_64 rng(test::test_seed() + 109);
    INFO("seed 0x" << std::hex << test::test_seed() << std::dec);
    const size_t n = 3001;
    auto p = random_points<g1_affine>(n, rng);
    auto s = witness_scalars(n, scalar_mix::bits90, rng);
    gpu_buffer dp(n * sizeof(g1_affine)), ds(n * sizeof(fr));
    dp.upload(std::span<const g1_affine>(p));
    ds.upload(std::span<const fr>(s));
    const auto want = groth16::msm_witness(std::span<const g1_affine>(p), std::span<const fr>(s), 0);
    gpu_msm_witness_stats st;
    CHECK(gpu_msm_witness_device(dp.as<g1_affine>(), ds.as<fr>(), n, &st) == want);
    // twice in a row (cached scratch reused), and a prefix
    CHECK(gpu_msm_witness_device(dp.as<g1_affine>(), ds.as<fr>(), n) == want);
    const auto want_prefix =
        groth16::msm_witness(std::span<const g1_affine>(p).first(100), std::span<const fr>(s).first(100), 0);
    CHECK(gpu_msm_witness_device(dp.as<g1_affine>(), ds.as<fr>(), 100) == want_prefix);
    // the same MSM through the plain device MSM with canonical scalars
    std::vector<fr::repr> canon(n);
    for (size_t i = 0; i < n; ++i) canon[i] = s[i].to_repr();
    CHECK(gpu_msm(std::span<const g1_affine>(p), std::span<const fr::repr>(canon)) == want);

    gpu_msm_witness_stats e;
    CHECK(gpu_msm_witness(std::span<const g1_affine>(), std::span<const fr>(), &e).is_identity());
    CHECK(e.zeros + e.ones + e.others == 0);
    CHECK(gpu_msm_witness_device(static_cast<const g2_affine*>(nullptr), nullptr, 0).is_identity());
    CHECK_THROWS_AS(gpu_msm_witness(std::span<const g1_affine>(p), std::span<const fr>(s).first(10)), error);
}
