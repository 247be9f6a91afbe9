#!/usr/bin/env bash
# Installs what cuzk needs to build and test, from Debian packages (node and
# npm for the interop tests: scripts/interop-setup.sh). Idempotent: packages that
# are already installed are not fetched again. Run as root (or with sudo).
set -euo pipefail

# --program: only what the library and the cuzk program need (scripts/demo.sh),
# so that a fresh machine reaches the demo without the test toolchains.
only_program=0
case "${1:-}" in
  --program) only_program=1 ;;
  "") ;;
  *) echo "usage: $0 [--program]" >&2; exit 2 ;;
esac

pkgs=(build-essential cmake ninja-build pkg-config libfmt-dev libssl-dev)
if ((only_program == 0)); then
  # Tests and benchmarks: Catch2 v2, Google Benchmark, GMP.
  pkgs+=(catch2 libbenchmark-dev libgmp-dev)
  # Go and Rust bindings of the C ABI (tests host:go, host:rust): Go 1.19, the
  # bindgen program (it loads libclang at run time and needs clang's own
  # headers), and Debian's cargo and rustc only when no Rust toolchain is on
  # PATH already.
  pkgs+=(golang-go bindgen libclang1-14 libclang-common-14-dev)
  command -v cargo >/dev/null 2>&1 || pkgs+=(cargo)
  command -v rustc >/dev/null 2>&1 || pkgs+=(rustc)
  # The proving daemon, cuzk serve (daemon/, built when these are present):
  # C++ gRPC and protobuf with their compilers, and Python's grpcio and
  # protobuf for its tests' client.
  pkgs+=(libgrpc++-dev libprotobuf-dev protobuf-compiler protobuf-compiler-grpc python3-grpcio python3-protobuf)
fi

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
