// The host half of the packed witness upload (lib/backend/bridge/witness_pack.hpp)
// on the CPU: pass 1 (tags and counts) and pass 2 (the other values) over a
// PoRep-like witness (70 % zeros, 20 % ones, 10 % other values), against the
// plain copy into a staging buffer that the unpacked upload does, and against
// a classifier with branches (is_zero() / is_one()) for the ratio.
//
//   bm_pack_tag/T        pass 1 on T threads (0 = all)
//   bm_pack_gather/T     pass 2 over every tile
//   bm_copy/T            memcpy of the whole witness (what the plain upload's host side does)
//   bm_tag_branchy/1     pass 1 written with is_zero()/is_one() per value
// Size: 2^24 values (512 MiB). Bytes processed = the witness's bytes.
#include <benchmark/benchmark.h>

#include <cstring>
#include <random>
#include <vector>

#include "backend/bridge/witness_pack.hpp"
#include "cuzk/util/parallel.hpp"

using namespace cuzk;
namespace wp = cuzk::witness_pack;

namespace {

constexpr size_t n_values = size_t{1} << 24;

const std::vector<fr>& witness()
{
    static const std::vector<fr> v = [] {
        std::vector<fr> w(n_values);
        std::mt19937_64 rng(0x7061636bull);
        for (auto& x : w) {
            const auto r = rng() % 100;
            x = r < 70 ? fr::zero() : r < 90 ? fr::one() : fr::random(rng);
        }
        return w;
    }();
    return v;
}

void bm_pack_tag(benchmark::State& st)
{
    const auto& v = witness();
    const unsigned th = unsigned(st.range(0));
    std::vector<uint32_t> tags(wp::scratch_words(v.size())), cnt;
    uint32_t* off = tags.data() + wp::tiles_of(v.size()) * wp::tile_words;
    for (auto _ : st) benchmark::DoNotOptimize(wp::tag(v.data(), v.size(), tags.data(), off, cnt, th));
    st.SetBytesProcessed(int64_t(st.iterations()) * int64_t(v.size() * sizeof(fr)));
}

void bm_pack_gather(benchmark::State& st)
{
    const auto& v = witness();
    const unsigned th = unsigned(st.range(0));
    std::vector<uint32_t> tags(wp::scratch_words(v.size())), cnt;
    const size_t tiles = wp::tiles_of(v.size());
    uint32_t* off = tags.data() + tiles * wp::tile_words;
    const uint64_t total = wp::tag(v.data(), v.size(), tags.data(), off, cnt, 0);
    std::vector<fr> others(total);
    for (auto _ : st) {
        wp::gather_others(v.data(), tags.data(), off, 0, tiles, others.data(), th);
        benchmark::ClobberMemory();
    }
    st.SetBytesProcessed(int64_t(st.iterations()) * int64_t(v.size() * sizeof(fr)));
    st.counters["others"] = double(total);
}

void bm_copy(benchmark::State& st)
{
    const auto& v = witness();
    const unsigned th = unsigned(st.range(0));
    std::vector<fr> dst(v.size());
    for (auto _ : st) {
        parallel_for(th, v.size() >> 15, [&](size_t b, size_t e, unsigned) {
            std::memcpy(dst.data() + (b << 15), v.data() + (b << 15), ((e - b) << 15) * sizeof(fr));
        });
        benchmark::ClobberMemory();
    }
    st.SetBytesProcessed(int64_t(st.iterations()) * int64_t(v.size() * sizeof(fr)));
}

void bm_tag_branchy(benchmark::State& st)
{
    const auto& v = witness();
    std::vector<uint32_t> tags(v.size() / 16);
    for (auto _ : st) {
        uint64_t others = 0;
        for (size_t w = 0; w < tags.size(); ++w) {
            uint32_t word = 0;
            for (unsigned q = 0; q < 16; ++q) {
                const fr& x = v[16 * w + q];
                const unsigned tg = x.is_zero() ? 0u : x.is_one() ? 1u : 2u;
                word |= tg << (2 * q);
                others += tg == 2;
            }
            tags[w] = word;
        }
        benchmark::DoNotOptimize(others);
    }
    st.SetBytesProcessed(int64_t(st.iterations()) * int64_t(v.size() * sizeof(fr)));
}

} // namespace

BENCHMARK(bm_pack_tag)->ArgName("threads")->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_pack_gather)->ArgName("threads")->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_copy)->ArgName("threads")->Arg(1)->Arg(0)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_tag_branchy)->ArgName("threads")->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
