// cuzk — the PoRep circuit of one partition (Filecoin's StackedCircuit),
// synthesized constraint for constraint and variable for variable as
// bellperson does, so that its R1CS is the one Filecoin's published Groth16
// parameters were generated for.
//
// Synthesis order (all numbers private unless said otherwise):
//   replica_id: allocated, made public (input 1), decomposed into 255 bits
//     (to_bits_le) whose bytes are bit-reversed (SHA order);
//   comm_d and comm_r: allocated and made public (inputs 2 and 3);
//   comm_r_last and comm_c: allocated; comm_r = Poseidon2(comm_c, comm_r_last)
//     is enforced;
//   then for each challenge of the partition:
//     the data leaf, and its inclusion in comm_d (binary SHA-256 tree; the
//       path bits become one input, the root stays private);
//     the 6 DRG and 8 expander parent columns: each column's rows allocated,
//       hashed with Poseidon of arity `layers`, and included in tree C
//       (one input each);
//     the challenge as 64 allocated bits, packed into one input;
//     per layer 1..L the label: the parents' rows in bits (this layer's rows
//       of the DRG parents; from layer 2 on also the previous layer's rows of
//       the expander parents), repeated to 37, and SHA-256 of
//       replica_id ‖ layer (u32 BE, a constant) ‖ node (u64 BE) ‖ zeros ‖ 37
//       parents (1248 bytes), whose first 254 bits (little-endian) make the
//       label;
//     the encoded node label_L + data leaf, included in tree R_last;
//     the column hash of the L labels, included in tree C.
// Inputs (after ONE): replica_id, comm_d, comm_r, then 18 per challenge;
// they equal porep_public_inputs() of the partition.
//
// A blank circuit (config only) has the same shape with zero values: for
// recording the R1CS (recording_cs) or counting it (counting_cs).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/filecoin/common/types.hpp"
#include "cuzk/filecoin/gadgets/por.hpp"
#include "cuzk/filecoin/porep/vanilla.hpp"
#include "cuzk/r1cs/constraint_system.hpp"
#include "cuzk/r1cs/gadgets/num.hpp"
#include "cuzk/r1cs/gadgets/uint64.hpp"

namespace cuzk::filecoin {

// The circuit's view of one parent column: its rows and its tree-C path.
struct porep_column_witness {
    std::vector<fr> rows;                              // layers values
    std::vector<r1cs::gadgets::path_level> path;       // tree C, leaf level first
};

// Everything the circuit consumes for one challenge.
struct porep_challenge_witness {
    uint64_t challenge = 0;
    fr data_leaf{};
    std::vector<r1cs::gadgets::path_level> comm_d_path;       // binary SHA-256 tree
    std::vector<porep_column_witness> drg_parents;            // 6
    std::vector<porep_column_witness> exp_parents;            // 8
    std::vector<r1cs::gadgets::path_level> comm_r_last_path;  // tree R_last
    std::vector<r1cs::gadgets::path_level> comm_c_path;       // tree C, the challenged column
};

class porep_circuit final : public r1cs::circuit {
public:
    // A blank circuit of `config`'s shape (challenges_per_partition
    // challenges; all values zero).
    explicit porep_circuit(const seal_config& config);
    // The circuit of partition `partition` of a C1 output. Throws
    // errc::invalid_argument (shape mismatch, partition out of range) or
    // errc::non_canonical (a value is not an Fr), naming the field.
    porep_circuit(const c1_output& c1, unsigned partition);

    void synthesize(r1cs::constraint_system& cs) const override;
    // The witness of synthesize() (bit for bit), built in parallel on
    // `threads` threads (0 = all cores): the global part first, then every
    // challenge's segments concurrently, each straight into its own slice of
    // one pre-sized aux vector (see lib/filecoin/porep/witness.cpp). Always
    // returns true.
    bool witness(std::vector<fr>& inputs, std::vector<fr>& aux, unsigned threads) const override;
    // The same witness with each segment synthesized on the system `aux`
    // opens for its slice (values go to the sink as they are allocated): the
    // full aux vector is never made. Always returns true.
    bool witness_packed(std::vector<fr>& inputs, r1cs::packed_aux_sink& aux, unsigned threads) const override;

    const seal_config& config() const noexcept { return config_; }
    const std::vector<porep_challenge_witness>& challenges() const noexcept { return challenges_; }

    // The circuit's tree shapes: tree C / R_last (Poseidon, the config's
    // arities) and tree D (binary SHA-256 over the nodes).
    static r1cs::gadgets::tree_shape tree_c_shape(const seal_config& config);
    static r1cs::gadgets::tree_shape tree_d_shape(const seal_config& config);

private:
    struct aux_target;   // where the segments' aux goes (lib/filecoin/porep/witness.cpp)
    void fill(std::vector<fr>& inputs, aux_target& aux, unsigned threads) const;
    size_t aux_count(unsigned threads) const;

    seal_config config_;
    fr replica_id_{}, comm_d_{}, comm_r_{}, comm_r_last_{}, comm_c_{};
    std::vector<porep_challenge_witness> challenges_;
};

// create_label_circuit: the label of `node` in `layer` from the replica id's
// bits (at most 256, SHA order), 37 parents' bits (each at most 256, SHA
// order) and the node's bits. Returns the label as a new number (the first
// 254 little-endian bits of the digest, packed). Throws
// errc::invalid_argument for a wrong parent count or oversized inputs.
r1cs::gadgets::allocated_num porep_label_circuit(r1cs::constraint_system& cs,
                                                 std::span<const r1cs::gadgets::boolean> replica_id_bits,
                                                 std::span<const std::vector<r1cs::gadgets::boolean>> parents,
                                                 uint32_t layer, const r1cs::gadgets::uint64& node);

} // namespace cuzk::filecoin
