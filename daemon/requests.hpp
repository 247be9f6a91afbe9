// cuzk serve — a SubmitProofRequest as Curio sends it, decoded and checked
// into what a job proves (the circuit, the engine's partitions, the
// verification of the result).
//
//   PoRep C2      vanilla_proof = JSON {"SectorNum": n, "Phase1Out": "<standard
//                 base64 of the C1 output JSON>", "SectorSize": n}; the prover
//                 id is miner_id as Filecoin encodes an actor id (unsigned
//                 LEB128, zero-padded to 32 bytes) and, with sector_number,
//                 must give the C1 output's replica_id.
//   SnapDeals     vanilla_proofs = one bincode PartitionProof per partition;
//                 comm_r_old, comm_r_new, comm_d_new 32 bytes each.
//   WindowPoSt    vanilla_proofs = one bincode FallbackPoStSectorProof per
//                 sector of the partition partition_index; randomness 32 bytes.
//   WinningPoSt   the same, one sector.
// Whatever can be checked from the request alone is checked here and
// refused with a request_error naming the field (INVALID_ARGUMENT); what
// needs the circuit's work (the C1 output's paths and labels, the vanilla
// proofs against their roots) runs in the job (decoded::check, make) and
// fails the job (FAILED) with the field named.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "circuits.hpp"
#include "cuzk/filecoin/common/types.hpp"
#include "cuzk/groth16/types.hpp"
#include "cuzk/pipeline/engine.hpp"
#include "cuzk/v1/proving.pb.h"

namespace cuzk::daemon {

// A request the daemon refuses as it is; what() names the field.
struct request_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct decoded_request {
    circuit c;
    int priority = 2;          // Priority's number; 0 in the request = the kind's default
    unsigned partitions = 1;   // 192-byte proofs in the result
    // The checks that need real work (run on the job's thread; throw
    // cuzk::error naming the field).
    std::function<void(unsigned threads)> check;
    // The engine job for the circuit's key (throws cuzk::error naming the field).
    std::function<pipeline::proof_request(pipeline::key_id key, unsigned threads)> make;
    // True when the concatenated proof verifies under vk for this request's public values.
    std::function<bool(const groth16::verifying_key& vk, std::span<const uint8_t> proof)> verify;
};

decoded_request decode_request(const v1::SubmitProofRequest& r);

// Standard base64 (RFC 4648, with padding); request_error naming `what` and
// the offset of the first bad character.
std::string base64_decode(std::string_view text, const std::string& what);
// Standard base64 with padding (the client's PoRep wrapper).
std::string base64_encode(std::string_view bytes);

} // namespace cuzk::daemon
