#!/usr/bin/python3
"""End-to-end check of `ompscope trace`: runs a program with a known number of explicit tasks
under the tool, then validates both traces it writes.

OTF2 (read back with otf2-print): exactly N ThreadTaskCreate and N ThreadTaskComplete events,
timestamps non-decreasing per location, Enter/Leave balanced and matched per location, locks,
forks and teams paired.

trace.json (strict): valid JSON; every X event has numeric ts and dur >= 0 with at most ns
digits; on each tid the slices, in file order, nest exactly (each one inside the one still open,
or after it); every flow has exactly one start and one end, the end not before the start; every
tid with slices is named by an M thread_name event and the pid by process_name.

Then the same with a small --max-events: the JSON trace is cut, says so, and is still valid.
A trace records every event: with --recursive-program (fib_tasks), `fib_tasks 20` (21 890 tasks
in one region, ten times what adaptive sampling records in full per site and thread) has every
task's creation and completion in OTF2, and says nothing was left out.
With --sampled-program, CPU-time samples (docs/sampling.md): a program that computes for half a
second gets at least 20 CALLING_CONTEXT_SAMPLE events in OTF2 (in time order per location, each
calling context defined with its region, the interrupt generator's period given), as many
instant "sample" events in trace.json, and most of them in the functions that compute.
Exit 0 when all holds; prints every failure otherwise.
"""
import argparse
import collections
import decimal
import json
import os
import re
import shutil
import subprocess
import sys

FAILURES = []


def fail(msg):
    FAILURES.append(msg)
    print("FAIL: " + msg, file=sys.stderr)


def run_trace(args, out_dir, extra, formats="otf2,perfetto", program_args=()):
    cmd = [args.ompscope, "trace", "--format", formats, "-o", out_dir] + extra + ["--", args.program] + list(program_args)
    env = dict(os.environ, OMP_NUM_THREADS=str(args.threads))
    proc = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    sys.stderr.write(proc.stderr)
    if proc.returncode != 0:
        fail(f"{' '.join(cmd)} exited {proc.returncode}")
    return proc


# ---------------------------------------------------------------- OTF2 ------------------------

EVENT_LINE = re.compile(r"^(?P<kind>[A-Z_]+)\s+(?P<loc>\d+)\s+(?P<time>\d+)\s*(?P<rest>.*)$")


def check_otf2(args, anchor):
    if not os.path.exists(anchor):
        fail(f"no OTF2 archive at {anchor}")
        return
    proc = subprocess.run([args.otf2_print, anchor], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          timeout=120)
    if proc.returncode != 0:
        fail(f"otf2-print failed ({proc.returncode}): {proc.stderr.strip()}")
        return
    counts = collections.Counter()
    last_time = {}
    stacks = collections.defaultdict(list)
    locks_held = {}
    lock_events = []  # (time, acquire, location, lock, acquisition order)
    per_location = collections.Counter()
    for line in proc.stdout.splitlines():
        m = EVENT_LINE.match(line)
        if not m or m.group("kind") in ("EVENT",):
            continue
        kind, loc, t, rest = m.group("kind"), int(m.group("loc")), int(m.group("time")), m.group("rest")
        counts[kind] += 1
        per_location[loc] += 1
        if loc in last_time and t < last_time[loc]:
            fail(f"location {loc}: time goes back from {last_time[loc]} to {t} at {kind}")
        last_time[loc] = t
        region = re.search(r'Region: "(.*)" <\d+>', rest)
        if kind == "ENTER":
            stacks[loc].append(region.group(1) if region else rest)
        elif kind == "LEAVE":
            name = region.group(1) if region else rest
            if not stacks[loc]:
                fail(f"location {loc}: LEAVE {name} at {t} without ENTER")
            elif stacks[loc][-1] != name:
                fail(f"location {loc}: LEAVE {name} at {t} but {stacks[loc][-1]} is open")
                stacks[loc].pop()
            else:
                stacks[loc].pop()
        elif kind in ("THREAD_ACQUIRE_LOCK", "THREAD_RELEASE_LOCK"):
            lock = re.search(r"Lock: (\d+), Acquisition Order: (\d+)", rest)
            if not lock:
                fail(f"cannot read the lock of: {line}")
                continue
            lock_events.append((t, kind == "THREAD_ACQUIRE_LOCK", loc, int(lock.group(1)), lock.group(2)))
    # A lock handed from one thread to another within one tick has its release and the next
    # acquisition at one time on two locations, which otf2-print lists in either order: at a
    # tie the release comes first (it happened first: the acquisition waited for it).
    for t, acquire, loc, key, order in sorted(lock_events, key=lambda e: (e[0], e[1])):
        if acquire:
            if key in locks_held:
                fail(f"lock {key} acquired at {t} while held")
            locks_held[key] = (loc, order)
        elif locks_held.pop(key, None) != (loc, order):
            fail(f"lock {key} released at {t} on location {loc} without a matching acquisition")
    for loc, stack in stacks.items():
        if stack:
            fail(f"location {loc}: regions left open at the end: {stack}")
    if len(per_location) < args.threads:
        fail(f"events on {len(per_location)} locations, expected at least {args.threads}")
    for kind, want in (("THREAD_TASK_CREATE", args.tasks), ("THREAD_TASK_COMPLETE", args.tasks)):
        if counts[kind] != want:
            fail(f"{counts[kind]} {kind} events, expected exactly {want}")
    if counts["THREAD_TASK_SWITCH"] < 2 * args.tasks:
        fail(f"{counts['THREAD_TASK_SWITCH']} THREAD_TASK_SWITCH events, expected at least {2 * args.tasks}")
    for a, b in (("THREAD_FORK", "THREAD_JOIN"), ("THREAD_TEAM_BEGIN", "THREAD_TEAM_END"),
                 ("THREAD_ACQUIRE_LOCK", "THREAD_RELEASE_LOCK"), ("ENTER", "LEAVE")):
        if counts[a] != counts[b]:
            fail(f"{counts[a]} {a} but {counts[b]} {b}")
    if counts["THREAD_FORK"] < 1 or counts["THREAD_TEAM_BEGIN"] < args.threads:
        fail(f"{counts['THREAD_FORK']} forks, {counts['THREAD_TEAM_BEGIN']} team begins: the parallel region is missing")
    if counts["THREAD_ACQUIRE_LOCK"] < 2:
        fail(f"{counts['THREAD_ACQUIRE_LOCK']} lock acquisitions: the critical section and the omp lock are missing")
    print(f"OTF2: {sum(counts.values())} events on {len(per_location)} locations: " +
          ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))


