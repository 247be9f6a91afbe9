// cuzk — proof-of-retrievability (Merkle inclusion) circuits, as
// rust-fil-proofs' storage-proofs-core gadgets/por.rs builds them.
//
// A tree has base levels of one arity, then optionally one sub level and one
// top level of their own arities (Filecoin's 32 GiB tree C / R_last: 8-8-0,
// 64 GiB: 8-8-2). Per level, in this order:
//   log2(arity) index bits are allocated (booleanity each), then the
//   arity − 1 siblings, then `insert` places the current node among them,
//   then the node hash of the arity children:
//     Poseidon: the MerkleTree hash of that arity (gadgets/poseidon.hpp);
//     SHA-256:  each child to_bits_le (255 bits + a constant zero), the bits
//               of each byte reversed (SHA order, little-endian bytes), the
//               bellperson SHA-256 of the concatenation, and its first 254
//               bits in little-endian order packed into a new variable.
// The index bits of all levels, concatenated, equal the leaf index
// (little-endian). The PoR circuit packs them into one public input
// (pack_into_inputs), then enforces computed root = root (1 constraint), and
// for a public root inputizes it (1 more).
//
// Costs per level: Poseidon arity 2/4/8: 314/387/530; SHA-256 arity 2:
// 45,382. A PoR adds 2 (private root) or 3 (public root).
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "cuzk/r1cs/gadgets/num.hpp"

namespace cuzk::r1cs::gadgets {

enum class merkle_hasher { poseidon, sha256 };

struct tree_shape {
    merkle_hasher hasher = merkle_hasher::poseidon;
    unsigned base_arity = 8;
    size_t base_levels = 0;
    unsigned sub_arity = 0;   // 0: no sub level
    unsigned top_arity = 0;   // 0: no top level (needs a sub level when set)

    size_t levels() const { return base_levels + (sub_arity ? 1 : 0) + (top_arity ? 1 : 0); }
    // The arity of level `i` (0 = next to the leaves).
    unsigned arity(size_t level) const;
    size_t leaves() const;
    // Throws errc::invalid_argument unless arities are powers of two ≥ 2 the
    // hasher supports (SHA-256: any; Poseidon: 2, 4, 8, 16...).
    void validate() const;
};

// One level of a path: the siblings in order and the position (0..arity−1)
// of the current node among the arity children.
struct path_level {
    std::vector<fr> siblings;
    unsigned index = 0;
};

// The SHA-256 node hash of rust-fil-proofs' Sha256 hasher
// (hash_multi_leaf_circuit) over `children`.
allocated_num sha256_node_circuit(constraint_system& cs, std::span<const allocated_num> children);

// The node hash of `hasher` over `children`.
allocated_num merkle_node_circuit(constraint_system& cs, merkle_hasher hasher,
                                  std::span<const allocated_num> children);

// Walks `path` from `leaf` up; returns the computed root and appends the
// index bits of every level to `path_bits`.
allocated_num merkle_path_circuit(constraint_system& cs, const tree_shape& shape, const allocated_num& leaf,
                                  std::span<const path_level> path, std::vector<boolean>& path_bits);

// storage-proofs-core's por_no_challenge_input: the siblings of every level
// are already allocated (siblings[l] holds level l's arity − 1), the index
// bits are given (the leaf index, least significant first, exactly the
// tree's bits); per level the insertion and the node hash, then computed
// root = root (1 constraint). No input is made.
void por_no_challenge_input(constraint_system& cs, const tree_shape& shape, std::span<const boolean> index_bits,
                            const allocated_num& leaf, std::span<const std::vector<allocated_num>> siblings,
                            const allocated_num& root);

// A leaf or root given either as an existing variable or as a value to
// allocate (upstream's Root::Var / Root::Val).
struct num_or_value {
    std::optional<allocated_num> var;
    fr value{};

    static num_or_value of(const allocated_num& n) { return {n, n.value}; }
    static num_or_value of(const fr& v) { return {std::nullopt, v}; }
    allocated_num allocated(constraint_system& cs) const { return var ? *var : allocated_num::alloc(cs, value); }
};

// PoRCircuit::synthesize: leaf, path, the packed path bits as one input,
// root equality, and the root as an input unless `private_root`.
void por_synthesize(constraint_system& cs, const tree_shape& shape, const num_or_value& leaf,
                    std::span<const path_level> path, const num_or_value& root, bool private_root);

// The stacked circuit's inclusion check: leaf and root are existing
// variables, the root stays private.
inline void enforce_inclusion(constraint_system& cs, const tree_shape& shape, std::span<const path_level> path,
                              const allocated_num& root, const allocated_num& leaf)
{
    por_synthesize(cs, shape, num_or_value::of(leaf), path, num_or_value::of(root), true);
}

// The standalone PoR circuit (storage-proofs-core tests/por_circuit.rs):
// inputs [ONE, leaf index, root] with a public root, [ONE, leaf index] with a
// private one.
class por_circuit final : public circuit {
public:
    por_circuit(tree_shape shape, fr leaf, std::vector<path_level> path, fr root, bool private_root)
        : shape_(shape), leaf_(leaf), path_(std::move(path)), root_(root), private_(private_root)
    {
    }
    void synthesize(constraint_system& cs) const override;

private:
    tree_shape shape_;
    fr leaf_;
    std::vector<path_level> path_;
    fr root_;
    bool private_;
};

} // namespace cuzk::r1cs::gadgets
