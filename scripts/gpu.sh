#!/usr/bin/env bash
# On a GPU machine: build the CUDA backend, run the `gpu` tests, the GPU and
# filecoin benchmarks and the PoRep end-to-end runs, writing every log to OUT.
#
#   scripts/gpu.sh OUT [STEP...]     steps: build tests bench porep porep32
#                                    (default: build tests bench porep)
#   scripts/gpu.sh --fetch-deps      on a machine with a Debian package registry:
#                                    download the build dependencies into .deps/,
#                                    for a GPU machine that cannot reach one
#
# Dependencies come from .deps/*.deb when present (unpacked under
# /tmp/cuzk-deps), else from the system. Each step has a time limit and
# writes its own log in OUT, so a run cut short still keeps what it did:
#   env.txt build.log tests.log bench.txt porep.txt porep32.txt porep32.csv
# Knobs: CUZK_GPU_BUILD (build folder, default build-gpu), CUZK_GPU_ARCH
# (CMAKE_CUDA_ARCHITECTURES, default 90), CUZK_BENCH_FILTER (benchmark filter).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pkgs=(libfmt-dev libfmt9 libmsgsl-dev catch2 libbenchmark-dev libbenchmark1debian libgmp-dev libgmp10
      libgmpxx4ldbl libssl-dev libssl3)
if [[ ${1:-} == --fetch-deps ]]; then
  mkdir -p "$root/.deps" && cd "$root/.deps" && apt-get download "${pkgs[@]}" && ls -l
  exit
fi
[[ $# -ge 1 ]] || { echo "usage: scripts/gpu.sh OUT [build|tests|bench|porep|porep32]..." >&2; exit 2; }
out=$1; shift
steps=${*:-build tests bench porep}
mkdir -p "$out"
b=${CUZK_GPU_BUILD:-$root/build-gpu}
bin=$b/bin/cuzk

if ls "$root"/.deps/*.deb >/dev/null 2>&1; then
  prefix=/tmp/cuzk-deps
  rm -rf "$prefix" && mkdir -p "$prefix"
  for d in "$root"/.deps/*.deb; do dpkg-deb -x "$d" "$prefix"; done
  export CMAKE_PREFIX_PATH="$prefix/usr" OPENSSL_ROOT_DIR="$prefix/usr"
  export LD_LIBRARY_PATH="$prefix/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
{
  date -u +%FT%TZ; uname -r; nproc; free -g | head -2
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  nvcc --version | tail -1; g++ --version | head -1
} >"$out/env.txt" 2>&1

step_build() {
  cmake -S "$root" -B "$b" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON \
        -DCMAKE_CUDA_ARCHITECTURES="${CUZK_GPU_ARCH:-90}" -DCUZK_BUILD_EXAMPLES=OFF &&
  cmake --build "$b" --parallel "$(nproc)" --target cuzk_cli test_gpu test_gpu_prove test_gpu_witness \
        test_gpu_setup test_gpu_poseidon test_engine bench_filecoin bench_gpu
}
step_tests() {
  local t rc=0
  for t in test_gpu test_gpu_prove test_gpu_witness test_gpu_setup test_gpu_poseidon test_engine; do
    echo "== $t"
    timeout 240 "$b/test/$t" "[gpu]" || rc=1
  done
  return $rc
}
step_bench() {
  "$b/bench/bench_filecoin" --benchmark_filter="${CUZK_BENCH_FILTER:-.}" --benchmark_counters_tabular=true
}
# seal -> c1 -> c2 (development key) -> verify, and a changed seed must fail.
porep_e2e() {
  local size=$1 id=$2 w=/tmp/cuzk-gpu/porep-$1
  local p=0101010101010101010101010101010101010101010101010101010101010101
  local t=0202020202020202020202020202020202020202020202020202020202020202
  local s=0303030303030303030303030303030303030303030303030303030303030303
  rm -rf "$w" && mkdir -p "$w" &&
  "$bin" porep seal --sector-size "$size" --porep-id "$id" --prover-id $p --sector-id 7 --ticket $t --out "$w/sector" &&
  "$bin" porep c1 "$w/sector" --seed $s --out "$w/c1.json" &&
  "$bin" porep c2 "$w/c1.json" --dev-key --vk "$w/key.vk" --out "$w/proof.bin" --waterfall &&
  "$bin" porep verify --vk "$w/key.vk" --proof "$w/proof.bin" --c1 "$w/c1.json" &&
  ! "$bin" porep verify --vk "$w/key.vk" --proof "$w/proof.bin" --porep-id "$id" --comm-r "$(jq_hex "$w" comm_r)" \
      --comm-d "$(jq_hex "$w" comm_d)" --prover-id $p --sector-id 7 --ticket $t \
      --seed 0404040404040404040404040404040404040404040404040404040404040404
}
jq_hex() { python3 -c "import json,sys; print(json.load(open('$1/sector/sector.json'))['$2'])"; }
step_porep() { porep_e2e 2KiB 5 && porep_e2e 8MiB 6; }
step_porep32() {
  local w=/tmp/cuzk-gpu/porep-32g
  mkdir -p "$w" &&
  "$bin" porep c1 --synthetic --sector-size 32GiB --out "$w/c1.json" &&
  "$bin" porep c2 "$w/c1.json" --dev-key --vk "$w/key.vk" --out "$w/proof.bin" --synth-workers "${CUZK_SYNTH_WORKERS:-4}" \
        --timeline "$out/porep32.csv" --waterfall &&
  "$bin" porep verify --vk "$w/key.vk" --proof "$w/proof.bin" --c1 "$w/c1.json"
}

status=0
for s in $steps; do
  log=$out/$s.txt; [[ $s == build || $s == tests ]] && log=$out/$s.log
  t0=$(date +%s)
  "step_$s" >"$log" 2>&1; rc=$?
  echo "gpu.sh: $s rc=$rc in $(( $(date +%s) - t0 )) s"
  tail -n 5 "$log"
  [[ $rc -ne 0 ]] && status=1
  [[ $s == build && $rc -ne 0 ]] && break
done
exit $status
