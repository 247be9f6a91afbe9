// cuzk kernels — decoding bellperson's uncompressed BLS12-381 points on the
// device: the bytes of a .params file's point vector in, the affine points in
// Montgomery form (the layout of g1_affine / g2_affine) out.
//
// The encoding (docs/FORMATS.md, 1.1 and 1.3): a G1 point is x then
// y, a G2 point x.c1, x.c0, y.c1, y.c0; every coordinate 48 bytes, big-endian;
// the top three bits of the first byte are the flags (compressed, infinity,
// sort). A point of a .params vector is accepted exactly when the host
// decoder (g1_deserialize / g2_deserialize without the subgroup check, the
// identity refused) accepts it:
//   - no flag set, every coordinate < p. As p < 2^381, comparing the first
//     coordinate's 48 bytes, flags included, with p covers both: any flag
//     makes it ≥ p (an infinity or compressed encoding is refused as well);
//   - on the curve: y² = x³ + 4 (G1), y² = x³ + 4(1 + u) (G2).
// A point that fails gives `false`; the caller reports the lowest such index
// through the host decoder, which names the check.
//
// Every routine is __host__ __device__ (ff_device.cuh's host emulation), so
// the test on a machine without a GPU runs the device's own code against the
// host decoder.
#pragma once

#include <cstdint>

#include "ec_device.cuh"

namespace cuzk::dev {

constexpr int g1_raw_words = 24;   // 96 bytes
constexpr int g2_raw_words = 48;   // 192 bytes

CUZK_INLINE uint32_t byte_swap32(uint32_t v)
{
#if defined(__CUDA_ARCH__)
    return __byte_perm(v, 0, 0x0123);
#else
    return __builtin_bswap32(v);
#endif
}

// The coordinate whose 48 big-endian bytes are the 12 words raw[0 … 12) (as
// loaded from memory, each word's bytes in file order): into Montgomery form.
// false when the integer is ≥ p.
CUZK_INLINE bool fp_from_raw(const uint32_t* raw, dfp& out)
{
    dfp v;
CUZK_UNROLL
    for (int i = 0; i < dfp::n; ++i) v.w[i] = byte_swap32(raw[dfp::n - 1 - i]);
    bool below = false, decided = false;   // v < p, from the top word down
CUZK_UNROLL
    for (int i = dfp::n - 1; i >= 0; --i) {
        if (!decided && v.w[i] != dfp::pw(i)) {
            below = v.w[i] < dfp::pw(i);
            decided = true;
        }
    }
    if (!below) return false;
    dfp r2;   // R² mod p: mont(v, R²) = v·R
    constexpr auto r2b = fp_params::r2;
CUZK_UNROLL
    for (int i = 0; i < dfp::n; ++i) r2.w[i] = uint32_t(r2b.l[i / 2] >> (32 * (i & 1)));
    out = v * r2;
    return true;
}

// 4 in Montgomery form.
CUZK_INLINE dfp fp_four()
{
    const dfp two = dfp::one().dbl();
    return two.dbl();
}

// raw: the 24 words of one 96-byte G1 encoding.
CUZK_INLINE bool decode_g1_raw(const uint32_t* raw, dg1_affine& out)
{
    if (!fp_from_raw(raw, out.x) || !fp_from_raw(raw + 12, out.y)) return false;
    return out.y.sqr() == out.x.sqr() * out.x + fp_four();
}

// raw: the 48 words of one 192-byte G2 encoding.
CUZK_INLINE bool decode_g2_raw(const uint32_t* raw, dg2_affine& out)
{
    if (!fp_from_raw(raw, out.x.c1) || !fp_from_raw(raw + 12, out.x.c0) || !fp_from_raw(raw + 24, out.y.c1) ||
        !fp_from_raw(raw + 36, out.y.c0))
        return false;
    const dfp four = fp_four();
    return out.y.sqr() == out.x.sqr() * out.x + dfp2{four, four};
}

} // namespace cuzk::dev
