#!/usr/bin/env bash
# The README's Filecoin PoRep example: seal a 2 KiB test sector, write its C1
# output and check every vanilla proof in it.
#   scripts/porep-example.sh [path/to/cuzk] [work-dir]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cuzk=${1:-$root/build/bin/cuzk}
work=${2:-$(mktemp -d)}
prover=0101010101010101010101010101010101010101010101010101010101010101
ticket=0202020202020202020202020202020202020202020202020202020202020202
seed=0303030303030303030303030303030303030303030303030303030303030303

"$cuzk" porep seal --sector-size 2KiB --porep-id 5 --prover-id $prover --sector-id 7 --ticket $ticket \
    --out "$work/sector"
"$cuzk" porep c1 "$work/sector" --seed $seed --out "$work/c1.json"
"$cuzk" porep check "$work/c1.json" --prover-id $prover --sector-id 7
