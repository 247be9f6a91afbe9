// cuzk C ABI — Filecoin PoRep C2: shapes, PoRep keys (a .params file or a
// development setup, each kept with the circuit's PCE and densities), C2
// jobs from C1 JSON, and verification of the concatenated proof.
#include "cuzk_filecoin.h"
#include "objects.hpp"

#include "cuzk/filecoin/porep/c1_json.hpp"
#include "cuzk/filecoin/porep/challenges.hpp"
#include "cuzk/filecoin/porep/circuit.hpp"
#include "cuzk/filecoin/porep/prove.hpp"
#include "cuzk/filecoin/porep/vanilla_verify.hpp"

using namespace cuzk;
using namespace cuzk::capi;
namespace fc = cuzk::filecoin;

namespace {

// ---- shapes ----------------------------------------------------------------------------------
cuzk_porep_shape shape_of(const fc::seal_config& c)
{
    cuzk_porep_shape s{};
    s.struct_size = sizeof s;
    s.registered_proof = c.registered_id < 0 ? CUZK_POREP_CUSTOM : c.registered_id;
    s.nodes = c.nodes;
    s.layers = c.layers;
    s.challenges = c.challenges_per_partition;
    s.partitions = c.partitions;
    s.api = uint32_t(c.api);
    s.tree_base = c.tree.base;
    s.tree_sub = c.tree.sub;
    s.tree_top = c.tree.top;
    std::memcpy(s.porep_id, c.porep_id.data(), 32);
    return s;
}

// The seal_config a host's shape describes (CUZK_ERR_INVALID_ARGUMENT naming the problem).
fc::seal_config config_of(const cuzk_porep_shape* in, const char* fn)
{
    const cuzk_porep_shape s = read_struct(in, sizeof(cuzk_porep_shape), fn, "cuzk_porep_shape");
    if (s.registered_proof != CUZK_POREP_CUSTOM) {
        if (s.registered_proof < 0 || s.registered_proof > 19)
            fail(CUZK_ERR_INVALID_ARGUMENT,
                 fmt::format("{}: shape.registered_proof is {}: 0 … 19 or CUZK_POREP_CUSTOM", fn, s.registered_proof));
        return fc::registered_seal_proof(s.registered_proof);
    }
    if (s.reserved) fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: shape.reserved must be 0", fn));
    if (s.api > CUZK_POREP_API_1_2) fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: shape.api {} is unknown", fn, s.api));
    if (s.partitions == 0 || s.partitions > 1024 || s.challenges == 0 || s.challenges > 1024)
        fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: shape: {} partitions of {} challenges (each 1 … 1024)", fn,
                                                    s.partitions, s.challenges));
    if (s.nodes < 2 || (s.nodes & (s.nodes - 1)))
        fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: shape.nodes is {}, not a power of two >= 2", fn, s.nodes));
    fc::porep_id_t id;
    std::memcpy(id.data(), s.porep_id, 32);
    try {
        return fc::seal_config::custom(s.nodes, s.layers, s.challenges, {s.tree_base, s.tree_sub, s.tree_top}, id,
                                       fc::api_version(s.api), s.partitions);
    } catch (const cuzk::error& e) {
        throw error(errc::invalid_argument, fmt::format("{}: shape: {}", fn, e.what()));
    }
}

// Two configs have the same circuit (the R1CS depends on these only).
bool same_circuit(const fc::seal_config& a, const fc::seal_config& b)
{
    return a.nodes == b.nodes && a.layers == b.layers && a.challenges_per_partition == b.challenges_per_partition &&
           a.tree == b.tree;
}

std::string describe(const fc::seal_config& c)
{
    return fmt::format("{} ({} nodes, {} layers, {} challenges, tree {})", c.name, c.nodes, c.layers,
                       c.challenges_per_partition, c.tree.name());
}

fc::domain domain_of(const uint8_t* p)
{
    fc::domain d;
    std::memcpy(d.data(), p, 32);
    return d;
}

cuzk_key* new_porep_key(fc::porep_key k, const fc::seal_config& config, unsigned threads = 0)
{
    auto o = key_obj_of(std::move(k), threads);
    o->porep = config;
    return new_key(std::move(o));
}

fc::c1_output parse_c1(const uint8_t* json, size_t len, const char* fn)
{
    need(json, fn, "c1_json");
    return fc::read_c1_json(std::string_view(reinterpret_cast<const char*>(json), len), "C1 JSON");
}

} // namespace

std::shared_ptr<key_obj> cuzk::capi::key_obj_of(fc::porep_key k, unsigned threads)
{
    auto o = std::make_shared<key_obj>();
    o->vk = k.pk->vk;
    o->conv = k.pk->conv;
    o->pk = std::move(k.pk);
    o->density = std::move(k.density);
    o->own_pce = std::move(k.pce);
    o->params = std::move(k.params);
    o->decode_threads = threads;
    return o;
}

