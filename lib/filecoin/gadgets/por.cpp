// cuzk — Merkle inclusion circuits (gadgets/por.hpp).
#include "cuzk/filecoin/gadgets/por.hpp"

#include <bit>
#include <string>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/gadgets/bp_sha256.hpp"
#include "cuzk/filecoin/gadgets/insertion.hpp"
#include "cuzk/filecoin/gadgets/poseidon.hpp"
#include "cuzk/r1cs/gadgets/multipack.hpp"

namespace cuzk::r1cs::gadgets {

unsigned tree_shape::arity(size_t level) const
{
    if (level < base_levels) return base_arity;
    if (sub_arity && level == base_levels) return sub_arity;
    if (top_arity && level == base_levels + 1) return top_arity;
    throw error(errc::invalid_argument, "tree_shape: level " + std::to_string(level) + " out of range");
}

size_t tree_shape::leaves() const
{
    size_t n = 1;
    for (size_t l = 0; l < levels(); ++l) n *= arity(l);
    return n;
}

void tree_shape::validate() const
{
    if (top_arity && !sub_arity) throw error(errc::invalid_argument, "tree_shape: a top level needs a sub level");
    for (size_t l = 0; l < levels(); ++l) {
        const unsigned a = arity(l);
        if (a < 2 || !std::has_single_bit(a))
            throw error(errc::invalid_argument, "tree_shape: arity " + std::to_string(a) + " is not a power of two");
        if (hasher == merkle_hasher::poseidon && !filecoin::poseidon_arity_supported(a))
            throw error(errc::invalid_argument, "tree_shape: no Poseidon constants for arity " + std::to_string(a));
    }
}

allocated_num sha256_node_circuit(constraint_system& cs, std::span<const allocated_num> children)
{
    std::vector<boolean> message;
    message.reserve(children.size() * 256);
    for (const allocated_num& child : children) {
        const std::vector<boolean> bytes = reverse_bit_numbering(child.to_bits_le(cs));
        message.insert(message.end(), bytes.begin(), bytes.end());
    }
    const std::vector<boolean> digest = bp::sha256(cs, message);
    // Digest bytes as a little-endian number: reverse the bits of each byte,
    // keep the low 254.
    const std::vector<boolean> le = reverse_bit_numbering(digest);
    return pack_bits(cs, std::span(le).first(fr_capacity));
}

allocated_num merkle_node_circuit(constraint_system& cs, merkle_hasher hasher,
                                  std::span<const allocated_num> children)
{
    return hasher == merkle_hasher::poseidon ? poseidon_hash(cs, children) : sha256_node_circuit(cs, children);
}

allocated_num merkle_path_circuit(constraint_system& cs, const tree_shape& shape, const allocated_num& leaf,
                                  std::span<const path_level> path, std::vector<boolean>& path_bits)
{
    shape.validate();
    if (path.size() != shape.levels())
        throw error(errc::invalid_argument, "merkle_path_circuit: path has " + std::to_string(path.size()) +
                                                " levels, the tree " + std::to_string(shape.levels()));
    allocated_num cur = leaf;
    for (size_t l = 0; l < path.size(); ++l) {
        const unsigned arity = shape.arity(l);
        const path_level& level = path[l];
        if (level.siblings.size() != arity - 1 || level.index >= arity)
            throw error(errc::invalid_argument, "merkle_path_circuit: level " + std::to_string(l) +
                                                    " needs arity − 1 siblings and an index below the arity");
        std::vector<boolean> bits;
        for (unsigned i = 0; (1u << i) < arity; ++i) bits.push_back(boolean::alloc(cs, (level.index >> i) & 1u));
        path_bits.insert(path_bits.end(), bits.begin(), bits.end());
        std::vector<allocated_num> siblings;
        for (const fr& s : level.siblings) siblings.push_back(allocated_num::alloc(cs, s));
        const std::vector<allocated_num> children = insert(cs, cur, bits, siblings);
        cur = merkle_node_circuit(cs, shape.hasher, children);
    }
    return cur;
}

void por_no_challenge_input(constraint_system& cs, const tree_shape& shape, std::span<const boolean> index_bits,
                            const allocated_num& leaf, std::span<const std::vector<allocated_num>> siblings,
                            const allocated_num& root)
{
    shape.validate();
    if (siblings.size() != shape.levels())
        throw error(errc::invalid_argument, "por_no_challenge_input: path has " + std::to_string(siblings.size()) +
                                                " levels, the tree " + std::to_string(shape.levels()));
    allocated_num cur = leaf;
    size_t used = 0;
    for (size_t l = 0; l < siblings.size(); ++l) {
        const unsigned arity = shape.arity(l);
        const unsigned width = unsigned(std::countr_zero(arity));
        if (siblings[l].size() != arity - 1 || used + width > index_bits.size())
            throw error(errc::invalid_argument, "por_no_challenge_input: level " + std::to_string(l) +
                                                    " needs arity − 1 siblings and its index bits");
        const std::vector<allocated_num> children = insert(cs, cur, index_bits.subspan(used, width), siblings[l]);
        used += width;
        cur = merkle_node_circuit(cs, shape.hasher, children);
    }
    if (used != index_bits.size())
        throw error(errc::invalid_argument, "por_no_challenge_input: more index bits than the tree has levels");
    constraint::equal(cs, cur, root);
}

void por_synthesize(constraint_system& cs, const tree_shape& shape, const num_or_value& leaf,
                    std::span<const path_level> path, const num_or_value& root, bool private_root)
{
    const allocated_num leaf_num = leaf.allocated(cs);
    std::vector<boolean> path_bits;
    const allocated_num computed = merkle_path_circuit(cs, shape, leaf_num, path, path_bits);
    pack_into_inputs(cs, path_bits);
    const allocated_num rt = root.allocated(cs);
    constraint::equal(cs, computed, rt);
    if (!private_root) rt.inputize(cs);
}

void por_circuit::synthesize(constraint_system& cs) const
{
    por_synthesize(cs, shape_, num_or_value::of(leaf_), path_, num_or_value::of(root_), private_);
}

} // namespace cuzk::r1cs::gadgets
