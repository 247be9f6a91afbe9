#!/usr/bin/env bash
# The cuzk program on hostile command lines and files: malformed integer
# flags, FIFOs and devices given as files, a tiny .r1cs claiming 2^28 wires,
# a verifying key without IC points. Each case must end quickly with a clear
# refusal (exit 1 or 2), never hang, crash or allocate gigabytes.
# usage: hostile_inputs.sh <cuzk binary> <scratch dir>
set -u
CUZK=$1
WORK=$2
rm -rf "$WORK" && mkdir -p "$WORK" || exit 1
fails=0
# 2 GiB of address space bounds a case that over-allocates; a sanitizer build
# reserves terabytes of shadow memory up front, so it runs without the bound
# (its allocator refuses absurd sizes by itself).
vlimit=2097152
grep -q __asan_init "$CUZK" 2>/dev/null && vlimit=unlimited

# expect <name> <want exit codes, e.g. "1 2"> <text the output must contain> -- command...
expect() {
    local name=$1 codes=$2 text=$3
    shift 4
    local out rc
    # 20 s bounds a case that hangs.
    out=$( (ulimit -v $vlimit; timeout 20 "$@") 2>&1 </dev/null)
    rc=$?
    if [[ " $codes " != *" $rc "* ]]; then
        echo "FAIL $name: exit $rc, expected one of: $codes"; echo "$out" | head -5; fails=$((fails + 1)); return
    fi
    if [[ -n $text && $out != *"$text"* ]]; then
        echo "FAIL $name: output lacks '$text'"; echo "$out" | head -5; fails=$((fails + 1)); return
    fi
    if [[ $out == *stoul* || $out == *stoull* || $out == *bad_alloc* || $out == *"filesystem error"* ]]; then
        echo "FAIL $name: raw standard-library text"; echo "$out" | head -5; fails=$((fails + 1))
    fi
}

# ---- integer flags
expect blocks-abc "2" "--blocks" -- "$CUZK" setup sha256 --blocks abc "$WORK/a.params" "$WORK/a.vk"
expect blocks-2^32+1 "2" "4294967297" -- "$CUZK" setup sha256 --blocks 4294967297 "$WORK/a.params" "$WORK/a.vk"
expect blocks-minus-1 "2" "--blocks" -- "$CUZK" setup sha256 --blocks -1 "$WORK/a.params" "$WORK/a.vk"
expect seed-abc "2" "--seed" -- "$CUZK" prove sha256 "$WORK/a.params" "$WORK/p.bin" "$WORK/pub.json" --seed x1
expect threads-abc "2" "--threads" -- "$CUZK" prove "$WORK/c.zkey" "$WORK/w.wtns" "$WORK/p.json" "$WORK/pub.json" --threads abc
expect bench-proofs "1 2" "--proofs" -- "$CUZK" bench --proofs 99999999999999999999
expect waterfall-width "1 2" "--width" -- "$CUZK" waterfall "$WORK/none.log" --width -3
# ---- size flags: whole numbers with units only
expect mem-budget-fraction "2" "--mem-budget: expected a whole size" -- "$CUZK" bench --mem-budget 0.4
expect mem-budget-exponent "2" "a fraction" -- "$CUZK" bench --mem-budget 1.7e19
expect mem-budget-negative "2" "negative" -- "$CUZK" bench --mem-budget -5
expect mem-budget-overflow "2" "too large" -- "$CUZK" bench --mem-budget 18446744073709551615G
expect device-budget-unit "2" "unknown unit" -- "$CUZK" bench --device-memory-budget 3X

# ---- porep c2 checks its flags before it reads the C1 file (here one that does not exist)
for f in "--repeat 0" "--synth-workers 0" "--cpu-devices 0" "--h-copies-gb 2000" "--batch 0" \
         "--chunk-size 1.5G" "--device-memory-budget 1e9" "--host-memory-budget 0.5G"; do
    expect "c2-flags-first ${f%% *}" "2" "${f%% *}" -- \
        "$CUZK" porep c2 "$WORK/no-such-c1.json" --dev-key --backend cpu --out "$WORK/p.bin" $f
done
expect seal-out-device "2" "--out: /dev/null exists and is not a directory" -- "$CUZK" porep seal --nodes 64 \
    --porep-id 5 --replica-id 0000000000000000000000000000000000000000000000000000000000000000 --zero --out /dev/null
printf '{"registered_proof": "StackedDrg2KiBV1", "comm_r_old": null, "comm_d_new": "00", "comm_r_new": "00", "h": 1}' \
    >"$WORK/update-public.json" && : >"$WORK/update-v0.bin"
expect update-public-null "1" '--public: '"$WORK"'/update-public.json: "comm_r_old" must be a string' -- \
    "$CUZK" update prove --proof StackedDrg2KiBV1 --dev-key --public "$WORK/update-public.json" "$WORK/update-v0.bin" \
    --out "$WORK/u.bin"
