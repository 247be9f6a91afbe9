// The packed witness format of the GPU upload (lib/backend/bridge/witness_pack.hpp)
// on the host: its layout pinned on a small case, and pack → unpack (the host
// reference of the device expansion) giving the values back bit for bit for
// many sizes and patterns, with the pieces of pass 2 taken in any split;
// the same format built from slices (slice_packer) in any order and its checks.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#include "backend/bridge/witness_pack.hpp"
#include "gmp_util.hpp"
#include "backend/bridge/packed_host_sink.hpp"
#include "cuzk/r1cs/constraint_system.hpp"
#include "test_support.hpp"

using namespace cuzk;
namespace wp = cuzk::witness_pack;

TEST_CASE("witness pack: the layout of tags, offsets and others")
{
    // Values 0, 1, x, 0, y, then zeros; a second tile with one other at its value 17.
    std::vector<fr> v(wp::tile + 20, fr::zero());
    const fr x = fr::from_u64(5), y = fr::from_u64(9), z = fr::from_u64(11);
    v[1] = fr::one();
    v[2] = x;
    v[4] = y;
    v[wp::tile + 17] = z;
    std::vector<uint32_t> tags(wp::scratch_words(v.size())), cnt;
    uint32_t* off = tags.data() + wp::tiles_of(v.size()) * wp::tile_words;
    const uint64_t total = wp::tag(v.data(), v.size(), tags.data(), off, cnt, 2);
    CHECK(total == 3);
    CHECK(wp::tiles_of(v.size()) == 2);
    // value j in bits 2j of word 0: 0b10'00'10'01'00 = tags 0, 1, 2, 0, 2.
    CHECK(tags[0] == 0x224u);
    CHECK(tags[wp::tile_words + 1] == (2u << 2));   // value 17 of tile 1 = word 1, slot 1
    CHECK(off[0] == 0);
    CHECK(off[1] == 2);
    CHECK(cnt == std::vector<uint32_t>{2, 1});
    std::vector<fr> others(3);
    wp::gather_others(v.data(), tags.data(), off, 0, 2, others.data(), 1);
    CHECK(others[0] == x);
    CHECK(others[1] == y);
    CHECK(others[2] == z);
}

TEST_CASE("witness pack: pack then unpack gives every value back")
{
    std::mt19937_64 rng(test::test_seed() + 61);
    const size_t sizes[] = {1, 2, 15, 16, 17, 4095, 4096, 4097, 3 * 4096 + 5, 40000};
    for (size_t n : sizes) {
        for (int pattern = 0; pattern < 5; ++pattern) {
            size_t expect = 0;
            const std::vector<fr> v = test::witness_pattern(n, pattern, rng, &expect);
            std::vector<uint32_t> tags(wp::scratch_words(n)), cnt;
            const size_t tiles = wp::tiles_of(n);
            uint32_t* off = tags.data() + tiles * wp::tile_words;
            const uint64_t total = wp::tag(v.data(), n, tags.data(), off, cnt, 3);
            INFO("n " << n << " pattern " << pattern);
            REQUIRE(total == expect);
            // Pass 2 in pieces of a random number of tiles, as the upload's staging does.
            std::vector<fr> others(total + 1);
            for (size_t t0 = 0; t0 < tiles;) {
                const size_t t1 = std::min(tiles, t0 + 1 + rng() % 3);
                wp::gather_others(v.data(), tags.data(), off, t0, t1, others.data() + off[t0], 2);
                t0 = t1;
            }
            std::vector<fr> back(n, fr::from_u64(777));
            wp::unpack(tags.data(), off, others.data(), n, back.data());
            CHECK(std::memcmp(back.data(), v.data(), n * sizeof(fr)) == 0);
        }
    }
}

