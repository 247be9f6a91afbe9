#include "replica.hpp"

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/gpu_poseidon.hpp"
#include "cuzk/filecoin/common/poseidon.hpp"
#include "cuzk/util/parallel.hpp"

namespace cuzk::filecoin {

namespace {

constexpr uint64_t chunk_nodes = uint64_t(1) << 14;   // columns hashed per batch

void check_column_arity(unsigned layers)
{
    if (!poseidon_arity_supported(layers))
        throw error(errc::unsupported,
                    fmt::format("column hash: Poseidon has no arity {} (the number of layers)", layers));
}

} // namespace

fr column_hash(std::span<const domain> rows)
{
    check_column_arity(unsigned(rows.size()));
    std::vector<fr> x(rows.size());
    for (size_t l = 0; l < rows.size(); ++l) x[l] = domain_to_fr(rows[l], "column row");
    return poseidon_hash(x);
}

namespace {

// The tree over `leaves`, its levels hashed on the device when gpu.
poseidon_tree build_tree(std::vector<fr> leaves, const tree_shape& shape, unsigned threads, bool gpu)
{
    if (!gpu) return poseidon_tree(std::move(leaves), shape, threads);
    gpu_poseidon_tree_levels t = gpu_poseidon_tree(leaves, shape);
    std::vector<std::vector<fr>> levels;
    levels.reserve(t.base.size() + 1);
    levels.push_back(std::move(leaves));
    for (auto& l : t.base) levels.push_back(std::move(l));
    return poseidon_tree::from_levels(shape, std::move(levels), std::move(t.sub), t.root);
}

} // namespace

std::vector<fr> column_hashes(const sdr_labels& labels, unsigned threads, bool gpu)
{
    const unsigned L = labels.layers();
    check_column_arity(L);
    const uint64_t n = labels.nodes();
    std::vector<fr> out(n);
    if (gpu) {
        std::vector<fr> in(n * L);
        parallel_for(threads, n, [&](size_t b, size_t e, unsigned) {
            for (unsigned l = 0; l < L; ++l) {
                const auto layer = labels.layer(l + 1);
                for (size_t i = b; i < e; ++i) in[i * L + l] = domain_to_fr(layer[i], "label");
            }
        });
        gpu_poseidon_hash_many(L, in, out);
        return out;
    }
    const size_t chunks = size_t((n + chunk_nodes - 1) / chunk_nodes);
    parallel_tasks(threads, chunks, [&](size_t c, unsigned) {
        const uint64_t first = c * chunk_nodes, count = std::min(chunk_nodes, n - first);
        std::vector<fr> in(count * L);
        for (unsigned l = 0; l < L; ++l) {
            const auto layer = labels.layer(l + 1);
            for (uint64_t i = 0; i < count; ++i) in[i * L + l] = domain_to_fr(layer[first + i], "label");
        }
        poseidon_hash_many(L, in, std::span<fr>(out).subspan(first, count), 1);
    });
    return out;
}

std::vector<fr> replica_nodes(const sdr_labels& labels, std::span<const uint8_t> padded, unsigned threads)
{
    const uint64_t n = labels.nodes();
    if (padded.size() != n * 32)
        throw error(errc::bad_length, fmt::format("replica: data holds {} bytes, the sector {}", padded.size(), n * 32));
    const auto last = labels.layer(labels.layers());
    std::vector<fr> out(n);
    parallel_for(threads, n, [&](size_t b, size_t e, unsigned) {
        for (size_t i = b; i < e; ++i) {
            fr d;
            if (!fr::from_bytes_le(padded.data() + 32 * i, d))
                throw error(errc::non_canonical, fmt::format("replica: data node {} is not a field element", i));
            out[i] = domain_to_fr(last[i], "label") + d;
        }
    });
    return out;
}

domain comm_r_of(const domain& comm_c, const domain& comm_r_last)
{
    const fr x[2] = {domain_to_fr(comm_c, "comm_c"), domain_to_fr(comm_r_last, "comm_r_last")};
    return fr_to_domain(poseidon_hash(x));
}

replica_trees build_replica_trees(const seal_config& config, const sdr_labels& labels,
                                  std::span<const uint8_t> padded, unsigned threads, bool gpu)
{
    poseidon_tree c = build_tree(column_hashes(labels, threads, gpu), config.tree, threads, gpu);
    poseidon_tree r = build_tree(replica_nodes(labels, padded, threads), config.tree, threads, gpu);
    return {std::move(c), std::move(r)};
}

} // namespace cuzk::filecoin
