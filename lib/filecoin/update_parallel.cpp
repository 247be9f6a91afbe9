// cuzk — the EmptySectorUpdate circuit's witness in parallel
// (update_circuit::witness, witness_packed).
//
// The prefix (public inputs, phi, the comm_r checks, the apex tree and the
// challenge digests) is synthesized first on its own slice; every challenge
// then allocates the same number of aux variables (its shape does not
// depend on values) and no input, so challenge n's slice starts at
// prefix_aux + n · challenge_aux, and the challenges are synthesized
// concurrently, each referring to the prefix's variables.
#include <map>
#include <mutex>
#include <tuple>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/update_circuit.hpp"
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

} // namespace cuzk::filecoin
