#include "cuzk/filecoin/porep/prove.hpp"

#include <fmt/format.h>

#include "cuzk/backend/gpu_setup.hpp"
#include "cuzk/error.hpp"
#include "cuzk/filecoin/porep/circuit.hpp"
#include "cuzk/filecoin/porep/public_inputs.hpp"
#include "cuzk/groth16/circuit.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/verifier.hpp"
#include "cuzk/io/bellperson.hpp"
#include "cuzk/r1cs/constraint_system.hpp"

namespace cuzk::filecoin {

porep_key porep_dev_setup(std::shared_ptr<const r1cs::pce> pce, bool gpu, unsigned threads)
{
    porep_key k;
    if (gpu) {
        gpu_setup_options o;
        o.threads = threads;
        k.pk = std::make_shared<const groth16::proving_key>(
            gpu_setup_bellperson(*pce, groth16::toxic_waste::random(), &k.density, o));
    } else {
        k.pk = std::make_shared<const groth16::proving_key>(
            groth16::setup_bellperson(groth16::describe(*pce), &k.density, {threads}));
    }
    k.pce = std::move(pce);
    return k;
}

namespace {

// A .params key's sizes against the circuit's.
void check_porep_sizes(const seal_config& config, const std::string& params_path, const r1cs::pce& pce, size_t aux,
                       size_t inputs)
{
    if (aux != pce.num_aux || inputs != pce.num_inputs)
        throw error(errc::invalid_argument,
                    fmt::format("{}: the key has {} aux variables and {} inputs; the PoRep circuit of {} ({} nodes, "
                                "{} layers, {} challenges, tree {}) has {} and {}",
                                params_path, aux, inputs, config.name, config.nodes, config.layers,
                                config.challenges_per_partition, config.tree.name(), pce.num_aux, pce.num_inputs));
}

} // namespace

porep_key load_porep_key(const seal_config& config, const std::string& params_path, unsigned threads,
                         const std::string& pce_cache_dir, porep_pce_source* source)
{
    porep_key k;
    k.pce = porep_pce(config, pce_cache_dir, source, threads);
    k.pk = std::make_shared<const groth16::proving_key>(io::read_params(params_path, subgroup_check::skip, threads));
    check_porep_sizes(config, params_path, *k.pce, k.pk->l.size(), k.pk->vk.ic.size());
    k.density = groth16::density_of(*k.pce);
    return k;
}

porep_key map_porep_key(const seal_config& config, const std::string& params_path, const std::string& pce_cache_dir,
                        porep_pce_source* source)
{
    porep_key k;
    k.params = std::make_shared<const io::mapped_params>(params_path, subgroup_check::skip);
    k.pce = porep_pce(config, pce_cache_dir, source);
    check_porep_sizes(config, params_path, *k.pce, k.params->count(io::params_query::l), k.params->vk().ic.size());
    k.pk = std::make_shared<const groth16::proving_key>(k.params->key_shell());
    k.density = groth16::density_of(*k.pce);
    return k;
}

pipeline::key_id add_porep_key(pipeline::engine& engine, const porep_key& key, const pipeline::key_options& opt)
{
    if (key.params) return engine.add_key(key.params, key.pce, key.density, opt);
    return engine.add_key(key.pk, key.pce, key.density, opt);
}

c2_output porep_c2(pipeline::engine& engine, pipeline::key_id key, const c1_output& c1,
                   const std::function<void(unsigned, unsigned)>& progress)
{
    const unsigned P = unsigned(c1.partitions.size());
    pipeline::proof_request req;
    req.key = key;
    req.partitions.reserve(P);
    for (unsigned k = 0; k < P; ++k)   // built in place (gcc 12 misreads a moved variant under ASan)
        req.partitions.emplace_back(std::in_place_type<pipeline::circuit_partition>,
                                    pipeline::circuit_partition{std::make_shared<const porep_circuit>(c1, k)});
    req.id = "";   // the engine names it (job-<n>): repeated runs stay apart on the timeline
    const pipeline::job_handle h = engine.submit(std::move(req));
    if (progress) {
        while (!h.wait_for(std::chrono::milliseconds(200))) progress(0, P);
    }
    const pipeline::job_result& r = h.wait();
    if (r.status != pipeline::job_status::completed) throw error(r.code == errc::ok ? errc::internal : r.code, r.message);
    c2_output out;
    for (const auto& p : r.partitions) {
        out.proof.insert(out.proof.end(), p.bytes.begin(), p.bytes.end());
        out.inputs.push_back(p.public_inputs());
    }
    if (progress) progress(P, P);
    return out;
}

std::vector<std::vector<fr>> porep_inputs(const seal_config& config, const domain& replica_id, const domain& comm_d,
                                          const domain& comm_r, const domain& seed)
{
    std::vector<std::vector<fr>> all;
    for (unsigned k = 0; k < config.partitions; ++k)
        all.push_back(porep_public_inputs(config, replica_id, comm_d, comm_r, seed, k).inputs);
    return all;
}

bool porep_verify(const groth16::verifying_key& vk, std::span<const uint8_t> proof, const seal_config& config,
                  const domain& replica_id, const domain& comm_d, const domain& comm_r, const domain& seed)
{
    if (proof.size() != size_t(config.partitions) * 192)
        throw error(errc::bad_length, fmt::format("PoRep proof: {} bytes, {} partitions need {}", proof.size(),
                                                  config.partitions, size_t(config.partitions) * 192));
    const auto inputs = porep_inputs(config, replica_id, comm_d, comm_r, seed);
    if (vk.ic.size() != inputs[0].size() + 1)
        throw error(errc::invalid_argument, fmt::format("verifying key: {} public inputs, the PoRep circuit has {}",
                                                        vk.ic.size() - 1, inputs[0].size()));
    const std::vector<groth16::proof> proofs = io::partition_proofs_from_bytes(proof);
    return groth16::verify_batch(groth16::prepare_verifying_key(vk), proofs, inputs);
}

} // namespace cuzk::filecoin
