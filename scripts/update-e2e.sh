#!/usr/bin/env bash
# SnapDeals end to end on a sealed 2 KiB test sector: new data encoded into
# it (vanilla partition proofs in Filecoin's bytes and public.json), a proof
# with a development key, verified; a changed comm_d_new must fail, and a
# truncated vanilla file or one with a flipped byte in a path is refused with
# a one-line error (exit 1) before any key is made.
#   scripts/update-e2e.sh CUZK WORK-DIR
# e.g. scripts/update-e2e.sh build/bin/cuzk /tmp/update-e2e (ctest update:e2e_2KiB)
set -euo pipefail
[[ $# -eq 2 ]] || { echo "usage: $0 CUZK WORK-DIR" >&2; exit 2; }
cuzk=$1 w=$2
p=0101010101010101010101010101010101010101010101010101010101010100
t=0202020202020202020202020202020202020202020202020202020202020200
rm -rf "$w" && mkdir -p "$w"
"$cuzk" porep seal --sector-size 2KiB --porep-id 5 --prover-id $p --sector-id 3 --ticket $t --out "$w/s3" >/dev/null
python3 -c "import sys; sys.stdout.buffer.write(bytes((i * 37 + 11) % 256 for i in range(2000)))" >"$w/new.bin"
proof=StackedDrg2KiBV1
"$cuzk" update vanilla --proof $proof --sector "$w/s3" --data "$w/new.bin" --out-dir "$w/v"
info=$("$cuzk" info "$w/v/partition-0.vanilla")
if [[ $info != *"SnapDeals vanilla partition proof"*StackedDrg2KiBV1* ]]; then
  echo "FAIL: cuzk info does not recognise a vanilla partition proof: $info" >&2
  exit 1
fi
pub() { python3 -c "import json; print(json.load(open('$w/v/public.json'))['$1'])"; }
"$cuzk" update prove --proof $proof --dev-key --vk "$w/k.vk" --public "$w/v/public.json" --out "$w/u.bin" \
    "$w/v/partition-0.vanilla"
"$cuzk" update verify --proof $proof --vk "$w/k.vk" --comm-r-old "$(pub comm_r_old)" --comm-d-new "$(pub comm_d_new)" \
    --comm-r-new "$(pub comm_r_new)" "$w/u.bin"
if "$cuzk" update verify --proof $proof --vk "$w/k.vk" --comm-r-old "$(pub comm_r_old)" --comm-d-new "$(pub comm_r_old)" \
    --comm-r-new "$(pub comm_r_new)" "$w/u.bin"; then
  echo "FAIL: the update proof verified against another comm_d_new" >&2
  exit 1
fi

head -c 1000 "$w/v/partition-0.vanilla" >"$w/short.vanilla"
set +e
out=$("$cuzk" update prove --proof $proof --dev-key --public "$w/v/public.json" --out "$w/short.bin" \
      "$w/short.vanilla" 2>&1)
rc=$?
set -e
if [[ $rc -ne 1 || $out != *short.vanilla*bad_length* || $(wc -l <<<"$out") -ne 1 ]]; then
  echo "FAIL: a truncated vanilla proof: exit $rc, expected 1 and one line naming the file: $out" >&2
  exit 1
fi
# One flipped byte inside a Merkle path: refused by the vanilla check before any key is made (one line).
python3 -c "import sys; b = bytearray(open(sys.argv[1], 'rb').read()); b[600] ^= 1; open(sys.argv[2], 'wb').write(b)" \
    "$w/v/partition-0.vanilla" "$w/flip.vanilla"
set +e
out=$("$cuzk" update prove --proof $proof --dev-key --public "$w/v/public.json" --out "$w/flip.bin" \
      "$w/flip.vanilla" 2>&1)
rc=$?
set -e
if [[ $rc -ne 1 || $out != *flip.vanilla*"is not a path"* || $(wc -l <<<"$out") -ne 1 ]]; then
  echo "FAIL: a flipped byte in a vanilla proof: exit $rc, expected 1 and one line before any key: $out" >&2
  exit 1
fi
echo "update e2e 2KiB: ok"
