#!/usr/bin/env python3
"""Several builds of a tool against one program, interleaved round by round (base first, then
each library), at 2 threads bound like `ompscope scale`. Per library: median and min time, the
median of per-round ratios to the base run, and min against min; the same for the CPU time the
run took (user + system, from the kernel's accounting of the child): on a machine shared with
other work, a run's CPU time moves less than its wall time. Used to compare a change
against the build before it on a host whose speed drifts: keep a copy of the old
libompscope.so, rebuild, and run both in the same rounds.

usage: bench/ab_overhead.py ROUNDS PROGRAM NAME,LIBRARY[,VAR=VALUE...] ...
e.g.   bench/ab_overhead.py 21 build/bin/tiny_tasks old,/tmp/libompscope.old.so new,build/lib/libompscope.so \\
           floor,build/lib/libompt_floor_tool.so,FLOOR_MODE=all
"""
import argparse, os, resource, shlex, shutil, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from overhead import core_places  # noqa: E402  (one binding for both scripts)

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--against", default="", help="a library NAME: each other library's per-round ratios to it too "
                                                 "(the tool above the empty-callback floor)")
parser.add_argument("rounds", type=int, help="interleaved rounds")
parser.add_argument("program", help="the OpenMP program to run, with its arguments if any (one word: 'prog 40')")
parser.add_argument("libraries", nargs="+", metavar="NAME,LIBRARY[,VAR=VALUE...]",
                    help="a tool library to run the program under, with extra environment")
args = parser.parse_args()
rounds, program = args.rounds, shlex.split(args.program)
env = dict(os.environ, OMP_NUM_THREADS="2", OMP_PROC_BIND="close", OMP_PLACES=core_places())
logs = tempfile.mkdtemp(prefix="ompscope-ab-")
cases = {"base": []}
for spec in args.libraries:
    name, library, *extra = spec.split(",")
    cases[name] = ["OMP_TOOL_LIBRARIES=" + library, "OMPSCOPE_LOG_DIR=" + os.path.join(logs, "log")] + extra
times = {name: [] for name in cases}
cpu = {name: [] for name in cases}

def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime

for _ in range(rounds):
    for name, extra in cases.items():
        c, t = children_cpu(), time.perf_counter()
        subprocess.run(["env"] + extra + program, env=env, stdout=subprocess.DEVNULL, check=True)
        times[name].append(time.perf_counter() - t)
        cpu[name].append(children_cpu() - c)
for what, series in (("wall", times), ("cpu", cpu)):
    base = series["base"]
    for name, v in series.items():
        ratios = [x / y for x, y in zip(v, base)]
        print(f"{what:4s} {name:12s} median {statistics.median(v)*1e3:7.1f} ms  min {min(v)*1e3:7.1f} ms  "
              f"ratio median {(statistics.median(ratios)-1)*100:+.1f}%  min vs min {(min(v)/min(base)-1)*100:+.1f}%")
if args.against:
    for what, series in (("wall", times), ("cpu", cpu)):
        ref = series[args.against]
        for name, v in series.items():
            if name in ("base", args.against):
                continue
            ratios = [x / y for x, y in zip(v, ref)]
            print(f"{what:4s} {name:12s} against {args.against}: ratio median {(statistics.median(ratios)-1)*100:+.1f}%  "
                  f"min vs min {(min(v)/min(ref)-1)*100:+.1f}%")
shutil.rmtree(logs, ignore_errors=True)
