#!/usr/bin/env bash
# Fails when a file of one layer includes a header of a layer above it (an
# include that runs up the layers; docs/ARCHITECTURE.md, "Layers and
# folders"). The layers, lowest first; a layer may include its own and any
# lower layer's headers:
#   ff < util < ec < pairing, msm, ntt < r1cs < groth16 < io < timeline
#      < backend < pipeline < filecoin
# so, for one, r1cs and groth16 include nothing of io, backend, pipeline or
# filecoin. The filecoin layer is ordered the same way by its folders (the
# same in include/cuzk/filecoin/ and lib/filecoin/), and every one of its
# files lives in one of them:
#   common < gadgets < porep < post, update
# (PoSt and SnapDeals work on PoRep's sealed sectors and share its key type;
# neither includes the other).
# Checked: include/cuzk/<layer>/ and lib/<layer>/, their includes of
# "cuzk/<layer>/…" and of lib's internal "<layer>/…" headers (a lib header
# of the includer's own folder, included by its bare name, is its own
# folder's). An include that must run up for a while is listed in `known`
# with the reason it stays (a new one fails the check; a listed one that is
# gone fails it too, so the list only shrinks); today the list is empty.
# usage: scripts/check_layers.sh [repository root]
set -uo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
declare -A rank=([ff]=0 [util]=1 [ec]=2 [pairing]=3 [msm]=3 [ntt]=3 [r1cs]=4 [groth16]=5 [io]=6 [timeline]=7
                 [backend]=8 [pipeline]=9 [filecoin]=10)
declare -A fc_rank=([common]=0 [gadgets]=1 [porep]=2 [post]=3 [update]=3)
known=()
found=()
bad=()
# The folder of a filecoin path ("include/cuzk/filecoin/porep/x.hpp",
# "cuzk/filecoin/porep/x.hpp", "filecoin/porep/x.hpp": porep); empty for a
# file directly in filecoin/.
fc_folder() {
  local rest=${1#*filecoin/}
  [[ $rest == */* ]] && echo "${rest%%/*}"
}
for layer in "${!rank[@]}"; do
  for dir in "$root/include/cuzk/$layer" "$root/lib/$layer"; do
    [[ -d $dir ]] || continue
    if [[ $layer == filecoin ]]; then
      while IFS= read -r file; do
        sub=$(fc_folder "${file#$root/}")
        [[ -n $sub && -n ${fc_rank[$sub]+x} ]] ||
          bad+=("${file#$root/}: a filecoin file outside common/, gadgets/, porep/, post/ and update/")
      done < <(find "$dir" -type f)
    fi
    while IFS= read -r line; do
      file=${line%%:*}; inc=${line#*:}
      dep=${inc#cuzk/}; dep=${dep%%/*}
      [[ -n ${rank[$dep]+x} ]] || continue
      (( rank[$dep] > rank[$layer] )) && found+=("${file#$root/} $inc")
      if [[ $layer == filecoin && $dep == filecoin ]]; then
        sub=$(fc_folder "${file#$root/}"); dsub=$(fc_folder "$inc")
        [[ -n $sub && -n ${fc_rank[$sub]+x} ]] || continue   # reported above
        if [[ -z $dsub || -z ${fc_rank[$dsub]+x} ]]; then
          bad+=("${file#$root/}: includes $inc, outside filecoin's folders")
        elif [[ $dsub != "$sub" ]] && (( fc_rank[$dsub] >= fc_rank[$sub] )); then
          bad+=("${file#$root/}: includes $inc: filecoin/$dsub is not below filecoin/$sub")
        fi
      fi
    done < <(grep -rHoE '^#include "(cuzk/)?[a-z_0-9]+/[^"]+"' "$dir" | sed -E 's/:#include "/:/; s/"$//')
  done
done
rc=0
for b in "${bad[@]}"; do echo "check_layers: $b"; rc=1; done
for f in "${found[@]}"; do
  if [[ " ${known[*]} " != *" $f "* ]]; then echo "check_layers: $f: includes a layer above its own"; rc=1; fi
done
for k in "${known[@]}"; do
  if [[ " ${found[*]} " != *" $k "* ]]; then echo "check_layers: '$k' is gone: take it off the list"; rc=1; fi
done
[[ $rc == 0 ]] && echo "check_layers: no include runs up the layers beyond the ${#known[@]} listed"
exit $rc
