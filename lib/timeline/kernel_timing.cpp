// cuzk — device time from curio's CUZK_TIMING lines (definitions:
// include/cuzk/timeline/analysis.hpp, "Kernel time").
#include <algorithm>
#include <optional>
#include <set>
#include <string_view>
#include <vector>

#include "cuzk/timeline/analysis.hpp"
#include "cuzk/timeline/parse.hpp"

namespace cuzk::timeline {

namespace {

// The value of `key` as ns (a decimal number of ms); nullopt when absent or
// not a number.
std::optional<uint64_t> ms_value(const event& e, std::string_view key)
{
    for (const auto& [k, v] : e.details)
        if (k == key) return parse_decimal_ns(v, 1'000'000);
    return std::nullopt;
}

// Adds the value of `key` to the sum and the list; true when it was there.
bool take(const event& e, std::string_view key, uint64_t& sum, std::vector<uint64_t>& list)
{
    const auto v = ms_value(e, key);
    if (!v) return false;
    sum += *v;
    list.push_back(*v);
    return true;
}

} // namespace

kernel_report analyse_kernel_timing(std::span<const event> events, const std::vector<partition_timing>& partitions,
                                    unsigned devices)
{
    kernel_report k;
    std::vector<uint64_t> ntt, badd, tail, region;
    for (const event& e : events) {
        if (e.name != "CUZK_TIMING" || e.ph != phase::instant) continue;
        ++k.lines;
        take(e, "ntt_msm_h_ms", k.ntt_msm_h_ns, ntt);
        take(e, "batch_add_ms", k.batch_add_ns, badd);
        take(e, "tail_msm_ms", k.tail_msm_ns, tail);
        if (take(e, "gpu_total_ms", k.region_ns, region)) ++k.calls;
    }
    k.kernel_ns = k.ntt_msm_h_ns + k.batch_add_ns + k.tail_msm_ns;
    k.ntt_msm_h = compute_stats(std::move(ntt));
    k.batch_add = compute_stats(std::move(badd));
    k.tail_msm = compute_stats(std::move(tail));
    k.region = compute_stats(std::move(region));

    std::vector<interval> brackets;
    std::set<int32_t> named;
    for (const partition_timing& p : partitions) {
        if (!p.has_device) continue;
        brackets.push_back(p.device_stage);
        if (p.device >= 0) named.insert(p.device);
    }
    k.devices = devices ? devices : std::max<unsigned>(1, unsigned(named.size()));
    const auto merged = merge_intervals(std::move(brackets));
    if (merged.empty()) return k;
    k.window = {merged.front().begin, merged.back().end};
    const double w = double(k.window.length());
    if (w <= 0) return k;
    uint64_t open = 0;
    for (const interval& iv : merged) open += iv.length();
    k.bracket_utilisation = double(open) / w;
    k.utilisation = double(k.kernel_ns) / (w * k.devices);
    k.region_utilisation = double(k.region_ns) / (w * k.devices);
    return k;
}

} // namespace cuzk::timeline
