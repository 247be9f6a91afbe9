// cuzk C ABI — Groth16 keys: loading (.params, .zkey, .vk), development
// setup, export, saving and verification.
#include "objects.hpp"

#include "cuzk/groth16/circuit.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/io/eip197.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/io/snarkjs.hpp"

using namespace cuzk;
using namespace cuzk::capi;

namespace cuzk::capi {

cuzk_key* new_key(std::shared_ptr<key_obj> k) { return add_handle<cuzk_key>(std::move(k)); }

cuzk_key* new_key(groth16::proving_key pk, std::optional<groth16::query_density> d)
{
    auto k = std::make_shared<key_obj>();
    k->vk = pk.vk;
    k->conv = pk.conv;
    k->pk = std::make_shared<const groth16::proving_key>(std::move(pk));
    k->density = std::move(d);
    return new_key(std::move(k));
}

std::shared_ptr<const groth16::proving_key> key_obj::points()
{
    if (!params) return pk;
    std::lock_guard lk(points_mu);
    if (!decoded) decoded = std::make_shared<const groth16::proving_key>(params->to_proving_key(decode_threads));
    return decoded;
}

pipeline::key_id key_obj::add_to(pipeline::engine& eng, std::shared_ptr<const r1cs::pce> p,
                                 const groth16::query_density* d, const pipeline::key_options& ko)
{
    if (params && eng.config().backend == pipeline::engine_backend::cuda)
        return d ? eng.add_key(params, std::move(p), *d, ko) : eng.add_key(params, std::move(p), ko);
    std::shared_ptr<const groth16::proving_key> full = points();
    return d ? eng.add_key(std::move(full), std::move(p), *d, ko) : eng.add_key(std::move(full), std::move(p), ko);
}

cuzk_key* new_mapped_key(std::shared_ptr<const io::mapped_params> mp, unsigned threads)
{
    auto k = std::make_shared<key_obj>();
    k->vk = mp->vk();
    k->conv = groth16::convention::bellperson;
    k->pk = std::make_shared<const groth16::proving_key>(mp->key_shell());
    k->params = std::move(mp);
    k->decode_threads = threads;
    return new_key(std::move(k));
}

cuzk_key* new_vk_key(groth16::verifying_key vk)
{
    auto k = std::make_shared<key_obj>();
    k->vk = std::move(vk);
    return new_key(std::move(k));
}

cuzk_key* new_bn254_key(groth16::proving_key_t<bn254_curve> pk)
{
    auto k = std::make_shared<key_obj>();
    k->curve = curve_id::bn254;
    k->conv = pk.conv;
    k->bn.vk = pk.vk;
    k->bn.pk = std::make_shared<const groth16::proving_key_t<bn254_curve>>(std::move(pk));
    return new_key(std::move(k));
}

} // namespace cuzk::capi

namespace {
subgroup_check check_of(uint32_t flags, const char* fn)
{
    if (flags & ~CUZK_LOAD_CHECK_SUBGROUP)
        fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: unknown flags 0x{:x}", fn, flags & ~CUZK_LOAD_CHECK_SUBGROUP));
    return (flags & CUZK_LOAD_CHECK_SUBGROUP) ? subgroup_check::check : subgroup_check::skip;
}

// A .zkey's key on the curve the file says (snarkjs_file_curve): `read` is
// called with the curve's traits struct and returns its zkey_t.
template <class Read>
cuzk_key* zkey_key(curve_id c, Read&& read)
{
    if (c == curve_id::bn254) return new_bn254_key(read(bn254_curve{}).pk);
    return new_key(read(bls12_381_curve{}).pk);
}

const char* conv_name(groth16::convention c)
{
    return c == groth16::convention::snarkjs ? "snarkjs" : "bellperson";
}

// The ABI's proof encoding of each curve (cuzk.h, Proofs): 192 compressed
// bytes for BLS12-381, EIP-197's 256 for BN254.
template <class C>
struct proof_codec;
template <>
struct proof_codec<bls12_381_curve> {
    static constexpr const char* curve = "BLS12-381";
    static constexpr size_t size = io::proof_size;
    static groth16::proof decode(std::span<const uint8_t> b) { return io::proof_from_bytes(b); }
};
template <>
struct proof_codec<bn254_curve> {
    static constexpr const char* curve = "BN254";
    static constexpr size_t size = io::eip197_proof_size;
    static groth16::proof_t<bn254_curve> decode(std::span<const uint8_t> b) { return io::eip197_proof_decode(b); }
};

// cuzk_key_verify over the key's curve C.
template <class C>
void verify_proof(int32_t* out, curve_part<C>& k, const uint8_t* proof, size_t proof_len,
                  const uint8_t* public_inputs, size_t num_public_inputs, const char* fn)
{
    using codec = proof_codec<C>;
    if (proof_len != codec::size)
        throw error(errc::bad_length, fmt::format("{}: the proof is {} bytes; a {} key's proofs are {}", fn, proof_len,
                                                  codec::curve, codec::size));
    if (num_public_inputs + 1 != k.vk.ic.size())
        fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: {} public inputs given, the key expects {}", fn,
                                                    num_public_inputs, k.vk.ic.size() - 1));
    const std::vector<typename C::fr> pub =
        scalars<typename C::fr>(public_inputs, num_public_inputs, "public_inputs", fn);
    *out = 0;
    groth16::proof_t<C> pr;
    try {
        pr = codec::decode(std::span<const uint8_t>(proof, proof_len));
    } catch (const cuzk::error& e) {
        throw error(e.code(), fmt::format("{}: the proof does not decode: {}", fn, e.what()));
    }
    *out = groth16::verify<C>(k.prepared(), pr, pub) ? 1 : 0;
}
} // namespace

