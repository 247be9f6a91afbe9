// The constraint-system layer: linear combinations (against GMP), the three
// constraint systems, the PCE (evaluation against the recorded linear
// combinations, densities against a recount), the PCE file (round trip,
// truncation, corruption, forged structure) and unsatisfied-witness reports.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>

#include "cuzk/error.hpp"
#include "cuzk/r1cs/constraint_system.hpp"
#include "cuzk/r1cs/pce.hpp"
#include "gmp_util.hpp"

using namespace cuzk;
using namespace cuzk::r1cs;
using cuzk::test::mpz;

namespace {

const char* const R_DEC = "52435875175126190479447740508185965837690552500527637822603658699938581184513";

mpz to_mpz(const fr& a) { return test::to_mpz(a.to_repr()); }

// Σ coeff·value mod r computed by GMP from the canonical integers.
mpz gmp_eval(const linear_combination& lc, std::span<const fr> in, std::span<const fr> aux)
{
    const mpz r(R_DEC);
    mpz acc, t;
    for (const auto& term : lc.terms()) {
        const fr& v = term.var.is_input ? in[term.var.index] : aux[term.var.index];
        mpz_mul(t, to_mpz(term.coeff), to_mpz(v));
        mpz_add(acc, acc, t);
    }
    mpz_mod(acc, acc, r);
    return acc;
}

// A random circuit: inputs and aux interleaved (so the recorder's aux
// tagging matters), constraints with random terms: ONE, repeated variables,
// cancelling pairs, coefficients ±1, 2, zero and random.
class random_circuit final : public circuit {
public:
    random_circuit(uint64_t seed, size_t ni, size_t na, size_t m) : seed_(seed), ni_(ni), na_(na), m_(m) {}
    void synthesize(constraint_system& cs) const override
    {
        std::mt19937_64 rng(seed_);
        std::vector<variable> vars{variable::one()};
        size_t ni = 0, na = 0;
        while (ni + na < ni_ + na_) {
            const bool input = ni < ni_ && (na == na_ || rng() % 4 == 0);
            const fr v = (rng() % 3 == 0) ? fr::random(rng) : fr::from_u64(rng() % 2);
            vars.push_back(input ? cs.alloc_input(v) : cs.alloc(v));
            (input ? ni : na)++;
        }
        auto coeff = [&]() {
            switch (rng() % 6) {
            case 0: case 1: return fr::one();
            case 2: return -fr::one();
            case 3: return fr::from_u64(2);
            case 4: return fr::random(rng);
            default: return rng() % 4 == 0 ? fr::zero() : fr::from_u64(rng() % 1000);
            }
        };
        auto make = [&]() {
            linear_combination lc;
            const size_t n = rng() % 7;
            for (size_t i = 0; i < n; ++i) {
                const variable v = vars[rng() % vars.size()];
                const fr c = coeff();
                lc.add(v, c);
                if (rng() % 8 == 0) lc.add(v, -c);         // cancels: must not appear in the PCE
                else if (rng() % 8 == 0) lc.add(v, coeff());   // repeated variable
            }
            return lc;
        };
        for (size_t k = 0; k < m_; ++k) {
            const linear_combination a = make(), b = make(), c = make();
            cs.enforce(a, b, c);
        }
    }

private:
    uint64_t seed_;
    size_t ni_, na_, m_;
};

// y_0 = x (public), y_{i+1} = y_i·(y_i + i): constraint i is y_i·(y_i + i) = y_{i+1}.
class chain_circuit final : public circuit {
public:
    explicit chain_circuit(size_t n) : n_(n) {}
    void synthesize(constraint_system& cs) const override
    {
        fr y = fr::from_u64(3);
        variable vy = cs.alloc_input(y);
        for (size_t i = 0; i < n_; ++i) {
            const fr fi = fr::from_u64(i);
            const fr next = y * (y + fi);
            const variable vn = cs.alloc(next);
            cs.enforce(vy, linear_combination(vy) + fi * variable::one(), vn);
            y = next;
            vy = vn;
        }
    }

private:
    size_t n_;
};

std::string temp_path(const std::string& name)
{
    return (std::filesystem::temp_directory_path() /
            ("cuzk_test_r1cs_" + std::to_string(::getpid()) + "_" + name))
        .string();
}

std::vector<uint8_t> read_all(const std::string& p)
{
    std::ifstream f(p, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(f), {});
}
void write_all(const std::string& p, const std::vector<uint8_t>& b)
{
    std::ofstream f(p, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}

template <class F>
errc code_of(F&& f, std::string* msg = nullptr)
{
    try {
        f();
    } catch (const error& e) {
        if (msg) *msg = e.what();
        return e.code();
    }
    return errc::ok;
}

bool same_pce(const pce& x, const pce& y)
{
    auto eq = [](auto s, auto t) { return s.size() == t.size() && std::equal(s.begin(), s.end(), t.begin()); };
    bool ok = x.num_inputs == y.num_inputs && x.num_aux == y.num_aux && x.num_constraints == y.num_constraints;
    const csr_matrix* mx[3] = {&x.a, &x.b, &x.c};
    const csr_matrix* my[3] = {&y.a, &y.b, &y.c};
    for (int i = 0; i < 3; ++i)
        ok = ok && eq(mx[i]->row_ptr, my[i]->row_ptr) && eq(mx[i]->col, my[i]->col) && eq(mx[i]->coef, my[i]->coef);
    ok = ok && eq(x.coeffs, y.coeffs);
    ok = ok && eq(x.a_aux_density.words, y.a_aux_density.words) && eq(x.b_input_density.words, y.b_input_density.words) &&
         eq(x.b_aux_density.words, y.b_aux_density.words);
    ok = ok && x.a_aux_density.popcount == y.a_aux_density.popcount &&
         x.b_aux_density.popcount == y.b_aux_density.popcount &&
         x.b_input_density.popcount == y.b_input_density.popcount;
    return ok;
}

} // namespace

TEST_CASE("linear combinations evaluate like GMP", "[r1cs]")
{
    std::mt19937_64 rng(test::test_seed());
    std::vector<fr> in{fr::one()}, aux;
    for (int i = 0; i < 5; ++i) in.push_back(fr::random(rng));
    for (int i = 0; i < 20; ++i) aux.push_back(i % 3 ? fr::random(rng) : fr::from_u64(i % 2));

    const variable x = variable::input(2), y = variable::aux(3), z = variable::aux(7);
    const fr c = fr::random(rng), d = fr::random(rng);

    // Spot-check the operators against hand-expanded values.
    const linear_combination l1 = x + y;
    CHECK(l1.evaluate(in, aux) == in[2] + aux[3]);
    const linear_combination l2 = (x - y) + c * z - d * variable::one();
    CHECK(l2.evaluate(in, aux) == in[2] - aux[3] + c * aux[7] - d);
    const linear_combination l3 = (l1 + l2) * c;
    CHECK(l3.evaluate(in, aux) == (in[2] + aux[3] + in[2] - aux[3] + c * aux[7] - d) * c);
    const linear_combination l4 = -l3 - l1 + linear_combination::constant(d);
    CHECK(l4.evaluate(in, aux) == -(l3.evaluate(in, aux)) - l1.evaluate(in, aux) + d);

    // Random combinations against GMP, before and after compact().
    for (int round = 0; round < 200; ++round) {
        linear_combination lc;
        const int n = int(rng() % 30);
        for (int i = 0; i < n; ++i) {
            const bool input = rng() % 3 == 0;
            const variable v = input ? variable::input(uint32_t(rng() % in.size()))
                                     : variable::aux(uint32_t(rng() % aux.size()));
            const fr k = rng() % 2 ? fr::random(rng) : (rng() % 2 ? fr::one() : -fr::one());
            switch (rng() % 4) {
            case 0: lc += k * v; break;
            case 1: lc -= k * v; break;
            case 2: lc = lc + v; break;
            default: lc = lc - v; break;
            }
        }
        const mpz want = gmp_eval(lc, in, aux);
        REQUIRE(to_mpz(lc.evaluate(in, aux)).hex() == want.hex());
        linear_combination cc = lc;
        cc.compact();
        REQUIRE(to_mpz(cc.evaluate(in, aux)).hex() == want.hex());
        std::set<std::pair<bool, uint32_t>> seen;
        for (const auto& t : cc.terms()) {
            REQUIRE(!t.coeff.is_zero());
            REQUIRE(seen.insert({t.var.is_input, t.var.index}).second);
        }
    }
    // Out-of-range variables are an error, not a read past the end.
    CHECK(code_of([&] { (void)linear_combination(variable::aux(20)).evaluate(in, aux); }) == errc::invalid_argument);
    // Powers of two.
    CHECK(pow2(0) == fr::one());
    CHECK(pow2(64) == fr::from_u64(uint64_t(1) << 63) * fr::from_u64(2));
}

TEST_CASE("constraint systems agree on counts and assignments", "[r1cs]")
{
    const uint64_t seed = test::test_seed();
    const random_circuit circ(seed, 7, 300, 500);
    witness_cs w;
    test_cs t;
    recording_cs r;
    circ.synthesize(w);
    circ.synthesize(t);
    circ.synthesize(r);
    CHECK(w.num_inputs() == 8);
    CHECK(w.num_aux() == 300);
    CHECK(w.num_constraints() == 500);
    CHECK(t.num_inputs() == w.num_inputs());
    CHECK(t.num_aux() == w.num_aux());
    CHECK(t.num_constraints() == w.num_constraints());
    CHECK(r.num_inputs() == w.num_inputs());
    CHECK(r.num_aux() == w.num_aux());
    CHECK(r.num_constraints() == w.num_constraints());
    CHECK(w.inputs()[0] == fr::one());
    REQUIRE(std::equal(w.aux().begin(), w.aux().end(), t.aux().begin()));
    REQUIRE(std::equal(w.inputs().begin(), w.inputs().end(), t.inputs().begin()));
    const pce p = r.finish();
    CHECK(p.num_inputs == 8);
    CHECK(p.num_aux == 300);
    CHECK(p.num_constraints == 500);
    CHECK(r.num_constraints() == 0);   // finish() resets
    // Allocating an unknown variable in a recorded constraint is refused.
    recording_cs r2;
    CHECK(code_of([&] { r2.enforce(variable::aux(0), variable::one(), variable::one()); }) == errc::invalid_argument);
}

TEST_CASE("PCE evaluation equals the recorded linear combinations", "[r1cs]")
{
    const uint64_t seed = test::test_seed();
    for (size_t m : {size_t(1), size_t(37), size_t(5000), size_t(20011)}) {
        const random_circuit circ(seed + m, 5, m / 2 + 3, m);
        test_cs t;
        circ.synthesize(t);
        const pce p = record(circ);
        REQUIRE(p.num_constraints == m);

        // Reference: each constraint's combinations evaluated directly.
        std::vector<fr> ra(m), rb(m), rc(m);
        for (size_t k = 0; k < m; ++k) {
            ra[k] = t.constraints()[k].a.evaluate(t.inputs(), t.aux());
            rb[k] = t.constraints()[k].b.evaluate(t.inputs(), t.aux());
            rc[k] = t.constraints()[k].c.evaluate(t.inputs(), t.aux());
        }
        // Rows are canonical: sorted columns, no repeats, no zero coefficients.
        for (const csr_matrix* mat : {&p.a, &p.b, &p.c})
            for (size_t r = 0; r < m; ++r)
                for (uint64_t k = mat->row_ptr[r]; k + 1 < mat->row_ptr[r + 1]; ++k)
                    REQUIRE(mat->col[k] < mat->col[k + 1]);
        for (const csr_matrix* mat : {&p.a, &p.b, &p.c})
            for (size_t k = 0; k < mat->nnz(); ++k) REQUIRE(!p.coefficient(mat->coef[k]).is_zero());

        for (unsigned threads : {1u, 2u, 3u, 8u, 0u}) {
            // Poisoned outputs, one element longer than needed (must stay untouched).
            std::vector<fr> a(m + 1, fr::from_u64(77)), b(m + 1, fr::from_u64(77)), c(m + 1, fr::from_u64(77));
            evaluate(p, t.inputs(), t.aux(), a, b, c, threads);
            for (size_t k = 0; k < m; ++k) {
                REQUIRE(a[k] == ra[k]);
                REQUIRE(b[k] == rb[k]);
                REQUIRE(c[k] == rc[k]);
            }
            CHECK(a[m] == fr::from_u64(77));
            // c skipped
            std::vector<fr> a2(m), b2(m);
            evaluate(p, t.inputs(), t.aux(), a2, b2, {}, threads);
            REQUIRE(std::equal(a2.begin(), a2.end(), ra.begin()));
        }
        // Wrong witness or buffer sizes are refused.
        std::vector<fr> a(m), b(m), c(m);
        std::vector<fr> short_aux(t.aux().begin(), t.aux().end() - 1);
        CHECK(code_of([&] { evaluate(p, t.inputs(), short_aux, a, b, c); }) == errc::invalid_argument);
        std::vector<fr> small(m - 1 + (m == 1));
        if (m > 1) CHECK(code_of([&] { evaluate(p, t.inputs(), t.aux(), small, b, c); }) == errc::invalid_argument);
    }
}

TEST_CASE("PCE densities match a recount of the constraints", "[r1cs]")
{
    const uint64_t seed = test::test_seed();
    const random_circuit circ(seed ^ 0x5a5a, 70, 400, 300);   // sparse enough that some variables are unused
    test_cs t;
    circ.synthesize(t);
    const pce p = record(circ);
    std::vector<bool> a_aux(t.num_aux()), b_in(t.num_inputs()), b_aux(t.num_aux());
    for (const auto& k : t.constraints()) {
        linear_combination a = k.a, b = k.b;
        a.compact();   // density counts non-zero merged coefficients
        b.compact();
        for (const auto& term : a.terms())
            if (!term.var.is_input) a_aux[term.var.index] = true;
        for (const auto& term : b.terms()) (term.var.is_input ? b_in : b_aux)[term.var.index] = true;
    }
    auto check = [](const density_bitmap& d, const std::vector<bool>& want) {
        REQUIRE(d.bit_len == want.size());
        uint64_t pop = 0;
        for (size_t i = 0; i < want.size(); ++i) {
            REQUIRE(d.test(i) == want[i]);
            pop += want[i];
        }
        CHECK(d.popcount == pop);
        CHECK(pop > 0);
        CHECK(pop < want.size());
    };
    check(p.a_aux_density, a_aux);
    check(p.b_input_density, b_in);
    check(p.b_aux_density, b_aux);
}

TEST_CASE("pce_from_constraints builds the same PCE as the recorder", "[r1cs]")
{
    const size_t n = 100;
    const pce rec = record(chain_circuit(n));
    // Unified index: input 0 = ONE, input 1 = y_0; aux j = y_{j+1} at column 2 + j.
    std::vector<std::array<pce_row, 3>> cons;
    for (size_t i = 0; i < n; ++i) {
        const uint32_t yi = i == 0 ? 1 : uint32_t(2 + i - 1), yn = uint32_t(2 + i);
        pce_row b{{yi, fr::one()}};
        if (i) b.push_back({0, fr::from_u64(i)});
        cons.push_back({pce_row{{yi, fr::one()}}, b, pce_row{{yn, fr::one()}}});
    }
    const pce built = pce_from_constraints(2, uint32_t(n), cons);
    CHECK(same_pce(rec, built));
    cons[5][1].push_back({uint32_t(2 + n), fr::one()});   // one past the last column
    std::string msg;
    CHECK(code_of([&] { (void)pce_from_constraints(2, uint32_t(n), cons); }, &msg) == errc::invalid_argument);
    CHECK(msg.find("constraint 5") != std::string::npos);
}

TEST_CASE("unsatisfied witnesses are reported with the constraint index", "[r1cs]")
{
    const size_t n = 20000;
    const chain_circuit circ(n);
    const pce p = record(circ);
    witness_cs w;
    circ.synthesize(w);
    test_cs t;
    circ.synthesize(t);
    CHECK(t.is_satisfied());
    for (unsigned threads : {1u, 3u, 0u}) {
        CHECK(!first_unsatisfied(p, w.inputs(), w.aux(), threads));
        CHECK_NOTHROW(check_satisfied(p, w.inputs(), w.aux(), threads));
    }
    std::mt19937_64 rng(test::test_seed());
    for (int round = 0; round < 4; ++round) {
        // Changing y_{j+1} (aux j) first breaks constraint j, the one that defines it.
        const size_t j = round == 0 ? n - 1 : round == 1 ? 0 : rng() % n;
        witness_cs bad;
        circ.synthesize(bad);
        bad.aux_mut()[j] += fr::one();
        test_cs tb;
        circ.synthesize(tb);
        tb.set_aux(j, bad.aux()[j]);
        CHECK(tb.first_unsatisfied() == std::optional<size_t>(j));
        for (unsigned threads : {1u, 2u, 5u, 0u}) {
            CHECK(first_unsatisfied(p, bad.inputs(), bad.aux(), threads) == std::optional<size_t>(j));
            std::vector<fr> a(n), b(n), c(n);
            evaluate(p, bad.inputs(), bad.aux(), a, b, c, threads);
            CHECK(first_unsatisfied(a, b, c, threads) == std::optional<size_t>(j));
        }
        std::string msg;
        CHECK(code_of([&] { check_satisfied(p, bad.inputs(), bad.aux(), 0, "chain"); }, &msg) == errc::unsatisfied);
        CHECK(msg.find("chain: constraint " + std::to_string(j) + " of ") != std::string::npos);
    }
    // A wrong public input breaks constraint 0.
    witness_cs bad;
    circ.synthesize(bad);
    std::vector<fr> in(bad.inputs().begin(), bad.inputs().end());
    in[1] += fr::one();
    CHECK(first_unsatisfied(p, in, bad.aux()) == std::optional<size_t>(0));
}

TEST_CASE("PCE file: round trip, truncation, corruption", "[r1cs]")
{
    const uint64_t seed = test::test_seed();
    const random_circuit circ(seed * 3 + 1, 9, 3000, 6000);
    const pce p = record(circ);
    const std::string path = temp_path("rt.pce");
    save_pce(p, path);
    {
        const pce q = load_pce(path);
        CHECK(same_pce(p, q));
        // The loaded PCE evaluates like the built one (and outlives nothing: it owns its mapping).
        witness_cs w;
        circ.synthesize(w);
        const size_t m = p.num_constraints;
        std::vector<fr> a1(m), b1(m), c1(m), a2(m), b2(m), c2(m);
        evaluate(p, w.inputs(), w.aux(), a1, b1, c1, 2);
        pce copy = q;   // shares the mapping
        evaluate(copy, w.inputs(), w.aux(), a2, b2, c2, 2);
        CHECK(a1 == a2);
        CHECK(b1 == b2);
        CHECK(c1 == c2);
    }
    // An empty circuit round-trips too.
    {
        const pce e = recording_cs().finish();
        const std::string ep = temp_path("empty.pce");
        save_pce(e, ep);
        const pce q = load_pce(ep);
        CHECK(same_pce(e, q));
        CHECK(q.num_inputs == 1);
        std::filesystem::remove(ep);
    }

    const std::vector<uint8_t> good = read_all(path);
    REQUIRE(good.size() > 256);
    const std::string bad = temp_path("bad.pce");
    auto expect = [&](const std::vector<uint8_t>& bytes, errc want, const char* check) {
        write_all(bad, bytes);
        std::string msg;
        CHECK(code_of([&] { (void)load_pce(bad); }, &msg) == want);
        CHECK(msg.find(bad) != std::string::npos);   // names the file
        CHECK(msg.find(check) != std::string::npos);
    };
    SECTION("truncated")
    {
        expect(std::vector<uint8_t>(good.begin(), good.end() - 1), errc::bad_length, "truncated");
        expect(std::vector<uint8_t>(good.begin(), good.begin() + good.size() / 2), errc::bad_length, "truncated");
        expect(std::vector<uint8_t>(good.begin(), good.begin() + 100), errc::bad_length, "header");
        expect({}, errc::bad_length, "header");
        std::vector<uint8_t> longer = good;
        longer.push_back(0);
        expect(longer, errc::bad_length, "trailing");
    }
    SECTION("corrupted")
    {
        std::mt19937_64 rng(seed);
        for (int i = 0; i < 20; ++i) {
            std::vector<uint8_t> b = good;
            const size_t pos = 128 + rng() % (good.size() - 128);
            b[pos] ^= uint8_t(1u << (rng() % 8));
            expect(b, errc::bad_format, "checksum");
        }
        std::vector<uint8_t> b = good;
        b[0] ^= 0x20;
        expect(b, errc::bad_format, "magic");
        b = good;
        b[8] = 2;
        expect(b, errc::bad_format, "version");
        b = good;
        b[20] ^= 1;   // num_inputs
        expect(b, errc::bad_format, "header checksum");
    }
    SECTION("forged structure with valid checksums")
    {
        // Put an out-of-range column into A and recompute both checksums: the
        // structural checks must still refuse the file (with or without the
        // checksum pass).
        std::vector<uint8_t> b = good;
        const size_t col_off = 128 + ((p.num_constraints + 1) * 8 + 63) / 64 * 64;   // A.col section
        const uint32_t big = 0xFFFFFFF0u;
        std::memcpy(&b[col_off], &big, 4);
        const size_t payload = b.size() - 128;
        REQUIRE(payload <= (size_t(1) << 20));   // one checksum chunk
        const uint64_t h0 = pce_hash64(b.data() + 128, payload, 0);
        const uint64_t ph = pce_hash64(&h0, 8, payload);
        std::memcpy(&b[88], &ph, 8);
        const uint64_t hh = pce_hash64(b.data(), 96);
        std::memcpy(&b[96], &hh, 8);
        expect(b, errc::bad_format, "out of range");
        std::string msg;
        CHECK(code_of([&] { (void)load_pce(bad, false); }, &msg) == errc::bad_format);
    }
    SECTION("missing file")
    {
        std::string msg;
        CHECK(code_of([&] { (void)load_pce(temp_path("does-not-exist.pce")); }, &msg) == errc::io);
        CHECK(msg.find("does-not-exist") != std::string::npos);
    }
    std::filesystem::remove(bad);
    std::filesystem::remove(path);
}

TEST_CASE("the file checksum detects single-bit changes", "[r1cs]")
{
    std::mt19937_64 rng(test::test_seed());
    std::vector<uint8_t> buf(1000);
    for (auto& x : buf) x = uint8_t(rng());
    for (size_t n : {size_t(0), size_t(1), size_t(7), size_t(8), size_t(31), size_t(32), size_t(33), size_t(1000)}) {
        const uint64_t h = pce_hash64(buf.data(), n);
        CHECK(pce_hash64(buf.data(), n, 1) != h);   // seeded
        if (n < 1000) CHECK(pce_hash64(buf.data(), n + 1) != h);   // length matters
        for (size_t bit = 0; bit < 8 * n; bit += 1 + bit / 16) {
            buf[bit / 8] ^= uint8_t(1u << (bit % 8));
            REQUIRE(pce_hash64(buf.data(), n) != h);
            buf[bit / 8] ^= uint8_t(1u << (bit % 8));
        }
    }
}
