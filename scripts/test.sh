#!/usr/bin/env bash
# The whole test suite on a fresh Debian 12 machine: installs what is needed, builds, runs
# every test (unit, e2e, browser), then the sanitizer builds (ASan+UBSan on the unit tests,
# TSan on the capture core). Fails on the first failing stage.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
jobs=$(nproc)

cmake --preset default
cmake --build --preset default -j "$jobs"
ctest --preset default -j "$jobs" --timeout 900

cmake --preset asan
cmake --build --preset asan -j "$jobs"
ASAN_OPTIONS=detect_leaks=1 ctest --preset asan -j "$jobs" --timeout 900

cmake --preset tsan
cmake --build --preset tsan -j "$jobs" --target capture_tests ompscope_tool
ctest --preset tsan -j "$jobs" --timeout 900
echo "all tests passed"
