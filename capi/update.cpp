// cuzk C ABI — Filecoin SnapDeals (EmptySectorUpdate): update keys (a
// .params file or a development setup, each kept with the circuit's PCE and
// densities), jobs from vanilla partition proof bytes, and verification.
#include "cuzk_filecoin.h"
#include "objects.hpp"

#include "cuzk/filecoin/update/bincode.hpp"
#include "cuzk/filecoin/update/prove.hpp"

using namespace cuzk;
using namespace cuzk::capi;
namespace fc = cuzk::filecoin;

namespace {

fc::update_config config_of(int32_t id, const char* fn)
{
    if (id < 0 || id > 4)
        fail(CUZK_ERR_INVALID_ARGUMENT,
             fmt::format("{}: registered_proof {} is not a registered update proof (0 … 4)", fn, id));
    return fc::registered_update_proof(id);
}

fc::domain domain_of(const uint8_t* p)
{
    fc::domain d;
    std::memcpy(d.data(), p, 32);
    return d;
}

fc::update_public public_of(const fc::update_config& c, const uint8_t* comm_r_old, const uint8_t* comm_d_new,
                            const uint8_t* comm_r_new, uint32_t h, const char* fn)
{
    need(comm_r_old, fn, "comm_r_old");
    need(comm_d_new, fn, "comm_d_new");
    need(comm_r_new, fn, "comm_r_new");
    fc::update_public pub{domain_of(comm_r_old), domain_of(comm_d_new), domain_of(comm_r_new),
                          h ? h : c.h_default()};
    c.h_select(pub.h);   // errc::invalid_argument naming the allowed values
    return pub;
}

cuzk_key* new_update_key(fc::update_key k, const fc::update_config& config, unsigned threads = 0)
{
    auto o = key_obj_of(std::move(k), threads);
    o->update = config;
    return new_key(std::move(o));
}

} // namespace

extern "C" {

CUZK_API cuzk_status cuzk_update_key_load(cuzk_key** out, int32_t registered_proof, const char* params_path,
                                          uint32_t threads, char* err, size_t err_len)
{
    static const char* fn = "cuzk_update_key_load";
    return call_create(err, err_len, [&]() -> cuzk_status {
        need(out, fn, "out");
        need(params_path, fn, "params_path");
        const fc::update_config c = config_of(registered_proof, fn);
        *out = new_update_key(fc::map_update_key(c, params_path, threads), c, threads);
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_update_key_setup_dev(cuzk_key** out, int32_t registered_proof, uint32_t threads,
                                               char* err, size_t err_len)
{
    static const char* fn = "cuzk_update_key_setup_dev";
    return call_create(err, err_len, [&]() -> cuzk_status {
        need(out, fn, "out");
        const fc::update_config c = config_of(registered_proof, fn);
        *out = new_update_key(fc::update_dev_setup(c, false, threads), c);
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_update_submit(cuzk_job** out, cuzk_engine* engine, uint32_t key_id,
                                        const uint8_t* comm_r_old, const uint8_t* comm_d_new,
                                        const uint8_t* comm_r_new, uint32_t h, const uint8_t* const* vanilla,
                                        const size_t* vanilla_len, size_t n, const cuzk_job_options* opt)
{
    static const char* fn = "cuzk_update_submit";
    return call<engine_obj>(engine, fn, [&](engine_obj& e) -> cuzk_status {
        need(out, fn, "out");
        const engine_key k = e.key(key_id, fn);
        if (!k.update)
            fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: key id {} is not an update key (use cuzk_update_key_load "
                                                        "or cuzk_update_key_setup_dev)", fn, key_id));
        const fc::update_config& c = *k.update;
        const fc::update_public pub = public_of(c, comm_r_old, comm_d_new, comm_r_new, h, fn);
        if (n != c.partitions)
            fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: {} vanilla proofs; {} has {} partitions", fn, n, c.name,
                                                        c.partitions));
        need(vanilla, fn, "vanilla");
        need(vanilla_len, fn, "vanilla_len");
        std::vector<fc::update_partition_proof> parts;
        for (size_t i = 0; i < n; ++i) {
            if (!vanilla[i]) fail(CUZK_ERR_NULL, fmt::format("{}: vanilla[{}] is NULL", fn, i));
            parts.push_back(fc::update_partition_from_bincode(std::span<const uint8_t>(vanilla[i], vanilla_len[i]), c,
                                                              fmt::format("vanilla[{}]", i)));
        }
        *out = submit_job(e, fc::update_proof_request(key_id, c, pub, parts), opt, fn);
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_update_verify(int32_t* out, const cuzk_key* key, int32_t registered_proof,
                                        const uint8_t* comm_r_old, const uint8_t* comm_d_new,
                                        const uint8_t* comm_r_new, uint32_t h, const uint8_t* proof,
                                        size_t proof_len)
{
    static const char* fn = "cuzk_update_verify";
    return call<key_obj>(key, fn, [&](key_obj& k) -> cuzk_status {
        need(out, fn, "out");
        need(proof, fn, "proof");
        if (k.curve == curve_id::bn254)
            fail(CUZK_ERR_INVALID_ARGUMENT,
                 fmt::format("{}: the key is a BN254 key; update proofs are BLS12-381 proofs", fn));
        const fc::update_config c = config_of(registered_proof, fn);
        if (k.update && k.update->registered_id != c.registered_id)
            fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: the key is for {}, not {}", fn, k.update->name, c.name));
        const fc::update_public pub = public_of(c, comm_r_old, comm_d_new, comm_r_new, h, fn);
        *out = 0;
        *out = fc::update_verify(k.vk, std::span<const uint8_t>(proof, proof_len), c, pub) ? 1 : 0;
        return CUZK_OK;
    });
}

} // extern "C"
