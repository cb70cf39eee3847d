#!/usr/bin/env bash
# Time and peak memory of `ompscope report` on synthetic logs of growing length (bench/analysis/
# synthetic_log.cpp: a 2-thread region repeated, each instance a loop, its barrier, a critical
# section and a 12-task tree): events per CPU-second (user + system: the host is shared, wall
# time is not the analysis's) and peak RSS per event (BENCHMARKS.md, "Streaming analysis"); then
# each trace writer after the same timeline and trace model (bench/analysis/trace_writers.cpp: every
# slice, no --max-events cut), each stage's time and the process's peak RSS.
# usage: bench/analysis_stream.sh [BUILD_DIR] [EVENTS...]   (default: 1000000 10000000)
# OMPSCOPE=path/to/ompscope compares another build's CLI on the same logs; REPS=N repeats each
# report N times (default 3); WRITERS=0 leaves the trace writers out.
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
  for ((rep = 0; rep < ${REPS:-3}; rep++)); do
    /usr/bin/time -f "%e %U %S %M" -o "$work/time.txt" "$ompscope" report "$work/log" > "$work/report.txt"
    read -r wall user sys kb < "$work/time.txt"
    awk -v n="$events" -v w="$wall" -v u="$user" -v s="$sys" -v kb="$kb" -v sum="$(md5sum < "$work/report.txt" | cut -c1-8)" \
      'BEGIN { c = u + s; printf "%-12d %10.2f %10.2f %10.0f %12.3g %12.0f %10s\n", n, w, c, kb / 1024, (c > 0 ? n / c : 0), kb * 1024 / n, sum }'
  done
  if [ "${WRITERS:-1}" != 0 ]; then
    for format in otf2 perfetto; do
      /usr/bin/time -f "%e %U %S %M" -o "$work/time.txt" "$build/bin/trace_writers" "$work/log" "$format" "$work/out" |
        sed 's/^/    /'
      read -r wall user sys kb < "$work/time.txt"
      awk -v f="$format" -v n="$events" -v w="$wall" -v u="$user" -v s="$sys" -v kb="$kb" -v size="$(du -sm "$work/out" | cut -f1)" \
        'BEGIN { printf "  trace %-8s %8.2f s wall %8.2f s CPU, peak %6.0f MB (%4.0f B/event), %6d MB written\n", f, w, u + s, kb / 1024, kb * 1024 / n, size }'
      rm -rf "$work/out"
    done
  fi
  rm -rf "$work/log"
done
