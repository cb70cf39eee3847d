#!/usr/bin/env bash
# Installs every Debian package ompscope needs to build, test and render reports.
# Idempotent: packages already present are skipped by apt.
set -euo pipefail
pkgs=(
  build-essential cmake ninja-build pkg-config
  clang-14 libomp-14-dev libomp5-14 libgcc-12-dev gfortran
  libgtest-dev libgmock-dev libbenchmark-dev
  nlohmann-json3-dev libcli11-dev libfmt-dev libelf-dev
  libotf2-trace-dev otf2-tools python3-otf2
  chromium python3
)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
