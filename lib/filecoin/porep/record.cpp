// cuzk — the PoRep partition circuit's PCE recorded in parallel
// (record_porep_pce, filecoin/porep/prove.hpp).
//
// Recording the 32 GiB circuit (130 M constraints) on one thread takes about
// a minute. Its segments have a known layout (layout.hpp: variables,
// rows and entries per segment, and the coefficient table in the order a
// sequential recording meets it), so each segment is recorded on its own
// slice_recording_cs straight into one set of pre-sized arrays, in the three
// stages of the parallel witness. The result equals r1cs::record of the
// blank circuit array for array (test_fc_porep_record checks it).
#include <memory>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/porep/circuit.hpp"
#include "cuzk/filecoin/porep/prove.hpp"
#include "cuzk/r1cs/slice_recording_cs.hpp"
#include "cuzk/util/parallel.hpp"
#include "circuit_parts.hpp"
#include "layout.hpp"

namespace cuzk::filecoin {

namespace {

using namespace porep_parts;

// Where the global part and segment s of challenge ci go.
struct slices {
    const layout& v;
    const constraint_layout& k;

    r1cs::pce_slice global() const
    {
        r1cs::pce_slice at;
        at.aux_count = v.global_aux;
        at.input_begin = 1;
        at.input_count = v.global_inputs - 1;
        at.row_count = k.global_rows;
        at.nnz_count = k.global_nnz;
        return at;
    }
    r1cs::pce_slice segment(size_t ci, unsigned s) const
    {
        r1cs::pce_slice at;
        at.aux_begin = v.global_aux + ci * v.challenge_aux + v.seg_aux_at[s];
        at.aux_count = v.seg_aux[s];
        at.input_begin = v.global_inputs + ci * v.challenge_inputs + v.seg_inputs_at[s];
        at.input_count = v.seg_inputs[s];
        at.row_begin = k.global_rows + ci * k.challenge_rows + k.seg_rows_at[s];
        at.row_count = k.seg_rows[s];
        for (int m = 0; m < 3; ++m) {
            at.nnz_begin[m] = k.global_nnz[m] + ci * k.challenge_nnz[m] + k.seg_nnz_at[s][m];
            at.nnz_count[m] = k.seg_nnz[s][m];
        }
        return at;
    }
};

// Runs fn on the system of one slice and checks that it filled the slice.
template <class F>
void on_slice(r1cs::pce_parts& parts, const r1cs::pce_slice& at, F&& fn)
{
    r1cs::slice_recording_cs cs(parts, at);
    fn(cs);
    if (!cs.full())
        throw error(errc::internal, fmt::format("record_porep_pce: the part at row {} recorded less than its layout",
                                                at.row_begin));
}

} // namespace

std::shared_ptr<const r1cs::pce> record_porep_pce(const seal_config& config, unsigned threads)
{
    threads = resolve_threads(threads);
    const porep_circuit blank(config);
    const std::shared_ptr<const layout> v = layout_of(config, threads);
    const std::shared_ptr<const constraint_layout> k = constraint_layout_of(config, threads);
    const size_t n = blank.challenges().size();
    const uint64_t inputs = v->global_inputs + n * v->challenge_inputs, aux = v->global_aux + n * v->challenge_aux;
    if (inputs + aux > (uint64_t(1) << 32))
        throw error(errc::unsupported, fmt::format("record_porep_pce: {} variables exceed 2^32", inputs + aux));
    std::array<uint64_t, 3> nnz{};
    for (int m = 0; m < 3; ++m) nnz[m] = k->global_nnz[m] + n * k->challenge_nnz[m];
    r1cs::pce_parts parts(uint32_t(inputs), uint32_t(aux), k->global_rows + n * k->challenge_rows, nnz, k->table);

    const slices at{*v, *k};
    globals gl;
    on_slice(parts, at.global(), [&](r1cs::constraint_system& cs) {
        gl = synthesize_globals(cs, fr::zero(), fr::zero(), fr::zero(), fr::zero(), fr::zero());
    });
    std::vector<challenge_state> states(n);
    for (challenge_state& st : states) st.labels.resize(config.layers);
    run_stages(threads, n, config.layers, stage2_order(config.layers, v->seg_aux), [&](size_t ci, unsigned s) {
        on_slice(parts, at.segment(ci, s), [&](r1cs::constraint_system& cs) {
            synthesize_segment(cs, config, blank.challenges()[ci], gl, states[ci], s);
        });
    });
    return std::make_shared<const r1cs::pce>(parts.finish(threads));
}

} // namespace cuzk::filecoin
