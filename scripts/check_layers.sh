#!/usr/bin/env bash
# Fails when a file of one layer includes a header of a layer above it (an
# include that runs up the layers; docs/ARCHITECTURE.md, "Layers and
# folders"). The layers, lowest first; a layer may include its own and any
# lower layer's headers:
#   ff < util < ec < pairing, msm, ntt < r1cs < groth16 < io < timeline
#      < backend < pipeline < filecoin
# Checked: include/cuzk/<layer>/ and lib/<layer>/, their includes of
# "cuzk/<layer>/…" and of lib's internal "<layer>/…" headers. The includes
# that still run up today are listed below, each to be moved away (a new
# one fails the check; a listed one that is gone fails it too, so the list
# only shrinks).
# usage: scripts/check_layers.sh [repository root]
set -uo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
declare -A rank=([ff]=0 [util]=1 [ec]=2 [pairing]=3 [msm]=3 [ntt]=3 [r1cs]=4 [groth16]=5 [io]=6 [timeline]=7
                 [backend]=8 [pipeline]=9 [filecoin]=10)
known=(
  "lib/ec/subgroup.cpp cuzk/pairing/pairing.hpp"               # the G2 subgroup test's Frobenius
  "lib/r1cs/pce_file.cpp cuzk/io/mapped_file.hpp"              # file mapping belongs below r1cs
)
found=()
for layer in "${!rank[@]}"; do
  for dir in "$root/include/cuzk/$layer" "$root/lib/$layer"; do
    [[ -d $dir ]] || continue
    while IFS= read -r line; do
      file=${line%%:*}; inc=${line#*:}
      dep=${inc#cuzk/}; dep=${dep%%/*}
      [[ -n ${rank[$dep]+x} ]] || continue
      (( rank[$dep] > rank[$layer] )) && found+=("${file#$root/} $inc")
    done < <(grep -rHoE '^#include "(cuzk/)?[a-z_0-9]+/[^"]+"' "$dir" | sed -E 's/:#include "/:/; s/"$//')
  done
done
rc=0
for f in "${found[@]}"; do
  if [[ " ${known[*]} " != *" $f "* ]]; then echo "check_layers: $f: includes a layer above its own"; rc=1; fi
done
for k in "${known[@]}"; do
  if [[ " ${found[*]} " != *" $k "* ]]; then echo "check_layers: '$k' is gone: take it off the list"; rc=1; fi
done
[[ $rc == 0 ]] && echo "check_layers: no include runs up the layers beyond the ${#known[@]} listed"
exit $rc
