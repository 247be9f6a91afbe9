// The device memory model and plan (backend/device_plan.hpp) for the real
// 32 GiB PoRep partition at the device sizes storage providers own, and the
// device memory ledger (the count, cap and high-water mark behind
// gpu_set_memory_cap) without a device.
//
// The shape: a 32 GiB PoRep partition as the GPU prover holds it (domain
// 2^27, 328 inputs, 130,169,893 aux, 129,753,620 A and 33,112,282 B points
// after the density filter: bellperson's counts for the StackedDrg circuit,
// docs/FILECOIN.md) and a PCE of 7.65 GB on the device (the 8.30 GB of PCE
// and index lists measured on a GPU machine, less the index lists' 0.65 GB).
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

#include "backend/device_ledger.hpp"
#include "cuzk/backend/cuda.hpp"
#include "cuzk/backend/device_plan.hpp"
#include "cuzk/error.hpp"

using namespace cuzk;

namespace {

constexpr uint64_t GB = 1000000000;

gpu_key_shape porep_32gib()
{
    return {uint64_t{1} << 27, 328, 130169893, 129753620, 33112282, 7650000000};
}

} // namespace

TEST_CASE("device plan: the model's figures for a 32 GiB PoRep partition")
{
    const gpu_key_shape s = porep_32gib();
    const uint64_t n = uint64_t{1} << 27;
    // The prove's fixed buffers: witness 32·(328 + aux), a/b/c 3·32·n, NTT 2·32·n,
    // tags (one word per 16 values and one per tile of 4096 values).
    const uint64_t tiles = (130169893 + 4095) / 4096;
    CHECK(gpu_prove_fixed_bytes(s) == uint64_t{32} * (328 + 130169893) + 5 * 32 * n + tiles * 257 * 4);
    const gpu_plan p = plan_gpu_key(s, 80 * GB);
    CHECK(p.beside == 7650000000 + 4 * (129753620 + 33112282));
    CHECK(p.queries == (n - 1 + 130169893 + 129753620 + 33112282) * 96 + uint64_t{33112282} * 192);
    CHECK(p.slot == 32 * (328 + 130169893 + n));
    // Chunk buffers: 1/32 of what the PCE and index lists leave.
    CHECK(p.chunk == (80 * GB - p.beside) / 32);
    CHECK(plan_gpu_key_streamed(s, 80 * GB, (n - 1) * 96).batch == 2);   // whole-query chunks: a batch of 2
    CHECK(gpu_stream_chunk_bytes(s, p.beside + 1) == uint64_t{128} << 20);   // at least 128 MiB
    CHECK(gpu_stream_chunk_bytes(s, 1000 * GB) == (n - 1) * 96);             // at most the largest query (H)
}

