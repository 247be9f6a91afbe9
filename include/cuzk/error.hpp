// cuzk — the one exception type of the C++ API.
//
// Every failure inside the library is raised as cuzk::error. Its code maps one
// to one onto the C ABI's cuzk_status values (negative, pinned, never reused),
// so the C boundary translates without losing information.
#pragma once

#include <stdexcept>
#include <string>

namespace cuzk {

enum class errc : int {
    ok = 0,
    invalid_argument = -1,   // a caller passed something outside the contract
    bad_length = -2,         // a buffer or file has the wrong size
    non_canonical = -3,      // a field element encoding is >= the modulus
    bad_flags = -4,          // point-encoding flag bits are inconsistent
    not_on_curve = -5,       // decoded coordinates do not satisfy the curve equation
    not_in_subgroup = -6,    // the point is on the curve but not in the prime-order subgroup
    unexpected_identity = -7,// the point at infinity where it is not allowed
    no_square_root = -8,     // a compressed x has no matching y
    io = -9,                 // reading or writing a file failed
    bad_format = -10,        // a file's structure is wrong (magic, version, section)
    unsatisfied = -11,       // a witness does not satisfy a constraint
    unsupported = -12,       // valid input that this build cannot handle
    cancelled = -13,
    out_of_memory = -14,
    device = -15,            // a CUDA call failed
    internal = -16,
};

// Short, stable name of a code ("not_on_curve"), for messages and tests.
const char* errc_name(errc c) noexcept;

class error : public std::runtime_error {
public:
    error(errc code, const std::string& what) : std::runtime_error(what), code_(code) {}
    errc code() const noexcept { return code_; }

private:
    errc code_;
};

} // namespace cuzk
