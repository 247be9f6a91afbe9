#!/usr/bin/env bash
# test install:find_package — installs the build tree into a fresh prefix
# (checking that no internal header of lib/ is among the installed files, and
# that both headers of the C ABI are when it was built),
# builds test/install/consumer against it with find_package(cuzk), runs it,
# then builds against the same prefix through pkg-config (cuzk.pc, cuzk-capi.pc).
#   run.sh <build dir> <source dir> <work dir> [sanitizers]
# With sanitizers (the build's CUZK_SANITIZE, e.g. address,undefined) the
# installed libraries are instrumented, so the consumer is built with the same
# -fsanitize flags.
set -euo pipefail
build=$1 src=$2 work=$3 san=${4:-}
flags=()
if [[ -n $san ]]; then
  flags=(-DCMAKE_CXX_FLAGS="-fsanitize=$san" -DCMAKE_C_FLAGS="-fsanitize=$san"
         -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=$san")
fi
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >"$work/install.log"
# Only public headers are installed: none of the internal ones kept under lib/
# (e.g. the host ↔ kernel interface, lib/backend/bridge/).
while IFS= read -r h; do
  if [[ -n $(find "$work/prefix" -name "$(basename "$h")" -print -quit) ]]; then
    echo "install:find_package: the internal header $h was installed" >&2
    exit 1
  fi
done < <(cd "$src" && find lib -name '*.hpp')
# With the C ABI (libcuzk.so installed), both of its headers are installed.
if [[ -n $(find "$work/prefix" -name 'libcuzk.so*' -print -quit) ]]; then
  for h in cuzk.h cuzk_filecoin.h; do
    if [[ -z $(find "$work/prefix" -name "$h" -print -quit) ]]; then
      echo "install:find_package: the C ABI's header $h was not installed" >&2
      exit 1
    fi
  done
fi
cmake -S "$src/test/install/consumer" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DCUZK_EXAMPLE_SOURCE="$src/examples/prove_sha256.cpp" "${flags[@]}" >"$work/configure.log"
cmake --build "$work/build" >"$work/build.log"
"$work/build/consumer_cpp"
if [[ -x $work/build/consumer_c ]]; then
  "$work/build/consumer_c"
fi

# The build tree is a package too (export()): the consumer configures against it.
cmake -S "$src/test/install/consumer" -B "$work/build-tree" -G Ninja -Dcuzk_DIR="$build" \
  -DCUZK_EXAMPLE_SOURCE="$src/examples/prove_sha256.cpp" >"$work/configure-build-tree.log"

# pkg-config finds the same install: cuzk.pc (C++ library) links a program
# that calls into libcuzk.a, cuzk-capi.pc (when the C ABI was built) the C consumer.
pcdir=$(dirname "$(find "$work/prefix" -name cuzk.pc -print -quit)")
export PKG_CONFIG_PATH=$pcdir
pkg-config --exists --print-errors "cuzk = $(pkg-config --modversion cuzk)"
sanflags=()
[[ -n $san ]] && sanflags=(-fsanitize="$san")
printf '%s\n' '#include "cuzk/groth16/setup.hpp"' \
  'int main() { return cuzk::groth16::toxic_waste::random().tau.is_zero() ? 1 : 0; }' >"$work/pc.cpp"
# shellcheck disable=SC2046  # pkg-config output is a list of flags
c++ -std=c++20 "${sanflags[@]}" "$work/pc.cpp" -o "$work/pc_cpp" $(pkg-config --cflags --libs cuzk)
"$work/pc_cpp"
if pkg-config --exists cuzk-capi; then
  # shellcheck disable=SC2046
  cc "${sanflags[@]}" "$src/test/install/consumer/main.c" -o "$work/pc_c" $(pkg-config --cflags --libs cuzk-capi) \
    -Wl,-rpath,"$(pkg-config --variable=libdir cuzk-capi)"
  "$work/pc_c"
fi
echo "install:find_package: ok"
