// cuzk — SDR labelling: the sequential "key" computation of Filecoin's
// stacked DRG PoRep.
//
// Layers are numbered from 1, as Filecoin does. The label of (layer, node) is
// trunc(SHA-256(preimage)), where the preimage is replica_id (32 bytes),
// layer (u32 big-endian), node (u64 big-endian), 20 zero bytes — 64 bytes in
// all — followed, for node > 0, by 37 parent labels:
//   layer 1:   the 6 base parents (this layer) six times over, then base 0;
//   layer > 1: the 6 base parents (this layer) and 8 expander parents (the
//              previous layer) twice, then those 14 cut to the first 9.
// Every label depends on the previous one of its layer (base parent v−1), so
// each layer is one sequential chain.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "cuzk/filecoin/common/types.hpp"
#include "cuzk/filecoin/porep/graph.hpp"

namespace cuzk::filecoin {

constexpr unsigned label_parent_count = 37;

// layers × nodes labels in one flat buffer, layer-major.
class sdr_labels {
public:
    sdr_labels() = default;
    sdr_labels(unsigned layers, uint64_t nodes);

    unsigned layers() const { return layers_; }
    uint64_t nodes() const { return nodes_; }
    // The labels of layer `layer` (1 … layers()); throws invalid_argument
    // outside that range.
    std::span<domain> layer(unsigned layer);
    std::span<const domain> layer(unsigned layer) const;
    const domain& at(unsigned layer, uint64_t node) const { return this->layer(layer)[node]; }

private:
    unsigned layers_ = 0;
    uint64_t nodes_ = 0;
    std::vector<domain> data_;
};

// One label from its 37 parent labels (ignored, may be empty, for node 0).
domain create_label(const domain& replica_id, unsigned layer, uint64_t node,
                    std::span<const domain> parents);

// All labels of a sector. `parent_cache` is build_parent_cache(g) or null, in
// which case it is built here with `threads` workers when layers > 1 (layer 1
// only needs base parents). `progress(layer)` is called after each layer.
sdr_labels generate_labels(const sdr_graph& g, const domain& replica_id, unsigned layers,
                           const std::vector<uint32_t>* parent_cache = nullptr,
                           const std::function<void(unsigned)>& progress = {},
                           unsigned threads = 0);

// The 37 parent labels that went into label(layer, node), in preimage order,
// read from stored labels (what a labelling proof records). For node 0 they
// are gathered the same way although the label does not use them.
std::vector<domain> label_parents(const sdr_labels& labels, const sdr_graph& g, unsigned layer,
                                  uint64_t node);

} // namespace cuzk::filecoin
