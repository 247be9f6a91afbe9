// A consistent C1 output without a sealed sector: values for the nodes the
// challenges touch, labels recomputed where the proofs check them, and
// sparse trees above them (see synthetic_c1.hpp).
#include "cuzk/filecoin/porep/synthetic_c1.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <string_view>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/comm_d.hpp"
#include "cuzk/filecoin/common/hashers.hpp"
#include "cuzk/filecoin/common/poseidon.hpp"
#include "cuzk/filecoin/porep/challenges.hpp"
#include "cuzk/filecoin/porep/graph.hpp"
#include "cuzk/filecoin/porep/labels.hpp"
#include "cuzk/util/parallel.hpp"
#include "filecoin/common/sparse_tree.hpp"
#include "replica.hpp"

namespace cuzk::filecoin {

namespace {

using detail::sparse_tree;
using parents14 = std::array<uint32_t, sdr_graph::degree>;

enum tag : uint8_t {
    tag_ticket = 1, tag_seed, tag_replica_id, tag_prover_id, tag_row, tag_data,
    tag_fill_d, tag_fill_c, tag_fill_r, tag_sector_id,
};

// trunc(SHA-256("cuzk-synthetic-c1" ‖ s ‖ tag ‖ a ‖ b)), integers u64 LE.
domain drawn(uint64_t s, uint8_t t, uint64_t a = 0, uint64_t b = 0)
{
    static constexpr std::string_view prefix = "cuzk-synthetic-c1";
    uint8_t buf[prefix.size() + 25];
    std::memcpy(buf, prefix.data(), prefix.size());
    auto put = [](uint8_t* p, uint64_t v) {
        for (int i = 0; i < 8; ++i) p[i] = uint8_t(v >> (8 * i));
    };
    put(buf + prefix.size(), s);
    buf[prefix.size() + 8] = t;
    put(buf + prefix.size() + 9, a);
    put(buf + prefix.size() + 17, b);
    return sha256_trunc(buf);
}

uint64_t sector_id_of(uint64_t s)
{
    const domain d = drawn(s, tag_sector_id);
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= uint64_t(d[i]) << (8 * i);
    return v;
}

void check_supported(const seal_config& c)
{
    if (challenge_kind_of(c) != challenge_kind::interactive)
        throw error(errc::unsupported, fmt::format("synthetic_c1: {} derives its challenges from comm_r, which depends "
                                                   "on the challenged nodes; only interactive challenges are supported",
                                                   c.name));
    if (!poseidon_arity_supported(c.layers))
        throw error(errc::unsupported, fmt::format("synthetic_c1: no Poseidon column hash of arity {} (layers)", c.layers));
    if (c.nodes < 2 || (c.nodes & (c.nodes - 1)) != 0)
        throw error(errc::invalid_argument, fmt::format("synthetic_c1: {} nodes is not a power of two", c.nodes));
}

// The header of the output: the config, ticket, seed, replica id (and comm_d
// for a zero-data sector, whose replica id then derives as Filecoin's does).
c1_output draw_header(const seal_config& c, const synthetic_c1_options& o)
{
    c1_output out;
    out.config = c;
    out.ticket = drawn(o.seed, tag_ticket);
    out.seed = drawn(o.seed, tag_seed);
    if (!o.zero_data) {
        out.replica_id = drawn(o.seed, tag_replica_id);
        return out;
    }
    out.comm_d = zero_comm_d(c.sector_bytes());
    const c1_identity id = o.identity ? *o.identity : synthetic_identity(o.seed);
    out.replica_id = replica_id(id.prover_id, id.sector_id, out.ticket, out.comm_d, c.porep_id);
    return out;
}

// Challenged nodes (sorted, unique) with their parents, and every node whose
// column the proofs show.
struct touched_nodes {
    std::vector<std::vector<uint64_t>> per_partition;
    std::vector<uint64_t> challenged;
    std::vector<parents14> parents;   // of challenged[i]
    std::vector<uint64_t> columns;    // sorted, unique
};

touched_nodes find_touched(const c1_output& out, const sdr_graph& g)
{
    touched_nodes t;
    for (unsigned k = 0; k < out.config.partitions; ++k) {
        t.per_partition.push_back(porep_challenges(out.config, out.replica_id, out.comm_r, out.seed, k));
        t.challenged.insert(t.challenged.end(), t.per_partition.back().begin(), t.per_partition.back().end());
    }
    std::sort(t.challenged.begin(), t.challenged.end());
    t.challenged.erase(std::unique(t.challenged.begin(), t.challenged.end()), t.challenged.end());
    t.parents.resize(t.challenged.size());
    t.columns = t.challenged;
    for (size_t i = 0; i < t.challenged.size(); ++i) {
        g.parents(t.challenged[i], t.parents[i].data());
        t.columns.insert(t.columns.end(), t.parents[i].begin(), t.parents[i].end());
    }
    std::sort(t.columns.begin(), t.columns.end());
    t.columns.erase(std::unique(t.columns.begin(), t.columns.end()), t.columns.end());
    return t;
}

// The rows of every touched column, slot i holding node nodes[i].
struct column_store {
    unsigned layers;
    std::vector<uint64_t> nodes;
    std::vector<domain> rows;   // nodes.size() × layers

