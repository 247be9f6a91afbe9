// cuzk — SnapDeals vanilla partition proofs as bincode bytes: the writer and
// the strict reader (update/bincode.hpp; the layout is docs/FORMATS.md
// §5.6). The MerkleProofs are read and written by common/bincode_merkle.cpp.
#include "cuzk/filecoin/update/bincode.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <string>

#include "filecoin/common/bincode_merkle.hpp"
#include "cuzk/error.hpp"

namespace cuzk::filecoin {

namespace {

using detail::byte_reader;
using detail::merkle_layout;
using detail::bad_config;
using detail::proof_name;

// What the config fixes: the two trees' Merkle proofs, the counts.
struct partition_layout {
    merkle_layout r;   // tree R_old and tree R_new (the config's shape)
    merkle_layout d;   // tree D_new (binary, SHA-256: Single)
    uint64_t challenge_bytes = 0;
    std::string config;   // "StackedDrg32GiBV1", for messages
};

partition_layout layout_of(const update_config& c, std::string_view what)
{
    uint64_t r_levels = 0;
    try {
        r_levels = poseidon_tree_base_height(c.nodes, c.tree);
    } catch (const error&) {
        bad_config(what, fmt::format("nodes = {} does not fit tree {}", c.nodes, c.tree.name()));
    }
    if (!std::has_single_bit(c.nodes))   // every node count a tree fits is one; tree D needs it
        bad_config(what, fmt::format("nodes = {} is not a power of two", c.nodes));
    partition_layout lay;
    lay.r = detail::make_merkle_layout(c.tree, r_levels, fmt::format("tree {} of {} nodes", c.tree.name(), c.nodes));
    lay.d = detail::make_merkle_layout(tree_shape{2, 0, 0}, uint64_t(std::countr_zero(c.nodes)),
                                       fmt::format("binary tree D of {} nodes", c.nodes));
    lay.challenge_bytes = 2 * lay.r.bytes + lay.d.bytes;
    lay.config = c.name.empty() || c.name == "custom" ? fmt::format("the custom update of {} nodes", c.nodes) : c.name;
    return lay;
}

proof_name challenge(size_t n, const char* member) { return {"challenge_proofs", n, member}; }

} // namespace

std::vector<uint8_t> update_partition_to_bincode(const update_partition_proof& proof, const update_config& config)
{
    constexpr std::string_view who = "update_partition_to_bincode";
    const partition_layout lay = layout_of(config, who);
    if (proof.apex_leaves.size() != config.apex_leaf_count)
        bad_config(who, fmt::format("{} apex leaves; {} takes {}", proof.apex_leaves.size(), lay.config,
                                    config.apex_leaf_count));
    if (proof.challenges.size() != config.challenge_count)
        bad_config(who, fmt::format("{} challenge proofs; {} takes {}", proof.challenges.size(), lay.config,
                                    config.challenge_count));
    for (size_t n = 0; n < proof.challenges.size(); ++n) {
        const update_challenge_proof& p = proof.challenges[n];
        detail::check_merkle_fits(p.r_old, lay.r, challenge(n, "proof_r_old"), who);
        detail::check_merkle_fits(p.d_new, lay.d, challenge(n, "proof_d_new"), who);
        detail::check_merkle_fits(p.r_new, lay.r, challenge(n, "proof_r_new"), who);
    }
    std::vector<uint8_t> out;
    out.reserve(32 + 8 + 32 * proof.apex_leaves.size() + 8 + proof.challenges.size() * lay.challenge_bytes);
    detail::put_domain(out, proof.comm_c);
    detail::put_le(out, proof.apex_leaves.size(), 8);
    for (const domain& d : proof.apex_leaves) detail::put_domain(out, d);
    detail::put_le(out, proof.challenges.size(), 8);
    for (const update_challenge_proof& p : proof.challenges) {   // ChallengeProof { proof_r_old, proof_d_new, proof_r_new }
        detail::put_merkle(out, p.r_old, lay.r);
        detail::put_merkle(out, p.d_new, lay.d);
        detail::put_merkle(out, p.r_new, lay.r);
    }
    return out;
}

update_partition_proof update_partition_from_bincode(std::span<const uint8_t> bytes, const update_config& config,
                                                     std::string_view what)
{
    const partition_layout lay = layout_of(config, what);
    byte_reader r(bytes, what);
    update_partition_proof out;
    r.get(out.comm_c, "comm_c");

    // The counts must be the config's before anything is read under them,
    // and memory is reserved only for what the bytes left can hold.
    size_t at = r.pos();
    const uint64_t apex = r.le(8, "apex_leafs");
    if (apex != config.apex_leaf_count)
        r.fail(errc::bad_format, at, "apex_leafs",
               fmt::format("{} apex leaves; {} takes {}", apex, lay.config, config.apex_leaf_count));
    out.apex_leaves.reserve(std::min<uint64_t>(apex, r.left() / 32));
    for (size_t i = 0; i < apex; ++i)
        r.get(out.apex_leaves.emplace_back(), [&] { return fmt::format("apex_leafs[{}]", i); });

    at = r.pos();
    const uint64_t count = r.le(8, "challenge_proofs");
    if (count != config.challenge_count)
        r.fail(errc::bad_format, at, "challenge_proofs",
               fmt::format("{} challenge proofs; {} takes {}", count, lay.config, config.challenge_count));
    out.challenges.reserve(std::min<uint64_t>(count, r.left() / lay.challenge_bytes));
    for (size_t n = 0; n < count; ++n) {   // ChallengeProof { proof_r_old, proof_d_new, proof_r_new }
        update_challenge_proof& p = out.challenges.emplace_back();
        p.r_old = detail::read_merkle(r, challenge(n, "proof_r_old"), lay.r);
        p.d_new = detail::read_merkle(r, challenge(n, "proof_d_new"), lay.d);
        p.r_new = detail::read_merkle(r, challenge(n, "proof_r_new"), lay.r);
    }
    if (r.left() != 0)
        r.fail(errc::bad_length, r.pos(), "end", fmt::format("{} bytes after the partition proof", r.left()));
    return out;
}

} // namespace cuzk::filecoin
