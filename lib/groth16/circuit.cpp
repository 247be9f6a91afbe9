#include "cuzk/groth16/circuit.hpp"

#include <chrono>
#include <fmt/format.h>

#include "cuzk/error.hpp"

namespace cuzk::groth16 {

namespace {
using clock = std::chrono::steady_clock;
uint64_t ns_since(clock::time_point t0)
{
    return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(clock::now() - t0).count());
}
std::vector<bool> bits_of(const r1cs::density_bitmap& d)
{
    std::vector<bool> v(d.bit_len);
    for (size_t i = 0; i < d.bit_len; ++i) v[i] = d.test(i);
    return v;
}
} // namespace

r1cs_description describe(const r1cs::pce& p)
{
    r1cs_description r;
    r.num_inputs = p.num_inputs;
    r.num_aux = p.num_aux;
    if (p.num_constraints > UINT32_MAX) throw error(errc::unsupported, "describe: more than 2^32 constraints");
    r.num_constraints = uint32_t(p.num_constraints);
    const r1cs::pce* pp = &p;
    r.for_each_entry = [pp](const std::function<void(int, uint32_t, uint32_t, const fr&)>& fn) {
        const r1cs::csr_matrix* ms[3] = {&pp->a, &pp->b, &pp->c};
        for (int m = 0; m < 3; ++m) {
            const auto& mat = *ms[m];
            for (size_t row = 0; row < mat.rows(); ++row)
                for (uint64_t k = mat.row_ptr[row]; k < mat.row_ptr[row + 1]; ++k)
                    fn(m, uint32_t(row), mat.col[k], pp->coefficient(mat.coef[k]));
        }
    };
    return r;
}

query_density density_of(const r1cs::pce& p)
{
    return {bits_of(p.a_aux_density), bits_of(p.b_input_density), bits_of(p.b_aux_density)};
}

assignment synthesize_witness(const r1cs::circuit& c)
{
    r1cs::witness_cs cs;
    c.synthesize(cs);
    return {cs.take_inputs(), cs.take_aux()};
}

proof prove_circuit(const proving_key& pk, const r1cs::pce& p, const query_density& d, const r1cs::circuit& c,
                    const prove_options& opt, circuit_timings* timings, std::vector<fr>* public_inputs_out)
{
    circuit_timings tm;
    auto t = clock::now();
    assignment w = synthesize_witness(c);
    tm.synth_ns = ns_since(t);
    if (w.inputs.size() != p.num_inputs || w.aux.size() != p.num_aux)
        throw error(errc::invalid_argument,
                    fmt::format("prove_circuit: the circuit allocated {} inputs and {} aux, its PCE has {} and {}",
                                w.inputs.size(), w.aux.size(), p.num_inputs, p.num_aux));
    t = clock::now();
    std::vector<fr> a(p.num_constraints), b(p.num_constraints), cc(p.num_constraints);
    r1cs::evaluate(p, w.inputs, w.aux, a, b, cc, opt.threads);
    if (auto bad = r1cs::first_unsatisfied(a, b, cc, opt.threads))
        throw error(errc::unsatisfied, fmt::format("prove_circuit: constraint {} is not satisfied by the witness", *bad));
    tm.eval_ns = ns_since(t);
    proof pr = prove_bellperson(pk, d, std::move(a), std::move(b), std::move(cc), w.inputs, w.aux, opt, &tm.prove);
    if (timings) *timings = tm;
    if (public_inputs_out) public_inputs_out->assign(w.inputs.begin() + 1, w.inputs.end());
    return pr;
}

} // namespace cuzk::groth16
