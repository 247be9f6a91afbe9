// SDR labelling: Filecoin's last-label known answers (2 and 4 KiB, 11
// layers, all API versions), intermediate 2 KiB labels, and the preimage
// rebuilt independently from the graph and the stored labels.
#include <catch2/catch.hpp>

#include <array>
#include <cstring>
#include <vector>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/hashers.hpp"
#include "cuzk/filecoin/porep/graph.hpp"
#include "cuzk/filecoin/porep/labels.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;

namespace {

domain filled(uint8_t b)
{
    domain d;
    d.fill(b);
    return d;
}

// An Fr given as four u64 limbs, least significant first, as LE bytes.
domain from_limbs(std::array<uint64_t, 4> limbs)
{
    domain d{};
    for (int i = 0; i < 32; ++i) d[i] = uint8_t(limbs[i / 8] >> (8 * (i % 8)));
    return d;
}

// The preimage of label(layer, node) written out from the description,
// without the library's gathering code.
std::vector<uint8_t> spelled_preimage(const sdr_labels& L, const sdr_graph& g, const domain& rid,
                                      unsigned layer, uint64_t node)
{
    std::vector<uint8_t> pre(64, 0);
    std::memcpy(pre.data(), rid.data(), 32);
    for (int b = 0; b < 4; ++b) pre[32 + b] = uint8_t(layer >> (24 - 8 * b));
    for (int b = 0; b < 8; ++b) pre[36 + b] = uint8_t(node >> (56 - 8 * b));
    if (node == 0) return pre;
    uint32_t p[14];
    g.parents(node, p);
    std::vector<const domain*> order;
    if (layer == 1) {
        for (int rep = 0; rep < 6; ++rep)
            for (int i = 0; i < 6; ++i) order.push_back(&L.at(1, p[i]));
        order.push_back(&L.at(1, p[0]));
    } else {
        std::vector<const domain*> run;
        for (int i = 0; i < 6; ++i) run.push_back(&L.at(layer, p[i]));
        for (int i = 6; i < 14; ++i) run.push_back(&L.at(layer - 1, p[i]));
        for (int rep = 0; rep < 2; ++rep) order.insert(order.end(), run.begin(), run.end());
        order.insert(order.end(), run.begin(), run.begin() + 9);
    }
    for (const domain* d : order) pre.insert(pre.end(), d->begin(), d->end());
    return pre;
}

} // namespace

TEST_CASE("last-label known answers, 11 layers, replica [9;32]", "[fc][labels]")
{
    struct row {
        uint64_t nodes;
        uint8_t porep_byte;
        api_version api;
        std::array<uint64_t, 4> limbs;
    };
    const std::array<uint64_t, 4> k2_v10 = {0xd3faa96b9a0fba04, 0xea81a283d106485e, 0xe3d51b9afa5ac2b3, 0x0462f4f4f1a68d37};
    const std::array<uint64_t, 4> k4_v10 = {0x7e191e52c4a8da86, 0x5ae8a1c9e6fac148, 0xce239f3b88a894b8, 0x234c00d1dc1d53be};
    const std::array<uint64_t, 4> k2_v11 = {0xabb3f38bb70defcf, 0x777a2e4d7769119f, 0x3448959d495490bc, 0x06021188c7a71cb5};
    const std::array<uint64_t, 4> k4_v11 = {0x22ab81cf68c4676d, 0x7a77a82fc7c9c189, 0xc6c03d32c1e42d23, 0x0f777c18cc2c55bd};
    const row rows[] = {
        {64, 0, api_version::v1_0, k2_v10},    {128, 0, api_version::v1_0, k4_v10},
        {64, 123, api_version::v1_1, k2_v11},  {128, 123, api_version::v1_1, k4_v11},
        {64, 123, api_version::v1_2, k2_v11},  {128, 123, api_version::v1_2, k4_v11},
    };
    for (const row& r : rows) {
        const sdr_graph g(r.nodes, filled(r.porep_byte), r.api);
        const sdr_labels L = generate_labels(g, filled(9), 11);
        CHECK(to_hex(L.at(11, r.nodes - 1)) == to_hex(from_limbs(r.limbs)));
    }
    CHECK(to_hex(from_limbs(k2_v10)) == "04ba0f9a6ba9fad35e4806d183a281eab3c25afa9a1bd5e3378da6f1f4f46204");
}

TEST_CASE("2 KiB intermediate labels, porep id 5", "[fc][labels]")
{
    const sdr_graph g(64, porep_id_of(5), api_version::v1_1);
    const auto cache = build_parent_cache(g, 1);
    std::vector<unsigned> seen;
    const sdr_labels L = generate_labels(g, filled(9), 2, &cache, [&](unsigned l) { seen.push_back(l); });
    CHECK(seen == std::vector<unsigned>{1, 2});
    CHECK(to_hex(L.at(1, 0)) == "ad9baba2a22d17ee8b630ebca948772fb770f2ba82d661dfc984589eff118d1d");
    CHECK(to_hex(L.at(1, 1)) == "3754c23a6592f03a0dd829ccb32bfdd7590cc9f365d2ab41fc4b3aa0cc7ba837");
    CHECK(to_hex(L.at(2, 63)) == "d313df22b5aaa7af946a4f3c56461c4237a5c76e5f0edbb4388320ed6e8e4f09");
}

TEST_CASE("every label is the truncated SHA-256 of its spelled-out preimage", "[fc][labels]")
{
    const domain rid = filled(0x5a);
    for (api_version api : {api_version::v1_0, api_version::v1_1}) {
        const sdr_graph g(200, filled(3), api);   // not a power of two
        const sdr_labels L = generate_labels(g, rid, 3);
        for (unsigned layer = 1; layer <= 3; ++layer)
            for (uint64_t v = 0; v < g.nodes(); ++v) {
                const domain& got = L.at(layer, v);
                REQUIRE((got[31] & 0xc0) == 0);
                REQUIRE(got == sha256_trunc(spelled_preimage(L, g, rid, layer, v)));
                // The proof-side helpers rebuild the same label.
                const auto parents = label_parents(L, g, layer, v);
                REQUIRE(parents.size() == 37);
                REQUIRE(create_label(rid, layer, v, parents) == got);
            }
    }
}

TEST_CASE("labelling without a cache equals labelling with one", "[fc][labels]")
{
    const sdr_graph g(96, filled(8), api_version::v1_1);
    const auto cache = build_parent_cache(g, 2);
    for (unsigned layers : {1u, 2u}) {
        const sdr_labels a = generate_labels(g, filled(1), layers);
        const sdr_labels b = generate_labels(g, filled(1), layers, &cache);
        for (unsigned l = 1; l <= layers; ++l)
            CHECK(std::equal(a.layer(l).begin(), a.layer(l).end(), b.layer(l).begin()));
    }
}

TEST_CASE("labelling argument checks", "[fc][labels]")
{
    const sdr_graph g(64, filled(1), api_version::v1_1);
    const sdr_labels L = generate_labels(g, filled(2), 2);
    CHECK_THROWS_AS(L.layer(0), cuzk::error);
    CHECK_THROWS_AS(L.layer(3), cuzk::error);
    CHECK_THROWS_AS(label_parents(L, g, 1, 64), cuzk::error);
    CHECK_THROWS_AS(generate_labels(g, filled(2), 0), cuzk::error);
    const std::vector<uint32_t> short_cache(10);
    CHECK_THROWS_AS(generate_labels(g, filled(2), 2, &short_cache), cuzk::error);
    CHECK_THROWS_AS(create_label(filled(2), 1, 5, std::vector<domain>(36)), cuzk::error);
}
