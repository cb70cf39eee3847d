"""What every e2e scenario file shares (profile_checks.py, diagnosis_checks.py, task_checks.py,
prediction_checks.py, sampling_checks.py, process_checks.py, safety_checks.py, mpi_checks.py):
running ompscope and the programs of tests/programs, reading a report, and main(), which runs one
scenario with the attempts and the two-CPU skip. A helper only one area file uses lives in that file.

Each scenario is one CTest test. It states what a user would see and fails with a message naming
the difference. No wall-clock limits: only ratios and medians where timing matters.
"""
import argparse, contextlib, json, math, os, re, shutil, subprocess, sys

@contextlib.contextmanager
def busy_loop_on(cpu):
    """A shell's busy loop pinned to `cpu` while the block runs: another process holding that CPU."""
    busy = subprocess.Popen(["taskset", "-c", str(cpu), "sh", "-c", "while :; do :; done"])
    try:
        yield
    finally:
        busy.kill()
        busy.wait()

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def run(cmd, env=None, check_rc=None, timeout=None, **kw):
    e = dict(os.environ)
    e.update(env or {})
    e["NO_COLOR"] = "1"
    try:
        p = subprocess.run(cmd, env=e, capture_output=True, text=True, timeout=timeout, **kw)
    except subprocess.TimeoutExpired:
        fail(f"{' '.join(cmd)} did not end within {timeout} s (it hangs)")
    if check_rc is not None and p.returncode != check_rc:
        fail(f"{' '.join(cmd)} exited {p.returncode}, expected {check_rc}\nstdout:\n{p.stdout}\nstderr:\n{p.stderr}")
    return p

def pragma_lines(source):
    return [i + 1 for i, l in enumerate(open(source)) if re.search(r"#pragma omp parallel\b", l)]

TASK_CAUSES = {"fine_grained_tasks", "coarse_grained_tasks", "task_creation_bottleneck", "dependency_bound",
               "task_inflation"}

def check_hints_fit(report, where):
    """A hint suggests only what the code at its line can take (issue 25, item 6), in every report
    any scenario reads: a region that ran once is not told to open one region around an
    enclosing loop, and a region made of tasks is not told to use tasks."""
    for r in report.get("regions", []):
        hints = [q["hint"] for q in r.get("problems", [])]
        kinds = {q["kind"] for q in r.get("problems", [])}
        if r.get("instances") == 1 and any("around the enclosing loop" in h for h in hints):
            fail(f"{where}: the region at {r['file']}:{r['line']} ran once and is told to open a region around "
                 f"an enclosing loop: {hints}")
        # "(schedule(dynamic) on a loop, or tasks)" and "use tasks" advise tasks; "a taskloop, or
        # tasks that create tasks" advises how a task region creates its own.
        if kinds & TASK_CAUSES and any(re.search(r"\buse tasks\b|, or tasks\)", h) for h in hints):
            fail(f"{where}: the task region at {r['file']}:{r['line']} is told to use tasks: {hints}")

def load(dirpath):
    report = json.load(open(os.path.join(dirpath, "report.json")))
    check_hints_fit(report, dirpath)
    return report

def notes(report):
    """Each note as the sentence the text report prints: its text, then what it is about."""
    return [n["text"] + (": " + "; ".join(n["items"]) if n["items"] else "") for n in report["notes"]]

def parallel_regions(report):
    return [r for r in report["regions"] if r["kind"] == "parallel"]

def region_at(report, source, line, slack=2):
    name = os.path.basename(source)
    for r in parallel_regions(report):
        if r["file"].endswith(name) and abs(r["line"] - line) <= slack:
            return r
    fail(f"no region at {name}:{line} (±{slack}); regions: " +
         ", ".join(f"{r['file']}:{r['line']} x{r['instances']}" for r in parallel_regions(report)))

def process_log(out, run="run-r0"):
    """The program's own process's log in DIR/runs/RUN: each process writes pid-PID there
    (docs/safety.md, "Processes and signals"); these programs start no other."""
    logs = [d for d in os.listdir(os.path.join(out, "runs", run)) if d.startswith("pid-")]
    if len(logs) != 1:
        fail(f"{out}/runs/{run} holds {logs}, expected one process's log")
    return os.path.join(out, "runs", run, logs[0])

class Ctx:
    def __init__(self, a):
        self.bin, self.programs, self.sources, self.work = a.ompscope, a.programs, a.sources, a.work
        os.makedirs(self.work, exist_ok=True)
    def prog(self, name): return os.path.join(self.programs, name)
    def src(self, name): return os.path.join(self.sources, name)
    def out(self, name):
        d = os.path.join(self.work, name)
        shutil.rmtree(d, ignore_errors=True)
        return d

def walk_constructs(constructs, parents=()):
    """Every construct of a tree with the constructs above it, outermost first."""
    for k in constructs:
        yield k, parents
        yield from walk_constructs(k.get("constructs", []), parents + (k,))

def expect_error(cmd, what):
    p = run(cmd)
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    if p.returncode != 2 or len(lines) != 1 or not lines[0].startswith("ompscope: "):
        fail(f"{what}: expected one 'ompscope: ...' line and exit 2, got exit {p.returncode}:\n{p.stderr}")
    if "internal error" in lines[0]:
        fail(f"{what}: {lines[0]}")
    return lines[0]

