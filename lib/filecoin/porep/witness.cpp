// cuzk — the PoRep partition witness in parallel (porep_circuit::witness).
//
// Every challenge allocates the same number of aux variables and inputs, in
// the same segments (circuit_parts.hpp), so the position of each
// segment's slice in the final assignment is known before anything is
// synthesized (layout.hpp: measured once per shape, on counting
// systems, and cached).
//
// The witness is then built in three stages, each a set of independent tasks
// on slice_witness_cs systems writing straight into one pre-sized vector:
//   1. every challenge's columns segment (small; the labels need its rows);
//   2. every leaf and label segment, largest first (the bulk of the work:
//      18·(L+1) tasks keep 16 cores busy where 18 challenges could not);
//   3. every tail (small; needs the labels and the leaf).
// A segment that does not fill its slice exactly is an internal error.
//
// witness() writes every slice in place in one aux vector. witness_packed()
// runs the same stages, each task on the constraint system a
// packed_aux_sink opens for its slice: on the cuda engine every value is
// tagged into the page-locked upload form as it is allocated (2 bits per
// 0/1 value), so the 4.2 GB aux vector of a 32 GiB partition is never
// written, nor read back for packing.
#include <cstdint>
#include <memory>
#include <span>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/porep/circuit.hpp"
#include "cuzk/r1cs/slice_witness_cs.hpp"
#include "cuzk/util/parallel.hpp"
#include "circuit_parts.hpp"
#include "layout.hpp"

namespace cuzk::filecoin {

namespace {

using namespace porep_parts;

// Runs `fn` on a system writing aux[aux_at, +n_aux) and inputs[in_at, +n_in)
// (into the full vector, or through the sink), and checks that it wrote
// exactly that much.
template <class Target, class F>
void on_slice(std::vector<fr>& inputs, Target& aux, size_t aux_at, size_t n_aux, size_t in_at, size_t n_in,
              const char* what, F&& fn)
{
    const std::span<fr> in = std::span<fr>(inputs).subspan(in_at, n_in);
    const auto check = [&](bool full) {
        if (!full)
            throw error(errc::internal, fmt::format("porep witness: {} wrote less than its layout ({} aux at {})", what,
                                                    n_aux, aux_at));
    };
    if (aux.sink) {
        const std::unique_ptr<r1cs::packed_slice> s = aux.sink->open(aux_at, n_aux, in, in_at);
        fn(s->cs());
        check(s->full());
        s->close();
        return;
    }
    r1cs::slice_witness_cs cs(std::span<fr>(*aux.full).subspan(aux_at, n_aux), aux_at, in, in_at);
    fn(cs);
    check(cs.full());
}

} // namespace

// Where the aux values of the slices go: straight into their places in one
// full vector, or into slices the sink hands out.
struct porep_circuit::aux_target {
    std::vector<fr>* full = nullptr;
    r1cs::packed_aux_sink* sink = nullptr;
};

// The global part, then every challenge's segments in the three stages, on
// the slices of `aux`; inputs sized and written here.
void porep_circuit::fill(std::vector<fr>& inputs, aux_target& aux, unsigned threads) const
{
    const std::shared_ptr<const layout> L = layout_of(config_, threads);
    const size_t n = challenges_.size();
    inputs.assign(L->global_inputs + n * L->challenge_inputs, fr::zero());
    inputs[0] = fr::one();

    globals gl;
    on_slice(inputs, aux, 0, L->global_aux, 1, L->global_inputs - 1, "the global part", [&](auto& cs) {
        gl = synthesize_globals(cs, replica_id_, comm_d_, comm_r_, comm_r_last_, comm_c_);
    });
    std::vector<challenge_state> states(n);
    for (challenge_state& st : states) st.labels.resize(config_.layers);
    run_stages(threads, n, config_.layers, stage2_order(config_.layers, L->seg_aux), [&](size_t ci, unsigned s) {
        const size_t aux_at = L->global_aux + ci * L->challenge_aux + L->seg_aux_at[s];
        const size_t in_at = L->global_inputs + ci * L->challenge_inputs + L->seg_inputs_at[s];
        on_slice(inputs, aux, aux_at, L->seg_aux[s], in_at, L->seg_inputs[s], "a segment", [&](auto& cs) {
            synthesize_segment(cs, config_, challenges_[ci], gl, states[ci], s);
        });
    });
}

size_t porep_circuit::aux_count(unsigned threads) const
{
    const std::shared_ptr<const layout> L = layout_of(config_, threads);
    return L->global_aux + challenges_.size() * L->challenge_aux;
}

bool porep_circuit::witness(std::vector<fr>& inputs, std::vector<fr>& aux, unsigned threads) const
{
    threads = resolve_threads(threads);
    r1cs::size_for_slices(aux, aux_count(threads));
    aux_target t;
    t.full = &aux;
    fill(inputs, t, threads);
    return true;
}

bool porep_circuit::witness_packed(std::vector<fr>& inputs, r1cs::packed_aux_sink& aux, unsigned threads) const
{
    threads = resolve_threads(threads);
    aux_target t;
    t.sink = &aux;
    aux.begin(aux_count(threads));
    fill(inputs, t, threads);
    aux.finish(threads);
    return true;
}

} // namespace cuzk::filecoin
