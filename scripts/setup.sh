#!/usr/bin/env bash
# Installs what cuzk needs to build and test, from Debian packages (node and
# npm for the interop tests: scripts/interop-setup.sh). Idempotent: packages that
# are already installed are not fetched again. Run as root (or with sudo).
set -euo pipefail

pkgs=(build-essential cmake ninja-build pkg-config libfmt-dev catch2
      libbenchmark-dev libgmp-dev libssl-dev)
# Go and Rust hosts of the C ABI (tests host:go, host:rust): Go 1.19, the
# bindgen program (it loads libclang at run time and needs clang's own headers),
# and Debian's cargo and rustc only when no Rust toolchain is on PATH already.
pkgs+=(golang-go bindgen libclang1-14 libclang-common-14-dev)
command -v cargo >/dev/null 2>&1 || pkgs+=(cargo)
command -v rustc >/dev/null 2>&1 || pkgs+=(rustc)

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  [[ $(id -u) -eq 0 ]] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "setup: all packages present"
fi
