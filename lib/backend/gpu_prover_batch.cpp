// cuzk — several partitions of one key in one prove call
// (gpu_prove_start_witness_batch, include/cuzk/backend/gpu_prover.hpp).
//
// A streamed key's points cross the bus at every prove: 47 GB for a 32 GiB
// PoRep partition, ~1 s at PCIe speeds, as long as the partition's own
// device work. A batch of P partitions copies each chunk once and runs the
// P partitions' MSMs on it, so the points cross once a batch:
//   for each partition p:  H2D, PCE_EVAL, NTT (as one prove); its witness
//                          stays in w (p = 0) or batch_w[p − 1], its h is
//                          copied to batch_h[p] (the last one's stays in a)
//   for each query:        chunk i+1 copied while chunk i serves every
//                          partition's MSM (A and B gather their scalars
//                          chunk by chunk into b, free by then)
// Device memory: one prove's scratch plus batch_slot_bytes() per further
// partition (its witness and h); the model that sizes P is device_plan.hpp.
#include <fmt/format.h>

#include <functional>
#include <memory>
#include <vector>

#include "cuzk/backend/gpu_prover.hpp"
#include "cuzk/error.hpp"

#if CUZK_WITH_CUDA
#include "backend/gpu_key_impl.hpp"
#include "backend/gpu_prove_steps.hpp"
#endif

