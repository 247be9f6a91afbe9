// cuzk — the FallbackPoSt circuit (WindowPoSt and WinningPoSt), synthesized
// constraint for constraint and variable for variable as bellperson does
// (storage-proofs-post fallback/circuit.rs), so that its R1CS is the one
// Filecoin's PoSt parameters were generated for.
//
// Synthesis, per circuit sector in order (all numbers private unless said):
//   comm_r_last, comm_c, comm_r allocated in that order; comm_r made public;
//   Poseidon2(comm_c, comm_r_last) computed and enforced equal to comm_r;
//   then per challenge the PoR of tree R_last with a private root
//   (gadgets/por.hpp): the leaf allocated, the path (per level the index
//   bits, the siblings, the insertion, the Poseidon node hash), the path
//   bits packed into one public input (the challenged leaf's index), the
//   computed root enforced equal to comm_r_last.
// Inputs (after ONE), per circuit sector: comm_r, then one per challenge.
// 32 GiB WindowPoSt: 2349 sectors × (313 + 10 × 5302) = 125,279,217
// constraints, 25,840 inputs with ONE.
//
// The circuit sectors come from the vanilla proofs of one partition:
// WindowPoSt takes 1..sector_count sectors and repeats the last to fill
// sector_count; WinningPoSt's one sector becomes challenge_count circuit
// sectors, one inclusion proof each.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "cuzk/filecoin/gadgets/por.hpp"
#include "cuzk/filecoin/post/post.hpp"
#include "cuzk/r1cs/constraint_system.hpp"
#include "cuzk/r1cs/pce.hpp"

namespace cuzk::filecoin {

// What the circuit consumes for one circuit sector.
struct post_circuit_sector {
    fr comm_r{}, comm_c{}, comm_r_last{};
    std::vector<fr> leaves;                                    // per challenge
    std::vector<std::vector<r1cs::gadgets::path_level>> paths;  // per challenge, leaf level first
};

class post_circuit final : public r1cs::circuit {
public:
    // A blank circuit of `config`'s shape (all values zero).
    explicit post_circuit(const post_config& config);
    // The circuit of one partition from its sectors' vanilla proofs (as
    // above). Throws errc::invalid_argument (counts, shapes) or
    // errc::non_canonical (a value that is not an Fr), naming the proof.
    post_circuit(const post_config& config, std::span<const post_sector_proof> proofs);

    void synthesize(r1cs::constraint_system& cs) const override;
    // The witness of synthesize(), bit for bit, with the circuit sectors
    // synthesized concurrently on `threads` threads (0 = all cores), each
    // into its own slice (a repeated sector's slice copied from the sector
    // it repeats). Always returns true.
    bool witness(std::vector<fr>& inputs, std::vector<fr>& aux, unsigned threads) const override;
    bool witness_packed(std::vector<fr>& inputs, r1cs::packed_aux_sink& aux, unsigned threads) const override;

    const post_config& config() const noexcept { return config_; }
    const std::vector<post_circuit_sector>& sectors() const noexcept { return sectors_; }
    // How many leading circuit sectors the witnesses synthesize: those made
    // from the vanilla proofs (1 for a blank circuit). The sectors after
    // them repeat the last of those (a short WindowPoSt partition's
    // filling), and their witness slices are copied from its slice.
    size_t distinct_sectors() const noexcept { return distinct_; }
    // Tree R_last's circuit shape for `config`.
    static r1cs::gadgets::tree_shape tree_shape_of(const post_config& config);

private:
    post_config config_;
    std::vector<post_circuit_sector> sectors_;
    size_t distinct_ = 0;
};

// One circuit sector's synthesis (the unit the circuit repeats).
void post_synthesize_sector(r1cs::constraint_system& cs, const r1cs::gadgets::tree_shape& shape,
                            const post_circuit_sector& s);

// The R1CS of `config`'s circuit, the sectors recorded concurrently on
// `threads` threads (0 = all cores); equal, array for array, to
// r1cs::record of post_circuit(config) on one thread.
std::shared_ptr<const r1cs::pce> record_post_pce(const post_config& config, unsigned threads = 0);

// The public inputs (without ONE) of partition `partition`, from the
// verifier's view: the partition's sectors (1..sector_count; WinningPoSt
// the one sector) and the randomness, as filecoin-proofs'
// generate_public_inputs makes them (a short partition repeats its last
// sector's inputs).
std::vector<fr> post_public_inputs(const post_config& config, const domain& randomness,
                                   std::span<const post_public_sector> sectors, unsigned partition);

} // namespace cuzk::filecoin
