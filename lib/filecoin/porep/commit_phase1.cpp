// C1: the vanilla proofs of a sealed test sector's challenged nodes.
#include <cstring>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/comm_d.hpp"
#include "cuzk/filecoin/porep/challenges.hpp"
#include "cuzk/filecoin/porep/graph.hpp"
#include "cuzk/filecoin/porep/labels.hpp"
#include "cuzk/filecoin/porep/seal.hpp"
#include "cuzk/util/parallel.hpp"
#include "replica.hpp"
#include "sector_dir.hpp"

namespace cuzk::filecoin {

namespace {

// Everything C1 reads from a sealed sector, rebuilt and checked against the
// recorded commitments.
struct sector_state {
    sector_info info;
    sdr_graph graph;
    sdr_labels labels;
    data_tree tree_d;
    replica_trees trees;
};

sdr_labels load_labels(const std::string& dir, const seal_config& c)
{
    const io::mapped_file f = detail::map_sector_file(dir, "labels.bin", uint64_t(c.layers) * c.nodes * 32);
    sdr_labels labels(c.layers, c.nodes);
    for (unsigned l = 1; l <= c.layers; ++l) {
        auto dst = labels.layer(l);
        std::memcpy(dst.data(), f.data() + (l - 1) * c.nodes * 32, dst.size_bytes());
    }
    return labels;
}

void expect_root(const domain& got, const domain& recorded, const char* what, const std::string& dir)
{
    if (got != recorded)
        throw error(errc::bad_format, fmt::format("{}: the sector's files give {} = {}, sector.json records {}", dir,
                                                  what, to_hex(got), to_hex(recorded)));
}

sector_state load_sector(const std::string& dir, unsigned threads, bool gpu)
{
    sector_info info = read_sector_info(dir);
    const seal_config& c = info.config;
    const io::mapped_file data = detail::map_sector_file(dir, "data.bin", c.sector_bytes());
    sdr_labels labels = load_labels(dir, c);
    data_tree tree_d(data.bytes(), threads);
    replica_trees trees = build_replica_trees(c, labels, data.bytes(), threads, gpu);
    expect_root(tree_d.root(), info.comm.comm_d, "comm_d", dir);
    expect_root(trees.tree_c.root(), info.comm.comm_c, "comm_c", dir);
    expect_root(trees.tree_r_last.root(), info.comm.comm_r_last, "comm_r_last", dir);
    sdr_graph g(c.nodes, c.porep_id, c.api);
    return {std::move(info), std::move(g), std::move(labels), std::move(tree_d), std::move(trees)};
}

column_proof prove_column(const sector_state& s, uint32_t node)
{
    column_proof p;
    p.index = node;
    for (unsigned l = 1; l <= s.labels.layers(); ++l) p.rows.push_back(s.labels.at(l, node));
    p.inclusion = s.trees.tree_c.prove(node);
    return p;
}

challenge_proof prove_challenge(const sector_state& s, uint64_t c)
{
    challenge_proof p;
    p.comm_d_proof = s.tree_d.prove(c);
    p.comm_r_last_proof = s.trees.tree_r_last.prove(c);
    p.c_x = prove_column(s, uint32_t(c));
    uint32_t parents[sdr_graph::degree];
    s.graph.parents(c, parents);
    for (unsigned i = 0; i < sdr_graph::base_degree; ++i) p.drg_parents.push_back(prove_column(s, parents[i]));
    for (unsigned i = sdr_graph::base_degree; i < sdr_graph::degree; ++i)
        p.exp_parents.push_back(prove_column(s, parents[i]));
    const unsigned L = s.labels.layers();
    for (unsigned l = 1; l <= L; ++l) p.labeling_proofs.push_back({label_parents(s.labels, s.graph, l, c), l, c});
    p.encoding = {p.labeling_proofs.back().parents, L, c};
    return p;
}

} // namespace

c1_output commit_phase1(const std::string& dir, const domain& seed, unsigned threads, const seal_progress& progress,
                        bool gpu)
{
    if (progress) progress("trees", 0, 1);
    const sector_state s = load_sector(dir, threads, gpu);
    if (progress) progress("trees", 1, 1);
    const seal_config& c = s.info.config;
    c1_output out;
    out.config = c;
    out.comm_r = s.info.comm.comm_r;
    out.comm_d = s.info.comm.comm_d;
    out.replica_id = s.info.comm.replica_id;
    out.seed = seed;
    out.ticket = s.info.replica.ticket;
    out.partitions.resize(c.partitions);
    for (unsigned k = 0; k < c.partitions; ++k) {
        const auto challenges = porep_challenges(c, out.replica_id, out.comm_r, seed, k);
        auto& proofs = out.partitions[k];
        proofs.resize(challenges.size());
        parallel_for(threads, challenges.size(), [&](size_t b, size_t e, unsigned) {
            for (size_t i = b; i < e; ++i) proofs[i] = prove_challenge(s, challenges[i]);
        });
        if (progress) progress("vanilla proofs", k + 1, c.partitions);
    }
    return out;
}

} // namespace cuzk::filecoin
