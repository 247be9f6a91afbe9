// cuzk — internal: the handles and selectors that cross the bridge between
// the host library (lib/backend/*.cpp) and the CUDA translation units
// (kernels/*.cu). Plain C++, no CUDA type. Every handle is a pointer to a
// struct that is incomplete on the host side, so a stream cannot be passed
// where an event is expected and nothing can be dereferenced by mistake. The
// kernels either define the struct (the timer, the fixed-base table) or map
// the pointer onto CUDA's own handle in one place (streams and events:
// kernels/cuda_backend.cuh, cuda_handle / bridge_handle).
#pragma once

#include <cstdint>

namespace cuzk::bridge {

// A CUDA stream. In the calls that take one, nullptr stands for the backend
// stream of the calling thread's device (the stream of cuda_bridge).
struct stream_handle;
using stream = stream_handle*;

// A CUDA event with timing.
struct event_handle;
using event = event_handle*;

// Two timing events, start and stop (cuda_bridge::timer_*; defined in
// kernels/backend.cu).
struct timer_handle;
using timer = timer_handle*;

// A fixed-base window table on the device with its chunk buffers
// (setup_bridge; defined in kernels/fixed_base.cu).
struct fixed_base_handle;
using fixed_base_table = fixed_base_handle*;

// The field of cuda_bridge::field_apply and field_mul_bench.
enum class field : uint8_t { fp, fr, fp2 };

} // namespace cuzk::bridge
