#!/usr/bin/env bash
# Time and peak memory of `ompscope report` on synthetic logs of growing length (bench/analysis/
# synthetic_log.cpp: a 2-thread region repeated, each instance a loop, its barrier, a critical
# section and a 12-task tree): events per CPU-second (user + system: the host is shared, wall
# time is not the analysis's) and peak RSS per event (BENCHMARKS.md, "Streaming analysis").
# usage: bench/analysis_stream.sh [BUILD_DIR] [EVENTS...]   (default: 1000000 10000000)
# OMPSCOPE=path/to/ompscope compares another build's CLI on the same logs.
set -euo pipefail
build=${1:-build}
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000000 10000000)
ompscope=${OMPSCOPE:-$build/bin/ompscope}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf "%-12s %10s %10s %10s %12s %12s %10s\n" events wall_s cpu_s peak_MB "events/cpu-s" bytes/event report
for n in "${sizes[@]}"; do
  "$build/bin/synthetic_log" "$work/log" "$n" > "$work/made.txt"
  events=$(cut -d' ' -f1 "$work/made.txt")
  for rep in 1 2 3; do
    /usr/bin/time -f "%e %U %S %M" -o "$work/time.txt" "$ompscope" report "$work/log" > "$work/report.txt"
    read -r wall user sys kb < "$work/time.txt"
    awk -v n="$events" -v w="$wall" -v u="$user" -v s="$sys" -v kb="$kb" -v sum="$(md5sum < "$work/report.txt" | cut -c1-8)" \
      'BEGIN { c = u + s; printf "%-12d %10.2f %10.2f %10.0f %12.3g %12.0f %10s\n", n, w, c, kb / 1024, (c > 0 ? n / c : 0), kb * 1024 / n, sum }'
  done
  rm -rf "$work/log"
done
