// cuzk — fault injection for the proving backends (tests and drills).
//
// The backends call check() at three points of every device part, and a
// fourth where the cuda backend overlaps a prove's steps:
//   alloc    the device scratch of the prove (cuda: before the scratch is
//            made ready; cpu: before the device part starts)
//   copy     the host-to-device copy of the witness (the H2D step)
//   kernel   the first kernel of the prove (the NTT step)
//   lane     the second stream's scratch of an overlapped GPU prove
//            (gpu_key_options::overlap), before its first step; the prove
//            then runs again on one stream, as after a real shortage
// When a point is armed, its checks count down: the first `skip` pass, the
// next `count` fail (count 0: every later one), then it passes again. A
// failing check throws what the real failure would: alloc and lane
// errc::out_of_memory, kernel and copy errc::device, with a message that
// says the failure was injected and where. The engine turns it into the
// failure of that partition's job; the backend stays usable (the CUDA path
// drains its stream on the way out, as for a real error).
//
// Arming: arm() from a test, or the environment variable CUZK_FAULT, read
// once at the first check: a comma-separated list of
// point[@device][:skip[:count]], e.g. CUZK_FAULT=kernel:3 (the 4th kernel
// check fails, once), CUZK_FAULT=alloc:0:0,copy:10, or kernel@1:0:0 (every
// kernel check on device 1 fails; checks on other devices pass and are not
// counted). The device is the CUDA device number on the CUDA backend and
// the engine's device number on the CPU backend. An invalid CUZK_FAULT is
// reported on stderr and ignored. Unarmed, a check is one relaxed atomic load.
#pragma once

#include <cstdint>
#include <string_view>

namespace cuzk::fault {

enum class point : uint8_t { alloc = 0, kernel = 1, copy = 2, lane = 3 };
inline constexpr unsigned num_points = 4;

const char* point_name(point p) noexcept;   // "alloc", "kernel", "copy", "lane"

// Arms p (replacing an earlier arming of p): skip checks pass, then count
// fail; with device >= 0 only the checks on that device count.
void arm(point p, uint64_t skip = 0, uint64_t count = 1, int device = -1);
// Parses a CUZK_FAULT value and arms what it names (errc::invalid_argument
// naming the bad piece; nothing is armed then).
void arm_from_spec(std::string_view spec);
// Disarms every point and resets the counters.
void disarm() noexcept;
// Failures injected at p since the last disarm().
uint64_t fired(point p) noexcept;

// The check the backends call; `where` names the operation for the message,
// `device` the device it runs on (−1: unknown, matches only an arming for
// any device).
void check(point p, std::string_view where, int device = -1);

} // namespace cuzk::fault
