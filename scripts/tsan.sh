#!/usr/bin/env bash
# The engine and C ABI tests under ThreadSanitizer (a CPU build with
# CUZK_SANITIZE=thread): test_engine and test_timeline_async (without [slow]
# and [gpu] cases), the C programs capi_full, capi_misuse, capi_limits,
# capi_borrowed, capi_reentrant, capi_post, the PoRep circuit's parallel
# witness and recording (test_fc_porep_witness, test_fc_porep_record) and
# the PoSt circuit's with its proofs on the engine (test_fc_post), and the
# SnapDeals circuit's parallel witness and recording (that one case of test_fc_update).
# Only those targets are built.
#   scripts/tsan.sh [build-dir]      (default build-tsan)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bdir=${1:-$root/build-tsan}
"$root/scripts/setup.sh" >/dev/null
cmake -S "$root" -B "$bdir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=OFF -DCUZK_SANITIZE=thread \
  -DCUZK_BUILD_BENCH=OFF -DCUZK_BUILD_EXAMPLES=OFF -DCUZK_BUILD_TOOLS=OFF >/dev/null
cmake --build "$bdir" --parallel "$(nproc)" --target test_engine test_timeline_async \
  test_capi_full test_capi_misuse test_capi_limits test_capi_borrowed test_capi_reentrant \
  test_fc_porep_witness test_fc_porep_record test_fc_post test_capi_post test_capi_post_fixture test_fc_update
cd "$bdir"
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 history_size=4" \
  ctest --output-on-failure -j "$(nproc)" -LE 'slow|gpu' -R '^(test_engine:|test_timeline_async:|test_fc_porep_witness:|test_fc_porep_record:|test_fc_post:|test_fc_update:update: the parallel witness and R1CS|capi_full$|capi_misuse$|capi_limits$|capi_borrowed$|capi_reentrant$|capi_post$)'
