// cuzk — Filecoin's proofs of spacetime (FallbackPoSt: WindowPoSt and
// WinningPoSt): the registered proof types, the challenges, and the vanilla
// proofs that the Groth16 circuit (circuit.hpp) proves.
//
// A PoSt proves that the prover still holds sealed sectors: for each
// challenged sector, `challenge_count` leaves of its tree R_last are opened
// (a Merkle path to comm_r_last each), and comm_r = Poseidon2(comm_c,
// comm_r_last) ties the tree to the sector's on-chain commitment.
//
// Challenges, as rust-fil-proofs derives them (storage-proofs-post
// fallback): the leaf of challenge index j of sector `id` is
//   u64_le(SHA-256(randomness ‖ u64_le(id) ‖ u64_le(j))[0..8]) mod nodes.
// The index j of the n-th challenge of the sector at position s (counted
// over all partitions) is s · challenge_count + n under API 1.0 (WindowPoSt
// V1 and WinningPoSt), and n alone under API 1.2 (WindowPoSt V1_2, whose
// challenges no longer depend on where a sector sits in the list).
//
// WindowPoSt proves sectors in partitions of `sector_count` (32 GiB: 2349),
// one Groth16 proof each; a last partition short of sectors repeats its last
// sector. WinningPoSt proves one sector with 66 challenges, and its circuit
// treats each challenge as a sector of its own (66 circuit sectors of one
// challenge, all with the same sector's comm_r).
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cuzk/filecoin/common/merkle_proof.hpp"
#include "cuzk/filecoin/common/types.hpp"

namespace cuzk::filecoin {

enum class post_type : uint8_t { winning, window };

struct post_config {
    post_type type = post_type::window;
    uint64_t nodes = 0;                 // 32-byte nodes of a sector
    tree_shape tree;                    // tree R_last's arities
    unsigned sector_count = 0;          // sectors per partition (WinningPoSt: 1)
    unsigned challenge_count = 0;       // challenges per sector (WindowPoSt 10, WinningPoSt 66)
    api_version api = api_version::v1_0;   // v1_0, or v1_2 for WindowPoSt V1_2
    int registered_id = -1;             // RegisteredPoStProof's number, -1 for a custom shape
    std::string name;                   // "StackedDrgWindow32GiBV1_2", or "custom"

    uint64_t sector_bytes() const { return nodes * 32; }
    // The circuit's shape: WindowPoSt sector_count × challenge_count;
    // WinningPoSt challenge_count sectors of one challenge.
    unsigned circuit_sectors() const { return type == post_type::winning ? challenge_count : sector_count; }
    unsigned circuit_challenges() const { return type == post_type::winning ? 1 : challenge_count; }
    // Partitions needed for `sectors` sectors (at least 1).
    unsigned partitions_for(size_t sectors) const;