# ---------------------------------------------------------------- JSON ------------------------

def ns(value, what):
    """µs as written → integer ns, refusing anything that is not a number with ns precision."""
    if isinstance(value, bool) or not isinstance(value, (int, decimal.Decimal)):
        raise ValueError(f"{what} is not a number: {value!r}")
    scaled = decimal.Decimal(value) * 1000
    if scaled != scaled.to_integral_value():
        raise ValueError(f"{what} has digits below the ns: {value}")
    return int(scaled)


def check_json(path, expect_tasks, expect_truncated, max_events=None):
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f, parse_float=decimal.Decimal)
    except (OSError, ValueError) as e:
        fail(f"{path}: not valid JSON: {e}")
        return
    events = doc.get("traceEvents")
    if not isinstance(events, list):
        fail(f"{path}: no traceEvents array")
        return
    meta = doc.get("otherData", {})
    if bool(meta.get("truncated")) != expect_truncated:
        fail(f"{path}: otherData.truncated is {meta.get('truncated')}, expected {expect_truncated}")
    if expect_truncated and "cut_at_us" not in meta:
        fail(f"{path}: a cut trace does not say where it is cut")
    if max_events is not None and len(events) > max_events:
        fail(f"{path}: {len(events)} events, more than --max-events {max_events}")

    thread_names, process_names = set(), set()
    slices = collections.defaultdict(list)  # (pid, tid) → [(begin, end, name)] in file order
    flows_out, flows_in = collections.defaultdict(list), collections.defaultdict(list)
    v1_flows = collections.defaultdict(list)
    names = collections.Counter()
    for i, e in enumerate(events):
        if not isinstance(e, dict) or "ph" not in e:
            fail(f"{path}: event {i} has no ph: {e!r}")
            continue
        ph = e["ph"]
        if ph == "M":
            name = e.get("args", {}).get("name")
            if e.get("name") == "thread_name":
                if not isinstance(name, str) or not name:
                    fail(f"{path}: event {i}: thread_name without a name")
                thread_names.add((e.get("pid"), e.get("tid")))
            elif e.get("name") == "process_name":
                process_names.add(e.get("pid"))
            continue
        if ph == "X":
            try:
                begin, dur = ns(e.get("ts"), f"event {i} ts"), ns(e.get("dur"), f"event {i} dur")
            except ValueError as err:
                fail(f"{path}: {err}")
                continue
            if dur < 0 or begin < 0:
                fail(f"{path}: event {i}: negative ts or dur ({e.get('ts')}, {e.get('dur')})")
                continue
            if not isinstance(e.get("name"), str) or not isinstance(e.get("pid"), int) or not isinstance(e.get("tid"), int):
                fail(f"{path}: event {i}: name, pid or tid missing or mistyped")
                continue
            slices[(e["pid"], e["tid"])].append((begin, begin + dur, e["name"]))
            names[e.get("cat")] += 1
            if "bind_id" in e:
                if e.get("flow_out") is True:
                    flows_out[e["bind_id"]].append(begin)
                if e.get("flow_in") is True:
                    flows_in[e["bind_id"]].append(begin)
                if e.get("flow_out") is not True and e.get("flow_in") is not True:
                    fail(f"{path}: event {i}: bind_id without a flow direction")
            continue
        if ph in ("s", "t", "f"):
            v1_flows[(e.get("cat"), e.get("name"), e.get("id"))].append((ph, ns(e.get("ts"), f"event {i} ts")))
            continue
        if ph == "i":
            # A CPU-time sample (docs/sampling.md): an instant on its thread's track, at ns precision.
            try:
                t = ns(e.get("ts"), f"event {i} ts")
            except ValueError as err:
                fail(f"{path}: {err}")
                continue
            if (t < 0 or e.get("cat") != "sample" or e.get("s") != "t" or not str(e.get("name", "")).startswith("sample ")
                    or not isinstance(e.get("pid"), int) or not isinstance(e.get("tid"), int)):
                fail(f"{path}: event {i}: not a sample instant on a thread: {e!r}")
                continue
            if (e["pid"], e["tid"]) not in thread_names:
                fail(f"{path}: event {i}: a sample on tid {e['tid']}, which has no thread_name")
            continue
        fail(f"{path}: event {i}: unexpected phase {ph!r}")

    for (pid, tid), items in slices.items():
        if (pid, tid) not in thread_names:
            fail(f"{path}: tid {tid} has slices but no thread_name")
        if pid not in process_names:
            fail(f"{path}: pid {pid} has no process_name")
        open_ = []  # (end, name) of enclosing slices
        last_begin = None
        for begin, end, name in items:
            if last_begin is not None and begin < last_begin:
                fail(f"{path}: tid {tid}: '{name}' at {begin} ns is written after a slice beginning at {last_begin} ns")
            last_begin = begin
            while open_ and open_[-1][0] <= begin:
                open_.pop()
            if open_ and end > open_[-1][0]:
                fail(f"{path}: tid {tid}: '{name}' [{begin}, {end}] ns overlaps '{open_[-1][1]}' ending at {open_[-1][0]}")
            open_.append((end, name))

    for fid in set(flows_out) | set(flows_in):
        outs, ins = flows_out.get(fid, []), flows_in.get(fid, [])
        if len(outs) != 1 or len(ins) != 1:
            fail(f"{path}: flow {fid} has {len(outs)} starts and {len(ins)} ends")
        elif ins[0] < outs[0]:
            fail(f"{path}: flow {fid} ends at {ins[0]} ns, before it starts at {outs[0]} ns")
    for key, steps in v1_flows.items():
        phases = [p for p, _ in steps]
        if phases.count("s") != 1 or phases.count("f") != 1:
            fail(f"{path}: flow {key} has phases {phases}")
    flows = len(flows_out) + len(v1_flows)
    if not expect_truncated:
        if names["task_create"] != expect_tasks:
            fail(f"{path}: {names['task_create']} task creations, expected {expect_tasks}")
        if names["task"] < expect_tasks:
            fail(f"{path}: {names['task']} task slices, expected at least {expect_tasks}")
        if flows != expect_tasks:
            fail(f"{path}: {flows} flows, expected one per task: {expect_tasks}")
    print(f"JSON {os.path.basename(path)}: {len(events)} events, {sum(map(len, slices.values()))} slices on "
          f"{len(slices)} threads, {flows} flows, truncated={meta.get('truncated')}")


