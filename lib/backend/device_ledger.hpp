// cuzk — internal (lib/backend/, not installed): the count of the device
// memory cuzk holds on each CUDA device, its cap and its high-water mark
// (include/cuzk/backend/cuda.hpp, "device memory budget"). Plain C++: the
// kernels call it around every cudaMalloc and cudaFree, and the CPU tests
// drive it directly.
#pragma once

#include <cstdint>
#include <mutex>
#include <unordered_map>

#include "cuzk/backend/cuda.hpp"

namespace cuzk::detail {

// One device's count. reserve() before an allocation (false: it would pass
// the cap, nothing counted), then bind() the pointer it gave, or unreserve()
// when the allocation failed; release() of a bound pointer gives its bytes
// back (unknown pointers are ignored: memory allocated before the ledger
// counted, or by CUDA itself).
class memory_ledger {
public:
    bool reserve(uint64_t bytes);
    void unreserve(uint64_t bytes) noexcept;
    void bind(const void* p, uint64_t bytes);
    void release(const void* p) noexcept;

    void set_cap(uint64_t bytes) noexcept;
    void reset_peak() noexcept;
    gpu_memory_use use() const noexcept;
    // What the device reports, seen through the cap: free ≤ cap − used,
    // total ≤ cap (unchanged without a cap).
    void clip(uint64_t* free_bytes, uint64_t* total_bytes) const noexcept;

private:
    mutable std::mutex mu_;
    uint64_t used_ = 0, peak_ = 0, cap_ = 0;
    std::unordered_map<const void*, uint64_t> sizes_;
};

// The ledger of a CUDA device number (0 … max_ledger_devices − 1; others
// throw errc::invalid_argument).
constexpr int max_ledger_devices = 64;
memory_ledger& device_ledger(int device);

} // namespace cuzk::detail
