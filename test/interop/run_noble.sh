#!/usr/bin/env bash
# interop:noble — compare cuzk's encodings and pairing with @noble/curves.
#   run_noble.sh <build-dir> <check_noble binary>
# Installs the packages pinned by package-lock.json into <build-dir>/interop-node
# (npm ci; skipped when the installed lock file is unchanged), has noble print
# the vectors for a fixed seed, then runs check_noble on them.
# Environment: NOBLE_SEED, NOBLE_N_G1, NOBLE_N_G2, NOBLE_N_PAIR override the defaults.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:?usage: run_noble.sh <build-dir> <check_noble binary>}
checker=${2:?usage: run_noble.sh <build-dir> <check_noble binary>}
seed=${NOBLE_SEED:-20240611}
n1=${NOBLE_N_G1:-16}
n2=${NOBLE_N_G2:-16}
np=${NOBLE_N_PAIR:-4}

for tool in node npm; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "interop:noble FAILED: '$tool' is not installed. Run scripts/interop-setup.sh (installs nodejs and npm)." >&2
    exit 1
  fi
done

cache="$build/interop-node"
mkdir -p "$cache"
if ! cmp -s "$here/package-lock.json" "$cache/package-lock.json" || [[ ! -f "$cache/node_modules/@noble/curves/package.json" ]]; then
  echo "interop:noble: installing the pinned @noble/curves into $cache"
  cp "$here/package.json" "$here/package-lock.json" "$cache/"
  if ! (cd "$cache" && npm ci --no-audit --no-fund --loglevel=error); then
    rm -f "$cache/package-lock.json"   # retry the install next time
    echo "interop:noble FAILED: npm ci could not install @noble/curves (is the npm registry reachable?)" >&2
    exit 1
  fi
fi
# ESM resolves packages relative to the script, so the script runs from the cache.
cp "$here/noble_vectors.mjs" "$cache/"

version=$(node -p 'require(process.argv[1]).version' "$cache/node_modules/@noble/curves/package.json")
echo "interop:noble: @noble/curves $version, node $(node --version), seed $seed, $n1 g1 / $n2 g2 / $np pairings"
vectors="$cache/vectors.txt"
node "$cache/noble_vectors.mjs" "$seed" "$n1" "$n2" "$np" > "$vectors"
"$checker" "$vectors"
