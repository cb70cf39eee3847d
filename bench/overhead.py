#!/usr/bin/env python3
"""Overhead of `ompscope profile` on real programs: interleaved runs with and without the tool
at 2 threads, reported as the median and min of per-pair ratios (tool / no tool).

usage: bench/overhead.py BUILD_DIR [PAIRS] [--only SUBSTRING] [--against LIBOMPSCOPE_SO]

--against adds a run with another build of libompscope.so to each pair (a before/after of a
capture change, in the same interleaved rounds) and reports the ratio of the two tool runs.
"""
import argparse, os, shutil, statistics, subprocess, tempfile, time


def core_places():
    """One place per core from the kernel's sibling lists, as `ompscope scale` binds (libomp's
    own OMP_PLACES=cores can make one place of two vCPUs, time-sharing a 2-thread run)."""
    cores = {}
    for cpu in sorted(os.sched_getaffinity(0)):
        try:
            text = open(f"/sys/devices/system/cpu/cpu{cpu}/topology/thread_siblings_list").read().strip()
        except OSError:
            return "cores"
        siblings = set()
        for part in text.split(","):
            lo, _, hi = part.partition("-")
            siblings.update(range(int(lo), int(hi or lo) + 1))
        core = sorted(siblings & os.sched_getaffinity(0))
        cores[core[0]] = core
    return ",".join("{" + ",".join(map(str, c)) + "}" for _, c in sorted(cores.items()))

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", help="the build directory (bin/, lib/, tests/programs/)")
    parser.add_argument("pairs", type=int, nargs="?", default=9, help="interleaved pairs per case (default 9)")
    parser.add_argument("--only", default="", help="run only the cases whose label contains this text")
    parser.add_argument("--against", default="", help="another libompscope.so, run in each round beside this build's")
    args = parser.parse_args()
    build, pairs = args.build, args.pairs
    env = dict(os.environ, OMP_NUM_THREADS="2", OMP_PROC_BIND="close", OMP_PLACES=core_places(), NO_COLOR="1")

    def timed(cmd):
        t = time.perf_counter()
        subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return time.perf_counter() - t

    ompscope = os.path.join(build, "lib", "libompscope.so")
    floor = os.path.join(build, "lib", "libompt_floor_tool.so")
    tiny = os.path.join(build, "bin", "tiny_tasks")
    lock_per_item = os.path.join(build, "tests", "programs", "lock_per_item")
    # (label, program, tool library, extra environment of the tool run)
    cases = [("one_region (the fixed cost: load, logs, writer, finalize)", os.path.join(build, "bin", "one_region"), ompscope, {}),
             ("loop_stencil", os.path.join(build, "bin", "loop_stencil"), ompscope, {}),
             ("tiny_tasks", tiny, ompscope, {}),
             ("tiny_tasks, sampling off", tiny, ompscope, {"OMPSCOPE_SAMPLING": "off"}),
             ("tiny_tasks, floor: empty OMPT task callbacks", tiny, floor, {"FLOOR_MODE": "empty"}),
             ("tiny_tasks, floor: every callback ompscope registers, empty", tiny, floor, {"FLOOR_MODE": "all"}),
             ("tiny_tasks, floor: TSC + store into a cached ring", tiny, floor, {"FLOOR_MODE": "tsc"}),
             ("many_regions", os.path.join(build, "tests", "programs", "many_regions"), ompscope, {}),
             ("many_regions, sampling off", os.path.join(build, "tests", "programs", "many_regions"), ompscope,
              {"OMPSCOPE_SAMPLING": "off"}),
             # 100 000 barriers 0.6 us apart: the kernel's accounting read at one barrier in 256
             # after the first 64 (capture/thread_usage.h), against the empty-callback floor.
             ("many_barriers", os.path.join(build, "tests", "programs", "many_barriers"), ompscope, {}),
             ("many_barriers, floor: every callback ompscope registers, empty",
              os.path.join(build, "tests", "programs", "many_barriers"), floor, {"FLOOR_MODE": "all"}),
             # A lock per data item, 4 M acquisitions: lock sampling against the empty-callback floor.
             ("lock_per_item", lock_per_item, ompscope, {}),
             ("lock_per_item, sampling off", lock_per_item, ompscope, {"OMPSCOPE_SAMPLING": "off"}),
             ("lock_per_item, floor: every callback ompscope registers, empty", lock_per_item, floor, {"FLOOR_MODE": "all"})]
    # GCC builds on GNU libgomp, observed by the preloaded interposer (docs/libgomp.md).
    gomp = os.path.join(build, "lib", "libompscope_gomp.so")
    gcc_dir = tempfile.mkdtemp(prefix="ompscope-overhead-gcc-")
    source_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    for label, source in [("loop_stencil", "bench/programs/loop_stencil.c"), ("tiny_tasks", "bench/programs/tiny_tasks.c"),
                          ("locks_per_thread", "tests/programs/locks_per_thread.c")]:
        gcc_program = os.path.join(gcc_dir, label)
        case = f"{label}, gcc on GNU libgomp (interposed)"
        if args.only not in case:
            continue
        subprocess.run(["gcc", "-fopenmp", "-O2", "-g", os.path.join(source_dir, source), "-o", gcc_program, "-lm"], check=True)
        cases.append((case, gcc_program, gomp, {}))
    for name, program, library, extra in (c for c in cases if args.only in c[0]):
        out = tempfile.mkdtemp(prefix="ompscope-overhead-")
        base, tool, ratios, against = [], [], [], []
        attach = "LD_PRELOAD=" if library == gomp else "OMP_TOOL_LIBRARIES="
        # The program alone under the tool (the analysis afterwards is not overhead on the program):
        # OMP_TOOL_LIBRARIES as `ompscope profile` sets it.
        def under(lib):
            return timed(["env", attach + lib, "OMPSCOPE_LOG_DIR=" + os.path.join(out, "log")] +
                         [f"{k}={v}" for k, v in extra.items()] + [program])
        compare = args.against and library == ompscope
        for i in range(pairs):
            b = timed(["env", program])  # the same exec chain as the tool run: env costs 2.4 ms here
            if compare and i % 2:  # alternating which build goes first
                a = under(args.against)
                t = under(library)
            else:
                t = under(library)
                a = under(args.against) if compare else None
            base.append(b); tool.append(t); ratios.append(t / b)
            if compare:
                against.append(t / a)
        print(f"{name}: no tool median {statistics.median(base)*1e3:.0f} ms, with tool median "
              f"{statistics.median(tool)*1e3:.0f} ms (median difference "
              f"{statistics.median(t - b for t, b in zip(tool, base))*1e3:+.1f} ms); overhead median {(statistics.median(ratios)-1)*100:+.1f}% "
              f"min {(min(ratios)-1)*100:+.1f}% over {pairs} interleaved pairs")
        if against:
            print(f"  this build / {args.against}: median {(statistics.median(against)-1)*100:+.1f}% "
                  f"min {(min(against)-1)*100:+.1f}% max {(max(against)-1)*100:+.1f}% over {pairs} rounds")
        shutil.rmtree(out, ignore_errors=True)
    shutil.rmtree(gcc_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
