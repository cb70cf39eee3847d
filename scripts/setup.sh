#!/usr/bin/env bash
# Installs every Debian package ompscope needs to build, test and render reports, and unpacks
# LLVM 19's OpenMP runtime for the runtime matrix (scripts/test.sh).
# Idempotent: packages already present are skipped by apt.
set -euo pipefail
cd "$(dirname "$0")/.."
pkgs=(
  build-essential cmake ninja-build pkg-config
  gcc g++ clang-14 libomp-14-dev libomp5-14 libgcc-12-dev gfortran
  libgtest-dev libgmock-dev libbenchmark-dev
  nlohmann-json3-dev libcli11-dev libfmt-dev libelf-dev libmimalloc-dev
  libotf2-trace-dev otf2-tools python3-otf2
  chromium python3
  openmpi-bin libopenmpi-dev
  time numactl
)
missing=()
for p in "${pkgs[@]}"; do
  [[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" == "install ok installed" ]] || missing+=("$p")
done
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# libomp 19: its package conflicts with libomp5-14 (both own the system's libomp.so.5), so it is
# unpacked into build-runtimes/ instead of installed; the library needs only libc. Tests run on
# it through LD_LIBRARY_PATH (docs/runtime-quirks.md, "Runtime versions").
runtime=build-runtimes/libomp-19
if [ ! -e "$runtime/usr/lib/llvm-19/lib/libomp.so.5" ]; then
  mkdir -p "$runtime"
  (cd "$runtime" && { apt-get download -qq libomp5-19 2>/dev/null || { ${SUDO:-} apt-get update -qq && apt-get download -qq libomp5-19; }; } &&
     dpkg -x libomp5-19_*.deb . && rm -f libomp5-19_*.deb)
fi
