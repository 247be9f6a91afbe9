#!/usr/bin/env bash
# Builds and runs the libFuzzer harnesses of fuzz/ (clang, CPU only, ASan + UBSan): one per
# file reader, and capi (the C ABI's entry points that take a caller's bytes; it links the
# whole library, built again with the sanitizers, so it is built and run only when named).
#   scripts/fuzz.sh --ci                 every reader's harness for FUZZ_SECONDS (default 15) seconds
#   scripts/fuzz.sh --runs N [names…]    every (or the named) harness for N executions each
#   scripts/fuzz.sh --time S [names…]    every (or the named) harness for S seconds each
#   scripts/fuzz.sh --build              build the harnesses only
#   scripts/fuzz.sh --seeds              rewrite the committed seeds fuzz/corpus/ with fuzz_seeds
#                                        (the project's writers; builds the whole library)
# Build folder: $FUZZ_BUILD (default build-fuzz). Each harness reads the seeds
# fuzz/corpus/<name> and keeps what it finds in <build>/corpus/<name>;
# findings (crash reproducers and logs) go to <build>/findings/<name>.
# Each run prints one line "fuzz <name>: N runs in S s, K crashes"; the script
# fails if any harness found a crash (its reproducer is kept in findings/).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bdir=${FUZZ_BUILD:-$root/build-fuzz}
all=(zkey wtns r1cs params vk proof_bytes json_proof json_vk json_public pce timeline c1_json post_vanilla update_vanilla)
# capi is fuzzed only when named (its build compiles the whole library again;
# CI replays its seeds in the sanitized test build: test/capi, capi_fuzz_replay).

# clang with libFuzzer (Debian: clang, and libclang-rt-<v>-dev for the fuzzer runtime).
ensure_clang() {
  local probe; probe=$(mktemp -d)
  printf 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }\n' >"$probe/t.cpp"
  if command -v clang++ >/dev/null && clang++ -fsanitize=fuzzer,address "$probe/t.cpp" -o "$probe/t" 2>/dev/null; then
    rm -rf "$probe"; return
  fi
  echo "fuzz: installing clang and libFuzzer"
  local SUDO=""; [[ $(id -u) -eq 0 ]] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends clang
  local v; v=$(clang++ --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -1)
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "libclang-rt-$v-dev" ||
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "libfuzzer-$v-dev"
  clang++ -fsanitize=fuzzer,address "$probe/t.cpp" -o "$probe/t"
  rm -rf "$probe"
}

build() {
  "$root/scripts/setup.sh" >/dev/null
  ensure_clang
  cmake -S "$root" -B "$bdir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE=-O1 \
    -DCMAKE_CXX_COMPILER=clang++ -DCUZK_CUDA=OFF -DCUZK_FUZZ=ON -DCUZK_BUILD_TESTS=OFF -DCUZK_BUILD_BENCH=OFF \
    -DCUZK_BUILD_TOOLS=OFF -DCUZK_BUILD_CAPI=OFF -DCUZK_BUILD_EXAMPLES=OFF >/dev/null
  cmake --build "$bdir" --target cuzk_fuzz --parallel "$(nproc)"
}

# run <name> <libFuzzer limit flag>: one harness on its corpus, a summary line.
run() {
  local name=$1 limit=$2 log="$bdir/findings/$1.log"
  mkdir -p "$bdir/corpus/$name" "$bdir/findings/$name"
  local t0=$SECONDS rc=0
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$bdir/fuzz/fuzz_$name" "$limit" -max_len=65536 -rss_limit_mb=2048 -malloc_limit_mb=1024 -timeout=25 \
      -print_final_stats=1 -artifact_prefix="$bdir/findings/$name/" "$bdir/corpus/$name" "$root/fuzz/corpus/$name" >"$log" 2>&1 || rc=$?
  local runs; runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  local crashes; crashes=$(find "$bdir/findings/$name" -type f | wc -l)
  echo "fuzz $name: ${runs:-0} runs in $((SECONDS - t0)) s, $crashes crashes (exit $rc, log $log)"
  if ((rc != 0 || crashes != 0)); then tail -40 "$log"; return 1; fi
}

mode=${1:---ci}
shift || true
case "$mode" in
  --build) build ;;
  --seeds)
    build
    cmake --build "$bdir" --target fuzz_seeds --parallel "$(nproc)"
    "$bdir/fuzz/fuzz_seeds" "$root/fuzz/corpus"
    ;;
  --ci)
    build
    fails=0
    for n in "${all[@]}"; do run "$n" "-max_total_time=${FUZZ_SECONDS:-15}" || fails=$((fails + 1)); done
    ((fails == 0)) || { echo "fuzz: $fails harness(es) found crashes"; exit 1; }
    ;;
  --runs | --time)
    [[ $# -ge 1 ]] || { echo "usage: scripts/fuzz.sh $mode N [names…]"; exit 2; }
    n=$1; shift
    names=("$@"); ((${#names[@]})) || names=("${all[@]}")
    [[ -x "$bdir/fuzz/fuzz_${names[0]}" ]] || build
    for h in "${names[@]}"; do
      [[ $h == capi ]] && cmake --build "$bdir" --target fuzz_capi --parallel "$(nproc)"
    done
    flag=-runs=$n; [[ $mode == --time ]] && flag=-max_total_time=$n
    fails=0
    for h in "${names[@]}"; do run "$h" "$flag" || fails=$((fails + 1)); done
    ((fails == 0)) || exit 1
    ;;
  *) echo "usage: scripts/fuzz.sh --ci | --build | --seeds | --runs N [names…] | --time S [names…]"; exit 2 ;;
esac
