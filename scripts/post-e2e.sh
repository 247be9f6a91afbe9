#!/usr/bin/env bash
# PoSt end to end on two sealed 2 KiB test sectors: WindowPoSt V1_2 (vanilla
# proofs in Filecoin's bytes -> a proof with a development key -> verify; a
# changed randomness must fail), WinningPoSt of one sector with a key written
# as bellperson .params (setup, then prove from that file), and a truncated
# vanilla proof file or vanilla proofs of another randomness refused with a
# one-line error (exit 1) before any key is made.
#   scripts/post-e2e.sh CUZK WORK-DIR
# e.g. scripts/post-e2e.sh build/bin/cuzk /tmp/post-e2e (ctest post:e2e_2KiB)
set -euo pipefail
[[ $# -eq 2 ]] || { echo "usage: $0 CUZK WORK-DIR" >&2; exit 2; }
cuzk=$1 w=$2
p=0101010101010101010101010101010101010101010101010101010101010100
t=0202020202020202020202020202020202020202020202020202020202020200
r=0909090909090909090909090909090909090909090909090909090909090900
r2=0a09090909090909090909090909090909090909090909090909090909090900
rm -rf "$w" && mkdir -p "$w"
for id in 3 4; do
  "$cuzk" porep seal --sector-size 2KiB --porep-id 5 --prover-id $p --sector-id $id --ticket $t --out "$w/s$id" >/dev/null
done
comm_r() { python3 -c "import json; print(json.load(open('$w/s$1/sector.json'))['comm_r'])"; }
sectors="3:$(comm_r 3),4:$(comm_r 4)"

window=StackedDrgWindow2KiBV1_2
"$cuzk" post vanilla --proof $window --randomness $r --out-dir "$w/v" "$w/s3" "$w/s4"
info=$("$cuzk" info "$w/v/3.vanilla")
if [[ $info != *"PoSt vanilla proof"*"sector 3"*StackedDrgWindow2KiBV1_2* ]]; then
  echo "FAIL: cuzk info does not recognise a vanilla proof: $info" >&2
  exit 1
fi
"$cuzk" post prove --proof $window --randomness $r --dev-key --vk "$w/window.vk" --out "$w/window.bin" \
    "$w/v/3.vanilla" "$w/v/4.vanilla"
"$cuzk" post verify --proof $window --vk "$w/window.vk" --randomness $r --sectors "$sectors" "$w/window.bin"
if "$cuzk" post verify --proof $window --vk "$w/window.vk" --randomness $r2 --sectors "$sectors" "$w/window.bin"; then
  echo "FAIL: the WindowPoSt proof verified against a changed randomness" >&2
  exit 1
fi

winning=StackedDrgWinning2KiBV1
"$cuzk" post vanilla --proof $winning --randomness $r --out-dir "$w/wv" "$w/s4"
"$cuzk" post setup --proof $winning --out "$w/winning.params" --vk "$w/winning.vk"
"$cuzk" post prove --proof $winning --randomness $r --params "$w/winning.params" --out "$w/winning.bin" "$w/wv/4.vanilla"
"$cuzk" post verify --proof $winning --vk "$w/winning.vk" --randomness $r --sectors "4:$(comm_r 4)" "$w/winning.bin"

head -c 1000 "$w/v/3.vanilla" >"$w/short.vanilla"
set +e
out=$("$cuzk" post prove --proof $window --randomness $r --dev-key --out "$w/short.bin" "$w/short.vanilla" 2>&1)
rc=$?
set -e
if [[ $rc -ne 1 || $out != *short.vanilla*bad_length* || $(wc -l <<<"$out") -ne 1 ]]; then
  echo "FAIL: a truncated vanilla proof: exit $rc, expected 1 and one line naming the file: $out" >&2
  exit 1
fi
# Vanilla proofs of another randomness: refused by the vanilla check before any key is made (one line).
set +e
out=$("$cuzk" post prove --proof $window --randomness $r2 --dev-key --out "$w/r2.bin" "$w/v/3.vanilla" "$w/v/4.vanilla" 2>&1)
rc=$?
set -e
if [[ $rc -ne 1 || $out != *"faulty sectors (3, 4)"* || $(wc -l <<<"$out") -ne 1 ]]; then
  echo "FAIL: vanilla proofs of another randomness: exit $rc, expected 1 and one line before any key: $out" >&2
  exit 1
fi
echo "post e2e 2KiB: ok"
