// cuzk — SnapDeals (EmptySectorUpdate): Groth16 proofs of vanilla partition
// proofs on the proving engine, and their verification.
//
// An update key is a bellperson-convention key for the EmptySectorUpdate
// circuit of one sector size (circuit.hpp) with that circuit's
// recorded R1CS; it has the same parts as a PoRep key (porep_key). An
// update proof is one 192-byte Groth16 proof per partition, partitions 0 …
// partitions − 1 in order (32 GiB: 16, 3072 bytes): what filecoin-proofs'
// generate_empty_sector_update_proof_with_vanilla returns.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cuzk/filecoin/porep/prove.hpp"
#include "cuzk/filecoin/update/update.hpp"
#include "cuzk/groth16/types.hpp"
#include "cuzk/pipeline/engine.hpp"

namespace cuzk::filecoin {

using update_key = porep_key;

// A development key (NOT a trusted ceremony) for `config`'s circuit.
update_key update_dev_setup(const update_config& config, bool gpu, unsigned threads = 0);
// A bellperson .params key for `config`'s circuit, decoded (load) or mapped
// (map: the points stay in the file). errc::invalid_argument naming the file
// when its sizes are not the circuit's.
update_key load_update_key(const update_config& config, const std::string& params_path, unsigned threads = 0);
update_key map_update_key(const update_config& config, const std::string& params_path, unsigned threads = 0);

// The engine job of an update proof: every partition's vanilla proof
// (`partitions` of them, in order) checked first (update_check_vanilla:
// errc::bad_format naming the partition, challenge and field), one circuit
// a partition. errc::invalid_argument for another number of partitions.
pipeline::proof_request update_proof_request(pipeline::key_id key, const update_config& config,
                                             const update_public& pub,
                                             std::span<const update_partition_proof> partitions,
                                             unsigned threads = 0);
// Submits that job and waits: the proofs concatenated, 192 bytes each.
std::vector<uint8_t> update_prove(pipeline::engine& engine, pipeline::key_id key, const update_config& config,
                                  const update_public& pub, std::span<const update_partition_proof> partitions,
                                  unsigned threads = 0);
// True when `proof` (192 bytes per partition) verifies for the public
// values. errc::bad_length for a proof of the wrong size;
// errc::invalid_argument when vk's input count is not the circuit's or h is
// not allowed.
bool update_verify(const groth16::verifying_key& vk, std::span<const uint8_t> proof, const update_config& config,
                   const update_public& pub);

} // namespace cuzk::filecoin
