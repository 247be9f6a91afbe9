// cuzk — internal: a packed_aux_sink in ordinary memory, for tests and
// benchmarks without a device: the same slice packer as the cuda backend's
// gpu_packed_witness (witness_pack.hpp), and the host reference of the
// device expansion to read the values back. Not part of the public API.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "backend/bridge/witness_pack.hpp"
#include "backend/bridge/witness_slices.hpp"
#include "cuzk/r1cs/packed_aux.hpp"

namespace cuzk::witness_pack {

class host_sink final : public r1cs::packed_aux_sink {
public:
    void begin(size_t n) override
    {
        n_ = n;
        tags_.assign(scratch_words(n), 0u);
        packer_.begin(tags_.data(), n);
    }
    std::unique_ptr<r1cs::packed_slice> open(size_t aux_at, size_t n_aux, std::span<fr> inputs, size_t in_at) override
    {
        return packer_.open(aux_at, n_aux, inputs, in_at);
    }
    // A slice from values at hand (tests).
    void put(size_t at, std::span<const fr> v) { packer_.put(at, v); }
    void finish(unsigned threads) override
    {
        uint32_t* off = tags_.data() + tiles_of(n_) * tile_words;
        others_n_ = packer_.count(off, threads);
        // Like the device sink's page-locked buffer: reused, never cleared
        // (place() writes every value).
        if (others_.size() < others_n_) others_.resize(others_n_);
        packer_.place(others_.data(), threads);
    }

    size_t others() const { return others_n_; }
    // What the packer keeps for the next packing (its slice buffers).
    uint64_t packer_bytes() const { return packer_.held_bytes(); }
    // The values back, as the device expansion makes them.
    std::vector<fr> unpack() const
    {
        std::vector<fr> v(n_, fr::from_u64(777));
        witness_pack::unpack(tags_.data(), tags_.data() + tiles_of(n_) * tile_words,
                             others_.data(), n_, v.data());
        return v;
    }
    // The tags and offsets, to compare with tag's.
    const std::vector<uint32_t>& words() const { return tags_; }

private:
    size_t n_ = 0;
    std::vector<uint32_t> tags_;
    std::vector<fr> others_;   // the first others_n_ hold this packing's others
    size_t others_n_ = 0;
    slice_packer packer_;
};

} // namespace cuzk::witness_pack
