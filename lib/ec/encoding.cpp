// BLS12-381 point encodings, zcash / blst convention (see include/cuzk/ec/encoding.hpp).
#include "cuzk/ec/encoding.hpp"

#include <fmt/format.h>

#include <bit>
#include <cstring>

#include "cuzk/ec/subgroup.hpp"
#include "cuzk/error.hpp"

namespace cuzk {

namespace {

constexpr uint8_t flag_c = 0x80;   // compressed
constexpr uint8_t flag_i = 0x40;   // infinity
constexpr uint8_t flag_s = 0x20;   // y is the lexicographically largest root
constexpr uint8_t flag_mask = flag_c | flag_i | flag_s;
constexpr size_t fp_bytes = fp::nbytes;   // 48

[[noreturn]] void fail(errc code, const char* who, const std::string& what)
{
    throw error(code, fmt::format("{}: {} ({})", who, what, errc_name(code)));
}

// Reads a 48-byte big-endian coordinate whose first byte has had its flag bits
// cleared by the caller (`first` replaces in[0]).
fp read_fp(const uint8_t* in, uint8_t first, const char* who, const char* coord)
{
    // Limb k (little-endian significance) is the big-endian word at bytes
    // [40 − 8k, 48 − 8k); the top limb's first byte is `first`.
    static_assert(std::endian::native == std::endian::little, "words are loaded as little-endian");
    fp::repr v;
    for (size_t k = 0; k < fp::repr::limbs; ++k) {
        uint64_t w;
        std::memcpy(&w, in + fp_bytes - 8 * (k + 1), 8);
        v.l[k] = __builtin_bswap64(w);
    }
    v.l[fp::repr::limbs - 1] = (v.l[fp::repr::limbs - 1] & 0x00ffffffffffffffull) | uint64_t(first) << 56;
    if (!fp::is_canonical(v)) fail(errc::non_canonical, who, fmt::format("{} coordinate is >= p", coord));
    return fp::from_repr(v);
}

bool all_zero(const uint8_t* in, size_t n)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < n; ++i) acc |= in[i];
    return acc == 0;
}

// The infinity encoding: I set, S clear, every other bit zero (C already
// matched against the length by the caller).
void check_infinity(std::span<const uint8_t> in, const char* who)
{
    if ((in[0] & flag_s) || (in[0] & ~flag_mask) || !all_zero(in.data() + 1, in.size() - 1))
        fail(errc::bad_flags, who, "infinity flag set but the other bits are not all zero");
}

// The flag byte decides the form; the length must agree with the C bit.
// Returns true for the compressed form.
bool check_form(std::span<const uint8_t> in, size_t compressed_size, size_t uncompressed_size, const char* who)
{
    if (in.size() != compressed_size && in.size() != uncompressed_size)
        fail(errc::bad_length, who,
             fmt::format("{} bytes, expected {} (compressed) or {} (uncompressed)", in.size(), compressed_size,
                         uncompressed_size));
    const bool compressed = in.size() == compressed_size;
    const bool c = in[0] & flag_c;
    if (c != compressed)
        fail(errc::bad_flags, who,
             compressed ? fmt::format("{}-byte encoding without the compression flag 0x80", in.size())
                        : fmt::format("{}-byte encoding with the compression flag 0x80", in.size()));
    if (!compressed && (in[0] & flag_s) && !(in[0] & flag_i))
        fail(errc::bad_flags, who, "sort flag 0x20 set in an uncompressed encoding");
    return compressed;
}

// Fp2 on the wire: c1 (48 bytes, carries the flags in byte 0) then c0.
// The coordinates' names come whole (no formatting per point decoded).
fp2 read_fp2(const uint8_t* in, uint8_t first, const char* who, const char* c1_name, const char* c0_name)
{
    const fp c1 = read_fp(in, first, who, c1_name);
    const fp c0 = read_fp(in + fp_bytes, in[fp_bytes], who, c0_name);
    return {c0, c1};
}
void write_fp2(const fp2& a, uint8_t* out)
{
    a.c1.to_bytes_be(out);
    a.c0.to_bytes_be(out + fp_bytes);
}

template <class A>
void check_subgroup(const A& p, subgroup_check chk, const char* who)
{
    if (chk == subgroup_check::check && !in_subgroup_fast(p))
        fail(errc::not_in_subgroup, who, "point is on the curve but not in the order-r subgroup");
}

} // namespace

