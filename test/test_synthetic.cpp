// The synthetic PoRep-shaped circuit (filecoin/porep/synthetic_circuit.hpp):
// the witness satisfies every row (the CPU PCE evaluation), the PCE layout
// invariants hold, the measured statistics land within stated tolerances of
// the targets, and the result is a function of the seed only (not of the
// thread count).
#include <catch2/catch.hpp>


#include "cuzk/error.hpp"
#include "cuzk/filecoin/porep/synthetic_circuit.hpp"
#include "cuzk/groth16/circuit.hpp"
#include "cuzk/groth16/prover.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"

using namespace cuzk;
using namespace cuzk::r1cs;

namespace {

void check_layout(const pce& p)
{
    const csr_matrix* ms[3] = {&p.a, &p.b, &p.c};
    const uint64_t nv = p.num_variables();
    for (const csr_matrix* m : ms) {
        REQUIRE(m->rows() == p.num_constraints);
        REQUIRE(m->row_ptr[0] == 0);
        REQUIRE(m->row_ptr[m->rows()] == m->nnz());
        for (size_t r = 0; r < m->rows(); ++r) {
            REQUIRE(m->row_ptr[r] <= m->row_ptr[r + 1]);
            for (uint64_t k = m->row_ptr[r]; k < m->row_ptr[r + 1]; ++k) {
                REQUIRE(m->col[k] < nv);
                REQUIRE(m->coef[k] < coef_table_base + p.coeffs.size());
                if (k > m->row_ptr[r]) REQUIRE(m->col[k - 1] < m->col[k]);
            }
        }
    }
    for (const fr& c : p.coeffs) REQUIRE(!c.is_zero());
}

bool same(const synthetic_circuit& x, const synthetic_circuit& y)
{
    const auto eq_m = [](const csr_matrix& a, const csr_matrix& b) {
        return std::equal(a.row_ptr.begin(), a.row_ptr.end(), b.row_ptr.begin(), b.row_ptr.end()) &&
               std::equal(a.col.begin(), a.col.end(), b.col.begin(), b.col.end()) &&
               std::equal(a.coef.begin(), a.coef.end(), b.coef.begin(), b.coef.end());
    };
    return x.p.num_inputs == y.p.num_inputs && x.p.num_aux == y.p.num_aux && eq_m(x.p.a, y.p.a) &&
           eq_m(x.p.b, y.p.b) && eq_m(x.p.c, y.p.c) &&
           std::equal(x.p.coeffs.begin(), x.p.coeffs.end(), y.p.coeffs.begin(), y.p.coeffs.end()) &&
           x.inputs == y.inputs && x.aux == y.aux;
}

} // namespace

TEST_CASE("synthetic_porep is satisfied and well formed with statistics near the targets")
{
    for (unsigned L : {10u, 12u, 14u}) {
        synthetic_params prm;
        prm.log2_domain = L;
        prm.threads = 2;
        const synthetic_circuit s = synthetic_porep(prm);
        INFO("log2 domain " << L);
        REQUIRE(s.p.num_constraints == (uint64_t{1} << L) - prm.num_inputs - prm.margin);
        REQUIRE(s.inputs.size() == prm.num_inputs);
        REQUIRE(s.aux.size() == s.p.num_aux);
        REQUIRE(s.inputs[0] == fr::one());
        check_layout(s.p);
        REQUIRE_FALSE(first_unsatisfied(s.p, s.inputs, s.aux, 2).has_value());

        const synthetic_stats st = measure_synthetic(s.p, s.inputs, s.aux, 2);
        INFO("nnz/row A " << st.nnz_a << " B " << st.nnz_b << " C " << st.nnz_c << "; aux density A "
             << st.a_aux_density << " B " << st.b_aux_density << "; 0/1 " << st.frac01 << " (zeros "
             << st.frac_zero << ", ones " << st.frac_one << ")");
        // Tolerances: the small circuits carry the per-chunk seeds (17
        // variables) and the COPY rows, and the queues leave a few variables
        // unused at the chunk's end.
        CHECK(st.nnz_a == Approx(prm.nnz_a).margin(0.05));
        CHECK(st.nnz_b == Approx(prm.nnz_b).margin(0.02));
        CHECK(st.nnz_c == Approx(prm.nnz_c).margin(0.05));
        CHECK(st.a_aux_density == Approx(prm.a_aux_density).margin(0.005));
        CHECK(st.b_aux_density == Approx(prm.b_aux_density).margin(0.02));
        CHECK(st.frac01 == Approx(prm.frac01).margin(0.02));
        // B's input column ONE is used (LIN rows), the public inputs are in A.
        CHECK(s.p.b_input_density.test(0));
    }
}

TEST_CASE("synthetic_porep reaches other targets (BOOL rows and denser B and fewer bits)")
{
    synthetic_params prm;
    prm.log2_domain = 13;
    prm.nnz_a = 3.0;
    prm.nnz_b = 1.1;
    prm.nnz_c = 2.0;
    prm.b_aux_density = 0.4;
    prm.a_aux_density = 0.98;
    prm.frac01 = 0.8;
    prm.num_inputs = 5;
    prm.threads = 2;
    const synthetic_circuit s = synthetic_porep(prm);
    check_layout(s.p);
    REQUIRE_FALSE(first_unsatisfied(s.p, s.inputs, s.aux, 2).has_value());
    const synthetic_stats st = measure_synthetic(s.p, s.inputs, s.aux, 2);
    CHECK(st.nnz_a == Approx(prm.nnz_a).margin(0.05));
    CHECK(st.nnz_b == Approx(prm.nnz_b).margin(0.02));
    CHECK(st.nnz_c == Approx(prm.nnz_c).margin(0.05));
    CHECK(st.a_aux_density == Approx(prm.a_aux_density).margin(0.01));
    CHECK(st.b_aux_density == Approx(prm.b_aux_density).margin(0.02));
    CHECK(st.frac01 == Approx(prm.frac01).margin(0.02));
}

