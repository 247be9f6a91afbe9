#!/usr/bin/env bash
# Builds the CUDA backend for sm_90 (H100/H200), runs the `gpu`-labelled tests
# and the GPU benchmarks, and writes logs, the benchmark JSON and a summary
# with the floors and peers of PERFORMANCE.md into $OUT (or <build>/out).
#
#   scripts/gpu-run.sh               on the GPU machine; about 4–6 minutes, capped at ~9
#   scripts/gpu-run.sh --tests-only  build and tests, no benchmarks
#   scripts/gpu-run.sh --fetch-deps  HERE, before a device run: downloads the Debian
#                                    packages of the build dependencies (fmt, GSL,
#                                    Catch2, Google Benchmark, GMP; ~2.5 MB) into
#                                    .deps/ (git-ignored through .git/info/exclude),
#                                    to be carried to the device machine, which
#                                    cannot reach a registry.
#
# On the device machine the dependencies come from an unpacked prefix in
# .devdeps/root (carry it), else from .deps/*.deb unpacked under /tmp/cuzk-deps
# (carry .deps), else from the system. The Debian 12 libraries need glibc >= 2.33
# and a libstdc++ of GCC >= 12 there. Environment knobs:
#   OUT               output folder (default <build>/out)
#   CUZK_GPU_BUILD    build folder (default build-gpu)
#   CUZK_GPU_ARCH     CMAKE_CUDA_ARCHITECTURES (default 90)
#   CUZK_BENCH_FILTER Google Benchmark filter (default: all)
set -uo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-run}

deps_pkgs=(libfmt-dev libfmt9 libmsgsl-dev catch2 libbenchmark-dev libbenchmark1debian libgmp-dev libgmp10
           libgmpxx4ldbl)

if [[ $mode == --fetch-deps ]]; then
  set -e
  mkdir -p "$root/.deps"
  (cd "$root/.deps" && apt-get download "${deps_pkgs[@]}")
  if [[ -d $root/.git ]] && ! grep -qx '/.deps/' "$root/.git/info/exclude" 2>/dev/null; then
    mkdir -p "$root/.git/info"
    echo '/.deps/' >>"$root/.git/info/exclude"
  fi
  ls -l "$root/.deps"
  echo "gpu-run: carry .deps to the device machine (run's carry: [\".deps\"])"
  exit 0
fi

t0=$(date +%s)
deadline=$((t0 + ${CUZK_GPU_DEADLINE:-540}))   # keep the whole run inside one 10-minute device call
left() { echo $((deadline - $(date +%s))); }

bdir=${CUZK_GPU_BUILD:-$root/build-gpu}
out=${OUT:-$bdir/out}
mkdir -p "$out"
status=0

# ---- environment ---------------------------------------------------------------
{
  echo "== date: $(date -u +%FT%TZ)"
  echo "== commit: $(git -C "$root" rev-parse HEAD 2>/dev/null || echo unknown) $(git -C "$root" status --porcelain 2>/dev/null | wc -l) changed files"
  echo "== uname: $(uname -a)"
  echo "== nproc: $(nproc)"
  nvidia-smi 2>&1 || echo "nvidia-smi failed"
  nvcc --version 2>&1 | tail -2
  g++ --version 2>&1 | head -1
  cmake --version 2>&1 | head -1
  ldd --version 2>&1 | head -1
} >"$out/env.txt" 2>&1
cat "$out/env.txt"

# Dependencies: an unpacked prefix in .devdeps/root (usr/…), else the packages
# of .deps/*.deb, else the system's.
prefix=""
if [[ -d $root/.devdeps/root/usr ]]; then
  prefix=$root/.devdeps/root
  echo "gpu-run: dependencies from .devdeps/root"
