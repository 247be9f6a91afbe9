// cuzk — the EmptySectorUpdate (SnapDeals) circuit of one partition,
// synthesized constraint for constraint and variable for variable as
// bellperson does (storage-proofs-update circuit.rs and gadgets.rs), so that
// its R1CS is the one Filecoin's update parameters were generated for.
//
// Synthesis, in order (numbers private unless said):
//   k_and_h_select (public), its partition and h-select bits, the
//   decomposition (Σ 2^i·b_i)·1 = k_and_h_select, the partition packed;
//   comm_r_old, comm_d_new, comm_r_new (public); phi = P2c(comm_d_new,
//   comm_r_old); comm_c, root_r_old, root_r_new, the apex leaves, the
//   partition path's siblings; Poseidon2(comm_c, root_r_old) = comm_r_old
//   and the same for new; the apex tree (SHA-256 pairs) and its root's path
//   to comm_d_new; the challenge digests P2c(comm_r_new, digest index), each
//   as 255 bits; then per challenge: rho = P2c(phi, the h high bits of the
//   challenge selected by h_select), leaf_r_old, leaf_d_new, leaf_r_new =
//   leaf_r_old + leaf_d_new·rho, the tree R_old path (siblings first, then
//   per level the insertion and the Poseidon node), the same for tree R_new,
//   the apex leaf selected by the challenge's bits, and the tree D_new path
//   (SHA-256) from leaf_d_new to that apex leaf.
// Inputs (after ONE): k_and_h_select, comm_r_old, comm_d_new, comm_r_new.
// 32 GiB: 81,049,499 constraints (rust-fil-proofs' asserted count).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "cuzk/filecoin/gadgets/por.hpp"
#include "cuzk/filecoin/update/update.hpp"
#include "cuzk/r1cs/constraint_system.hpp"
#include "cuzk/r1cs/pce.hpp"

namespace cuzk::filecoin {

// What the circuit consumes for one challenge.
struct update_circuit_challenge {
    fr leaf_r_old{}, leaf_d_new{};
    std::vector<std::vector<fr>> path_r_old, path_r_new;   // siblings per level, leaf level first
    std::vector<fr> path_d;                                // tree D_new siblings up to the apex leaf
};

// The variables every challenge refers to (made before the first).
struct update_shared {
    std::vector<r1cs::gadgets::boolean> partition_bits, h_select;
    r1cs::gadgets::allocated_num phi, root_r_old, root_r_new;
    std::vector<r1cs::gadgets::allocated_num> apex;
    std::vector<std::vector<r1cs::gadgets::boolean>> generated;   // each challenge's random bits
};

class update_circuit final : public r1cs::circuit {
public:
    // A blank circuit of `config`'s shape (all values zero).
    explicit update_circuit(const update_config& config);
    // Partition k's circuit from its vanilla proof. Throws
    // errc::invalid_argument (counts, shapes) or errc::non_canonical (a value
    // that is not an Fr), naming the field.
    update_circuit(const update_config& config, const update_public& pub, unsigned k,
                   const update_partition_proof& proof);

    void synthesize(r1cs::constraint_system& cs) const override;
    // The same witness, the challenges synthesized concurrently on `threads`
    // threads (0 = all cores), each into its own slice. Always true.
    bool witness(std::vector<fr>& inputs, std::vector<fr>& aux, unsigned threads) const override;
    bool witness_packed(std::vector<fr>& inputs, r1cs::packed_aux_sink& aux, unsigned threads) const override;

    // synthesize() is synthesize_prefix() and then every challenge in order;
    // every challenge allocates the same number of aux variables.
    update_shared synthesize_prefix(r1cs::constraint_system& cs) const;
    void synthesize_challenge(r1cs::constraint_system& cs, const update_shared& shared, size_t n) const;

    const update_config& config() const noexcept { return config_; }
    // Tree R's and the apex path's circuit shapes.
    static r1cs::gadgets::tree_shape tree_r_shape(const update_config& config);

private:
    update_config config_;
    fr k_and_h_select_{}, comm_r_old_{}, comm_d_new_{}, comm_r_new_{};
    fr comm_c_{}, root_r_old_{}, root_r_new_{};
    std::vector<fr> apex_leaves_;
    std::vector<fr> partition_path_;   // partition_bits siblings, from the apex root up
    std::vector<update_circuit_challenge> challenges_;
};

// The aux variables of the prefix and of one challenge, and the number of
// inputs (measured once per shape on counting systems, cached).
struct update_layout {
    size_t prefix_aux = 0, challenge_aux = 0, inputs = 0;
};
update_layout update_layout_of(const update_config& config);

// The R1CS of `config`'s circuit, the challenges recorded concurrently on
// `threads` threads (0 = all cores); equal, array for array, to r1cs::record
// of update_circuit(config) on one thread.
std::shared_ptr<const r1cs::pce> record_update_pce(const update_config& config, unsigned threads = 0);

} // namespace cuzk::filecoin
