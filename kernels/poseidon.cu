// cuzk kernels — Poseidon hashing on the device (kernels/poseidon_device.cuh)
// behind lib/backend/bridge/poseidon_bridge.hpp: batches of
// MerkleTree-tagged hashes, and the levels of a tree built in place in one
// device array. Runs on the backend's stream under its lock.
#include <cuda_runtime.h>

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "backend/bridge/poseidon_bridge.hpp"
#include "cuda_backend.cuh"
#include "poseidon_device.cuh"

namespace cuzk::dev {

namespace {

// The device copy of one arity's constants, packed crc ‖ mds ‖ pre_sparse ‖
// sparse, made on first use on each device and kept for the life of the
// process (a few tens of KiB per arity). Caller holds the context lock; the
// map is shared by the devices' contexts, so it has a lock of its own.
poseidon_dconsts device_constants(const poseidon_bridge::constants& h)
{
    static std::map<std::pair<int, unsigned>, dfr*> uploaded;   // by (device, arity)
    const unsigned t = h.arity + 1, rp = h.partial_rounds;
    const size_t n_crc = poseidon_crc_count(t, rp), n_mat = size_t(t) * t;
    const size_t n_sparse = poseidon_sparse_count(t, rp);
    static std::mutex map_mu;
    std::lock_guard<std::mutex> map_lk(map_mu);
    dfr*& d = uploaded[{ctx().device, h.arity}];
    if (!d) {
        std::vector<fr> packed;
        packed.reserve(n_crc + 2 * n_mat + n_sparse);
        packed.insert(packed.end(), h.crc, h.crc + n_crc);
        packed.insert(packed.end(), h.mds, h.mds + n_mat);
        packed.insert(packed.end(), h.pre_sparse, h.pre_sparse + n_mat);
        packed.insert(packed.end(), h.sparse, h.sparse + n_sparse);
        void* p = scratch_malloc(packed.size() * sizeof(fr), "Poseidon constants");
        const cudaError_t e =
            cudaMemcpyAsync(p, packed.data(), packed.size() * sizeof(fr), cudaMemcpyHostToDevice, ctx().stream);
        const cudaError_t s = e == cudaSuccess ? cudaStreamSynchronize(ctx().stream) : e;
        if (s != cudaSuccess) {
            scratch_free(p);
            CUZK_CUDA_CHECK(s);
        }
        d = static_cast<dfr*>(p);
    }
    poseidon_dconsts c;
    c.crc = d;
    c.mds = d + n_crc;
    c.pre_sparse = c.mds + n_mat;
    c.sparse = c.pre_sparse + n_mat;
    c.partial_rounds = rp;
    c.tag = dfr::from_host(h.tag);
    return c;
}

[[noreturn]] void bad_arity(unsigned arity)
{
    throw error(errc::invalid_argument, "gpu poseidon: no kernel for arity " + std::to_string(arity));
}

} // namespace

} // namespace cuzk::dev

namespace cuzk::poseidon_bridge {

using namespace cuzk::dev;

void hash_device(const constants& h, const fr* in, fr* out, size_t n)
{
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    const poseidon_dconsts dc = device_constants(h);
    cuda_be be{c};
    if (!poseidon_hash_run(be, h.arity, reinterpret_cast<const dfr*>(in), reinterpret_cast<dfr*>(out), n, dc))
        bad_arity(h.arity);
    CUZK_CUDA_CHECK(cudaStreamSynchronize(c.stream));
}

void levels_device(const constants* per, unsigned count, fr* nodes, uint64_t leaves)
{
    context& c = ctx();
    std::lock_guard<std::recursive_mutex> lk(c.mu);
    std::vector<poseidon_dconsts> dc(count);
    std::vector<unsigned> arities(count);
    for (unsigned k = 0; k < count; ++k) {
        dc[k] = device_constants(per[k]);
        arities[k] = per[k].arity;
    }
    cuda_be be{c};
    if (!poseidon_levels_run(be, arities.data(), dc.data(), count, reinterpret_cast<dfr*>(nodes), leaves))
        bad_arity(count ? per[0].arity : 0);
    CUZK_CUDA_CHECK(cudaStreamSynchronize(c.stream));
}

} // namespace cuzk::poseidon_bridge