elif [[ -d $root/.deps ]] && ls "$root"/.deps/*.deb >/dev/null 2>&1; then
  prefix=/tmp/cuzk-deps
  rm -rf "$prefix" && mkdir -p "$prefix"
  for d in "$root"/.deps/*.deb; do dpkg-deb -x "$d" "$prefix" || { echo "gpu-run: cannot unpack $d"; exit 2; }; done
  echo "gpu-run: dependencies from .deps (unpacked in $prefix)"
fi
if [[ -n $prefix ]]; then
  export CMAKE_PREFIX_PATH="$prefix/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
  export LD_LIBRARY_PATH="$prefix/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi

# ---- build -----------------------------------------------------------------------
build_start=$(date +%s)
{
  cmake -S "$root" -B "$bdir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON \
        -DCMAKE_CUDA_ARCHITECTURES="${CUZK_GPU_ARCH:-90}" -DCUZK_BUILD_TOOLS=OFF &&
  timeout "$(left)" cmake --build "$bdir" --parallel "$(nproc)" --target test_gpu bench_gpu
} >"$out/build.log" 2>&1
rc=$?
echo "gpu-run: build rc=$rc in $(( $(date +%s) - build_start )) s (log: build.log)"
grep -E "error|FAILED" "$out/build.log" | head -20
if [[ $rc -ne 0 ]]; then
  tail -40 "$out/build.log"
  exit 1
fi

# ---- tests -------------------------------------------------------------------------
test_start=$(date +%s)
tl=$(left); (( tl > 300 )) && tl=300
timeout "$tl" ctest --test-dir "$bdir" -L gpu --output-on-failure --timeout 240 >"$out/ctest.log" 2>&1
rc=$?
echo "gpu-run: gpu tests rc=$rc in $(( $(date +%s) - test_start )) s (log: ctest.log)"
grep -E "tests passed|tests failed|Failed|\*\*\*|Skipped" "$out/ctest.log" | head -30
[[ $rc -ne 0 ]] && status=1
# the per-case detail of the test program itself (device line, seed)
timeout 30 "$bdir/test/test_gpu" "gpu: the device is described" 2>&1 | head -5

[[ $mode == --tests-only ]] && exit $status

# ---- benchmarks ------------------------------------------------------------------------
bench_start=$(date +%s)
bl=$(left)
if (( bl < 30 )); then
  echo "gpu-run: no time left for the benchmarks"
  exit $status
fi
timeout "$bl" "$bdir/bench/bench_gpu" --benchmark_filter="${CUZK_BENCH_FILTER:-.}" \
  --benchmark_out="$out/bench_gpu.json" --benchmark_out_format=json \
  --benchmark_counters_tabular=true >"$out/bench_gpu.txt" 2>&1
rc=$?
echo "gpu-run: benchmarks rc=$rc in $(( $(date +%s) - bench_start )) s (log: bench_gpu.txt)"
[[ $rc -ne 0 ]] && { status=1; tail -20 "$out/bench_gpu.txt"; }

# ---- summary ------------------------------------------------------------------------------
python3 - "$out/bench_gpu.json" >"$out/summary.txt" 2>&1 <<'EOF'
import json, sys
try:
    data = json.load(open(sys.argv[1]))
except Exception as e:
    print("no benchmark JSON:", e); sys.exit(0)
ctx = data.get("context", {})
print(f"bench_gpu on {ctx.get('host_name','?')}, {ctx.get('date','?')}")
print("times are medians of the timed iterations (device time, CUDA events), data on the device")
print("model = counted multiplications / PTX-chain rate of PERFORMANCE.md (Fp 17.7 G/s, Fr 37.8 G/s)")
print()
hdr = f"{'benchmark':<44} {'median ms':>10} {'min ms':>9} {'model ms':>9} {'x model':>8} {'peer ms':>8} {'x peer':>7} {'floor ms':>11} {'x floor':>11}"
print(hdr); print("-" * len(hdr))
for b in data.get("benchmarks", []):
    name = b["name"].replace("/iterations:", "/it:").replace("/manual_time", "")
    if b.get("error_occurred"):
        print(f"{name:<44} ERROR {b.get('error_message','')}"); continue
    if "Gmul_per_s" in b:
        print(f"{name:<44} {b['Gmul_per_s']:>8.2f} G mul/s   peer (PERFORMANCE.md) {b['peer_Gmul_per_s']:.1f} G/s"
              f"  ratio {b['Gmul_per_s']/b['peer_Gmul_per_s']:.2f}   (median kernel {b.get('median_ms',0):.2f} ms)")
        continue
    med = b.get("median_ms", 0.0); mn = b.get("min_ms", 0.0); model = b.get("model_ms", 0.0)
    peer = b.get("peer_ms", 0.0); flo = b.get("floor_lo_ms", 0.0); fhi = b.get("floor_hi_ms", 0.0)
    xm = f"{med/model:.2f}" if model else "-"
    ps = f"{peer:.1f}" if peer else "-"; xp = f"{med/peer:.2f}" if peer else "-"
    fs = f"{flo:.0f}-{fhi:.0f}" if flo else "-"; xf = f"{med/fhi:.2f}-{med/flo:.2f}" if flo else "-"
    extra = f"  c={int(b['window'])}" if "window" in b else ""
    print(f"{name:<44} {med:>10.3f} {mn:>9.3f} {model:>9.3f} {xm:>8} {ps:>8} {xp:>7} {fs:>11} {xf:>11}{extra}")
EOF
cat "$out/summary.txt"
echo "gpu-run: done in $(( $(date +%s) - t0 )) s, status $status; files in $out"
exit $status
