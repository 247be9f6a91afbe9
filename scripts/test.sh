#!/usr/bin/env bash
# Sets up, builds and runs the tests (the README's test command).
#   scripts/test.sh             default run: every test except those labelled slow
#   scripts/test.sh --sanitize  CPU build under AddressSanitizer + UBSan, unit tests
#   scripts/test.sh --all       include the slow tests
# After the run, the number of tests run per label is compared with the
# minimum in test/test-counts.txt: a test program that stopped contributing
# tests fails the run even when everything that did run passed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-default}

"$root/scripts/setup.sh"
"$root/scripts/interop-setup.sh"

# check_counts <mode> <ctest log>: the "Label Time Summary" of ctest gives
# "<label> = <time> sec*proc (<n> tests)" per label.
check_counts() {
  local mode=$1 log=$2 fail=0 m label min n
  while read -r m label min; do
    [[ -z $m || $m == \#* || $m != "$mode" ]] && continue
    n=$(sed -n -E "s/^ *${label} *= *[0-9.]+ sec\*proc \(([0-9]+) tests?\).*/\1/p" "$log" | tail -1)
    if (( ${n:-0} < min )); then
      echo "test.sh: ${n:-0} tests labelled $label ran in the $mode run; test/test-counts.txt expects at least $min"
      fail=1
    fi
  done <"$root/test/test-counts.txt"
  return $fail
}

# run_ctest <mode> <ctest args...>: runs ctest in the current directory, keeps its output.
run_ctest() {
  local mode=$1 log rc=0
  shift
  log=$(mktemp)
  ctest --output-on-failure -j "$(nproc)" "$@" 2>&1 | tee "$log" || rc=$?
  check_counts "$mode" "$log" || rc=1
  rm -f "$log"
  return $rc
}

case "$mode" in
  --sanitize)
    # The daemon (gRPC) is left out of this build to keep CI inside its time.
    CUZK_CUDA=OFF "$root/scripts/build.sh" "$root/build-asan" -DCUZK_SANITIZE=address,undefined -DCUZK_BUILD_BENCH=OFF \
      -DCUZK_DAEMON=OFF
    cd "$root/build-asan"
    export ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1
    # The Go and Rust hosts (host:go, host:rust) run in the default step
    # only: their toolchains' builds would double under the sanitizers,
    # and the C programs of test/capi drive the same library here.
    run_ctest sanitize -L unit -E '^host:'

    ;;
  --all)
    "$root/scripts/build.sh" "$root/build"
    cd "$root/build" && run_ctest all
    ;;
  *)
    "$root/scripts/build.sh" "$root/build"
    cd "$root/build" && run_ctest default -LE slow
    ;;
esac
