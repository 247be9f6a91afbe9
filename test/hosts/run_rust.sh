#!/usr/bin/env bash
# ctest host:rust — builds examples/rust (bindings made by the bindgen
# program at build time) against the just-built libcuzk.so and runs it.
# Usage: run_rust.sh <repo root> <work dir> <folder of libcuzk.so>
# With CUZK_POST_VANILLA=<prefix> in the environment (set by the ctest, the
# files written by test_capi_post_fixture) the host also proves and verifies
# those 2 KiB WindowPoSt vanilla proofs (--post-vanilla).
# With CUZK_UPDATE_VANILLA=<prefix> (the files written by
# test_capi_update_fixture) it also proves and verifies that 2 KiB SnapDeals
# update (--update-vanilla).
# Needs cargo, rustc (>= 1.63) and bindgen (Debian packages cargo, rustc,
# bindgen; scripts/setup.sh installs them); without them the test fails and
# says which package is missing.
set -euo pipefail
root=$1 work=$2 libdir=$3

missing=()
command -v cargo   >/dev/null 2>&1 || missing+=(cargo)
command -v rustc   >/dev/null 2>&1 || missing+=(rustc)
command -v bindgen >/dev/null 2>&1 || missing+=(bindgen)
if ((${#missing[@]})); then
  echo "FAIL: missing program(s) ${missing[*]}: install the Debian package(s) ${missing[*]} (scripts/setup.sh installs them)"
  exit 1
fi
[[ -f $libdir/libcuzk.so ]] || { echo "FAIL: $libdir/libcuzk.so is missing (build the target cuzk_capi)"; exit 1; }

# A libcuzk.so built with CUZK_SANITIZE=address needs the ASan runtime loaded
# first in a host that is not instrumented itself: preload it for the run
# (not for the build).
run_env=()
if readelf -d "$libdir/libcuzk.so" 2>/dev/null | grep -q 'NEEDED.*libasan'; then
  asan=$(readlink -f "$(${CC:-cc} -print-file-name=libasan.so)")
  run_env=(LD_PRELOAD="$asan")
  echo "sanitized libcuzk.so: running with LD_PRELOAD=$asan"
fi

mkdir -p "$work/rust"
# A private CARGO_HOME keeps the build off ~/.cargo; the crate has no
# dependencies, so nothing is fetched (--offline).
export CARGO_HOME="$work/rust/cargo-home" CARGO_TARGET_DIR="$work/rust/target"
export CUZK_LIB_DIR="$libdir" CUZK_INCLUDE_DIR="$root/capi"
cargo --version; rustc --version; bindgen --version
cargo build --offline --locked --release --manifest-path "$root/examples/rust/Cargo.toml"
args=()
if [[ -n ${CUZK_POST_VANILLA:-} ]]; then
  args+=(--post-vanilla "$CUZK_POST_VANILLA")
fi
if [[ -n ${CUZK_UPDATE_VANILLA:-} ]]; then
  args+=(--update-vanilla "$CUZK_UPDATE_VANILLA")
fi
status=0
env "${run_env[@]}" "$CARGO_TARGET_DIR/release/cuzk-host" "${args[@]}" || status=$?
if ((status != 0)); then
  echo "FAIL: cuzk-host exited with status $status"
  exit 1
fi