extern "C" {

CUZK_API cuzk_status cuzk_porep_shape_init(cuzk_porep_shape* out)
{
    if (!clear_struct(out)) return CUZK_ERR_NULL;
    out->registered_proof = CUZK_POREP_CUSTOM;
    return CUZK_OK;
}

CUZK_API cuzk_status cuzk_porep_shape_registered(cuzk_porep_shape* out, int32_t id)
{
    static const char* fn = "cuzk_porep_shape_registered";
    return call_create(nullptr, 0, [&]() -> cuzk_status {
        need(out, fn, "out");
        if (id < 0 || id > 19)
            fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: {} is not a registered seal proof (0 … 19)", fn, id));
        *out = shape_of(fc::registered_seal_proof(id));
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_porep_shape_of_c1(cuzk_porep_shape* out, const uint8_t* c1_json, size_t c1_len, char* err,
                                            size_t err_len)
{
    static const char* fn = "cuzk_porep_shape_of_c1";
    return call_create(err, err_len, [&]() -> cuzk_status {
        need(out, fn, "out");
        *out = shape_of(parse_c1(c1_json, c1_len, fn).config);
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_porep_key_load(cuzk_key** out, const cuzk_porep_shape* shape, const char* params_path,
                                         uint32_t threads, char* err, size_t err_len)
{
    return cuzk_porep_key_load_cached(out, shape, params_path, nullptr, threads, err, err_len);
}

CUZK_API cuzk_status cuzk_porep_key_load_cached(cuzk_key** out, const cuzk_porep_shape* shape,
                                                const char* params_path, const char* pce_cache_dir, uint32_t threads,
                                                char* err, size_t err_len)
{
    const char* fn = pce_cache_dir ? "cuzk_porep_key_load_cached" : "cuzk_porep_key_load";
    return call_create(err, err_len, [&]() -> cuzk_status {
        need(out, fn, "out");
        need(params_path, fn, "params_path");
        const fc::seal_config c = config_of(shape, fn);
        *out = new_porep_key(fc::map_porep_key(c, params_path, pce_cache_dir ? pce_cache_dir : ""), c, threads);
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_porep_key_setup_dev(cuzk_key** out, const cuzk_porep_shape* shape, uint32_t threads,
                                              char* err, size_t err_len)
{
    static const char* fn = "cuzk_porep_key_setup_dev";
    return call_create(err, err_len, [&]() -> cuzk_status {
        need(out, fn, "out");
        const fc::seal_config c = config_of(shape, fn);
        *out = new_porep_key(fc::porep_dev_setup(fc::record_porep_pce(c, threads), false, threads), c);
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_porep_c2_submit(cuzk_job** out, cuzk_engine* engine, uint32_t key_id,
                                          const uint8_t* c1_json, size_t c1_len, const uint8_t* prover_id,
                                          uint64_t sector_id, const cuzk_job_options* opt)
{
    static const char* fn = "cuzk_porep_c2_submit";
    return call<engine_obj>(engine, fn, [&](engine_obj& e) -> cuzk_status {
        need(out, fn, "out");
        const engine_key k = e.key(key_id, fn);
        const fc::c1_output c1 = parse_c1(c1_json, c1_len, fn);
        if (!k.porep)
            fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: key id {} is not a PoRep key (use cuzk_porep_key_load "
                                                        "or cuzk_porep_key_setup_dev)", fn, key_id));
        if (!same_circuit(*k.porep, c1.config))
            fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: the C1 output is {}, key id {} is for {}", fn,
                                                        describe(c1.config), key_id, describe(*k.porep)));
        fc::c1_identity id;
        if (prover_id) id = {domain_of(prover_id), sector_id};
        fc::verify_c1(c1, 0, prover_id ? &id : nullptr);
        pipeline::proof_request req;
        req.key = key_id;
        for (unsigned p = 0; p < c1.partitions.size(); ++p)
            req.partitions.push_back(pipeline::circuit_partition{std::make_shared<const fc::porep_circuit>(c1, p)});
        *out = submit_job(e, std::move(req), opt, fn);
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_porep_verify(int32_t* out, const cuzk_key* key, const cuzk_porep_shape* shape,
                                       const uint8_t* prover_id, uint64_t sector_id, const uint8_t* ticket,
                                       const uint8_t* seed, const uint8_t* comm_d, const uint8_t* comm_r,
                                       const uint8_t* proof, size_t proof_len)
{
    static const char* fn = "cuzk_porep_verify";
    return call<key_obj>(key, fn, [&](key_obj& k) -> cuzk_status {
        need(out, fn, "out");
        for (auto [p, name] : {std::pair{prover_id, "prover_id"}, {ticket, "ticket"}, {seed, "seed"},
                               {comm_d, "comm_d"}, {comm_r, "comm_r"}, {proof, "proof"}})
            need(p, fn, name);
        if (k.curve == curve_id::bn254)
            fail(CUZK_ERR_INVALID_ARGUMENT,
                 fmt::format("{}: the key is a BN254 key; PoRep proofs are BLS12-381 proofs", fn));
        const fc::seal_config c = config_of(shape, fn);
        const fc::domain cd = domain_of(comm_d), cr = domain_of(comm_r);
        fc::domain_to_fr(cd, "comm_d");   // canonical, or errc::non_canonical naming it
        fc::domain_to_fr(cr, "comm_r");
        const fc::domain rid = fc::replica_id(domain_of(prover_id), sector_id, domain_of(ticket), cd, c.porep_id);
        *out = 0;
        *out = fc::porep_verify(k.vk, std::span<const uint8_t>(proof, proof_len), c, rid, cd, cr, domain_of(seed)) ? 1 : 0;
        return CUZK_OK;
    });
}

} // extern "C"
