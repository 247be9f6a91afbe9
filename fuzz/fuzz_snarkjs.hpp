// cuzk — the curve a snarkjs binary input names, for the zkey, wtns and r1cs
// harnesses: they read the input on that curve, or on bls12381 when its
// header names no known curve (so that the readers' own refusals of bad
// headers are still exercised).
#pragma once

#include <cstdint>
#include <string>

#include "cuzk/error.hpp"
#include "cuzk/io/snarkjs.hpp"

namespace cuzk::fuzz {

inline curve_id file_curve(const uint8_t* data, size_t size, const std::string& name)
{
    try {
        return io::parse_snarkjs_file_curve({data, size}, name);
    } catch (const cuzk::error&) {
        return curve_id::bls12_381;
    }
}

} // namespace cuzk::fuzz
