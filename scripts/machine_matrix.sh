#!/usr/bin/env bash
# The e2e suite under the conditions of other machines (issue 24): libomp 14 and 19, runs bound
# (scale's default) and unbound (OMP_PROC_BIND=false), a competing busy process, a cgroup CPU
# quota (cgroup v2 cpu.max, else v1 cfs_quota_us), taskset to one CPU, and the bench cache present
# and absent, and a capture clock of CLOCK_MONOTONIC as on a machine without an invariant TSC
# (OMPSCOPE_CLOCK=monotonic: each timestamp a vDSO call, the tool's records slower). One line per
# condition: passed / failed / skipped, the failing tests named; logs in build/matrix/CONDITION.log.
# Needs a built default preset (cmake --build --preset default).
#
#   scripts/machine_matrix.sh [-R REGEX] [CONDITION ...]
#
# CONDITION: libomp14 libomp19 unbound competing quota1.5 quota1 taskset0 cache cache19 monotonic
# (default: all).
# -R limits the tests (a ctest regex; default: every test labelled e2e). A quota or a single CPU
# leaves the diagnoses at 2 threads without 2 CPUs running at once: those tests skip (exit 77)
# and say so; the others must pass. Creating a cgroup needs root; without it, quota conditions
# are reported as not run.
set -uo pipefail
cd "$(dirname "$0")/.."
regex=""
if [[ "${1:-}" == "-R" ]]; then regex="$2"; shift 2; fi
conditions=("$@")
[[ ${#conditions[@]} -eq 0 ]] && conditions=(libomp14 libomp19 unbound competing quota1.5 quota1 taskset0 cache cache19 monotonic)
libomp19=$PWD/build-runtimes/libomp-19/usr/lib/llvm-19/lib
out=$PWD/build/matrix
mkdir -p "$out"
ompscope=$PWD/build/bin/ompscope
[[ -x $ompscope ]] || { echo "machine_matrix: build the default preset first ($ompscope missing)" >&2; exit 2; }

ctest_args=(--preset default --timeout 1800 -V)  # -V: each diagnosis test prints its margin into the log
if [[ -n $regex ]]; then ctest_args+=(-R "$regex"); else ctest_args+=(-L e2e); fi

# A cgroup with `cpus` CPUs of quota, this script's child moved into it: prints its directory.
make_cgroup() {
  local cpus=$1 name=ompscope-matrix-$$ period=100000
  local quota
  quota=$(awk -v c="$cpus" -v p=$period 'BEGIN { printf "%d", c * p }')
  if [[ -w /sys/fs/cgroup/cgroup.subtree_control ]] && grep -qw cpu /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
    mkdir -p /sys/fs/cgroup/$name && echo "$quota $period" > /sys/fs/cgroup/$name/cpu.max && echo /sys/fs/cgroup/$name && return
  fi
  if [[ -d /sys/fs/cgroup/cpu && -w /sys/fs/cgroup/cpu ]]; then
    mkdir -p /sys/fs/cgroup/cpu/$name && echo $period > /sys/fs/cgroup/cpu/$name/cpu.cfs_period_us &&
      echo "$quota" > /sys/fs/cgroup/cpu/$name/cpu.cfs_quota_us && echo /sys/fs/cgroup/cpu/$name && return
  fi
  return 1
}

run_condition() {
  local name=$1
  local log=$out/$name.log
  local env_vars=() prefix=() cgroup="" busy=""
  local cache_home
  cache_home=$(mktemp -d)  # no bench cache unless the condition makes one
  env_vars+=(XDG_CACHE_HOME="$cache_home")
  case $name in
    libomp14) ;;
    libomp19) env_vars+=(LD_LIBRARY_PATH="$libomp19") ;;
    unbound) env_vars+=(OMP_PROC_BIND=false) ;;
    monotonic) env_vars+=(OMPSCOPE_CLOCK=monotonic) ;;
    competing) sh -c 'while :; do :; done' & busy=$! ;;
    quota1.5 | quota1)
      cgroup=$(make_cgroup "${name#quota}") || { echo "$name: not run (no writable cgroup CPU controller)"; return; } ;;
    taskset0) prefix=(taskset -c 0) ;;
    cache | cache19)
      [[ $name == cache19 ]] && env_vars+=(LD_LIBRARY_PATH="$libomp19")
      env "${env_vars[@]}" "$ompscope" bench --calibrate > "$out/$name.bench.log" 2>&1 ||
        { echo "$name: bench --calibrate failed (see $out/$name.bench.log)"; return; } ;;
    *) echo "machine_matrix: unknown condition $name" >&2; return ;;
  esac
  local started=$SECONDS
  if [[ -n $cgroup ]]; then
    sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' sh "$cgroup" \
      env "${env_vars[@]}" ctest "${ctest_args[@]}" > "$log" 2>&1
  else
    env "${env_vars[@]}" "${prefix[@]}" ctest "${ctest_args[@]}" > "$log" 2>&1
  fi
  local rc=$?
  [[ -n $busy ]] && { kill "$busy"; wait "$busy" 2>/dev/null; }
  [[ -n $cgroup ]] && rmdir "$cgroup" 2>/dev/null
  rm -rf "$cache_home"
  local summary failed skipped
  summary=$(grep -E "tests passed|tests failed" "$log" | tail -1)
  failed=$(grep -E "^\s+[0-9]+ - .*\(Failed|Timeout|SEGFAULT|Exception\)" "$log" | awk '{print $3}' | tr '\n' ' ')
  skipped=$(grep -cE "\*\*\*Skipped|Not Run" "$log")
  echo "$name: ${summary:-no summary (rc $rc)}; $skipped skipped; $((SECONDS - started)) s${failed:+; failed: $failed}"
}

echo "machine_matrix on $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
for c in "${conditions[@]}"; do run_condition "$c"; done