TEST_CASE("device plan: a 32 GiB PoRep partition on 16, 24, 32, 48, 80 and 141 GB devices")
{
    const gpu_key_shape s = porep_32gib();
    // 16 GB: lean with the low-memory NTT, the PCE streamed from host
    // memory: index lists 0.65 + a and b 8.59 + chunks 2 × 0.48 + the H
    // step's witness 4.17, its tags 0.03, two PCE tiles 0.54 and the NTT's
    // tables 0.03 (more than the MSM room, 4 GiB): 14.97 GB.
    const gpu_plan p16g = plan_gpu_key(s, 16 * GB);
    CHECK(p16g.fits);
    CHECK(p16g.lean);
    CHECK(p16g.low_ntt);
    CHECK(p16g.pce_streamed);
    CHECK_FALSE(p16g.pce_on_host);
    CHECK(p16g.batch == 1);
    const uint64_t n32 = 32 * (uint64_t{1} << 27);
    const uint64_t w_tags = uint64_t{32} * (328 + 130169893) + (130169893 + 4095) / 4096 * 257 * 4;
    CHECK(p16g.one_prove == 2 * n32 + 2 * p16g.chunk);
    CHECK(p16g.msm_room == w_tags + 2 * (uint64_t{256} << 20) + gpu_ntt_low_memory_bytes(uint64_t{1} << 27));
    CHECK(gpu_ntt_low_memory_bytes(uint64_t{1} << 27) == 32 * ((uint64_t{1} << 20) - 1 + (1u << 13) + (1u << 13) +
                                                                 2 * ((2u << 14) + 16)));
    CHECK(p16g.total() <= 16 * GB);
    CHECK(p16g.summary().find("PCE streamed from host memory in tiles, lean with the low-memory NTT") !=
          std::string::npos);
    // With the PCE on the host: c with the tables instead of the witness (14.60 GB).
    gpu_key_shape host = s;
    host.pce_bytes = 0;
    const gpu_plan p16h = plan_gpu_key_lean(host, 16 * GB, gpu_stream_chunk_bytes(host, 16 * GB), true);
    CHECK(p16h.fits);
    CHECK(p16h.pce_on_host);
    CHECK(p16h.msm_room == n32 + gpu_ntt_low_memory_bytes(uint64_t{1} << 27));
    CHECK(p16h.total() < p16g.total());
    // 12 GB: refused with the low-memory lean figures.
    const gpu_plan p12 = plan_gpu_key(s, 12 * GB);
    CHECK_FALSE(p12.fits);
    CHECK(p12.why.find("too small") != std::string::npos);
    CHECK(p12.why.find("low-memory NTT") != std::string::npos);
    CHECK(p12.why.find("needs 14.") != std::string::npos);   // 0.65 + 8.59 + 2 × 0.35 + 4.33
    CHECK(p12.summary() == p12.why);
    // The low-memory NTT's lean prove takes a, b, c from the host or the PCE streamed, not the PCE on the device.
    CHECK(plan_gpu_key_lean(s, 1000 * GB, GB, true).why.find("from the host") != std::string::npos);
    for (uint64_t g : {24, 32}) {   // 24 GB: lean, the PCE streamed; 32 GB: lean, the PCE on the device
        INFO(g << " GB");
        const gpu_plan p = plan_gpu_key(s, g * GB);
        CHECK(p.fits);
        CHECK(p.lean);
        CHECK_FALSE(p.low_ntt);
        CHECK_FALSE(p.pce_on_host);
        CHECK(p.pce_streamed == (g == 24));
        CHECK(p.total() <= g * GB);
    }
    // A card of 32 GiB (34.36 GB): lean with the PCE on the device, one
    // partition at a time (the witness uploaded for PCE_EVAL, then into c
    // after the H step); 24 GiB: lean with the PCE streamed from host
    // memory in tiles (PCE_EVAL's phase: the witness, its tags and two tile
    // buffers); 16 GiB: lean with the low-memory NTT, the PCE streamed.
    const uint64_t GiB = uint64_t{1} << 30;
    const gpu_plan p32 = plan_gpu_key(s, 32 * GiB);
    CHECK(p32.fits);
    CHECK(p32.lean);
    CHECK_FALSE(p32.pce_on_host);
    CHECK_FALSE(p32.resident);
    CHECK(p32.batch == 1);
    CHECK(p32.beside == 7650000000 + 4 * (129753620 + 33112282));   // the PCE and the index lists
    CHECK(p32.one_prove == 3 * 32 * (uint64_t{1} << 27) + 2 * p32.chunk);
    CHECK(p32.chunk == (32 * GiB - p32.beside) / 32);
    // The largest phase: the NTT's 2n (PCE_EVAL's witness and tags are less).
    CHECK(p32.msm_room == 2 * 32 * (uint64_t{1} << 27));
    CHECK(p32.total() <= 32 * GiB);
    CHECK(p32.summary().find("PCE and index lists 8.30 GB, lean") != std::string::npos);
    const gpu_plan p24 = plan_gpu_key(s, 24 * GiB);
    CHECK(p24.fits);
    CHECK(p24.lean);
    CHECK_FALSE(p24.pce_on_host);
    CHECK(p24.pce_streamed);
    CHECK(p24.beside == 4 * (129753620 + 33112282));   // the index lists only
    CHECK(p24.batch == 1);
    // a/b/c (the witness in c) and the chunks, then the larger phase: the NTT's 2n.
    CHECK(p24.one_prove == 3 * 32 * (uint64_t{1} << 27) + 2 * p24.chunk);
    CHECK(p24.msm_room == 2 * 32 * (uint64_t{1} << 27));
    CHECK(p24.total() <= 24 * GiB);
    CHECK(p24.summary().find("PCE streamed from host memory in tiles, lean") != std::string::npos);
    CHECK_FALSE(p24.low_ntt);   // the plain lean prove fits: no slower NTT
    // 16 GiB: lean with the low-memory NTT (2.2 GB to spare), the PCE streamed.
    const gpu_plan p16 = plan_gpu_key(s, 16 * GiB);
    CHECK(p16.fits);
    CHECK(p16.low_ntt);
    CHECK(p16.pce_streamed);
    CHECK(p16.total() + 2 * GB < 16 * GiB);
    // The lean plan wants the witness within c and the A/B scalars within b.
    gpu_key_shape wide = s;
    wide.a_points = wide.domain + 1;
    CHECK(plan_gpu_key_lean(wide, 1000 * GB, GB).why.find("within the domain") != std::string::npos);

    const gpu_plan p48 = plan_gpu_key(s, 48 * GB);
    CHECK_FALSE(p48.pce_on_host);
    CHECK(p48.fits);
    CHECK_FALSE(p48.resident);
    CHECK(p48.batch == 1);   // 7.25 GB to spare, a slot is 8.46
    CHECK(p48.total() <= 48 * GB);

    CHECK(p48.kept == 0);   // B (9.54 GB) would cost the batch nothing could replace: 10.6 GB of room

    // 80 GB: B and H kept on the device (22.4 GB; the largest chunked-MSM
    // costs), L and A streamed in batches of two (L would leave no slot).
    const gpu_plan p80 = plan_gpu_key(s, 80 * GB);
    CHECK(p80.fits);
    CHECK_FALSE(p80.resident);
    CHECK(p80.kept == (gpu_query_b | gpu_query_h));
    CHECK(p80.kept_bytes == gpu_query_bytes(s, gpu_query_b) + gpu_query_bytes(s, gpu_query_h));
    CHECK(p80.kept_bytes == ((uint64_t{1} << 27) - 1) * 96 + 33112282ull * (96 + 192));
    CHECK(p80.batch == 2);
    CHECK(p80.total() <= 80 * GB);
    CHECK(p80.total() + p80.slot > 80 * GB);
    CHECK(p80.summary().find("H, B kept on the device (22.42 GB), L, A streamed") != std::string::npos);
    CHECK(p80.summary().find("batch of 2 partitions") != std::string::npos);
    // One partition a call (--batch 1): no slot to keep, so L too.
    const gpu_plan p80b1 = plan_gpu_key(s, 80 * GB, 1);
    CHECK(p80b1.batch == 1);
    CHECK(p80b1.kept == (gpu_query_b | gpu_query_h | gpu_query_l));
    CHECK(p80b1.total() <= 80 * GB);
    // A set imposed (a key that has placed its queries) is taken as it is.
    const gpu_plan imposed = plan_gpu_key_streamed(s, 80 * GB, p80.chunk, 0, gpu_query_a);
    CHECK(imposed.kept == gpu_query_a);
    CHECK(imposed.batch == 3);   // 36.5 GB of room less A's 12.46: two more slots
    CHECK_FALSE(plan_gpu_key_streamed(s, 48 * GB, p48.chunk, 0, gpu_query_all & ~gpu_query_a).fits);
    CHECK(gpu_query_names(gpu_query_h | gpu_query_a) == "H, A");
    CHECK(gpu_query_names(0) == "none");

    const gpu_plan p141 = plan_gpu_key(s, 141 * GB);
    CHECK(p141.fits);
    CHECK(p141.resident);
    CHECK(p141.batch == 1);
    CHECK(p141.chunk == 0);
    CHECK(p141.total() <= 141 * GB);
    // A resident key's own MSM estimate as its room: too large a room streams it.
    CHECK_FALSE(plan_gpu_key(s, 141 * GB, 0, 60 * GB).resident);
}

