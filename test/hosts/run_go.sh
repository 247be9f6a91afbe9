#!/usr/bin/env bash
# ctest host:go — the Go binding (bindings/go, package cuzk) against the
# just-built libcuzk.so, found through pkg-config (cuzk-capi-uninstalled.pc
# of the build tree): builds and runs its `go test` tests, then builds and
# runs examples/go, a module of its own that imports the binding.
# Usage: run_go.sh <repo root> <work dir> <folder of libcuzk.so> <folder of the build's .pc files> [cuzk program]
# With the cuzk program it also makes a synthetic C1 output of the smallest
# PoRep shape (8 nodes, 2 layers, 1 challenge, tree 8-0-0, zero data, so that
# its replica_id is the one of a known prover and sector) and has the host
# prove it (PoRep C2) and verify the proof.
# With CUZK_POST_VANILLA=<prefix> in the environment (set by the ctest, the
# files written by test_capi_post_fixture) the tests (TestPoSt) and the host
# (-post-vanilla) also prove and verify those 2 KiB WindowPoSt vanilla proofs.
# With CUZK_UPDATE_VANILLA=<prefix> (the files written by
# test_capi_update_fixture) it also has the host prove and verify that 2 KiB
# SnapDeals update (-update-vanilla).
# Needs the `go` program (Debian package golang-go; scripts/setup.sh installs
# it); without it the test fails and says so.
set -euo pipefail
root=$1 work=$2 libdir=$3 pcdir=$4 cli=${5:-}

if ! command -v go >/dev/null 2>&1; then
  echo "FAIL: the go program is missing: install the Debian package golang-go (scripts/setup.sh installs it)"
  exit 1
fi
[[ -f $libdir/libcuzk.so ]] || { echo "FAIL: $libdir/libcuzk.so is missing (build the target cuzk_capi)"; exit 1; }
[[ -f $pcdir/cuzk-capi-uninstalled.pc ]] || { echo "FAIL: $pcdir/cuzk-capi-uninstalled.pc is missing (configure the build with the C ABI)"; exit 1; }
command -v pkg-config >/dev/null 2>&1 || { echo "FAIL: the pkg-config program is missing: install the Debian package pkg-config"; exit 1; }

# A libcuzk.so built with CUZK_SANITIZE=address needs the ASan runtime loaded
# first in a host that is not instrumented itself: preload it for the run
# (not for the build).
run_env=()
if readelf -d "$libdir/libcuzk.so" 2>/dev/null | grep -q 'NEEDED.*libasan'; then
  asan=$(readlink -f "$(${CC:-cc} -print-file-name=libasan.so)")
  run_env=(LD_PRELOAD="$asan" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0")
  echo "sanitized libcuzk.so: running with LD_PRELOAD=$asan"
fi

mkdir -p "$work/go"
export GOFLAGS=-mod=mod GOCACHE="$work/go/cache" GOPATH="$work/go/path" GOPROXY=off GOTOOLCHAIN=local
# #cgo pkg-config: cuzk-capi finds the build tree's uninstalled .pc first.
export CGO_ENABLED=1 PKG_CONFIG_PATH="$pcdir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
unset CGO_CFLAGS CGO_LDFLAGS
go version
# The tests are compiled, then run (under the ASan preload when needed).
(cd "$root/bindings/go" && go test -c -o "$work/go/cuzk.test" .)
(cd "$root/examples/go" && go build -o "$work/go/cuzk-go-host" .)
status=0
(cd "$root/bindings/go" && env "${run_env[@]}" GODEBUG=cgocheck=2 "$work/go/cuzk.test" -test.v -test.count=1) || status=$?
if ((status != 0)); then
  echo "FAIL: go test of bindings/go exited with status $status"
  exit 1
fi
echo "go test: ok"
args=()
if [[ -n $cli ]]; then
  c1=$work/go/c1-8n.json
  info=$("$cli" porep c1 --synthetic --zero --nodes 8 --layers 2 --challenges 1 --tree 8-0-0 --porep-id 5 \
           --out "$c1" --json)
  prover=$(grep -o '"prover_id": *"[0-9a-f]*"' <<<"$info" | grep -o '[0-9a-f]\{64\}')
  sector=$(grep -o '"sector_id": *[0-9]*' <<<"$info" | grep -o '[0-9]*$')
  [[ -n $prover && -n $sector ]] || { echo "FAIL: no prover_id / sector_id in: $info"; exit 1; }
  args=(-c1 "$c1" -prover-id "$prover" -sector-id "$sector")
fi
if [[ -n ${CUZK_POST_VANILLA:-} ]]; then
  args+=(-post-vanilla "$CUZK_POST_VANILLA")
fi
if [[ -n ${CUZK_UPDATE_VANILLA:-} ]]; then
  args+=(-update-vanilla "$CUZK_UPDATE_VANILLA")
fi
status=0
# cgocheck=2: also check every store of a pointer into C memory (cgo pointer rules).
env "${run_env[@]}" GODEBUG=cgocheck=2 "$work/go/cuzk-go-host" "${args[@]}" || status=$?
if ((status != 0)); then
  echo "FAIL: cuzk-go-host exited with status $status"
  exit 1
fi
