// The SDR graph: bucket-sampled base parents, Feistel expander parents, and
// the flat parent cache with its digest and file name.
#include "cuzk/filecoin/porep/graph.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/chacha8.hpp"
#include "cuzk/util/parallel.hpp"

namespace cuzk::filecoin {

namespace {

std::array<uint64_t, 4> derive_feistel_keys(const porep_id_t& porep_id)
{
    const digest32 s = porep_domain_seed("Filecoin_Feistel", porep_id);
    std::array<uint64_t, 4> keys{};
    for (int k = 0; k < 4; ++k)
        for (int b = 7; b >= 0; --b) keys[k] = keys[k] << 8 | s[8 * k + b];
    return keys;
}

uint64_t checked_nodes(uint64_t nodes)
{
    if (nodes == 0 || nodes > 0xffffffffULL)
        throw error(errc::invalid_argument,
                    fmt::format("sdr_graph: nodes = {} outside 1 .. 2^32-1", nodes));
    return nodes;
}

} // namespace

digest32 porep_domain_seed(std::string_view tag, const porep_id_t& porep_id)
{
    sha256_ctx h;
    h.update(tag.data(), tag.size());
    h.update(porep_id.data(), porep_id.size());
    return h.finish();
}

sdr_graph::sdr_graph(uint64_t nodes, const porep_id_t& porep_id, api_version api)
    : nodes_(checked_nodes(nodes)), porep_id_(porep_id), api_(api), drg_seed_{},
      keys_(derive_feistel_keys(porep_id)), feistel_(nodes * exp_degree, keys_)
{
    const digest32 s = porep_domain_seed("Filecoin_DRSample", porep_id);
    std::copy_n(s.begin(), drg_seed_.size(), drg_seed_.begin());
}

void sdr_graph::drg_parents(uint64_t v, uint32_t out[base_degree]) const
{
    if (v >= nodes_) throw error(errc::invalid_argument, "sdr_graph::drg_parents: node out of range");
    if (v < 2) {
        std::fill_n(out, base_degree, 0u);
        return;
    }
    std::array<uint8_t, 32> seed{};
    std::copy(drg_seed_.begin(), drg_seed_.end(), seed.begin());
    for (int b = 0; b < 4; ++b) seed[28 + b] = uint8_t(v >> (8 * b));
    chacha8_rng rng(seed);

    // Each node owns 5 consecutive nodes of a "metagraph"; a parent is drawn
    // at a distance from a random power-of-two bucket below the node's own
    // metagraph position, then mapped back. Filecoin computes the bucket
    // count through a double-precision log2, reproduced here as is.
    constexpr uint64_t others = base_degree - 1;
    const uint64_t meta = v * others;
    const uint64_t n_buckets = uint64_t(std::ceil(std::log2(double(meta))));
    const bool pred_first = api_ != api_version::v1_0;
    uint32_t* other = pred_first ? out + 1 : out;
    for (uint64_t k = 0; k < others; ++k) {
        const uint64_t bucket = rng.next_u64() % n_buckets + 1;
        const uint64_t largest = std::min(meta, uint64_t(1) << bucket);
        const uint64_t smallest = std::max<uint64_t>(2, largest >> 1);
        const uint64_t dist = smallest + rng.next_u64() % (largest - smallest + 1);
        const uint32_t p = uint32_t((meta - dist) / others);
        other[k] = p == v ? uint32_t(v - 1) : p;
    }
    out[pred_first ? 0 : others] = uint32_t(v - 1);
}

uint32_t sdr_graph::exp_of_permuted(uint64_t t) const
{
    // v1_0 truncated the permuted index to 32 bits before dividing.
    if (api_ == api_version::v1_0) return uint32_t(t) / exp_degree;
    return uint32_t(t / exp_degree);
}

void sdr_graph::exp_parents(uint64_t v, uint32_t out[exp_degree]) const
{
    if (v >= nodes_) throw error(errc::invalid_argument, "sdr_graph::exp_parents: node out of range");
    for (unsigned i = 0; i < exp_degree; ++i) out[i] = exp_of_permuted(feistel_.permute(v * exp_degree + i));
}

void sdr_graph::parents(uint64_t v, uint32_t out[degree]) const
{
    drg_parents(v, out);
    exp_parents(v, out + base_degree);
}

void sdr_graph::exp_parents_range(uint64_t first, uint64_t count, uint32_t* out) const
{
    if (first > nodes_ || count > nodes_ - first)
        throw error(errc::invalid_argument, "sdr_graph::exp_parents_range: nodes out of range");
    constexpr uint64_t chunk = 512;   // nodes per batch: bounded scratch
    std::vector<uint64_t> t(chunk * exp_degree);
    for (uint64_t done = 0; done < count; done += chunk) {
        const uint64_t n = std::min(chunk, count - done);
        feistel_.permute_range((first + done) * exp_degree, n * exp_degree, t.data());
        for (uint64_t i = 0; i < n * exp_degree; ++i) out[done * exp_degree + i] = exp_of_permuted(t[i]);
    }
}

std::string sdr_graph::identifier() const
{
    return fmt::format("stacked_graph::StackedGraph{{expansion_degree: {} base_graph: "
                       "drgraph::BucketGraph{{size: {}; degree: {}; hasher: poseidon_hasher}} }}",
                       exp_degree, nodes_, base_degree);
}

std::vector<uint32_t> build_parent_cache(const sdr_graph& g, unsigned threads)
{
    constexpr unsigned D = sdr_graph::degree;
    const uint64_t n = g.nodes();
    std::vector<uint32_t> cache(n * D);
    constexpr uint64_t task_nodes = 4096;
    const size_t tasks = size_t((n + task_nodes - 1) / task_nodes);
    parallel_tasks(threads, tasks, [&](size_t task, unsigned) {
        const uint64_t first = task * task_nodes, count = std::min(task_nodes, n - first);
        std::vector<uint32_t> exp(count * sdr_graph::exp_degree);
        g.exp_parents_range(first, count, exp.data());
        for (uint64_t i = 0; i < count; ++i) {
            uint32_t* row = cache.data() + (first + i) * D;
            g.drg_parents(first + i, row);
            std::copy_n(exp.data() + i * sdr_graph::exp_degree, sdr_graph::exp_degree,
                        row + sdr_graph::base_degree);
        }
    });
    return cache;
}

digest32 parent_cache_sha256(const std::vector<uint32_t>& cache)
{
    sha256_ctx h;
    if constexpr (std::endian::native == std::endian::little) {
        h.update(cache.data(), cache.size() * sizeof(uint32_t));
    } else {
        for (uint32_t x : cache) {
            const uint8_t le[4] = {uint8_t(x), uint8_t(x >> 8), uint8_t(x >> 16), uint8_t(x >> 24)};
            h.update(le, 4);
        }
    }
    return h.finish();
}

std::string parent_cache_name(const sdr_graph& g)
{
    sha256_ctx h;
    const std::string_view hasher = "poseidon_hasher";
    const std::string id = g.identifier();
    h.update(hasher.data(), hasher.size());
    h.update(id.data(), id.size());
    for (uint64_t k : g.feistel_keys())
        for (int b = 0; b < 8; ++b) {
            const uint8_t byte = uint8_t(k >> (8 * b));
            h.update(&byte, 1);
        }
    const uint32_t entries = uint32_t(g.nodes());
    const uint8_t le[4] = {uint8_t(entries), uint8_t(entries >> 8), uint8_t(entries >> 16),
                           uint8_t(entries >> 24)};
    h.update(le, 4);
    const digest32 d = h.finish();
    return "v28-sdr-parent-" + to_hex(d.data(), d.size());
}

} // namespace cuzk::filecoin
