#!/usr/bin/env bash
# The main job on a bundled example: installs what is needed, builds ompscope, and runs
# `ompscope scale` on a loop with a designed load imbalance. Open ompscope-demo/report.html.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cmake --preset default
cmake --build --preset default -j "$(nproc)"
build/bin/ompscope scale -t 1,2 -r 3 -o ompscope-demo -- build/tests/programs/imbalanced_loop
