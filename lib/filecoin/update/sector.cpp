// cuzk — the SnapDeals update of a sealed test sector
// (filecoin/update/update.hpp, update_sector_vanilla): the new replica
// encoded from the sector's replica and the new data, the three trees, and
// every partition's vanilla proof.
#include <unordered_map>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/comm_d.hpp"
#include "cuzk/filecoin/common/poseidon_tree.hpp"
#include "cuzk/filecoin/update/update.hpp"
#include "cuzk/util/parallel.hpp"
#include "filecoin/porep/replica.hpp"
#include "filecoin/porep/sector_dir.hpp"

namespace cuzk::filecoin {

namespace {

std::vector<fr> encode_replica(const update_config& c, std::span<const fr> r_old, const data_tree& d, unsigned h,
                               const fr& phi, unsigned threads)
{
    const unsigned shift = c.challenge_bits() - h;
    std::vector<fr> rhos(size_t(1) << h);
    parallel_for(threads, rhos.size(), [&](size_t b, size_t e, unsigned) {
        for (size_t x = b; x < e; ++x) rhos[x] = update_rho(phi, x);
    });
    std::vector<fr> r_new(r_old.size());
    parallel_for(threads, r_new.size(), [&](size_t b, size_t e, unsigned) {
        for (size_t i = b; i < e; ++i)
            r_new[i] = update_encode(r_old[i], domain_to_fr(d.leaf(i), "new data"), rhos[i >> shift]);
    });
    return r_new;
}

} // namespace

update_vanilla update_sector_vanilla(const std::string& dir, const update_config& config,
                                     std::span<const uint8_t> padded, unsigned h, unsigned threads)
{
    config.h_select(h);
    const sector_info info = read_sector_info(dir);
    if (info.config.nodes != config.nodes || info.config.tree != config.tree)
        throw error(errc::invalid_argument,
                    fmt::format("{}: the sector has {} nodes in tree {}; {} needs {} nodes in tree {}", dir,
                                info.config.nodes, info.config.tree.name(), config.name, config.nodes,
                                config.tree.name()));
    if (padded.size() != config.sector_bytes())
        throw error(errc::bad_length, fmt::format("update of {}: {} bytes of new data, the sector holds {}", dir,
                                                  padded.size(), config.sector_bytes()));
    for (uint64_t i = 0; i < config.nodes; ++i) {
        fr x;
        if (!fr::from_bytes_le(padded.data() + 32 * i, x))
            throw error(errc::non_canonical, fmt::format("update of {}: node {} of the new data is not a field "
                                                         "element (Fr32-pad the data)", dir, i));
    }
    const std::vector<fr> r_old = detail::read_replica_nodes(dir, info.config, threads);
    const poseidon_tree tree_old(r_old, config.tree, threads);
    update_vanilla out;
    out.pub.h = h;
    out.pub.comm_r_old = comm_r_of(info.comm.comm_c, tree_old.root());
    if (out.pub.comm_r_old != info.comm.comm_r)
        throw error(errc::bad_format, fmt::format("{}: the sector's files give comm_r = {}, sector.json records {}",
                                                  dir, to_hex(out.pub.comm_r_old), to_hex(info.comm.comm_r)));
    const data_tree tree_d(padded, threads);
    out.pub.comm_d_new = tree_d.root();
    const fr phi = update_phi(out.pub.comm_d_new, out.pub.comm_r_old);
    const poseidon_tree tree_new(encode_replica(config, r_old, tree_d, h, phi, threads), config.tree, threads);
    out.pub.comm_r_new = comm_r_of(info.comm.comm_c, tree_new.root());

    const unsigned apex_level = config.challenge_bits() - config.partition_bits() - config.apex_bits();
    for (unsigned k = 0; k < config.partitions; ++k) {
        update_partition_proof p;
        p.comm_c = info.comm.comm_c;
        for (unsigned i = 0; i < config.apex_leaf_count; ++i)
            p.apex_leaves.push_back(tree_d.node(apex_level, uint64_t(k) * config.apex_leaf_count + i));
        for (uint32_t c : update_challenges(config, out.pub.comm_r_new, k))
            p.challenges.push_back({tree_old.prove(c), tree_d.prove(c), tree_new.prove(c)});
        out.partitions.push_back(std::move(p));
    }
    return out;
}

} // namespace cuzk::filecoin
