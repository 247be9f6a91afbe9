// cuzk — Filecoin's Poseidon (filecoin/common/poseidon.hpp) on the GPU:
// batches of MerkleTree-tagged hashes and whole Poseidon trees (tree C, tree
// R_last), bit for bit the CPU's results.
//
// One device thread per hash runs neptune's fast form of the permutation
// (kernels/poseidon_device.cuh) on the device field in Montgomery form, with
// the CPU's constants (filecoin::poseidon_params) copied to device memory on
// first use of an arity. Arities with kernels: 2, 4, 8 (trees) and 11 (the
// 11-layer column hash).
//
// Plain C++; exists in every build. Built without CUDA every function throws
// errc::unsupported ("built without CUDA"); without a usable device
// errc::device; a failed device allocation errc::out_of_memory. Work runs on
// the CUDA backend's stream under its lock (see backend/cuda.hpp).
//
// It lives in the filecoin layer because what it computes is Filecoin's
// (neptune's constants and domain tags, the compound tree shapes); the
// backend below it only runs a permutation with the constants it is given
// (lib/backend/bridge/poseidon_bridge.hpp, kernels/poseidon.cu).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cuzk/ff/bls12_381.hpp"
#include "cuzk/filecoin/common/types.hpp"

namespace cuzk {

// True for the arities with a device kernel (2, 4, 8, 11).
bool gpu_poseidon_arity_supported(unsigned arity);

// out[i] = P_arity(in[i·arity … (i+1)·arity)) for i < out.size(), the same
// values as filecoin::poseidon_hash_many. Host arrays (copied in and out).
// Throws errc::invalid_argument for an arity without a kernel and
// errc::bad_length unless in.size() == out.size()·arity.
void gpu_poseidon_hash_many(unsigned arity, std::span<const fr> in, std::span<fr> out);

// The same on n preimages already in device memory (in: n·arity elements,
// out: n); returns when the device has finished.
void gpu_poseidon_hash_many_device(unsigned arity, const fr* in, fr* out, size_t n);

// One tree level: parents[j] hashes children[arity·j … arity·j + arity)
// (arity 2, 4 or 8). Host arrays; errc::bad_length unless
// children.size() == parents.size()·arity.
void gpu_poseidon_tree_level(unsigned arity, std::span<const fr> children, std::span<fr> parents);

// The levels above `leaves` nodes in device memory, built in place: nodes
// holds the leaves followed by room for every level (leaves/a + leaves/a² + …
// for `levels` levels of arity a), and level k + 1 is written right after
// level k. Each level's size must be a multiple of the arity
// (errc::invalid_argument otherwise).
void gpu_poseidon_tree_device(unsigned arity, fr* nodes, uint64_t leaves, unsigned levels);

// Every level of a compound Poseidon tree (filecoin::poseidon_tree's layout):
// base[k − 1] is level k (k = 1 … height) of all base trees side by side, so
// base.back() holds the base roots; sub the sub level (empty without one);
// root the root (the single top node, or the one sub or base root).
struct gpu_poseidon_tree_levels {
    std::vector<std::vector<fr>> base;
    std::vector<fr> sub;
    fr root;
};

// Builds the tree of `shape` over the leaves (in Montgomery form) on the
// device: one upload, every level in one device array, one download. Checks
// the shape as filecoin::poseidon_tree_base_height does.
gpu_poseidon_tree_levels gpu_poseidon_tree(std::span<const fr> leaves, const filecoin::tree_shape& shape);

} // namespace cuzk
