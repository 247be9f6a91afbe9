// cuzk — the device memory model of a bellperson key on the GPU prover, and
// the plan made from it: whether the point queries stay resident, the size
// of a streamed key's chunk buffers, and how many partitions one prove call
// takes together (gpu_prove_start_witness_batch), for a device of a given
// size. gpu_key makes its chunk and batch decisions with it, the engine and
// `cuzk porep c2` print it, and the CPU tests check its arithmetic for the
// real Filecoin shapes. Plain C++, no device needed.
//
// The model (bytes; Fr values are 32 bytes, G1 affine points 96, G2 192):
//   beside the queries, always on the device: the A/B index lists (4 bytes
//     per A and B point) and the PCE's matrices, unless they stay on the
//     host (a, b, c then come from the host with the witness) or stream
//     (below);
//   a streamed PCE (gpu_pce_options::streamed: its matrices in page-locked
//     host memory, copied to the device a tile at a time at every
//     evaluation): its two tile buffers (pce_tile_bytes each) in one
//     prove's fixed buffers, or in a lean prove's PCE_EVAL phase;
//   queries: (|H| + |L| + |A| + |B|)·96 + |B|·192, with |H| = n − 1;
//   one prove's fixed buffers: the witness (inputs + aux), a, b, c (3n),
//     the A/B gather buffer (only when |A| or |B| > 2n), the NTT's scratch
//     and twiddles (2n), the packed witness's tags (witness_pack);
//   streamed: two chunk buffers of min(largest query, max(free/32, 128 MiB))
//     each, free being what the PCE and index lists leave (each chunk is an
//     MSM of its own, so fewer, larger chunks would prove faster, but each
//     query's first chunk is copied while the device waits: with whole-query
//     chunks that wait is the whole copy; see bench/RESULTS.md);
//   one more partition in a batch (a slot): its witness and its h (n);
//   streamed, the room beside one prove: queries kept on the device (read
//     in place, not streamed), in the order B (G1 and G2), H, L, A — B's
//     chunked MSMs cost the most against resident ones (MSM_B2 111 ms a
//     partition streamed on an H100, 16 resident on an H200), then H's —
//     each kept only while a batch of two still fits when it did without
//     it; then slots;
//   lean: one prove holds a, b, c (3n; the witness shares c's space) and
//     the chunk buffers, and the largest of the NTT's scratch and twiddles
//     (2n), the MSM room (the phases do not overlap) and, with the PCE on
//     the device, PCE_EVAL's witness and packed tags (a buffer freed before
//     the H step; the witness is uploaded again into c after it);
//   lean with the low-memory NTT (a card too small for the above): a and b
//     (2n) stay and the transforms run in place with small twiddle tables
//     (gpu_ntt_memory::low). The PCE streamed: the witness has a buffer of
//     its own during the H step (A and B evaluated first, C late into b's
//     space), then moves into b: one prove holds 2n and the chunk buffers,
//     and the larger of the witness with its tags, the tiles and the tables,
//     and the MSM room. The PCE on the host: c (n) is allocated for the H
//     step only; after MSM_H the witness goes into a: 2n and the chunk
//     buffers, and the larger of c with the tables and the MSM room;
//   MSM room: what is left free for the MSMs' sorts, buckets and the
//     witness MSM's compaction, which adapt to the memory free (less room,
//     more sort passes): max(device/16, min(4 GiB, twice the largest
//     query's points)) when streaming; a resident
//     key leaves its full estimate (gpu_key::prove_scratch_bytes), which the
//     model does not reproduce: it takes msm_room_resident.
#pragma once

#include <cstdint>
#include <string>