def environmental(problem):
    """Work inflation that is mostly time off the CPU: another process held a core during the run
    (the other helpers' builds on this shared machine), not what the designed program does. Its
    time holds the growth off the CPU (preempted_s) and the barrier waits for threads switched out
    (descheduled_imbalance_s, barriers held back by them included: docs/lost-time.md)."""
    d = problem.get("details", {})
    if problem["kind"] == "task_inflation":
        return d.get("off_cpu_s", 0) >= 0.5 * problem["time_s"]
    off = d.get("preempted_s", 0) + d.get("descheduled_imbalance_s", 0)
    return problem["kind"] == "work_inflation" and off >= 0.5 * problem["time_s"]

def top_problem(report, threads):
    best = None
    for r in report["regions"]:
        for p in r["problems"]:
            if environmental(p):
                continue
            if p["threads"] == threads and (best is None or p["gain_s"] > best[1]["gain_s"]):
                best = (r, p)
    return best

def timed_loop_region(report, source, c):
    """The region of the program's last parallel pragma (its timed loop), at any line slack."""
    lines = pragma_lines(c.src(source))
    return region_at(report, source, lines[-1])

def busy_at(report, t):
    """Whether the report's busy_machine note lists a run at t threads: another process, or a CPU
    quota, kept its threads from running while they were runnable."""
    return any(n["kind"] == "busy_machine" and any(f"at {t} thread" in i for i in n.get("items", []))
               for n in report["notes"])

def explained_share(region, t):
    lost = region["time_lost_s"].get(str(t), 0)
    return lost, (1 - region["unexplained_s"][str(t)] / lost) if lost > 0 else 1.0

def cgroup_quota_cpus():
    """The smallest CPU quota on this process's cgroup path (v2 cpu.max, v1 cfs quota), in CPUs;
    0 for none (cli/core_places.h, cpu_quota_of_this_process, reads the same files)."""
    smallest = 0
    def keep(q):
        nonlocal smallest
        if q > 0 and (smallest == 0 or q < smallest):
            smallest = q
    def read(path):
        try:
            return open(path).read().split()
        except OSError:
            return []
    try:
        lines = open("/proc/self/cgroup").read().splitlines()
    except OSError:
        lines = []
    for line in lines:
        hier, controllers, path = line.split(":", 2)
        while True:
            if hier == "0" and not controllers:
                for root in ("/sys/fs/cgroup", "/sys/fs/cgroup/unified"):
                    f = read(f"{root}{path.rstrip('/')}/cpu.max")
                    if len(f) == 2 and f[0] != "max":
                        keep(int(f[0]) / int(f[1]))
            elif "cpu" in controllers.split(","):
                for root in ("/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct"):
                    q, per = read(f"{root}{path.rstrip('/')}/cpu.cfs_quota_us"), read(f"{root}{path.rstrip('/')}/cpu.cfs_period_us")
                    if q and per and int(q[0]) > 0:
                        keep(int(q[0]) / int(per[0]))
            if path in ("", "/"):
                break
            path = path.rsplit("/", 1)[0] or "/"
    return smallest

def usable_cpus():
    n = len(os.sched_getaffinity(0))
    q = cgroup_quota_cpus()
    return max(1, min(n, math.ceil(q - 1e-9))) if q > 0 else n

def main(scenarios, needs_two_cpus=(), options=(), context=None):
    """Runs the scenario named on the command line, `scenario_NAME` of `scenarios` (the calling
    area file's globals), with the attempts every scenario file shares; one of `needs_two_cpus`
    (it diagnoses or validates a gain at 2 threads) is skipped where fewer than 2 CPUs are usable.
    `options`: an area's own flags, (flag, argparse keywords), each value an attribute of the
    context (--otf2-print: c.otf2_print); `context`: the area's own Ctx class, if it has one."""
    ap = argparse.ArgumentParser()
    ap.add_argument("scenario")
    ap.add_argument("--ompscope", required=True)
    ap.add_argument("--programs", required=True)
    ap.add_argument("--sources", required=True)
    ap.add_argument("--work", required=True)
    # Scenarios that compare shares of time between runs get a second attempt: another process
    # holding one of the cores for a whole run skews them, while a real regression fails both.
    ap.add_argument("--attempts", type=int, default=1)
    for flag, keywords in options:
        ap.add_argument(flag, **keywords)
    a = ap.parse_args()
    if a.scenario in needs_two_cpus and usable_cpus() < 2:
        # ctest counts exit 77 as skipped (SKIP_RETURN_CODE): not a pass, not a failure.
        print(f"skipped: {usable_cpus()} usable CPU (affinity mask and cgroup CPU quota); a diagnosis at 2 threads "
              "needs 2 CPUs running at once")
        sys.exit(77)
    c = (context or Ctx)(a)
    for flag, _ in options:
        name = flag.lstrip("-").replace("-", "_")
        setattr(c, name, getattr(a, name))
    for attempt in range(1, a.attempts + 1):
        try:
            scenarios["scenario_" + a.scenario](c)
            break
        except SystemExit as e:
            if e.code != 1 or attempt == a.attempts:
                raise
            print(f"attempt {attempt} of {a.scenario} failed (above); timing on a shared machine: trying again")
    print("ok", a.scenario)
