// cuzk — comm_d: the binary SHA-256 data tree and the zero commitments.
#include "cuzk/filecoin/common/comm_d.hpp"

#include <bit>
#include <cstring>

#include <fmt/format.h>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/hashers.hpp"
#include "cuzk/util/parallel.hpp"

namespace cuzk::filecoin {

namespace {

// Levels narrower than this are hashed on the calling thread: below ~1 ms of
// work, starting threads costs more than it saves.
constexpr size_t k_parallel_nodes = size_t(1) << 13;

unsigned threads_for(unsigned threads, size_t nodes)
{
    return nodes < k_parallel_nodes ? 1u : resolve_threads(threads);
}

size_t leaf_count(size_t bytes, const char* who)
{
    if (bytes == 0 || bytes % 32 != 0 || !std::has_single_bit(bytes / 32))
        throw error(errc::bad_length,
                    fmt::format("{}: {} bytes is not a power-of-two number of 32-byte leaves", who, bytes));
    return bytes / 32;
}

// One level up: out[i] = node(in[2i], in[2i+1]) for i in [begin, end).
void hash_pairs(const domain* in, domain* out, size_t begin, size_t end)
{
    for (size_t i = begin; i < end; ++i) out[i] = sha256_node(in[2 * i], in[2 * i + 1]);
}

// The root of `count` (a power of two) leaves read from `leaves`, reduced in
// place in `scratch` (count / 2 entries).
domain reduce_slice(const uint8_t* leaves, size_t count, std::vector<domain>& scratch)
{
    if (count == 1) {
        domain d;
        std::memcpy(d.data(), leaves, 32);
        return d;
    }
    scratch.resize(count / 2);
    for (size_t i = 0; i < count / 2; ++i) {
        domain l, r;
        std::memcpy(l.data(), leaves + 64 * i, 32);
        std::memcpy(r.data(), leaves + 64 * i + 32, 32);
        scratch[i] = sha256_node(l, r);
    }
    for (size_t n = count / 2; n > 1; n /= 2) hash_pairs(scratch.data(), scratch.data(), 0, n / 2);
    return scratch[0];
}

} // namespace

data_tree::data_tree(std::span<const uint8_t> padded, unsigned threads)
{
    const size_t n = leaf_count(padded.size(), "data_tree");
    levels_.emplace_back(n);
    std::memcpy(levels_[0].data(), padded.data(), padded.size());
    build(threads);
}

data_tree::data_tree(std::vector<domain> leaves, unsigned threads)
{
    leaf_count(leaves.size() * 32, "data_tree");
    levels_.push_back(std::move(leaves));
    build(threads);
}

void data_tree::build(unsigned threads)
{
    while (levels_.back().size() > 1) {
        const std::vector<domain>& below = levels_.back();
        std::vector<domain> up(below.size() / 2);
        parallel_for(threads_for(threads, up.size()), up.size(),
                     [&](size_t b, size_t e, unsigned) { hash_pairs(below.data(), up.data(), b, e); });
        levels_.push_back(std::move(up));
    }
}

const domain& data_tree::node(unsigned level, size_t i) const
{
    if (level >= levels_.size() || i >= levels_[level].size())
        throw error(errc::invalid_argument,
                    fmt::format("data_tree: node ({}, {}) is outside a tree of height {}", level, i, height()));
    return levels_[level][i];
}

const domain& data_tree::leaf(size_t i) const { return node(0, i); }

merkle_proof data_tree::prove(size_t i) const
{
    merkle_proof p;
    p.leaf = leaf(i);
    p.root = root();
    p.base.reserve(height());
    for (unsigned level = 0; level < height(); ++level, i /= 2)
        p.base.push_back(path_element{{levels_[level][i ^ 1]}, uint32_t(i & 1)});
    return p;
}

bool data_tree::verify(const merkle_proof& proof)
{
    if (!proof.sub.empty() || !proof.top.empty()) return false;
    domain cur = proof.leaf;
    for (const path_element& e : proof.base) {
        if (e.hashes.size() != 1 || e.index > 1) return false;
        cur = e.index ? sha256_node(e.hashes[0], cur) : sha256_node(cur, e.hashes[0]);
    }
    return cur == proof.root;
}

domain compute_comm_d(std::span<const uint8_t> padded, unsigned threads)
{
    const size_t n = leaf_count(padded.size(), "compute_comm_d");
    // A power-of-two number of slices, at most one per worker.
    const size_t slices = n < k_parallel_nodes ? 1 : std::bit_floor(size_t(resolve_threads(threads)));
    const size_t per = n / std::min(slices, n);
    std::vector<domain> roots(n / per);
    parallel_tasks(unsigned(roots.size()), roots.size(), [&](size_t s, unsigned) {
        std::vector<domain> scratch;
        roots[s] = reduce_slice(padded.data() + s * per * 32, per, scratch);
    });
    for (size_t n2 = roots.size(); n2 > 1; n2 /= 2) hash_pairs(roots.data(), roots.data(), 0, n2 / 2);
    return roots[0];
}

domain zero_comm(unsigned k)
{
    if (k > 63) throw error(errc::invalid_argument, fmt::format("zero_comm: k = {} exceeds 63", k));
    domain z{};
    for (unsigned i = 0; i < k; ++i) z = sha256_node(z, z);
    return z;
}

domain zero_comm_d(uint64_t sector_bytes)
{
    if (sector_bytes == 0 || sector_bytes % 32 != 0 || !std::has_single_bit(sector_bytes / 32))
        throw error(errc::invalid_argument,
                    fmt::format("zero_comm_d: sector size {} is not 32 · 2^k bytes", sector_bytes));
    return zero_comm(unsigned(std::countr_zero(sector_bytes / 32)));
}

} // namespace cuzk::filecoin
