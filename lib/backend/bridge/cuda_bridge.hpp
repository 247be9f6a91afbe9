// cuzk — internal: the entry points that the CUDA translation units
// (kernels/*.cu) implement and lib/backend/cuda.cpp calls. Not part of the
// public API; include cuzk/backend/cuda.hpp instead. Plain C++, no CUDA type:
// device memory travels as pointers to the host types (the device types are
// bitwise identical), timers as typed handles (bridge/handles.hpp), and every
// function throws cuzk::error(errc::device, …) with CUDA's message when a
// CUDA call fails.
//
// Only declared when the library is built with CUDA (CUZK_WITH_CUDA); the
// definitions live in the cuzk_kernels library.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include "backend/bridge/handles.hpp"
#include "cuzk/backend/cuda.hpp"
#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/bn254.hpp"
#include "cuzk/ntt/ntt.hpp"

namespace cuzk::cuda_bridge {

// Number of usable devices, or −1 with *why set (no driver, no device, …).
int device_count(std::string* why);
// The calling thread's device (a thread-local choice, as CUDA's own): every
// later call of this bridge, prove_bridge and witness_bridge on this thread
// runs on it, with that device's stream and caches. Device 0 until chosen.
// select_device returns the previous choice; errc::invalid_argument for a
// device that does not exist.
int select_device(int device);
int current_device() noexcept;
// The calling thread's lane on its device (a thread-local choice too): lane
// 0 (the default) and lane 1 each have their own stream and scratch caches,
// so two threads on different lanes can run independent work on one device
// at the same time. Work on different lanes is not ordered except by events
// (prove_bridge::stream_wait). select_lane returns the previous choice;
// errc::invalid_argument for a lane other than 0 and 1. release_cache frees
// the caches of every lane of the current device.
int select_lane(int lane);
int current_lane() noexcept;
// The current device's name, capability, memory and versions.
std::string device_info();

// Device memory on the current device; release frees it on `device` (the
// device current when it was allocated).
void* alloc(size_t bytes);
void release(void* p, int device) noexcept;
void copy_to_device(void* dst, const void* src, size_t bytes);
void copy_to_host(void* dst, const void* src, size_t bytes);
void synchronize();
void release_cache();

bridge::timer timer_create();
void timer_destroy(bridge::timer t) noexcept;
void timer_start(bridge::timer t);
double timer_stop_ms(bridge::timer t);   // synchronises on the stop event

// out[i] = a[i] op b[i] over `field` (b is read for sqr and neg too: pass a).
// Host arrays of n elements of that field.
void field_apply(bridge::field field, gpu_field_op op, const void* a, const void* b, void* out, size_t n);
// Runs blocks·256 threads, each `iters` times 4 independent dependent
// multiplications over Fp or Fr (fp2 counts as Fr); returns device
// milliseconds and sets *muls.
double field_mul_bench(bridge::field field, unsigned blocks, unsigned iters, double* muls);

// NTT of data[0 … 2^log_n) in device memory. omega: the primitive 2^log_n-th
// root of the convention conv (its twiddle table is cached under
// (log_n, conv)). coset: scale by shift^i before (forward) or by
// shift^−i after (inverse). The inverse includes the factor 1/n. The result
// is multiplied by scale (joined to the power table or the 1/n; a plain
// forward transform with scale != 1 multiplies on its last store).
// in_mul, out_sub (device arrays of 2^log_n, or null): data ∘ in_mul is
// transformed instead of data, and out_sub is subtracted from the result
// (after the scalings), on the passes that read and write the data anyway;
// neither may alias data.
// low_memory: the low-memory schedule (kernels/ntt_device.cuh): in place,
// no scratch array, stage tables for the first 2^20 entries only (32 MiB
// instead of 32·n bytes); the same results.
void ntt(fr* data, unsigned log_n, root_convention conv, const fr& omega, bool inverse, bool coset, const fr& shift,
         const fr& scale, const fr* in_mul = nullptr, const fr* out_sub = nullptr, bool low_memory = false);
void ntt(bn254::fr* data, unsigned log_n, root_convention conv, const bn254::fr& omega, bool inverse, bool coset,
         const bn254::fr& shift, const bn254::fr& scale, const bn254::fr* in_mul = nullptr,
         const bn254::fr* out_sub = nullptr, bool low_memory = false);

// Largest bit length of the n scalars in device memory (0 when all are zero).
unsigned scalar_bits(const fr::repr* scalars, size_t n);
// A copy back to the host on the host's steady clock: from the device's end
// of the work before it (a CUDA event mapped through an anchor) to the host
// holding the data.
struct copy_span {
    std::chrono::steady_clock::time_point begin{}, end{};
};

// Window sums S_0 … S_{windows−1} of the signed-digit Pippenger with window
// c (see kernels/msm_device.cuh); the MSM is Σ_w 2^(wc)·S_w. Points and
// scalars are in device memory, window_sums in host memory. With d2h set,
// the window sums' copy back is timed into it; with affine, the buckets are
// filled by the batch-affine rounds first (kernels/msm_affine.cuh).
void msm_windows(const g1_affine* points, const fr::repr* scalars, size_t n, unsigned c, unsigned windows,
                 g1_xyzz* window_sums, copy_span* d2h = nullptr, bool affine = false);
void msm_windows(const g2_affine* points, const fr::repr* scalars, size_t n, unsigned c, unsigned windows,
                 g2_xyzz* window_sums, copy_span* d2h = nullptr, bool affine = false);
// Shifted copies of n G1 points in device memory (kernels/msm_device.cuh,
// msm_table_build): copy k = 2^(k·dbls)·P_i at table[(k − 1)·n + i] for
// 0 < k < copies. Synchronous.
void msm_table_build(const g1_affine* points, size_t n, unsigned dbls, unsigned copies, g1_affine* table);
// The points and their copies as msm_rows reads them: copy 0 = points,
// copies 1 … in `table`, `stride` rows of buckets (window w = k·stride + r
// takes copy k into row r), entry values carrying the copy from bit `shift`.
struct msm_table_view {
    const g1_affine* points = nullptr;
    const g1_affine* table = nullptr;
    unsigned stride = 0, shift = 31;
};
// Row sums S_0 … S_{stride−1} of the MSM over the copies, window c, `windows`
// windows (<= copies·stride); the MSM is Σ_r 2^(rc)·S_r.
void msm_rows(const msm_table_view& t, const fr::repr* scalars, size_t n, unsigned c, unsigned windows,
              g1_xyzz* row_sums, copy_span* d2h = nullptr);
// The same over BN254 (kernels/msm_bn254.cu); its scalars are 256-bit words too.
void msm_windows(const bn254::g1_affine* points, const fr::repr* scalars, size_t n, unsigned c, unsigned windows,
                 bn254::g1_xyzz* window_sums, copy_span* d2h = nullptr, bool affine = false);
void msm_windows(const bn254::g2_affine* points, const fr::repr* scalars, size_t n, unsigned c, unsigned windows,
                 bn254::g2_xyzz* window_sums, copy_span* d2h = nullptr, bool affine = false);

} // namespace cuzk::cuda_bridge
