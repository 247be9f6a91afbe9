#include "cuzk/util/random.hpp"

#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "cuzk/error.hpp"

namespace cuzk {

void os_random_bytes(void* buf, size_t n)
{
    auto* p = static_cast<uint8_t*>(buf);
    while (n > 0) {
        const ssize_t got = getrandom(p, n, 0);
        if (got < 0) {
            if (errno == EINTR) continue;
            throw error(errc::io, std::string("getrandom failed: ") + std::strerror(errno));
        }
        p += got;
        n -= size_t(got);
    }
}

os_rng::result_type os_rng::operator()()
{
    uint64_t v;
    os_random_bytes(&v, sizeof v);
    return v;
}

} // namespace cuzk