TEST_CASE("witness pack: slices put in any order from several threads give the whole vector's packing")
{
    std::mt19937_64 rng(test::test_seed() + 67);
    // One sink for every size, as an engine reuses it: each packing reuses
    // the last one's slice buffers (larger and smaller) and others buffer.
    const size_t sizes[] = {40000, 1, 17, 4096, 4097, 3 * 4096 + 5, 40000, 5000};
    witness_pack::host_sink sink;
    for (size_t n : sizes) {
        const std::vector<fr> v = test::witness_pattern(n, 4, rng, nullptr);
        // Cut [0, n) at random points (slices of 1 … ~3000 values, across tile and word edges).
        std::vector<std::pair<size_t, size_t>> cuts;
        for (size_t at = 0; at < n;) {
            const size_t len = std::min(n - at, size_t(1 + rng() % 3000));
            cuts.push_back({at, len});
            at += len;
        }
        std::shuffle(cuts.begin(), cuts.end(), rng);
        sink.begin(n);
        parallel_tasks(4, cuts.size(), [&](size_t k, unsigned) {
            sink.put(cuts[k].first, std::span<const fr>(v).subspan(cuts[k].first, cuts[k].second));
        });
        sink.finish(3);
        INFO("n " << n << ", " << cuts.size() << " slices");
        // Bit for bit the words of the one-pass packing, and the values back.
        std::vector<uint32_t> tags(wp::scratch_words(n)), cnt;
        const uint64_t total = wp::tag(v.data(), n, tags.data(), tags.data() + wp::tiles_of(n) * wp::tile_words, cnt, 2);
        CHECK(sink.others() == total);
        CHECK(sink.packer_bytes() >= total * sizeof(fr));   // the slices' buffers, kept for the next packing
        CHECK(sink.words() == tags);
        const std::vector<fr> back = sink.unpack();
        CHECK(std::memcmp(back.data(), v.data(), n * sizeof(fr)) == 0);
    }
}

TEST_CASE("witness pack: slices that leave a gap, overlap or run past the end are refused")
{
    const std::vector<fr> v(100, fr::one());
    const std::span<const fr> s(v);
    {
        witness_pack::host_sink sink;   // a gap at 40
        sink.begin(100);
        sink.put(0, s.first(40));
        sink.put(50, s.first(50));
        REQUIRE_THROWS_WITH(sink.finish(1), Catch::Contains("a gap or an overlap at value 40"));
    }
    {
        witness_pack::host_sink sink;   // 30 … 39 twice
        sink.begin(100);
        sink.put(0, s.first(40));
        sink.put(30, s.first(70));
        REQUIRE_THROWS_WITH(sink.finish(1), Catch::Contains("gap or an overlap"));
    }
    witness_pack::host_sink sink;
    sink.begin(100);
    REQUIRE_THROWS_WITH(sink.put(90, s.first(11)), Catch::Contains("outside the 100 values"));
}

TEST_CASE("witness pack: a slice's constraint system writes its inputs and refuses too many values")
{
    witness_pack::host_sink sink;
    sink.begin(20);
    std::vector<fr> inputs(3, fr::zero());
    auto a = sink.open(0, 17, std::span<fr>(inputs).first(2), 1);
    r1cs::constraint_system& cs = a->cs();
    CHECK(cs.alloc_input(fr::from_u64(7)).index == 1);
    for (int i = 0; i < 17; ++i) CHECK(cs.alloc(fr::from_u64(uint64_t(i % 3))).index == uint32_t(i));
    CHECK_FALSE(a->full());   // one input left
    CHECK(cs.alloc_input(fr::one()).index == 2);
    CHECK(a->full());
    CHECK(cs.num_aux() == 17);
    CHECK(cs.num_inputs() == 3);
    REQUIRE_THROWS_WITH(cs.alloc(fr::one()), Catch::Contains("overflows"));
    REQUIRE_THROWS_WITH(cs.alloc_input(fr::one()), Catch::Contains("overflows"));
    a->close();
    auto b = sink.open(17, 3, {}, 3);
    for (int i = 17; i < 20; ++i) b->cs().alloc(fr::from_u64(uint64_t(i % 3)));
    b->close();
    sink.finish(2);
    CHECK(inputs[0] == fr::from_u64(7));
    CHECK(inputs[1] == fr::one());
    const std::vector<fr> back = sink.unpack();
    for (int i = 0; i < 20; ++i) CHECK(back[size_t(i)] == fr::from_u64(uint64_t(i % 3)));
    CHECK(sink.others() == 6);   // the 2s among 0 … 19 mod 3
}
