// cuzk — the device memory count, cap and high-water mark (device_ledger.hpp,
// and the public functions of include/cuzk/backend/cuda.hpp that read them).
// Built with and without CUDA: without it nothing allocates, and the counts
// stay at zero.
#include "backend/device_ledger.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "cuzk/error.hpp"

namespace cuzk {

namespace detail {

bool memory_ledger::reserve(uint64_t bytes)
{
    std::lock_guard<std::mutex> lk(mu_);
    if (cap_ != 0 && (used_ > cap_ || bytes > cap_ - used_)) return false;
    used_ += bytes;
    peak_ = std::max(peak_, used_);
    return true;
}

void memory_ledger::unreserve(uint64_t bytes) noexcept
{
    std::lock_guard<std::mutex> lk(mu_);
    used_ -= std::min(used_, bytes);
}

void memory_ledger::bind(const void* p, uint64_t bytes)
{
    std::lock_guard<std::mutex> lk(mu_);
    sizes_[p] = bytes;
}

void memory_ledger::release(const void* p) noexcept
{
    if (!p) return;
    std::lock_guard<std::mutex> lk(mu_);
    const auto it = sizes_.find(p);
    if (it == sizes_.end()) return;
    used_ -= std::min(used_, it->second);
    sizes_.erase(it);
}

void memory_ledger::set_cap(uint64_t bytes) noexcept
{
    std::lock_guard<std::mutex> lk(mu_);
    cap_ = bytes;
}

void memory_ledger::reset_peak() noexcept
{
    std::lock_guard<std::mutex> lk(mu_);
    peak_ = used_;
}

gpu_memory_use memory_ledger::use() const noexcept
{
    std::lock_guard<std::mutex> lk(mu_);
    return {used_, peak_, cap_};
}

void memory_ledger::clip(uint64_t* free_bytes, uint64_t* total_bytes) const noexcept
{
    std::lock_guard<std::mutex> lk(mu_);
    if (cap_ == 0) return;
    if (free_bytes) *free_bytes = std::min(*free_bytes, used_ < cap_ ? cap_ - used_ : 0);
    if (total_bytes) *total_bytes = std::min(*total_bytes, cap_);
}

memory_ledger& device_ledger(int device)
{
    static std::array<memory_ledger, max_ledger_devices> ledgers;
    if (device < 0 || device >= max_ledger_devices)
        throw error(errc::invalid_argument,
                    fmt::format("device memory ledger: device {} is outside 0 … {}", device, max_ledger_devices - 1));
    return ledgers[size_t(device)];
}

} // namespace detail

void gpu_set_memory_cap(int device, uint64_t bytes) { detail::device_ledger(device).set_cap(bytes); }
gpu_memory_use gpu_memory_use_of(int device) { return detail::device_ledger(device).use(); }
void gpu_reset_memory_peak(int device) { detail::device_ledger(device).reset_peak(); }

} // namespace cuzk
