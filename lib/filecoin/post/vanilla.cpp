// cuzk — FallbackPoSt vanilla proofs: made from a sealed test sector, and
// checked before proving (post/post.hpp).
#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/poseidon_tree.hpp"
#include "cuzk/filecoin/porep/seal.hpp"
#include "cuzk/filecoin/post/post.hpp"
#include "cuzk/util/parallel.hpp"
#include "filecoin/porep/replica.hpp"
#include "filecoin/porep/sector_dir.hpp"

namespace cuzk::filecoin {

namespace {

// Tree R_last of the sealed sector in `dir`: replica node i = the last
// layer's label i + data node i (in Fr).
poseidon_tree load_tree_r_last(const std::string& dir, const seal_config& c, unsigned threads)
{
    return poseidon_tree(detail::read_replica_nodes(dir, c, threads), c.tree, threads);
}

[[noreturn]] void fail(const std::string& where, const std::string& what)
{
    throw error(errc::bad_format, fmt::format("{}: {}", where, what));
}

void check_inclusion(const post_config& config, const merkle_proof& p, const domain& comm_r_last,
                     uint64_t challenge, const std::string& where)
{
    if (p.root != comm_r_last) fail(where + ".root", "differs from the sector's comm_r_last");
    const unsigned base = poseidon_tree_base_height(config.nodes, config.tree);
    const size_t sub = config.tree.sub ? 1 : 0, top = config.tree.top ? 1 : 0;
    if (p.base.size() != base || p.sub.size() != sub || p.top.size() != top)
        fail(where + ".path", fmt::format("has {}+{}+{} levels; a tree of {} nodes ({}) has {}+{}+{}", p.base.size(),
                                          p.sub.size(), p.top.size(), config.nodes, config.tree.name(), base, sub,
                                          top));
    if (!verify_poseidon_proof(p, config.tree)) fail(where, "the path does not reach its root");
    if (p.leaf_index() != challenge)
        fail(where + ".path", fmt::format("leads to leaf {}, the challenge is leaf {}", p.leaf_index(), challenge));
}

void check_sector(const post_config& config, const domain& randomness, const post_public_sector& pub,
                  const post_sector_proof& proof, uint64_t position, const std::string& where)
{
    if (proof.sector_id != pub.sector_id)
        fail(where + ".sector_id", fmt::format("is {}, the public sector is {}", proof.sector_id, pub.sector_id));
    if (proof.comm_r != pub.comm_r) fail(where + ".comm_r", "differs from the public sector's");
    if (comm_r_of(proof.comm_c, proof.comm_r_last) != pub.comm_r)
        fail(where, "Poseidon2(comm_c, comm_r_last) is not comm_r");
    if (proof.inclusion_proofs.size() != config.challenge_count)
        fail(where + ".inclusion_proofs",
             fmt::format("{} proofs, {} challenges", proof.inclusion_proofs.size(), config.challenge_count));
    for (unsigned n = 0; n < config.challenge_count; ++n) {
        const uint64_t leaf = post_leaf_challenge(
            randomness, pub.sector_id, post_challenge_index(config.api, position, config.challenge_count, n),
            config.nodes);
        check_inclusion(config, proof.inclusion_proofs[n], proof.comm_r_last, leaf,
                        fmt::format("{}.inclusion_proofs[{}]", where, n));
    }
}

// errc::bad_format listing the faulty sectors and the first one's fault.
void raise_faults(const std::vector<post_fault>& faults)
{
    if (faults.empty()) return;
    std::string ids;
    for (const post_fault& f : faults) ids += (ids.empty() ? "" : ", ") + std::to_string(f.sector_id);
    throw error(errc::bad_format, fmt::format("{} faulty sector{} ({}); the first: {}", faults.size(),
                                              faults.size() == 1 ? "" : "s", ids, faults[0].what));
}

} // namespace

post_sector_proof post_vanilla_proof(const std::string& dir, const post_config& config,
                                     std::span<const uint64_t> challenges, unsigned threads)
{
    const sector_info info = read_sector_info(dir);
    const seal_config& c = info.config;
    if (c.nodes != config.nodes || c.tree != config.tree)
        throw error(errc::invalid_argument,
                    fmt::format("{}: the sector has {} nodes in tree {}; {} needs {} nodes in tree {}", dir, c.nodes,
                                c.tree.name(), config.name, config.nodes, config.tree.name()));
    const poseidon_tree tree = load_tree_r_last(dir, c, threads);
    if (tree.root() != info.comm.comm_r_last)
        throw error(errc::bad_format, fmt::format("{}: the sector's files give comm_r_last = {}, sector.json records {}",
                                                  dir, to_hex(tree.root()), to_hex(info.comm.comm_r_last)));
    post_sector_proof p;
    p.sector_id = info.replica.sector_id;
    p.comm_r = info.comm.comm_r;
    p.comm_c = info.comm.comm_c;
    p.comm_r_last = info.comm.comm_r_last;
    for (uint64_t leaf : challenges) p.inclusion_proofs.push_back(tree.prove(leaf));
    return p;
}

std::vector<post_fault> post_find_faults(const post_config& config, const domain& randomness,
                                         std::span<const post_public_sector> sectors,
                                         std::span<const post_sector_proof> proofs, unsigned partition,
                                         unsigned threads)
{
    if (sectors.empty() || sectors.size() > config.sector_count)
        throw error(errc::invalid_argument, fmt::format("{}: a partition proves 1..{} sectors, {} given", config.name,
                                                        config.sector_count, sectors.size()));
    if (proofs.size() != sectors.size())
        throw error(errc::invalid_argument, fmt::format("{}: {} vanilla proofs for {} sectors", config.name,
                                                        proofs.size(), sectors.size()));
    std::vector<std::string> what(sectors.size());
    parallel_tasks(threads, sectors.size(), [&](size_t i, unsigned) {
        const uint64_t position = uint64_t(partition) * config.sector_count + i;
        try {
            check_sector(config, randomness, sectors[i], proofs[i], position,
                         fmt::format("vanilla proof {} (sector {})", i, sectors[i].sector_id));
        } catch (const error& e) {
            what[i] = e.what();
        }
    });
    std::vector<post_fault> faults;
    for (size_t i = 0; i < what.size(); ++i)
        if (!what[i].empty()) faults.push_back({i, sectors[i].sector_id, std::move(what[i])});
    return faults;
}

void post_check_vanilla(const post_config& config, const domain& randomness,
                        std::span<const post_public_sector> sectors, std::span<const post_sector_proof> proofs,
                        unsigned partition, unsigned threads)
{
    raise_faults(post_find_faults(config, randomness, sectors, proofs, partition, threads));
}

std::vector<post_public_sector> post_public_sectors(std::span<const post_sector_proof> proofs)
{
    std::vector<post_public_sector> out;
    for (const post_sector_proof& p : proofs) out.push_back({p.sector_id, p.comm_r});
    return out;
}

std::vector<post_fault> post_find_faults(const post_config& config, const domain& randomness,
                                         std::span<const post_sector_proof> proofs, unsigned first_partition,
                                         unsigned threads)
{
    if (proofs.empty()) throw error(errc::invalid_argument, fmt::format("{}: no sectors to prove", config.name));
    if (config.type == post_type::winning && (proofs.size() != 1 || first_partition != 0))
        throw error(errc::invalid_argument,
                    fmt::format("{}: WinningPoSt proves one sector as partition 0 ({} given, partition {})",
                                config.name, proofs.size(), first_partition));
    const std::vector<post_public_sector> sectors = post_public_sectors(proofs);
    std::vector<post_fault> all;
    for (unsigned k = 0; k < config.partitions_for(proofs.size()); ++k)
        for (post_fault& f : post_find_faults(config, randomness, post_partition_of<post_public_sector>(sectors, config, k),
                                              post_partition_of(proofs, config, k), first_partition + k, threads)) {
            f.index += size_t(k) * config.sector_count;
            all.push_back(std::move(f));
        }
    return all;
}

void post_check_vanilla(const post_config& config, const domain& randomness,
                        std::span<const post_sector_proof> proofs, unsigned first_partition, unsigned threads)
{
    raise_faults(post_find_faults(config, randomness, proofs, first_partition, threads));
}

} // namespace cuzk::filecoin
