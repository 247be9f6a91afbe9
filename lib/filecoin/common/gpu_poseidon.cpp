// cuzk — Poseidon on the GPU (filecoin/common/gpu_poseidon.hpp): argument
// checks, the constants handed to the device half (kernels/poseidon.cu
// through lib/backend/bridge/poseidon_bridge.hpp), device buffers for host
// arrays, and the compound tree's level plan. Built without CUDA every entry
// point throws errc::unsupported.
#include "cuzk/filecoin/common/gpu_poseidon.hpp"

#include <fmt/format.h>

#include "cuzk/error.hpp"

#if CUZK_WITH_CUDA
#include "cuzk/backend/cuda.hpp"
#include "backend/bridge/poseidon_bridge.hpp"
#include "cuzk/filecoin/common/poseidon.hpp"
#include "cuzk/filecoin/common/poseidon_tree.hpp"
#endif

namespace cuzk {

bool gpu_poseidon_arity_supported(unsigned arity)
{
    return arity == 2 || arity == 4 || arity == 8 || arity == 11;
}

#if CUZK_WITH_CUDA

namespace {

void check_arity(const char* fn, unsigned arity, bool tree)
{
    const bool ok = tree ? (arity == 2 || arity == 4 || arity == 8) : gpu_poseidon_arity_supported(arity);
    if (!ok)
        throw error(errc::invalid_argument,
                    fmt::format("{}: arity {} has no kernel ({})", fn, arity, tree ? "2, 4 or 8" : "2, 4, 8 or 11"));
}

poseidon_bridge::constants bridge_constants(unsigned arity)
{
    const filecoin::poseidon_constants& p = filecoin::poseidon_params(arity);
    poseidon_bridge::constants c;
    c.arity = arity;
    c.partial_rounds = p.partial_rounds();
    c.crc = p.compressed_round_constants().data();
    c.mds = p.mds().data();
    c.pre_sparse = p.pre_sparse().data();
    c.sparse = p.sparse().data();
    c.tag = filecoin::poseidon_tag_merkle(arity);
    return c;
}

// Builds the levels of `arities` above the leaves on the device and returns
// every node above the leaves, level after level.
std::vector<fr> build_levels(std::span<const fr> leaves, const std::vector<unsigned>& arities)
{
    std::vector<poseidon_bridge::constants> per;
    uint64_t len = leaves.size(), above = 0;
    for (unsigned a : arities) {
        per.push_back(bridge_constants(a));
        len /= a;
        above += len;
    }
    gpu_buffer nodes((leaves.size() + above) * sizeof(fr));
    nodes.upload(leaves);
    poseidon_bridge::levels_device(per.data(), unsigned(per.size()), nodes.as<fr>(), leaves.size());
    std::vector<fr> out(above);
    nodes.download(std::span<fr>(out), leaves.size_bytes());
    return out;
}

} // namespace

void gpu_poseidon_hash_many_device(unsigned arity, const fr* in, fr* out, size_t n)
{
    check_arity("gpu_poseidon_hash_many", arity, false);
    if (n) poseidon_bridge::hash_device(bridge_constants(arity), in, out, n);
}

void gpu_poseidon_hash_many(unsigned arity, std::span<const fr> in, std::span<fr> out)
{
    check_arity("gpu_poseidon_hash_many", arity, false);
    if (in.size() != out.size() * arity)
        throw error(errc::bad_length, fmt::format("gpu_poseidon_hash_many: {} inputs for {} outputs of arity {}",
                                                  in.size(), out.size(), arity));
    if (out.empty()) return;
    gpu_buffer din(in.size_bytes()), dout(out.size_bytes());
    din.upload(in);
    gpu_poseidon_hash_many_device(arity, din.as<fr>(), dout.as<fr>(), out.size());
    dout.download(out);
}

void gpu_poseidon_tree_level(unsigned arity, std::span<const fr> children, std::span<fr> parents)
{
    check_arity("gpu_poseidon_tree_level", arity, true);
    if (children.size() != parents.size() * arity)
        throw error(errc::bad_length, fmt::format("gpu_poseidon_tree_level: {} children for {} parents of arity {}",
                                                  children.size(), parents.size(), arity));
    gpu_poseidon_hash_many(arity, children, parents);
}

void gpu_poseidon_tree_device(unsigned arity, fr* nodes, uint64_t leaves, unsigned levels)
{
    check_arity("gpu_poseidon_tree_device", arity, true);
    uint64_t len = leaves;
    for (unsigned k = 0; k < levels; ++k, len /= arity)
        if (len == 0 || len % arity != 0)
            throw error(errc::invalid_argument,
                        fmt::format("gpu_poseidon_tree_device: level {} has {} nodes, not a multiple of arity {}", k,
                                    len, arity));
    if (levels == 0) return;
    const std::vector<poseidon_bridge::constants> per(levels, bridge_constants(arity));
    poseidon_bridge::levels_device(per.data(), levels, nodes, leaves);
}

gpu_poseidon_tree_levels gpu_poseidon_tree(std::span<const fr> leaves, const filecoin::tree_shape& shape)
{
    const unsigned height = filecoin::poseidon_tree_base_height(leaves.size(), shape);
    std::vector<unsigned> arities(height, shape.base);
    if (shape.sub) arities.push_back(shape.sub);
    if (shape.top) arities.push_back(shape.top);
    const std::vector<fr> above = build_levels(leaves, arities);

    gpu_poseidon_tree_levels t;
    uint64_t len = leaves.size(), off = 0;
    for (unsigned k = 0; k < arities.size(); ++k) {
        len /= arities[k];
        std::vector<fr> level(above.begin() + off, above.begin() + off + len);
        off += len;
        if (k < height) t.base.push_back(std::move(level));
        else if (k == height) t.sub = std::move(level);
    }
    t.root = above.back();
    return t;
}

#else // !CUZK_WITH_CUDA

namespace {
[[noreturn]] void no_cuda(const char* fn)
{
    throw error(errc::unsupported, fmt::format("{}: cuzk was built without CUDA (CUZK_CUDA=OFF or no nvcc)", fn));
}
} // namespace

void gpu_poseidon_hash_many(unsigned, std::span<const fr>, std::span<fr>) { no_cuda("gpu_poseidon_hash_many"); }
void gpu_poseidon_hash_many_device(unsigned, const fr*, fr*, size_t) { no_cuda("gpu_poseidon_hash_many_device"); }
void gpu_poseidon_tree_level(unsigned, std::span<const fr>, std::span<fr>) { no_cuda("gpu_poseidon_tree_level"); }
void gpu_poseidon_tree_device(unsigned, fr*, uint64_t, unsigned) { no_cuda("gpu_poseidon_tree_device"); }
gpu_poseidon_tree_levels gpu_poseidon_tree(std::span<const fr>, const filecoin::tree_shape&)
{
    no_cuda("gpu_poseidon_tree");
}

#endif

} // namespace cuzk
