// cuzk — FallbackPoSt: registered proof types and challenge derivation
// (post/post.hpp).
#include <fmt/format.h>

#include <array>
#include <cstring>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/hashers.hpp"
#include "cuzk/filecoin/post/post.hpp"

namespace cuzk::filecoin {

namespace {

[[noreturn]] void bad(const std::string& msg) { throw error(errc::invalid_argument, msg); }

// Per registered sector size (id % 5): its label and WindowPoSt's sectors
// per partition (filecoin-proofs' WINDOW_POST_SECTOR_COUNT).
struct post_size_row {
    const char* label;
    unsigned window_sectors;
};
constexpr post_size_row k_post_sizes[5] = {
    {"2KiB", 2}, {"8MiB", 2}, {"512MiB", 2}, {"32GiB", 2349}, {"64GiB", 2300},
};
constexpr unsigned k_window_challenges = 10;
constexpr unsigned k_winning_challenges = 66;
constexpr int k_registered_post_proofs = 15;

void put_u64_le(uint8_t* out, uint64_t v)
{
    for (int i = 0; i < 8; ++i) out[i] = uint8_t(v >> (8 * i));
}

uint64_t u64_le(const uint8_t* in)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = v << 8 | in[i];
    return v;
}

} // namespace

unsigned post_config::partitions_for(size_t sectors) const
{
    if (type == post_type::winning) return 1;
    const size_t p = (sectors + sector_count - 1) / sector_count;
    return unsigned(p < 1 ? 1 : p);
}

post_config post_config::custom(post_type type, uint64_t nodes, tree_shape tree, unsigned sector_count,
                                unsigned challenge_count, api_version api)
{
    try {
        (void)seal_config::custom(nodes, 2, 1, tree, porep_id_t{});   // the same checks of nodes and tree
    } catch (const error& e) {
        bad(fmt::format("post_config: {}", e.what()));
    }
    if (sector_count < 1) bad("post_config: sector_count must be >= 1");
    if (challenge_count < 1) bad("post_config: challenge_count must be >= 1");
    if (type == post_type::winning && sector_count != 1) bad("post_config: WinningPoSt proves one sector");
    if (api == api_version::v1_1) bad("post_config: PoSt has API versions 1.0 and 1.2 only");
    if (type == post_type::winning && api != api_version::v1_0) bad("post_config: WinningPoSt has API version 1.0 only");
    post_config c;
    c.type = type;
    c.nodes = nodes;
    c.tree = tree;
    c.sector_count = sector_count;
    c.challenge_count = challenge_count;
    c.api = api;
    c.registered_id = -1;
    c.name = "custom";
    return c;
}

post_config registered_post_proof(int id)
{
    if (id < 0 || id >= k_registered_post_proofs)
        bad(fmt::format("registered_post_proof: id {} is outside 0..{}", id, k_registered_post_proofs - 1));
    const seal_config seal = registered_seal_proof(5 + id % 5);   // V1_1: the size's nodes and tree
    const post_size_row& row = k_post_sizes[id % 5];
    post_config c;
    c.type = id < 5 ? post_type::winning : post_type::window;
    c.nodes = seal.nodes;
    c.tree = seal.tree;
    c.sector_count = id < 5 ? 1 : row.window_sectors;
    c.challenge_count = id < 5 ? k_winning_challenges : k_window_challenges;
    c.api = id < 10 ? api_version::v1_0 : api_version::v1_2;
    c.registered_id = id;
    c.name = fmt::format("StackedDrg{}{}{}", id < 5 ? "Winning" : "Window", row.label, id < 10 ? "V1" : "V1_2");
    return c;
}

post_config registered_post_proof(std::string_view name)
{
    for (int id = 0; id < k_registered_post_proofs; ++id) {
        post_config c = registered_post_proof(id);
        if (c.name == name) return c;
    }
    bad(fmt::format("registered_post_proof: '{}' is not a registered PoSt proof (StackedDrgWinning<size>V1, "
                    "StackedDrgWindow<size>V1 or V1_2; size 2KiB, 8MiB, 512MiB, 32GiB or 64GiB)",
                    name));
}

uint64_t post_challenge_index(api_version api, uint64_t sector_index, unsigned challenge_count, unsigned n)
{
    if (api == api_version::v1_2) return n;
    return sector_index * challenge_count + n;
}

uint64_t post_leaf_challenge(const domain& randomness, uint64_t sector_id, uint64_t index, uint64_t nodes)
{
    std::array<uint8_t, 48> pre{};
    std::memcpy(pre.data(), randomness.data(), 32);
    put_u64_le(pre.data() + 32, sector_id);
    put_u64_le(pre.data() + 40, index);
    const digest32 h = sha256(pre);
    return u64_le(h.data()) % nodes;
}

std::vector<std::vector<uint64_t>> post_sector_challenges(const post_config& config, const domain& randomness,
                                                          std::span<const uint64_t> sector_ids)
{
    if (config.type == post_type::winning && sector_ids.size() != 1)
        bad(fmt::format("post_sector_challenges: WinningPoSt proves one sector, {} given", sector_ids.size()));
    std::vector<std::vector<uint64_t>> out(sector_ids.size());
    for (size_t s = 0; s < sector_ids.size(); ++s)
        for (unsigned n = 0; n < config.challenge_count; ++n)
            out[s].push_back(post_leaf_challenge(
                randomness, sector_ids[s], post_challenge_index(config.api, s, config.challenge_count, n),
                config.nodes));
    return out;
}

std::vector<uint64_t> winning_post_sector_challenge(const domain& randomness, const domain& prover_id,
                                                    uint64_t sector_set_len, unsigned count)
{
    if (sector_set_len == 0) bad("winning_post_sector_challenge: the sector set is empty");
    std::vector<uint64_t> out;
    for (unsigned n = 0; n < count; ++n) {
        std::array<uint8_t, 72> pre{};
        std::memcpy(pre.data(), prover_id.data(), 32);
        std::memcpy(pre.data() + 32, randomness.data(), 32);
        put_u64_le(pre.data() + 64, n);
        out.push_back(u64_le(sha256(pre).data()) % sector_set_len);
    }
    return out;
}

} // namespace cuzk::filecoin
