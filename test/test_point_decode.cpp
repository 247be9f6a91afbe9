// The device's decoder of bellperson's uncompressed points
// (kernels/point_decode.cuh), run on its host emulation, against the host
// decoder (g1_deserialize / g2_deserialize without the subgroup check, the
// identity refused, as a .params vector is read): the same points for valid
// encodings, and a refusal for every encoding the host decoder refuses — each
// flag, a coordinate equal to p or above it, a point off the curve. The
// [gpu] case of test_params_stream.cpp runs the same code on a device through
// a mapped key.
#include <catch2/catch.hpp>

#include <array>
#include <cstring>
#include <random>
#include <vector>

#include "../kernels/point_decode.cuh"
#include "cuzk/ec/encoding.hpp"
#include "cuzk/error.hpp"
#include "gmp_util.hpp"
#include "test_support.hpp"

using namespace cuzk;
using namespace cuzk::dev;

namespace {

template <size_t Bytes>
std::array<uint32_t, Bytes / 4> words_of(const std::array<uint8_t, Bytes>& b)
{
    std::array<uint32_t, Bytes / 4> w;
    std::memcpy(w.data(), b.data(), Bytes);   // as the device loads them
    return w;
}

// The host decoder's verdict on a .params point.
template <class Aff>
bool host_accepts(std::span<const uint8_t> b, Aff& out)
{
    try {
        if constexpr (std::is_same_v<Aff, g1_affine>) out = g1_deserialize(b, subgroup_check::skip);
        else out = g2_deserialize(b, subgroup_check::skip);
    } catch (const error&) {
        return false;
    }
    return !out.is_identity();
}

// Device and host agree on b: both refuse, or both give the same point.
template <size_t Bytes>
void agree(const std::array<uint8_t, Bytes>& b)
{
    constexpr bool g1 = Bytes == 96;
    using Aff = std::conditional_t<g1, g1_affine, g2_affine>;
    using DAff = std::conditional_t<g1, dg1_affine, dg2_affine>;
    Aff h;
    const bool host = host_accepts<Aff>(b, h);
    DAff d;
    const auto w = words_of(b);
    bool dev;
    if constexpr (g1) dev = decode_g1_raw(w.data(), d);
    else dev = decode_g2_raw(w.data(), d);
    REQUIRE(dev == host);
    if (host) {
        CHECK(d.x.to_host() == h.x);
        CHECK(d.y.to_host() == h.y);
    }
}
void agree_g1(const std::array<uint8_t, 96>& b) { agree(b); }
void agree_g2(const std::array<uint8_t, 192>& b) { agree(b); }

template <class Aff>
Aff random_point(std::mt19937_64& rng)
{
    return scalar_mul(Aff::generator(), fr::random(rng).to_repr()).to_affine();
}


// p's 48 big-endian bytes, plus `add` (0 or 1) at the last byte.
std::array<uint8_t, 48> modulus_be(unsigned add)
{
    std::array<uint8_t, 48> b;
    for (size_t i = 0; i < 48; ++i) b[47 - i] = uint8_t(fp_params::modulus.l[i / 8] >> (8 * (i % 8)));   // p
    for (int i = 47; add && i >= 0; --i) {   // + add, with carries
        add = ++b[i] == 0;
    }
    return b;
}

// c + p over the 48 big-endian bytes at c; false when the sum reaches 2^381
// (it would set a flag bit).
bool add_modulus(uint8_t* c)
{
    const std::array<uint8_t, 48> p = modulus_be(0);
    unsigned carry = 0;
    for (int i = 47; i >= 0; --i) {
        const unsigned s = unsigned(c[i]) + p[size_t(i)] + carry;
        c[i] = uint8_t(s);
        carry = s >> 8;
    }
    return carry == 0 && (c[0] & 0xe0) == 0;
}

std::array<uint8_t, 96> bytes_of(const g1_affine& p) { return test::g1_bytes(p); }
std::array<uint8_t, 192> bytes_of(const g2_affine& p) { return test::g2_bytes(p); }

// Each coordinate + p (below 2^381): the same residue, so only the range
// check can refuse it. For each coordinate, the first random point where
// the sum fits.
template <class Aff>
void plus_p_refused(std::mt19937_64& rng)
{
    constexpr size_t coords = std::is_same_v<Aff, g1_affine> ? 2 : 4;
    for (size_t c = 0; c < coords; ++c) {
        for (int tried = 0;; ++tried) {
            REQUIRE(tried < 1000);
            auto b = bytes_of(random_point<Aff>(rng));
            if (!add_modulus(b.data() + 48 * c)) continue;
            Aff h;
            CHECK_FALSE(host_accepts<Aff>(b, h));
            agree(b);   // so the device refuses it too
            break;
        }
    }
}

} // namespace

