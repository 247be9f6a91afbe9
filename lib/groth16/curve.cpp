#include "cuzk/groth16/curve.hpp"

#include <algorithm>
#include <cctype>
#include <string>

namespace cuzk {

const char* curve_name(curve_id c) noexcept
{
    switch (c) {
    case curve_id::bls12_381: return "bls12-381";
    case curve_id::bn254: return "bn254";
    }
    return "unknown";
}

std::optional<curve_id> curve_from_name(std::string_view name) noexcept
{
    std::string s(name);
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
    if (s == "bls12381" || s == "bls12-381" || s == "bls12_381") return curve_id::bls12_381;
    if (s == "bn128" || s == "bn254" || s == "alt_bn128") return curve_id::bn254;
    return std::nullopt;
}

} // namespace cuzk