namespace cuzk {

#if CUZK_WITH_CUDA

using namespace gpu_detail;
using namespace gpu_prove_steps;

namespace {

using steps_list = std::vector<std::unique_ptr<device_steps>>;

// The further partitions' witness and h buffers (see the file's header).
void ensure_batch_scratch(gpu_key::impl& k, size_t parts)
{
    const uint64_t w_bytes = (uint64_t(k.ni) + k.na) * sizeof(fr), h_bytes = uint64_t(k.n) * sizeof(fr);
    auto alloc = [&] {
        if (k.batch_w.size() < parts - 1) k.batch_w.resize(parts - 1);
        if (k.batch_h.size() < parts - 1) k.batch_h.resize(parts - 1);
        for (size_t i = 0; i + 1 < parts; ++i) {
            grow(k.batch_w[i], w_bytes);
            grow(k.batch_h[i], h_bytes);
        }
    };
    try {
        alloc();
    } catch (const error& e) {
        if (e.code() != errc::out_of_memory) throw;
        gpu_release_cache();   // the MSMs' sorts adapt to what is left
        alloc();
    }
    if (k.batch_events.size() < parts) k.batch_events.resize(parts);
}

// Partition p's vectors, and where its h waits for the MSMs.
bp_vectors part_vectors(gpu_key::impl& k, size_t p)
{
    bp_vectors v = bellperson_vectors(k, nullptr);
    if (p > 0) v.w = k.batch_w[p - 1].as<fr>();
    return v;
}
fr* part_h(gpu_key::impl& k, size_t p, size_t parts)
{
    return p + 1 < parts ? k.batch_h[p].as<fr>() : k.abc.as<fr>();
}

// H2D, PCE_EVAL and NTT of one partition; its h kept for the MSMs.
void batch_front(gpu_key::impl& k, device_steps& ds, size_t p, size_t parts, const gpu_batch_part& part)
{
    const bp_vectors v = part_vectors(k, p);
    const gpu_packed_witness::impl* packed = part.packed ? &gpu_prover_access::get(*part.packed) : nullptr;
    bellperson_h2d(k, ds, v, part.inputs, part.aux, nullptr, packed);
    if (p == 0) prime(k, k.h, ds, "h");   // H's first chunk, during the partitions' NTTs
    bellperson_pce_eval(k, ds, v);
    bellperson_h_step(k, ds, v);
    fr* h = part_h(k, p, parts);
    if (h != v.a) pb::copy_d2d(h, v.a, k.n * sizeof(fr));
}

// One query for every partition, chunk by chunk: msm(p, points, off, len)
// gives partition p's sum over a piece; partition p's step span runs from
// its first piece to its last. The chunks' copies are reported to the
// first partition's steps (each chunk is copied once for all); `next`
// primes the query that follows.
template <class Aff, class Jac, class Msm>
std::vector<Jac> batch_query(gpu_key::impl& k, steps_list& ds, const query<Aff>& q, std::string_view step,
                             std::string_view name, Msm&& msm, const std::function<void()>& next)
{
    const size_t parts = ds.size(), total = q.size();
    std::vector<Jac> acc(parts, Jac::identity());
    std::vector<std::unique_ptr<device_steps::scope>> open(parts);
    query_chunks(k, q, *ds.front(), name, [&](const Aff* pts, size_t off, size_t len) {
        for (size_t p = 0; p < parts; ++p) {
            if (!open[p]) open[p] = std::make_unique<device_steps::scope>(*ds[p], step, name);
            acc[p] = acc[p].add(msm(p, pts, off, len));
            if (off + len == total) open[p]->end();
        }
    }, next);
    return acc;
}

// A witness MSM of a query for every partition; scalars(p, off, len) puts
// partition p's scalars of a piece on the device and returns them.
template <class Aff, class Jac, class Scalars>
std::vector<Jac> batch_witness_query(gpu_key::impl& k, steps_list& ds, const query<Aff>& q, std::string_view step,
                                     std::string_view name, Scalars&& scalars, const std::function<void()>& next = {})
{
    std::vector<witness_spans> sp(ds.size());
    std::vector<Jac> r = batch_query<Aff, Jac>(
        k, ds, q, step, name,
        [&](size_t p, const Aff* pts, size_t off, size_t len) {
            return sp[p].template msm<Aff, Jac>(*ds[p], pts, scalars(p, off, len), len, name);
        },
        next);
    for (size_t p = 0; p < ds.size(); ++p) sp[p].finish(*ds[p], name);
    return r;
}

// MSM_H … MSM_B2 of every partition of the batch; each query's first chunk
// is copied during the one before (H's during the NTTs).
void batch_msms(gpu_key::impl& k, steps_list& ds, std::vector<groth16::prove_sums>& out)
{
    const size_t parts = ds.size();
    device_steps& d0 = *ds.front();   // the chunks' copies are reported here
    const auto h = batch_query<g1_affine, g1_jacobian>(k, ds, k.h, "MSM_H", "h",
                                                       [&](size_t p, const g1_affine* pts, size_t off, size_t len) {
        const auto* hr = reinterpret_cast<const fr::repr*>(part_h(k, p, parts));
        return msm_h_piece(k, *ds[p], pts, hr + off, len);
    }, [&] { prime(k, k.l, d0, "l"); });
    const auto l = batch_witness_query<g1_affine, g1_jacobian>(
        k, ds, k.l, "MSM_L", "l",
        [&](size_t p, size_t off, size_t) { return static_cast<const fr*>(part_vectors(k, p).w + k.ni + off); },
        [&] { prime(k, k.a, d0, "a"); });
    // A and B: partition p's scalars of a piece gathered into b (free: every
    // h is in batch_h or a), or the gather buffer when |A| or |B| > 2n.
    fr* g = k.gath_elems() ? k.gath.as<fr>() : k.abc.as<fr>() + k.n;
    auto gathered = [&](const gpu_buffer& idx) {
        return [&k, &idx, g](size_t p, size_t off, size_t len) {
            pb::gather(part_vectors(k, p).w, idx.as<uint32_t>() + off, len, g);
            return static_cast<const fr*>(g);
        };
    };
    const auto a = batch_witness_query<g1_affine, g1_jacobian>(k, ds, k.a, "MSM_A", "a", gathered(k.idx_a),
                                                               [&] { prime(k, k.b1, d0, "b1"); });
    const auto b1 = batch_witness_query<g1_affine, g1_jacobian>(k, ds, k.b1, "MSM_B1", "b1", gathered(k.idx_b),
                                                                [&] { prime(k, k.b2, d0, "b2"); });
    const auto b2 = batch_witness_query<g2_affine, g2_jacobian>(k, ds, k.b2, "MSM_B2", "b2", gathered(k.idx_b));
    for (size_t p = 0; p < parts; ++p) {
        out[p].h = h[p];
        out[p].l = l[p];
        out[p].a = a[p];
        out[p].b1 = b1[p];
        out[p].b2 = b2[p];
    }
}

std::vector<groth16::prove_sums> prove_batch_device(gpu_key::impl& k, std::span<const gpu_batch_part> parts)
{
    const auto t_all = clock::now();
    return guarded(k, [&] {
        ensure_batch_scratch(k, parts.size());
        steps_list ds;
        for (size_t p = 0; p < parts.size(); ++p)
            ds.push_back(std::make_unique<device_steps>(k, parts[p].observer, &k.batch_events[p]));
        for (size_t p = 0; p < parts.size(); ++p) batch_front(k, *ds[p], p, parts.size(), parts[p]);
        std::vector<groth16::prove_sums> out(parts.size());
        batch_msms(k, ds, out);
        k.proved = true;
        for (auto& d : ds) d->finish(nullptr, t_all);
        return out;
    });
}

void check_part(const gpu_key::impl& k, const gpu_batch_part& part, size_t p)
{
    const std::string fn = fmt::format("gpu_prove_start_witness_batch: partition {}", p);
    const size_t aux = part.packed ? part.packed->size() : part.aux.size();
    check_assignment(k, part.inputs, part.aux, fn.c_str(), aux);
    if (part.packed && part.packed->others() > 3 * uint64_t(k.n))
        throw error(errc::invalid_argument, fmt::format("{}: the packed aux has more other values than 3n", fn));
}

std::vector<groth16::prove_sums> one_by_one(const gpu_key& key, std::span<const gpu_batch_part> parts)
{
    std::vector<groth16::prove_sums> out;
    for (const gpu_batch_part& part : parts)
        out.push_back(part.packed ? gpu_prove_start_witness(key, part.inputs, *part.packed, part.observer)
                                  : gpu_prove_start_witness(key, part.inputs, part.aux, part.observer));
    return out;
}

} // namespace

std::vector<groth16::prove_sums> gpu_prove_start_witness_batch(const gpu_key& key, std::span<const gpu_batch_part> parts)
{
    gpu_key::impl& k = gpu_prover_access::get(key);
    if (k.snarkjs)
        throw error(errc::invalid_argument, "gpu_prove_start_witness_batch: the key follows the snarkjs convention");
    check_device_pce(k, "gpu_prove_start_witness_batch");
    for (size_t p = 0; p < parts.size(); ++p) check_part(k, parts[p], p);
    if (parts.size() < 2 || k.resident || k.lean) return one_by_one(key, parts);
    try {
        return prove_batch_device(k, parts);
    } catch (const error& e) {
        if (e.code() != errc::out_of_memory) throw;
    }
    {   // The batch does not fit: its buffers go, the partitions are proved one at a time.
        const cuda_device_scope on(k.device);
        std::lock_guard<std::mutex> lk(k.mu);
        k.batch_w.clear();
        k.batch_h.clear();
    }
    return one_by_one(key, parts);
}

#else

std::vector<groth16::prove_sums> gpu_prove_start_witness_batch(const gpu_key&, std::span<const gpu_batch_part>)
{
    throw error(errc::unsupported, "gpu_prove_start_witness_batch: built without CUDA");
}

#endif

} // namespace cuzk
