// cuzk — replica_id and the interactive, non-interactive and synthetic
// PoRep challenge derivations.
#include "cuzk/filecoin/porep/challenges.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/hashers.hpp"

namespace cuzk::filecoin {

namespace {

constexpr uint64_t k_synth_default_count = uint64_t(1) << 18;
constexpr std::array<uint8_t, 12> k_synth_nonce = {'s', 'y', 'n', 't', 'h', '-', 'p', 'o', 'r', 'e', 'p', 0};
constexpr std::string_view k_synth_gen_key = "filecoin.io|PoRep|1|Synthetic|1|Generation";
constexpr std::string_view k_synth_sel_key = "filecoin.io|PoRep|1|Synthetic|1|Selection";
constexpr std::string_view k_ni_tag = "filecoin.io|PoRep|1|NonInteractive|1";

void check_nodes(uint64_t nodes, const char* who)
{
    if (nodes < 2 || nodes > (uint64_t(1) << 32))
        throw error(errc::invalid_argument, fmt::format("{}: nodes = {} is outside 2 … 2^32", who, nodes));
}

void put_u32_le(uint8_t* p, uint32_t v)
{
    for (int i = 0; i < 4; ++i) p[i] = uint8_t(v >> (8 * i));
}

// The ChaCha20 key: BLAKE2b-256 keyed with `tag` over a ‖ b.
digest32 synth_key(std::string_view tag, const domain& a, const domain& b)
{
    uint8_t msg[64];
    std::memcpy(msg, a.data(), 32);
    std::memcpy(msg + 32, b.data(), 32);
    return blake2b256_keyed(as_bytes(tag), msg);
}

// Challenges n·k … n·k+n−1 where challenge j hashes prefix ‖ j (u32 LE).
std::vector<uint64_t> sha_challenges(const uint8_t* prefix, size_t len, uint64_t nodes, unsigned n, unsigned k)
{
    std::vector<uint64_t> out(n);
    sha256_ctx ctx;
    for (unsigned i = 0; i < n; ++i) {
        uint8_t j[4];
        put_u32_le(j, uint32_t(uint64_t(n) * k + i));
        ctx.update(prefix, len);
        ctx.update(j, 4);
        const digest32 h = ctx.finish();
        out[i] = challenge_from_bytes(h.data(), nodes);
    }
    return out;
}

} // namespace

domain replica_id(const domain& prover_id, uint64_t sector_id, const domain& ticket, const domain& comm_d,
                  const porep_id_t& porep_id)
{
    uint8_t buf[32 + 8 + 32 + 32 + 32];
    std::memcpy(buf, prover_id.data(), 32);
    for (int i = 0; i < 8; ++i) buf[32 + i] = uint8_t(sector_id >> (56 - 8 * i));   // big-endian
    std::memcpy(buf + 40, ticket.data(), 32);
    std::memcpy(buf + 72, comm_d.data(), 32);
    std::memcpy(buf + 104, porep_id.data(), 32);
    return sha256_trunc(buf);
}

uint64_t challenge_from_bytes(const uint8_t* h32, uint64_t nodes)
{
    check_nodes(nodes, "challenge");
    const uint64_t m = nodes - 1;
    // Horner over the 64-bit limbs, most significant first.
    unsigned __int128 r = 0;
    for (int limb = 3; limb >= 0; --limb) {
        uint64_t v;
        std::memcpy(&v, h32 + 8 * limb, 8);   // little-endian host (x86-64)
        r = ((r << 64) | v) % m;
    }
    return uint64_t(r) + 1;
}

std::vector<uint64_t> interactive_challenges(uint64_t nodes, const domain& replica_id, const domain& seed,
                                             unsigned per_partition, unsigned k)
{
    check_nodes(nodes, "interactive_challenges");
    uint8_t prefix[64];
    std::memcpy(prefix, replica_id.data(), 32);
    std::memcpy(prefix + 32, seed.data(), 32);
    return sha_challenges(prefix, sizeof prefix, nodes, per_partition, k);
}

std::vector<uint64_t> ni_challenges(uint64_t nodes, const domain& replica_id, const domain& comm_r,
                                    unsigned per_partition, unsigned k)
{
    check_nodes(nodes, "ni_challenges");
    uint8_t prefix[k_ni_tag.size() + 64];
    std::memcpy(prefix, k_ni_tag.data(), k_ni_tag.size());
    std::memcpy(prefix + k_ni_tag.size(), replica_id.data(), 32);
    std::memcpy(prefix + k_ni_tag.size() + 32, comm_r.data(), 32);
    return sha_challenges(prefix, sizeof prefix, nodes, per_partition, k);
}

uint64_t default_synthetic_count(uint64_t nodes) { return std::min(nodes, k_synth_default_count); }

std::vector<uint64_t> synthetic_challenges(uint64_t nodes, const domain& replica_id, const domain& comm_r,
                                           uint64_t first, uint64_t count)
{
    check_nodes(nodes, "synthetic_challenges");
    std::vector<uint8_t> ks(count * 32);
    chacha20_keystream(synth_key(k_synth_gen_key, replica_id, comm_r), k_synth_nonce, first * 32, ks);
    std::vector<uint64_t> out(count);
    for (uint64_t i = 0; i < count; ++i) out[i] = challenge_from_bytes(ks.data() + 32 * i, nodes);
    return out;
}

std::vector<uint64_t> synthetic_selection(uint64_t num_synth, const domain& replica_id, const domain& seed,
                                          unsigned per_partition, unsigned k)
{
    if (num_synth == 0 || num_synth > (uint64_t(1) << 32))
        throw error(errc::invalid_argument, fmt::format("synthetic_selection: num_synth = {}", num_synth));
    std::vector<uint8_t> ks(size_t(per_partition) * 4);
    const uint64_t first = uint64_t(per_partition) * k;
    chacha20_keystream(synth_key(k_synth_sel_key, replica_id, seed), k_synth_nonce, first * 4, ks);
    std::vector<uint64_t> out(per_partition);
    for (unsigned i = 0; i < per_partition; ++i) {
        uint32_t v = 0;
        for (int b = 3; b >= 0; --b) v = v << 8 | ks[4 * i + b];
        out[i] = v % num_synth;
    }
    return out;
}

std::vector<uint64_t> synthetic_porep_challenges(uint64_t nodes, const domain& replica_id, const domain& comm_r,
                                                 const domain& seed, unsigned per_partition, unsigned k,
                                                 uint64_t num_synth)
{
    if (num_synth == 0) num_synth = default_synthetic_count(nodes);
    std::vector<uint64_t> picks = synthetic_selection(num_synth, replica_id, seed, per_partition, k);
    for (uint64_t& p : picks) p = synthetic_challenges(nodes, replica_id, comm_r, p, 1)[0];
    return picks;
}

challenge_kind challenge_kind_of(const seal_config& config)
{
    if (config.registered_id >= 10 && config.registered_id <= 14) return challenge_kind::synthetic;
    if (config.registered_id >= 15 && config.registered_id <= 19) return challenge_kind::non_interactive;
    return challenge_kind::interactive;
}

std::vector<uint64_t> porep_challenges(const seal_config& config, const domain& replica_id, const domain& comm_r,
                                       const domain& seed, unsigned k)
{
    if (k >= config.partitions)
        throw error(errc::invalid_argument,
                    fmt::format("porep_challenges: partition {} of {} ({})", k, config.partitions, config.name));
    const unsigned n = config.challenges_per_partition;
    switch (challenge_kind_of(config)) {
    case challenge_kind::synthetic:
        return synthetic_porep_challenges(config.nodes, replica_id, comm_r, seed, n, k);
    case challenge_kind::non_interactive: return ni_challenges(config.nodes, replica_id, comm_r, n, k);
    case challenge_kind::interactive: break;
    }
    return interactive_challenges(config.nodes, replica_id, seed, n, k);
}

} // namespace cuzk::filecoin
