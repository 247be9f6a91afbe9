// SDR labelling: one sequential SHA-256 chain per layer over a reusable
// 1248-byte preimage buffer.
#include "cuzk/filecoin/porep/labels.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/hashers.hpp"

namespace cuzk::filecoin {

namespace {

constexpr size_t prefix_bytes = 64;
constexpr size_t preimage_bytes = prefix_bytes + label_parent_count * 32;
constexpr unsigned B = sdr_graph::base_degree, E = sdr_graph::exp_degree, D = sdr_graph::degree;

// The preimage under construction: prefix, then room for the 37 parents.
struct preimage {
    uint8_t bytes[preimage_bytes];

    preimage(const domain& replica_id, unsigned layer)
    {
        std::memset(bytes, 0, sizeof bytes);
        std::memcpy(bytes, replica_id.data(), 32);
        for (int b = 0; b < 4; ++b) bytes[32 + b] = uint8_t(layer >> (24 - 8 * b));
    }
    void set_node(uint64_t node)
    {
        for (int b = 0; b < 8; ++b) bytes[36 + b] = uint8_t(node >> (56 - 8 * b));
    }
    uint8_t* slot(unsigned i) { return bytes + prefix_bytes + 32 * i; }
    // Places the first `distinct` parents (already in slots 0 … distinct−1)
    // in the repeating 37-slot order: the distinct run repeated, then cut.
    void repeat(unsigned distinct)
    {
        for (unsigned i = distinct; i < label_parent_count; ++i) std::memcpy(slot(i), slot(i - distinct), 32);
    }
    domain hash(uint64_t node)
    {
        const size_t n = node == 0 ? prefix_bytes : preimage_bytes;
        return sha256_trunc({bytes, n});
    }
};

// Fills slots 0 … 5 (base, from `cur`) and, when prev is given, 6 … 13
// (expander, from `prev`), then repeats them into all 37 slots.
void gather(preimage& p, const uint32_t* parents, const domain* cur, const domain* prev)
{
    for (unsigned i = 0; i < B; ++i) std::memcpy(p.slot(i), cur[parents[i]].data(), 32);
    if (prev)
        for (unsigned i = 0; i < E; ++i) std::memcpy(p.slot(B + i), prev[parents[B + i]].data(), 32);
    p.repeat(prev ? D : B);
}

void check_layer(unsigned layer, unsigned layers, const char* what)
{
    if (layer == 0 || layer > layers)
        throw error(errc::invalid_argument, fmt::format("{}: layer {} outside 1 .. {}", what, layer, layers));
}

// One layer, sequentially. `cache` rows hold 14 parents per node.
void label_layer(const domain& replica_id, unsigned layer, const uint32_t* cache, domain* cur,
                 const domain* prev, uint64_t nodes)
{
    preimage p(replica_id, layer);
    for (uint64_t v = 0; v < nodes; ++v) {
        p.set_node(v);
        if (v > 0) gather(p, cache + v * D, cur, prev);
        cur[v] = p.hash(v);
    }
}

// Layer 1 without a cache: base parents computed on the way.
void label_first_layer(const sdr_graph& g, const domain& replica_id, domain* cur)
{
    preimage p(replica_id, 1);
    uint32_t row[D] = {};
    for (uint64_t v = 0; v < g.nodes(); ++v) {
        p.set_node(v);
        if (v > 0) {
            g.drg_parents(v, row);
            gather(p, row, cur, nullptr);
        }
        cur[v] = p.hash(v);
    }
}

} // namespace

sdr_labels::sdr_labels(unsigned layers, uint64_t nodes)
    : layers_(layers), nodes_(nodes), data_(size_t(layers) * nodes)
{
}

std::span<domain> sdr_labels::layer(unsigned layer)
{
    check_layer(layer, layers_, "sdr_labels::layer");
    return {data_.data() + size_t(layer - 1) * nodes_, size_t(nodes_)};
}

std::span<const domain> sdr_labels::layer(unsigned layer) const
{
    check_layer(layer, layers_, "sdr_labels::layer");
    return {data_.data() + size_t(layer - 1) * nodes_, size_t(nodes_)};
}

domain create_label(const domain& replica_id, unsigned layer, uint64_t node,
                    std::span<const domain> parents)
{
    if (node > 0 && parents.size() != label_parent_count)
        throw error(errc::bad_length, fmt::format("create_label: {} parents, want 37", parents.size()));
    preimage p(replica_id, layer);
    p.set_node(node);
    if (node > 0)
        for (unsigned i = 0; i < label_parent_count; ++i) std::memcpy(p.slot(i), parents[i].data(), 32);
    return p.hash(node);
}

sdr_labels generate_labels(const sdr_graph& g, const domain& replica_id, unsigned layers,
                           const std::vector<uint32_t>* parent_cache,
                           const std::function<void(unsigned)>& progress, unsigned threads)
{
    if (layers == 0) throw error(errc::invalid_argument, "generate_labels: zero layers");
    if (parent_cache && parent_cache->size() != g.nodes() * D)
        throw error(errc::bad_length, "generate_labels: parent cache size differs from nodes*14");
    std::vector<uint32_t> own;
    if (!parent_cache && layers > 1) {
        own = build_parent_cache(g, threads);
        parent_cache = &own;
    }
    sdr_labels out(layers, g.nodes());
    for (unsigned l = 1; l <= layers; ++l) {
        domain* cur = out.layer(l).data();
        if (!parent_cache) label_first_layer(g, replica_id, cur);
        else label_layer(replica_id, l, parent_cache->data(), cur, l > 1 ? out.layer(l - 1).data() : nullptr, g.nodes());
        if (progress) progress(l);
    }
    return out;
}

std::vector<domain> label_parents(const sdr_labels& labels, const sdr_graph& g, unsigned layer,
                                  uint64_t node)
{
    check_layer(layer, labels.layers(), "label_parents");
    if (node >= labels.nodes() || labels.nodes() != g.nodes())
        throw error(errc::invalid_argument, "label_parents: node or graph does not match the labels");
    uint32_t row[D];
    g.parents(node, row);
    preimage p(domain{}, layer);
    gather(p, row, labels.layer(layer).data(), layer > 1 ? labels.layer(layer - 1).data() : nullptr);
    std::vector<domain> out(label_parent_count);
    for (unsigned i = 0; i < label_parent_count; ++i) std::memcpy(out[i].data(), p.slot(i), 32);
    return out;
}

} // namespace cuzk::filecoin
