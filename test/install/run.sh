#!/usr/bin/env bash
# test install:find_package — installs the build tree into a fresh prefix,
# builds test/install/consumer against it with find_package(cuzk), runs it.
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
cmake -S "$src/test/install/consumer" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DCUZK_EXAMPLE_SOURCE="$src/examples/prove_sha256.cpp" "${flags[@]}" >"$work/configure.log"
cmake --build "$work/build" >"$work/build.log"
"$work/build/consumer_cpp"
if [[ -x $work/build/consumer_c ]]; then
  "$work/build/consumer_c"
fi
echo "install:find_package: ok"
