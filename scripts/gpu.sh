#!/usr/bin/env bash
# On a machine with an NVIDIA GPU: build the CUDA backend, run the `gpu`
# tests, the benchmarks, the PoRep end-to-end runs and the kernel profile,
# writing every log to the folder OUT.
#
#   scripts/gpu.sh OUT [STEP...]     (default steps: build tests bench porep)
#   scripts/gpu.sh --fetch-deps      download the build dependencies as Debian
#                                    packages into .deps/ (for a GPU machine
#                                    without a package registry)
#
# Steps, each writing its own log in OUT (a run cut short keeps what it did):
#   build      configure and build the CUDA targets below      build.log
#   tests      the [gpu] cases of each GPU test program         tests.log
#   bench      bench_filecoin: Poseidon, SHA-256, labels,       bench.txt
#              the PoRep partition witness
#   kernels    bench_gpu and bench_gpu_witness: field rates,    kernels.txt, kernels.json,
#              NTT, G1/G2 MSM, PCE evaluation, 0/1 batch        witness.txt, summary.txt
#              addition; summary.txt sets each against the
#              peers and floors of docs/PERFORMANCE.md
#   partition  bench_porep: the PoRep-shaped partition          partition.txt
#              (2^22, 2^24, 2^27) with every step on the device
#   porep      seal, C1, C2 (development key) and verify of a   porep.txt
#              2 KiB and an 8 MiB sector; a changed seed must fail
#   porep32    C2 of a synthetic 32 GiB C1 output, verified     porep32.txt, porep32.csv
#              (CUZK_C2_REPEAT proofs with one key, default 1)
#   post32     WindowPoSt 32 GiB V1_2 (2349 made-up sectors,    post32.txt, post32.csv
#              125 M constraints) with a development key made
#              on the GPU: CUZK_POST_REPEAT proofs (default 3),
#              each verified; then the PoSt end-to-end run on
#              sealed 2 KiB sectors on the GPU
#   update32   SnapDeals 32 GiB (a made-up update: 16         update32.txt, update32.csv
#              partitions of 81 M constraints) with a
#              development key made on the GPU:
#              CUZK_UPDATE_REPEAT proofs (default 2), verified;
#              then the update end-to-end run on a sealed
#              2 KiB sector on the GPU
#   register   bench_gpu_key: a key registered from a mapped    register.txt
#              .params file, its points decoded on the device
#              and on the host
#   params32   a 32 GiB development key written as .params      params32.txt, params32-rss.txt
#              (~47 GB), then C2 from that file (the key streams
#              from the mapping to the device), verified; the
#              process's peak anonymous and file-backed memory;
#              with CUZK_PARAMS_COMPARE=1 the same C2 again with
#              the points decoded on the host (--host-decode)
#   cards      the 32 GiB C2 (3 proofs at once, from a .params  cards.txt, cards-rss.txt,
#              key written once) under each device memory       cards-BUDGET.csv
#              budget of CUZK_CARDS: the cards storage
#              providers own, modelled on this one
#   daemon     the 32 GiB C2 through `cuzk serve` (a unix       daemon.txt
#              socket; the cards step's key as the param
#              cache's cuzk-porep-32g.params): GetStatus, the
#              key preloaded, CUZK_DAEMON_PROOFS proofs (default
#              3) from as many `cuzk client` threads at once,
#              then the same C1 with `porep c2 --concurrent`
#              straight on the engine, for the daemon's cost
#   scaling    the 32 GiB-shaped C2 on the first GPU, then on   scaling.txt, scaling-1.csv,
#              every GPU, back to back (3 proofs each with one  scaling-N.csv
#              key; the last two timed): seconds per proof,
#              per-device utilisation (waterfall), and the
#              scaling efficiency time(1) / (N · time(N))
#   seal512    seal a 512 MiB sector (Poseidon trees on the     seal512.txt
#              GPU), then its C1 output
#   bn254      BN254 kernels and device prover (random          bn254.txt
#              circuits); with CUZK_BN254_CIRCUIT=DIR a circom
#              bn128 circuit: setup, prove --gpu, bench --zkey
#   profile    Nsight Compute reports of the NTT passes, of     profile.txt, ncu_ntt.txt,
#              one G1 MSM's kernels and of one PCE evaluation   ncu_msm.txt, ncu_pce.txt
#              (duration, throughput, occupancy, warp stalls;
#              clocks left alone)
# env.txt records the date, commit, GPU, driver, toolkit and host.
#
# Prebuilt binaries: leave out `build` and point CUZK_GPU_BUILD at a CUDA
# build made on another machine for this GPU's architecture (e.g.
# `cmake -B build -DCUZK_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90`). The CUDA
# runtime is linked statically; libfmt, Google Benchmark and GMP come from
# .deps when present. `tests` runs the test programs it finds; the other
# steps fail when their program is missing. Without a .git folder, set
# CUZK_COMMIT so that env.txt names the commit.
#
# Dependencies come from .deps/*.deb when present (unpacked under
# /tmp/cuzk-deps; they need glibc >= 2.33 and the libstdc++ of GCC >= 12),
# else from the system. Knobs: CUZK_GPU_BUILD (build folder, default
# build-gpu), CUZK_GPU_ARCH (CMAKE_CUDA_ARCHITECTURES, default 90),
# CUZK_BENCH_FILTER (bench_filecoin; default: all but bm_porep_pce_source),
# CUZK_KERNEL_FILTER (bench_gpu and bench_gpu_witness), CUZK_PARTITION_FILTER (bench_porep), CUZK_SYNTH_WORKERS
# (porep32, default 2), CUZK_BUILD_TARGETS (build: the targets, default every program the steps run), CUZK_POST_REPEAT (post32, default 3), CUZK_POST_SECTORS (post32: the
# made-up sectors, default 2349; fewer make a short partition), CUZK_POST_BUDGET (post32:
# `post prove --device-memory-budget`, e.g. 200G to ask for a resident key), CUZK_UPDATE_REPEAT (update32, default 2), CUZK_C2_REPEAT (porep32 and params32: proofs per run,
# default 1), CUZK_C2_CONCURRENT=1 (porep32: submit those proofs at once,
# `porep c2 --concurrent`, for the throughput), CUZK_H_COPIES_GB (porep32:
# `porep c2 --h-copies-gb`, default 0), CUZK_PARAMS_COMPARE=1 (params32: a
# second C2 with --host-decode), CUZK_NTT_LOG, CUZK_MSM_LOG and
# CUZK_PCE_LOG (profile sizes, default 24).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
pkgs=(libfmt-dev libfmt9 catch2 libbenchmark-dev libbenchmark1debian libgmp-dev libgmp10
      libgmpxx4ldbl libssl-dev libssl3
      # the daemon (cuzk serve, cuzk client): gRPC, protobuf and what their CMake configs look for
      libgrpc++-dev libgrpc++1.51 libgrpc-dev libgrpc29 libprotobuf-dev libprotobuf32 libprotoc32
      protobuf-compiler protobuf-compiler-grpc libabsl-dev libabsl20220623 libre2-dev libre2-9
      libc-ares-dev libc-ares2 zlib1g-dev zlib1g)
