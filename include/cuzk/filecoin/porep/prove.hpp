// cuzk — PoRep C2: proving a C1 output's partitions with Groth16, and
// verifying the result.
//
// A PoRep key is a bellperson-convention Groth16 key for one circuit shape
// (nodes, layers, challenges per partition, tree arities) together with that
// circuit's recorded R1CS (PCE), which the prover evaluates for a, b and c.
// C2 runs every partition of a C1 output through the proving engine (the CPU
// or the CUDA backend) and returns the proofs concatenated in partition
// order, 192 bytes each (zcash/bellperson encoding): 1920 bytes for 32 GiB.
// Verification rebuilds each partition's public inputs from the commitments,
// replica id and seed, and checks all partitions in one batch.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cuzk/filecoin/common/types.hpp"
#include "cuzk/filecoin/porep/pce_cache.hpp"
#include "cuzk/filecoin/porep/vanilla.hpp"
#include "cuzk/groth16/types.hpp"
#include "cuzk/io/bellperson.hpp"
#include "cuzk/pipeline/engine.hpp"
#include "cuzk/r1cs/pce.hpp"

namespace cuzk::filecoin {

// The R1CS of one partition's circuit for `config`'s shape, recorded from the
// blank circuit (values ignored): its challenges' segments concurrently on
// `threads` threads (0 = all cores), equal array for array to r1cs::record
// of porep_circuit(config) on one thread (lib/filecoin/porep/record.cpp).
std::shared_ptr<const r1cs::pce> record_porep_pce(const seal_config& config, unsigned threads = 0);

// pk is the whole key, or for a mapped key (params not null) its shell: vk
// and sizes, empty point vectors (io::mapped_params::key_shell). params is
// null for decoded and development keys.
struct porep_key {
    std::shared_ptr<const groth16::proving_key> pk;
    std::shared_ptr<const r1cs::pce> pce;
    groth16::query_density density;
    std::shared_ptr<const io::mapped_params> params;
};

// A single-party development key (NOT a trusted ceremony), on the GPU when
// `gpu` (the device's fixed-base tables), else on the CPU.
porep_key porep_dev_setup(std::shared_ptr<const r1cs::pce> pce, bool gpu, unsigned threads = 0);

// A bellperson .params key for `config`'s circuit; errc::invalid_argument
// naming the file when its sizes do not match the circuit. The circuit comes
// from porep_pce (pce_cache.hpp): recorded, or with pce_cache_dir
// mapped from its cached file (written there on the first use); `source`,
// when given, says which.
porep_key load_porep_key(const seal_config& config, const std::string& params_path, unsigned threads = 0,
                         const std::string& pce_cache_dir = {}, porep_pce_source* source = nullptr);

// The same key mapped, not decoded: the verifying key is read and checked,
// the sizes are checked against the circuit (same errors), and the points
// stay in the file for the engine to decode where it needs them (straight
// into device memory on the cuda backend; see engine::add_key). A 32 GiB
// key's .params is ~47 GB: this keeps it out of host memory.
// The circuit as for load_porep_key.
porep_key map_porep_key(const seal_config& config, const std::string& params_path,
                        const std::string& pce_cache_dir = {}, porep_pce_source* source = nullptr);

// Registers `key` with `engine`: from the mapping when key.params is set
// (engine::add_key of io::mapped_params; the cpu backend decodes it there),
// else the proving key.
pipeline::key_id add_porep_key(pipeline::engine& engine, const porep_key& key, const pipeline::key_options& opt = {});

struct c2_output {
    std::vector<uint8_t> proof;                 // 192 bytes per partition, in partition order
    std::vector<std::vector<fr>> inputs;        // each partition's public inputs (without ONE)
};

// Proves every partition of `c1` on `engine`'s key `key`. The partitions go
// as one job; progress(done, total) is called as partitions finish.
c2_output porep_c2(pipeline::engine& engine, pipeline::key_id key, const c1_output& c1,
                   const std::function<void(unsigned, unsigned)>& progress = {});

// The public inputs of every partition (without ONE).
std::vector<std::vector<fr>> porep_inputs(const seal_config& config, const domain& replica_id, const domain& comm_d,
                                          const domain& comm_r, const domain& seed);

// True when `proof` (192 bytes per partition of config) verifies for the
// given commitments. A proof of the wrong length or with a bad encoding
// throws errc::bad_length / the decoding error.
bool porep_verify(const groth16::verifying_key& vk, std::span<const uint8_t> proof, const seal_config& config,
                  const domain& replica_id, const domain& comm_d, const domain& comm_r, const domain& seed);

} // namespace cuzk::filecoin
