// cuzk — SnapDeals' proof types, challenges and encoding randomness
// (filecoin/update/update.hpp).
#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/poseidon.hpp"
#include "cuzk/filecoin/update/update.hpp"

namespace cuzk::filecoin {

namespace {

[[noreturn]] void bad(const std::string& msg) { throw error(errc::invalid_argument, msg); }

// rust-fil-proofs' storage-proofs-update constants, by sector nodes.
constexpr uint64_t kib8 = 1u << 8, kib32 = 1u << 10, mib16 = 1u << 19;
constexpr uint64_t allowed_nodes[] = {1u << 5, 1u << 6, 1u << 7, 1u << 8, 1u << 9, 1u << 10,
                                      1u << 18, 1u << 19, 1u << 24, 1ull << 30, 1ull << 31};
// The custom domain tag of phi, rho and the challenge digests.
constexpr uint64_t gen_randomness_tag = 1;

struct registered {
    const char* name;
    uint64_t nodes;
    tree_shape tree;
};
constexpr registered registered_updates[] = {
    {"StackedDrg2KiBV1", 1u << 6, {8, 0, 0}},     {"StackedDrg8MiBV1", 1u << 18, {8, 0, 0}},
    {"StackedDrg512MiBV1", 1u << 24, {8, 0, 0}},  {"StackedDrg32GiBV1", 1ull << 30, {8, 8, 0}},
    {"StackedDrg64GiBV1", 1ull << 31, {8, 8, 2}},
};

unsigned log2_exact(uint64_t v) { return unsigned(std::countr_zero(v)); }

} // namespace

unsigned update_config::challenge_bits() const { return log2_exact(nodes); }
unsigned update_config::partition_bits() const { return log2_exact(partitions); }
unsigned update_config::apex_bits() const { return log2_exact(apex_leaf_count); }

unsigned update_config::digests_per_partition() const
{
    const unsigned per = challenges_per_digest();
    return (challenge_count + per - 1) / per;
}

uint64_t update_config::h_select(unsigned h) const
{
    for (size_t i = 0; i < hs.size(); ++i)
        if (hs[i] == h) return uint64_t(1) << i;
    bad(fmt::format("update: h = {} is not one of {}'s allowed values {}..{}", h, name, hs.front(), hs.back()));
}

update_config update_config::for_nodes(uint64_t nodes, tree_shape tree)
{
    if (std::find(std::begin(allowed_nodes), std::end(allowed_nodes), nodes) == std::end(allowed_nodes))
        bad(fmt::format("update: {} nodes is not a sector size SnapDeals defines", nodes));
    poseidon_tree_base_height(nodes, tree);   // the tree fits the nodes (throws otherwise)
    update_config c;
    c.nodes = nodes;
    c.tree = tree;
    c.partitions = nodes <= kib8 ? 1 : nodes <= kib32 ? 2 : nodes <= mib16 ? 4 : 16;
    c.challenge_count = nodes <= mib16 ? 10 : 86;
    c.apex_leaf_count = nodes <= kib8 ? 8 : 128;
    if (nodes <= kib32) c.hs = {1, 1, 1, 1, 1, 1};
    else c.hs = {7, 8, 9, 10, 11, 12};
    c.name = "custom";
    return c;
}

update_config registered_update_proof(int id)
{
    if (id < 0 || size_t(id) >= std::size(registered_updates))
        bad(fmt::format("update: RegisteredUpdateProof {} is not one cuzk knows (0..{})", id,
                        std::size(registered_updates) - 1));
    const registered& r = registered_updates[id];
    update_config c = update_config::for_nodes(r.nodes, r.tree);
    c.registered_id = id;
    c.name = r.name;
    return c;
}

update_config registered_update_proof(std::string_view name)
{
    for (size_t i = 0; i < std::size(registered_updates); ++i)
        if (name == registered_updates[i].name) return registered_update_proof(int(i));
    bad(fmt::format("update: no registered update proof is named '{}'", name));
}

fr update_phi(const domain& comm_d_new, const domain& comm_r_old)
{
    const fr in[2] = {domain_to_fr(comm_d_new, "comm_d_new"), domain_to_fr(comm_r_old, "comm_r_old")};
    return poseidon_hash_custom(gen_randomness_tag, in);
}

fr update_rho(const fr& phi, uint64_t high)
{
    const fr in[2] = {phi, fr::from_u64(high)};
    return poseidon_hash_custom(gen_randomness_tag, in);
}

fr update_encode(const fr& r_old, const fr& d_new, const fr& rho) { return r_old + d_new * rho; }

std::vector<uint32_t> update_challenges(const update_config& config, const domain& comm_r_new, unsigned k)
{
    if (k >= config.partitions)
        bad(fmt::format("update: partition {} is out of range ({} has {})", k, config.name, config.partitions));
    const unsigned bits = config.random_bits();
    const unsigned per = config.challenges_per_digest();
    const fr comm = domain_to_fr(comm_r_new, "comm_r_new");
    std::vector<uint32_t> out;
    out.reserve(config.challenge_count);
    uint64_t digest_index = uint64_t(k) * config.digests_per_partition();
    fr::repr digest{};
    for (unsigned n = 0; n < config.challenge_count; ++n) {
        const unsigned i = n % per;
        if (i == 0) {
            const fr in[2] = {comm, fr::from_u64(digest_index++)};
            digest = poseidon_hash_custom(gen_randomness_tag, in).to_repr();
        }
        uint32_t c = 0;
        for (unsigned b = 0; b < bits; ++b)
            if (digest.bit(i * bits + b)) c |= uint32_t(1) << b;
        out.push_back(c | uint32_t(k) << bits);
    }
    return out;
}

std::vector<fr> update_public_inputs(const update_config& config, const update_public& pub, unsigned k)
{
    if (k >= config.partitions)
        bad(fmt::format("update: partition {} is out of range ({} has {})", k, config.name, config.partitions));
    const uint64_t packed = uint64_t(k) | config.h_select(pub.h) << config.partition_bits();
    return {fr::from_u64(packed), domain_to_fr(pub.comm_r_old, "comm_r_old"),
            domain_to_fr(pub.comm_d_new, "comm_d_new"), domain_to_fr(pub.comm_r_new, "comm_r_new")};
}

} // namespace cuzk::filecoin
