// cuzk kernels — CUB's radix sort and prefix sum, instantiated once here for
// the MSM (kernels/msm_device.cuh); the other translation units call the two
// functions below, so CUB's templates are compiled a single time.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include "cuda_backend.cuh"

namespace cuzk::dev {

namespace {

void* sort_temp(context& c, size_t bytes)
{
    if (c.sort_temp_bytes < bytes) {
        if (c.sort_temp) {
            CUZK_CUDA_CHECK(cudaStreamSynchronize(c.stream));
            CUZK_CUDA_CHECK(scratch_free(c.sort_temp));
            c.sort_temp = nullptr;
            c.sort_temp_bytes = 0;
        }
        c.sort_temp = scratch_malloc(bytes, "sort scratch");
        c.sort_temp_bytes = bytes;
    }
    return c.sort_temp;
}

} // namespace

// Onesweep radix sort (stable). n < 2^31 is guaranteed by the caller (the
// MSM caps a window group at 2^30 entries).
void cuda_sort_pairs(const uint32_t* kin, uint32_t* kout, const uint32_t* vin, uint32_t* vout, size_t n, int end_bit)
{
    context& c = ctx();
    if (n == 0) return;
    if (end_bit < 1) end_bit = 1;
    size_t bytes = 0;
    CUZK_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, kin, kout, vin, vout, int(n), 0, end_bit,
                                                    c.stream));
    void* tmp = sort_temp(c, bytes);
    CUZK_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(tmp, bytes, kin, kout, vin, vout, int(n), 0, end_bit, c.stream));
}

void cuda_exclusive_sum(const uint32_t* in, uint32_t* out, size_t n)
{
    context& c = ctx();
    if (n == 0) return;
    size_t bytes = 0;
    CUZK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, int(n), c.stream));
    void* tmp = sort_temp(c, bytes);
    CUZK_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(tmp, bytes, in, out, int(n), c.stream));
}

} // namespace cuzk::dev
