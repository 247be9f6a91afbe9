// cuzk — SnapDeals proving and verification (filecoin/update/prove.hpp).
#include "cuzk/filecoin/update/prove.hpp"

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/update/circuit.hpp"
#include "cuzk/groth16/circuit.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/bellperson.hpp"

namespace cuzk::filecoin {

namespace {

void check_sizes(const update_config& config, const std::string& path, const r1cs::pce& pce, size_t aux,
                 size_t inputs)
{
    if (aux != pce.num_aux || inputs != pce.num_inputs)
        throw error(errc::invalid_argument,
                    fmt::format("{}: the key has {} aux variables and {} inputs; the {} update circuit ({} nodes, "
                                "tree {}) has {} and {}",
                                path, aux, inputs, config.name, config.nodes, config.tree.name(), pce.num_aux,
                                pce.num_inputs));
}

} // namespace

update_key update_dev_setup(const update_config& config, bool gpu, unsigned threads)
{
    return porep_dev_setup(record_update_pce(config, threads), gpu, threads);
}

update_key load_update_key(const update_config& config, const std::string& params_path, unsigned threads)
{
    update_key k;
    k.pce = record_update_pce(config, threads);
    k.pk = std::make_shared<const groth16::proving_key>(io::read_params(params_path, subgroup_check::skip, threads));
    check_sizes(config, params_path, *k.pce, k.pk->l.size(), k.pk->vk.ic.size());
    k.density = groth16::density_of(*k.pce);
    return k;
}

update_key map_update_key(const update_config& config, const std::string& params_path, unsigned threads)
{
    update_key k;
    k.params = std::make_shared<const io::mapped_params>(params_path, subgroup_check::skip);
    k.pce = record_update_pce(config, threads);
    check_sizes(config, params_path, *k.pce, k.params->count(io::params_query::l), k.params->vk().ic.size());
    k.pk = std::make_shared<const groth16::proving_key>(k.params->key_shell());
    k.density = groth16::density_of(*k.pce);
    return k;
}

pipeline::proof_request update_proof_request(pipeline::key_id key, const update_config& config,
                                             const update_public& pub,
                                             std::span<const update_partition_proof> partitions, unsigned threads)
{
    if (partitions.size() != config.partitions)
        throw error(errc::invalid_argument, fmt::format("{}: {} partition proofs, an update proof has {}",
                                                        config.name, partitions.size(), config.partitions));
    pipeline::proof_request req;
    req.key = key;
    for (unsigned k = 0; k < config.partitions; ++k) {
        update_check_vanilla(config, pub, k, partitions[k], threads);
        req.partitions.emplace_back(
            std::in_place_type<pipeline::circuit_partition>,
            pipeline::circuit_partition{std::make_shared<const update_circuit>(config, pub, k, partitions[k])});
    }
    return req;
}

std::vector<uint8_t> update_prove(pipeline::engine& engine, pipeline::key_id key, const update_config& config,
                                  const update_public& pub, std::span<const update_partition_proof> partitions,
                                  unsigned threads)
{
    const pipeline::job_handle h = engine.submit(update_proof_request(key, config, pub, partitions, threads));
    const pipeline::job_result& r = h.wait();
    if (r.status != pipeline::job_status::completed) throw error(r.code == errc::ok ? errc::internal : r.code, r.message);
    std::vector<uint8_t> out;
    for (const auto& p : r.partitions) out.insert(out.end(), p.bytes.begin(), p.bytes.end());
    return out;
}

bool update_verify(const groth16::verifying_key& vk, std::span<const uint8_t> proof, const update_config& config,
                   const update_public& pub)
{
    const size_t want = size_t(config.partitions) * 192;
    if (proof.size() != want)
        throw error(errc::bad_length, fmt::format("{} update proof: {} bytes, {} partitions need {}", config.name,
                                                  proof.size(), config.partitions, want));
    std::vector<std::vector<fr>> inputs;
    std::vector<groth16::proof> proofs;
    for (unsigned k = 0; k < config.partitions; ++k) inputs.push_back(update_public_inputs(config, pub, k));
    proofs = io::partition_proofs_from_bytes(proof);
    if (vk.ic.size() != inputs[0].size() + 1)
        throw error(errc::invalid_argument, fmt::format("verifying key: {} public inputs, the {} update circuit has {}",
                                                        vk.ic.size() - 1, config.name, inputs[0].size()));
    return groth16::verify_batch(groth16::prepare_verifying_key(vk), proofs, inputs);
}

} // namespace cuzk::filecoin