    // A test shape: nodes must fill the tree (checked as for
    // seal_config::custom); WinningPoSt needs sector_count 1.
    static post_config custom(post_type type, uint64_t nodes, tree_shape tree, unsigned sector_count,
                              unsigned challenge_count, api_version api = api_version::v1_0);
};

// Filecoin's RegisteredPoStProof `id`: 0..4 WinningPoSt 2KiB, 8MiB, 512MiB,
// 32GiB, 64GiB (V1); 5..9 WindowPoSt V1; 10..14 WindowPoSt V1_2. Throws
// errc::invalid_argument for other numbers.
post_config registered_post_proof(int id);
// The same by name ("StackedDrgWindow32GiBV1_2"); errc::invalid_argument.
post_config registered_post_proof(std::string_view name);

// The challenge index of the n-th challenge of the sector at position
// `sector_index` (over all partitions), per the API version.
uint64_t post_challenge_index(api_version api, uint64_t sector_index, unsigned challenge_count, unsigned n);
// The challenged leaf of challenge index `index` of sector `sector_id`.
uint64_t post_leaf_challenge(const domain& randomness, uint64_t sector_id, uint64_t index, uint64_t nodes);
// The challenged leaves of every sector of `sector_ids` (the list a prover
// proves, in its order), challenge_count each: what filecoin-proofs'
// generate_fallback_sector_challenges returns (as a list in sector order).
std::vector<std::vector<uint64_t>> post_sector_challenges(const post_config& config, const domain& randomness,
                                                          std::span<const uint64_t> sector_ids);
// WinningPoSt's choice of `count` sectors out of `sector_set_len` (indexes
// into the prover's sector set): u64_le(SHA-256(prover_id ‖ randomness ‖
// u64_le(n))[0..8]) mod sector_set_len for n in 0..count.
std::vector<uint64_t> winning_post_sector_challenge(const domain& randomness, const domain& prover_id,
                                                    uint64_t sector_set_len, unsigned count = 1);

// One sector's vanilla proof (filecoin-proofs' FallbackPoStSectorProof with
// its one SectorProof): the inclusion proof in tree R_last of each of the
// sector's challenged leaves, in challenge order.
struct post_sector_proof {
    uint64_t sector_id = 0;
    domain comm_r{};
    domain comm_c{};
    domain comm_r_last{};
    std::vector<merkle_proof> inclusion_proofs;
    friend bool operator==(const post_sector_proof&, const post_sector_proof&) = default;
};

// A sector the verifier knows: its number and comm_r.
struct post_public_sector {
    uint64_t sector_id = 0;
    domain comm_r{};
};

// The vanilla proof of the sealed test sector in `dir` (porep/seal.hpp) for the
// challenged leaves `challenges` (from post_sector_challenges): tree R_last
// is rebuilt from the sector's files and checked against sector.json.
// errc::invalid_argument when the sector's size or tree shape is not the
// config's.
post_sector_proof post_vanilla_proof(const std::string& dir, const post_config& config,
                                     std::span<const uint64_t> challenges, unsigned threads = 0);

// A sector whose vanilla proof does not check: its place in the list, its
// number, and what is wrong (naming the proof and the field).
struct post_fault {
    size_t index = 0;
    uint64_t sector_id = 0;
    std::string what;
};

// Checks the vanilla proofs of partition `partition` against the public
// sectors of that partition (at most sector_count; WinningPoSt: the one
// sector) and the randomness: for each sector, comm_r = Poseidon2(comm_c,
// comm_r_last), challenge_count inclusion proofs, each a valid path of the
// config's tree shape to comm_r_last whose leaf is the challenged one.
// Returns every faulty sector, in list order (empty: all check), as
// filecoin-proofs reports its FaultySectors; errc::invalid_argument when the
// counts do not fit the partition.
std::vector<post_fault> post_find_faults(const post_config& config, const domain& randomness,
                                         std::span<const post_public_sector> sectors,
                                         std::span<const post_sector_proof> proofs, unsigned partition,
                                         unsigned threads = 0);
// The same, throwing errc::bad_format when any sector is faulty: the message
// lists the faulty sectors' numbers and says what is wrong with the first.
void post_check_vanilla(const post_config& config, const domain& randomness,
                        std::span<const post_public_sector> sectors, std::span<const post_sector_proof> proofs,
                        unsigned partition, unsigned threads = 0);

// A prover's whole list: each proof's own number and comm_r taken as its
// public sector, the list proved as partitions first_partition,
// first_partition + 1, … of sector_count sectors. The faults of every
// partition (index counted over the whole list); errc::invalid_argument for
// an empty list, or WinningPoSt other than one sector as partition 0.
std::vector<post_fault> post_find_faults(const post_config& config, const domain& randomness,
                                         std::span<const post_sector_proof> proofs, unsigned first_partition,
                                         unsigned threads = 0);
// The same, throwing errc::bad_format as post_check_vanilla does.
void post_check_vanilla(const post_config& config, const domain& randomness,
                        std::span<const post_sector_proof> proofs, unsigned first_partition, unsigned threads = 0);

// Each proof's number and comm_r, in order (a prover's public sectors).
std::vector<post_public_sector> post_public_sectors(std::span<const post_sector_proof> proofs);

// Partition p of a list of sectors (sector_count a partition; the last may
// be short).
template <class T>
std::span<const T> post_partition_of(std::span<const T> all, const post_config& config, unsigned p)
{
    const size_t first = size_t(p) * config.sector_count;
    return all.subspan(first, std::min<size_t>(config.sector_count, all.size() - first));
}

// Vanilla proofs of `sectors` made-up sectors for `config` without sealing
// anything (benchmarks and tests of full-size circuits): sector i has number
// first_sector + i, each challenged leaf a value, and a sparse tree R_last
// (every untouched subtree next to a touched path one value standing for its
// hash, the touched nodes hashed up to one root), a random comm_c and
// comm_r = Poseidon2(comm_c, comm_r_last). Values are
// trunc(SHA-256("cuzk-synthetic-post" ‖ seed ‖ tag ‖ a ‖ b ‖ c)), integers
// u64 LE. The proofs pass post_check_vanilla for `randomness` (the sectors
// at positions 0, 1, … of the list); the same arguments give the same proofs.
std::vector<post_sector_proof> post_synthetic_vanilla(const post_config& config, const domain& randomness,
                                                      size_t sectors, uint64_t seed, uint64_t first_sector = 1,
                                                      unsigned threads = 0);

} // namespace cuzk::filecoin
