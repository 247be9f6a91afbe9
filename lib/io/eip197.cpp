// BN254 points and proofs in the EIP-197 encoding (see include/cuzk/io/eip197.hpp).
#include "cuzk/io/eip197.hpp"

#include <fmt/format.h>

#include "cuzk/error.hpp"

namespace cuzk::io {

namespace {

constexpr size_t w = 32;   // bytes per coordinate

bool all_zero(std::span<const uint8_t> b)
{
    uint8_t acc = 0;
    for (uint8_t v : b) acc |= v;
    return acc == 0;
}

bn254::fp coordinate(const uint8_t* in, const std::string& what, const char* name)
{
    bn254::fp v;
    if (!bn254::fp::from_bytes_be(in, v))
        throw error(errc::non_canonical, fmt::format("{} {}: the coordinate is >= q", what, name));
    return v;
}

} // namespace

void eip197_g1_encode(const bn254::g1_affine& p, std::span<uint8_t, eip197_g1_size> out)
{
    if (p.is_identity()) {
        std::fill(out.begin(), out.end(), uint8_t(0));
        return;
    }
    p.x.to_bytes_be(out.data());
    p.y.to_bytes_be(out.data() + w);
}

void eip197_g2_encode(const bn254::g2_affine& p, std::span<uint8_t, eip197_g2_size> out)
{
    if (p.is_identity()) {
        std::fill(out.begin(), out.end(), uint8_t(0));
        return;
    }
    p.x.c1.to_bytes_be(out.data());
    p.x.c0.to_bytes_be(out.data() + w);
    p.y.c1.to_bytes_be(out.data() + 2 * w);
    p.y.c0.to_bytes_be(out.data() + 3 * w);
}

void eip197_proof_encode(const groth16::proof_t<bn254_curve>& p, std::span<uint8_t, eip197_proof_size> out)
{
    eip197_g1_encode(p.a, out.subspan<0, eip197_g1_size>());
    eip197_g2_encode(p.b, out.subspan<eip197_g1_size, eip197_g2_size>());
    eip197_g1_encode(p.c, out.subspan<eip197_g1_size + eip197_g2_size, eip197_g1_size>());
}

std::array<uint8_t, eip197_proof_size> eip197_proof_bytes(const groth16::proof_t<bn254_curve>& p)
{
    std::array<uint8_t, eip197_proof_size> b{};
    eip197_proof_encode(p, b);
    return b;
}

bn254::g1_affine eip197_g1_decode(std::span<const uint8_t, eip197_g1_size> in, const std::string& what)
{
    bn254::g1_affine p{coordinate(in.data(), what, "x"), coordinate(in.data() + w, what, "y")};
    if (all_zero(in)) return bn254::g1_affine::identity();
    if (!p.is_on_curve()) throw error(errc::not_on_curve, fmt::format("{}: the point is not on G1", what));
    return p;   // G1 = E(Fp): on the curve is in the group
}

bn254::g2_affine eip197_g2_decode(std::span<const uint8_t, eip197_g2_size> in, const std::string& what)
{
    bn254::g2_affine p;
    p.x.c1 = coordinate(in.data(), what, "x.c1");
    p.x.c0 = coordinate(in.data() + w, what, "x.c0");
    p.y.c1 = coordinate(in.data() + 2 * w, what, "y.c1");
    p.y.c0 = coordinate(in.data() + 3 * w, what, "y.c0");
    if (all_zero(in)) return bn254::g2_affine::identity();
    if (!p.is_on_curve()) throw error(errc::not_on_curve, fmt::format("{}: the point is not on the G2 twist", what));
    if (!bn254::in_subgroup(p))
        throw error(errc::not_in_subgroup, fmt::format("{}: the point is on the twist but not of order r", what));
    return p;
}

groth16::proof_t<bn254_curve> eip197_proof_decode(std::span<const uint8_t> in)
{
    if (in.size() != eip197_proof_size)
        throw error(errc::bad_length,
                    fmt::format("BN254 proof: {} bytes, expected {} (EIP-197 A ‖ B ‖ C)", in.size(), eip197_proof_size));
    groth16::proof_t<bn254_curve> p;
    p.a = eip197_g1_decode(in.subspan<0, eip197_g1_size>(), "proof A");
    p.b = eip197_g2_decode(in.subspan<eip197_g1_size, eip197_g2_size>(), "proof B");
    p.c = eip197_g1_decode(in.subspan<eip197_g1_size + eip197_g2_size, eip197_g1_size>(), "proof C");
    return p;
}

} // namespace cuzk::io
