// cuzk — internal: the packed witness format (witness_pack.hpp) written slice
// by slice, for r1cs::packed_aux_sink. Host only (the kernels never include
// it). Not part of the public API.
//
// A slice is synthesized on a packing_cs: alloc() tags the value at once
// (2 bits, OR-ed into a word kept in a register and stored when its 16 values
// are done: a plain store for a word wholly inside the slice, an atomic OR
// for the at most two words the slice shares with its neighbours) and keeps
// only the other values, in order. Nothing of 32 bytes is written for a 0/1
// value. When every slice is closed, count() sums the tiles' others from the
// tags and writes the tile offsets, and place() copies each slice's others
// to where the offsets put them. The tag words must be zero before the
// first slice opens. A packer reused for the next witness hands its slices
// the last packing's buffers (emptied, their capacity kept).
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "backend/bridge/witness_pack.hpp"
#include "cuzk/error.hpp"
#include "cuzk/r1cs/constraint_system.hpp"
#include "cuzk/r1cs/packed_aux.hpp"
#include "cuzk/util/parallel.hpp"

namespace cuzk::witness_pack {

class slice_packer {
public:
    void begin(uint32_t* tags, size_t n)
    {
        tags_ = tags;
        n_ = n;
        // The last packing's buffers keep their capacity for this one's
        // slices: no allocation, no fresh pages once a packer is warm.
        for (slice& s : slices_) {
            s.others.clear();
            spare_.push_back(std::move(s.others));
        }
        slices_.clear();
    }

    std::unique_ptr<r1cs::packed_slice> open(size_t at, size_t n, std::span<fr> inputs, size_t in_at);

    // The slice [at, at + v.size()) from values at hand (tests; callers that
    // have the values already): open, allocate each, close.
    void put(size_t at, std::span<const fr> v)
    {
        auto s = open(at, v.size(), {}, 0);
        for (const fr& x : v) s->cs().alloc(x);
        s->close();
    }

    // Checks that the closed slices tile [0, n) exactly, writes the tiles'
    // offsets into off (tiles_of(n) words) and returns the number of other
    // values.
    uint64_t count(uint32_t* off, unsigned threads)
    {
        std::sort(slices_.begin(), slices_.end(), [](const slice& a, const slice& b) { return a.at < b.at; });
        size_t next = 0;
        for (const slice& s : slices_) {
            if (s.at != next) break;
            next += s.n;
        }
        if (next != n_)
            throw error(errc::internal, "packed aux: the slices do not cover the " + std::to_string(n_) +
                                            " values exactly (a gap or an overlap at value " + std::to_string(next) + ")");
        spare_.clear();   // buffers this packing did not take: freed, so a packer holds one packing's at most
        const size_t tiles = tiles_of(n_);
        std::vector<uint32_t> cnt(tiles);
        parallel_for(threads, tiles, [&](size_t b, size_t e, unsigned) {
            for (size_t t = b; t < e; ++t) cnt[t] = others_in(t * tile_words, (t + 1) * tile_words);
        });
        uint64_t total = 0;
        for (size_t t = 0; t < tiles; ++t) {
            off[t] = uint32_t(total);
            total += cnt[t];
        }
        off_ = off;
        return total;
    }

    // Copies every slice's other values to out[0 … count()).
    void place(fr* out, unsigned threads) const
    {
        parallel_tasks(threads, slices_.size(), [&](size_t k, unsigned) {
            const slice& s = slices_[k];
            if (s.others.empty()) return;
            std::memcpy(static_cast<void*>(out + others_before(s.at)), s.others.data(), s.others.size() * sizeof(fr));
        });
    }

    // packing_cs::close: the slice's tags are in place, its others kept here.
    void add(size_t at, size_t n, std::vector<fr> others)
    {
        std::lock_guard lk(mu_);
        slices_.push_back({at, n, std::move(others)});
    }

    uint32_t* tags() const { return tags_; }

    // Bytes the packer's buffers hold (the slices' and the spare ones); call
    // between packings.
    uint64_t held_bytes() const
    {
        uint64_t b = 0;
        for (const slice& s : slices_) b += s.others.capacity() * sizeof(fr);
        for (const std::vector<fr>& v : spare_) b += v.capacity() * sizeof(fr);
        return b;
    }