TEST_CASE("device plan: a streamed PCE's tile buffers")
{
    gpu_key_shape st = porep_32gib();
    st.pce_bytes = 0;
    st.pce_tile_bytes = uint64_t{256} << 20;
    gpu_key_shape host = st;
    host.pce_tile_bytes = 0;
    const uint64_t chunk = GB;
    // Streamed: the two tile buffers in one prove's fixed buffers.
    const gpu_plan ps = plan_gpu_key_streamed(st, 1000 * GB, chunk, 1);
    const gpu_plan ph = plan_gpu_key_streamed(host, 1000 * GB, chunk, 1);
    CHECK(ps.pce_streamed);
    CHECK_FALSE(ps.pce_on_host);
    CHECK(ps.one_prove == ph.one_prove + 2 * st.pce_tile_bytes);
    CHECK(ps.summary().find("PCE streamed from host memory in tiles") != std::string::npos);
    // Lean: PCE_EVAL's phase holds the witness, its tags and the tiles; with
    // tiles large enough it is the largest phase.
    st.pce_tile_bytes = 4 * GB;
    const gpu_plan pl = plan_gpu_key_lean(st, 100 * GB, chunk);   // the MSM room: 100/16 GB
    const uint64_t n = uint64_t{1} << 27, tags = (130169893 + 4095) / 4096 * 257 * 4;
    CHECK(pl.msm_room == uint64_t{32} * (328 + 130169893) + tags + 8 * GB);
    CHECK(pl.msm_room > 2 * 32 * n);
    // The low-memory NTT's lean prove: the witness, its tags, the tiles and
    // the NTT's tables in the H step's phase.
    const gpu_plan pll = plan_gpu_key_lean(st, 100 * GB, chunk, true);
    CHECK(pll.fits);
    CHECK(pll.msm_room == uint64_t{32} * (328 + 130169893) + tags + 8 * GB + gpu_ntt_low_memory_bytes(n));
}

