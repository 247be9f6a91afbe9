// cuzk — fault injection for the backends (fault.hpp).
#include "fault.hpp"

#include <fmt/format.h>

#include <array>
#include <atomic>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "cuzk/error.hpp"

namespace cuzk::fault {

namespace {

struct armed_point {
    uint64_t skip = 0;     // checks that still pass
    uint64_t count = 0;    // failures still due (when not forever)
    bool forever = false;  // count 0: every check after skip fails
    bool armed = false;
    int device = -1;       // only checks on this device count; −1: any
    uint64_t fired = 0;
};

struct state {
    std::mutex mu;
    std::array<armed_point, num_points> pts{};
    std::atomic<bool> any{false};   // some point is armed: the fast path's test
    std::once_flag env_once;

    void refresh_any()
    {
        bool a = false;
        for (const armed_point& p : pts) a |= p.armed;
        any.store(a, std::memory_order_relaxed);
    }
};

state& st()
{
    static state s;
    return s;
}

std::optional<point> point_of(std::string_view s)
{
    for (unsigned i = 0; i < num_points; ++i)
        if (s == point_name(point(i))) return point(i);
    return std::nullopt;
}

bool parse_u64(std::string_view s, uint64_t& v)
{
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return r.ec == std::errc() && r.ptr == s.data() + s.size() && !s.empty();
}

struct arming {
    point p;
    uint64_t skip, count;
    int device;
};

// "point" or "point@device".
bool parse_point(std::string_view s, point& p, int& device)
{
    device = -1;
    const size_t at = s.find('@');
    if (at != std::string_view::npos) {
        uint64_t d = 0;
        if (!parse_u64(s.substr(at + 1), d) || d > 4095) return false;
        device = int(d);
        s = s.substr(0, at);
    }
    const auto q = point_of(s);
    if (!q) return false;
    p = *q;
    return true;
}

// "point[@device][:skip[:count]]" pieces separated by commas.
std::vector<arming> parse_spec(std::string_view spec)
{
    std::vector<arming> out;
    while (!spec.empty()) {
        const size_t comma = spec.find(',');
        const std::string_view piece = spec.substr(0, comma);
        spec = comma == std::string_view::npos ? std::string_view() : spec.substr(comma + 1);
        std::string_view fields[3];
        size_t nf = 0;
        std::string_view rest = piece;
        for (;;) {
            const size_t colon = rest.find(':');
            if (nf == 3) throw error(errc::invalid_argument, fmt::format("CUZK_FAULT: '{}': too many fields", piece));
            fields[nf++] = rest.substr(0, colon);
            if (colon == std::string_view::npos) break;
            rest = rest.substr(colon + 1);
        }
        point p{};
        int device = -1;
        uint64_t skip = 0, count = 1;
        if (!parse_point(fields[0], p, device) || (nf > 1 && !parse_u64(fields[1], skip)) ||
            (nf > 2 && !parse_u64(fields[2], count)))
            throw error(errc::invalid_argument,
                        fmt::format("CUZK_FAULT: '{}' is not point[@device][:skip[:count]] with point alloc, kernel, "
                                    "copy or lane",
                                    piece));
        out.push_back({p, skip, count, device});
    }
    return out;
}

void arm_locked(state& s, point p, uint64_t skip, uint64_t count, int device)
{
    armed_point& a = s.pts[size_t(p)];
    const uint64_t fired_before = a.fired;
    a = armed_point{skip, count, count == 0, true, device, fired_before};
    s.refresh_any();
}

void load_env()
{
    const char* v = std::getenv("CUZK_FAULT");
    if (!v || !*v) return;
    try {
        const std::vector<arming> list = parse_spec(v);
        state& s = st();
        std::lock_guard lk(s.mu);
        for (const arming& a : list) arm_locked(s, a.p, a.skip, a.count, a.device);
    } catch (const error& e) {
        std::fprintf(stderr, "cuzk: ignoring CUZK_FAULT: %s\n", e.what());
    }
}

[[noreturn]] void raise(point p, std::string_view where)
{
    switch (p) {
    case point::alloc:
        throw error(errc::out_of_memory,
                    fmt::format("{}: device allocation failed (injected fault: CUZK_FAULT alloc)", where));
    case point::kernel:
        throw error(errc::device, fmt::format("{}: kernel launch failed (injected fault: CUZK_FAULT kernel)", where));
    case point::copy:
        throw error(errc::device,
                    fmt::format("{}: host-device copy failed (injected fault: CUZK_FAULT copy)", where));
    case point::lane:
        throw error(errc::out_of_memory,
                    fmt::format("{}: device allocation failed (injected fault: CUZK_FAULT lane)", where));
    }
    throw error(errc::internal, "fault: unknown point");
}

} // namespace

const char* point_name(point p) noexcept
{
    switch (p) {
    case point::alloc: return "alloc";
    case point::kernel: return "kernel";
    case point::copy: return "copy";
    case point::lane: return "lane";
    }
    return "?";
}

void arm(point p, uint64_t skip, uint64_t count, int device)
{
    state& s = st();
    std::call_once(s.env_once, load_env);   // a later first check must not re-arm from the environment
    std::lock_guard lk(s.mu);
    arm_locked(s, p, skip, count, device);
}

void arm_from_spec(std::string_view spec)
{
    const std::vector<arming> list = parse_spec(spec);
    for (const arming& a : list) arm(a.p, a.skip, a.count, a.device);
}

void disarm() noexcept
{
    state& s = st();
    std::lock_guard lk(s.mu);
    s.pts = {};
    s.refresh_any();
}

uint64_t fired(point p) noexcept
{
    state& s = st();
    std::lock_guard lk(s.mu);
    return s.pts[size_t(p)].fired;
}

void check(point p, std::string_view where, int device)
{
    state& s = st();
    std::call_once(s.env_once, load_env);
    if (!s.any.load(std::memory_order_relaxed)) return;
    {
        std::lock_guard lk(s.mu);
        armed_point& a = s.pts[size_t(p)];
        if (!a.armed || (a.device >= 0 && a.device != device)) return;
        if (a.skip > 0) {
            --a.skip;
            return;
        }
        ++a.fired;
        if (!a.forever && --a.count == 0) {
            a.armed = false;
            s.refresh_any();
        }
    }
    raise(p, where);
}

} // namespace cuzk::fault
