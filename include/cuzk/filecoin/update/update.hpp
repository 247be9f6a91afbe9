// cuzk — Filecoin's sector update (SnapDeals, EmptySectorUpdate): the
// registered proof types, the challenges, the encoding's randomness, and the
// vanilla partition proofs that the Groth16 circuit (circuit.hpp)
// proves.
//
// A sector sealed empty (replica R_old, tree R_old, comm_r_old = Poseidon2(
// comm_c, root of tree R_old)) receives data D_new (tree D_new: the binary
// SHA-256 tree, root comm_d_new). Each node of the new replica is
//   r_new[i] = r_old[i] + d_new[i] · rho(high_h(i)),
// where high_h(i) is the h most significant bits of the node index and
//   phi = P2c(comm_d_new, comm_r_old),  rho(x) = P2c(phi, x),
// P2c being the arity-2 Poseidon hash with neptune's Custom(1) domain tag
// (2^40). Tree R_new has tree R_old's shape; comm_r_new = Poseidon2(comm_c,
// root of tree R_new), with the same comm_c.
//
// The proof has partition_count partitions. Partition k's challenges lie in
// its own 1/partition_count of the sector: digest j of the partition is
// P2c(comm_r_new, k · digests_per_partition + j); its 255 bits (little-
// endian) give floor(254 / b) challenges of b = log2(nodes / partitions)
// bits each, taken in order, and k is appended as the high bits. Each
// challenge opens tree R_old, tree D_new and tree R_new at that node; the
// D_new path is checked only up to its partition's "apex leaves" (the 128,
// or 8 for the smallest sectors, tree D nodes that the partition's subtree
// has at that height), which the partition proof carries and the circuit
// hashes up to comm_d_new once.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cuzk/filecoin/common/merkle_proof.hpp"
#include "cuzk/filecoin/common/types.hpp"

namespace cuzk::filecoin {

struct update_config {
    uint64_t nodes = 0;                // 32-byte nodes of the sector (a power of two)
    tree_shape tree;                   // tree R_old's and tree R_new's arities
    unsigned partitions = 0;           // 1, 2, 4 or 16
    unsigned challenge_count = 0;      // per partition: 10, or 86 from 512 MiB on
    unsigned apex_leaf_count = 0;      // 8, or 128 from 16 KiB on
    std::array<unsigned, 6> hs{};      // the allowed h (bits of rho's index); the circuit selects one
    int registered_id = -1;            // RegisteredUpdateProof's number, -1 for a custom shape
    std::string name;                  // "StackedDrg32GiBV1", or "custom"

    uint64_t sector_bytes() const { return nodes * 32; }
    unsigned challenge_bits() const;   // log2(nodes): tree D's height
    unsigned partition_bits() const;   // log2(partitions)
    unsigned apex_bits() const;        // log2(apex_leaf_count)
    // Random bits per challenge and challenges per digest.
    unsigned random_bits() const { return challenge_bits() - partition_bits(); }
    unsigned challenges_per_digest() const { return 254 / random_bits(); }
    unsigned digests_per_partition() const;
    // The production h (hs[3]: 10 for 8 MiB and larger).
    unsigned h_default() const { return hs[3]; }
    // 2^i where hs[i] = h; errc::invalid_argument when h is not allowed.
    uint64_t h_select(unsigned h) const;