namespace cuzk {

// A bellperson key's sizes as the GPU prover holds them.
struct gpu_key_shape {
    uint64_t domain = 0;     // n (a power of two)
    uint64_t inputs = 0;     // public inputs, the constant one included
    uint64_t aux = 0;        // private variables
    uint64_t a_points = 0;   // |A| after the density filter
    uint64_t b_points = 0;   // |B| (in G1 and in G2)
    uint64_t pce_bytes = 0;  // the PCE's matrices on the device
    // A streamed PCE (pce_bytes then 0): each of its evaluation's two tile
    // buffers (gpu_pce::eval_device_bytes() / 2).
    uint64_t pce_tile_bytes = 0;
};

// The point queries, as bits of gpu_plan::kept.
enum gpu_query : unsigned { gpu_query_h = 1, gpu_query_l = 2, gpu_query_a = 4, gpu_query_b = 8 };
inline constexpr unsigned gpu_query_all = 15;
// The device bytes of the queries in `set` (gpu_query bits; B is B_G1 and B_G2).
uint64_t gpu_query_bytes(const gpu_key_shape& s, unsigned set);
// "H, B" for a set of queries, "none" for none.
std::string gpu_query_names(unsigned set);

struct gpu_plan {
    bool fits = false;        // one prove fits the device (else `why` says why, with the figures)
    bool resident = false;    // the queries stay on the device
    // The PCE stays on the host: a, b, c are evaluated by host threads and
    // uploaded with the witness (no batches: a batch evaluates on the device).
    bool pce_on_host = false;
    // The PCE streamed from page-locked host memory, tile by tile, at every
    // evaluation on the device (shape's pce_tile_bytes).
    bool pce_streamed = false;
    // Lean (a card too small for the NTT's buffers beside the witness): the
    // witness is uploaded after the H step into c's space, and the NTT's
    // scratch and twiddles are freed before the MSMs, so msm_room is the
    // largest of the phases' needs. With the PCE on the device (pce_on_host
    // false) the witness is also uploaded before the H step, into a buffer
    // PCE_EVAL reads and that is freed before the NTT.
    bool lean = false;
    // Lean with the low-memory NTT (the PCE on the host or streamed; see the
    // model above): the transforms in place with small tables.
    bool low_ntt = false;
    unsigned batch = 1;       // partitions one prove call takes together (1: one at a time)
    uint64_t device = 0;      // the device bytes planned for
    uint64_t beside = 0;      // PCE and index lists
    uint64_t queries = 0;     // the five point queries (on the device only when resident)
    unsigned kept = 0;        // streamed plans: the queries kept on the device (gpu_query bits; the rest stream)
    uint64_t kept_bytes = 0;  // their bytes
    uint64_t one_prove = 0;   // one prove's fixed buffers (chunk buffers included when streamed)
    uint64_t chunk = 0;       // streamed: each of the two chunk buffers
    uint64_t slot = 0;        // one more partition of a batch
    uint64_t msm_room = 0;    // left free for the MSMs
    std::string why;          // when !fits
    // The device bytes the plan holds at its peak: beside + queries (when
    // resident) or kept_bytes + one_prove + (batch − 1)·slot + msm_room.
    uint64_t total() const noexcept;
    // One line: placement, the figures in GB, the batch; or `why`.
    std::string summary() const;
};

// The fixed buffers of one prove, without chunk buffers.
uint64_t gpu_prove_fixed_bytes(const gpu_key_shape& s);
// A streamed key's chunk buffer (each of two) on a device of device_bytes.
uint64_t gpu_stream_chunk_bytes(const gpu_key_shape& s, uint64_t device_bytes);

// The plan for a device of `device_bytes` (a budget, or its memory).
// max_batch caps the batch (0: no cap); msm_room_resident is what a
// resident key must leave free beside its fixed buffers (the prover's own
// estimate of its MSMs; 0: the streamed rule). A key is resident when it
// fits with that room; otherwise streamed, when one prove fits with its
// chunk buffers and the MSM room; otherwise lean with the PCE on the device,
// when that fits; otherwise streamed, then lean, then lean with the
// low-memory NTT, with the PCE streamed from host memory (tiles of
// gpu_pce_options's default), when one fits; otherwise streamed with its
// PCE on the host (a batch of 1), when that fits; otherwise lean with the
// PCE on the host, when that fits; otherwise the same with the low-memory
// NTT, when that fits;
// otherwise refused with the figures of the smallest plan (lean with the
// low-memory NTT when the shape allows it, else the PCE on the host). (Measured on an H100,
// 32 GiB PoRep: the host's evaluation of a, b, c bounds the PCE-on-host
// plans, so a lean prove with the PCE on the device comes before them.)
gpu_plan plan_gpu_key(const gpu_key_shape& s, uint64_t device_bytes, unsigned max_batch = 0,
                      uint64_t msm_room_resident = 0);
// Whether a lean prove can hold this shape: the witness within c's n
// values and the A/B scalars within b's.
bool gpu_lean_shape(const gpu_key_shape& s);
// The lean plan (gpu_plan::lean, one partition a call) with a given chunk
// buffer size; the PCE on the device when s.pce_bytes is not 0, streamed
// when s.pce_tile_bytes is not 0, else on the host. Refused when the witness or the A/B scalars do not fit c's or b's n
// values, or the device is too small.
// low_ntt: with the low-memory NTT (the PCE must be on the host or
// streamed: s.pce_bytes 0).
gpu_plan plan_gpu_key_lean(const gpu_key_shape& s, uint64_t device_bytes, uint64_t chunk_bytes, bool low_ntt = false);
// The device bytes of the low-memory NTT's tables for a domain of n (its
// stage tables of the first 2^20 entries, the power tables, the coset
// powers).
uint64_t gpu_ntt_low_memory_bytes(uint64_t domain);
// The streamed plan with a given chunk buffer size (a key's own): refused
// when one prove does not fit, else the queries kept on the device (the
// model's rule above; `kept` >= 0 imposes a set instead, e.g. the one a key
// has already placed) and the largest batch that fits beside them.
gpu_plan plan_gpu_key_streamed(const gpu_key_shape& s, uint64_t device_bytes, uint64_t chunk_bytes,
                               unsigned max_batch = 0, int kept = -1);

} // namespace cuzk
