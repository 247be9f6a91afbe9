// Filecoin's Poseidon (neptune, Standard strength): derived constants, the
// plain and optimised permutations, and neptune's / rust-fil-proofs' known
// answers.
#include <catch2/catch.hpp>

#include <random>
#include <vector>

#include "cuzk/error.hpp"
#include "cuzk/filecoin/common/poseidon.hpp"

using namespace cuzk;
using namespace cuzk::filecoin;

namespace {

const unsigned all_arities[] = {2, 4, 8, 11, 16, 24, 36};

// An Fr from its canonical value's u64 limbs, least significant first (the
// way neptune's scalar_from_u64s writes expected values).
fr limbs(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    return fr::from_repr(fr::repr{{a, b, c, d}});
}

std::vector<fr> iota_frs(unsigned n)
{
    std::vector<fr> v(n);
    for (unsigned i = 0; i < n; ++i) v[i] = fr::from_u64(i);
    return v;
}

// Dense t×t product in row-major form.
std::vector<fr> mul(const std::vector<fr>& a, const std::vector<fr>& b, unsigned t)
{
    std::vector<fr> r(size_t(t) * t, fr::zero());
    for (unsigned i = 0; i < t; ++i)
        for (unsigned k = 0; k < t; ++k)
            for (unsigned j = 0; j < t; ++j) r[i * t + j] += a[i * t + k] * b[k * t + j];
    return r;
}

// A sparse block (w ‖ v) as a dense matrix: column 0 = w, row 0 = (w0, v), identity elsewhere.
std::vector<fr> sparse_dense(std::span<const fr> block, unsigned t)
{
    std::vector<fr> m(size_t(t) * t, fr::zero());
    for (unsigned i = 0; i < t; ++i) {
        m[i * t + i] = fr::one();
        m[i * t] = block[i];
    }
    for (unsigned j = 1; j < t; ++j) m[j] = block[t + j - 1];
    return m;
}

} // namespace

TEST_CASE("Poseidon constants: round numbers, sizes, Cauchy MDS", "[filecoin][poseidon]")
{
    const unsigned expect_rp[] = {55, 56, 57, 57, 59, 59, 60};
    for (size_t k = 0; k < 7; ++k) {
        const unsigned a = all_arities[k];
        const poseidon_constants& c = poseidon_params(a);
        const unsigned t = a + 1, rp = expect_rp[k];
        CAPTURE(a);
        CHECK(c.width() == t);
        CHECK(c.partial_rounds() == rp);
        CHECK(c.round_constants().size() == size_t(8 + rp) * t);
        CHECK(c.compressed_round_constants().size() == size_t(8) * t + rp);
        CHECK(c.sparse().size() == size_t(rp) * (2 * t - 1));
        CHECK(c.pre_sparse().size() == size_t(t) * t);
        // M[i][j]·(i + j + t) = 1, and M·M⁻¹ = I.
        bool cauchy = true;
        for (unsigned i = 0; i < t; ++i)
            for (unsigned j = 0; j < t; ++j) cauchy &= (c.mds()[i * t + j] * fr::from_u64(i + j + t)).is_one();
        CHECK(cauchy);
        const std::vector<fr> m(c.mds().begin(), c.mds().end()), mi(c.mds_inverse().begin(), c.mds_inverse().end());
        const auto id = mul(m, mi, t);
        bool is_id = true;
        for (unsigned i = 0; i < t; ++i)
            for (unsigned j = 0; j < t; ++j) is_id &= id[i * t + j] == (i == j ? fr::one() : fr::zero());
        CHECK(is_id);
    }
    CHECK(&poseidon_params(8) == &poseidon_params(8));   // cached
    CHECK_FALSE(poseidon_arity_supported(3));
    CHECK_THROWS_AS(poseidon_params(3), cuzk::error);
}

TEST_CASE("Poseidon round constants: Grain LFSR first values", "[filecoin][poseidon]")
{
    // neptune's sage-generated parameter files (t = 3 and t = 9).
    CHECK(poseidon_params(2).round_constants()[0] ==
          limbs(0xa7320a009d6ed3d8, 0x501eac92a2758b36, 0x23bd51861dbb4a24, 0x669f064bfa3ae17a));
    CHECK(poseidon_params(8).round_constants()[0] ==
          limbs(0x43984154f2f4c2f9, 0xc52b4ae7e48cd494, 0x8c3caddb776dd84a, 0x6ce90d12c4045fe0));
    // t = 12, as derived by an independent generator (not an upstream value).
    CHECK(poseidon_params(11).round_constants()[0] ==
          limbs(0xe6de096bd089bce4, 0xd506f18e0f3ab77d, 0x7399bfc5f38902e0, 0x1f6c9576e648b504));
}

TEST_CASE("Poseidon: neptune hash_values (MerkleTree tag), plain and fast", "[filecoin][poseidon]")
{
    const fr expected[] = {
        limbs(0x2e203c369a02e7ff, 0xa6fba9339d05a69d, 0x739e0fd902efe161, 0x396508d75e76a56b),
        limbs(0x019814ff6662075d, 0xfb6b4605bf1327ec, 0x00db3c6579229399, 0x58a54b10a9e5848a),
        limbs(0x2a9934f56d38a5e6, 0x4b682e9d9cc4aed9, 0x1201004211677077, 0x2394611da3a5de55),
        limbs(0xcee3bbc32b693163, 0x09f3dcd8ccb08fc1, 0x6ca537e232ebe87a, 0x0c0fc1b2e5227f28),
        limbs(0x1291c74060266d37, 0x5b8dbc6d30680a6f, 0xc1c2fb5a6f871e63, 0x2d3ae2663381ae8a),
        limbs(0xd7ef3569f585b321, 0xc3e779f6468815b1, 0x066f39bf783f3d9f, 0x63beb8831f11ae15),
        limbs(0x4473606dfa4e8140, 0x75cd368df8a8ac3c, 0x540a30e03c10bbaa, 0x699303082a6e5d5f),
    };
    for (size_t k = 0; k < 7; ++k) {
        CAPTURE(all_arities[k]);
        const auto pre = iota_frs(all_arities[k]);
        CHECK(poseidon_hash(pre, poseidon_mode::plain) == expected[k]);
        CHECK(poseidon_hash(pre, poseidon_mode::fast) == expected[k]);
    }
}