TEST_CASE("device plan: the streamed plan with a key's own chunk size")
{
    const gpu_key_shape s = porep_32gib();
    const gpu_plan a = plan_gpu_key_streamed(s, 80 * GB, uint64_t{1} << 30);
    const gpu_plan b = plan_gpu_key_streamed(s, 80 * GB, uint64_t{8} << 30);
    CHECK(a.fits);
    CHECK(b.fits);
    CHECK(a.one_prove + 14 * (uint64_t{1} << 30) == b.one_prove);
    CHECK(a.batch >= b.batch);
    CHECK_FALSE(plan_gpu_key_streamed(s, 40 * GB, uint64_t{8} << 30).fits);
}

TEST_CASE("device memory ledger: counts, cap, high-water mark, clipped free memory")
{
    detail::memory_ledger l;
    int x = 0, y = 0;
    CHECK(l.reserve(100));
    l.bind(&x, 100);
    CHECK(l.reserve(50));
    l.bind(&y, 50);
    CHECK(l.use().used == 150);
    CHECK(l.use().peak == 150);
    l.release(&x);
    CHECK(l.use().used == 50);
    CHECK(l.use().peak == 150);
    l.release(&x);   // twice: nothing more
    l.release(nullptr);
    CHECK(l.use().used == 50);
    l.reset_peak();
    CHECK(l.use().peak == 50);

    l.set_cap(120);
    CHECK_FALSE(l.reserve(71));   // 50 + 71 > 120: refused, nothing counted
    CHECK(l.use().used == 50);
    CHECK(l.reserve(70));
    l.unreserve(70);   // the allocation failed
    CHECK(l.use().used == 50);
    uint64_t free_b = 1000, total_b = 2000;
    l.clip(&free_b, &total_b);
    CHECK(free_b == 70);
    CHECK(total_b == 120);
    free_b = 10;
    l.clip(&free_b, nullptr);
    CHECK(free_b == 10);   // the device's own figure when smaller
    l.set_cap(40);        // a cap below the count: nothing fits, nothing free
    CHECK_FALSE(l.reserve(1));
    free_b = 1000;
    l.clip(&free_b, nullptr);
    CHECK(free_b == 0);
    l.set_cap(0);
    CHECK(l.reserve(1000000));
    CHECK(l.use().cap == 0);
}

TEST_CASE("device memory ledger: the public functions, and devices out of range")
{
    gpu_set_memory_cap(63, 12345);
    CHECK(gpu_memory_use_of(63).cap == 12345);
    gpu_set_memory_cap(63, 0);
    CHECK(gpu_memory_use_of(63).cap == 0);
    CHECK_THROWS_AS(gpu_set_memory_cap(64, 1), cuzk::error);
    CHECK_THROWS_AS(gpu_memory_use_of(-1), cuzk::error);
}
