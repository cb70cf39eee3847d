#!/usr/bin/env bash
# Longer fuzzing runs of every reader of outside input (tests/fuzz; CTest runs each only for a
# fixed 2000 inputs). Usage: bench/fuzz.sh [SECONDS per target, default 300] [build dir, default
# build-fuzz]. Builds with `cmake --preset fuzz && cmake --build --preset fuzz` first. Inputs
# found go to BUILD/tests/fuzz/found/<target> (never into the checked-in corpus); a crash, hang
# or sanitizer report leaves BUILD/tests/fuzz/<target>-crash-* (or timeout-*, oom-*) and fails.
# Record what each run found in BENCHMARKS.md ("Fuzzing the readers").
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-300}
build=${2:-build-fuzz}
status=0
for target in event_log_fuzz log_meta_fuzz report_fuzz extrap_text_fuzz extrap_json_fuzz bench_json_fuzz \
              scale_report_fuzz; do
  mkdir -p "$build/tests/fuzz/found/$target"
  echo "== $target, $seconds s"
  log="$build/tests/fuzz/$target.log"
  if ! "$build/bin/$target" -max_total_time="$seconds" -timeout=10 -max_len=65536 -print_final_stats=1 \
      -artifact_prefix="$build/tests/fuzz/$target-" "$build/tests/fuzz/found/$target" "tests/fuzz/corpus/$target" \
      > "$log" 2>&1; then
    status=1
  fi
  grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+==ERROR|SUMMARY)|deadly signal|Test unit written|uncaught exception" "$log" || true
done
exit $status