TEST_CASE("Poseidon: neptune ConstantLength(4) over [0,1,2,3]", "[filecoin][poseidon]")
{
    const unsigned arities[] = {4, 8, 11, 16, 24, 36};
    const fr expected[] = {
        limbs(0x8935b00a07909d45, 0x4984de08542c9977, 0x39443980077d7593, 0x3a21a6ae86754a29),
        limbs(0x370a94532f818897, 0x203e3c7c4a85c1f9, 0xcad8b9f8aeb1578f, 0x5c6de4b69de9d792),
        limbs(0xe9b0cb7d6496f73b, 0x7d2807d793af9582, 0xef841b6bf51a5a39, 0x02550c3a2113c7ca),
        limbs(0x6a1e563d359c1bdd, 0x6b4493d5d40be9d3, 0x275a6eb04a0ecb37, 0x30ec6fa0fec08504),
        limbs(0xc540772c5968a299, 0xe2e556352af20f97, 0x15ed0a6b8faba5aa, 0x327bdee6fa2b22b6),
        limbs(0x7d89cddb70217dcd, 0x02ae71d3d04f0b32, 0xfe52151f29c50f99, 0x626bdae6cad79307),
    };
    const auto pre = iota_frs(4);
    for (size_t k = 0; k < 6; ++k) {
        CAPTURE(arities[k]);
        CHECK(poseidon_hash_constant_length(arities[k], pre, poseidon_mode::plain) == expected[k]);
        CHECK(poseidon_hash_constant_length(arities[k], pre, poseidon_mode::fast) == expected[k]);
    }
    CHECK_THROWS_AS(poseidon_hash_constant_length(2, pre), cuzk::error);   // 4 > arity: sponge, not supported
}

TEST_CASE("Poseidon: rust-fil-proofs hash_md (71 ones, arity 36)", "[filecoin][poseidon]")
{
    const std::vector<fr> ones(71, fr::one());
    CHECK(poseidon_hash_md(ones) ==
          limbs(0x351c54133b332c90, 0xc26f6d625f4e8195, 0x5fd9623643ed9622, 0x59f42220e09ff6f7));
    // A short last chunk is zero-padded: 2 elements = one hash of (x0, x1, 0, …).
    const std::vector<fr> two = {fr::from_u64(5), fr::from_u64(7)};
    std::vector<fr> padded(36, fr::zero());
    padded[0] = two[0];
    padded[1] = two[1];
    CHECK(poseidon_hash_md(two) == poseidon_hash(padded));
    CHECK_THROWS_AS(poseidon_hash_md(std::span<const fr>(ones.data(), 1)), cuzk::error);
}

TEST_CASE("Poseidon: fast permutation equals the plain one on random states", "[filecoin][poseidon]")
{
    std::mt19937_64 rng(0x9e3779b97f4a7c15);
    for (unsigned a : all_arities) {
        const poseidon_constants& c = poseidon_params(a);
        CAPTURE(a);
        for (int trial = 0; trial < 8; ++trial) {
            std::vector<fr> s(c.width());
            for (auto& x : s) x = fr::random(rng);
            auto f = s;
            poseidon_permute_plain(c, s);
            poseidon_permute_fast(c, f);
            REQUIRE(s == f);
        }
        std::vector<fr> wrong(a);
        CHECK_THROWS_AS(poseidon_permute_fast(c, wrong), cuzk::error);
    }
}

TEST_CASE("Poseidon: pre-sparse and sparse matrices factor M^(R_P+1)", "[filecoin][poseidon]")
{
    for (unsigned a : {2u, 4u, 8u, 11u}) {
        const poseidon_constants& c = poseidon_params(a);
        const unsigned t = c.width();
        const std::vector<fr> m(c.mds().begin(), c.mds().end());
        std::vector<fr> power = m, prod(c.pre_sparse().begin(), c.pre_sparse().end());
        for (unsigned r = 0; r < c.partial_rounds(); ++r) {
            power = mul(power, m, t);
            prod = mul(prod, sparse_dense(c.sparse().subspan(size_t(r) * (2 * t - 1), 2 * t - 1), t), t);
        }
        CAPTURE(a);
        CHECK(prod == power);
    }
}

TEST_CASE("Poseidon: hash_many equals single hashes", "[filecoin][poseidon]")
{
    std::mt19937_64 rng(7);
    for (unsigned a : {2u, 8u, 11u}) {
        const size_t n = 200;
        std::vector<fr> in(n * a), out1(n), out3(n), outp(n);
        for (auto& x : in) x = fr::random(rng);
        poseidon_hash_many(a, in, out1, 1);
        poseidon_hash_many(a, in, out3, 3);
        poseidon_hash_many(a, in, outp, 2, poseidon_mode::plain);
        bool ok = true;
        for (size_t i = 0; i < n; ++i)
            ok &= out1[i] == poseidon_hash(std::span<const fr>(in).subspan(i * a, a));
        CAPTURE(a);
        CHECK(ok);
        CHECK(out3 == out1);
        CHECK(outp == out1);
        CHECK_THROWS_AS(poseidon_hash_many(a, in, std::span<fr>(out1).first(n - 1), 1), cuzk::error);
    }
}