if [[ ${1:-} == --fetch-deps ]]; then
  mkdir -p "$root/.deps" && cd "$root/.deps" && apt-get download "${pkgs[@]}" && ls -l
  exit
fi
all_steps="build tests bench kernels partition register porep porep32 post32 update32 params32 cards daemon scaling seal512 bn254 profile"
[[ $# -ge 1 ]] || { echo "usage: scripts/gpu.sh OUT [${all_steps// /|}]..." >&2; exit 2; }
out=$1; shift
steps=${*:-build tests bench porep}
for s in $steps; do
  [[ " $all_steps " == *" $s "* ]] || { echo "gpu.sh: unknown step '$s' (steps: $all_steps)" >&2; exit 2; }
done
mkdir -p "$out"
out=$(cd "$out" && pwd)
b=${CUZK_GPU_BUILD:-$root/build-gpu}
[[ $b = /* ]] || b=$root/$b
bin=$b/bin/cuzk

if ls "$root"/.deps/*.deb >/dev/null 2>&1; then
  prefix=/tmp/cuzk-deps
  rm -rf "$prefix" && mkdir -p "$prefix"
  for d in "$root"/.deps/*.deb; do dpkg-deb -x "$d" "$prefix"; done
  # Links to absolute paths (zlib1g-dev's libz.so -> /lib/...) point into the prefix.
  find "$prefix" -type l -lname '/*' | while read -r l; do
    t=$(readlink "$l"); [[ -e $prefix$t ]] && ln -sf "$prefix$t" "$l"
    [[ -e $prefix/usr$t ]] && ln -sf "$prefix/usr$t" "$l"
  done
  export CMAKE_PREFIX_PATH="$prefix/usr" OPENSSL_ROOT_DIR="$prefix/usr"
  export LD_LIBRARY_PATH="$prefix/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  # gRPC's CMake config names re2 as a bare -lre2: the linker looks here too.
  export LIBRARY_PATH="$prefix/usr/lib/x86_64-linux-gnu${LIBRARY_PATH:+:$LIBRARY_PATH}"
fi
{
  echo "date: $(date -u +%FT%TZ)"
  echo "commit: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo "${CUZK_COMMIT:-unknown (set CUZK_COMMIT)}")" \
       "($(git -C "$root" status --porcelain 2>/dev/null | wc -l) changed files)"
  echo "build: $b"
  echo "kernel: $(uname -r), $(nproc) cores"; free -g | head -2
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  nvcc --version | tail -1; g++ --version | head -1
} >"$out/env.txt" 2>&1

need() {   # need PROGRAM: fail the step, naming the program, when it was not built
  [[ -x $1 ]] || { echo "gpu.sh: $1 not found (run the build step, or set CUZK_GPU_BUILD)"; return 1; }
}

# The test programs with [gpu] cases (from their sources).
gpu_tests() { grep -lE '"(\[[a-z0-9_:]+\])*\[gpu\]' "$root"/test/test_*.cpp | xargs -n1 basename | sed 's/\.cpp$//'; }
step_build() {
  cmake -S "$root" -B "$b" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON \
        -DCMAKE_CUDA_ARCHITECTURES="${CUZK_GPU_ARCH:-90}" -DCUZK_BUILD_EXAMPLES=OFF &&
  cmake --build "$b" --parallel "$(nproc)" --target ${CUZK_BUILD_TARGETS:-cuzk_cli $(gpu_tests) bench_filecoin bench_gpu \
        bench_gpu_witness bench_gpu_prove bench_gpu_key bench_porep}
}
# Every [gpu] case of every program that has them; the number of cases that
# ran must reach test/test-counts.txt's minimum for the gpu label.
step_tests() {
  local t rc=0 ran=0 n want
  for t in $(gpu_tests); do
    [[ -x $b/test/$t ]] || { echo "== $t: not built"; rc=1; continue; }
    echo "== $t"
    timeout 300 "$b/test/$t" "[gpu]" --durations yes >"$out/tests-$t.log" 2>&1 || rc=1
    cat "$out/tests-$t.log"
    n=$(grep -oE '(in|test cases:) +[0-9]+ test case|test cases: +[0-9]+' "$out/tests-$t.log" | grep -oE '[0-9]+' | head -1)
    ran=$((ran + ${n:-0}))
    rm -f "$out/tests-$t.log"
  done
  want=$(awk '$1 == "default" && $2 == "gpu" {print $3}' "$root/test/test-counts.txt")
  echo "gpu.sh: $ran [gpu] test cases ran (test-counts.txt asks for at least $want)"
  [[ $ran -ge ${want:-0} ]] || { echo "gpu.sh: fewer [gpu] cases ran than test-counts.txt expects"; rc=1; }
  return $rc
}
step_bench() {
  need "$b/bench/bench_filecoin" || return 1
  # bm_porep_pce_source (recording the circuit, and its cache file on disk) is a CPU
  # and disk measurement: left out unless CUZK_BENCH_FILTER names it.
  timeout 900 "$b/bench/bench_filecoin" --benchmark_filter="${CUZK_BENCH_FILTER:--bm_porep_pce_source}" \
    --benchmark_counters_tabular=true
}
step_kernels() {
  need "$b/bench/bench_gpu" && need "$b/bench/bench_gpu_witness" || return 1
  local rc=0
  timeout 600 "$b/bench/bench_gpu" --benchmark_filter="${CUZK_KERNEL_FILTER:-.}" --benchmark_counters_tabular=true \
    --benchmark_out="$out/kernels.json" --benchmark_out_format=json || rc=1
  timeout 300 "$b/bench/bench_gpu_witness" --benchmark_filter="${CUZK_KERNEL_FILTER:-.}" \
    --benchmark_counters_tabular=true >"$out/witness.txt" 2>&1 || rc=1
  python3 "$root/scripts/bench-summary.py" "$out/kernels.json" >"$out/summary.txt" 2>&1 || rc=1
  cat "$out/summary.txt"
  return $rc
}
step_partition() {
  need "$b/bench/bench_porep" || return 1
  # bench_porep registers the 2^27 size only when the filter names it.
  timeout 900 "$b/bench/bench_porep" --benchmark_filter="${CUZK_PARTITION_FILTER:-bm_porep_gpu.*/(22|24|27)}" \
    --benchmark_counters_tabular=true
}
step_register() {
  need "$b/bench/bench_gpu_key" || return 1
  timeout 600 "$b/bench/bench_gpu_key" --benchmark_counters_tabular=true
}
# seal -> c1 -> c2 (development key) -> verify, and a changed seed must fail
# (scripts/porep-e2e.sh; the same runs are the ctest cases porep:e2e_*).
porep_e2e() { "$root/scripts/porep-e2e.sh" "$bin" "$1" "$2" "/tmp/cuzk-gpu/porep-$1"; }
step_porep() { need "$bin" && porep_e2e 2KiB 5 && porep_e2e 8MiB 6; }
step_porep32() {
  local w=/tmp/cuzk-gpu/porep-32g
  need "$bin" && mkdir -p "$w" &&
  "$bin" porep c1 --synthetic --sector-size 32GiB --out "$w/c1.json" &&
  "$bin" porep c2 "$w/c1.json" --dev-key --vk "$w/key.vk" --out "$w/proof.bin" --synth-workers "${CUZK_SYNTH_WORKERS:-2}" \
        --h-copies-gb "${CUZK_H_COPIES_GB:-0}" \
        --repeat "${CUZK_C2_REPEAT:-1}" ${CUZK_C2_CONCURRENT:+--concurrent} --timeline "$out/porep32.csv" --waterfall &&
  "$bin" porep verify --vk "$w/key.vk" --proof "$w/proof.bin" --c1 "$w/c1.json"
}
step_post32() {
  need "$bin" && mkdir -p /tmp/cuzk-gpu &&
  "$bin" post circuit --proof StackedDrgWindow32GiBV1_2 &&
  "$bin" post prove --proof StackedDrgWindow32GiBV1_2 \
    --randomness 0909090909090909090909090909090909090909090909090909090909090900 --dev-key \
    --synthetic "${CUZK_POST_SECTORS:-2349}" ${CUZK_POST_BUDGET:+--device-memory-budget "$CUZK_POST_BUDGET"} \
    --repeat "${CUZK_POST_REPEAT:-3}" --out /tmp/cuzk-gpu/post32.bin --timeline "$out/post32.csv" --waterfall &&
  "$root/scripts/post-e2e.sh" "$bin" /tmp/cuzk-gpu/post-e2e
}
step_update32() {
  need "$bin" && mkdir -p /tmp/cuzk-gpu &&
  "$bin" update circuit --proof StackedDrg32GiBV1 &&
  "$bin" update prove --proof StackedDrg32GiBV1 --synthetic --dev-key --repeat "${CUZK_UPDATE_REPEAT:-2}" \
    --out /tmp/cuzk-gpu/update32.bin --timeline "$out/update32.csv" --waterfall &&
  "$root/scripts/update-e2e.sh" "$bin" /tmp/cuzk-gpu/update-e2e
}
# Runs a command, sampling its resident memory (anonymous and file-backed,
# from /proc) every 0.2 s; the peaks go to the file $1.
peak_rss() {
  local log=$1; shift
  "$@" & local pid=$! anon=0 file=0 a f
  while kill -0 $pid 2>/dev/null; do
    a=$(awk '/^RssAnon/ {print $2}' /proc/$pid/status 2>/dev/null); f=$(awk '/^RssFile/ {print $2}' /proc/$pid/status 2>/dev/null)
    [[ -n $a && $a -gt $anon ]] && anon=$a; [[ -n $f && $f -gt $file ]] && file=$f
    sleep 0.2
  done
  wait $pid; local rc=$?
  echo "peak RssAnon $((anon / 1024)) MiB, peak RssFile $((file / 1024)) MiB: $*" >>"$log"
  return $rc
}
step_params32() {
  local w=/tmp/cuzk-gpu/params-32g
  need "$bin" && mkdir -p "$w" && rm -f "$out/params32-rss.txt" &&
  "$bin" porep c1 --synthetic --sector-size 32GiB --out "$w/c1.json" &&
  peak_rss "$out/params32-rss.txt" "$bin" porep setup --sector-size 32GiB --out "$w/key.params" --vk "$w/key.vk" &&
  ls -l "$w/key.params" &&
  peak_rss "$out/params32-rss.txt" "$bin" porep c2 "$w/c1.json" --params "$w/key.params" --out "$w/proof.bin" \
    --synth-workers "${CUZK_SYNTH_WORKERS:-2}" --repeat "${CUZK_C2_REPEAT:-1}" --waterfall &&
  "$bin" porep verify --vk "$w/key.vk" --proof "$w/proof.bin" --c1 "$w/c1.json" &&
  if [[ ${CUZK_PARAMS_COMPARE:-0} == 1 ]]; then
    echo "== the same C2, the points decoded on the host (--host-decode)" &&
    "$bin" porep c2 "$w/c1.json" --params "$w/key.params" --host-decode --out "$w/proof2.bin" \
      --synth-workers "${CUZK_SYNTH_WORKERS:-2}" &&
    "$bin" porep verify --vk "$w/key.vk" --proof "$w/proof2.bin" --c1 "$w/c1.json"
  fi
  local rc=$?
  rm -rf "$w"
  return $rc
}
# The cards storage providers own: a 32 GiB development key written once as
# .params (kept in /tmp/cuzk-gpu/cards for the next run on the same machine),
# then, per device memory budget in CUZK_CARDS (default "0 80G 48G 32G 24G
# 16G"; 0 = none), C2 of CUZK_C2_REPEAT proofs (default 3) submitted at once
# from that file, each verified by the engine, the last by `porep verify`;
# CUZK_CARDS_BATCH passes --batch (1: one partition at a time, the old
# streamed path); an entry BUDGET:SIZE also passes --chunk-size SIZE. The waterfall's summary gives device busy and bus traffic;
# cards-rss.txt the peak host memory of each run. A budget the model refuses
# is a result too (the message names the figures). Each budget is a run of
# its own (on an H100: the key registered in ~45 s, then the proofs; the
# first run also writes the key, ~1 min): a long list may need to be split
# across invocations on the same machine, which keep the key.
step_cards() {
  local w=/tmp/cuzk-gpu/cards b rc=0
  need "$bin" && mkdir -p "$w" || return 1
  [[ -f $w/c1.json ]] || "$bin" porep c1 --synthetic --sector-size 32GiB --out "$w/c1.json" || return 1
  [[ -f $w/key.params ]] || "$bin" porep setup --sector-size 32GiB --out "$w/key.params" --vk "$w/key.vk" || return 1
  for e in ${CUZK_CARDS:-0 80G 48G 32G 24G 16G}; do
    b=${e%%:*}; c=; [[ $e == *:* ]] && c=${e#*:}
    echo "== device memory budget $b${c:+, chunk buffers of $c}"
    rm -f "$w/proof.bin"
    if peak_rss "$out/cards-rss.txt" "$bin" porep c2 "$w/c1.json" --params "$w/key.params" --out "$w/proof.bin" \
         --synth-workers "${CUZK_SYNTH_WORKERS:-2}" --repeat "${CUZK_C2_REPEAT:-3}" --concurrent \
         ${CUZK_CARDS_BATCH:+--batch "$CUZK_CARDS_BATCH"} $([[ $b != 0 ]] && echo --device-memory-budget "$b") \
         ${c:+--chunk-size "$c"} --timeline "$out/cards-$b${c:+-$c}.csv" --waterfall; then
      "$bin" porep verify --vk "$w/key.vk" --proof "$w/proof.bin" --c1 "$w/c1.json" || rc=1
    else
      echo "(budget $b: c2 failed or was refused)"
    fi
  done
  return $rc
}
# The daemon against the engine driven directly: a zero-data synthetic C1
# sealed by miner 1000 (the daemon checks the C1 against the request's
# miner and sector), the key of the cards step.
step_daemon() {
  local w=/tmp/cuzk-gpu/cards d=/tmp/cuzk-gpu/daemon n=${CUZK_DAEMON_PROOFS:-3} pid rc=0
  local sock=unix://$d/cuzk.sock
  need "$bin" && mkdir -p "$w" "$d/params" || return 1
  [[ -f $w/key.params ]] || "$bin" porep setup --sector-size 32GiB --out "$w/key.params" --vk "$w/key.vk" || return 1
  [[ -f $d/c1.json ]] || "$bin" porep c1 --synthetic --zero --sector-size 32GiB --miner-id 1000 --sector-number 7 \
                            --out "$d/c1.json" || return 1
  ln -sf "$w/key.params" "$d/params/cuzk-porep-32g.params"
  "$bin" serve --listen "$sock" --param-cache "$d/params" --backend cuda 2>"$out/daemon-serve.txt" & pid=$!
  for _ in $(seq 50); do [[ -S $d/cuzk.sock ]] && break; sleep 0.2; done
  { "$bin" client "$sock" status && "$bin" client "$sock" preload porep-32g &&
    "$bin" client "$sock" porep-c2 "$d/c1.json" --miner-id 1000 --sector-number 7 --clients "$n" --proofs "$n" \
      --out "$d/proof.bin" && "$bin" client "$sock" status; } || rc=1
  kill -TERM "$pid"; wait "$pid" || rc=1
  "$bin" porep verify --vk "$w/key.vk" --proof "$d/proof.bin" --c1 "$d/c1.json" || rc=1
  echo "== the same engine driven directly"
  "$bin" porep c2 "$d/c1.json" --params "$w/key.params" --out "$d/proof-direct.bin" --repeat "$n" --concurrent || rc=1
  return $rc
}
# One C2 run of the synthetic 32 GiB C1 on the devices $2 (a CUDA list),
# 3 proofs with one key; prints the mean seconds of proofs 2 and 3.
scaling_run() {
  local w=$1 devs=$2 tag=$3
  "$bin" porep c2 "$w/c1.json" --dev-key --vk "$w/key.vk" --out "$w/proof-$tag.bin" --devices "$devs" --repeat 3 \
    --synth-workers "${CUZK_SYNTH_WORKERS:-2}" --timeline "$out/scaling-$tag.csv" --waterfall --json \
    >"$w/c2-$tag.json" &&
  "$bin" porep verify --vk "$w/key.vk" --proof "$w/proof-$tag.bin" --c1 "$w/c1.json" >&2 &&
  python3 -c "import json; s=json.load(open('$w/c2-$tag.json'))['seconds']; print(f'{(s[1]+s[2])/2:.3f}')"
}
step_scaling() {
  local w=/tmp/cuzk-gpu/porep-32g n all t1 tn
  n=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
  all=$(seq -s, 0 $((n - 1)))
  need "$bin" && mkdir -p "$w" &&
  "$bin" porep c1 --synthetic --sector-size 32GiB --out "$w/c1.json" &&
  t1=$(scaling_run "$w" 0 1) && tn=$(scaling_run "$w" "$all" "$n") &&
  python3 -c "t1, tn, n = $t1, $tn, $n; print(f'1 GPU: {t1:.3f} s/proof; {n} GPUs: {tn:.3f} s/proof; '
              f'scaling efficiency time(1)/(n*time(n)) = {t1 / (n * tn):.3f}')" | tee "$out/scaling.txt"
}
# BN254: its kernels (bench_gpu), the device prover on random circuits of
# 2^18 and 2^20 rows (bench_gpu_prove), and with CUZK_BN254_CIRCUIT=DIR (a
# circom bn128 circuit: DIR/circuit.r1cs[.gz] and DIR/witness.wtns[.gz]) a key
# from `cuzk setup`, one `cuzk prove --gpu`, and `cuzk bench --zkey` on the
# cuda backend (every proof verified).
step_bn254() {
  need "$b/bench/bench_gpu" && need "$b/bench/bench_gpu_prove" && need "$bin" || return 1
  local rc=0 d=${CUZK_BN254_CIRCUIT:-} w=/tmp/cuzk-gpu/bn254 f
  timeout 300 "$b/bench/bench_gpu" --benchmark_filter=bn254 --benchmark_counters_tabular=true || rc=1
  timeout 300 "$b/bench/bench_gpu_prove" --benchmark_filter=bn254 --benchmark_counters_tabular=true || rc=1
  [[ -n $d ]] || return $rc
  rm -rf "$w" && mkdir -p "$w"
  for f in circuit.r1cs witness.wtns; do
    if [[ -f $d/$f.gz ]]; then gzip -dc "$d/$f.gz" >"$w/$f"; else cp "$d/$f" "$w/$f"; fi
  done
  time "$bin" setup "$w/circuit.r1cs" "$w/circuit.zkey" || return 1
  time "$bin" prove "$w/circuit.zkey" "$w/witness.wtns" "$w/proof.json" "$w/public.json" --gpu || rc=1
  timeout 300 "$bin" bench --zkey "$w/circuit.zkey" --wtns "$w/witness.wtns" --backend cuda --proofs 3 \
    --partitions 4 --waterfall --width 120 --no-progress || rc=1
  return $rc
}
step_seal512() {
  local w=/tmp/cuzk-gpu/seal-512m
  local r=0909090909090909090909090909090909090909090909090909090909090909
  need "$bin" && rm -rf "$w" && mkdir -p "$w" &&
  time "$bin" porep seal --sector-size 512MiB --porep-id 7 --replica-id $r --out "$w/sector" &&
  time "$bin" porep c1 "$w/sector" --seed $r --out "$w/c1.json"
}
step_profile() {
  need "$b/bench/bench_gpu" || return 1
  local ncu rc=0
  ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
  [[ -n $ncu ]] || { echo "gpu.sh: Nsight Compute (ncu) not found"; return 1; }
  local sections=(--section SpeedOfLight --section Occupancy --section LaunchStats --section ComputeWorkloadAnalysis
                  --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats)
  # The warm-up's twiddle build and one forward NTT's passes.
  timeout 300 "$ncu" --clock-control none "${sections[@]}" --launch-count 12 "$b/bench/bench_gpu" \
    --benchmark_filter="bm_ntt/log_n:${CUZK_NTT_LOG:-24}/kind:0" >"$out/ncu_ntt.txt" 2>&1 || rc=1
  echo "ntt: $(grep -c 'Duration' "$out/ncu_ntt.txt") kernels profiled"
  # The warm-up MSM's kernels: digits, sort, runs, compaction, reduction.
  timeout 300 "$ncu" --clock-control none "${sections[@]}" --launch-count 60 "$b/bench/bench_gpu" \
    --benchmark_filter="bm_msm<g1_affine>/log_n:${CUZK_MSM_LOG:-24}/c:0" >"$out/ncu_msm.txt" 2>&1 || rc=1
  echo "msm: $(grep -c 'Duration' "$out/ncu_msm.txt") kernels profiled"
  # The warm-up PCE evaluation of PoRep-shaped rows (grouped by shape over the whole PCE): the witness classes and the rows.
  if need "$b/bench/bench_gpu_witness"; then
    timeout 300 "$ncu" --clock-control none "${sections[@]}" -k 'regex:pce_eval_kernel|w_class_kernel' \
      --launch-count 2 "$b/bench/bench_gpu_witness" --benchmark_filter="bm_pce_eval/log:${CUZK_PCE_LOG:-24}/tile:32" \
      >"$out/ncu_pce.txt" 2>&1 || rc=1
    echo "pce: $(grep -c 'Duration' "$out/ncu_pce.txt") kernels profiled"
  else
    rc=1
  fi
  grep -hE "^  [a-zA-Z_].*\(|Duration|Compute \(SM\) Throughput|Memory Throughput|Achieved Occupancy|Registers Per" \
    "$out/ncu_ntt.txt" "$out/ncu_msm.txt" "$out/ncu_pce.txt"
  return $rc
}

status=0
for s in $steps; do
  log=$out/$s.txt; [[ $s == build || $s == tests ]] && log=$out/$s.log
  t0=$(date +%s)
  "step_$s" >"$log" 2>&1; rc=$?
  echo "gpu.sh: $s rc=$rc in $(( $(date +%s) - t0 )) s (log: $log)"
  tail -n 5 "$log"
  [[ $rc -ne 0 ]] && status=1
  [[ $s == build && $rc -ne 0 ]] && break
done
exit $status
