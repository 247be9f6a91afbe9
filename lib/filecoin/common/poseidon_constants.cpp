// cuzk — derivation of Filecoin's Poseidon constants (neptune, Standard
// strength): Grain-LFSR round constants, the Cauchy MDS matrix, and the
// optimised form (compressed round constants, pre-sparse and sparse
// matrices). Everything is computed here from the definitions; nothing is
// tabulated except the partial-round counts.
#include <array>
#include <string>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/poseidon.hpp"

namespace cuzk::filecoin {

namespace {

using matrix = std::vector<fr>;   // n×n, row-major

// ---- Grain LFSR (Poseidon paper, "self-shrinking" mode) --------------------

class grain_lfsr {
public:
    grain_lfsr(unsigned width, unsigned rf, unsigned rp)
    {
        push(1, 2);       // prime field
        push(1, 4);       // S-box x^alpha, alpha > 0
        push(255, 12);    // field size in bits
        push(width, 12);
        push(rf, 10);
        push(rp, 10);
        push((1u << 30) - 1, 30);
        for (int i = 0; i < 160; ++i) step();
    }

    // One output bit: draw pairs until the first bit of a pair is 1, then
    // output the second bit of that pair.
    bool next()
    {
        for (;;) {
            const bool a = step(), b = step();
            if (a) return b;
        }
    }

    // A 255-bit integer, most significant bit first.
    fr::repr next_int255()
    {
        fr::repr v = fr::repr::zero();
        for (int i = 254; i >= 0; --i)
            if (next()) v.l[i / 64] |= uint64_t(1) << (i % 64);
        return v;
    }

private:
    // The state is a ring: logical bit i lives at s_[(head_ + i) % 80].
    std::array<bool, 80> s_{};
    unsigned head_ = 0, filled_ = 0;

