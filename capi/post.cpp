// cuzk C ABI — Filecoin PoSt (WindowPoSt, WinningPoSt): proof types, PoSt
// keys (a .params file or a development setup, each kept with the circuit's
// PCE and densities), jobs from vanilla proof bytes, and verification.
#include "cuzk_filecoin.h"
#include "objects.hpp"

#include "cuzk/filecoin/post/bincode.hpp"
#include "cuzk/filecoin/post/circuit.hpp"
#include "cuzk/filecoin/post/prove.hpp"

using namespace cuzk;
using namespace cuzk::capi;
namespace fc = cuzk::filecoin;

namespace {

cuzk_post_shape shape_of(const fc::post_config& c)
{
    cuzk_post_shape s{};
    s.struct_size = sizeof s;
    s.registered_proof = c.registered_id < 0 ? CUZK_POST_CUSTOM : c.registered_id;
    s.type = c.type == fc::post_type::winning ? CUZK_POST_WINNING : CUZK_POST_WINDOW;
    s.api = uint32_t(c.api);
    s.nodes = c.nodes;
    s.sector_count = c.sector_count;
    s.challenge_count = c.challenge_count;
    s.tree_base = c.tree.base;
    s.tree_sub = c.tree.sub;
    s.tree_top = c.tree.top;
    return s;
}

// The post_config a host's shape describes (CUZK_ERR_INVALID_ARGUMENT naming the problem).
fc::post_config config_of(const cuzk_post_shape* in, const char* fn)
{
    const cuzk_post_shape s = read_struct(in, sizeof(cuzk_post_shape), fn, "cuzk_post_shape");
    if (s.registered_proof != CUZK_POST_CUSTOM) {
        if (s.registered_proof < 0 || s.registered_proof > 14)
            fail(CUZK_ERR_INVALID_ARGUMENT,
                 fmt::format("{}: shape.registered_proof is {}: 0 … 14 or CUZK_POST_CUSTOM", fn, s.registered_proof));
        return fc::registered_post_proof(s.registered_proof);
    }
    if (s.reserved) fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: shape.reserved must be 0", fn));
    if (s.type > CUZK_POST_WINDOW) fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: shape.type {} is unknown", fn, s.type));
    if (s.api != CUZK_POREP_API_1_0 && s.api != CUZK_POREP_API_1_2)
        fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: shape.api {}: PoSt has API 1.0 and 1.2", fn, s.api));
    if (s.sector_count == 0 || s.sector_count > 100000 || s.challenge_count == 0 || s.challenge_count > 1024)
        fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: shape: {} sectors of {} challenges (1 … 100000, 1 … 1024)", fn,
                                                    s.sector_count, s.challenge_count));
    try {
        return fc::post_config::custom(s.type == CUZK_POST_WINNING ? fc::post_type::winning : fc::post_type::window,
                                       s.nodes, {s.tree_base, s.tree_sub, s.tree_top}, s.sector_count,
                                       s.challenge_count, fc::api_version(s.api));
    } catch (const cuzk::error& e) {
        throw error(errc::invalid_argument, fmt::format("{}: shape: {}", fn, e.what()));
    }
}

bool same_circuit(const fc::post_config& a, const fc::post_config& b)
{
    return a.nodes == b.nodes && a.tree == b.tree && a.circuit_sectors() == b.circuit_sectors() &&
           a.circuit_challenges() == b.circuit_challenges();
}

fc::domain domain_of(const uint8_t* p)
{
    fc::domain d;
    std::memcpy(d.data(), p, 32);
    return d;
}

cuzk_key* new_post_key(fc::post_key k, const fc::post_config& config, unsigned threads = 0)
{
    auto o = key_obj_of(std::move(k), threads);
    o->post = config;
    return new_key(std::move(o));
}

std::vector<fc::post_sector_proof> read_vanilla(const uint8_t* const* vanilla, const size_t* len, size_t n,
                                                const fc::post_config& c, const char* fn)
{
    need(vanilla, fn, "vanilla");
    need(len, fn, "vanilla_len");
    std::vector<fc::post_sector_proof> out;
    for (size_t i = 0; i < n; ++i) {
        if (!vanilla[i]) fail(CUZK_ERR_NULL, fmt::format("{}: vanilla[{}] is NULL", fn, i));
        out.push_back(fc::post_vanilla_from_bincode(std::span<const uint8_t>(vanilla[i], len[i]), c,
                                                    fmt::format("vanilla[{}]", i)));
    }
    return out;
}

} // namespace

