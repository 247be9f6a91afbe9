// cuzk — the per-challenge segments of the PoRep circuit
// (circuit_parts.hpp) and the label circuit (filecoin/porep/circuit.hpp).
#include <string>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/gadgets/bp_sha256.hpp"
#include "cuzk/filecoin/gadgets/poseidon.hpp"
#include "cuzk/filecoin/porep/circuit.hpp"
#include "cuzk/filecoin/porep/labels.hpp"
#include "cuzk/r1cs/gadgets/multipack.hpp"
#include "circuit_parts.hpp"

namespace cuzk::filecoin {

namespace g = r1cs::gadgets;

namespace {

using column = std::vector<g::allocated_num>;

// A parent column: rows allocated, hashed (Poseidon, arity = layers) and
// included in tree C.
column parent_column(r1cs::constraint_system& cs, const porep_column_witness& w, const g::tree_shape& tree_c,
                     const g::allocated_num& comm_c)
{
    column rows;
    rows.reserve(w.rows.size());
    for (const fr& v : w.rows) rows.push_back(g::allocated_num::alloc(cs, v));
    const g::allocated_num hash = g::poseidon_hash(cs, rows);
    g::enforce_inclusion(cs, tree_c, w.path, comm_c, hash);
    return rows;
}

// A row in SHA order: to_bits_le, then each byte's bits reversed.
std::vector<g::boolean> row_bits(r1cs::constraint_system& cs, const g::allocated_num& row)
{
    return g::reverse_bit_numbering(row.to_bits_le(cs));
}

// The 37 parents of a label in preimage order. Layer 1: the DRG parents'
// bits six times over, then the first again. Later layers: DRG then
// expander parents (14) twice, then the first 9 of them.
std::vector<std::vector<g::boolean>> expand_parents(const std::vector<std::vector<g::boolean>>& p, unsigned layer)
{
    std::vector<std::vector<g::boolean>> out;
    out.reserve(label_parent_count);
    const size_t repeats = layer == 1 ? 6 : 2;
    for (size_t r = 0; r < repeats; ++r) out.insert(out.end(), p.begin(), p.end());
    for (size_t i = 0; out.size() < label_parent_count; ++i) out.push_back(p[i]);
    return out;
}

// The label of the challenged node in `layer` (1-based).
g::allocated_num layer_label(r1cs::constraint_system& cs, unsigned layer, const std::vector<column>& drg,
                             const std::vector<column>& exp, std::span<const g::boolean> replica_id_bits,
                             const g::uint64& challenge)
{
    std::vector<std::vector<g::boolean>> parents;
    for (const column& c : drg) parents.push_back(row_bits(cs, c[layer - 1]));
    // Expander parents hold the previous layer's labels (none for layer 1).
    if (layer > 1)
        for (const column& c : exp) parents.push_back(row_bits(cs, c[layer - 2]));
    return porep_label_circuit(cs, replica_id_bits, expand_parents(parents, layer), layer, challenge);
}

// Appends constant false bits up to a multiple of `to` bits.
void pad_to(std::vector<g::boolean>& bits, size_t to)
{
    while (bits.size() % to != 0) bits.push_back(g::boolean::constant(false));
}

} // namespace

g::allocated_num porep_label_circuit(r1cs::constraint_system& cs, std::span<const g::boolean> replica_id_bits,
                                     std::span<const std::vector<g::boolean>> parents, uint32_t layer,
                                     const g::uint64& node)
{
    if (replica_id_bits.size() < 32 || replica_id_bits.size() > 256)
        throw error(errc::invalid_argument, fmt::format("porep_label_circuit: replica id of {} bits (32..256)",
                                                        replica_id_bits.size()));
    if (parents.size() != label_parent_count)
        throw error(errc::invalid_argument,
                    fmt::format("porep_label_circuit: {} parents, expected {}", parents.size(), label_parent_count));
    // replica_id ‖ layer (u32 BE) ‖ node (u64 BE), each part zero-padded:
    // 32 + 32 bytes, then each parent in 32 bytes.
    std::vector<g::boolean> msg(replica_id_bits.begin(), replica_id_bits.end());
    msg.reserve((2 + label_parent_count) * 256);
    pad_to(msg, 256);
    for (int i = 31; i >= 0; --i) msg.push_back(g::boolean::constant((layer >> i) & 1u));
    for (int i = 63; i >= 0; --i) msg.push_back(node.bits_le()[size_t(i)]);
    pad_to(msg, 512);
    for (const std::vector<g::boolean>& p : parents) {
        if (p.size() > 256)
            throw error(errc::invalid_argument, fmt::format("porep_label_circuit: a parent of {} bits", p.size()));
        msg.insert(msg.end(), p.begin(), p.end());
        pad_to(msg, 256);
    }
    const std::vector<g::boolean> digest = g::bp::sha256(cs, msg);
    // The digest bytes as a little-endian number, truncated to 254 bits.
    const std::vector<g::boolean> le = g::reverse_bit_numbering(digest);
    return g::pack_bits(cs, std::span(le).first(g::fr_capacity));
}

namespace porep_parts {

namespace {

// Segment 0: the data leaf, included in comm_d's tree.
void leaf_segment(r1cs::constraint_system& cs, const seal_config& c, const porep_challenge_witness& w,
                  const globals& gl, challenge_state& st)
{
    st.data_leaf = g::allocated_num::alloc(cs, w.data_leaf);
    g::enforce_inclusion(cs, porep_circuit::tree_d_shape(c), w.comm_d_path, gl.comm_d, st.data_leaf);
}

// Segment 1: the parent columns and the challenge (one input).
void columns_segment(r1cs::constraint_system& cs, const seal_config& c, const porep_challenge_witness& w,
                     const globals& gl, challenge_state& st)
{
    const g::tree_shape tree_c = porep_circuit::tree_c_shape(c);
    st.drg.clear();
    st.exp.clear();
    for (const porep_column_witness& p : w.drg_parents) st.drg.push_back(parent_column(cs, p, tree_c, gl.comm_c));
    for (const porep_column_witness& p : w.exp_parents) st.exp.push_back(parent_column(cs, p, tree_c, gl.comm_c));
    st.challenge = g::uint64::alloc(cs, w.challenge);
    st.challenge.pack_into_input(cs);
}

// The last segment: the replica node (label_L + data) in tree R_last and
// the challenged node's own column in tree C.
void tail_segment(r1cs::constraint_system& cs, const seal_config& c, const porep_challenge_witness& w,
                  const globals& gl, const challenge_state& st)
{
    const g::tree_shape tree_c = porep_circuit::tree_c_shape(c);
    const g::allocated_num encoded = g::constraint::add(cs, st.labels.back(), st.data_leaf);
    g::enforce_inclusion(cs, tree_c, w.comm_r_last_path, gl.comm_r_last, encoded);
    const g::allocated_num column_hash = g::poseidon_hash(cs, st.labels);
    g::enforce_inclusion(cs, tree_c, w.comm_c_path, gl.comm_c, column_hash);
}

} // namespace

void synthesize_segment(r1cs::constraint_system& cs, const seal_config& c, const porep_challenge_witness& w,
                        const globals& gl, challenge_state& st, unsigned segment)
{
    if (segment == 0) {
        leaf_segment(cs, c, w, gl, st);
    } else if (segment == 1) {
        columns_segment(cs, c, w, gl, st);
    } else if (segment <= c.layers + 1) {
        const unsigned layer = segment - 1;
        if (st.labels.size() != c.layers) st.labels.resize(c.layers);
        st.labels[layer - 1] = layer_label(cs, layer, st.drg, st.exp, gl.replica_id_bits, st.challenge);
    } else if (segment == c.layers + 2) {
        tail_segment(cs, c, w, gl, st);
    } else {
        throw error(errc::invalid_argument, fmt::format("porep circuit: no segment {} (a challenge has {})", segment,
                                                        segment_count(c)));
    }
}

} // namespace porep_parts

} // namespace cuzk::filecoin
