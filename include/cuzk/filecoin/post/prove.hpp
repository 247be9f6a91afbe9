// cuzk — FallbackPoSt (WindowPoSt, WinningPoSt): Groth16 proofs of vanilla
// PoSt proofs on the proving engine, and their verification.
//
// A PoSt key is a bellperson-convention key for the FallbackPoSt circuit of
// one proof type (circuit.hpp) with that circuit's recorded R1CS; it
// has the same parts as a PoRep key (porep_key). A WindowPoSt of n sectors
// is ceil(n / sector_count) partitions, one 192-byte proof each; Curio and
// Lotus prove one partition per call (filecoin-proofs'
// generate_single_window_post_with_vanilla), which is `post_prove` with
// that partition's sectors and its index. WinningPoSt is one proof of one
// sector.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cuzk/filecoin/porep/prove.hpp"
#include "cuzk/filecoin/post/post.hpp"
#include "cuzk/groth16/types.hpp"
#include "cuzk/pipeline/engine.hpp"

namespace cuzk::filecoin {

using post_key = porep_key;   // the same parts: proving key, PCE, density, optional mapping

// A development key (NOT a trusted ceremony) for `config`'s circuit.
post_key post_dev_setup(const post_config& config, bool gpu, unsigned threads = 0);
// A bellperson .params key for `config`'s circuit, decoded (load) or mapped
// (map: the points stay in the file; see map_porep_key). errc::invalid_argument
// naming the file when its sizes are not the circuit's.
post_key load_post_key(const post_config& config, const std::string& params_path, unsigned threads = 0);
post_key map_post_key(const post_config& config, const std::string& params_path, unsigned threads = 0);

// Proves the sectors of `proofs` (in order) as partitions first_partition,
// first_partition + 1, … of sector_count sectors each (WinningPoSt: exactly
// one sector, partition 0), as one engine job. Every partition's vanilla
// proofs are checked first (post_check_vanilla: errc::bad_format naming the
// sector and proof). Returns the proofs concatenated, 192 bytes each.
std::vector<uint8_t> post_prove(pipeline::engine& engine, pipeline::key_id key, const post_config& config,
                                const domain& randomness, std::span<const post_sector_proof> proofs,
                                unsigned first_partition = 0, unsigned threads = 0);

// The engine job post_prove submits, for a caller that submits and waits
// itself (the C ABI): the same checks, one circuit a partition.
pipeline::proof_request post_proof_request(pipeline::key_id key, const post_config& config, const domain& randomness,
                                           std::span<const post_sector_proof> proofs, unsigned first_partition = 0,
                                           unsigned threads = 0);

// True when `proof` (192 bytes per partition) verifies for the sectors (the
// verifier's list, in the prover's order) and the randomness, partitions
// numbered from first_partition. errc::bad_length for a proof of the wrong
// size; errc::invalid_argument when vk's input count is not the circuit's.
bool post_verify(const groth16::verifying_key& vk, std::span<const uint8_t> proof, const post_config& config,
                 const domain& randomness, std::span<const post_public_sector> sectors, unsigned first_partition = 0);

} // namespace cuzk::filecoin
