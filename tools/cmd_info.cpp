// `cuzk info <file>`: what a file holds. Recognises snarkjs .zkey, .wtns,
// .r1cs (by magic; either curve, from the header), bellperson .params / .vk (by extension, then structure),
// 192-byte proofs, cuzk PCE files, snarkjs JSON (proof, public signals,
// verification key), and Filecoin PoSt vanilla proofs and SnapDeals vanilla
// partition proofs (.vanilla, or by structure).
#include <cstdio>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "cli_util.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "progress.hpp"
#include "cuzk/error.hpp"
#include "cuzk/filecoin/post/bincode.hpp"
#include "cuzk/filecoin/update/bincode.hpp"
#include "cuzk/io/bellperson.hpp"
#include "cuzk/io/json.hpp"
#include "cuzk/io/mapped_file.hpp"
#include "cuzk/io/snarkjs.hpp"
#include "cuzk/r1cs/pce.hpp"

namespace cuzk::cli {

namespace {

bool ends_with(const std::string& s, const char* suf)
{
    const size_t n = std::strlen(suf);
    return s.size() >= n && s.compare(s.size() - n, n, suf) == 0;
}

template <class C>
int info_zkey(const std::string& path)
{
    const io::zkey_t<C> z = io::read_zkey<C>(path);
    std::printf("%s: snarkjs zkey, Groth16, curve %s\n"
                "  signals %u (public %u), constraints %u, domain %llu (2^%d)\n"
                "  points: A %zu, B1 %zu, B2 %zu, C %zu, H %zu; coefficients %zu; contributions %u\n"
                "  verifying key points on the curve and in the prime-order subgroup\n",
                path.c_str(), C::snarkjs_name, z.n_vars, z.n_public, z.pk.n_constraints,
                (unsigned long long)z.pk.domain_size, int(__builtin_ctzll(z.pk.domain_size)), z.pk.a.size(),
                z.pk.b_g1.size(), z.pk.b_g2.size(), z.pk.l.size(), z.pk.h.size(), z.pk.coefs.size(),
                z.n_contributions);
    return 0;
}

template <class C>
int info_wtns(const std::string& path)
{
    const auto w = io::read_wtns<typename C::fr>(path);
    std::printf("%s: snarkjs witness, curve %s (prime r), %zu values\n", path.c_str(), C::snarkjs_name, w.size());
    return 0;
}

template <class C>
int info_r1cs(const std::string& path)
{
    const io::r1cs_file_t<typename C::fr> r = io::read_r1cs<typename C::fr>(path);
    std::printf("%s: circom r1cs, curve %s (prime r)\n  wires %u (public outputs %u, public inputs %u, "
                "private inputs %u), labels %llu, constraints %u\n",
                path.c_str(), C::snarkjs_name, r.n_wires, r.n_pub_out, r.n_pub_in, r.n_prv_in,
                (unsigned long long)r.n_labels, r.n_constraints);
    return 0;
}

// A snarkjs binary file (zkey, wtns, r1cs) on the curve its header names.
int info_snarkjs_binary(const std::string& magic, const std::string& path)
{
    const bool bn = io::snarkjs_file_curve(path) == curve_id::bn254;
    if (magic == "zkey") return bn ? info_zkey<bn254_curve>(path) : info_zkey<bls12_381_curve>(path);
    if (magic == "wtns") return bn ? info_wtns<bn254_curve>(path) : info_wtns<bls12_381_curve>(path);
    return bn ? info_r1cs<bn254_curve>(path) : info_r1cs<bls12_381_curve>(path);
}

int info_params(const std::string& path)
{
    const io::mapped_params mp(path);
    if (mp.vk().ic.empty()) throw error(errc::bad_format, fmt::format("{}: the verifying key has no IC points", path));
    std::printf("%s: bellperson Groth16 parameters, curve bls12381, %zu bytes\n"
                "  public inputs %zu (IC %zu); H %zu (domain %zu), L %zu, A %zu, B_G1 %zu, B_G2 %zu\n"
                "  verifying key points in the prime-order subgroup (the vectors are not checked here)\n",
                path.c_str(), mp.file().size(), mp.vk().ic.size() - 1, mp.vk().ic.size(),
                mp.count(io::params_query::h), mp.count(io::params_query::h) + 1, mp.count(io::params_query::l),
                mp.count(io::params_query::a), mp.count(io::params_query::b_g1), mp.count(io::params_query::b_g2));
    return 0;
}

// snarkjs JSON: public signals, a proof or a verification key.
int info_json(const std::string& path)
{
    const io::json j = io::json::parse(io::read_text_file(path), path);
    if (j.is_array()) {
        std::printf("%s: public signals (JSON), %zu values\n", path.c_str(), j.size());
        return 0;
    }
    const bool bn = io::json_curve(j, path) == curve_id::bn254;
    if (j.find("pi_a")) {
        if (bn) (void)io::read_proof_json<bn254_curve>(path);
        else (void)io::read_proof_json<bls12_381_curve>(path);
        std::printf("%s: Groth16 proof (snarkjs JSON), curve %s, points on the curve and in the prime-order "
                    "subgroup\n", path.c_str(), bn ? "bn128" : "bls12381");
        return 0;
    }
    if (j.find("vk_alpha_1")) {
        const uint32_t n_public =
            bn ? io::read_vk_json<bn254_curve>(path).n_public() : io::read_vk_json<bls12_381_curve>(path).n_public();
        std::printf("%s: Groth16 verification key (snarkjs JSON), curve %s, %u public signals, points "
                    "in the prime-order subgroup, vk_alphabeta_12 = e(alpha, beta)\n",
                    path.c_str(), bn ? "bn128" : "bls12381", n_public);
        return 0;
    }
    throw error(errc::bad_format, fmt::format("{}: JSON, but not a proof, public signals or verification key", path));
}

// Why each candidate reading failed: the distinct reasons, each with the
// types that gave it ("as StackedDrgWinning2KiBV1, …: <reason>; as …").
class reasons {
public:
    void add(const std::string& type, const std::string& why)
    {
        for (auto& [w, types] : list_)
            if (w == why) {
                types += ", " + type;
                return;
            }
        list_.emplace_back(why, type);
    }
    std::string text() const
    {
        std::string out;
        for (const auto& [w, types] : list_) out += fmt::format("{}as {}: {}", out.empty() ? "" : "; ", types, w);
        return out;
    }

private:
    std::vector<std::pair<std::string, std::string>> list_;   // reason, types
};

// A PoSt vanilla proof: the registered proof types whose layout and
// challenge count the bytes fit (V1 and V1_2 WindowPoSt share theirs).
// Returns false when none does (each type's reason in *why).
bool info_post_vanilla(const std::string& path, std::span<const uint8_t> b, reasons* why)
{
    std::string types;
    filecoin::post_sector_proof p;
    for (int id = 0; id < 15; ++id) {
        const filecoin::post_config c = filecoin::registered_post_proof(id);
        try {
            p = filecoin::post_vanilla_from_bincode(b, c, path);
        } catch (const error& e) {
            why->add(c.name, e.what());
            continue;
        }
        if (p.inclusion_proofs.size() != c.challenge_count)
            why->add(c.name, fmt::format("{} challenged leaves, the type has {}", p.inclusion_proofs.size(),
                                         c.challenge_count));
        if (p.inclusion_proofs.size() == c.challenge_count) types += (types.empty() ? "" : ", ") + c.name;
    }
    if (types.empty()) return false;
    std::printf("%s: Filecoin PoSt vanilla proof (bincode of FallbackPoStSectorProof), sector %llu, comm_r %s, %zu "
                "challenged leaves\n  fits %s\n",
                path.c_str(), (unsigned long long)p.sector_id, filecoin::to_hex(p.comm_r).c_str(),
                p.inclusion_proofs.size(), types.c_str());
    return true;
}

// A SnapDeals vanilla partition proof: the registered update proof whose
// layout the bytes fit (each size has its own). Returns false when none does
// (each size's reason in *why).
bool info_update_vanilla(const std::string& path, std::span<const uint8_t> b, reasons* why)
{
    for (int id = 0; id < 5; ++id) {
        const filecoin::update_config c = filecoin::registered_update_proof(id);
        filecoin::update_partition_proof p;
        try {
            p = filecoin::update_partition_from_bincode(b, c, path);
        } catch (const error& e) {
            why->add("SnapDeals " + c.name, e.what());
            continue;
        }
        std::printf("%s: Filecoin SnapDeals vanilla partition proof (bincode of PartitionProof) of %s, comm_c %s, "
                    "%zu apex leaves, %zu challenges\n",
                    path.c_str(), c.name.c_str(), filecoin::to_hex(p.comm_c).c_str(), p.apex_leaves.size(),
                    p.challenges.size());
        return true;
    }
    return false;
}

} // namespace

int cmd_info(args a)
{
    const options o(a, {}, 1, 1);
    if (o.help())
        return show_help("info <file>", "What a file holds and whether its points check out: snarkjs .zkey, .wtns, "
                         ".r1cs, bellperson .params, .vk and 192-byte proofs, cuzk PCE files, snarkjs JSON (proof, "
                         "public signals, verification key), Filecoin PoSt vanilla proofs and SnapDeals vanilla partition "
                         "proofs.", {});
    const std::string path = o.positional()[0];
    progress_step step("cuzk info", "reading " + path);
    const io::mapped_file f(path);
    const auto b = f.bytes();
    const std::string magic = b.size() >= 4 ? std::string(reinterpret_cast<const char*>(b.data()), 4) : "";
    if (magic == "zkey" || magic == "wtns" || magic == "r1cs") return info_snarkjs_binary(magic, path);
    if (magic == "ptau") {
        std::printf("%s: snarkjs powers of tau (not read further by cuzk)\n", path.c_str());
        return 0;
    }
    if (b.size() >= 8 && std::memcmp(b.data(), "cuzk-pce", 8) == 0) {
        const r1cs::pce p = r1cs::load_pce(path);
        std::printf("%s: cuzk PCE (pre-compiled constraint evaluator)\n  inputs %u, aux %u, constraints %llu, "
                    "non-zeros A %zu, B %zu, C %zu\n",
                    path.c_str(), p.num_inputs, p.num_aux, (unsigned long long)p.num_constraints, p.a.nnz(),
                    p.b.nnz(), p.c.nnz());
        return 0;
    }
    if (ends_with(path, ".params")) return info_params(path);
    if (ends_with(path, ".vk")) {
        const auto vk = io::read_vk(path);
        if (vk.ic.empty()) throw error(errc::bad_format, fmt::format("{}: the verifying key has no IC points", path));
        std::printf("%s: bellperson verifying key, curve bls12381, %zu public inputs, points in the prime-order "
                    "subgroup\n",
                    path.c_str(), vk.ic.size() - 1);
        return 0;
    }
    if (!b.empty() && (b[0] == '{' || b[0] == '[' || b[0] == ' ' || b[0] == '\n')) return info_json(path);
    reasons why;
    if (info_post_vanilla(path, b, &why) || info_update_vanilla(path, b, &why)) return 0;
    if (ends_with(path, ".vanilla"))
        throw error(errc::bad_format,
                    fmt::format("not a PoSt or SnapDeals vanilla proof of any registered type; {}", why.text()));
    if (b.size() % 192 == 0 && !b.empty()) {
        const auto proofs = io::proofs_from_bytes(b);
        std::printf("%s: %zu bellperson Groth16 proof(s) (192 bytes each), points on the curve and in the prime-order subgroup\n", path.c_str(),
                    proofs.size());
        return 0;
    }
    if (b.size() >= 868) return info_params(path);
    throw error(errc::bad_format, fmt::format("{}: not a file cuzk recognises ({} bytes)", path, b.size()));
}

} // namespace cuzk::cli
