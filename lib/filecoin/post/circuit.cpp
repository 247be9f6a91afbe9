// cuzk — the FallbackPoSt circuit (filecoin/post/circuit.hpp): circuit
// sectors from vanilla proofs, synthesis, and the public inputs.
#include "cuzk/filecoin/post/circuit.hpp"

#include <array>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/gadgets/poseidon.hpp"
#include "filecoin/gadgets/circuit_paths.hpp"

namespace cuzk::filecoin {

namespace g = r1cs::gadgets;

namespace {

[[noreturn]] void bad(const std::string& msg) { throw error(errc::invalid_argument, msg); }

post_circuit_sector blank_sector(const post_config& c, const g::tree_shape& shape)
{
    post_circuit_sector s;
    s.leaves.assign(c.circuit_challenges(), fr::zero());
    s.paths.assign(c.circuit_challenges(), detail::blank_path(shape));
    return s;
}

// The circuit sector of `proof`, with its inclusion proofs [first, first + count).
post_circuit_sector to_sector(const post_sector_proof& proof, size_t first, size_t count, const g::tree_shape& shape,
                              const std::string& what)
{
    post_circuit_sector s;
    s.comm_r = domain_to_fr(proof.comm_r, what + ".comm_r");
    s.comm_c = domain_to_fr(proof.comm_c, what + ".comm_c");
    s.comm_r_last = domain_to_fr(proof.comm_r_last, what + ".comm_r_last");
    for (size_t n = first; n < first + count; ++n) {
        const std::string p = fmt::format("{}.inclusion_proofs[{}]", what, n);
        s.leaves.push_back(domain_to_fr(proof.inclusion_proofs[n].leaf, p + ".leaf"));
        s.paths.push_back(detail::to_path(proof.inclusion_proofs[n], shape, p));
    }
    return s;
}

} // namespace

g::tree_shape post_circuit::tree_shape_of(const post_config& config)
{
    return detail::poseidon_circuit_shape(config.nodes, config.tree, "post_circuit");
}

post_circuit::post_circuit(const post_config& config) : config_(config)
{
    sectors_.assign(config.circuit_sectors(), blank_sector(config, tree_shape_of(config)));
    distinct_ = sectors_.empty() ? 0 : 1;
}

post_circuit::post_circuit(const post_config& config, std::span<const post_sector_proof> proofs) : config_(config)
{
    const g::tree_shape shape = tree_shape_of(config);
    const bool winning = config.type == post_type::winning;
    if (proofs.empty() || proofs.size() > config.sector_count)
        bad(fmt::format("post_circuit: {} vanilla proofs; a partition of {} takes 1..{}", proofs.size(), config.name,
                        config.sector_count));
    for (size_t i = 0; i < proofs.size(); ++i)
        if (proofs[i].inclusion_proofs.size() != config.challenge_count)
            bad(fmt::format("post_circuit: vanilla proof {} (sector {}) has {} inclusion proofs, {} needs {}", i,
                            proofs[i].sector_id, proofs[i].inclusion_proofs.size(), config.name,
                            config.challenge_count));
    if (winning) {
        for (unsigned n = 0; n < config.challenge_count; ++n)
            sectors_.push_back(to_sector(proofs[0], n, 1, shape, "vanilla proof 0"));
        distinct_ = sectors_.size();
        return;
    }
    for (size_t i = 0; i < proofs.size(); ++i)
        sectors_.push_back(
            to_sector(proofs[i], 0, config.challenge_count, shape, fmt::format("vanilla proof {}", i)));
    distinct_ = sectors_.size();
    while (sectors_.size() < config.sector_count) sectors_.push_back(sectors_.back());
}

void post_synthesize_sector(r1cs::constraint_system& cs, const g::tree_shape& shape, const post_circuit_sector& s)
{
    const g::allocated_num comm_r_last = g::allocated_num::alloc(cs, s.comm_r_last);
    const g::allocated_num comm_c = g::allocated_num::alloc(cs, s.comm_c);
    const g::allocated_num comm_r = g::allocated_num::alloc(cs, s.comm_r);
    comm_r.inputize(cs);
    const std::array<g::allocated_num, 2> pre{comm_c, comm_r_last};
    g::constraint::equal(cs, comm_r, g::poseidon_hash(cs, pre));
    for (size_t n = 0; n < s.leaves.size(); ++n)
        g::por_synthesize(cs, shape, g::num_or_value::of(s.leaves[n]), s.paths[n], g::num_or_value::of(comm_r_last),
                          true);
}

void post_circuit::synthesize(r1cs::constraint_system& cs) const
{
    const g::tree_shape shape = tree_shape_of(config_);
    for (const post_circuit_sector& s : sectors_) post_synthesize_sector(cs, shape, s);
}

std::vector<fr> post_public_inputs(const post_config& config, const domain& randomness,
                                   std::span<const post_public_sector> sectors, unsigned partition)
{
    const bool winning = config.type == post_type::winning;
    if (sectors.empty() || sectors.size() > config.sector_count)
        bad(fmt::format("post_public_inputs: {} sectors; a partition of {} has 1..{}", sectors.size(), config.name,
                        config.sector_count));
    // WinningPoSt's verifier lists its one sector once per circuit sector.
    std::vector<post_public_sector> list(sectors.begin(), sectors.end());
    if (winning) list.assign(config.circuit_sectors(), sectors[0]);
    const unsigned per_sector = config.circuit_challenges();
    std::vector<fr> inputs;
    for (size_t i = 0; i < list.size(); ++i) {
        inputs.push_back(domain_to_fr(list[i].comm_r, fmt::format("sector {}: comm_r", list[i].sector_id)));
        const uint64_t position = uint64_t(partition) * config.circuit_sectors() + i;
        for (unsigned n = 0; n < per_sector; ++n) {
            const uint64_t index = post_challenge_index(config.api, position, per_sector, n);
            inputs.push_back(fr::from_u64(post_leaf_challenge(randomness, list[i].sector_id, index, config.nodes)));
        }
    }
    const size_t one = 1 + per_sector;
    while (inputs.size() < size_t(config.circuit_sectors()) * one) {
        const std::vector<fr> last(inputs.end() - one, inputs.end());
        inputs.insert(inputs.end(), last.begin(), last.end());
    }
    return inputs;
}

} // namespace cuzk::filecoin