TEST_CASE("device point decoder: valid G1 and G2 encodings give the host decoder's points", "[decode]")
{
    std::mt19937_64 rng(test::test_seed() + 3);
    agree_g1(test::g1_bytes(g1_affine::generator()));
    agree_g2(test::g2_bytes(g2_affine::generator()));
    for (int i = 0; i < 64; ++i) {
        agree_g1(test::g1_bytes(random_point<g1_affine>(rng)));
        agree_g2(test::g2_bytes(random_point<g2_affine>(rng)));
    }
    // −G: y = p − y(G), the largest y of the pair.
    agree_g1(test::g1_bytes(-g1_affine::generator()));
    agree_g2(test::g2_bytes(-g2_affine::generator()));
}

TEST_CASE("device point decoder: refuses every flag, coordinates >= p and points off the curve", "[decode]")
{
    std::mt19937_64 rng(test::test_seed() + 5);
    const auto g1 = test::g1_bytes(random_point<g1_affine>(rng));
    const auto g2 = test::g2_bytes(random_point<g2_affine>(rng));
    // Each flag bit of the first byte, alone; the infinity encoding proper.
    for (uint8_t flag : {uint8_t(0x80), uint8_t(0x40), uint8_t(0x20), uint8_t(0xe0)}) {
        auto b1 = g1;
        b1[0] |= flag;
        agree_g1(b1);
        auto b2 = g2;
        b2[0] |= flag;
        agree_g2(b2);
    }
    std::array<uint8_t, 96> inf1{};
    inf1[0] = 0x40;
    agree_g1(inf1);
    std::array<uint8_t, 192> inf2{};
    inf2[0] = 0x40;
    agree_g2(inf2);
    std::array<uint8_t, 96> zero1{};   // (0, 0): off the curve
    agree_g1(zero1);
    // Every coordinate equal to p, p + 1 and all ones (bits 381 … 383 clear, so no flag).
    for (unsigned add : {0u, 1u, 2u}) {
        std::array<uint8_t, 48> big = modulus_be(add == 2 ? 0 : add);
        if (add == 2) {
            big.fill(0xff);
            big[0] = 0x1f;
        }
        for (size_t c = 0; c < 2; ++c) {
            auto b = g1;
            std::memcpy(b.data() + 48 * c, big.data(), 48);
            agree_g1(b);
        }
        for (size_t c = 0; c < 4; ++c) {
            auto b = g2;
            std::memcpy(b.data() + 48 * c, big.data(), 48);
            agree_g2(b);
        }
    }
    // Off the curve: each coordinate's last byte changed.
    for (size_t c = 0; c < 2; ++c) {
        auto b = g1;
        b[48 * c + 47] ^= 1;
        agree_g1(b);
    }
    for (size_t c = 0; c < 4; ++c) {
        auto b = g2;
        b[48 * c + 47] ^= 1;
        agree_g2(b);
    }
    // (0, 2) is on the curve (outside G1, which .params reading does not
    // check); written with x = p it is the same residue, refused for its range.
    std::array<uint8_t, 96> zero_two{};
    zero_two[95] = 2;
    agree_g1(zero_two);
    const std::array<uint8_t, 48> p_be = modulus_be(0);
    std::memcpy(zero_two.data(), p_be.data(), 48);
    agree_g1(zero_two);
    // A coordinate + p.
    plus_p_refused<g1_affine>(rng);
    plus_p_refused<g2_affine>(rng);
    // And the two checks above are not vacuous: these were refused.
    dg1_affine d1;
    auto b = g1;
    b[95] ^= 1;
    CHECK_FALSE(decode_g1_raw(words_of(b).data(), d1));
    b = g1;
    b[0] |= 0x80;
    CHECK_FALSE(decode_g1_raw(words_of(b).data(), d1));
}
