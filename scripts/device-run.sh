#!/usr/bin/env bash
# Build, test and benchmark the CUDA backend on a GPU machine that has no
# package registry: the Debian development packages travel extracted under
# .devdeps/root (made with `apt-get download` + `dpkg -x`, not committed).
# Results go to $OUT (default: ./device-out).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$root/device-out}
mkdir -p "$OUT"
D=$root/.devdeps/root/usr
L=$D/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$L:${LD_LIBRARY_PATH:-}
{ nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv; nvcc --version | tail -2; c++ --version | head -1; nproc; } >"$OUT/env.txt" 2>&1
t0=$(date +%s)
cmake -S "$root" -B "$root/build-gpu" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON \
  -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_PREFIX_PATH="$D" -Dfmt_DIR="$L/cmake/fmt" \
  -Dbenchmark_DIR="$L/cmake/benchmark" -DMicrosoft.GSL_DIR="$D/share/cmake/Microsoft.GSL" \
  -DCatch2_DIR="$D/lib/cmake/Catch2" -DGMP_LIBRARY="$L/libgmp.a" -DGMP_INCLUDE_DIR="$D/include/x86_64-linux-gnu" \
  >"$OUT/configure.log" 2>&1 || { echo "configure failed"; tail -30 "$OUT/configure.log"; exit 1; }
cmake --build "$root/build-gpu" --parallel "$(nproc)" --target test_gpu >"$OUT/build.log" 2>&1 ||
  { echo "build failed"; grep -E "error|FAILED" "$OUT/build.log" | head -40; exit 1; }
cmake --build "$root/build-gpu" --parallel "$(nproc)" --target bench_gpu >>"$OUT/build.log" 2>&1 ||
  { echo "bench_gpu build failed"; grep -E "error|FAILED" "$OUT/build.log" | tail -20; }
echo "build: $(( $(date +%s) - t0 )) s"
cd "$root/build-gpu"
timeout 300 ./test/test_gpu --durations yes >"$OUT/test_gpu.log" 2>&1; echo "test_gpu exit $?"
tail -5 "$OUT/test_gpu.log"
grep -E "FAILED|SKIPPED|passed|failed" "$OUT/test_gpu.log" | head -20
timeout 240 ./bench/bench_gpu --benchmark_out="$OUT/bench_gpu.json" --benchmark_out_format=json >"$OUT/bench_gpu.txt" 2>&1
echo "bench_gpu exit $?"
grep -vE "^\s*$" "$OUT/bench_gpu.txt" | tail -40
