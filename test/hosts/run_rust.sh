#!/usr/bin/env bash
# ctest host:rust — the Rust binding (bindings/rust: cuzk-sys, whose
# declarations the bindgen program makes at build time, and the safe crate
# cuzk) against the just-built libcuzk.so, found through pkg-config
# (cuzk-capi-uninstalled.pc of the build tree): runs its `cargo test`,
# checks that cuzk-sys's generated declarations hold every function of
# cuzk.h and cuzk_filecoin.h, then builds and runs examples/rust, a crate of
# its own that depends on cuzk.
# Usage: run_rust.sh <repo root> <work dir> <folder of libcuzk.so> <folder of the build's .pc files>
# With CUZK_POST_VANILLA=<prefix> in the environment (set by the ctest, the
# files written by test_capi_post_fixture) the tests and the host
# (--post-vanilla) also prove and verify those 2 KiB WindowPoSt vanilla proofs.
# With CUZK_UPDATE_VANILLA=<prefix> (the files written by
# test_capi_update_fixture) it also proves and verifies that 2 KiB SnapDeals
# update (--update-vanilla).
# Needs cargo, rustc (>= 1.63) and bindgen (Debian packages cargo, rustc,
# bindgen; scripts/setup.sh installs them); without them the test fails and
# says which package is missing.
set -euo pipefail
root=$1 work=$2 libdir=$3 pcdir=$4

missing=()
command -v cargo   >/dev/null 2>&1 || missing+=(cargo)
command -v rustc   >/dev/null 2>&1 || missing+=(rustc)
command -v bindgen >/dev/null 2>&1 || missing+=(bindgen)
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
if ((${#missing[@]})); then
  echo "FAIL: missing program(s) ${missing[*]}: install the Debian package(s) ${missing[*]} (scripts/setup.sh installs them)"
  exit 1
fi
[[ -f $libdir/libcuzk.so ]] || { echo "FAIL: $libdir/libcuzk.so is missing (build the target cuzk_capi)"; exit 1; }
[[ -f $pcdir/cuzk-capi-uninstalled.pc ]] || { echo "FAIL: $pcdir/cuzk-capi-uninstalled.pc is missing (configure the build with the C ABI)"; exit 1; }

# A libcuzk.so built with CUZK_SANITIZE=address needs the ASan runtime loaded
# first in a host that is not instrumented itself: preload it for the run
# (not for the build).
run_env=()
if readelf -d "$libdir/libcuzk.so" 2>/dev/null | grep -q 'NEEDED.*libasan'; then
  asan=$(readlink -f "$(${CC:-cc} -print-file-name=libasan.so)")
  run_env=(LD_PRELOAD="$asan")
  # cargo test runs the test programs through this runner (not cargo or rustc).
  export CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER="env LD_PRELOAD=$asan"
  echo "sanitized libcuzk.so: running with LD_PRELOAD=$asan"
fi

mkdir -p "$work/rust"
# A private CARGO_HOME keeps the build off ~/.cargo; the crates have no
# dependencies, so nothing is fetched (--offline). One target folder serves
# the binding's workspace and the example. cuzk-sys finds cuzk.h,
# cuzk_filecoin.h and libcuzk.so through pkg-config; the rpath lets the
# programs find the library.
export CARGO_HOME="$work/rust/cargo-home" CARGO_TARGET_DIR="$work/rust/target"
export PKG_CONFIG_PATH="$pcdir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" RUSTFLAGS="-C link-arg=-Wl,-rpath,$libdir"
unset CUZK_LIB_DIR CUZK_INCLUDE_DIR
cargo --version; rustc --version; bindgen --version
status=0
cargo test --offline --locked --manifest-path "$root/bindings/rust/Cargo.toml" || status=$?
if ((status != 0)); then
  echo "FAIL: cargo test of bindings/rust exited with status $status"
  exit 1
fi
echo "cargo test: ok"
# cuzk-sys's bindgen output (the newest, should older builds be there)
# declares every function of the C ABI's two headers.
bindings=$(find "$CARGO_TARGET_DIR/debug/build" -path '*/cuzk-sys-*/out/bindings.rs' -printf '%T@ %p\n' |
             sort -n | tail -n 1 | cut -d' ' -f2-)
[[ -n $bindings ]] || { echo "FAIL: cuzk-sys's bindings.rs not found under $CARGO_TARGET_DIR/debug/build"; exit 1; }
declared=$(grep -ho '^CUZK_API [^(]*(' "$root/capi/cuzk.h" "$root/capi/cuzk_filecoin.h" | grep -o 'cuzk_[a-z0-9_]*($' | tr -d '(' | sort -u)
bound=$(grep -o 'pub fn cuzk_[a-z0-9_]*' "$bindings" | sed 's/^pub fn //' | sort -u)
missing=$(comm -23 <(echo "$declared") <(echo "$bound"))
if [[ -n $missing ]]; then
  echo "FAIL: cuzk-sys's bindings lack these functions of the headers:" $missing
  exit 1
fi
echo "bindings: all $(wc -l <<<"$declared") functions of cuzk.h and cuzk_filecoin.h"
cargo build --offline --locked --manifest-path "$root/examples/rust/Cargo.toml"
args=()
if [[ -n ${CUZK_POST_VANILLA:-} ]]; then
  args+=(--post-vanilla "$CUZK_POST_VANILLA")
fi
if [[ -n ${CUZK_UPDATE_VANILLA:-} ]]; then
  args+=(--update-vanilla "$CUZK_UPDATE_VANILLA")
fi
status=0
env "${run_env[@]}" "$CARGO_TARGET_DIR/debug/cuzk-host" "${args[@]}" || status=$?
if ((status != 0)); then
  echo "FAIL: cuzk-host exited with status $status"
  exit 1
fi
