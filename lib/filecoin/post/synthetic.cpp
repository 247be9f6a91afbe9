// cuzk — made-up PoSt vanilla proofs over sparse trees (post/post.hpp:
// post_synthetic_vanilla).
#include <algorithm>
#include <cstring>
#include <string_view>

#include "cuzk/filecoin/common/hashers.hpp"
#include "cuzk/filecoin/post/post.hpp"
#include "cuzk/util/parallel.hpp"
#include "filecoin/common/sparse_tree.hpp"
#include "filecoin/porep/replica.hpp"

namespace cuzk::filecoin {

namespace {

enum tag : uint8_t { tag_leaf = 1, tag_fill, tag_comm_c };

domain drawn(uint64_t seed, uint8_t t, uint64_t a, uint64_t b = 0, uint64_t c = 0)
{
    static constexpr std::string_view prefix = "cuzk-synthetic-post";
    uint8_t buf[prefix.size() + 33];
    std::memcpy(buf, prefix.data(), prefix.size());
    auto put = [](uint8_t* p, uint64_t v) {
        for (int i = 0; i < 8; ++i) p[i] = uint8_t(v >> (8 * i));
    };
    put(buf + prefix.size(), seed);
    buf[prefix.size() + 8] = t;
    put(buf + prefix.size() + 9, a);
    put(buf + prefix.size() + 17, b);
    put(buf + prefix.size() + 25, c);
    return sha256_trunc(buf);
}

post_sector_proof synthetic_sector(const post_config& config, uint64_t seed, uint64_t id,
                                   const std::vector<uint64_t>& challenges)
{
    std::vector<detail::sparse_tree::node> known;
    for (uint64_t leaf : challenges) known.push_back({leaf, drawn(seed, tag_leaf, id, leaf)});
    std::sort(known.begin(), known.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    known.erase(std::unique(known.begin(), known.end(), [](const auto& x, const auto& y) { return x.first == y.first; }),
                known.end());
    const auto filler = [&](unsigned level, uint64_t index) { return drawn(seed, tag_fill, id, level, index); };
    const detail::sparse_tree tree = detail::sparse_poseidon_tree(config.tree, config.nodes, std::move(known), filler, 1);
    post_sector_proof p;
    p.sector_id = id;
    p.comm_c = drawn(seed, tag_comm_c, id);
    p.comm_r_last = tree.root();
    p.comm_r = comm_r_of(p.comm_c, p.comm_r_last);
    for (uint64_t leaf : challenges) p.inclusion_proofs.push_back(detail::sparse_poseidon_proof(tree, config.tree, leaf));
    return p;
}

} // namespace

std::vector<post_sector_proof> post_synthetic_vanilla(const post_config& config, const domain& randomness,
                                                      size_t sectors, uint64_t seed, uint64_t first_sector,
                                                      unsigned threads)
{
    std::vector<uint64_t> ids(sectors);
    for (size_t i = 0; i < sectors; ++i) ids[i] = first_sector + i;
    const auto challenges = post_sector_challenges(config, randomness, ids);
    std::vector<post_sector_proof> out(sectors);
    parallel_tasks(threads, sectors, [&](size_t i, unsigned) {
        out[i] = synthetic_sector(config, seed, ids[i], challenges[i]);
    });
    return out;
}

} // namespace cuzk::filecoin
