#!/usr/bin/env python3
"""Locks at volume, 20 runs in a row: `ompscope profile` on lock_per_item (a lock per data item,
several million acquisitions) at 2 threads, cycling through sampled / unsampled
(OMPSCOPE_SAMPLING=off) and bound / unbound runs. Each run must leave at most 16 MB of log when
sampled, rank lock_overhead first, and split every thread's time into non-negative parts adding
up to the region's time within 1%. Prints one line per run and a summary; exits 1 on a failure.

usage: bench/lock_volume.py BUILD_DIR [RUNS] [--millions M]
"""
import argparse, json, os, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from overhead import core_places  # noqa: E402  (bound as `ompscope scale` binds: a place per core)

def log_bytes(run_dir):
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(run_dir) for f in files)

def check(report):
    """The failures of one run's report, as sentences (none: it passed)."""
    errors = []
    best = None
    for r in report["regions"]:
        for p in r["problems"]:
            if best is None or p["gain_s"] > best[1]["gain_s"]:
                best = (r, p)
    if best is None or best[1]["kind"] != "lock_overhead" or best[0] is not report["regions"][0]:
        errors.append(f"top cause {best[1]['kind'] if best else None}, expected lock_overhead")
    for r in report["regions"]:
        if r["kind"] != "parallel":
            continue
        for t, threads in r["per_thread"].items():
            for s in threads:
                parts = [s["work_s"], s["barrier_wait_s"], s["lock_wait_s"], s["fork_join_s"]]
                if min(parts + [s["task_s"]]) < 0:
                    errors.append(f"{r['id']} thread {s['thread']}: a negative part {s}")
                if abs(sum(parts) - r["time_s"][t]) > 0.01 * r["time_s"][t]:
                    errors.append(f"{r['id']} thread {s['thread']}: parts add up to {sum(parts):.4f} s, region {r['time_s'][t]:.4f} s")
    return errors

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", help="the build directory (bin/ompscope, tests/programs/lock_per_item)")
    parser.add_argument("runs", type=int, nargs="?", default=20)
    parser.add_argument("--millions", type=float, default=4, help="lock acquisitions per run, in millions (default 4)")
    args = parser.parse_args()
    ompscope = os.path.join(args.build, "bin", "ompscope")
    program = os.path.join(args.build, "tests", "programs", "lock_per_item")
    work = tempfile.mkdtemp(prefix="ompscope-lock-volume-")
    failures, sizes, firsts = 0, [], {}
    try:
        for i in range(args.runs):
            sampled, bound = i % 2 == 0, i % 4 < 2
            env = dict(os.environ, OMP_NUM_THREADS="2", NO_COLOR="1")
            if not sampled:
                env["OMPSCOPE_SAMPLING"] = "off"
            if bound:
                env.update(OMP_PROC_BIND="close", OMP_PLACES=core_places())
            out = os.path.join(work, f"run{i}")
            p = subprocess.run([ompscope, "profile", "-o", out, "--", program, str(args.millions)], env=env,
                               capture_output=True, text=True)
            errors = [f"exit {p.returncode}: {p.stderr[-500:]}"] if p.returncode else []
            size = log_bytes(os.path.join(out, "runs"))
            if sampled:
                sizes.append(size)
                if size > 16 << 20:
                    errors.append(f"{size / 2**20:.1f} MB of log, expected at most 16 MB")
            if not p.returncode:
                report = json.load(open(os.path.join(out, "report.json")))
                errors += check(report)
                ranked = sorted(((p["gain_s"], p["kind"], r["id"]) for r in report["regions"] for p in r["problems"]),
                                reverse=True)
                summary = ", ".join(f"{k} ({rid}) {g:.3f} s" for g, k, rid in ranked[:3])
                firsts[ranked[0][1] if ranked else None] = firsts.get(ranked[0][1] if ranked else None, 0) + 1
            else:
                summary = "-"
            print(f"run {i + 1:2}: {'sampled' if sampled else 'unsampled'}, {'bound' if bound else 'unbound'}: "
                  f"log {size / 2**20:6.1f} MB, causes {summary}: {'ok' if not errors else '; '.join(errors)}", flush=True)
            failures += bool(errors)
            shutil.rmtree(out, ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{args.runs - failures} of {args.runs} runs passed; sampled logs {min(sizes) / 2**20:.1f}-{max(sizes) / 2**20:.1f} MB; "
          f"ranked first: {', '.join(f'{k} {n}' for k, n in sorted(firsts.items(), key=lambda x: -x[1]))}")
    return 1 if failures else 0

if __name__ == "__main__":
    sys.exit(main())