    // The shape rust-fil-proofs gives a sector of `nodes` nodes (one of
    // 2^5, 2^6 … 2^10, 2^18, 2^19, 2^24, 2^30, 2^31) with tree `tree`;
    // errc::invalid_argument for another size or a tree that does not fit.
    static update_config for_nodes(uint64_t nodes, tree_shape tree);
};

// Filecoin's RegisteredUpdateProof `id`: 0..4 StackedDrg 2KiB, 8MiB, 512MiB,
// 32GiB, 64GiB V1. errc::invalid_argument for other numbers.
update_config registered_update_proof(int id);
// The same by name ("StackedDrg32GiBV1"); errc::invalid_argument.
update_config registered_update_proof(std::string_view name);

// phi = P2c(comm_d_new, comm_r_old); rho(x) = P2c(phi, x).
fr update_phi(const domain& comm_d_new, const domain& comm_r_old);
fr update_rho(const fr& phi, uint64_t high);
// The encoding of one node: r_old + d_new · rho.
fr update_encode(const fr& r_old, const fr& d_new, const fr& rho);

// Partition k's challenges (node indexes), challenge_count of them, as
// rust-fil-proofs' Challenges::new yields them. errc::invalid_argument for
// k ≥ partitions.
std::vector<uint32_t> update_challenges(const update_config& config, const domain& comm_r_new, unsigned k);

// What the verifier knows of an update.
struct update_public {
    domain comm_r_old{};
    domain comm_d_new{};
    domain comm_r_new{};
    unsigned h = 0;
};

// The circuit's public inputs (without ONE) for partition k:
// [k | h_select << partition_bits, comm_r_old, comm_d_new, comm_r_new].
std::vector<fr> update_public_inputs(const update_config& config, const update_public& pub, unsigned k);

// One challenge's openings (rust-fil-proofs' vanilla::ChallengeProof).
struct update_challenge_proof {
    merkle_proof r_old;   // tree R_old
    merkle_proof d_new;   // tree D_new (binary, SHA-256)
    merkle_proof r_new;   // tree R_new
    friend bool operator==(const update_challenge_proof&, const update_challenge_proof&) = default;
};

// One partition's vanilla proof (vanilla::PartitionProof).
struct update_partition_proof {
    domain comm_c{};
    std::vector<domain> apex_leaves;                  // apex_leaf_count
    std::vector<update_challenge_proof> challenges;   // challenge_count, in challenge order
    friend bool operator==(const update_partition_proof&, const update_partition_proof&) = default;
};

// Checks partition k's vanilla proof against the public values, as the
// circuit will: comm_c with each tree's root gives comm_r_old and
// comm_r_new, the apex leaves hash up to comm_d_new along the partition's
// path, every challenge is the expected node, every path has the tree's
// shape and reaches its root (the D_new path its apex leaf), and every
// r_new leaf is the encoding of its r_old and d_new leaves. Throws
// errc::bad_format naming the partition, the challenge and the field.
void update_check_vanilla(const update_config& config, const update_public& pub, unsigned k,
                          const update_partition_proof& proof, unsigned threads = 0);

// An update's public values and the vanilla proofs of all its partitions.
struct update_vanilla {
    update_public pub;
    std::vector<update_partition_proof> partitions;
};

// A made-up update of `config` (benchmarks and tests, no sector needed):
// the three trees over leaves that are constant on aligned blocks (the
// largest power of the base arity that leaves at least 2^15 blocks and fits
// a base tree and a region of one rho: single nodes up to 2^17 nodes, 8^5
// for 32 GiB), r_old and d_new random per block, r_new their encoding with
// phi from the made-up commitments and `h`. Values are
// trunc(SHA-256("cuzk-synthetic-update" ‖ seed ‖ tag ‖ block)); the same
// arguments give the same update, and its proofs pass update_check_vanilla.
update_vanilla update_synthetic_vanilla(const update_config& config, unsigned h, uint64_t seed,
                                        unsigned threads = 0);

// The update of the sealed test sector in `dir` (porep/seal.hpp) with new data
// `padded` (Fr32-padded, exactly the sector's bytes, every 32-byte node a
// field element): tree R_old rebuilt from the sector's files (its comm_r
// checked against sector.json), tree D_new over the data, the new replica
// encoded with `h`, tree R_new, and every partition's vanilla proof.
// errc::invalid_argument when the sector's size or tree is not the
// config's; errc::bad_length for data of another size; errc::non_canonical
// naming a data node that is not a field element; errc::bad_format when the
// sector's files do not give its recorded comm_r.
update_vanilla update_sector_vanilla(const std::string& dir, const update_config& config,
                                     std::span<const uint8_t> padded, unsigned h, unsigned threads = 0);

} // namespace cuzk::filecoin