# info names every candidate reading's reason (PoSt and SnapDeals), not the first PoSt type's alone
head -c 3000 /dev/zero | tr '\0' '\377' >"$WORK/ff.vanilla"
expect info-vanilla-reasons "1" "as SnapDeals StackedDrg2KiBV1" -- "$CUZK" info "$WORK/ff.vanilla"
# post prove: the engine's flags before a 32 GiB key is made (that takes minutes)
expect post-budget-before-key "2" "--device-memory-budget" -- "$CUZK" post prove --proof StackedDrgWindow32GiBV1_2 \
    --dev-key --synthetic 1 --randomness 0000000000000000000000000000000000000000000000000000000000000000 \
    --out "$WORK/post.bin" --device-memory-budget 1.5G

# a host memory budget too small for the key: refused by the engine with the figures, no allocation
expect post-host-budget "1" "the host memory budget of 1.00 KiB (1024 bytes) cannot hold" -- "$CUZK" post prove \
    --proof StackedDrgWindow2KiBV1_2 --dev-key --synthetic 1 --out "$WORK/post.bin" --host-memory-budget 1K \
    --randomness 0000000000000000000000000000000000000000000000000000000000000000

# ---- sizes checked against the host memory before allocation, naming the flag; what is
# not estimated ends in a named out-of-memory refusal, never library text
expect parents-2^30-nodes "2" "--nodes: the parent cache of 1073741824 nodes needs" -- \
    "$CUZK" porep parents --nodes 1073741824 --porep-id 5 --cache-digest
expect seal-2^30-nodes "2" "--nodes: sealing 1073741824 nodes in 2 layers needs" -- "$CUZK" porep seal \
    --nodes 1073741824 --porep-id 5 --replica-id 0000000000000000000000000000000000000000000000000000000000000000 \
    --zero --out "$WORK/seal-big"
expect labels-2^32-nodes "2" "--nodes: labelling" -- \
    "$CUZK" porep labels --nodes 4294967295 --layers 11 --porep-id 5 --replica-id 00
# (with the address-space bound only: on a machine that could hold it, unbounded, it would run)
[[ $vlimit != unlimited ]] &&
    expect bench-65536-partitions "2" "--blocks and --partitions: a key for 4096 SHA-256 blocks" -- \
        "$CUZK" bench -n 1 -p 65536 --blocks 4096

# ---- standard input is bounded as a file is
out=$( (ulimit -v $vlimit; timeout 60 "$CUZK" waterfall -) 2>&1 </dev/zero ); rc=$?
if [[ $rc != 1 || $out != *"<stdin>: more than"* ]]; then
    echo "FAIL waterfall-stdin-zero: exit $rc"; echo "$out" | head -3; fails=$((fails + 1))
fi

# ---- FIFOs and devices are refused by name, without blocking
mkfifo "$WORK/fifo"
expect info-fifo "1" "FIFO" -- "$CUZK" info "$WORK/fifo"
expect verify-fifo "1" "FIFO" -- "$CUZK" verify "$WORK/fifo" "$WORK/fifo" "$WORK/fifo"
expect waterfall-fifo "1" "FIFO" -- "$CUZK" waterfall "$WORK/fifo"
expect verify-dev-zero "1" "character device" -- "$CUZK" verify /dev/zero /dev/zero /dev/zero
expect info-dev-zero "1" "character device" -- "$CUZK" info /dev/zero

# ---- a 340-byte .r1cs claiming 2^28 wires: refused before any allocation
python3 - "$WORK/big.r1cs" <<'PY'
import struct, sys
r = 52435875175126190479447740508185965837690552500527637822603658699938581184513
one = (1).to_bytes(32, "little")
s1 = struct.pack("<I", 32) + r.to_bytes(32, "little") + struct.pack("<IIIIQI", 1 << 28, 1, 0, 0, 1 << 28, 1)
s2 = b"".join(struct.pack("<II", 1, 1) + one for _ in range(3))
body = b"".join(struct.pack("<IQ", i, len(s)) + s for i, s in ((1, s1), (2, s2)))
open(sys.argv[1], "wb").write(b"r1cs" + struct.pack("<II", 1, 2) + body)
PY
expect setup-big-r1cs "1" "nWires" -- "$CUZK" setup "$WORK/big.r1cs" "$WORK/big.zkey"

# ---- a bellperson vk without IC points (identity points elsewhere)
python3 - "$WORK/empty.vk" <<'PY'
import sys
g1 = b"\x40" + bytes(95)
g2 = b"\x40" + bytes(191)
open(sys.argv[1], "wb").write(g1 + g1 + g2 + g2 + g1 + g2 + bytes(4))
PY
expect info-vk-no-ic "1" "IC" -- "$CUZK" info "$WORK/empty.vk"
out=$("$CUZK" info "$WORK/empty.vk" 2>&1)
if [[ $out == *18446744073709551615* ]]; then echo "FAIL info-vk-no-ic: $out"; fails=$((fails + 1)); fi

rm -rf "$WORK"
if ((fails)); then echo "$fails case(s) failed"; exit 1; fi
exit 0
