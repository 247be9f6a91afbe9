#!/usr/bin/env bash
# PoRep end to end on a sealed test sector: seal -> C1 -> a development key
# written as bellperson .params -> C2 from that file (on the GPU when one is
# usable: the key streams from the file to the device) -> verify, and the
# proof must fail to verify against a changed seed. For 2 KiB also two C2
# proofs submitted at once (--repeat 2 --concurrent), verified.
#   scripts/porep-e2e.sh CUZK SECTOR-SIZE POREP-ID WORK-DIR
# e.g. scripts/porep-e2e.sh build/bin/cuzk 8MiB 6 /tmp/e2e (ctest porep:e2e_2KiB, porep:e2e_8MiB)
set -euo pipefail
[[ $# -eq 4 ]] || { echo "usage: $0 CUZK SECTOR-SIZE POREP-ID WORK-DIR" >&2; exit 2; }
cuzk=$1 size=$2 id=$3 w=$4
p=0101010101010101010101010101010101010101010101010101010101010101
t=0202020202020202020202020202020202020202020202020202020202020202
s=0303030303030303030303030303030303030303030303030303030303030303
rm -rf "$w" && mkdir -p "$w"
"$cuzk" porep seal --sector-size "$size" --porep-id "$id" --prover-id $p --sector-id 7 --ticket $t --out "$w/sector"
"$cuzk" porep c1 "$w/sector" --seed $s --out "$w/c1.json"
"$cuzk" porep setup --sector-size "$size" --out "$w/key.params" --vk "$w/key.vk"
"$cuzk" porep c2 "$w/c1.json" --params "$w/key.params" --out "$w/proof.bin" --waterfall
"$cuzk" porep verify --vk "$w/key.vk" --proof "$w/proof.bin" --c1 "$w/c1.json"
if [[ $size == 2KiB ]]; then   # two proofs submitted at once (porep c2 --concurrent)
  "$cuzk" porep c2 "$w/c1.json" --params "$w/key.params" --out "$w/proof2.bin" --repeat 2 --concurrent
  "$cuzk" porep verify --vk "$w/key.vk" --proof "$w/proof2.bin" --c1 "$w/c1.json"
fi
field() { python3 -c "import json,sys; print(json.load(open('$w/sector/sector.json'))['$1'])"; }
if "$cuzk" porep verify --vk "$w/key.vk" --proof "$w/proof.bin" --porep-id "$id" --comm-r "$(field comm_r)" \
    --comm-d "$(field comm_d)" --prover-id $p --sector-id 7 --ticket $t \
    --seed 0404040404040404040404040404040404040404040404040404040404040404; then
  echo "FAIL: the proof verified against a changed seed" >&2
  exit 1
fi
echo "porep e2e $size: ok"
