#!/usr/bin/env bash
# One prepared run on a many-core machine (the workplace's device machine, 16 cores): what a
# 2-vCPU VM cannot show. Real scaling of the test programs at 1-16 threads under `ompscope scale`
# (findings, time explained, the fitted model of T(t)); the construct micro-benchmarks and their
# fitted models over 1-16 threads; the capture's overhead at 16 threads beside the empty-callback
# floor; the analysis's events per CPU-second alone and with one `report` per core at once (the
# shared memory bandwidth `scale` meets when it analyses runs side by side).
#
# The machine has no compiler we can rely on and no Debian libraries, so the binaries travel:
# bench/device_pack.sh fills .dev/ (stripped bin/, lib/, the test programs in prog/, their
# shared libraries in rt/), and the run is
#   bash bench/device_scaling.sh .dev "$OUT"
# Each step has its own time limit so that one slow step leaves the others' results.
set -u
pack=$(cd "${1:-.dev}" && pwd)
out=${2:-/tmp/device-out}
mkdir -p "$out/r"
export LD_LIBRARY_PATH=$pack/rt NO_COLOR=1
ompscope=$pack/bin/ompscope
prog=$pack/prog
log=$out/summary.txt
threads=${THREADS:-1,2,4,8,16}  # THREADS=1,2 TOOL_THREADS=2 for a trial run here
say() { echo "$*" | tee -a "$log"; }
step() { local limit=$1; shift; say "## $(date +%T) $*"; timeout "$limit" "$@" 2>&1 | grep -v "^\[ *[0-9]*/" >> "$log"; say "   rc ${PIPESTATUS[0]}"; }

parts=${PARTS:-doctor scale loops gains capture analysis bench}  # PARTS="scale gains": those alone
has() { [[ " $parts " == *" $1 "* ]]; }

say "# $(nproc) CPUs; $(grep -m1 'model name' /proc/cpuinfo)"
lscpu > "$out/r/lscpu.txt" 2>&1
has doctor && step 30 "$ompscope" doctor

# Real scaling: each program as the e2e tests run it, at 1-16 threads, 3 repeats.
scale() {
  local name=$1; shift
  say "## $(date +%T) scale $name $*"
  local t0=$SECONDS
  timeout 60 "$ompscope" scale -t "$threads" -r 3 -o "$out/r/$name" -- "$@" > "$out/r/$name.txt" 2>&1
  say "   rc $? in $((SECONDS - t0)) s"
  grep -E "^  #[0-9]|lost .* at 16 threads|16 threads:|▸|T\(t\)|model" "$out/r/$name.txt" | head -24 >> "$log"
  rm -rf "$out/r/$name/runs"
}
if has scale; then
  scale imbalanced_loop "$prog/imbalanced_loop"
  scale false_sharing "$prog/false_sharing"
  scale many_barriers "$prog/many_barriers"
  scale serial_phase "$prog/serial_phase"
  scale jacobi_deps "$prog/jacobi_deps"
  scale jacobi_deps_gcc "$prog/jacobi_deps_gcc"
  scale fib_tasks "$prog/fib_tasks" 27
  scale fib_tasks_gcc "$prog/fib_tasks_gcc" 27
  scale bots_fib_gcc "$prog/bots_fib_gcc" -n 30
  scale nqueens_tasks "$prog/nqueens_tasks"
fi

# The loop pathologies: what each names first at 16 threads, where threads share a last-level
# cache, memory bandwidth and cache lines with 15 others (false_sharing twice: the host's phases
# moved its 16-thread efficiency from 32% to 56% between two runs).
if has loops; then
  scale false_sharing_again "$prog/false_sharing"
  scale triad "$prog/triad"
  scale three_loops "$prog/three_loops"
  scale wavefront_loop "$prog/wavefront_loop"
  scale two_functions "$prog/two_functions"
  scale alloc_touch_free "$prog/alloc_touch_free"
  scale replicated_work "$prog/replicated_work"
fi

# The real gain of each designed program's fix at the largest count, bare, as `scale` binds:
# interleaved pairs (program, its fix), the medians and the median and least of the savings.
if has gains; then
  say "## $(date +%T) real gains of the fixes at ${threads##*,} threads (bare, 7 interleaved pairs)"
  timeout 150 python3 - "$prog" "${threads##*,}" >> "$log" 2>&1 <<'EOF'
