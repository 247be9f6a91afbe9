// cuzk — the strict streaming reader of C1 JSON files: a recursive-descent
// parser over the fixed grammar of SealCommitPhase1Output (see c1_json.hpp),
// checking every array length against the seal config named by the file.
#include "cuzk/filecoin/porep/c1_json.hpp"

#include <fmt/format.h>

#include "c1_json_lexer.hpp"
#include "c1_json_shape.hpp"
#include "cuzk/error.hpp"

namespace cuzk::filecoin {

namespace {

using c1json::c1_shape;
using c1json::lexer;
using c1json::proof_shape;

// {"path":[{"hashes":[arity-1 x B32],"index":n}, ... levels]}
void read_path(lexer& L, std::vector<path_element>& out, unsigned levels, unsigned arity)
{
    out.clear();
    out.reserve(levels);
    L.open_object();
    {
        auto s = L.member("path", true);
        L.array(levels, "levels", [&](size_t) {
            path_element& e = out.emplace_back();
            L.open_object();
            {
                auto h = L.member("hashes", true);
                L.array(arity - 1, "sibling hashes", [&](size_t) { L.bytes32(e.hashes.emplace_back()); });
            }
            {
                auto i = L.member("index");
                e.index = uint32_t(L.uint(arity - 1, "a position"));
            }
            L.close_object();
        });
    }
    L.close_object();
}

void read_root_leaf(lexer& L, merkle_proof& m, bool root_first)
{
    {
        auto s = L.member("root", root_first);
        L.bytes32(m.root);
    }
    auto s = L.member("leaf");
    L.bytes32(m.leaf);
}

// The members of one ProofData variant (Single, Sub or Top).
void read_variant_body(lexer& L, merkle_proof& m, const proof_shape& sh)
{
    m.sub.clear();
    m.top.clear();
    if (sh.sub == 0) {
        read_root_leaf(L, m, true);
        auto s = L.member("path");
        read_path(L, m.base, sh.base_levels, sh.base);
        return;
    }
    {
        auto s = L.member("base_proof", true);
        read_path(L, m.base, sh.base_levels, sh.base);
    }
    {
        auto s = L.member("sub_proof");
        read_path(L, m.sub, 1, sh.sub);
    }
    if (sh.top != 0) {
        auto s = L.member("top_proof");
        read_path(L, m.top, 1, sh.top);
    }
    read_root_leaf(L, m, false);
}

// {"data":{"<variant>":{...}}}
void read_merkle(lexer& L, merkle_proof& m, const proof_shape& sh)
{
    L.open_object();
    {
        auto d = L.member("data", true);
        L.open_object();
        {
            auto v = L.member(sh.variant(), true);
            L.open_object();
            read_variant_body(L, m, sh);
            L.close_object();
        }
        L.close_object();
    }
    L.close_object();
}

// {"column":{"index":u32,"rows":[layers x B32],"_h":null},"inclusion_proof":MP}
void read_column(lexer& L, column_proof& c, const c1_shape& s)
{
    L.open_object();
    {
        auto col = L.member("column", true);
        L.open_object();
        {
            auto i = L.member("index", true);
            c.index = uint32_t(L.uint(s.nodes - 1, "a node"));
        }
        {
            auto r = L.member("rows");
            c.rows.reserve(s.layers);
            L.array(s.layers, "rows (one per layer)", [&](size_t) { L.bytes32(c.rows.emplace_back()); });
        }
        {
            auto h = L.member("_h");
            L.null();
        }
        L.close_object();
    }
    auto inc = L.member("inclusion_proof");
    read_merkle(L, c.inclusion, s.tree);
    L.close_object();
}

// {"parents":[37 x B32],"layer_index":1..layers,"node":u64} (labeling and encoding proofs)
void read_parents_record(lexer& L, std::vector<domain>& parents, uint32_t& layer_index, uint64_t& node,
                         const c1_shape& s)
{
    L.open_object();
    {
        auto p = L.member("parents", true);
        parents.reserve(c1json::k_total_parents);
        L.array(c1json::k_total_parents, "parents", [&](size_t) { L.bytes32(parents.emplace_back()); });
    }
    {
        auto li = L.member("layer_index");
        layer_index = uint32_t(L.uint_in(1, s.layers, "a layer index"));
    }
    {
        auto n = L.member("node");
        node = L.uint(s.nodes - 1, "a node");
    }
    L.close_object();
}

void read_columns(lexer& L, challenge_proof& p, const c1_shape& s)
{
    L.open_object();
    {
        auto c = L.member("c_x", true);
        read_column(L, p.c_x, s);
    }
    {
        auto d = L.member("drg_parents");
        p.drg_parents.reserve(c1json::k_drg_parents);
        L.array(c1json::k_drg_parents, "DRG parent columns",
                [&](size_t) { read_column(L, p.drg_parents.emplace_back(), s); });
    }
    {
        auto e = L.member("exp_parents");
        p.exp_parents.reserve(c1json::k_exp_parents);
        L.array(c1json::k_exp_parents, "expander parent columns",
                [&](size_t) { read_column(L, p.exp_parents.emplace_back(), s); });
    }
    L.close_object();
}

void read_challenge(lexer& L, challenge_proof& p, const c1_shape& s)
{
    L.open_object();
    {
        auto m = L.member("comm_d_proofs", true);
        read_merkle(L, p.comm_d_proof, s.comm_d);
    }
    {
        auto m = L.member("comm_r_last_proof");
        read_merkle(L, p.comm_r_last_proof, s.tree);
    }
    {
        auto m = L.member("replica_column_proofs");
        read_columns(L, p, s);
    }
    {
        auto m = L.member("labeling_proofs");
        p.labeling_proofs.reserve(s.layers);
        L.array(s.layers, "labeling proofs (one per layer)", [&](size_t) {
            labeling_proof& lp = p.labeling_proofs.emplace_back();
            read_parents_record(L, lp.parents, lp.layer_index, lp.node, s);
        });
    }
    auto m = L.member("encoding_proof");
    read_parents_record(L, p.encoding.parents, p.encoding.layer_index, p.encoding.node, s);
    L.close_object();
}

// {"<variant>":[[Proof x challenges] x partitions]}
void read_vanilla(lexer& L, c1_output& out, const c1_shape& s, const std::string& variant)
{
    L.open_object();
    {
        auto v = L.member(variant, true);
        out.partitions.reserve(s.partitions);
        L.array(s.partitions, "partitions", [&](size_t) {
            auto& part = out.partitions.emplace_back();
            part.reserve(s.challenges);
            L.array(s.challenges, "challenge proofs", [&](size_t) { read_challenge(L, part.emplace_back(), s); });
        });
    }
    L.close_object();
}

// The cuzk_config extension object of a custom shape.
seal_config read_custom_config(lexer& L)
{
    L.open_object();
    uint64_t nodes = 0, layers = 0, partitions = 0, challenges = 0;
    tree_shape tree;
    porep_id_t porep_id{};
    api_version api = api_version::v1_1;
    { auto m = L.member("nodes", true); nodes = L.uint(uint64_t(1) << 32, "a node count"); }
    { auto m = L.member("layers"); layers = L.uint(15, "a layer count"); }
    { auto m = L.member("partitions"); partitions = L.uint(c1json::k_max_custom_partitions, "a partition count"); }
    { auto m = L.member("challenges"); challenges = L.uint(c1json::k_max_custom_challenges, "a challenge count"); }
    {
        auto m = L.member("tree");
        if (!c1json::parse_tree_name(L.string(16, "a tree shape \"B-S-T\""), tree))
            L.fail_msg("expected a tree shape \"B-S-T\" (three decimal arities)");
    }
    { auto m = L.member("porep_id"); L.bytes32(porep_id); }
    {
        auto m = L.member("api");
        if (!c1json::parse_api_name(L.string(8, "an API version"), api))
            L.fail_msg("expected an API version \"1.0\", \"1.1\" or \"1.2\"");
    }
    L.close_object();
    try {
        return seal_config::custom(nodes, unsigned(layers), unsigned(challenges), tree, porep_id, api,
                                   unsigned(partitions));
    } catch (const error& e) {
        L.fail_msg(std::string("not a valid custom shape: ") + e.what());
    }
}

// registered_proof (and cuzk_config for "custom"): the config and the
// vanilla_proofs variant name.
seal_config read_config(lexer& L, std::string& variant)
{
    std::string name;
    {
        auto m = L.member("registered_proof", true);
        name = std::string(L.string(64, "a registered seal proof name"));
        if (name != c1json::k_custom_name && c1json::registered_id_of(name) < 0)
            L.fail_msg(fmt::format("expected a RegisteredSealProof name (\"StackedDrg2KiBV1_1\", ...) or "
                                   "\"custom\", found \"{}\"",
                                   name));
    }
    seal_config cfg;
    if (name == c1json::k_custom_name) {
        auto m = L.member("cuzk_config");
        cfg = read_custom_config(L);
    } else {
        cfg = registered_seal_proof(c1json::registered_id_of(name));
    }
    variant = c1json::vanilla_variant(cfg);
    return cfg;
}

} // namespace

c1_output read_c1_json(std::string_view text, const std::string& source_name)
{
    lexer L(text, source_name);
    c1_output out;
    L.open_object();
    std::string variant;
    out.config = read_config(L, variant);
    c1_shape shape;
    if (const std::string why = c1json::shape_of(out.config, shape); !why.empty())
        L.fail_msg("the seal config cannot be carried in a C1 file: " + why);
    {
        auto m = L.member("vanilla_proofs");
        read_vanilla(L, out, shape, variant);
    }
    const std::pair<const char*, domain*> tail[] = {{"comm_r", &out.comm_r},
                                                     {"comm_d", &out.comm_d},
                                                     {"replica_id", &out.replica_id},
                                                     {"seed", &out.seed},
                                                     {"ticket", &out.ticket}};
    for (const auto& [key, field] : tail) {
        auto m = L.member(key);
        L.bytes32(*field);
    }
    L.close_object();
    L.end();
    return out;
}

} // namespace cuzk::filecoin