def check_every_task(args):
    """A trace records every event: fib_tasks 20's 21 890 tasks, all of them."""
    def tasks(n):
        a, b = 0, 0  # tasks(n - 2), tasks(n - 1)
        for k in range(2, n + 1):
            a, b = b, 2 + b + a
        return b if n >= 2 else 0
    want = tasks(20)
    out = os.path.join(args.work_dir, "every")
    recursive = argparse.Namespace(**vars(args))
    recursive.program = args.recursive_program
    proc = run_trace(recursive, out, [], formats="otf2", program_args=["20"])
    if "out of the trace" in proc.stderr:
        fail("a trace left events out without OMPSCOPE_SAMPLING set: " + proc.stderr)
    printed = subprocess.run([args.otf2_print, os.path.join(out, "trace", "traces.otf2")], stdout=subprocess.PIPE,
                             text=True, timeout=300).stdout
    counts = collections.Counter(m.group("kind") for m in map(EVENT_LINE.match, printed.splitlines()) if m)
    print(f"every event: fib_tasks 20: {counts['THREAD_TASK_CREATE']} creations, {counts['THREAD_TASK_COMPLETE']} "
          f"completions in OTF2, {want} tasks ran")
    for kind in ("THREAD_TASK_CREATE", "THREAD_TASK_COMPLETE"):
        if counts[kind] != want:
            fail(f"fib_tasks 20: {counts[kind]} {kind} events, expected every one of its {want} tasks")


