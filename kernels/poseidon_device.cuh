// cuzk kernels — Filecoin's Poseidon permutation on the device field, one
// thread per hash, in neptune's fast form (see include/cuzk/filecoin/common/
// poseidon.hpp for the form and the layout of its constants).
//
// Per hash of width t = arity + 1 (R_F = 8 full rounds, R_P partial rounds):
//   x += crc[0 … t)                                   (the first t constants)
//   full rounds 0 … 3:   x_i = x_i^5 + key_i, then x·M (x·P for round 3, P the
//                        pre-sparse matrix)
//   partial rounds:      x_0 = x_0^5 + key, then the sparse matrix of the
//                        round (y_0 = Σ x_i·w_i, y_j = x_j + x_0·v_{j−1})
//   full rounds 4 … 7:   x_i = x_i^5 (+ key_i, except in the last), then x·M
// and the hash is x_1. The state lives in registers (t is a template
// argument, every index a compile-time constant after unrolling).
//
// Code size: the rounds run in one rolled loop holding one full-round body
// and one partial-round body, and the matrix products call an out-of-line
// multiply(-add). Inlining all t² products of a dense round (144 Fr
// multiplications at t = 12, ~45 000 instructions) made ptxas slow and the
// register allocation spill; a call costs ~10 % of a multiplication.
//
// Constants: one array per arity in global memory, read with uniform
// addresses (every thread of a warp reads the same element at the same
// time, so each load is one broadcast from L1).
//
// Backend-neutral like ntt_device.cuh: the bodies are functors taking the
// thread index, run as kernels by kernels/poseidon.cu and on the host
// emulation of the device field by the tests.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ff_device.cuh"

namespace cuzk::dev {

#if defined(__CUDACC__)
#define CUZK_ROLLED _Pragma("unroll 1")
#else
#define CUZK_ROLLED
#endif

// The fast-form constants of one arity (Montgomery form, the layout of
// filecoin::poseidon_constants), and the domain tag of the hash.
struct poseidon_dconsts {
    const dfr* crc = nullptr;          // R_F·t + R_P compressed round constants
    const dfr* mds = nullptr;          // M, t×t row-major
    const dfr* pre_sparse = nullptr;   // P, t×t row-major
    const dfr* sparse = nullptr;       // R_P blocks of 2t − 1: w (t values), v (t − 1)
    unsigned partial_rounds = 0;
    dfr tag{};                         // state[0]: 2^arity − 1 for the MerkleTree hash
};

// Elements of each constant array for width t (the offsets of one packed
// upload: crc, mds, pre_sparse, sparse).
CUZK_HD constexpr size_t poseidon_crc_count(unsigned t, unsigned rp) { return 8 * size_t(t) + rp; }
CUZK_HD constexpr size_t poseidon_sparse_count(unsigned t, unsigned rp) { return size_t(rp) * (2 * t - 1); }

struct poseidon_ops {
    // A constant: two 16-byte read-only loads on the device.
    CUZK_INLINE static dfr ld(const dfr* p)
    {
#if defined(__CUDA_ARCH__)
        const uint4* q = reinterpret_cast<const uint4*>(p);
        const uint4 a = __ldg(q), b = __ldg(q + 1);
        dfr r;
        r.w[0] = a.x, r.w[1] = a.y, r.w[2] = a.z, r.w[3] = a.w;
        r.w[4] = b.x, r.w[5] = b.y, r.w[6] = b.z, r.w[7] = b.w;
        return r;
#else
        return *p;
#endif
    }
    CUZK_OUTLINE_HD static dfr mul(dfr a, dfr b) { return a * b; }
    CUZK_OUTLINE_HD static dfr madd(dfr acc, dfr a, dfr b) { return acc + a * b; }
    CUZK_INLINE static dfr pow5(const dfr& x)
    {
        const dfr x4 = x.sqr().sqr();
        return x4 * x;
    }
};

// y = x·A (y_j = Σ_i x_i·A[i][j]) for the t×t row-major A, in place.
template <int T>
CUZK_INLINE void poseidon_dense(dfr* x, const dfr* a)
{
    using op = poseidon_ops;
    dfr y[T];
CUZK_UNROLL
    for (int j = 0; j < T; ++j) y[j] = op::mul(x[0], op::ld(a + j));
CUZK_UNROLL
    for (int i = 1; i < T; ++i)
CUZK_UNROLL
        for (int j = 0; j < T; ++j) y[j] = op::madd(y[j], x[i], op::ld(a + i * T + j));
CUZK_UNROLL
    for (int j = 0; j < T; ++j) x[j] = y[j];
}

// A partial round's sparse matrix: block = w (t values) ‖ v (t − 1 values).
template <int T>
CUZK_INLINE void poseidon_sparse(dfr* x, const dfr* block)
{
    using op = poseidon_ops;
    dfr y0 = op::mul(x[0], op::ld(block));
CUZK_UNROLL
    for (int i = 1; i < T; ++i) y0 = op::madd(y0, x[i], op::ld(block + i));
CUZK_UNROLL
    for (int j = 1; j < T; ++j) x[j] = op::madd(x[j], x[0], op::ld(block + T + j - 1));
    x[0] = y0;
}

// The permutation on the t = T elements of x.
template <int T>
CUZK_INLINE void poseidon_permute_dev(dfr* x, const poseidon_dconsts& c)
{
    using op = poseidon_ops;
    constexpr unsigned half = 4;
    const unsigned rounds = 2 * half + c.partial_rounds;
    const dfr* key = c.crc;
CUZK_UNROLL
    for (int i = 0; i < T; ++i) x[i] += op::ld(key + i);
    key += T;
    const dfr* sparse = c.sparse;
CUZK_ROLLED
    for (unsigned r = 0; r < rounds; ++r) {
        if (r < half || r >= half + c.partial_rounds) {
CUZK_UNROLL
            for (int i = 0; i < T; ++i) x[i] = op::pow5(x[i]);
            if (r + 1 < rounds) {   // every full round but the last adds a key
CUZK_UNROLL
                for (int i = 0; i < T; ++i) x[i] += op::ld(key + i);
                key += T;
            }
            poseidon_dense<T>(x, r == half - 1 ? c.pre_sparse : c.mds);
        } else {
            x[0] = op::pow5(x[0]) + op::ld(key);
            ++key;
            poseidon_sparse<T>(x, sparse);
            sparse += 2 * T - 1;
        }
    }
}

// out[i] = Poseidon_A(tag ‖ in[i·A … i·A + A)): the MerkleTree-tagged hash
// of preimage i (also one tree level: children in, parents out).
template <int A>
struct poseidon_hash_body {
    const dfr* in;
    dfr* out;
    poseidon_dconsts c;

