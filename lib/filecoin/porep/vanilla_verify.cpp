#include "cuzk/filecoin/porep/vanilla_verify.hpp"

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/comm_d.hpp"
#include "cuzk/filecoin/common/poseidon_tree.hpp"
#include "cuzk/filecoin/porep/challenges.hpp"
#include "cuzk/filecoin/porep/graph.hpp"
#include "cuzk/filecoin/porep/labels.hpp"
#include "cuzk/util/parallel.hpp"
#include "replica.hpp"

namespace cuzk::filecoin {

namespace {

// What every challenge proof must agree on.
struct c1_context {
    const c1_output& c1;
    const sdr_graph& graph;
    domain comm_c, comm_r_last;
};

[[noreturn]] void fail(const std::string& where, const std::string& what)
{
    throw error(errc::bad_format, fmt::format("{}: {}", where, what));
}

void check(bool ok, const std::string& where, const char* what)
{
    if (!ok) fail(where, what);
}

void check_column(const c1_context& ctx, const column_proof& col, uint64_t node, const std::string& where)
{
    check(col.index == node, where + ".column.index", "not the node the graph or challenge names");
    check(col.rows.size() == ctx.c1.config.layers, where + ".column.rows", "wrong number of layers");
    const std::string inc = where + ".inclusion_proof";
    check(col.inclusion.leaf == fr_to_domain(column_hash(col.rows)), inc + ".leaf", "is not the column's hash");
    check(col.inclusion.leaf_index() == node, inc + ".path", "does not lead to the column's node");
    check(verify_poseidon_proof(col.inclusion, ctx.c1.config.tree), inc, "path does not reach its root");
    check(col.inclusion.root == ctx.comm_c, inc + ".root", "differs from c_x's (comm_c)");
}

// The 37 label parents as the columns give them (layer 1: the base parents'
// row 1; later layers: base parents of this layer, expander parents of the
// previous one).
std::vector<domain> parents_from_columns(const challenge_proof& p, unsigned layer)
{
    std::vector<domain> base, all;
    for (const auto& c : p.drg_parents) base.push_back(c.rows[layer - 1]);
    if (layer == 1) {
        for (int r = 0; r < 6; ++r) all.insert(all.end(), base.begin(), base.end());
        all.push_back(base[0]);
        return all;
    }
    std::vector<domain> fourteen = base;
    for (const auto& c : p.exp_parents) fourteen.push_back(c.rows[layer - 2]);
    all.insert(all.end(), fourteen.begin(), fourteen.end());
    all.insert(all.end(), fourteen.begin(), fourteen.end());
    all.insert(all.end(), fourteen.begin(), fourteen.begin() + 9);
    return all;
}

void check_labels(const c1_context& ctx, const challenge_proof& p, uint64_t c, const std::string& where)
{
    const unsigned L = ctx.c1.config.layers;
    check(p.labeling_proofs.size() == L, where + ".labeling_proofs", "not one per layer");
    for (unsigned l = 1; l <= L; ++l) {
        const auto& lp = p.labeling_proofs[l - 1];
        const std::string w = fmt::format("{}.labeling_proofs[{}]", where, l - 1);
        check(lp.layer_index == l && lp.node == c, w, "layer_index or node is wrong");
        check(lp.parents == parents_from_columns(p, l), w + ".parents", "differ from the parents' columns");
        check(create_label(ctx.c1.replica_id, l, c, lp.parents) == p.c_x.rows[l - 1], w,
              "the label does not recompute to c_x's row");
    }
    const std::string e = where + ".encoding_proof";
    check(p.encoding.layer_index == L && p.encoding.node == c && p.encoding.parents == p.labeling_proofs[L - 1].parents,
          e, "does not match the last layer's labelling");
    const fr replica = domain_to_fr(p.c_x.rows[L - 1], "label") + domain_to_fr(p.comm_d_proof.leaf, "data leaf");
    check(fr_to_domain(replica) == p.comm_r_last_proof.leaf, where + ".comm_r_last_proof.leaf",
          "is not the last label plus the data leaf");
}

void check_challenge(const c1_context& ctx, const challenge_proof& p, uint64_t c, const std::string& where)
{
    const std::string d = where + ".comm_d_proofs";
    check(p.comm_d_proof.leaf_index() == c, d + ".path", "does not lead to the challenged node");
    check(data_tree::verify(p.comm_d_proof), d, "path does not reach its root");
    check(p.comm_d_proof.root == ctx.c1.comm_d, d + ".root", "differs from comm_d");
    const std::string r = where + ".comm_r_last_proof";
    check(p.comm_r_last_proof.leaf_index() == c, r + ".path", "does not lead to the challenged node");
    check(verify_poseidon_proof(p.comm_r_last_proof, ctx.c1.config.tree), r, "path does not reach its root");
    check(p.comm_r_last_proof.root == ctx.comm_r_last, r + ".root", "differs from the first proof's (comm_r_last)");
    const std::string cols = where + ".replica_column_proofs";
    check_column(ctx, p.c_x, c, cols + ".c_x");
    uint32_t parents[sdr_graph::degree];
    ctx.graph.parents(c, parents);
    check(p.drg_parents.size() == 6 && p.exp_parents.size() == 8, cols, "needs 6 drg and 8 exp parents");
    for (unsigned i = 0; i < 6; ++i) check_column(ctx, p.drg_parents[i], parents[i], fmt::format("{}.drg_parents[{}]", cols, i));
    for (unsigned i = 0; i < 8; ++i)
        check_column(ctx, p.exp_parents[i], parents[6 + i], fmt::format("{}.exp_parents[{}]", cols, i));
    check_labels(ctx, p, c, where);
}

} // namespace

void verify_c1(const c1_output& c1, unsigned threads, const c1_identity* identity)
{
    const seal_config& cfg = c1.config;
    if (identity &&
        replica_id(identity->prover_id, identity->sector_id, c1.ticket, c1.comm_d, cfg.porep_id) != c1.replica_id)
        fail("replica_id", "is not derived from the prover id, sector id, ticket and comm_d");
    if (c1.partitions.size() != cfg.partitions || c1.partitions.empty() || c1.partitions[0].empty())
        fail("vanilla_proofs", fmt::format("expected {} partitions of {} proofs", cfg.partitions,
                                           cfg.challenges_per_partition));
    const auto& first = c1.partitions[0][0];
    const sdr_graph g(cfg.nodes, cfg.porep_id, cfg.api);
    const c1_context ctx{c1, g, first.c_x.inclusion.root, first.comm_r_last_proof.root};
    if (comm_r_of(ctx.comm_c, ctx.comm_r_last) != c1.comm_r)
        fail("comm_r", "is not Poseidon2(comm_c, comm_r_last) of the proofs' roots");
    for (unsigned k = 0; k < cfg.partitions; ++k) {
        const auto challenges = porep_challenges(cfg, c1.replica_id, c1.comm_r, c1.seed, k);
        const auto& proofs = c1.partitions[k];
        if (proofs.size() != challenges.size())
            fail(fmt::format("vanilla_proofs[{}]", k), fmt::format("expected {} proofs", challenges.size()));
        parallel_for(threads, proofs.size(), [&](size_t b, size_t e, unsigned) {
            for (size_t i = b; i < e; ++i) {
                const std::string where = fmt::format("vanilla_proofs[{}][{}]", k, i);
                try {
                    check_challenge(ctx, proofs[i], challenges[i], where);
                } catch (const error& x) {
                    if (x.code() == errc::bad_format) throw;
                    fail(where, x.what());   // e.g. a value that is not a field element
                }
            }
        });
    }
}

} // namespace cuzk::filecoin
