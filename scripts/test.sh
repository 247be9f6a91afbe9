#!/usr/bin/env bash
# Sets up, builds and runs the tests (the README's test command).
#   scripts/test.sh             default run: every test except those labelled slow
#   scripts/test.sh --sanitize  CPU build under AddressSanitizer + UBSan, unit tests
#   scripts/test.sh --all       include the slow tests
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-default}

"$root/scripts/setup.sh"
"$root/scripts/interop-setup.sh"

case "$mode" in
  --sanitize)
    CUZK_CUDA=OFF "$root/scripts/build.sh" "$root/build-asan" -DCUZK_SANITIZE=address,undefined -DCUZK_BUILD_BENCH=OFF
    cd "$root/build-asan"
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
      ctest --output-on-failure -L unit -j "$(nproc)"
    ;;
  --all)
    "$root/scripts/build.sh" "$root/build"
    cd "$root/build" && ctest --output-on-failure -j "$(nproc)"
    ;;
  *)
    "$root/scripts/build.sh" "$root/build"
    cd "$root/build" && ctest --output-on-failure -LE slow -j "$(nproc)"
    ;;
esac
