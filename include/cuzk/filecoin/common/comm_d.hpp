// cuzk — comm_d: the binary SHA-256 Merkle tree over a sector's Fr32-padded
// data. The leaves are the padded data's 32-byte chunks, as they are; a
// parent is sha256_node(left, right) (SHA-256 of the 64 concatenated bytes
// with the two top bits of byte 31 cleared). The root is comm_d.
//
// The zero commitments z_k (the root over 2^k zero leaves: z_0 = 0,
// z_{k+1} = node(z_k, z_k)) give comm_d of an empty sector, and of any
// all-zero power-of-two span, without hashing the data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/filecoin/common/merkle_proof.hpp"
#include "cuzk/filecoin/common/types.hpp"

namespace cuzk::filecoin {

// A data tree with all its levels in memory (level 0 = leaves, the last level
// = the root): 2·leaves·32 bytes.
class data_tree {
public:
    // `padded` must be 32 · 2^k bytes (k >= 0): bad_length otherwise. Levels
    // are hashed by `threads` workers (0 = all cores).
    explicit data_tree(std::span<const uint8_t> padded, unsigned threads = 0);
    explicit data_tree(std::vector<domain> leaves, unsigned threads = 0);

    size_t leaves() const { return levels_.front().size(); }
    unsigned height() const { return unsigned(levels_.size() - 1); }   // log2(leaves)
    const domain& root() const { return levels_.back().front(); }
    const domain& leaf(size_t i) const;
    const domain& node(unsigned level, size_t i) const;

    // Inclusion proof of leaf i: one base element per level, leaf level
    // first, each with the one sibling and the node's side (0 left, 1 right).
    merkle_proof prove(size_t i) const;

    // Checks a binary SHA-256 path (leaf -> root); false for a proof of any
    // other shape (sub/top levels, elements without exactly one sibling).
    static bool verify(const merkle_proof& proof);

private:
    void build(unsigned threads);
    std::vector<std::vector<domain>> levels_;
};

// comm_d of padded data (32 · 2^k bytes) without keeping the levels: each
// worker reduces its own power-of-two slice, then the slice roots are joined.
domain compute_comm_d(std::span<const uint8_t> padded, unsigned threads = 0);

// z_k, the root over 2^k zero leaves (k <= 63).
domain zero_comm(unsigned k);
// comm_d of an all-zero sector of `sector_bytes` (32 · 2^k) bytes.
domain zero_comm_d(uint64_t sector_bytes);

} // namespace cuzk::filecoin
