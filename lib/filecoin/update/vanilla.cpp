// cuzk — checking a SnapDeals partition's vanilla proof before proving it
// (filecoin/update/update.hpp, update_check_vanilla).
#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/hashers.hpp"
#include "cuzk/filecoin/common/poseidon.hpp"
#include "cuzk/filecoin/common/poseidon_tree.hpp"
#include "cuzk/filecoin/update/update.hpp"
#include "cuzk/util/parallel.hpp"

namespace cuzk::filecoin {

namespace {

[[noreturn]] void refuse(const std::string& msg) { throw error(errc::bad_format, msg); }

fr comm_r_of(const domain& comm_c, const domain& root, const std::string& what)
{
    const fr in[2] = {domain_to_fr(comm_c, what + " comm_c"), domain_to_fr(root, what + " root")};
    return poseidon_hash(in);
}

// Climbs a binary SHA-256 path over levels [first, first + count) from
// `node`; every level must be binary with the index bit of `index`.
domain climb_data(domain node, const merkle_proof& p, size_t first, size_t count, uint64_t index,
                  const std::string& what)
{
    if (!p.sub.empty() || !p.top.empty() || p.base.size() < first + count)
        refuse(fmt::format("{}: d_new is not a binary path of {} levels", what, first + count));
    for (size_t l = first; l < first + count; ++l) {
        const path_element& e = p.base[l];
        if (e.hashes.size() != 1 || e.index != ((index >> l) & 1))
            refuse(fmt::format("{}: d_new level {} is not the challenged node's", what, l));
        node = e.index ? sha256_node(e.hashes[0], node) : sha256_node(node, e.hashes[0]);
    }
    return node;
}

void check_challenge(const update_config& c, const update_public& pub, const fr& phi,
                     const update_partition_proof& proof, size_t n, uint32_t challenge, const std::string& what)
{
    const update_challenge_proof& p = proof.challenges[n];
    const update_challenge_proof& first = proof.challenges[0];
    for (const auto& [tree, name, root] : {std::tuple{&p.r_old, "r_old", &first.r_old.root},
                                           std::tuple{&p.r_new, "r_new", &first.r_new.root}}) {
        if (!verify_poseidon_proof(*tree, c.tree) || tree->leaf_index() != challenge)
            refuse(fmt::format("{}: {} is not a path of tree shape {} from node {}", what, name, c.tree.name(),
                               challenge));
        if (tree->root != *root) refuse(fmt::format("{}: {}.root differs from challenge 0's", what, name));
    }
    const unsigned depth = c.challenge_bits() - c.partition_bits() - c.apex_bits();
    const domain apex = climb_data(p.d_new.leaf, p.d_new, 0, depth, challenge, what);
    if (apex != proof.apex_leaves[(challenge >> depth) % c.apex_leaf_count])
        refuse(fmt::format("{}: d_new does not reach its apex leaf", what));
    const size_t above = c.challenge_bits() - c.partition_bits();
    for (size_t l = above; l < c.challenge_bits(); ++l)
        if (p.d_new.base[l] != first.d_new.base[l])
            refuse(fmt::format("{}: d_new's path above the apex differs from challenge 0's", what));
    const fr rho = update_rho(phi, challenge >> (c.challenge_bits() - pub.h));
    const fr want = update_encode(domain_to_fr(p.r_old.leaf, what + " r_old.leaf"),
                                  domain_to_fr(p.d_new.leaf, what + " d_new.leaf"), rho);
    if (domain_to_fr(p.r_new.leaf, what + " r_new.leaf") != want)
        refuse(fmt::format("{}: r_new.leaf is not the encoding of r_old.leaf and d_new.leaf", what));
}

} // namespace

void update_check_vanilla(const update_config& c, const update_public& pub, unsigned k,
                          const update_partition_proof& proof, unsigned threads)
{
    const std::string part = fmt::format("update vanilla proof, partition {}", k);
    c.h_select(pub.h);
    if (k >= c.partitions) refuse(fmt::format("{}: {} has {} partitions", part, c.name, c.partitions));
    if (proof.apex_leaves.size() != c.apex_leaf_count || proof.challenges.size() != c.challenge_count)
        refuse(fmt::format("{}: {} apex leaves and {} challenge proofs; {} needs {} and {}", part,
                           proof.apex_leaves.size(), proof.challenges.size(), c.name, c.apex_leaf_count,
                           c.challenge_count));
    const update_challenge_proof& first = proof.challenges[0];
    if (comm_r_of(proof.comm_c, first.r_old.root, part) != domain_to_fr(pub.comm_r_old, "comm_r_old"))
        refuse(part + ": Poseidon2(comm_c, r_old.root) is not comm_r_old");
    if (comm_r_of(proof.comm_c, first.r_new.root, part) != domain_to_fr(pub.comm_r_new, "comm_r_new"))
        refuse(part + ": Poseidon2(comm_c, r_new.root) is not comm_r_new");
    std::vector<domain> row = proof.apex_leaves;
    while (row.size() > 1) {
        std::vector<domain> up(row.size() / 2);
        for (size_t i = 0; i < up.size(); ++i) up[i] = sha256_node(row[2 * i], row[2 * i + 1]);
        row = std::move(up);
    }
    const size_t above = c.challenge_bits() - c.partition_bits();
    const uint64_t apex_index = uint64_t(k) << above;
    if (climb_data(row[0], first.d_new, above, c.partition_bits(), apex_index, part + " challenge 0") !=
        pub.comm_d_new)
        refuse(part + ": the apex leaves do not hash up to comm_d_new");
    const std::vector<uint32_t> challenges = update_challenges(c, pub.comm_r_new, k);
    const fr phi = update_phi(pub.comm_d_new, pub.comm_r_old);
    parallel_tasks(threads, challenges.size(), [&](size_t n, unsigned) {
        check_challenge(c, pub, phi, proof, n, challenges[n], fmt::format("{} challenge {}", part, n));
    });
}

} // namespace cuzk::filecoin
