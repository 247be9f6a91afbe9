// cuzk — the Poseidon permutations (plain and optimised) and the hash
// functions Filecoin builds on them.
#include <algorithm>
#include <string>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/poseidon.hpp"
#include "cuzk/util/parallel.hpp"

namespace cuzk::filecoin {

namespace {

inline fr pow5(const fr& x)
{
    const fr x4 = x.sqr().sqr();
    return x4 * x;
}

// A full round of the fast form: S-box everywhere, then the post-S-box key
// (when there is one), then the matrix.
inline void fast_full_round(fr* x, unsigned t, const fr*& key, const fr* mat)
{
    for (unsigned i = 0; i < t; ++i) x[i] = pow5(x[i]);
    if (key) {
        for (unsigned i = 0; i < t; ++i) x[i] += key[i];
        key += t;
    }
    poseidon_dense_layer(x, mat, t);
}

void check_state(const poseidon_constants& c, std::span<fr> state)
{
    if (state.size() != c.width())
        throw error(errc::bad_length, "poseidon: state has " + std::to_string(state.size()) +
                                          " elements, width is " + std::to_string(c.width()));
}

} // namespace

void poseidon_permute_plain(const poseidon_constants& c, std::span<fr> state)
{
    check_state(c, state);
    const unsigned t = c.width(), half = poseidon_constants::full_rounds / 2;
    const unsigned rounds = poseidon_constants::full_rounds + c.partial_rounds();
    const fr* rc = c.round_constants().data();
    const fr* m = c.mds().data();
    fr* x = state.data();
    for (unsigned r = 0; r < rounds; ++r, rc += t) {
        for (unsigned i = 0; i < t; ++i) x[i] += rc[i];
        const bool full = r < half || r >= half + c.partial_rounds();
        for (unsigned i = 0; i < (full ? t : 1); ++i) x[i] = pow5(x[i]);
        poseidon_dense_layer(x, m, t);   // M is symmetric: x·M = M·x
    }
}

void poseidon_permute_fast(const poseidon_constants& c, std::span<fr> state)
{
    check_state(c, state);
    const unsigned t = c.width(), half = poseidon_constants::full_rounds / 2;
    const fr* key = c.compressed_round_constants().data();
    const fr* m = c.mds().data();
    fr* x = state.data();
    for (unsigned i = 0; i < t; ++i) x[i] += key[i];
    key += t;
    for (unsigned r = 0; r + 1 < half; ++r) fast_full_round(x, t, key, m);
    fast_full_round(x, t, key, c.pre_sparse().data());
    const fr* sparse = c.sparse().data();
    for (unsigned r = 0; r < c.partial_rounds(); ++r, sparse += 2 * t - 1) {
        x[0] = pow5(x[0]) + *key++;
        poseidon_sparse_layer(x, sparse, t);
    }
    for (unsigned r = 0; r + 1 < half; ++r) fast_full_round(x, t, key, m);
    const fr* none = nullptr;
    fast_full_round(x, t, none, m);   // the final round adds no key
}

fr poseidon_tag_merkle(unsigned arity)
{
    if (arity == 0 || arity > 63) throw error(errc::invalid_argument, "poseidon: merkle tag arity out of range");
    return fr::from_u64((uint64_t(1) << arity) - 1);
}

fr poseidon_tag_constant_length(uint64_t n)
{
    fr::repr v = fr::repr::zero();
    v.l[1] = n;
    return fr::from_repr(v);
}

fr poseidon_tag_custom(uint64_t id)
{
    if (id < 1 || id > 256) throw error(errc::invalid_argument, "poseidon: custom tag id outside 1..256");
    fr::repr v = fr::repr::zero();
    v.l[0] = id << 40;
    return fr::from_repr(v);
}

namespace {

fr hash_with_tag(const poseidon_constants& c, const fr& tag, std::span<const fr> preimage, poseidon_mode mode)
{
    fr state[poseidon_max_width];
    const unsigned t = c.width();
    state[0] = tag;
    for (unsigned i = 1; i < t; ++i) state[i] = i - 1 < preimage.size() ? preimage[i - 1] : fr::zero();
    if (mode == poseidon_mode::fast)
        poseidon_permute_fast(c, {state, t});
    else
        poseidon_permute_plain(c, {state, t});
    return state[1];
}

} // namespace

fr poseidon_hash(std::span<const fr> preimage, poseidon_mode mode)
{
    const unsigned arity = unsigned(preimage.size());
    const poseidon_constants& c = poseidon_params(arity);
    return hash_with_tag(c, poseidon_tag_merkle(arity), preimage, mode);
}

fr poseidon_hash_constant_length(unsigned arity, std::span<const fr> preimage, poseidon_mode mode)
{
    const poseidon_constants& c = poseidon_params(arity);
    if (preimage.size() > arity)
        throw error(errc::bad_length, "poseidon: constant-length preimage longer than the arity");
    return hash_with_tag(c, poseidon_tag_constant_length(preimage.size()), preimage, mode);
}

fr poseidon_hash_custom(uint64_t id, std::span<const fr> preimage, poseidon_mode mode)
{
    const poseidon_constants& c = poseidon_params(unsigned(preimage.size()));
    return hash_with_tag(c, poseidon_tag_custom(id), preimage, mode);
}

fr poseidon_hash_md(std::span<const fr> input)
{
    constexpr unsigned arity = 36;
    if (input.size() < 2) throw error(errc::bad_length, "poseidon hash_md: needs at least 2 elements");
    const poseidon_constants& c = poseidon_params(arity);
    const fr tag = poseidon_tag_merkle(arity);
    fr acc = input[0];
    fr chunk[arity];
    for (size_t pos = 1; pos < input.size(); pos += arity - 1) {
        const size_t n = std::min<size_t>(arity - 1, input.size() - pos);
        chunk[0] = acc;
        for (size_t i = 0; i < n; ++i) chunk[1 + i] = input[pos + i];
        acc = hash_with_tag(c, tag, {chunk, 1 + n}, poseidon_mode::fast);   // the rest is zero
    }
    return acc;
}

void poseidon_hash_many(unsigned arity, std::span<const fr> inputs, std::span<fr> out, unsigned threads,
                        poseidon_mode mode)
{
    const poseidon_constants& c = poseidon_params(arity);
    if (inputs.size() != out.size() * arity)
        throw error(errc::bad_length, "poseidon_hash_many: inputs must hold out.size()·arity elements");
    const fr tag = poseidon_tag_merkle(arity);
    // Small batches are not worth a thread start (~tens of µs vs ~10 µs a hash).
    const unsigned workers = out.size() < 64 ? 1 : threads;
    parallel_for(workers, out.size(), [&](size_t begin, size_t end, unsigned) {
        for (size_t i = begin; i < end; ++i)
            out[i] = hash_with_tag(c, tag, inputs.subspan(i * arity, arity), mode);
    });
}

} // namespace cuzk::filecoin