    size_t slot(uint64_t node) const
    {
        const auto it = std::lower_bound(nodes.begin(), nodes.end(), node);
        if (it == nodes.end() || *it != node)
            throw error(errc::internal, fmt::format("synthetic_c1: node {} has no column", node));
        return size_t(it - nodes.begin());
    }
    domain& row(uint64_t node, unsigned layer) { return rows[slot(node) * layers + layer - 1]; }
    const domain& row(uint64_t node, unsigned layer) const { return rows[slot(node) * layers + layer - 1]; }
};

// The 37 parent labels of (layer, node) in preimage order, from the columns:
// layer 1 repeats the 6 base parents six times and then base parent 0;
// later layers take the 6 base (this layer) and 8 expander (previous layer)
// parents twice, then the first 9 of them again.
std::vector<domain> preimage_parents(const column_store& cols, const parents14& p, unsigned layer)
{
    std::vector<domain> fourteen;
    for (unsigned i = 0; i < sdr_graph::base_degree; ++i) fourteen.push_back(cols.row(p[i], layer));
    if (layer > 1)
        for (unsigned i = sdr_graph::base_degree; i < sdr_graph::degree; ++i)
            fourteen.push_back(cols.row(p[i], layer - 1));
    std::vector<domain> out;
    while (out.size() + fourteen.size() <= label_parent_count) out.insert(out.end(), fourteen.begin(), fourteen.end());
    out.insert(out.end(), fourteen.begin(), fourteen.begin() + (label_parent_count - out.size()));
    return out;
}

// Random rows everywhere, then the challenged nodes' labels layer by layer,
// nodes ascending: a base parent is a smaller node of the same layer and an
// expander parent sits in the previous layer, so both are final when read.
column_store make_columns(const touched_nodes& t, const c1_output& out, uint64_t seed, unsigned threads)
{
    const unsigned L = out.config.layers;
    column_store cols{L, t.columns, std::vector<domain>(t.columns.size() * L)};
    parallel_for(threads, cols.nodes.size(), [&](size_t b, size_t e, unsigned) {
        for (size_t i = b; i < e; ++i)
            for (unsigned l = 0; l < L; ++l) cols.rows[i * L + l] = drawn(seed, tag_row, cols.nodes[i], l + 1);
    });
    for (unsigned l = 1; l <= L; ++l)
        for (size_t i = 0; i < t.challenged.size(); ++i)
            cols.row(t.challenged[i], l) =
                create_label(out.replica_id, l, t.challenged[i], preimage_parents(cols, t.parents[i], l));
    return cols;
}

struct synthetic_trees {
    sparse_tree d, c, r;
};

// The data leaf of each challenged node and the three sparse trees.
synthetic_trees build_trees(const touched_nodes& t, const column_store& cols, const c1_output& out,
                            const synthetic_c1_options& o)
{
    const seal_config& cfg = out.config;
    const uint64_t s = o.seed;
    std::vector<sparse_tree::node> data(t.challenged.size()), replica(data.size()), column(cols.nodes.size());
    parallel_for(o.threads, data.size(), [&](size_t b, size_t e, unsigned) {
        for (size_t i = b; i < e; ++i) {
            const uint64_t c = t.challenged[i];
            data[i] = {c, o.zero_data ? domain{} : drawn(s, tag_data, c)};
            const fr rep = domain_to_fr(cols.row(c, cfg.layers), "label") + domain_to_fr(data[i].second, "data");
            replica[i] = {c, fr_to_domain(rep)};
        }
    });
    parallel_for(o.threads, column.size(), [&](size_t b, size_t e, unsigned) {
        for (size_t i = b; i < e; ++i)
            column[i] = {cols.nodes[i], fr_to_domain(column_hash({&cols.rows[i * cols.layers], cols.layers}))};
    });
    auto fill_d = [&](unsigned level, uint64_t i) { return o.zero_data ? zero_comm(level) : drawn(s, tag_fill_d, level, i); };
    auto fill_c = [&](unsigned level, uint64_t i) { return drawn(s, tag_fill_c, level, i); };
    auto fill_r = [&](unsigned level, uint64_t i) { return drawn(s, tag_fill_r, level, i); };
    return {detail::sparse_data_tree(cfg.nodes, std::move(data), fill_d, o.threads),
            detail::sparse_poseidon_tree(cfg.tree, cfg.nodes, std::move(column), fill_c, o.threads),
            detail::sparse_poseidon_tree(cfg.tree, cfg.nodes, std::move(replica), fill_r, o.threads)};
}

column_proof prove_column(const column_store& cols, const sparse_tree& tree_c, const tree_shape& shape, uint64_t node)
{
    column_proof p;
    p.index = uint32_t(node);
    const size_t s = cols.slot(node);
    p.rows.assign(cols.rows.begin() + s * cols.layers, cols.rows.begin() + (s + 1) * cols.layers);
    p.inclusion = detail::sparse_poseidon_proof(tree_c, shape, node);
    return p;
}

challenge_proof prove_challenge(const touched_nodes& t, const column_store& cols, const synthetic_trees& trees,
                                const seal_config& cfg, uint64_t c)
{
    const auto it = std::lower_bound(t.challenged.begin(), t.challenged.end(), c);
    const parents14& par = t.parents[size_t(it - t.challenged.begin())];
    challenge_proof p;
    p.comm_d_proof = detail::sparse_data_proof(trees.d, c);
    p.comm_r_last_proof = detail::sparse_poseidon_proof(trees.r, cfg.tree, c);
    p.c_x = prove_column(cols, trees.c, cfg.tree, c);
    for (unsigned i = 0; i < sdr_graph::degree; ++i)
        (i < sdr_graph::base_degree ? p.drg_parents : p.exp_parents)
            .push_back(prove_column(cols, trees.c, cfg.tree, par[i]));
    for (unsigned l = 1; l <= cfg.layers; ++l) p.labeling_proofs.push_back({preimage_parents(cols, par, l), l, c});
    p.encoding = {p.labeling_proofs.back().parents, cfg.layers, c};
    return p;
}

} // namespace

c1_identity synthetic_identity(uint64_t seed) { return {drawn(seed, tag_prover_id), sector_id_of(seed)}; }

c1_output synthetic_c1(const seal_config& config, const synthetic_c1_options& o)
{
    check_supported(config);
    c1_output out = draw_header(config, o);
    const sdr_graph g(config.nodes, config.porep_id, config.api);
    const touched_nodes t = find_touched(out, g);
    const column_store cols = make_columns(t, out, o.seed, o.threads);
    const synthetic_trees trees = build_trees(t, cols, out, o);
    out.comm_d = trees.d.root();
    out.comm_r = comm_r_of(trees.c.root(), trees.r.root());
    out.partitions.resize(config.partitions);
    for (unsigned k = 0; k < config.partitions; ++k) {
        const auto& ch = t.per_partition[k];
        auto& proofs = out.partitions[k];
        proofs.resize(ch.size());
        parallel_for(o.threads, ch.size(), [&](size_t b, size_t e, unsigned) {
            for (size_t i = b; i < e; ++i) proofs[i] = prove_challenge(t, cols, trees, config, ch[i]);
        });
    }
    return out;
}

c1_output synthetic_c1(const seal_config& config, uint64_t seed, unsigned threads)
{
    return synthetic_c1(config, synthetic_c1_options{seed, false, threads});
}

} // namespace cuzk::filecoin
