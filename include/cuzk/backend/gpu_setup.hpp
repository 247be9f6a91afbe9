// cuzk — the development Groth16 setup (groth16/setup.hpp, bellperson
// convention) with its point half on the GPU, for keys of PoRep size
// (a 2^27 domain: ~45 GB of points) that the CPU's fixed-base
// multiplication would take hours for.
//
// NOT A TRUSTED CEREMONY, like groth16::setup_bellperson.
//
// Work split: the scalar half (groth16::bellperson_setup_scalars from the
// PCE, multi-threaded on the host; its cost is written there) and then every
// query point k·G on the device (kernels/fixed_base.cuh): a window table of
// the generator (w-bit windows, built on the host, kept in device memory),
// one thread per scalar summing W − 1 table points in XYZZ form, then a batch
// conversion to affine on the device, chunk by chunk, each chunk's points
// downloaded into the host key. Device memory: the tables plus one chunk's
// buffers (G1 320 B and G2 608 B per point of a chunk: 1.3 / 2.5 GB at the
// default 2^22), whatever the circuit size. Host memory: the key, the
// scalars (freed query by query) and one H chunk of scalars.
//
// The key is the one groth16::setup_bellperson makes for the same toxic
// waste, point for point (test_gpu_setup checks it).
//
// Measured on an H200 box (16 cores), synthetic PoRep-shaped circuit,
// default options (bench_porep prints these):
//   2^22: 2.6 s  (scalars 0.6 s, tables 0.7 s, points 1.3 s, kernels 0.2 s)
//   2^24: 7.1 s  (scalars 2.3 s, tables 0.6 s, points 4.3 s, kernels 0.7 s)
//   2^27: 53.3 s (scalars 18.2 s, tables 0.7 s, points 34.3 s, kernels 5.2 s;
//         438 M G1 and 34 M G2 points; host peak ~59 GB with the circuit)
// The point half is bound by the host side of each chunk (H scalars,
// pageable copies of ~45 GB down), not by the kernels; pinned double
// buffers would overlap them (not done).
//
// Plain C++; exists in every build. Built without CUDA it throws
// errc::unsupported; without a usable device errc::device; a failed device
// allocation errc::out_of_memory.
#pragma once

#include <cstdint>
#include <memory>

#include "cuzk/groth16/setup.hpp"
#include "cuzk/groth16/types.hpp"
#include "cuzk/r1cs/pce.hpp"

namespace cuzk {

struct gpu_setup_options {
    unsigned threads = 0;          // host threads (scalars, tables); 0 = all
    unsigned window_bits_g1 = 0;   // 1 … 20; 0 = 16 from 2^20 points on, else 8
    unsigned window_bits_g2 = 0;   // likewise, counted over the G2 points
    uint64_t chunk_points = 0;     // points per device chunk; 0 = 2^22
};

struct gpu_setup_timings {
    uint64_t scalars_ns = 0;   // the host scalar half
    uint64_t tables_ns = 0;    // window tables: host build and upload
    uint64_t points_ns = 0;    // the point half, wall (transfers included, tables excluded)
    double kernel_ms = 0;      // device time of the point kernels (CUDA events)
    uint64_t total_ns = 0;
};

// The bellperson-convention key of a PCE's circuit for the given toxic waste,
// and (if density_out) its query densities. Throws errc::invalid_argument for
// a zero toxic-waste scalar or window bits out of range.
groth16::proving_key gpu_setup_bellperson(const r1cs::pce& p, const groth16::toxic_waste& waste,
                                          groth16::query_density* density_out = nullptr,
                                          const gpu_setup_options& opt = {}, gpu_setup_timings* timings = nullptr);

// The device fixed-base backend alone (for groth16::bellperson_key_from_scalars
// or tests). expected_g1/expected_g2: how many points each group will get,
// for the automatic window choice. Tables are built on first use of a group.
std::unique_ptr<groth16::fixed_base_backend> gpu_fixed_base(const gpu_setup_options& opt = {},
                                                            uint64_t expected_g1 = 0, uint64_t expected_g2 = 0);

} // namespace cuzk
