#!/usr/bin/env bash
# Whether a change to the analysis left its reports as they were (issue 31: a faster or streamed
# analysis must give the report the current one gives). Records one log per test program and
# sampling mode with the new build, then renders each as JSON with both CLIs and compares the
# bytes: one line per log, "same" or "DIFF", and exit 1 on any difference.
# usage: [CASES=PROGRAM,...] bench/analysis_identity.sh OLD_OMPSCOPE [BUILD_DIR]
#   e.g. git worktree add /tmp/before HEAD~1 && (cd /tmp/before && cmake --preset default &&
#        cmake --build build --target ompscope) && bench/analysis_identity.sh /tmp/before/build/bin/ompscope
set -uo pipefail
old=${1:?usage: bench/analysis_identity.sh OLD_OMPSCOPE [BUILD_DIR]}
build=${2:-build}
new=$build/bin/ompscope
programs=$build/tests/programs
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Task trees, dependences, locks and loops, on libomp (clang) and on libgomp (gcc).
cases=("fine_tasks" "block_lu_deps" "jacobi_deps" "nqueens_tasks 9" "merge_sort_tasks" "wavefront_deps"
       "recursive_tasks" "tasks_where_they_ran" "lock_counts" "imbalanced_loop" "fib_tasks_gcc 20" "jacobi_deps_gcc"
       "many_barriers" "three_loops" "wavefront_loop")
[ -n "${CASES:-}" ] && IFS=, read -r -a cases <<< "$CASES"  # CASES="many_barriers,fib_tasks_gcc 20": those alone
differ=0
for c in "${cases[@]}"; do
  read -r -a argv <<< "$c"
  for mode in on off; do
    dir=$work/${argv[0]}-$mode
    OMP_NUM_THREADS=2 OMPSCOPE_SAMPLING=$mode "$new" profile -o "$dir" -- "$programs/${argv[0]}" "${argv[@]:1}" > /dev/null 2>&1
    run=$dir/runs/run-r0
    if [[ ! -d $run ]]; then
      echo "${argv[0]} (sampling $mode): no log recorded"
      differ=1
      continue
    fi
    "$old" report --format json "$run" > "$work/old.json" 2> /dev/null
    "$new" report --format json "$run" > "$work/new.json" 2> /dev/null
    if cmp -s "$work/old.json" "$work/new.json"; then
      echo "${argv[0]} (sampling $mode): same ($(wc -c < "$work/new.json") bytes)"
    else
      echo "${argv[0]} (sampling $mode): DIFF"
      # The first fields that differ, by their path in the report.
      python3 - "$work/old.json" "$work/new.json" <<'PY'
import json, sys
shown = []
def walk(a, b, path):
    if len(shown) >= 5: return
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)): walk(a.get(k), b.get(k), f"{path}/{k}")
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)): walk(x, y, f"{path}[{i}]")
    elif a != b:
        shown.append(f"    {path}: {str(a)[:120]} -> {str(b)[:120]}")
walk(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), "")
print("\n".join(shown))
PY
      differ=1
    fi
  done
done
exit $differ
