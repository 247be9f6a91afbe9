#!/usr/bin/env bash
# Configures and builds cuzk into a build directory.
#   scripts/build.sh [build-dir] [extra cmake args...]
# Environment:
#   CUZK_CUDA=AUTO|ON|OFF  the CUDA backend (default AUTO: built when nvcc works)
#   CUZK_WERROR=ON         warnings in cuzk's own code are errors (CI sets it)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bdir=${1:-$root/build}
shift || true
cmake -S "$root" -B "$bdir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA="${CUZK_CUDA:-AUTO}" \
  -DCUZK_WERROR="${CUZK_WERROR:-OFF}" "$@" >/dev/null
cmake --build "$bdir" --parallel "$(nproc)"
