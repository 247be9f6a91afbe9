// cuzk — build-wide macros shared by host and device code.
//
// This header is public and must stay includable by a plain C++ compiler: it
// never includes a CUDA header. Under nvcc the `__host__ __device__` keywords
// are built in, so annotating the arithmetic needs nothing from the toolkit.
#pragma once

#if defined(__CUDACC__)
#define CUZK_HD __host__ __device__
#define CUZK_INLINE __host__ __device__ __forceinline__
#else
#define CUZK_HD
#define CUZK_INLINE inline __attribute__((always_inline))
#endif

#if defined(__CUDA_ARCH__)
#define CUZK_DEVICE_PASS 1
#else
#define CUZK_DEVICE_PASS 0
#endif

// Full unrolling of the fixed-size limb loops.
#if defined(__CUDACC__)
#define CUZK_UNROLL _Pragma("unroll")
#else
#define CUZK_UNROLL _Pragma("GCC unroll 16")
#endif
