#!/usr/bin/env bash
# The README's first command: sets up, builds the cuzk program alone and runs
# the proving demo.
#  1. `cuzk demo`: self-checks of the arithmetic, one Groth16 proof of the
#     built-in SHA-256 circuit with the time of each step, verification;
#  2. `cuzk bench`: the proving engine on 2 jobs x 4 partitions of that
#     circuit, every proof verified, then the waterfall of where the time went.
# Both prove on the GPU when one is usable (--backend auto), else on the CPU.
#   scripts/demo.sh [cuzk demo flags, e.g. --quick or --backend cpu]
# Builds only the target cuzk_cli, in build-demo/ (no tests, benchmarks or
# examples, nor the proving daemon, cuzk serve). The CUDA backend is compiled only when a GPU is present
# (nvidia-smi lists one): without a GPU it cannot run, and its kernels take
# about two thirds of the build. CUZK_CUDA=AUTO|ON|OFF overrides the choice.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bdir=$root/build-demo
"$root/scripts/setup.sh" --program

if [[ -z ${CUZK_CUDA:-} ]]; then
  CUZK_CUDA=OFF
  if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then CUZK_CUDA=AUTO; fi
fi
echo "demo: building the cuzk program in $bdir (CUDA backend: $CUZK_CUDA)"
cmake -S "$root" -B "$bdir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA="$CUZK_CUDA" \
  -DCUZK_BUILD_TESTS=OFF -DCUZK_BUILD_BENCH=OFF -DCUZK_BUILD_EXAMPLES=OFF -DCUZK_BUILD_CAPI=OFF -DCUZK_DAEMON=OFF >/dev/null
cmake --build "$bdir" --target cuzk_cli --parallel "$(nproc)"
echo
"$bdir/bin/cuzk" demo "$@"
echo
exec "$bdir/bin/cuzk" bench --blocks 1 --proofs 2 --partitions 4 --jobs 2 --waterfall
