// cuzk — the PoRep partition circuit (filecoin/porep/circuit.hpp): building
// the circuit's witness from a C1 output (or a blank one from the config),
// and the global part of synthesis.
#include "cuzk/filecoin/porep/circuit.hpp"

#include <array>
#include <bit>
#include <string>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/poseidon.hpp"
#include "cuzk/filecoin/gadgets/poseidon.hpp"
#include "cuzk/filecoin/porep/graph.hpp"
#include "circuit_parts.hpp"
#include "filecoin/gadgets/circuit_paths.hpp"

namespace cuzk::filecoin {

namespace g = r1cs::gadgets;
using detail::blank_path;
using detail::to_path;

namespace {

[[noreturn]] void bad(const std::string& msg) { throw error(errc::invalid_argument, msg); }

porep_column_witness to_column(const column_proof& p, const seal_config& c, const g::tree_shape& shape,
                               const std::string& what)
{
    if (p.rows.size() != c.layers) bad(fmt::format("{}: {} rows, expected {} layers", what, p.rows.size(), c.layers));
    porep_column_witness w;
    for (const domain& r : p.rows) w.rows.push_back(domain_to_fr(r, what));
    w.path = to_path(p.inclusion, shape, what);
    return w;
}

porep_challenge_witness blank_challenge(const seal_config& c)
{
    const g::tree_shape tc = porep_circuit::tree_c_shape(c);
    porep_challenge_witness w;
    w.comm_d_path = blank_path(porep_circuit::tree_d_shape(c));
    const porep_column_witness col{std::vector<fr>(c.layers, fr::zero()), blank_path(tc)};
    w.drg_parents.assign(sdr_graph::base_degree, col);
    w.exp_parents.assign(sdr_graph::exp_degree, col);
    w.comm_r_last_path = blank_path(tc);
    w.comm_c_path = blank_path(tc);
    return w;
}

porep_challenge_witness to_challenge(const challenge_proof& p, const seal_config& c, const std::string& what)
{
    const g::tree_shape tc = porep_circuit::tree_c_shape(c);
    if (p.drg_parents.size() != sdr_graph::base_degree || p.exp_parents.size() != sdr_graph::exp_degree)
        bad(fmt::format("{}: {} DRG and {} expander parent columns, expected {} and {}", what, p.drg_parents.size(),
                        p.exp_parents.size(), sdr_graph::base_degree, sdr_graph::exp_degree));
    if (p.labeling_proofs.empty()) bad(what + ".labeling_proofs: empty (the challenge comes from its first entry)");
    porep_challenge_witness w;
    w.challenge = p.labeling_proofs[0].node;
    w.data_leaf = domain_to_fr(p.comm_d_proof.leaf, what + ".comm_d_proofs.leaf");
    w.comm_d_path = to_path(p.comm_d_proof, porep_circuit::tree_d_shape(c), what + ".comm_d_proofs");
    for (size_t i = 0; i < p.drg_parents.size(); ++i)
        w.drg_parents.push_back(to_column(p.drg_parents[i], c, tc, fmt::format("{}.drg_parents[{}]", what, i)));
    for (size_t i = 0; i < p.exp_parents.size(); ++i)
        w.exp_parents.push_back(to_column(p.exp_parents[i], c, tc, fmt::format("{}.exp_parents[{}]", what, i)));
    w.comm_r_last_path = to_path(p.comm_r_last_proof, tc, what + ".comm_r_last_proof");
    w.comm_c_path = to_path(p.c_x.inclusion, tc, what + ".c_x");
    return w;
}

void check_layers(const seal_config& c)
{
    if (!poseidon_arity_supported(c.layers))
        throw error(errc::unsupported, fmt::format("porep_circuit: no Poseidon column hash of arity {} (layers)", c.layers));
    if (c.challenges_per_partition == 0) bad("porep_circuit: challenges_per_partition is 0");
}

} // namespace

g::tree_shape porep_circuit::tree_c_shape(const seal_config& c)
{
    return detail::poseidon_circuit_shape(c.nodes, c.tree, "porep_circuit");
}

g::tree_shape porep_circuit::tree_d_shape(const seal_config& c)
{
    if (c.nodes < 2 || !std::has_single_bit(c.nodes))
        bad(fmt::format("porep_circuit: {} nodes is not a power of two (tree D)", c.nodes));
    g::tree_shape s;
    s.hasher = g::merkle_hasher::sha256;
    s.base_arity = 2;
    s.base_levels = size_t(std::countr_zero(c.nodes));
    return s;
}

porep_circuit::porep_circuit(const seal_config& config) : config_(config)
{
    check_layers(config_);
    challenges_.assign(config_.challenges_per_partition, blank_challenge(config_));
}

porep_circuit::porep_circuit(const c1_output& c1, unsigned partition) : config_(c1.config)
{
    check_layers(config_);
    if (partition >= c1.partitions.size())
        bad(fmt::format("porep_circuit: partition {} out of range (the C1 output has {})", partition,
                        c1.partitions.size()));
    const std::vector<challenge_proof>& proofs = c1.partitions[partition];
    if (proofs.size() != config_.challenges_per_partition)
        bad(fmt::format("porep_circuit: partition {} has {} proofs, the config {} challenges", partition, proofs.size(),
                        config_.challenges_per_partition));
    replica_id_ = domain_to_fr(c1.replica_id, "replica_id");
    comm_d_ = domain_to_fr(c1.comm_d, "comm_d");
    comm_r_ = domain_to_fr(c1.comm_r, "comm_r");
    // Like upstream, the private roots come from the first proof; all must agree.
    const domain& r_last = proofs[0].comm_r_last_proof.root;
    const domain& c = proofs[0].c_x.inclusion.root;
    for (size_t i = 0; i < proofs.size(); ++i) {
        const std::string what = fmt::format("vanilla_proofs[{}][{}]", partition, i);
        if (proofs[i].comm_r_last_proof.root != r_last) bad(what + ": inconsistent comm_r_last");
        if (proofs[i].c_x.inclusion.root != c) bad(what + ": inconsistent comm_c");
        challenges_.push_back(to_challenge(proofs[i], config_, what));
    }
    comm_r_last_ = domain_to_fr(r_last, "comm_r_last");
    comm_c_ = domain_to_fr(c, "comm_c");
}

namespace porep_parts {

globals synthesize_globals(r1cs::constraint_system& cs, const fr& replica_id_v, const fr& comm_d_v, const fr& comm_r_v,
                           const fr& comm_r_last_v, const fr& comm_c_v)
{
    globals gl;
    const g::allocated_num replica_id = g::allocated_num::alloc(cs, replica_id_v);
    replica_id.inputize(cs);
    gl.replica_id_bits = g::reverse_bit_numbering(replica_id.to_bits_le(cs));

    gl.comm_d = g::allocated_num::alloc(cs, comm_d_v);
    gl.comm_d.inputize(cs);
    const g::allocated_num comm_r = g::allocated_num::alloc(cs, comm_r_v);
    comm_r.inputize(cs);
    gl.comm_r_last = g::allocated_num::alloc(cs, comm_r_last_v);
    gl.comm_c = g::allocated_num::alloc(cs, comm_c_v);

    // comm_r = H(comm_c ‖ comm_r_last)
    const std::array<g::allocated_num, 2> pre{gl.comm_c, gl.comm_r_last};
    const g::allocated_num h = g::poseidon_hash(cs, pre);
    g::constraint::equal(cs, comm_r, h);
    return gl;
}

} // namespace porep_parts

void porep_circuit::synthesize(r1cs::constraint_system& cs) const
{
    const porep_parts::globals gl =
        porep_parts::synthesize_globals(cs, replica_id_, comm_d_, comm_r_, comm_r_last_, comm_c_);
    const unsigned segments = porep_parts::segment_count(config_);
    for (const porep_challenge_witness& w : challenges_) {
        porep_parts::challenge_state st;
        for (unsigned s = 0; s < segments; ++s) porep_parts::synthesize_segment(cs, config_, w, gl, st, s);
    }
}

} // namespace cuzk::filecoin
