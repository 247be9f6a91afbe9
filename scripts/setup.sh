#!/usr/bin/env bash
# Installs what cuzk needs to build and test, from Debian packages (node and
# npm for the interop tests: scripts/interop-setup.sh). Idempotent: packages that
# are already installed are not fetched again. Run as root (or with sudo).
set -euo pipefail

pkgs=(build-essential cmake ninja-build pkg-config libfmt-dev libmsgsl-dev catch2
      libbenchmark-dev libgmp-dev)

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
