// cuzk serve — decoding Curio's requests (requests.hpp).
#include "requests.hpp"

#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/porep/c1_json.hpp"
#include "cuzk/filecoin/porep/circuit.hpp"
#include "cuzk/filecoin/porep/prove.hpp"
#include "cuzk/filecoin/porep/vanilla_verify.hpp"
#include "cuzk/filecoin/post/bincode.hpp"
#include "cuzk/filecoin/post/prove.hpp"
#include "cuzk/filecoin/update/bincode.hpp"
#include "cuzk/filecoin/update/prove.hpp"
#include "cuzk/io/json.hpp"

namespace cuzk::daemon {

namespace fc = filecoin;

namespace {

// Runs `f`, turning the library's errors into a request_error.
template <class F>
auto refuse_on_error(F&& f)
{
    try {
        return f();
    } catch (const error& e) {
        throw request_error(e.what());
    }
}

fc::domain domain_field(const std::string& bytes, const char* field)
{
    if (bytes.size() != 32) throw request_error(fmt::format("{}: expected 32 bytes, got {}", field, bytes.size()));
    fc::domain d;
    std::copy(bytes.begin(), bytes.end(), d.begin());
    return d;
}

void check_sector_size(const v1::SubmitProofRequest& r, uint64_t bytes, const std::string& proof_name)
{
    if (r.sector_size() != 0 && r.sector_size() != bytes)
        throw request_error(fmt::format("sector_size: {} bytes, but registered_proof {} ({}) has {}-byte sectors",
                                        r.sector_size(), r.registered_proof(), proof_name, bytes));
}

std::span<const uint8_t> bytes_of(const std::string& s)
{
    return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

int default_priority(proof_kind k)
{
    return k == proof_kind::winning_post ? v1::CRITICAL : k == proof_kind::window_post ? v1::HIGH : v1::NORMAL;
}

// The PoRep wrapper's three members.
struct c1_wrapper {
    uint64_t sector_num = 0, sector_size = 0;
    std::string phase1_out;   // base64
};

c1_wrapper read_wrapper(const std::string& text)
{
    const io::json j = refuse_on_error([&] { return io::json::parse(text, "vanilla_proof"); });
    if (!j.is_object()) throw request_error("vanilla_proof: expected a JSON object {\"SectorNum\", \"Phase1Out\", \"SectorSize\"}");
    auto u64 = [&](const char* name) {
        const io::json* m = j.find(name);
        const std::optional<uint64_t> v = m ? m->as_u64() : std::nullopt;
        if (!v) throw request_error(fmt::format("vanilla_proof.{}: expected an unsigned integer", name));
        return *v;
    };
    c1_wrapper w;
    w.sector_num = u64("SectorNum");
    w.sector_size = u64("SectorSize");
    const io::json* p = j.find("Phase1Out");
    if (!p || !p->is_string()) throw request_error("vanilla_proof.Phase1Out: expected a base64 string");
    w.phase1_out = p->as_string();
    return w;
}

decoded_request decode_porep(const v1::SubmitProofRequest& r, const circuit& c)
{
    const fc::seal_config cfg = fc::registered_seal_proof(c.registered);
    check_sector_size(r, cfg.sector_bytes(), cfg.name);
    if (r.vanilla_proof().empty()) throw request_error("vanilla_proof: empty (PoRep C2 takes the C1 output wrapper)");
    const c1_wrapper w = read_wrapper(r.vanilla_proof());
    if (w.sector_size != cfg.sector_bytes())
        throw request_error(fmt::format("vanilla_proof.SectorSize: {}, but {} has {}-byte sectors", w.sector_size,
                                        cfg.name, cfg.sector_bytes()));
    if (r.sector_number() != 0 && w.sector_num != r.sector_number())
        throw request_error(fmt::format("vanilla_proof.SectorNum: {}, but sector_number is {}", w.sector_num,
                                        r.sector_number()));
    const std::string json = base64_decode(w.phase1_out, "vanilla_proof.Phase1Out");
    auto c1 = std::make_shared<const fc::c1_output>(
        refuse_on_error([&] { return fc::read_c1_json(json, "vanilla_proof.Phase1Out"); }));
    if (c1->config.registered_id != c.registered)
        throw request_error(fmt::format("registered_proof: {} ({}), but the C1 output is {}", c.registered, cfg.name,
                                        c1->config.name));
    decoded_request d;
    d.c = c;
    d.partitions = unsigned(c1->partitions.size());
    const fc::c1_identity who{fc::prover_id_of_actor(r.miner_id()), w.sector_num};
    d.check = [c1, who](unsigned threads) { fc::verify_c1(*c1, threads, &who); };
    d.make = [c1](pipeline::key_id key, unsigned) {
        pipeline::proof_request req;
        req.key = key;
        for (unsigned k = 0; k < c1->partitions.size(); ++k)
            req.partitions.emplace_back(std::in_place_type<pipeline::circuit_partition>,
                                        pipeline::circuit_partition{std::make_shared<const fc::porep_circuit>(*c1, k)});
        return req;
    };
    d.verify = [c1](const groth16::verifying_key& vk, std::span<const uint8_t> proof) {
        return fc::porep_verify(vk, proof, c1->config, c1->replica_id, c1->comm_d, c1->comm_r, c1->seed);
    };
    return d;
}

decoded_request decode_snap(const v1::SubmitProofRequest& r, const circuit& c)
{
    const fc::update_config cfg = fc::registered_update_proof(c.registered);
    check_sector_size(r, cfg.sector_bytes(), cfg.name);
    if (unsigned(r.vanilla_proofs_size()) != cfg.partitions)
        throw request_error(fmt::format("vanilla_proofs: {} entries, but {} has {} partitions (one entry each)",
                                        r.vanilla_proofs_size(), cfg.name, cfg.partitions));
    auto pub = std::make_shared<fc::update_public>();
    pub->comm_r_old = domain_field(r.comm_r_old(), "comm_r_old");
    pub->comm_r_new = domain_field(r.comm_r_new(), "comm_r_new");
    pub->comm_d_new = domain_field(r.comm_d_new(), "comm_d_new");
    pub->h = cfg.h_default();
    auto parts = std::make_shared<std::vector<fc::update_partition_proof>>();
    for (int i = 0; i < r.vanilla_proofs_size(); ++i)
        parts->push_back(refuse_on_error([&] {
            return fc::update_partition_from_bincode(bytes_of(r.vanilla_proofs(i)), cfg,
                                                     fmt::format("vanilla_proofs[{}]", i));
        }));
    decoded_request d;
    d.c = c;
    d.partitions = cfg.partitions;
    d.check = [](unsigned) {};   // update_proof_request checks every partition's openings
    d.make = [cfg, pub, parts](pipeline::key_id key, unsigned threads) {
        return fc::update_proof_request(key, cfg, *pub, *parts, threads);
    };
    d.verify = [cfg, pub](const groth16::verifying_key& vk, std::span<const uint8_t> proof) {
        return fc::update_verify(vk, proof, cfg, *pub);
    };
    return d;
}

decoded_request decode_post(const v1::SubmitProofRequest& r, const circuit& c)
{
    const fc::post_config cfg = fc::registered_post_proof(c.registered);
    check_sector_size(r, cfg.sector_bytes(), cfg.name);
    fc::domain randomness = domain_field(r.randomness(), "randomness");
    randomness[31] &= 0x3f;   // a field element, as Lotus and Curio make it
    const bool winning = c.kind == proof_kind::winning_post;
    const unsigned most = winning ? 1 : cfg.sector_count;
    if (r.vanilla_proofs_size() == 0 || unsigned(r.vanilla_proofs_size()) > most)
        throw request_error(fmt::format("vanilla_proofs: {} entries; {} takes 1 to {} (one per sector)",
                                        r.vanilla_proofs_size(), cfg.name, most));
    if (winning && r.partition_index() != 0) throw request_error("partition_index: WinningPoSt has partition 0 only");
    auto proofs = std::make_shared<std::vector<fc::post_sector_proof>>();
    for (int i = 0; i < r.vanilla_proofs_size(); ++i) {
        const std::string what = fmt::format("vanilla_proofs[{}]", i);
        fc::post_sector_proof p =
            refuse_on_error([&] { return fc::post_vanilla_from_bincode(bytes_of(r.vanilla_proofs(i)), cfg, what); });
        if (p.inclusion_proofs.size() != cfg.challenge_count)
            throw request_error(fmt::format("{}: sector {}: {} challenges, {} has {} (a vanilla proof of another PoSt type?)",
                                            what, p.sector_id, p.inclusion_proofs.size(), cfg.name, cfg.challenge_count));
        proofs->push_back(std::move(p));
    }
    const unsigned first = r.partition_index();
    decoded_request d;
    d.c = c;
    d.partitions = 1;
    d.check = [](unsigned) {};   // post_proof_request checks every sector's openings
    d.make = [cfg, randomness, proofs, first](pipeline::key_id key, unsigned threads) {
        return fc::post_proof_request(key, cfg, randomness, *proofs, first, threads);
    };
    d.verify = [cfg, randomness, proofs, first](const groth16::verifying_key& vk, std::span<const uint8_t> proof) {
        return fc::post_verify(vk, proof, cfg, randomness, fc::post_public_sectors(*proofs), first);
    };
    return d;
}

} // namespace

std::string base64_encode(std::string_view bytes)
{
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    for (size_t i = 0; i < bytes.size(); i += 3) {
        const size_t k = std::min<size_t>(3, bytes.size() - i);
        uint32_t v = 0;
        for (size_t j = 0; j < 3; ++j) v = v << 8 | (j < k ? uint8_t(bytes[i + j]) : 0u);
        for (size_t j = 0; j < 4; ++j) out += j <= k ? digits[(v >> (18 - 6 * j)) & 63] : '=';
    }
    return out;
}

std::string base64_decode(std::string_view text, const std::string& what)
{
    auto sextet = [](char ch) -> int {
        if (ch >= 'A' && ch <= 'Z') return ch - 'A';
        if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
        if (ch >= '0' && ch <= '9') return ch - '0' + 52;
        if (ch == '+') return 62;
        if (ch == '/') return 63;
        return -1;
    };
    if (text.size() % 4 != 0)
        throw request_error(fmt::format("{}: not standard base64 (length {} is not a multiple of 4)", what, text.size()));
    std::string out;
    out.reserve(text.size() / 4 * 3);
    for (size_t i = 0; i < text.size(); i += 4) {
        int v[4];
        int pad = 0;
        for (int j = 0; j < 4; ++j) {
            const char ch = text[i + j];
            const bool last = i + 4 == text.size();
            if (ch == '=' && last && j >= 2 && (j == 3 || text[i + 3] == '=')) {
                v[j] = 0;
                ++pad;
                continue;
            }
            v[j] = sextet(ch);
            if (v[j] < 0 || pad)
                throw request_error(fmt::format("{}: not standard base64 (byte {} is '{}')", what, i + j,
                                                ch >= 0x20 && ch < 0x7f ? std::string(1, ch) : fmt::format("\\x{:02x}", uint8_t(ch))));
        }
        const uint32_t n = uint32_t(v[0]) << 18 | uint32_t(v[1]) << 12 | uint32_t(v[2]) << 6 | uint32_t(v[3]);
        out += char(n >> 16);
        if (pad < 2) out += char(n >> 8 & 0xff);
        if (pad < 1) out += char(n & 0xff);
    }
    return out;
}

decoded_request decode_request(const v1::SubmitProofRequest& r)
{
    proof_kind kind;
    switch (r.proof_kind()) {
    case v1::POREP_SEAL_COMMIT: kind = proof_kind::porep; break;
    case v1::SNAP_DEALS_UPDATE: kind = proof_kind::snap; break;
    case v1::WINDOW_POST_PARTITION: kind = proof_kind::window_post; break;
    case v1::WINNING_POST: kind = proof_kind::winning_post; break;
    default: throw request_error(fmt::format("proof_kind: {} is not a proof kind this daemon proves", int(r.proof_kind())));
    }
    const std::optional<circuit> c = circuit_of(kind, r.registered_proof());
    if (!c)
        throw request_error(fmt::format("registered_proof: {} is not a registered proof of {}", r.registered_proof(),
                                        queue_name(kind)));
    if (r.priority() < 0 || r.priority() > v1::CRITICAL)
        throw request_error(fmt::format("priority: {} is not a Priority", int(r.priority())));
    decoded_request d = kind == proof_kind::porep ? decode_porep(r, *c)
                        : kind == proof_kind::snap ? decode_snap(r, *c)
                                                   : decode_post(r, *c);
    d.priority = r.priority() == v1::PRIORITY_UNSPECIFIED ? default_priority(kind) : int(r.priority());
    return d;
}

} // namespace cuzk::daemon
