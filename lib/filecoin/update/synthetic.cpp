// cuzk — a made-up SnapDeals update (filecoin/update/update.hpp,
// update_synthetic_vanilla): trees constant on aligned blocks, the encoding,
// and every partition's vanilla proof.
#include <array>
#include <string_view>
#include <unordered_map>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/hashers.hpp"
#include "cuzk/filecoin/common/poseidon.hpp"
#include "cuzk/filecoin/update/update.hpp"
#include "filecoin/common/blocked_tree.hpp"

namespace cuzk::filecoin {

namespace {

domain made_up(uint64_t seed, char tag, uint64_t block)
{
    constexpr std::string_view label = "cuzk-synthetic-update";
    std::vector<uint8_t> msg(label.begin(), label.end());
    for (int i = 0; i < 8; ++i) msg.push_back(uint8_t(seed >> (8 * i)));
    msg.push_back(uint8_t(tag));
    for (int i = 0; i < 8; ++i) msg.push_back(uint8_t(block >> (8 * i)));
    return sha256_trunc(msg);
}

// The largest power of the base arity that leaves at least 2^15 blocks and
// fits a base tree and a region of one rho (2^(bits − h) nodes).
uint64_t block_size(const update_config& c, unsigned h)
{
    const uint64_t base_tree = c.nodes / c.tree.base_trees(), region = c.nodes >> h;
    uint64_t b = 1;
    while (c.nodes / (b * c.tree.base) >= (uint64_t(1) << 15) && b * c.tree.base <= base_tree &&
           b * c.tree.base <= region)
        b *= c.tree.base;
    return b;
}

domain comm_r_of(const domain& comm_c, const domain& root)
{
    const fr in[2] = {domain_to_fr(comm_c, "comm_c"), domain_to_fr(root, "tree root")};
    return fr_to_domain(poseidon_hash(in));
}

} // namespace

update_vanilla update_synthetic_vanilla(const update_config& config, unsigned h, uint64_t seed, unsigned threads)
{
    config.h_select(h);
    const uint64_t bsize = block_size(config, h), nblocks = config.nodes / bsize;
    std::vector<domain> r_old(nblocks), d_new(nblocks), r_new(nblocks);
    for (uint64_t b = 0; b < nblocks; ++b) r_old[b] = made_up(seed, 'o', b), d_new[b] = made_up(seed, 'd', b);
    const domain comm_c = made_up(seed, 'c', 0);
    const detail::blocked_tree tree_old = detail::blocked_poseidon_tree(config.tree, config.nodes, r_old, threads);
    const detail::blocked_tree tree_d = detail::blocked_data_tree(config.nodes, d_new, threads);
    update_vanilla out;
    out.pub.h = h;
    out.pub.comm_r_old = comm_r_of(comm_c, tree_old.root());
    out.pub.comm_d_new = tree_d.root();
    const fr phi = update_phi(out.pub.comm_d_new, out.pub.comm_r_old);
    std::unordered_map<uint64_t, fr> rhos;
    for (uint64_t b = 0; b < nblocks; ++b) {
        const uint64_t high = (b * bsize) >> (config.challenge_bits() - h);
        auto it = rhos.find(high);
        if (it == rhos.end()) it = rhos.emplace(high, update_rho(phi, high)).first;
        r_new[b] = fr_to_domain(update_encode(domain_to_fr(r_old[b], "r_old"), domain_to_fr(d_new[b], "d_new"),
                                              it->second));
    }
    const detail::blocked_tree tree_new = detail::blocked_poseidon_tree(config.tree, config.nodes, r_new, threads);
    out.pub.comm_r_new = comm_r_of(comm_c, tree_new.root());

    const unsigned apex_level = config.challenge_bits() - config.partition_bits() - config.apex_bits();
    for (unsigned k = 0; k < config.partitions; ++k) {
        update_partition_proof p;
        p.comm_c = comm_c;
        for (unsigned i = 0; i < config.apex_leaf_count; ++i)
            p.apex_leaves.push_back(tree_d.node(apex_level, uint64_t(k) * config.apex_leaf_count + i));
        for (uint32_t c : update_challenges(config, out.pub.comm_r_new, k))
            p.challenges.push_back({detail::blocked_poseidon_proof(tree_old, config.tree, c),
                                    detail::blocked_data_proof(tree_d, c),
                                    detail::blocked_poseidon_proof(tree_new, config.tree, c)});
        out.partitions.push_back(std::move(p));
    }
    return out;
}

} // namespace cuzk::filecoin
