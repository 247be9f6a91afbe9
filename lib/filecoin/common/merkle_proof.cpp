// cuzk — the leaf index a Merkle proof's path encodes.
#include "cuzk/filecoin/common/merkle_proof.hpp"

#include <fmt/format.h>

#include "cuzk/error.hpp"

namespace cuzk::filecoin {

// Each level contributes one digit (the position among its siblings) in radix
// arity = siblings + 1; the leaf level is the least significant digit, then
// the rest of the base path, then the sub and top levels.
uint64_t merkle_proof::leaf_index() const
{
    uint64_t index = 0, weight = 1;
    size_t level = 0;
    auto add = [&](const std::vector<path_element>& part) {
        for (const path_element& e : part) {
            const uint64_t arity = e.hashes.size() + 1;
            if (e.index >= arity)
                throw error(errc::invalid_argument,
                            fmt::format("merkle_proof: level {} has index {} but arity {}", level, e.index, arity));
            index += weight * e.index;
            weight *= arity;
            ++level;
        }
    };
    add(base);
    add(sub);
    add(top);
    return index;
}

merkle_proof split_levels(const domain& leaf, const domain& root, std::vector<path_element> levels,
                          const tree_shape& shape)
{
    merkle_proof p;
    p.leaf = leaf;
    p.root = root;
    p.base = std::move(levels);
    if (shape.top && !p.base.empty()) {
        p.top.push_back(std::move(p.base.back()));
        p.base.pop_back();
    }
    if (shape.sub && !p.base.empty()) {
        p.sub.push_back(std::move(p.base.back()));
        p.base.pop_back();
    }
    return p;
}

} // namespace cuzk::filecoin