// (p − 1)/2 as a canonical integer; y is "largest" iff y > (p − 1)/2, i.e. y
// is the larger of {y, p − y}.
bool lexicographically_largest(const fp& y)
{
    constexpr bigint<6> half = shr(sub_small(fp_params::modulus, 1), 1);
    return half < y.to_repr();
}
bool lexicographically_largest(const fp2& y)
{
    return y.c1.is_zero() ? lexicographically_largest(y.c0) : lexicographically_largest(y.c1);
}

// ---- G1 --------------------------------------------------------------------------

void g1_serialize(const g1_affine& p, std::span<uint8_t, 96> out)
{
    if (p.is_identity()) {
        for (auto& b : out) b = 0;
        out[0] = flag_i;
        return;
    }
    p.x.to_bytes_be(out.data());
    p.y.to_bytes_be(out.data() + fp_bytes);
}

void g1_compress(const g1_affine& p, std::span<uint8_t, 48> out)
{
    if (p.is_identity()) {
        for (auto& b : out) b = 0;
        out[0] = flag_c | flag_i;
        return;
    }
    p.x.to_bytes_be(out.data());
    out[0] |= flag_c | (lexicographically_largest(p.y) ? flag_s : 0);
}

// Decompression: y² = x³ + 4; p ≡ 3 (mod 4) so the root is one
// exponentiation (x³+4)^((p+1)/4), about 450 Fp multiplications, checked by squaring.
g1_affine g1_deserialize(std::span<const uint8_t> in, subgroup_check chk)
{
    constexpr const char* who = "g1_deserialize";
    const bool compressed = check_form(in, g1_compressed_size, g1_uncompressed_size, who);
    if (in[0] & flag_i) {
        check_infinity(in, who);
        return g1_affine::identity();
    }
    const uint8_t first = in[0] & ~flag_mask;
    g1_affine p;
    p.x = read_fp(in.data(), first, who, "x");
    const fp rhs = p.x.sqr() * p.x + g1_curve::b();
    if (compressed) {
        if (!rhs.sqrt(p.y)) fail(errc::no_square_root, who, "x³ + 4 is not a square: no point has this x");
        if (lexicographically_largest(p.y) != bool(in[0] & flag_s)) p.y = -p.y;
    } else {
        p.y = read_fp(in.data() + fp_bytes, in[fp_bytes], who, "y");
        if (p.y.sqr() != rhs) fail(errc::not_on_curve, who, "y² ≠ x³ + 4");
    }
    check_subgroup(p, chk, who);
    return p;
}

// ---- G2 --------------------------------------------------------------------------

void g2_serialize(const g2_affine& p, std::span<uint8_t, 192> out)
{
    if (p.is_identity()) {
        for (auto& b : out) b = 0;
        out[0] = flag_i;
        return;
    }
    write_fp2(p.x, out.data());
    write_fp2(p.y, out.data() + 2 * fp_bytes);
}

void g2_compress(const g2_affine& p, std::span<uint8_t, 96> out)
{
    if (p.is_identity()) {
        for (auto& b : out) b = 0;
        out[0] = flag_c | flag_i;
        return;
    }
    write_fp2(p.x, out.data());
    out[0] |= flag_c | (lexicographically_largest(p.y) ? flag_s : 0);
}

// Decompression: y² = x³ + 4(1 + u); the Fp2 square root costs two Fp2
// exponentiations (see fp2::sqrt) and is checked by squaring.
g2_affine g2_deserialize(std::span<const uint8_t> in, subgroup_check chk)
{
    constexpr const char* who = "g2_deserialize";
    const bool compressed = check_form(in, g2_compressed_size, g2_uncompressed_size, who);
    if (in[0] & flag_i) {
        check_infinity(in, who);
        return g2_affine::identity();
    }
    const uint8_t first = in[0] & ~flag_mask;
    g2_affine p;
    p.x = read_fp2(in.data(), first, who, "x.c1", "x.c0");
    const fp2 rhs = p.x.sqr() * p.x + g2_curve::b();
    if (compressed) {
        if (!rhs.sqrt(p.y))
            fail(errc::no_square_root, who, "x³ + 4(1 + u) is not a square: no point has this x");
        if (lexicographically_largest(p.y) != bool(in[0] & flag_s)) p.y = -p.y;
    } else {
        p.y = read_fp2(in.data() + 2 * fp_bytes, in[2 * fp_bytes], who, "y.c1", "y.c0");
        if (p.y.sqr() != rhs) fail(errc::not_on_curve, who, "y² ≠ x³ + 4(1 + u)");
    }
    check_subgroup(p, chk, who);
    return p;
}

} // namespace cuzk
