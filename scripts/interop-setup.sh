#!/usr/bin/env bash
# Makes sure node and npm exist for the interop tests (test/interop, label
# `interop`), installing the Debian packages nodejs and npm when either is
# missing. Idempotent; needs root (or sudo) only when it installs something.
# The npm packages themselves are installed by the test (npm ci from
# test/interop/package-lock.json into <build>/interop-node).
set -euo pipefail

if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
  echo "interop-setup: node $(node --version), npm $(npm --version)"
  exit 0
fi

echo "interop-setup: installing nodejs and npm"
SUDO=""
[[ $(id -u) -eq 0 ]] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends nodejs npm

for tool in node npm; do
  command -v "$tool" >/dev/null 2>&1 || { echo "interop-setup: $tool still missing after apt-get" >&2; exit 1; }
done
echo "interop-setup: node $(node --version), npm $(npm --version)"