import os, statistics, subprocess, sys, time
prog, t = sys.argv[1], sys.argv[2]
env = dict(os.environ, OMP_NUM_THREADS=t, OMP_PROC_BIND="close", OMP_PLACES="cores")
def timed(cmd):
    s = time.perf_counter()
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - s
for label, before, after in [("false_sharing -> padded", ["false_sharing"], ["false_sharing", "padded"]),
                             ("imbalanced_loop -> dynamic", ["imbalanced_loop"], ["imbalanced_loop", "dynamic"]),
                             ("fib_tasks 27 -> depth cutoff 10", ["fib_tasks", "27"], ["fib_tasks", "27", "10"]),
                             ("fib_tasks_gcc 27 -> depth cutoff 10", ["fib_tasks_gcc", "27"], ["fib_tasks_gcc", "27", "10"])]:
    pairs = [(timed([f"{prog}/{before[0]}"] + before[1:]), timed([f"{prog}/{after[0]}"] + after[1:])) for _ in range(7)]
    b, a = statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs)
    saved = [p[0] - p[1] for p in pairs]
    print(f"   {label:30s} {b*1e3:8.1f} -> {a*1e3:8.1f} ms: saves {1e3*statistics.median(saved):7.1f} ms median, {1e3*min(saved):7.1f} least")
EOF
  say "   rc $?"
fi

# The capture at 16 threads: interleaved rounds of the bare program, the empty-callback floor and
# the tool (sampling on, as users run it).
if has capture; then
say "## $(date +%T) capture overhead at 16 threads"
timeout 120 python3 - "$pack" >> "$log" 2>&1 <<'EOF'
import os, statistics, subprocess, sys, tempfile, time
pack = sys.argv[1]
env = dict(os.environ, OMP_NUM_THREADS=os.environ.get("TOOL_THREADS", "16"), OMP_PROC_BIND="close", OMP_PLACES="cores")
logdir = tempfile.mkdtemp()
tool = {"OMP_TOOL_LIBRARIES": f"{pack}/lib/libompscope.so", "OMPSCOPE_LOG_DIR": logdir}
floor = {"OMP_TOOL_LIBRARIES": f"{pack}/lib/libompt_floor_tool.so", "FLOOR_MODE": "all"}
cases = [("loop_stencil", [f"{pack}/prog/loop_stencil"]), ("many_regions", [f"{pack}/prog/many_regions"]),
         ("many_barriers", [f"{pack}/prog/many_barriers"]), ("tiny_tasks", [f"{pack}/prog/tiny_tasks"]),
         ("fib_tasks 27", [f"{pack}/prog/fib_tasks", "27"])]
def timed(cmd, extra):
    t = time.perf_counter()
    subprocess.run(cmd, env=dict(env, **extra), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    dt = time.perf_counter() - t
    subprocess.run(["rm", "-rf", logdir]); os.makedirs(logdir)
    return dt
for label, cmd in cases:
    rows = []
    for _ in range(5):
        b, f, t = timed(cmd, {}), timed(cmd, floor), timed(cmd, tool)
        rows.append((b, f, t))
    med = lambda i: statistics.median(r[i] / r[0] for r in rows)
    print(f"   {label:14s} bare {statistics.median(r[0] for r in rows)*1e3:8.1f} ms  floor {100*(med(1)-1):+6.1f}%  tool {100*(med(2)-1):+6.1f}%  (medians of 5 interleaved ratios)")
EOF
say "   rc $?"
fi

# The analysis: one report alone, then one per core at once on copies of the same log.
if has analysis; then
say "## $(date +%T) analysis of a 10 M-event synthetic log"
work=$(mktemp -d)
"$pack/bin/synthetic_log" "$work/log" 10000000 >> "$log" 2>&1
for rep in 1 2; do
  "$pack/bin/time" -f "   alone: %e s wall, %U s user, %S s sys, %M kB peak" "$ompscope" report "$work/log" > "$work/alone.txt" 2>> "$log"
done
for i in $(seq 1 "$(nproc)"); do cp -r "$work/log" "$work/log$i"; done
for i in $(seq 1 "$(nproc)"); do
  "$pack/bin/time" -f "%e %U %S %M" -o "$work/t$i" "$ompscope" report "$work/log$i" > /dev/null 2>&1 &
done
wait
cat "$work"/t[0-9]* | awk -v n="$(nproc)" '{ u += $2 + $3; if ($1 > m) m = $1 } END { printf "   %d at once: slowest %.2f s wall, mean %.2f CPU-s each (10 M events each)\n", n, m, u / n }' >> "$log"
rm -rf "$work"
fi

# The construct micro-benchmarks over 1-16 threads and their fitted models.
if has bench; then
  step 200 "$ompscope" bench --quick -t "$threads" --runtime both -o "$out/r/bench.json"
  step 30 "$ompscope" model "$out/r/bench.json"
fi
say "## $(date +%T) done"
tar -C "$out" -czf "$out/results.tgz" r && rm -rf "$out/r"