    void push(uint32_t value, unsigned nbits)
    {
        for (unsigned i = nbits; i-- > 0;) s_[filled_++] = (value >> i) & 1;
    }
    bool bit(unsigned i) const { return s_[(head_ + i) % 80]; }
    bool step()
    {
        const bool b = bit(62) ^ bit(51) ^ bit(38) ^ bit(23) ^ bit(13) ^ bit(0);
        s_[head_] = b;   // the oldest bit leaves, the new one becomes bit 79
        head_ = (head_ + 1) % 80;
        return b;
    }
};

std::vector<fr> grain_round_constants(unsigned width, unsigned rf, unsigned rp)
{
    grain_lfsr g(width, rf, rp);
    std::vector<fr> out;
    out.reserve(size_t(rf + rp) * width);
    while (out.size() < size_t(rf + rp) * width) {
        const fr::repr v = g.next_int255();
        if (fr::is_canonical(v)) out.push_back(fr::from_repr(v));   // else rejected: draw again
    }
    return out;
}

// ---- small dense linear algebra over Fr -------------------------------------

matrix mat_mul(const matrix& a, const matrix& b, unsigned n)
{
    matrix r(size_t(n) * n, fr::zero());
    for (unsigned i = 0; i < n; ++i)
        for (unsigned k = 0; k < n; ++k) {
            const fr aik = a[i * n + k];
            for (unsigned j = 0; j < n; ++j) r[i * n + j] += aik * b[k * n + j];
        }
    return r;
}

// Column vector product a·v.
std::vector<fr> mat_vec(const matrix& a, std::span<const fr> v, unsigned n)
{
    std::vector<fr> r(n, fr::zero());
    for (unsigned i = 0; i < n; ++i)
        for (unsigned j = 0; j < n; ++j) r[i] += a[i * n + j] * v[j];
    return r;
}

// Gauss–Jordan elimination of [a | b] where b has `m` columns: returns
// a⁻¹·b (n×m, row-major). a must be invertible (true for every matrix met
// here: Cauchy matrices and their minors).
matrix solve(matrix a, matrix b, unsigned n, unsigned m)
{
    for (unsigned c = 0; c < n; ++c) {
        unsigned p = c;
        while (p < n && a[p * n + c].is_zero()) ++p;
        if (p == n) throw error(errc::internal, "poseidon: singular matrix in constant derivation");
        if (p != c) {
            for (unsigned j = 0; j < n; ++j) std::swap(a[p * n + j], a[c * n + j]);
            for (unsigned j = 0; j < m; ++j) std::swap(b[p * m + j], b[c * m + j]);
        }
        const fr inv = a[c * n + c].inverse();
        for (unsigned j = 0; j < n; ++j) a[c * n + j] *= inv;
        for (unsigned j = 0; j < m; ++j) b[c * m + j] *= inv;
        for (unsigned r = 0; r < n; ++r) {
            if (r == c || a[r * n + c].is_zero()) continue;
            const fr f = a[r * n + c];
            for (unsigned j = 0; j < n; ++j) a[r * n + j] -= f * a[c * n + j];
            for (unsigned j = 0; j < m; ++j) b[r * m + j] -= f * b[c * m + j];
        }
    }
    return b;
}

matrix identity(unsigned n)
{
    matrix r(size_t(n) * n, fr::zero());
    for (unsigned i = 0; i < n; ++i) r[i * n + i] = fr::one();
    return r;
}

// Cauchy matrix M[i][j] = 1/(x_i + y_j), x_i = i, y_j = t + j.
matrix cauchy_mds(unsigned t)
{
    matrix m(size_t(t) * t);
    for (unsigned i = 0; i < t; ++i)
        for (unsigned j = 0; j < t; ++j) m[i * t + j] = fr::from_u64(i + j + t).inverse();
    return m;
}

// ---- the optimised form --------------------------------------------------------

// Splits A = P·S (ordinary matrix products) with P = diag(1, Â), Â the minor
// of A without row and column 0, and S sparse: S[0][0] = A[0][0], S[0][j] =
// A[0][j], S[i][0] = ŵ_{i−1} where Â·ŵ = (A[i][0])_{i≥1}, identity elsewhere.
// Appends S's first column, then S[0][1..], to `sparse`, and returns P.
matrix split_sparse(const matrix& a, unsigned t, std::vector<fr>& sparse)
{
    const unsigned n = t - 1;
    matrix minor(size_t(n) * n), w(n);
    for (unsigned i = 0; i < n; ++i) {
        w[i] = a[(i + 1) * t];
        for (unsigned j = 0; j < n; ++j) minor[i * n + j] = a[(i + 1) * t + j + 1];
    }
    const matrix w_hat = solve(minor, w, n, 1);
    sparse.push_back(a[0]);
    sparse.insert(sparse.end(), w_hat.begin(), w_hat.end());
    sparse.insert(sparse.end(), a.begin() + 1, a.begin() + t);
    matrix p(size_t(t) * t, fr::zero());
    p[0] = fr::one();
    for (unsigned i = 0; i < n; ++i)
        for (unsigned j = 0; j < n; ++j) p[(i + 1) * t + j + 1] = minor[i * n + j];
    return p;
}

// The partial rounds multiply the (row-vector) state by M each. Working back
// from the last partial round, x·A = x·P·S and P (which leaves x_0 alone)
// commutes with a partial round's S-box and x_0 constant, so P moves into the
// previous round's matrix: A_next = M·P. After R_P steps the 4th full round
// carries the accumulated dense matrix. Returns it; the sparse blocks come
// out in partial-round order.
matrix factor_partial_rounds(const matrix& m, unsigned t, unsigned rp, std::vector<fr>& sparse)
{
    const size_t block = 2 * size_t(t) - 1;
    std::vector<fr> reversed;   // blocks from the last partial round backwards
    matrix acc = m;
    for (unsigned r = 0; r < rp; ++r) acc = mat_mul(m, split_sparse(acc, t, reversed), t);
    sparse.clear();
    for (unsigned r = rp; r-- > 0;)
        sparse.insert(sparse.end(), reversed.begin() + r * block, reversed.begin() + (r + 1) * block);
    return acc;
}

} // namespace

// Compressed constants. A constant vector c added at the start of round r+1
// equals M⁻¹·c added just before round r's matrix, i.e. right after its
// S-boxes. In a partial round only x_0 goes through the S-box, so the other
// components of such a vector can move further back, in front of the S-box,
// and merge with round r's own constants; working from the last partial round
// backwards leaves one constant per partial round and one vector for the 4th
// full round.
static std::vector<fr> compress_round_constants(std::span<const fr> rc, const matrix& m_inv, unsigned t,
                                                unsigned rp)
{
    const unsigned half = poseidon_constants::full_rounds / 2;
    auto round = [&](unsigned r) { return rc.subspan(size_t(r) * t, t); };
    std::vector<fr> out(round(0).begin(), round(0).end());
    for (unsigned r = 1; r < half; ++r) {   // post-S-box keys of full rounds 0 … half−2
        const auto k = mat_vec(m_inv, round(r), t);
        out.insert(out.end(), k.begin(), k.end());
    }
    std::vector<fr> acc(round(half + rp).begin(), round(half + rp).end());
    std::vector<fr> partial(rp);
    for (unsigned r = half + rp; r-- > half;) {   // partial rounds, last first
        std::vector<fr> d = mat_vec(m_inv, acc, t);
        partial[r - half] = d[0];
        d[0] = fr::zero();
        for (unsigned i = 0; i < t; ++i) acc[i] = round(r)[i] + d[i];
    }
    const auto k = mat_vec(m_inv, acc, t);   // post-S-box key of full round half−1
    out.insert(out.end(), k.begin(), k.end());
    out.insert(out.end(), partial.begin(), partial.end());
    for (unsigned r = half + rp + 1; r < 2 * half + rp; ++r) {
        const auto kk = mat_vec(m_inv, round(r), t);
        out.insert(out.end(), kk.begin(), kk.end());
    }
    return out;
}

bool poseidon_arity_supported(unsigned arity)
{
    switch (arity) {
    case 2: case 4: case 8: case 11: case 16: case 24: case 36: return true;
    default: return false;
    }
}

unsigned poseidon_partial_rounds(unsigned width)
{
    // neptune's round_numbers (the Poseidon paper's security inequalities at
    // 128 bits, 256-bit field, with its security margin), Strength::Standard.
    switch (width) {
    case 3: return 55;
    case 5: return 56;
    case 9: case 12: return 57;
    case 17: case 25: return 59;
    case 37: return 60;
    default: throw error(errc::invalid_argument, "poseidon: no round numbers for width " + std::to_string(width));
    }
}

poseidon_constants::poseidon_constants(unsigned arity)
    : arity_(arity), partial_rounds_(0)
{
    if (!poseidon_arity_supported(arity))
        throw error(errc::invalid_argument, "poseidon: unsupported arity " + std::to_string(arity));
    const unsigned t = arity + 1;
    partial_rounds_ = poseidon_partial_rounds(t);
    rc_ = grain_round_constants(t, full_rounds, partial_rounds_);
    mds_ = cauchy_mds(t);
    mds_inv_ = solve(mds_, identity(t), t, t);
    crc_ = compress_round_constants(rc_, mds_inv_, t, partial_rounds_);
    pre_sparse_ = factor_partial_rounds(mds_, t, partial_rounds_, sparse_);
}

namespace {
template <unsigned A>
const poseidon_constants& cached()
{
    static const poseidon_constants c(A);   // C++11 guarantees thread-safe one-time init
    return c;
}
} // namespace

const poseidon_constants& poseidon_params(unsigned arity)
{
    switch (arity) {
    case 2: return cached<2>();
    case 4: return cached<4>();
    case 8: return cached<8>();
    case 11: return cached<11>();
    case 16: return cached<16>();
    case 24: return cached<24>();
    case 36: return cached<36>();
    default: throw error(errc::invalid_argument, "poseidon: unsupported arity " + std::to_string(arity));
    }
}

} // namespace cuzk::filecoin
