#!/usr/bin/env bash
# Configures and builds cuzk into a build directory.
#   scripts/build.sh [build-dir] [extra cmake args...]
# The CUDA backend is built when nvcc works (CUZK_CUDA=AUTO); set
# CUZK_CUDA=OFF in the environment to force a CPU-only build.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bdir=${1:-$root/build}
shift || true
cmake -S "$root" -B "$bdir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA="${CUZK_CUDA:-AUTO}" "$@" >/dev/null
cmake --build "$bdir" --parallel "$(nproc)"