    CUZK_HD void operator()(size_t i) const
    {
        dfr x[A + 1];
        x[0] = c.tag;
        const dfr* p = in + i * A;
CUZK_UNROLL
        for (int k = 0; k < A; ++k) x[k + 1] = p[k];
        poseidon_permute_dev<A + 1>(x, c);
        out[i] = x[1];
    }
};

// Runs the hash of `arity` (2, 4, 8 or 11) over n preimages on backend be
// (be.each(n, body, block)). Returns false for another arity.
template <class Be>
bool poseidon_hash_run(Be& be, unsigned arity, const dfr* in, dfr* out, size_t n, const poseidon_dconsts& c)
{
    constexpr unsigned block = 128;   // ~200 registers a thread at t = 12
    switch (arity) {
    case 2: be.each(n, poseidon_hash_body<2>{in, out, c}, block); return true;
    case 4: be.each(n, poseidon_hash_body<4>{in, out, c}, block); return true;
    case 8: be.each(n, poseidon_hash_body<8>{in, out, c}, block); return true;
    case 11: be.each(n, poseidon_hash_body<11>{in, out, c}, block); return true;
    default: return false;
    }
}

// Levels of a tree stored as one array: nodes[0 … leaves) the leaves, then
// each level right after the one below it. Level k + 1 hashes level k
// arities[k] nodes at a time (a compound tree's base, sub and top levels are
// just different arities); each level's size must divide by its arity.
// Returns false when an arity has no kernel.
template <class Be>
bool poseidon_levels_run(Be& be, const unsigned* arities, const poseidon_dconsts* consts, unsigned count,
                         dfr* nodes, uint64_t leaves)
{
    uint64_t off = 0, len = leaves;
    for (unsigned k = 0; k < count; ++k) {
        const uint64_t parents = len / arities[k];
        if (!poseidon_hash_run(be, arities[k], nodes + off, nodes + off + len, parents, consts[k])) return false;
        off += len;
        len = parents;
    }
    return true;
}

} // namespace cuzk::dev