extern "C" {

CUZK_API void cuzk_key_destroy(cuzk_key* key) { remove_handle(key, kind::key); }

CUZK_API size_t cuzk_key_last_error(char* out, size_t out_len, const cuzk_key* key)
{
    return last_error<key_obj>(out, out_len, key);
}

CUZK_API cuzk_status cuzk_key_load_params(cuzk_key** out, const char* path, uint32_t flags, uint32_t threads,
                                          char* err, size_t err_len)
{
    static const char* fn = "cuzk_key_load_params";
    return call_create(err, err_len, [&]() -> cuzk_status {
        need(out, fn, "out");
        need(path, fn, "path");
        const subgroup_check chk = check_of(flags, fn);
        *out = new_mapped_key(std::make_shared<const io::mapped_params>(path, chk), threads);
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_key_load_zkey(cuzk_key** out, const char* path, uint32_t flags, uint32_t threads,
                                        char* err, size_t err_len)
{
    static const char* fn = "cuzk_key_load_zkey";
    return call_create(err, err_len, [&]() -> cuzk_status {
        need(out, fn, "out");
        need(path, fn, "path");
        io::zkey_read_options o;
        o.check = check_of(flags, fn);
        o.threads = threads;
        *out = zkey_key(io::snarkjs_file_curve(path),
                        [&](auto c) { return io::read_zkey<decltype(c)>(path, o); });
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_key_load_zkey_mem(cuzk_key** out, const void* data, size_t len, uint32_t flags,
                                            uint32_t threads, char* err, size_t err_len)
{
    static const char* fn = "cuzk_key_load_zkey_mem";
    return call_create(err, err_len, [&]() -> cuzk_status {
        need(out, fn, "out");
        need(data, fn, "data");
        io::zkey_read_options o;
        o.check = check_of(flags, fn);
        o.threads = threads;
        const std::span<const uint8_t> bytes(static_cast<const uint8_t*>(data), len);
        const std::string name = "<zkey in memory>";
        *out = zkey_key(io::parse_snarkjs_file_curve(bytes, name),
                        [&](auto c) { return io::parse_zkey<decltype(c)>(bytes, name, o); });
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_key_load_vk(cuzk_key** out, const char* path, char* err, size_t err_len)
{
    return call_create(err, err_len, [&]() -> cuzk_status {
        need(out, "cuzk_key_load_vk", "out");
        need(path, "cuzk_key_load_vk", "path");
        *out = new_vk_key(io::read_vk(path));
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_key_load_vk_mem(cuzk_key** out, const void* data, size_t len, char* err, size_t err_len)
{
    static const char* fn = "cuzk_key_load_vk_mem";
    return call_create(err, err_len, [&]() -> cuzk_status {
        need(out, fn, "out");
        need(data, fn, "data");
        size_t used = 0;
        groth16::verifying_key vk =
            io::vk_from_bytes(std::span<const uint8_t>(static_cast<const uint8_t*>(data), len), "<vk in memory>", &used);
        if (used != len)
            throw error(errc::bad_length,
                        fmt::format("{}: {} bytes given, the verifying key is {} bytes", fn, len, used));
        *out = new_vk_key(std::move(vk));
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_key_setup_dev(cuzk_key** out, const cuzk_pce* pce, uint32_t convention, uint32_t threads,
                                        char* err, size_t err_len)
{
    static const char* fn = "cuzk_key_setup_dev";
    return call_create(err, err_len, [&]() -> cuzk_status {
        need(out, fn, "out");
        if (!pce) fail(CUZK_ERR_NULL, fmt::format("{}: pce is NULL", fn));
        auto p = find<pce_obj>(pce);
        if (!p) fail(CUZK_ERR_INVALID_HANDLE, fmt::format("{}: pce is not a live cuzk_pce handle", fn));
        groth16::setup_options so;
        so.threads = threads;
        const groth16::r1cs_description d = groth16::describe(*p->p);
        if (convention == CUZK_CONVENTION_BELLPERSON) {
            groth16::query_density dens;
            groth16::proving_key pk = groth16::setup_bellperson(d, &dens, so);
            *out = new_key(std::move(pk), std::move(dens));
        } else if (convention == CUZK_CONVENTION_SNARKJS) {
            *out = new_key(groth16::setup_snarkjs(d, so));
        } else {
            fail(CUZK_ERR_INVALID_ARGUMENT, fmt::format("{}: unknown convention {}", fn, convention));
        }
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_key_info_get(cuzk_key_info* out, const cuzk_key* key)
{
    static const char* fn = "cuzk_key_info_get";
    return call<key_obj>(key, fn, [&](key_obj& k) -> cuzk_status {
        cuzk_key_info v{};
        v.struct_size = sizeof v;
        v.convention = k.conv == groth16::convention::snarkjs ? CUZK_CONVENTION_SNARKJS : CUZK_CONVENTION_BELLPERSON;
        with_curve(k.curve, [&](auto c) {
            const curve_part<decltype(c)>& p = k.as<decltype(c)>();
            v.curve = uint32_t(decltype(c)::id);   // CUZK_CURVE_* (capi/cuzk.cpp checks they agree)
            v.has_proving_key = p.pk ? 1 : 0;
            v.num_inputs = uint32_t(p.vk.ic.size());
            v.num_aux = p.pk ? p.pk->num_aux : 0;
            v.domain_size = p.pk ? p.pk->domain_size : 0;
        });
        write_struct(out, v, sizeof(cuzk_key_info), fn);
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_key_export_vk(uint8_t* out, size_t out_len, size_t* out_size, const cuzk_key* key)
{
    static const char* fn = "cuzk_key_export_vk";
    return call<key_obj>(key, fn, [&](key_obj& k) -> cuzk_status {
        if (k.curve == curve_id::bn254) {
            const std::string text = io::vk_to_json(k.bn.vk).dump(1);
            return write_bytes(out, out_len, out_size, text.data(), text.size(), fn);
        }
        const std::vector<uint8_t> b = io::vk_to_bytes(k.vk);
        return write_bytes(out, out_len, out_size, b.data(), b.size(), fn);
    });
}

static cuzk_status key_save(const cuzk_key* key, const char* path, groth16::convention conv, const char* fn)
{
    return call<key_obj>(key, fn, [&](key_obj& k) -> cuzk_status {
        need(path, fn, "path");
        if (k.curve == curve_id::bn254) {
            if (conv != groth16::convention::snarkjs)
                fail(CUZK_ERR_UNSUPPORTED, fmt::format("{}: the key is a BN254 key; .params files hold BLS12-381 "
                                                       "bellperson keys only (save it with cuzk_key_save_zkey)", fn));
            io::write_zkey(path, *k.bn.pk);
            return CUZK_OK;
        }
        if (!k.pk) fail(CUZK_ERR_UNSUPPORTED, fmt::format("{}: the key is a verifying key only", fn));
        if (k.conv != conv)
            fail(CUZK_ERR_UNSUPPORTED, fmt::format("{}: the key follows the {} convention; this format holds {} keys",
                                                   fn, conv_name(k.conv), conv_name(conv)));
        if (conv == groth16::convention::bellperson) io::write_params(path, *k.points());
        else io::write_zkey(path, *k.pk);
        return CUZK_OK;
    });
}

CUZK_API cuzk_status cuzk_key_save_params(const cuzk_key* key, const char* path)
{
    return key_save(key, path, groth16::convention::bellperson, "cuzk_key_save_params");
}

CUZK_API cuzk_status cuzk_key_save_zkey(const cuzk_key* key, const char* path)
{
    return key_save(key, path, groth16::convention::snarkjs, "cuzk_key_save_zkey");
}

CUZK_API cuzk_status cuzk_key_verify(int32_t* out, const cuzk_key* key, const uint8_t* proof, size_t proof_len,
                                     const uint8_t* public_inputs, size_t num_public_inputs)
{
    static const char* fn = "cuzk_key_verify";
    return call<key_obj>(key, fn, [&](key_obj& k) -> cuzk_status {
        need(out, fn, "out");
        need(proof, fn, "proof");
        with_curve(k.curve, [&](auto c) {
            verify_proof(out, k.as<decltype(c)>(), proof, proof_len, public_inputs, num_public_inputs, fn);
        });
        return CUZK_OK;
    });
}

} // extern "C"
