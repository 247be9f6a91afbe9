#!/usr/bin/env bash
# Profiles the heavy kernels with Nsight Compute on the GPU machine: the NTT
# passes (bench_gpu bm_ntt) and the kernels of one G1 MSM (bm_msm), each with
# its duration, throughput, occupancy and warp stall reasons. Builds
# bench_gpu first (as scripts/gpu-run.sh does: dependencies from .deps).
#
#   scripts/gpu-profile.sh [NTT_LOG] [MSM_LOG]      defaults 24 and 24
#
# Output in $OUT (or build-gpu/out): ncu_ntt.txt, ncu_msm.txt (ncu's text
# report, clocks left alone: --clock-control none).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ntt_log=${1:-24}
msm_log=${2:-24}
bdir=${CUZK_GPU_BUILD:-$root/build-gpu}
out=${OUT:-$bdir/out}
mkdir -p "$out"

if [[ -d $root/.deps ]] && ls "$root"/.deps/*.deb >/dev/null 2>&1; then
  prefix=/tmp/cuzk-deps
  rm -rf "$prefix" && mkdir -p "$prefix"
  for d in "$root"/.deps/*.deb; do dpkg-deb -x "$d" "$prefix"; done
  export CMAKE_PREFIX_PATH="$prefix/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
  export LD_LIBRARY_PATH="$prefix/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
if [[ ! -x $bdir/bench/bench_gpu ]]; then
  cmake -S "$root" -B "$bdir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON \
        -DCMAKE_CUDA_ARCHITECTURES="${CUZK_GPU_ARCH:-90}" -DCUZK_BUILD_TOOLS=OFF >"$out/profile_build.log" 2>&1 &&
    cmake --build "$bdir" --parallel "$(nproc)" --target bench_gpu >>"$out/profile_build.log" 2>&1 ||
    { echo "gpu-profile: build failed"; tail -30 "$out/profile_build.log"; exit 1; }
fi
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[[ -n $ncu ]] || { echo "gpu-profile: no ncu"; exit 1; }
sections=(--section SpeedOfLight --section Occupancy --section LaunchStats --section ComputeWorkloadAnalysis
          --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats)
# One forward NTT after the warm-up: its passes (and the twiddle build of the warm-up).
timeout 240 "$ncu" --clock-control none "${sections[@]}" --launch-count 12 \
  "$bdir/bench/bench_gpu" --benchmark_filter="bm_ntt/log_n:${ntt_log}/kind:0" \
  >"$out/ncu_ntt.txt" 2>&1
echo "gpu-profile: ntt rc=$? ($(grep -c 'Duration' "$out/ncu_ntt.txt") kernels)"
# The warm-up MSM's kernels (digits, sort, runs, compaction, reduction).
timeout 300 "$ncu" --clock-control none "${sections[@]}" --launch-count 60 \
  "$bdir/bench/bench_gpu" --benchmark_filter="bm_msm<g1_affine>/log_n:${msm_log}/c:0" \
  >"$out/ncu_msm.txt" 2>&1
echo "gpu-profile: msm rc=$? ($(grep -c 'Duration' "$out/ncu_msm.txt") kernels)"
grep -E "^  [a-zA-Z_].*\(|Duration|Compute \(SM\) Throughput|Memory Throughput|Achieved Occupancy|Registers Per" \
  "$out/ncu_ntt.txt" | head -80
