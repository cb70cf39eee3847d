#!/usr/bin/env bash
# Records fine_tasks (400 000 tiny tasks, 2 threads) with and without task sampling and times
# the analysis of each log: events/s per stage (BENCHMARKS.md, "Analysis throughput").
# usage: bench/analysis_throughput.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for mode in on off; do
  OMP_NUM_THREADS=2 OMPSCOPE_SAMPLING=$mode "$build/bin/ompscope" profile -o "$work/$mode" -- \
    "$build/tests/programs/fine_tasks" > /dev/null 2>&1
  echo "== fine_tasks, sampling $mode"
  "$build/bin/analysis_throughput" "$work/$mode/runs/run-r0" --benchmark_repetitions=5 \
    --benchmark_report_aggregates_only=true 2>&1 | grep -E "_(median|stddev) "
done