TEST_CASE("synthetic_porep is a function of the seed only and a broken witness is caught")
{
    synthetic_params prm;
    prm.log2_domain = 16;   // two chunks
    prm.threads = 1;
    const synthetic_circuit a = synthetic_porep(prm);
    prm.threads = 3;
    const synthetic_circuit b = synthetic_porep(prm);
    CHECK(same(a, b));
    prm.seed = 2;
    const synthetic_circuit c = synthetic_porep(prm);
    CHECK_FALSE(same(a, c));
    CHECK(c.p.num_constraints == a.p.num_constraints);
    REQUIRE_FALSE(first_unsatisfied(c.p, c.inputs, c.aux, 2).has_value());

    // Flipping one bit of the witness breaks some constraint.
    std::vector<fr> aux = a.aux;
    size_t k = aux.size() / 2;
    while (!(aux[k].is_zero() || aux[k].is_one())) ++k;
    aux[k] = aux[k].is_zero() ? fr::one() : fr::zero();
    CHECK(first_unsatisfied(a.p, a.inputs, aux, 2).has_value());
}

TEST_CASE("synthetic_porep rejects unreachable targets")
{
    synthetic_params prm;
    prm.log2_domain = 10;
    const auto rejects = [](synthetic_params p) {
        try {
            synthetic_porep(p);
        } catch (const error& e) {
            return e.code() == errc::invalid_argument;
        }
        return false;
    };
    auto p = prm;
    p.nnz_b = 0.9;
    CHECK(rejects(p));
    p = prm;
    p.frac01 = 1.0;
    CHECK(rejects(p));
    p = prm;
    p.nnz_c = 5.0;
    CHECK(rejects(p));
    p = prm;
    p.log2_domain = 40;
    CHECK(rejects(p));
    p = prm;
    p.nnz_a = 20.0;   // k = 191
    CHECK(rejects(p));
}

// The setup's two halves (groth16/setup.hpp) on the synthetic circuit: the
// multi-threaded PCE path of the scalar half equals the description path,
// the key from the scalars equals setup_bellperson for the same toxic waste,
// and a proof with it verifies.
TEST_CASE("setup scalars from a PCE equal those from its description and proofs verify")
{
    synthetic_params prm;
    prm.log2_domain = 9;
    prm.num_inputs = 4;
    prm.margin = 8;
    prm.threads = 2;
    const synthetic_circuit s = synthetic_porep(prm);
    const auto w = groth16::toxic_waste::from_seed(3);
    const auto sp = groth16::bellperson_setup_scalars(s.p, w, 3);
    const auto sd = groth16::bellperson_setup_scalars(groth16::describe(s.p), w, 1);
    CHECK(sp.domain_size == uint64_t{1} << prm.log2_domain);
    CHECK(sp.h_first == sd.h_first);
    CHECK(sp.ic == sd.ic);
    CHECK(sp.l == sd.l);
    CHECK(sp.a == sd.a);
    CHECK(sp.b == sd.b);
    CHECK(sp.density.a_aux == sd.density.a_aux);
    CHECK(sp.density.b_input == sd.density.b_input);
    CHECK(sp.density.b_aux == sd.density.b_aux);
    std::vector<fr> h1(40), h2(40);
    sp.h_scalars(100, h1, 3);
    sd.h_scalars(100, h2, 1);
    CHECK(h1 == h2);
    CHECK(h1[1] == h1[0] * w.tau);

    groth16::setup_options so;
    so.threads = 2;
    so.waste = &w;
    groth16::query_density d;
    const groth16::proving_key ref = groth16::setup_bellperson(groth16::describe(s.p), &d, so);
    auto be = groth16::cpu_fixed_base(2);
    const groth16::proving_key pk = groth16::bellperson_key_from_scalars(
        groth16::bellperson_setup_scalars(s.p, w, 2), *be, 2, 100);
    CHECK(pk.h == ref.h);
    CHECK(pk.l == ref.l);
    CHECK(pk.a == ref.a);
    CHECK(pk.b_g1 == ref.b_g1);
    CHECK(pk.b_g2 == ref.b_g2);
    CHECK(pk.vk.ic == ref.vk.ic);
    CHECK(pk.vk.delta_g2 == ref.vk.delta_g2);

    std::vector<fr> a(s.p.num_constraints), b(s.p.num_constraints), c(s.p.num_constraints);
    evaluate(s.p, s.inputs, s.aux, a, b, c, 2);
    groth16::prove_options po;
    po.threads = 2;
    const auto pr = groth16::prove_bellperson(pk, d, std::move(a), std::move(b), std::move(c), s.inputs, s.aux, po);
    const auto pvk = groth16::prepare_verifying_key(pk.vk);
    const std::vector<fr> pub(s.inputs.begin() + 1, s.inputs.end());
    CHECK(groth16::verify(pvk, pr, pub));
}
