#!/usr/bin/env bash
# Runs GPU tests and benchmarks from binaries built HERE (a CUDA build for
# sm_90, e.g. `cmake -B build -DCUZK_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90`)
# on the GPU machine, when device time is too short to build there. The
# binaries need only libfmt and Google Benchmark beside the system
# libraries (CUDA's runtime is linked statically): those come from .deps
# (scripts/gpu-run.sh --fetch-deps). Carry .deps and the binaries named below
# (run's carry: .deps, build/bench/bench_gpu, build/bench/bench_porep,
# build/test/test_gpu, build/test/test_gpu_prove, build/test/test_engine, …).
#
#   CUZK_COMMIT=<hash> scripts/gpu-prebuilt.sh [BUILD]     BUILD defaults to build
#
# Steps, each with its own time limit, most important first; every step's
# output goes to $OUT as it runs, so a run cut short still returns what it did:
#   ntt.txt      bench_gpu: NTT 2^24 and 2^27 (forward, coset inverse)
#   porep.txt    bench_porep: the 2^27 PoRep-shaped partition, aux as host values
#                and packed beforehand (bm_porep_gpu_packed)
#   tests.txt    the [gpu] cases of test_gpu, test_gpu_prove, test_gpu_witness,
#                test_gpu_setup and test_engine (those carried)
#   msm.txt      bench_gpu: G1 MSM 2^24
# At most 8 files come back from a device call: keep $OUT to these.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
b=${1:-build}
[[ $b = /* ]] || b=$root/$b
out=${OUT:-$b/out}
mkdir -p "$out"
if [[ -d $root/.deps ]]; then
  prefix=/tmp/cuzk-deps
  rm -rf "$prefix" && mkdir -p "$prefix"
  for d in "$root"/.deps/*.deb; do dpkg-deb -x "$d" "$prefix"; done
  export LD_LIBRARY_PATH="$prefix/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
{
  echo "== date: $(date -u +%FT%TZ)"
  # The device copy's .git need not be the working tree's: pass CUZK_COMMIT from here.
  echo "== commit: ${CUZK_COMMIT:-unknown (set CUZK_COMMIT)}"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv 2>&1
  nproc
} >"$out/env.txt" 2>&1
cat "$out/env.txt"
step() {   # step NAME LIMIT_S command...
  local name=$1 lim=$2
  shift 2
  local t0=$(date +%s)
  timeout "$lim" "$@" >"$out/$name.txt" 2>&1
  echo "gpu-prebuilt: $name rc=$? in $(( $(date +%s) - t0 )) s"
}
step ntt 30 "$b/bench/bench_gpu" --benchmark_filter='bm_ntt/log_n:(24|27)/kind:(0|3)' --benchmark_counters_tabular=true
step porep 125 "$b/bench/bench_porep" --benchmark_filter='bm_porep_gpu.*/27' --benchmark_counters_tabular=true
# Every [gpu] test program that was carried, into one file (at most 8 files come back).
run_tests() {
  local t
  for t in test_gpu test_gpu_prove test_gpu_witness test_gpu_setup test_engine; do
    [[ -x $b/test/$t ]] || continue
    echo "== $t"
    timeout 60 "$b/test/$t" '[gpu]' --durations yes 2>&1
    echo "== $t rc=$?"
  done
}
t0=$(date +%s)
run_tests >"$out/tests.txt" 2>&1
echo "gpu-prebuilt: tests in $(( $(date +%s) - t0 )) s: $(grep -cE '^== test_[a-z_]+ rc=0$' "$out/tests.txt") programs rc=0"
step msm 15 "$b/bench/bench_gpu" --benchmark_filter='bm_msm<g1_affine>/log_n:24/' --benchmark_counters_tabular=true
grep -hE "^bm_|passed|failed|FAILED|verifies|error" "$out"/*.txt | cut -c1-220
