// cuzk — the EmptySectorUpdate circuit's witness and R1CS in parallel
// (update_circuit::witness, witness_packed, record_update_pce).
//
// The prefix (public inputs, phi, the comm_r checks, the apex tree and the
// challenge digests) is synthesized first on its own slice; every challenge
// then allocates the same number of aux variables (its shape does not
// depend on values) and no input, so challenge n's slice starts at
// prefix_aux + n · challenge_aux, and the challenges are synthesized
// concurrently, each referring to the prefix's variables. The R1CS is
// built the same way: the prefix recorded once and placed first, then
// every challenge recorded on its own slice of the arrays (the challenges
// have the same rows and entry counts; their rows refer to different
// digest bits, so each is recorded rather than copied).
#include <algorithm>
#include <map>
#include <mutex>
#include <tuple>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/update/circuit.hpp"
#include "cuzk/r1cs/slice_recording_cs.hpp"
#include "cuzk/r1cs/slice_witness_cs.hpp"
#include "cuzk/util/parallel.hpp"

namespace cuzk::filecoin {

namespace {

update_layout measure(const update_config& c)
{
    const update_circuit blank(c);
    r1cs::counting_cs prefix;
    const update_shared sh = blank.synthesize_prefix(prefix);
    r1cs::counting_cs one;
    blank.synthesize_challenge(one, sh, 0);
    if (one.num_inputs() != 1) throw error(errc::internal, "update circuit: a challenge allocates inputs");
    return {prefix.num_aux(), one.num_aux(), prefix.num_inputs()};
}

void expect_full(bool full, const std::string& what)
{
    if (!full) throw error(errc::internal, fmt::format("update circuit: {} wrote less than its layout", what));
}

} // namespace

update_layout update_layout_of(const update_config& c)
{
    using key = std::tuple<uint64_t, unsigned, unsigned, unsigned>;
    static std::mutex mu;
    static std::map<key, update_layout> cache;
    const key k{c.nodes, c.tree.base, c.tree.sub, c.tree.top};
    std::lock_guard lk(mu);
    if (auto it = cache.find(k); it != cache.end()) return it->second;
    return cache.emplace(k, measure(c)).first->second;
}

bool update_circuit::witness(std::vector<fr>& inputs, std::vector<fr>& aux, unsigned threads) const
{
    const update_layout L = update_layout_of(config_);
    const size_t n = challenges_.size();
    inputs.assign(L.inputs, fr::zero());
    inputs[0] = fr::one();
    r1cs::size_for_slices(aux, L.prefix_aux + n * L.challenge_aux);
    r1cs::slice_witness_cs head(std::span<fr>(aux).first(L.prefix_aux), 0, std::span<fr>(inputs).subspan(1), 1);
    const update_shared sh = synthesize_prefix(head);
    expect_full(head.full(), "the prefix");
    parallel_tasks(threads, n, [&](size_t i, unsigned) {
        const size_t at = L.prefix_aux + i * L.challenge_aux;
        r1cs::slice_witness_cs cs(std::span<fr>(aux).subspan(at, L.challenge_aux), at, {}, L.inputs);
        synthesize_challenge(cs, sh, i);
        expect_full(cs.full(), fmt::format("challenge {}", i));
    });
    return true;
}

bool update_circuit::witness_packed(std::vector<fr>& inputs, r1cs::packed_aux_sink& aux, unsigned threads) const
{
    const update_layout L = update_layout_of(config_);
    const size_t n = challenges_.size();
    inputs.assign(L.inputs, fr::zero());
    inputs[0] = fr::one();
    aux.begin(L.prefix_aux + n * L.challenge_aux);
    update_shared sh;
    {
        const std::unique_ptr<r1cs::packed_slice> s = aux.open(0, L.prefix_aux, std::span<fr>(inputs).subspan(1), 1);
        sh = synthesize_prefix(s->cs());
        expect_full(s->full(), "the prefix");
        s->close();
    }
    parallel_tasks(threads, n, [&](size_t i, unsigned) {
        const size_t at = L.prefix_aux + i * L.challenge_aux;
        const std::unique_ptr<r1cs::packed_slice> s = aux.open(at, L.challenge_aux, {}, L.inputs);
        synthesize_challenge(s->cs(), sh, i);
        expect_full(s->full(), fmt::format("challenge {}", i));
        s->close();
    });
    aux.finish(threads);
    return true;
}

std::shared_ptr<const r1cs::pce> record_update_pce(const update_config& config, unsigned threads)
{
    const update_layout L = update_layout_of(config);
    const update_circuit blank(config);
    const size_t n = config.challenge_count;
    // The prefix recorded alone, and challenge 0 after it (for the counts
    // every challenge shares and the coefficients they add).
    r1cs::recording_cs head;
    blank.synthesize_prefix(head);
    const r1cs::pce prefix = head.finish();
    r1cs::counting_cs vars;
    const update_shared shared_vars = blank.synthesize_prefix(vars);
    r1cs::recording_cs first(L.inputs, L.prefix_aux);
    blank.synthesize_challenge(first, shared_vars, 0);
    const r1cs::pce one = first.finish();
    std::vector<fr> table(prefix.coeffs.begin(), prefix.coeffs.end());
    for (const fr& x : one.coeffs)
        if (std::find(table.begin(), table.end(), x) == table.end()) table.push_back(x);
    const auto nnz_of = [](const r1cs::pce& p, int m) { return (m == 0 ? p.a : m == 1 ? p.b : p.c).nnz(); };
    std::array<uint64_t, 3> nnz{};
    for (int m = 0; m < 3; ++m) nnz[m] = nnz_of(prefix, m) + n * nnz_of(one, m);
    const uint64_t rows = prefix.num_constraints + n * one.num_constraints;
    const uint64_t aux = L.prefix_aux + n * L.challenge_aux;
    if (L.inputs + aux > (uint64_t(1) << 32))
        throw error(errc::unsupported, fmt::format("record_update_pce: {} variables exceed 2^32", L.inputs + aux));
    r1cs::pce_parts parts(uint32_t(L.inputs), uint32_t(aux), rows, nnz, std::move(table));
    r1cs::pce_slice at;
    at.aux_count = L.prefix_aux;
    at.input_begin = 1;
    at.input_count = L.inputs - 1;
    at.row_count = prefix.num_constraints;
    for (int m = 0; m < 3; ++m) at.nnz_count[m] = nnz_of(prefix, m);
    parts.place(prefix, at);
    parallel_tasks(threads, n, [&](size_t i, unsigned) {
        r1cs::pce_slice c;
        c.aux_begin = L.prefix_aux + i * L.challenge_aux;
        c.aux_count = L.challenge_aux;
        c.input_begin = L.inputs;
        c.row_begin = prefix.num_constraints + i * one.num_constraints;
        c.row_count = one.num_constraints;
        for (int m = 0; m < 3; ++m) {
            c.nnz_begin[m] = nnz_of(prefix, m) + i * nnz_of(one, m);
            c.nnz_count[m] = nnz_of(one, m);
        }
        r1cs::slice_recording_cs cs(parts, c);
        blank.synthesize_challenge(cs, shared_vars, i);
        expect_full(cs.full(), fmt::format("challenge {}'s recording", i));
    });
    return std::make_shared<const r1cs::pce>(parts.finish(threads));
}

} // namespace cuzk::filecoin
