#!/usr/bin/env bash
# The whole test suite on a fresh Debian 12 machine: installs what is needed, builds, runs
# every test (unit, e2e, browser), the e2e suite again on libomp 19 (the runtime matrix), the
# sanitizer builds (ASan+UBSan on the unit tests, TSan on the capture core), the fuzz targets
# (a fixed 2000 inputs each) and the packaging test (a GCC build with lib64, installed and
# used). Fails on the first failing stage.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
jobs=$(nproc)

cmake --preset default
cmake --build --preset default -j "$jobs"
ctest --preset default -j "$jobs" --timeout 900

# libomp 19, unpacked by scripts/setup.sh: the programs load it through LD_LIBRARY_PATH, and the
# CLI takes it for GCC-built programs under --runtime llvm (docs/runtime-quirks.md).
libomp19=$PWD/build-runtimes/libomp-19/usr/lib/llvm-19/lib
# The output is captured before it is matched: under pipefail, `ldd | grep -q` fails whenever grep
# stops reading before ldd has written its last line (SIGPIPE), which it did once in CI.
loaded=$(LD_LIBRARY_PATH=$libomp19 ldd build/tests/programs/imbalanced_loop)
[[ "$loaded" == *"$libomp19/libomp.so.5"* ]] ||
  { echo "the test programs do not load libomp 19 from $libomp19; ldd says:"; echo "$loaded"; exit 1; }
LD_LIBRARY_PATH=$libomp19 ctest --preset default -L e2e -j "$jobs" --timeout 900

cmake --preset asan
cmake --build --preset asan -j "$jobs"
ASAN_OPTIONS=detect_leaks=1 ctest --preset asan -j "$jobs" --timeout 900

cmake --preset tsan
cmake --build --preset tsan -j "$jobs" --target capture_tests common_tests analysis_tests ompscope_tool ompscope_gomp
ctest --preset tsan -j "$jobs" --timeout 900

cmake --preset fuzz
cmake --build --preset fuzz -j "$jobs"
ctest --preset fuzz -j "$jobs" --timeout 900

ctest --preset install --timeout 1800
echo "all tests passed"
