#!/usr/bin/env bash
# The cuzk program's output files where they cannot be written: a read-only
# folder, and a full disk (a 64 KiB tmpfs filled up). Each case must fail
# with exit 1 and a message naming the output's path and the reason, leave an
# existing file at the target byte for byte as it was, and leave no
# temporary file behind (outputs are written to a temporary file beside the
# target and renamed into place: io::output_file).
#
# A read-only folder needs a read-only mount: run as root, chmod does not stop
# the writer. So the cases run in a mount namespace of their own (unshare -m as
# root, unshare -rm, a user namespace, otherwise) where a tmpfs is mounted and
# remounted read-only; where no namespace or mount is allowed the script
# says why and exits 77, which ctest reports as skipped.
# usage: write_paths.sh <cuzk binary> <scratch dir> <tiny.r1cs> <tiny.wtns>
set -u
CUZK=$1
WORK=$2
R1CS=$3
WTNS=$4

if [[ -z ${CUZK_WRITE_PATHS_NS:-} ]]; then
    rm -rf "$WORK" && mkdir -p "$WORK" || exit 1
    for ns in "-m" "-rm"; do
        if unshare $ns --propagation private sh -c "mount -t tmpfs -o size=64k tmpfs '$WORK' && umount '$WORK'" \
            2>/dev/null; then
            CUZK_WRITE_PATHS_NS=1 exec unshare $ns --propagation private "$0" "$@"
        fi
    done
    echo "SKIP: no mount namespace with a tmpfs mount is allowed here (unshare -m / unshare -rm failed), and a"
    echo "read-only folder or a full disk cannot be made without one (chmod does not stop root)"
    rm -rf "$WORK"
    exit 77
fi

fails=0
fail() { echo "FAIL $1"; fails=$((fails + 1)); }

# A key and a proof to write (the inputs are the fuzz seeds' tiny circuit).
"$CUZK" setup "$R1CS" "$WORK/key.zkey" >/dev/null 2>&1 || { echo "setup failed"; exit 1; }

# expect_refused <name> <path named> <reason> <existing files...> -- command...
# The command must exit 1 naming the path and the reason; the existing files
# must be unchanged and no temporary file may be left in their folders.
expect_refused() {
    local name=$1 path=$2 reason=$3
    shift 3
    local files=()
    while [[ $1 != -- ]]; do files+=("$1"); shift; done
    shift
    local sums before after out rc dir
    before=$(sha256sum "${files[@]}" 2>&1)
    out=$(timeout 60 "$@" 2>&1 </dev/null)
    rc=$?
    after=$(sha256sum "${files[@]}" 2>&1)
    if [[ $rc != 1 ]]; then fail "$name: exit $rc, expected 1"; echo "$out" | tail -3; fi
    [[ $out == *"$path"* ]] || { fail "$name: the message does not name $path"; echo "$out" | tail -3; }
    [[ $out == *"$reason"* ]] || { fail "$name: the message does not say '$reason'"; echo "$out" | tail -3; }
    [[ $before == "$after" ]] || fail "$name: an existing output changed"
    for f in "${files[@]}"; do
        dir=$(dirname "$f")
        if compgen -G "$dir/.*cuzk-tmp*" >/dev/null; then fail "$name: a temporary file is left in $dir"; ls -la "$dir"; fi
    done
}

# ---- a read-only folder: a tmpfs remounted read-only, with outputs of an earlier run in it
RO=$WORK/ro
mkdir -p "$RO" && mount -t tmpfs -o size=1m tmpfs "$RO" || { echo "mount failed"; exit 1; }
echo "an earlier key" >"$RO/key.zkey"
echo '{"earlier": "proof"}' >"$RO/proof.json"
echo '["1"]' >"$RO/public.json"
mount -o remount,ro "$RO" || { echo "remount read-only failed"; exit 1; }
expect_refused ro-setup-existing "$RO/key.zkey" "Read-only file system" "$RO/key.zkey" -- \
    "$CUZK" setup "$R1CS" "$RO/key.zkey"
expect_refused ro-setup-new "$RO/new.zkey" "Read-only file system" "$RO/key.zkey" -- \
    "$CUZK" setup "$R1CS" "$RO/new.zkey"
[[ -e $RO/new.zkey ]] && fail "ro-setup-new: the file exists"
expect_refused ro-prove "$RO/proof.json" "Read-only file system" "$RO/proof.json" "$RO/public.json" -- \
    "$CUZK" prove "$WORK/key.zkey" "$WTNS" "$RO/proof.json" "$RO/public.json"
umount "$RO"

# ---- a full disk: a 64 KiB tmpfs with an earlier key in it, then filled to the last block
FULL=$WORK/full
mkdir -p "$FULL" && mount -t tmpfs -o size=64k tmpfs "$FULL" || { echo "mount failed"; exit 1; }
cp "$WORK/key.zkey" "$FULL/key.zkey"
echo '{"earlier": "proof"}' >"$FULL/proof.json"
echo '["1"]' >"$FULL/public.json"
dd if=/dev/zero of="$FULL/filler" bs=1k 2>/dev/null   # stops at "No space left on device"
expect_refused full-setup "$FULL/key.zkey" "No space left on device" "$FULL/key.zkey" -- \
    "$CUZK" setup "$R1CS" "$FULL/key.zkey"
expect_refused full-prove "$FULL/proof.json" "No space left on device" "$FULL/proof.json" "$FULL/public.json" -- \
    "$CUZK" prove "$WORK/key.zkey" "$WTNS" "$FULL/proof.json" "$FULL/public.json"
# With room again the same commands write in place.
rm -f "$FULL/filler"
"$CUZK" setup "$R1CS" "$FULL/key.zkey" >/dev/null 2>&1 || fail "full-then-room: setup failed"
"$CUZK" prove "$WORK/key.zkey" "$WTNS" "$FULL/proof.json" "$FULL/public.json" >/dev/null 2>&1 ||
    fail "full-then-room: prove failed"
cmp -s "$FULL/key.zkey" "$WORK/key.zkey" && fail "full-then-room: a fresh key equals the earlier one"
grep -q pi_a "$FULL/proof.json" || fail "full-then-room: proof.json was not written"
umount "$FULL"

rm -rf "$WORK"
if ((fails)); then echo "$fails case(s) failed"; exit 1; fi
echo "write paths: read-only folder and full disk refused by name, existing outputs intact"
exit 0
