#!/usr/bin/env bash
# Sets up, builds and runs the main job: the cuzk proving demo.
#  1. `cuzk demo`: arithmetic self-checks, one Groth16 proof of the built-in
#     SHA-256 circuit with the time of each step, verification;
#  2. `cuzk bench`: the proving engine on 2 jobs x 4 partitions of that
#     circuit, every proof verified, then the waterfall of where the time went.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/setup.sh"
"$root/scripts/build.sh" "$root/build"
"$root/build/bin/cuzk" demo "$@"
echo
exec "$root/build/bin/cuzk" bench --blocks 1 --proofs 2 --partitions 4 --jobs 2 --waterfall
