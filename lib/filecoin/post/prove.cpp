// cuzk — FallbackPoSt proving and verification (filecoin/post/prove.hpp).
#include "cuzk/filecoin/post/prove.hpp"

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/post/circuit.hpp"
#include "cuzk/groth16/circuit.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/bellperson.hpp"

namespace cuzk::filecoin {

namespace {

void check_post_sizes(const post_config& config, const std::string& path, const r1cs::pce& pce, size_t aux,
                      size_t inputs)
{
    if (aux != pce.num_aux || inputs != pce.num_inputs)
        throw error(errc::invalid_argument,
                    fmt::format("{}: the key has {} aux variables and {} inputs; the {} circuit ({} sectors × {} "
                                "challenges, {} nodes, tree {}) has {} and {}",
                                path, aux, inputs, config.name, config.circuit_sectors(), config.circuit_challenges(),
                                config.nodes, config.tree.name(), pce.num_aux, pce.num_inputs));
}

// The verifier's sector count: at least one; WinningPoSt exactly one.
void check_count(const post_config& config, size_t sectors)
{
    if (sectors == 0) throw error(errc::invalid_argument, fmt::format("{}: no sectors to verify", config.name));
    if (config.type == post_type::winning && sectors != 1)
        throw error(errc::invalid_argument, fmt::format("{}: WinningPoSt proves one sector, {} given", config.name,
                                                        sectors));
}

} // namespace

post_key post_dev_setup(const post_config& config, bool gpu, unsigned threads)
{
    return porep_dev_setup(record_post_pce(config, threads), gpu, threads);
}

post_key load_post_key(const post_config& config, const std::string& params_path, unsigned threads)
{
    post_key k;
    k.pce = record_post_pce(config, threads);
    k.pk = std::make_shared<const groth16::proving_key>(io::read_params(params_path, subgroup_check::skip, threads));
    check_post_sizes(config, params_path, *k.pce, k.pk->l.size(), k.pk->vk.ic.size());
    k.density = groth16::density_of(*k.pce);
    return k;
}

post_key map_post_key(const post_config& config, const std::string& params_path, unsigned threads)
{
    post_key k;
    k.params = std::make_shared<const io::mapped_params>(params_path, subgroup_check::skip);
    k.pce = record_post_pce(config, threads);
    check_post_sizes(config, params_path, *k.pce, k.params->count(io::params_query::l), k.params->vk().ic.size());
    k.pk = std::make_shared<const groth16::proving_key>(k.params->key_shell());
    k.density = groth16::density_of(*k.pce);
    return k;
}

pipeline::proof_request post_proof_request(pipeline::key_id key, const post_config& config, const domain& randomness,
                                           std::span<const post_sector_proof> proofs, unsigned first_partition,
                                           unsigned threads)
{
    post_check_vanilla(config, randomness, proofs, first_partition, threads);
    pipeline::proof_request req;
    req.key = key;
    for (unsigned k = 0; k < config.partitions_for(proofs.size()); ++k)
        req.partitions.emplace_back(std::in_place_type<pipeline::circuit_partition>,
                                    pipeline::circuit_partition{std::make_shared<const post_circuit>(
                                        config, post_partition_of(proofs, config, k))});
    return req;
}

std::vector<uint8_t> post_prove(pipeline::engine& engine, pipeline::key_id key, const post_config& config,
                                const domain& randomness, std::span<const post_sector_proof> proofs,
                                unsigned first_partition, unsigned threads)
{
    const pipeline::job_handle h =
        engine.submit(post_proof_request(key, config, randomness, proofs, first_partition, threads));
    const pipeline::job_result& r = h.wait();
    if (r.status != pipeline::job_status::completed) throw error(r.code == errc::ok ? errc::internal : r.code, r.message);
    std::vector<uint8_t> out;
    for (const auto& p : r.partitions) out.insert(out.end(), p.bytes.begin(), p.bytes.end());
    return out;
}

bool post_verify(const groth16::verifying_key& vk, std::span<const uint8_t> proof, const post_config& config,
                 const domain& randomness, std::span<const post_public_sector> sectors, unsigned first_partition)
{
    check_count(config, sectors.size());
    const unsigned P = config.partitions_for(sectors.size());
    if (proof.size() != size_t(P) * 192)
        throw error(errc::bad_length, fmt::format("{} proof: {} bytes, {} partitions need {}", config.name,
                                                  proof.size(), P, size_t(P) * 192));
    std::vector<std::vector<fr>> inputs;
    std::vector<groth16::proof> proofs;
    for (unsigned k = 0; k < P; ++k)
        inputs.push_back(
            post_public_inputs(config, randomness, post_partition_of(sectors, config, k), first_partition + k));
    proofs = io::partition_proofs_from_bytes(proof);
    if (vk.ic.size() != inputs[0].size() + 1)
        throw error(errc::invalid_argument, fmt::format("verifying key: {} public inputs, the {} circuit has {}",
                                                        vk.ic.size() - 1, config.name, inputs[0].size()));
    return groth16::verify_batch(groth16::prepare_verifying_key(vk), proofs, inputs);
}

} // namespace cuzk::filecoin