def check_samples(args):
    out = os.path.join(args.work_dir, "sampled")
    cmd = [args.ompscope, "trace", "--format", "otf2,perfetto", "-o", out, "--", args.sampled_program]
    proc = subprocess.run(cmd, env=dict(os.environ, OMP_NUM_THREADS=str(args.threads)), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=120)
    if proc.returncode != 0:
        fail(f"{' '.join(cmd)} exited {proc.returncode}: {proc.stderr}")
        return
    anchor = os.path.join(out, "trace", "traces.otf2")
    events = subprocess.run([args.otf2_print, anchor], stdout=subprocess.PIPE, text=True, timeout=120).stdout
    defs = subprocess.run([args.otf2_print, "-G", anchor], stdout=subprocess.PIPE, text=True, timeout=120).stdout
    samples, last = collections.Counter(), {}
    for line in events.splitlines():
        m = EVENT_LINE.match(line)
        if not m or m.group("kind") != "CALLING_CONTEXT_SAMPLE":
            continue
        loc, t = int(m.group("loc")), int(m.group("time"))
        if t < last.get(loc, 0):
            fail(f"sample at {t} on location {loc} before the event at {last[loc]}")
        last[loc] = t
        context = re.search(r'Calling Context: "(.*?)" <\d+>', m.group("rest"))
        samples[context.group(1) if context else "?"] += 1
    total = sum(samples.values())
    if total < 20:
        fail(f"{total} CALLING_CONTEXT_SAMPLE events in the OTF2 trace, expected at least 20")
    if not re.search(r"INTERRUPT_GENERATOR\s+0\s+.*Mode: TIME.*Period: [1-9]", defs):
        fail("no time interrupt generator with its period among the OTF2 definitions")
    computing = sum(n for name, n in samples.items() if "shared_count" in name or "private_sum" in name)
    if computing < total / 2:
        fail(f"only {computing} of {total} samples in the functions that compute: {dict(samples)}")
    check_json(os.path.join(out, "trace.json"), 0, expect_truncated=False)  # strict, samples included
    trace = json.load(open(os.path.join(out, "trace.json")))
    instants = [e for e in trace["traceEvents"] if e.get("cat") == "sample"]
    if len(instants) != total or not all(e["ph"] == "i" and e["name"].startswith("sample ") for e in instants):
        fail(f"{len(instants)} sample instants in trace.json against {total} in OTF2")
    print(f"samples: {total} in OTF2 and trace.json, {computing} in the computing functions: {dict(samples)}")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ompscope", required=True)
    p.add_argument("--program", required=True)
    p.add_argument("--tasks", type=int, required=True, help="explicit tasks the program creates")
    p.add_argument("--threads", type=int, default=int(os.environ.get("OMP_NUM_THREADS", "2")))
    p.add_argument("--otf2-print", default="/usr/bin/otf2-print")
    p.add_argument("--work-dir", required=True)
    p.add_argument("--sampled-program", help="a program that computes for about half a second (CPU-time samples)")
    p.add_argument("--recursive-program", help="fib_tasks: a recursive task tree, traced whole")
    args = p.parse_args()

    shutil.rmtree(args.work_dir, ignore_errors=True)
    os.makedirs(args.work_dir)

    full = os.path.join(args.work_dir, "full")
    run_trace(args, full, [])
    check_otf2(args, os.path.join(full, "trace", "traces.otf2"))
    check_json(os.path.join(full, "trace.json"), args.tasks, expect_truncated=False)
    # A second trace into the same directory replaces the first (OTF2 refuses an existing archive).
    run_trace(args, full, [], formats="otf2")

    cut = os.path.join(args.work_dir, "cut")
    proc = run_trace(args, cut, ["--max-events", "60"])
    if "cut" not in proc.stderr:
        fail("a cut trace.json is not announced on stderr")
    check_json(os.path.join(cut, "trace.json"), args.tasks, expect_truncated=True, max_events=60)
    if args.recursive_program:
        check_every_task(args)
    if args.sampled_program:
        check_samples(args)

    if FAILURES:
        print(f"{len(FAILURES)} failure(s)", file=sys.stderr)
        return 1
    print("all trace checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