extern "C" {

CUZK_API cuzk_status cuzk_post_shape_init(cuzk_post_shape* out)
{
    if (!clear_struct(out)) return CUZK_ERR_NULL;
    out->registered_proof = CUZK_POST_CUSTOM;
    return CUZK_OK;
}

CUZK_API cuzk_status cuzk_post_shape_registered(cuzk_post_shape* out, int32_t id)
{
    static const char* fn = "cuzk_post_shape_registered";
    return call_create(nullptr, 0, [&]() -> cuzk_status {
        need(out, fn, "out");
        if (id < 0 || id > 14)
            fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: {} is not a registered PoSt proof (0 … 14)", fn, id));
        *out = shape_of(fc::registered_post_proof(id));
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_post_sector_challenges(uint64_t* out, size_t* out_count, const cuzk_post_shape* shape,
                                                 const uint8_t* randomness, const uint64_t* sector_ids, size_t n)
{
    static const char* fn = "cuzk_post_sector_challenges";
    return call_create(nullptr, 0, [&]() -> cuzk_status {
        need(out_count, fn, "out_count");
        need(randomness, fn, "randomness");
        if (n) need(sector_ids, fn, "sector_ids");
        const fc::post_config c = config_of(shape, fn);
        const auto all = fc::post_sector_challenges(c, domain_of(randomness), std::span<const uint64_t>(sector_ids, n));
        const size_t room = *out_count, needed = n * c.challenge_count;
        *out_count = needed;
        if (room < needed)
            fail(CUZK_ERR_BUFFER_TOO_SMALL, fmt::format("{}: room for {} leaves, {} needed", fn, room, needed));
        if (needed) need(out, fn, "out");
        for (size_t i = 0; i < n; ++i) std::copy(all[i].begin(), all[i].end(), out + i * c.challenge_count);
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_post_key_load(cuzk_key** out, const cuzk_post_shape* shape, const char* params_path,
                                        uint32_t threads, char* err, size_t err_len)
{
    static const char* fn = "cuzk_post_key_load";
    return call_create(err, err_len, [&]() -> cuzk_status {
        need(out, fn, "out");
        need(params_path, fn, "params_path");
        const fc::post_config c = config_of(shape, fn);
        *out = new_post_key(fc::map_post_key(c, params_path, threads), c, threads);
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_post_key_setup_dev(cuzk_key** out, const cuzk_post_shape* shape, uint32_t threads,
                                             char* err, size_t err_len)
{
    static const char* fn = "cuzk_post_key_setup_dev";
    return call_create(err, err_len, [&]() -> cuzk_status {
        need(out, fn, "out");
        const fc::post_config c = config_of(shape, fn);
        *out = new_post_key(fc::post_dev_setup(c, false, threads), c);
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_post_check_vanilla(uint64_t* faulty, size_t* faulty_count, const cuzk_post_shape* shape,
                                             const uint8_t* randomness, const uint8_t* const* vanilla,
                                             const size_t* vanilla_len, size_t n, uint32_t first_partition,
                                             char* err, size_t err_len)
{
    static const char* fn = "cuzk_post_check_vanilla";
    return call_create(err, err_len, [&]() -> cuzk_status {
        need(faulty_count, fn, "faulty_count");
        need(randomness, fn, "randomness");
        const fc::post_config c = config_of(shape, fn);
        const auto proofs = read_vanilla(vanilla, vanilla_len, n, c, fn);
        const std::vector<fc::post_fault> faults = fc::post_find_faults(c, domain_of(randomness), proofs, first_partition);
        const size_t room = *faulty_count;
        *faulty_count = faults.size();
        if (room < faults.size())
            fail(CUZK_ERR_BUFFER_TOO_SMALL, fmt::format("{}: room for {} sector numbers, {} faulty", fn, room,
                                                        faults.size()));
        if (!faults.empty()) need(faulty, fn, "faulty");
        for (size_t i = 0; i < faults.size(); ++i) faulty[i] = faults[i].sector_id;
        if (!faults.empty()) copy_text(err, err_len, faults[0].what);
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_post_submit(cuzk_job** out, cuzk_engine* engine, uint32_t key_id,
                                      const uint8_t* randomness, const uint8_t* const* vanilla,
                                      const size_t* vanilla_len, size_t n, uint32_t first_partition,
                                      const cuzk_job_options* opt)
{
    static const char* fn = "cuzk_post_submit";
    return call<engine_obj>(engine, fn, [&](engine_obj& e) -> cuzk_status {
        need(out, fn, "out");
        need(randomness, fn, "randomness");
        const engine_key k = e.key(key_id, fn);
        if (!k.post)
            fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: key id {} is not a PoSt key (use cuzk_post_key_load or "
                                                        "cuzk_post_key_setup_dev)", fn, key_id));
        const fc::post_config& c = *k.post;
        const auto proofs = read_vanilla(vanilla, vanilla_len, n, c, fn);
        *out = submit_job(e, fc::post_proof_request(key_id, c, domain_of(randomness), proofs, first_partition), opt, fn);
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_post_verify(int32_t* out, const cuzk_key* key, const cuzk_post_shape* shape,
                                      const uint8_t* randomness, const uint64_t* sector_ids, const uint8_t* comm_rs,
                                      size_t n, uint32_t first_partition, const uint8_t* proof, size_t proof_len)
{
    static const char* fn = "cuzk_post_verify";
    return call<key_obj>(key, fn, [&](key_obj& k) -> cuzk_status {
        need(out, fn, "out");
        for (auto [p, name] : {std::pair<const void*, const char*>{randomness, "randomness"}, {sector_ids, "sector_ids"},
                               {comm_rs, "comm_rs"}, {proof, "proof"}})
            need(p, fn, name);
        if (k.curve == curve_id::bn254)
            fail(CUZK_ERR_INVALID_ARGUMENT,
                 fmt::format("{}: the key is a BN254 key; PoSt proofs are BLS12-381 proofs", fn));
        const fc::post_config c = config_of(shape, fn);
        if (k.post && !same_circuit(*k.post, c))
            fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: the key is for {}, the shape is {}", fn, k.post->name, c.name));
        std::vector<fc::post_public_sector> sectors;
        for (size_t i = 0; i < n; ++i) sectors.push_back({sector_ids[i], domain_of(comm_rs + 32 * i)});
        *out = 0;
        *out = fc::post_verify(k.vk, std::span<const uint8_t>(proof, proof_len), c, domain_of(randomness), sectors,
                               first_partition)
                   ? 1
                   : 0;
        return CUZK_OK;
    });
}

} // extern "C"
