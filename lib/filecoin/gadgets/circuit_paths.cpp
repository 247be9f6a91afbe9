// cuzk — vanilla Merkle proofs as circuit paths (circuit_paths.hpp).
#include "circuit_paths.hpp"

#include <fmt/format.h>

#include "cuzk/error.hpp"

namespace cuzk::filecoin::detail {

namespace g = r1cs::gadgets;

namespace {

[[noreturn]] void bad(const std::string& msg) { throw error(errc::invalid_argument, msg); }

} // namespace

g::tree_shape poseidon_circuit_shape(uint64_t nodes, const tree_shape& tree, const char* who)
{
    g::tree_shape s;
    s.hasher = g::merkle_hasher::poseidon;
    s.base_arity = tree.base;
    s.sub_arity = tree.sub;
    s.top_arity = tree.top;
    const uint64_t trees = tree.base_trees();
    uint64_t span = 1;
    while (span * trees < nodes && tree.base >= 2) {
        span *= tree.base;
        ++s.base_levels;
    }
    if (s.base_levels == 0 || span * trees != nodes)
        bad(fmt::format("{}: {} nodes do not fit tree {}", who, nodes, tree.name()));
    s.validate();
    return s;
}

std::vector<g::path_level> blank_path(const g::tree_shape& shape)
{
    std::vector<g::path_level> path(shape.levels());
    for (size_t l = 0; l < path.size(); ++l) path[l].siblings.assign(shape.arity(l) - 1, fr::zero());
    return path;
}

std::vector<g::path_level> to_path(const merkle_proof& p, const g::tree_shape& shape, const std::string& what)
{
    std::vector<g::path_level> path;
    path.reserve(shape.levels());
    for (const auto* part : {&p.base, &p.sub, &p.top})
        for (const path_element& e : *part) {
            g::path_level level;
            level.index = e.index;
            for (const domain& h : e.hashes) level.siblings.push_back(domain_to_fr(h, what));
            path.push_back(std::move(level));
        }
    if (path.size() != shape.levels()) bad(fmt::format("{}: {} levels, the tree has {}", what, path.size(), shape.levels()));
    for (size_t l = 0; l < path.size(); ++l)
        if (path[l].siblings.size() != shape.arity(l) - 1 || path[l].index >= shape.arity(l))
            bad(fmt::format("{}: level {} does not fit arity {}", what, l, shape.arity(l)));
    return path;
}

} // namespace cuzk::filecoin::detail
