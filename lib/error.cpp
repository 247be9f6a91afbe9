#include "cuzk/error.hpp"

namespace cuzk {

const char* errc_name(errc c) noexcept
{
    switch (c) {
    case errc::ok: return "ok";
    case errc::invalid_argument: return "invalid_argument";
    case errc::bad_length: return "bad_length";
    case errc::non_canonical: return "non_canonical";
    case errc::bad_flags: return "bad_flags";
    case errc::not_on_curve: return "not_on_curve";
    case errc::not_in_subgroup: return "not_in_subgroup";
    case errc::unexpected_identity: return "unexpected_identity";
    case errc::no_square_root: return "no_square_root";
    case errc::io: return "io";
    case errc::bad_format: return "bad_format";
    case errc::unsatisfied: return "unsatisfied";
    case errc::unsupported: return "unsupported";
    case errc::cancelled: return "cancelled";
    case errc::out_of_memory: return "out_of_memory";
    case errc::device: return "device";
    case errc::internal: return "internal";
    }
    return "unknown";
}

} // namespace cuzk