    // An empty buffer for a slice's others, with the capacity an earlier
    // packing left it when there is one.
    std::vector<fr> take_spare()
    {
        std::lock_guard lk(mu_);
        if (spare_.empty()) return {};
        std::vector<fr> v = std::move(spare_.back());
        spare_.pop_back();
        return v;
    }

private:
    struct slice {
        size_t at, n;
        std::vector<fr> others;
    };
    uint32_t others_in(size_t w0, size_t w1) const
    {
        uint32_t c = 0;
        for (size_t w = w0; w < w1; ++w) c += uint32_t(std::popcount((tags_[w] >> 1) & 0x55555555u));
        return c;
    }
    // The index of the first other value at or after value `pos`.
    size_t others_before(size_t pos) const
    {
        const size_t t = pos / tile, w = pos / 16, bit = pos % 16;
        const size_t k = off_[t] + others_in(t * tile_words, w);
        const uint32_t below = bit ? ((tags_[w] >> 1) & 0x55555555u & ((1u << (2 * bit)) - 1)) : 0u;
        return k + size_t(std::popcount(below));
    }

    uint32_t* tags_ = nullptr;
    const uint32_t* off_ = nullptr;
    size_t n_ = 0;
    std::mutex mu_;
    std::vector<slice> slices_;
    std::vector<std::vector<fr>> spare_;   // emptied buffers of the last packing
};

// The constraint system of one slice (see the top of this file). Tiles are
// contiguous: value pos's tag is in bits 2(pos mod 16) of word pos / 16.
class packing_cs final : public r1cs::constraint_system, public r1cs::packed_slice {
public:
    packing_cs(slice_packer& owner, size_t at, size_t n, std::span<fr> inputs, size_t in_at)
        : owner_(owner), inputs_(inputs), at_(at), n_(n), in_at_(in_at), others_(owner.take_spare())
    {
    }

    r1cs::variable alloc(const fr& value) override
    {
        if (used_ == n_) overflow("aux", n_, at_);
        const size_t pos = at_ + used_++;
        const uint32_t tg = detail::tag_value(value);
        if (tg == 2) others_.push_back(value);
        word_ |= tg << (2 * (pos % 16));
        if (pos % 16 == 15) flush(pos / 16);
        return r1cs::variable::aux(uint32_t(pos));
    }
    r1cs::variable alloc_input(const fr& value) override
    {
        if (inputs_used_ == inputs_.size()) overflow("input", inputs_.size(), in_at_);
        inputs_[inputs_used_] = value;
        return r1cs::variable::input(uint32_t(in_at_ + inputs_used_++));
    }
    void enforce(const r1cs::linear_combination&, const r1cs::linear_combination&,
                 const r1cs::linear_combination&) override
    {
        ++constraints_;
    }
    bool is_witness_generator() const override { return true; }
    bool keeps_constraints() const override { return false; }
    size_t num_inputs() const override { return in_at_ + inputs_used_; }
    size_t num_aux() const override { return at_ + used_; }
    size_t num_constraints() const override { return constraints_; }

    r1cs::constraint_system& cs() override { return *this; }
    bool full() const override { return used_ == n_ && inputs_used_ == inputs_.size(); }
    void close() override
    {
        if (used_ != 0 && (at_ + used_) % 16 != 0) flush((at_ + used_ - 1) / 16);
        owner_.add(at_, used_, std::move(others_));
    }

private:
    void flush(size_t w)
    {
        uint32_t* t = owner_.tags() + w;
        if (16 * w >= at_ && 16 * w + 16 <= at_ + n_) *t = word_;
        else std::atomic_ref<uint32_t>(*t).fetch_or(word_, std::memory_order_relaxed);
        word_ = 0;
    }
    [[noreturn]] static void overflow(const char* what, size_t size, size_t begin)
    {
        throw error(errc::internal, std::string("packed aux: the ") + what + " slice of " + std::to_string(size) +
                                        " values at " + std::to_string(begin) + " overflows");
    }

    slice_packer& owner_;
    std::span<fr> inputs_;
    size_t at_, n_, in_at_;
    size_t used_ = 0, inputs_used_ = 0, constraints_ = 0;
    uint32_t word_ = 0;
    std::vector<fr> others_;
};

inline std::unique_ptr<r1cs::packed_slice> slice_packer::open(size_t at, size_t n, std::span<fr> inputs, size_t in_at)
{
    if (at > n_ || n > n_ - at)
        throw error(errc::internal, "packed aux: the slice of " + std::to_string(n) + " values at " +
                                        std::to_string(at) + " is outside the " + std::to_string(n_) + " values");
    return std::make_unique<packing_cs>(*this, at, n, inputs, in_at);
}

} // namespace cuzk::witness_pack
