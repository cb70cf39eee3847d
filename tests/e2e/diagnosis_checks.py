#!/usr/bin/env python3
"""End-to-end checks of the causes ompscope diagnoses in regions and serial code: each designed
pathology of tests/programs (load imbalance, locks, barriers, serial code, work inflation,
replicated work, serial time blocked), clang and gcc builds, ranked first at 2 threads with a hint
that fits; the loops and tasks of a region's construct tree; a benchmark that sizes its
repetitions by time; scale's report.html drawn by headless Chromium.

Each scenario is one CTest test (tests/e2e/CMakeLists.txt).

usage: diagnosis_checks.py SCENARIO --ompscope BIN --programs DIR --sources DIR --work DIR [--attempts N]"""
import json, os, re, shutil, statistics, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_common import busy_at, busy_loop_on, environmental, explained_share, fail, load, main, notes, parallel_regions, pragma_lines  # noqa: E402
from e2e_common import process_log, region_at, run, timed_loop_region, top_problem, walk_constructs  # noqa: E402

# Scenarios that diagnose or validate a gain at 2 threads: each needs 2 CPUs that run at once.
NEEDS_TWO_CPUS = {"scale_diagnoses", "gcc_diagnoses", "lock_volume", "scale_work_inflation",
                  "scale_competing_process", "timed_repetitions"}

def scenario_gcc_diagnoses(c):
    """The pathology programs built with gcc (and gfortran), profiled at 1 and 2 threads with no
    runtime option, measured on libgomp: the same cause ranked first as their clang builds, at
    the region of the directive's line. fib_tasks_gcc: a recursive task tree with no cutoff, GOMP_task's
    creations and schedule recorded by the interposer, is fine_grained_tasks as its clang build is
    (issue 26: it was 100% unexplained on libgomp)."""
    cases = [("imbalanced_loop_gcc", "imbalanced_loop.c", "load_imbalance"),
             ("fib_tasks_gcc", "fib_tasks.c", "fine_grained_tasks"),
             ("locks_per_thread_gcc", "locks_per_thread.c", "lock_overhead"),
             ("shared_lock_gcc", "shared_lock.c", "lock_contention"),
             ("many_barriers_gcc", "many_barriers.c", "barrier_overhead"),
             ("serial_phase_gcc", "serial_phase.c", "serial_code"),
             ("shared_lock_fortran", "shared_lock_fortran.f90", "lock_contention")]
    for program, source, expected in cases:
        out = c.out("scale-" + program)
        p = run([c.bin, "scale", "-t", "1,2", "-r", "3", "-o", out] + ["--", c.prog(program)],
                check_rc=0)
        report = load(out)
        if not report["runtime"].startswith("GNU libgomp"):
            fail(f"{program}: measured on {report['runtime']!r}, expected GNU libgomp")
        region, problem = top_problem(report, 2)
        print(f"{program}: {margin_text(report, 2, problem)}")
        check_ranked_first(program, report, region, problem, expected, p.stderr)
        directives = [i + 1 for i, l in enumerate(open(c.src(source)))
                      if re.search(r"#pragma omp parallel\b|!\$omp parallel\b", l)]
        for r in parallel_regions(report):
            if r["line"] not in directives:
                fail(f"{program}: region {r['id']} at line {r['line']}, directives at {directives}")

def scenario_construct_loops(c):
    """A region holding three loops, the second imbalanced: load_imbalance sits on that loop's
    construct and on no other, its hint (and the region's) names the loop's line, and the
    constructs' times with the rest of the region add up to the region's time. The gcc build's
    static loops make no runtime call but the barriers after them, which carry the loops' waits
    and sit at each loop's first body line (docs/source-locations.md)."""
    src = c.src("three_loops.c")
    lines = [i + 1 for i, l in enumerate(open(src)) if "#pragma omp for" in l]
    for build, imbalanced in [("three_loops", lines[1]), ("three_loops_gcc", lines[1] + 1)]:
        out = c.out("constructs-" + build)
        p = run([c.bin, "scale", "-t", "1,2", "-o", out, "--", c.prog(build)], check_rc=0)
        report = load(out)
        region = region_at(report, src, pragma_lines(src)[0])
        tree = list(walk_constructs(region.get("constructs", [])))
        # gcc: the third loop's barrier is the region's end (its own code's, not a construct's).
        timed = {k["line"] for k, _ in tree if k["kind"] in ("loop", "barrier")}
        expected = set(lines) if build == "three_loops" else {line + 1 for line in lines[:2]}
        if timed != expected:
            fail(f"{build}: constructs at {sorted(timed)}, expected {sorted(expected)}: "
                 f"{[(k['kind'], k['line']) for k, _ in tree]}")
        top = sum(k["time_s"]["2"] for k in region["constructs"]) + region["outside_constructs_s"]["2"]
        if abs(top - region["time_s"]["2"]) > 1e-6 * region["time_s"]["2"]:
            fail(f"{build}: constructs and the rest add up to {top} s, the region took {region['time_s']['2']} s")
        carrying = sorted(((q["gain_s"], k["line"]) for k, _ in tree for q in k["problems"]
                           if q["kind"] == "load_imbalance" and q["threads"] == 2), reverse=True)
        # clang's runs read the threads' CPU time, so a balanced loop's barrier carries nothing; the
        # gcc build's do not (no kernel accounting under the interposer), so a loaded machine's
        # preemptions put some wall imbalance on the balanced loops: there the loop must carry most.
        alone = build == "three_loops"
        if not carrying or carrying[0][1] != imbalanced or (alone and len(carrying) > 1):
            fail(f"{build}: load_imbalance (gain, line) on {carrying}, expected on line {imbalanced}"
                 + (" alone" if alone else " first"))
        whole = [q for q in region["problems"] if q["kind"] == "load_imbalance" and q["threads"] == 2]
        where = f"three_loops.c:{imbalanced}"
        if not whole or where not in whole[0]["hint"]:
            fail(f"{build}: the region's load_imbalance hint does not name {where}: {whole}")
        if f" {where} " not in p.stderr or "constructs at 2 threads" not in p.stderr:
            fail(f"{build}: the terminal shows no construct tree with {where}:\n{p.stderr}")

def scenario_construct_tasks(c):
    """Tasks appear under the barrier or taskwait where they ran, with their creation site: the
    first single's tasks in the barrier that ends it, the second's in its taskwait."""
    src = c.src("tasks_where_they_ran.c")
    task_lines = [i + 1 for i, l in enumerate(open(src)) if "#pragma omp task " in l]
    taskwait = [i + 1 for i, l in enumerate(open(src)) if "#pragma omp taskwait" in l][0]
    out = c.out("constructs-tasks_where_they_ran")
    run([c.bin, "profile", "-o", out, "--", c.prog("tasks_where_they_ran")], env={"OMP_NUM_THREADS": "2"}, check_rc=0)
    region = parallel_regions(load(out))[0]
    tree = list(walk_constructs(region.get("constructs", [])))
    under = {}
    for k, parents in tree:
        if k["kind"] == "task" and parents:
            under.setdefault(k["line"], set()).add((parents[-1]["kind"], parents[-1]["line"]))
    shape = {line: sorted(p) for line, p in under.items()}
    first, second = task_lines
    if not any(kind in ("barrier", "join_barrier") for kind, _ in under.get(first, ())):
        fail(f"the tasks created at line {first} are not under a barrier: {shape}")
    if ("taskwait", taskwait) not in under.get(second, ()):
        fail(f"the tasks created at line {second} are not under the taskwait at line {taskwait}: {shape}")
    tasks = sum(k["instances"] for k, _ in tree if k["kind"] == "task")
    if tasks != 240:
        fail(f"the tree holds {tasks} tasks, the program creates 240: {shape}")

# Causes that cost at every thread count, 1 included (report/causes.h, `overhead`): a region whose
# cost is one of them may lose little as threads are added (locks_per_thread's private locks cost
# as much at 1 thread: efficiency 97-99%), so it need not rank first among regions, which are
# ranked by time lost; its finding still comes first, ranked by gain.
OVERHEAD_CAUSES = {"barrier_overhead", "fork_join_overhead", "thread_creation", "lock_overhead", "fine_grained_tasks"}

def check_ranked_first(program, report, region, problem, expected, stderr):
    """The expected cause is the top one at 2 threads and the report's first finding, at its
    region; where the cause is no overhead, its region also ranks first by time lost."""
    # The first finding that is the program's (time off the CPU that another process took is
    # skipped, as top_problem skips it).
    def own(f):
        r = next((x for x in report["regions"] if x["id"] == f["region"]), None)
        problems = [q for q in (r or {}).get("problems", []) if q["kind"] == f["kind"] and q["threads"] == f["threads"]]
        return not (problems and environmental(problems[0]))
    first = next((f for f in report.get("findings", []) if own(f)), None)
    if problem["kind"] != expected or first is None or first["kind"] != expected or first["region"] != region["id"]:
        fail(f"{program}: top cause at 2 threads is {problem['kind']} ({region['id']}), first finding "
             f"{first and (first['kind'], first['region'])}, expected {expected} first\n{stderr}")
    if expected not in OVERHEAD_CAUSES and region is not report["regions"][0]:
        fail(f"{program}: {expected}'s region {region['id']} is not ranked first by time lost: "
             f"{[r['id'] for r in report['regions']]}\n{stderr}")

def margin_text(report, threads, top):
    """The diagnosis' margin: the top cause's gain ÷ the next cause's at that count (any region,
    serial code included; time off the CPU skipped as top_problem skips it)."""
    gains = sorted((p["gain_s"] for r in report["regions"] for p in r["problems"]
                    if p["threads"] == threads and not environmental(p) and p is not top), reverse=True)
    if not gains or gains[0] <= 0:
        return f"margin: {top['kind']} {top['gain_s']*1e3:.2f} ms, no other cause"
    nxt = next(p for r in report["regions"] for p in r["problems"]
               if p["threads"] == threads and not environmental(p) and p is not top and p["gain_s"] == gains[0])
    return (f"margin: {top['kind']} {top['gain_s']*1e3:.2f} ms / next {nxt['kind']} {gains[0]*1e3:.2f} ms = "
            f"{top['gain_s'] / gains[0]:.2f}x")

def scenario_scale_diagnoses(c):
    cases = [("imbalanced_loop", "load_imbalance"), ("locks_per_thread", "lock_overhead"),
             ("shared_lock", "lock_contention"), ("many_barriers", "barrier_overhead"),
             ("serial_phase", "serial_code")]
    for program, expected in cases:
        out = c.out("scale-" + program)
        p = run([c.bin, "scale", "-t", "1,2", "-r", "3", "-o", out] + ["--", c.prog(program)],
                check_rc=0)
        report = load(out)
        if report["threads"] != [1, 2] or len(report["runs"]) != 6:
            fail(f"{program}: expected 6 runs at 1 and 2 threads")
        region, problem = top_problem(report, 2)
        print(f"{program}: {margin_text(report, 2, problem)}")
        check_ranked_first(program, report, region, problem, expected, p.stderr)
        # Lock hints fit the pattern: one shared lock is split; a private lock per thread is not.
        hints = {"shared_lock": ("one lock is held", "split it"), "locks_per_thread": ("omp_lock_hint_uncontended",)}
        if any(h not in problem["hint"] for h in hints.get(program, ())):
            fail(f"{program}: hint {problem['hint']!r} lacks {hints[program]}")
        for r in report["regions"]:
            for t in report["threads"]:
                causes = sum(q["gain_s"] for q in r["problems"] if q["threads"] == t)
                if causes > r["time_s"].get(str(t), 0) + 1e-9:
                    fail(f"{program} {r['id']}: causes {causes} exceed the region's time at {t} threads")
        if not os.path.getsize(os.path.join(out, "report.html")) > 2000:
            fail("report.html missing or trivial")
        # Runs up to the core count are bound, and the report says how (one place per core); with
        # OMP_PROC_BIND=false in the environment (scripts/machine_matrix.sh unbound) they are not,
        # and the report says that.
        if os.environ.get("OMP_PROC_BIND", "").lower() == "false":
            if not any("were not bound" in n and "OMP_PROC_BIND=false" in n for n in notes(report)):
                fail(f"{program}: no note says the runs were not bound: {report['notes']}")
        elif not any("were bound" in n and "OMP_PROC_BIND=close" in n and "OMP_PLACES=" in n for n in notes(report)):
            fail(f"{program}: no note says how the runs were bound: {report['notes']}")

def check_split_adds_up(report, what, tolerance=0.01):
    """Every thread's split of every region: each part >= 0, and work + barrier wait + lock wait
    + fork/join within 1% of the region's time (task time within work)."""
    for r in parallel_regions(report):
        for t, threads in r["per_thread"].items():
            region = r["time_s"][t]
            for s in threads:
                parts = [s["work_s"], s["barrier_wait_s"], s["lock_wait_s"], s["fork_join_s"]]
                if min(parts + [s["task_s"]]) < 0 or s["task_s"] > s["work_s"] + 1e-12:
                    fail(f"{what} {r['id']} at {t}: thread {s['thread']}'s split has a negative part: {s}")
                if abs(sum(parts) - region) > tolerance * region:
                    fail(f"{what} {r['id']} at {t}: thread {s['thread']}'s split adds up to {sum(parts)}, "
                         f"the region took {region}")

def check_lock_per_item(report, what):
    """lock_per_item's diagnosis: lock overhead first, with the hint for many cold locks."""
    region, problem = top_problem(report, max(report["threads"]))
    print(f"{what}: {margin_text(report, max(report['threads']), problem)}")
    # Ranked first among the findings (by gain). Among the regions (by time lost) it need not be:
    # a lock per item costs at 1 thread as at 2 (an overhead, OVERHEAD_CAUSES), and a clean clone's
    # libomp 19 run scaled it 0.60 -> 0.30 s, 2.4 ms lost against serial code's 14.6 ms.
    check_ranked_first(what, report, region, problem, "lock_overhead", "")
    if "distinct locks" not in problem["hint"] or "split" in problem["hint"]:
        fail(f"{what}: the hint does not fit one lock per item: {problem['hint']}")
    for p in region["problems"]:
        if p["kind"] == "lock_contention" and "split it" in p["hint"]:
            fail(f"{what}: contention hint tells code with a lock per item to split it: {p['hint']}")
    check_split_adds_up(report, what)

def scenario_lock_volume(c):
    """A lock per data item taken 4 million times: each run's log stays under 16 MB (lock
    sampling), lock_overhead ranks first with a hint for many cold locks, every thread's split
    adds up, in bound scale runs and in an unbound run recording every operation. scale keeps the
    raw log of the first repeat only, says how much it wrote, and `report DIR` needs none."""
    program = c.prog("lock_per_item")
    out = c.out("scale")
    p = run([c.bin, "scale", "-t", "1,2", "-r", "2", "-o", out, "--", program, "4"], check_rc=0)
    report = load(out)
    if sorted(os.listdir(os.path.join(out, "runs"))) != ["t1-r0", "t2-r0"]:
        fail(f"scale kept {sorted(os.listdir(os.path.join(out, 'runs')))}, expected the first repeat's logs only")
    if not re.search(r"the runs wrote [0-9.]+ MB of logs; [0-9.]+ MB kept", p.stderr):
        fail(f"scale does not say how much it wrote:\n{p.stderr[-2000:]}")
    for name in ["t1-r0", "t2-r0"]:
        d = process_log(out, name)
        size = sum(os.path.getsize(os.path.join(d, f)) for f in os.listdir(d))
        if size > 16 << 20:
            fail(f"{name}: {size / 2**20:.1f} MB of log for 4 M lock operations, expected at most 16 MB")
    if [r["log"] for r in report["runs"] if r["repeat"] == 1] != ["", ""]:
        fail(f"removed logs are still named in the report: {report['runs']}")
    if not any(n["kind"] == "sampled_locks" and any("4000000 locks" in i for i in n["items"]) for n in report["notes"]):
        fail(f"the report does not say that lock operations were sampled: {report['notes']}")
    check_lock_per_item(report, "sampled, bound")
    again = run([c.bin, "report", "--format", "json", out], check_rc=0)
    if json.loads(again.stdout)["regions"] != report["regions"]:
        fail("report DIR without the later repeats' logs renders other regions")
    full = c.out("full")
    # 2 M updates (was 0.5 M): against the program's serial code (100 000 locks initialised and
    # destroyed, slow on libomp 19 with a tool attached) the lock's cost had a margin of 1.7x on a
    # loaded Xeon VM and lost to it on an AMD EPYC VM; about 180 MB of log unsampled.
    run([c.bin, "profile", "-o", full, "--", program, "2"], env={"OMP_NUM_THREADS": "2", "OMPSCOPE_SAMPLING": "off"},
        check_rc=0)
    check_lock_per_item(load(full), "unsampled, unbound")

def chromium_check():
    """The Chromium helpers of the fixture check (html/check_html_report.py), or exit 77 (skip)
    when this machine has no Chromium."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "html"))
    import check_html_report
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    if not os.access(chromium, os.X_OK):
        print(f"SKIP: no Chromium at {chromium}")
        sys.exit(77)
    return check_html_report, chromium

NETWORK_FETCH = re.compile(r"""(?:\b(?:src|href)\s*=\s*["']?\s*|url\(\s*["']?|@import\s+["']?)(?:https?:)?//""", re.I)
LOAD_IMBALANCE_RED = (0xE1, 0x57, 0x59)

def check_real_html_report(c, out, what):
    """report.html of a real scale run: offline, with its plots, and drawn by headless Chromium
    into a screenshot that is not blank (the fixture check's thresholds) and shows the
    load-imbalance bars. Name escaping is the fixture check's job."""
    helpers, chromium = chromium_check()
    page = os.path.abspath(os.path.join(out, "report.html"))
    html = open(page, encoding="utf-8").read()
    fetches = NETWORK_FETCH.findall(html) + re.findall(r"https?://", html)
    if fetches:
        fail(f"{what}: report.html fetches from the network: {fetches[:3]}")
    for chart in ["speedup", "efficiency", "lost-time"]:
        if f'<svg class="chart {chart}"' not in html:
            fail(f"{what}: report.html lacks the {chart} plot")
    if '<details class="constructs" open><summary>Constructs at ' not in html:
        fail(f"{what}: report.html lacks the construct tree")
    png = os.path.join(out, "report.png")
    shot = helpers.run_chromium(chromium, f"--screenshot={png}", "--window-size=1280,2000", "file://" + page)
    if shot.returncode != 0:
        fail(f"{what}: chromium --screenshot exited {shot.returncode}: {shot.stderr.strip()[-400:]}")
    failures = []
    helpers.check_screenshot(what, png, failures)
    if not failures:
        _, _, rows, bpp = helpers.decode_png(png)
        red = helpers.colour_histogram(rows, bpp).get(LOAD_IMBALANCE_RED, 0)
        if red < helpers.MIN_PIXELS_PER_CHART_COLOUR:
            failures.append(f"{what}: the load-imbalance bars are missing from the screenshot ({red} red pixels)")
    if failures:
        fail("; ".join(failures))
    return html

MODEL_KEYS = {"function", "constant", "terms", "adj_r2", "smape", "growth"}

def scenario_scale_report_html(c):
    """`scale` on imbalanced_loop: its report.html in headless Chromium at two thread counts
    (no model: one note says why), then at 1-4 threads (3 and 4 oversubscribed on a 2-core
    machine), where the program and every region carry a fitted model of T(t) that the
    terminal, report.json, report.html and `ompscope report` all show alike."""
    out = c.out("scale-html-2")
    run([c.bin, "scale", "-t", "1,2", "-r", "1", "-o", out, "--", c.prog("imbalanced_loop")], check_rc=0)
    report = load(out)
    if "model" in report["program"] or any("model" in r for r in report["regions"]):
        fail("two thread counts are too few to fit a model, yet report.json has one")
    why = [n for n in notes(report) if "no scaling model" in n]
    if len(why) != 1 or "at least 4" not in why[0]:
        fail(f"expected one note saying why nothing was fitted, got {report['notes']}")
    check_real_html_report(c, out, "scale at 1,2 threads")

    out = c.out("scale-html-4")
    p = run([c.bin, "scale", "-t", "1,2,3,4", "-r", "1", "-o", out, "--", c.prog("imbalanced_loop")], check_rc=0)
    report = load(out)
    over = [t for t in [1, 2, 3, 4] if t > report["cores"]]
    for owner, name in [(report["program"], "program")] + [(r, r["id"]) for r in report["regions"]]:
        model = owner.get("model")
        if model is None or not MODEL_KEYS <= set(model):
            fail(f"{name}: no model with {sorted(MODEL_KEYS)} at four thread counts: {model}")
        if sorted(int(t) for t in owner["time_s"]) != [1, 2, 3, 4] or model["oversubscribed_threads"] != over:
            fail(f"{name}: model fitted at {sorted(owner['time_s'])}, oversubscribed {model['oversubscribed_threads']}; "
                 f"expected [1, 2, 3, 4] with {over} oversubscribed")
        if not model["speedup_curve"]:
            fail(f"{name}: the model has no speedup curve for the HTML chart")
        print(f"{name}: T(t) = {model['function']}  (adj. R2 {model['adj_r2']:.3f}, growth of t*T(t) "
              f"{model['growth']}, stops paying off at {model['stops_paying_off_at']})")
    shown = len(re.findall(r"^ +T\(t\) ≈ .* s {3}\(", p.stderr, re.M))
    if shown != min(len(report["regions"]), 10) or "program model: T(t) ≈" not in p.stderr:
        fail(f"the terminal shows {shown} region models for {len(report['regions'])} regions:\n{p.stderr}")
    if over and "oversubscribed)" not in p.stderr:
        fail("the terminal must say that oversubscribed counts went into the models")
    html = check_real_html_report(c, out, "scale at 1,2,3,4 threads")
    if ">Model of T(t)</th>" not in html or "(model)\"><polyline" not in html:
        fail("report.html lacks the model column or the fitted curves")
    # `ompscope report` reads report.json back into the typed report and renders exactly the
    # files scale wrote from it (and the summary scale printed).
    if report["schema_version"] != 3 or "version" not in report:
        fail(f"report.json lacks schema_version 3 or the tool's version: {report.get('schema_version')}")
    for fmt, name in [("html", "report.html"), ("text", "report.txt"), ("csv", "report.csv")]:
        again = run([c.bin, "report", out, "--format", fmt], check_rc=0).stdout
        if again != open(os.path.join(out, name)).read():
            fail(f"ompscope report --format {fmt} differs from the {name} scale wrote")
    text = run([c.bin, "report", out, "--format", "text"], check_rc=0).stdout
    if text not in p.stderr:
        fail(f"ompscope report --format text differs from scale's summary:\n{text}")

def bandwidth_dominates(stdout):
    """Whether triad's own clock saw its team pay for shared bandwidth more than for one thread
    being slower than another (tests/programs/triad.c prints both in each run): the team's
    threads' mean time over a half's time on one thread alone (its growth) against the slowest
    thread's lead over that mean (the machine's imbalance), medians over the 2-thread runs'
    repetitions. Where the growth is under 10% of the half or under twice the imbalance, the
    pathology does not dominate this machine, and the tool is not judged on it."""
    growth, imbalance = [], []
    for halves, team in re.findall(r"halves_ms=(\S+)\nteam_ms=(.*)\n", stdout):
        half = statistics.mean(float(h) for h in halves.split(","))
        for rep in team.split():
            times = [float(t) for t in rep.split("/")]
            if len(times) == 2:
                growth.append(statistics.mean(times) / half - 1)
                imbalance.append((max(times) - statistics.mean(times)) / half)
    if not growth:
        fail(f"triad printed no 2-thread halves_ms/team_ms lines: {stdout!r}")
    g, i = statistics.median(growth), statistics.median(imbalance)
    print(f"triad's own clock at 2 threads: growth {g*100:.0f}% of a half, the slowest thread {i*100:.0f}% "
          f"over the mean: margin x{g / max(i, 1e-9):.1f} (judged from x2 and 10%)")
    if g < 0.1 or g < 2 * i:
        print("triad: its bandwidth pathology does not dominate on this machine: not judged")
        return False
    return True

def scenario_scale_work_inflation(c):
    """Balanced loops that lose time at 2 threads though every iteration costs the same: threads
    writing one cache line (false_sharing), each iteration allocating, touching and freeing a fresh
    buffer (alloc_touch_free), a triad bound by memory bandwidth (triad). The causes explain at
    least 80% of each loop's time lost, work_inflation ranks first, load imbalance is not blamed,
    and the hints name what the program does. alloc_touch_free's cost is its page faults at every
    count (most of its time, in the kernel): page_faults ranks first by a margin, with the
    allocation advice, whatever its growth from 1 thread to 2 (a few percent on a kernel whose
    munmap gives up the memory map's lock as it unmaps, tens of percent on others); its growth,
    where it is a clear loss, is work_inflation's. alloc_touch_free is also built with gcc: on
    libgomp (the interposer, over the same recorder as the OMPT tool: capture/recorder.h) the same
    causes come out as the clang build's. triad is judged only where its own clock shows its team
    paying for shared bandwidth by a margin (bandwidth_dominates): on a machine whose two CPUs
    each have the bandwidth for their half, what it loses is one CPU running slower than the other,
    which the tool rightly reads as the same thread slower in every instance."""
    # (program, words its hint must hold, the part of the inflation they need to be largest; None:
    # always). On a loaded machine time off the CPU can outgrow what the program itself does. The
    # hint advises on its largest part only (one hint per cause): the page faults are named
    # whatever the largest part, the allocation advice where they are the largest.
    cases = [("false_sharing", [("cache line", "memory_or_cache_s")]),
             ("alloc_touch_free", [("page faults", None), ("allocate", "page_fault_s")]), ("triad", []),
             ("alloc_touch_free_gcc", [("page faults", None), ("allocate", "page_fault_s")])]
    for program, words in cases:
        out = c.out("inflation-" + program)
        ran = run([c.bin, "scale", "-t", "1,2", "-r", "3", "-o", out, "--", c.prog(program)], check_rc=0)
        report = load(out)
        if program.endswith("_gcc") and not report["runtime"].startswith("GNU libgomp"):
            fail(f"{program}: measured on {report['runtime']!r}, expected GNU libgomp")
        region = timed_loop_region(report, program.removesuffix("_gcc") + ".c", c)
        lost, share = explained_share(region, 2)
        causes = [p for p in region["problems"] if p["threads"] == 2]
        print(f"{program}: lost {lost*1e3:.0f} ms at 2 threads of {region['time_s']['2']*1e3:.0f} ms, "
              f"{share*100:.0f}% explained: " + ", ".join(f"{p['kind']} {p['gain_s']*1e3:.1f} ms" for p in causes))
        if program.startswith("alloc_touch_free"):
            faults = next((p for p in causes if p["kind"] == "page_faults"), None)
            if faults is None or causes[0] is not faults:
                fail(f"{program}: want page_faults first, got {[p['kind'] for p in causes]}")
            # Work inflation that is mostly time off the CPU is the machine's (a CPU quota of 1.5
            # stopped the 2 threads for a quarter of their work: 1.3 s of it beside 2.0 s of faults).
            # On a busy machine (the report's note names the runs at 2 threads) the sleeps on the
            # memory map lengthen too, while the thread holding it is preempted: beside a busy loop
            # 316 ms slept with 44 more involuntary switches (x1.4-1.6 over the faults, 3 of 3; x4.8-5.3
            # quiet), and the switch counts cannot tell the two apart. Off the CPU, slept included,
            # is then the machine's.
            def machines(p):
                d = p.get("details", {})
                off = d.get("slept_s", 0) + d.get("preempted_s", 0) + d.get("descheduled_imbalance_s", 0)
                return environmental(p) or (busy_at(report, 2) and p["kind"] == "work_inflation" and off >= 0.5 * p["time_s"])
            left_out = [p["kind"] for p in causes[1:] if machines(p) and not environmental(p)]
            margin = faults["gain_s"] / max([p["gain_s"] for p in causes[1:] if not machines(p)] or [1e-9])
            print(f"{program}: page_faults {faults['gain_s']*1e3:.0f} ms, x{margin:.1f} the next cause; "
                  f"{faults['details']['page_faults']:.0f} faults" +
                  (f" ({', '.join(left_out)} left out: mostly off the CPU on a busy machine)" if left_out else ""))
            if margin < 2:
                fail(f"{program}: page_faults leads by x{margin:.1f} only")
            if "allocate buffers once" not in faults["hint"] or not faults["details"]["page_faults"] > 10000:
                fail(f"{program}: page_faults lacks the allocation advice or the faults: {faults}")
            causes = [p for p in causes if p is not faults]
        # The two vCPUs of this VM may share a physical core (false sharing then costs little)
        # and its memory bandwidth varies with the host's load: judge only a clear loss.
        if lost <= 0.1 * region["time_s"]["2"]:
            print(f"{program}: lost under 10% at 2 threads on this run: nothing to judge")
            continue
        if share < 0.8:
            fail(f"{program}: causes explain {share*100:.0f}% of the {lost*1e3:.0f} ms lost, want >= 80%")
        if program == "triad" and not bandwidth_dominates(ran.stdout):
            continue
        inflation = next((p for p in causes if p["kind"] == "work_inflation"), None)
        if inflation is None:
            fail(f"{program}: no work_inflation among {[p['kind'] for p in causes]}")
        if causes[0] is not inflation:
            # On a loaded machine a fork waits for a worker the kernel has not run yet: fork/join
            # and inflation then both measure another process (triad under load, 1 run in 10).
            if not environmental(inflation):
                fail(f"{program}: first cause is {causes[0]['kind']}, want work_inflation")
            print(f"{program}: {causes[0]['kind']} ranks above an inflation that is mostly time off the CPU: "
                  "ranking not judged")
        imbalance = [p for p in causes if p["kind"] == "load_imbalance"]
        if imbalance and imbalance[0]["gain_s"] > 0.5 * inflation["gain_s"]:
            fail(f"{program}: load imbalance blamed for {imbalance[0]['gain_s']*1e3:.1f} ms of {lost*1e3:.0f} ms")
        d = inflation["details"]
        # The parts the hint weighs: time off the CPU is the threads' own (preempted or slept) and
        # the others' waits for them at barriers, as one part (region_causes.cpp). Beside a loop
        # pinned to the second CPU, false_sharing's threads were off it 40 ms longer and waited
        # 22.8 ms for each other, against 44.4 ms slower on the CPU: the hint rightly led with the
        # other process, which preempted_s alone had not counted.
        parts = {"off_cpu_s": d.get("preempted_s", 0) + d.get("slept_s", 0) + d.get("descheduled_imbalance_s", 0),
                 "page_fault_s": d.get("page_fault_s", 0), "memory_or_cache_s": d.get("memory_or_cache_s", 0)}
        for w, part in words:
            if part and max(parts, key=parts.get) != part:
                print(f"{program}: {max(parts, key=parts.get)} outgrew {part} on this run ({parts}): '{w}' not checked")
                continue
            if w not in inflation["hint"]:
                fail(f"{program}: the work_inflation hint does not name '{w}': {inflation['hint']}")
        if program.startswith("alloc_touch_free") and not inflation["details"].get("page_faults", 0) > 10000:
            fail(f"{program}: the details show no page faults: {inflation['details']}")

def scenario_replicated_work(c):
    """Work that grows with the team: a loop every thread runs whole (spmd) and a loop whose trip
    count is scaled by the team (trips). At 2 threads replicated_work is the region's first cause
    by a margin, with its fix, and no false sharing or bandwidth is blamed for it; the same loop
    shared with omp for has none; `scale --weak` reads the spmd run as weak scaling."""
    cases = [("replicated_work", "spmd", "outside any worksharing construct"),
             ("replicated_work", "trips", "iterations per visit"),
             ("replicated_work_gcc", "spmd", "outside any worksharing construct"),
             # GCC's static loops make no runtime call: the scaled loop is the region's own code.
             ("replicated_work_gcc", "trips", "outside any worksharing construct")]
    for program, mode, where in cases:
        out = c.out(f"replicated-{program}-{mode}")
        p = run([c.bin, "scale", "-t", "1,2", "-r", "3", "-o", out, "--", c.prog(program), mode], check_rc=0)
        report = load(out)
        region = parallel_regions(report)[0] if len(parallel_regions(report)) == 1 else \
            max(parallel_regions(report), key=lambda r: r["time_s"].get("2", 0))
        causes = sorted((q for q in region["problems"] if q["threads"] == 2), key=lambda q: -q["gain_s"])
        lost = region["time_lost_s"]["2"]
        # The spmd body calls the runtime only at its fork and join (an atomic reduction at 2
        # threads), and clang -O2 merges the three forks into one call: the samples taken in the
        # body name it, at its directive, never at the merged call's line (35), at every count.
        if mode == "spmd" and not (region["line"] == 38 and set(region["time_s"]) >= {"1", "2"}):
            fail(f"{program} spmd: the region is at line {region['line']} with counts {sorted(region['time_s'])}, "
                 f"want line 38 (the directive) at 1 and 2 threads")
        print(f"{program} {mode}: lost {lost*1e3:.0f} ms of {region['time_s']['2']*1e3:.0f} ms at 2 threads: " +
              ", ".join(f"{q['kind']} {q['gain_s']*1e3:.1f} ms" for q in causes))
        rep = next((q for q in causes if q["kind"] == "replicated_work"), None)
        # Each thread runs the whole work by design, so the region's time at 2 threads over its
        # time at 1 is how much slower two busy CPUs run than one. Without hardware counters the
        # team's CPU time is the only measure of its work, and replicated_work's band is 20% around
        # x2: where the machine itself slows a second busy CPU by more (a VM whose two vCPUs the
        # host runs on one core's siblings: x2.57 in a clean-clone CI, 2026-11-29), work that every
        # thread repeats and work divided but slower look alike; that case is not judged. (That x2.57,
        # and a x1.6 in another CI, came from the program itself: GCC kept step()'s 40-trip loop, whose
        # exit branch ran 20-40% slower in phases on a host sharing the branch predictor; the chain
        # is now written out, and both builds run within 7% on that host.)
        slowed = region["time_s"]["2"] / region["time_s"]["1"]
        counted = not any(n["kind"] == "hardware_counters" for n in report["notes"])  # instructions measure the work
        if rep is None and slowed > 1.2 and not counted:
            print(f"{program} {mode}: the region took x{slowed:.2f} as long at 2 threads as at 1: this machine slows "
                  f"two busy CPUs beyond the 20% CPU time can tell replicated work by without hardware counters: "
                  f"not judged")
            continue
        if rep is None:
            fail(f"{program} {mode}: no replicated_work among {[q['kind'] for q in causes]} (the region x{slowed:.2f} "
                 f"at 2 threads)\n{p.stderr}")
        # Work inflation that is mostly time off the CPU is another process's (environmental).
        others = [q["gain_s"] for q in causes if q is not rep and not environmental(q)]
        margin = rep["gain_s"] / max(others) if others else float("inf")
        print(f"{program} {mode}: replicated_work {rep['gain_s']*1e3:.1f} ms, x{margin:.1f} the next cause; "
              f"CPU time x{rep['details']['team_cpu_s'] / rep['details']['base_team_cpu_s']:.2f}")
        if margin < 2:
            fail(f"{program} {mode}: replicated_work does not lead by x2: {[(q['kind'], q['gain_s']) for q in causes]}")
        if where not in rep["hint"] or "divide" not in rep["hint"]:
            fail(f"{program} {mode}: the hint does not say where and how: {rep['hint']}")
        inflation = next((q for q in causes if q["kind"] == "work_inflation"), None)
        if inflation and not environmental(inflation) and inflation["gain_s"] > 0.25 * rep["gain_s"]:
            fail(f"{program} {mode}: work_inflation blamed too: {inflation['hint']}")
    for program in ["replicated_work", "replicated_work_gcc"]:
        out = c.out(f"shared-{program}")
        run([c.bin, "scale", "-t", "1,2", "-r", "3", "-o", out, "--", c.prog(program), "shared"], check_rc=0)
        for r in parallel_regions(load(out)):
            if any(q["kind"] == "replicated_work" for q in r["problems"]):
                fail(f"{program} shared: replicated_work in a loop shared with omp for: {r['problems']}")
        out = c.out(f"weak-{program}")
        run([c.bin, "scale", "--weak", "-t", "1,2", "-r", "3", "-o", out, "--", c.prog(program), "spmd"], check_rc=0)
        report = load(out)
        if report["scaling"] != "weak" or report["program"]["speedup"]:
            fail(f"{program} --weak: scaling {report['scaling']}, speedup {report['program']['speedup']}")
        t = report["program"]["time_s"]
        e = report["program"]["efficiency"]["2"]
        if abs(e - t["1"] / t["2"]) > 1e-9:
            fail(f"{program} --weak: efficiency {e}, want T(1)/T(2) = {t['1'] / t['2']}")
        print(f"{program} --weak: efficiency {e*100:.0f}%")
        for r in parallel_regions(report):
            if any(q["kind"] == "replicated_work" for q in r["problems"]):
                fail(f"{program} --weak: replicated_work in a weak-scaling run")

def scenario_serial_blocked(c):
    """Serial time off the CPU (two waits of 0.3 s between parallel loops): serial_blocked, by a
    margin over serial code, with the time it waits and what it waited for as the kernel counted
    it (a sleep: no block I/O and no child; a child process that sleeps: the child's); never
    "parallelise"."""
    for program, args, waited in [("serial_wait", [], "wait_other_s"), ("serial_wait_gcc", [], "wait_other_s"),
                                  ("serial_wait", ["child"], "wait_child_s"),
                                  ("serial_wait_gcc", ["child"], "wait_child_s")]:
        out = c.out("blocked-" + "-".join([program] + args))
        p = run([c.bin, "scale", "-t", "1,2", "-r", "3", "-o", out, "--", c.prog(program)] + args, check_rc=0)
        program = " ".join([program] + args)
        report = load(out)
        blocked = report["program"].get("serial_blocked_s", {})
        serial = report["program"]["serial_s"]
        print(f"{program}: serial {serial}, of it blocked {blocked}")
        if not blocked or not 0.5 <= blocked["2"] <= serial["2"] + 1e-9:
            fail(f"{program}: serial time blocked {blocked}, want >= 0.5 s of the 0.6 s slept")
        region = next(r for r in report["regions"] if r["kind"] == "serial")
        causes = {q["kind"]: q for q in region["problems"] if q["threads"] == 2}
        if "serial_blocked" not in causes:
            fail(f"{program}: no serial_blocked among {list(causes)}\n{p.stderr}")
        b = causes["serial_blocked"]
        code = causes.get("serial_code", {"gain_s": 0})
        print(f"{program}: serial_blocked {b['gain_s']*1e3:.0f} ms, serial_code {code['gain_s']*1e3:.0f} ms "
              f"(x{b['gain_s'] / max(code['gain_s'], 1e-9):.0f})")
        if b["gain_s"] < 5 * code["gain_s"]:
            fail(f"{program}: serial_blocked {b['gain_s']} does not lead serial_code {code['gain_s']} by x5")
        if "waits" not in b["hint"] or "parallelise" in b["hint"]:
            fail(f"{program}: hint {b['hint']!r}")
        # What it waited for: the designed wait holds nearly all of the time blocked, and the
        # hint names it (one wait, its evidence), not every possible one.
        parts = {k: v for k, v in b["details"].items() if k.startswith("wait_")}
        named = {"wait_other_s": "no block I/O and no child", "wait_child_s": "while a child process ran"}[waited]
        print(f"{program}: blocked {b['time_s']*1e3:.0f} ms, waited for: "
              + ", ".join(f"{k} {v*1e3:.0f} ms" for k, v in parts.items()))
        if parts.get(waited, 0) < 0.9 * b["time_s"] or named not in b["hint"]:
            fail(f"{program}: the time blocked is not {waited} ({parts}), or the hint does not say so: {b['hint']!r}")
        top = top_problem(report, 2)
        if top[1]["kind"] != "serial_blocked":
            fail(f"{program}: top cause at 2 threads is {top[1]['kind']}, want serial_blocked")

def scenario_timed_repetitions(c):
    """A benchmark that sizes its repetitions by time (timed_reps.c, EPCC's pattern): the region
    runs about twice as often at 2 threads. The report says the instance counts differ and
    compares per instance: the shared loop's efficiency is (T1/n1) / (2 T2/n2) (before: the totals'
    T1 / (2 T2), ~50% on a quiet machine, with work_inflation 183 ms for work that did not grow per
    instance), and every thread's whole delay (each) is replicated_work, not inflation with an
    allocation hint."""
    source = c.src("timed_reps.c")
    for program in ["timed_reps", "timed_reps_gcc"]:
        for mode in ["shared", "each"]:
            out = c.out(f"timed-{program}-{mode}")
            p = run([c.bin, "scale", "-t", "1,2", "-r", "3", "-o", out, "--", c.prog(program), mode], check_rc=0)
            report = load(out)
            region = max((r for r in parallel_regions(report) if r["file"].endswith("timed_reps.c")),
                         key=lambda r: r["time_s"].get("2", 0))
            counts = region["instances_at"]
            causes = sorted((q for q in region["problems"] if q["threads"] == 2), key=lambda q: -q["gain_s"])
            print(f"{program} {mode}: instances {counts}, efficiency at 2 {region['efficiency']['2']*100:.0f}%, "
                  f"time {region['time_s']}: " + ", ".join(f"{q['kind']} {q['gain_s']*1e3:.1f} ms" for q in causes))
            said = [n for n in report["notes"] if n["kind"] == "instances_differ"]
            if counts["1"] != counts["2"]:
                if not said or not any(f"{counts['1']} instances at 1 thread, {counts['2']} at 2 threads" in i
                                       for i in said[0]["items"]):
                    fail(f"{program} {mode}: instance counts {counts} differ and no note says so: {notes(report)}")
                if "instances at 1 thread" not in p.stderr:
                    fail(f"{program} {mode}: the text report does not say so:\n{p.stderr}")
            if mode == "shared":
                # Twice the instances at 2 threads by design (each takes half as long), where both
                # threads have a CPU: with another process busy on one of them through the runs (a
                # `yes` beside the suite) an instance waits for the switched-out thread at its
                # barrier, and 257 ran at 2 threads against 2021 at 1. The report says so (its
                # busy-machine note names the runs at 2 threads); that precondition is not judged then.
                if not counts["2"] >= 1.4 * counts["1"]:
                    if not busy_at(report, 2):
                        fail(f"{program} shared: instances {counts}: the program did not size its repetitions by time")
                    print(f"{program} shared: instances {counts}: another process held a CPU through the runs at "
                          f"2 threads (the report's busy-machine note), so an instance took longer there: the "
                          f"repetitions sized by time are not judged")
                # Compared per instance: E = (T1/n1) / (2 T2/n2), whatever the machine's load did to
                # T2 (before: T1 / (2 T2), the totals of different work).
                t1, t2 = region["time_s"]["1"], region["time_s"]["2"]
                per_instance = (t1 / counts["1"]) / (2 * t2 / counts["2"])
                print(f"{program} shared: efficiency {region['efficiency']['2']*100:.1f}%, per instance "
                      f"{per_instance*100:.1f}%, totals compared {t1 / (2 * t2)*100:.1f}%")
                if abs(region["efficiency"]["2"] - per_instance) > 1e-9 * per_instance:
                    fail(f"{program} shared: efficiency {region['efficiency']['2']}, want per instance {per_instance}")
                # The work per instance does not grow with the team (gcc's static loop is the
                # region's own code: compared as totals, its team work x2 read as replicated_work).
                if any(q["kind"] == "replicated_work" for q in causes):
                    fail(f"{program} shared: replicated_work for a loop shared with omp for: {causes}")
            else:
                rep = next((q for q in causes if q["kind"] == "replicated_work"), None)
                if rep is None:
                    fail(f"{program} each: no replicated_work among {[q['kind'] for q in causes]}\n{p.stderr}")
                others = [q["gain_s"] for q in causes if q is not rep and not environmental(q)]
                margin = rep["gain_s"] / max(others) if others else float("inf")
                print(f"{program} each: replicated_work {rep['gain_s']*1e3:.1f} ms, x{margin:.1f} the next cause")
                if margin < 2:
                    fail(f"{program} each: replicated_work does not lead by x2: {[(q['kind'], q['gain_s']) for q in causes]}")
                for q in causes:
                    if q["kind"] == "work_inflation" and "allocated" in q["hint"]:
                        fail(f"{program} each: an allocation hint for a delay loop: {q['hint']}")

def scenario_scale_competing_process(c):
    """A busy process shares the second thread's CPU: the balanced loop's loss at 2 threads is time
    off the CPU (work_inflation, preempted), not an imbalance of the loop."""
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        print("one CPU: nothing to share")
        return
    with busy_loop_on(cpus[1]):
        out = c.out("competing")
        run([c.bin, "scale", "-t", "1,2", "-r", "3", "-o", out, "--", c.prog("false_sharing"), "padded"], check_rc=0)
    report = load(out)
    region = timed_loop_region(report, "false_sharing.c", c)
    lost, share = explained_share(region, 2)
    causes = [p for p in region["problems"] if p["threads"] == 2]
    print(f"competing: lost {lost*1e3:.0f} ms at 2 threads, {share*100:.0f}% explained: "
          + ", ".join(f"{p['kind']} {p['gain_s']*1e3:.1f} ms" for p in causes))
    if len(causes) > 1 and causes[1]["gain_s"] > 0:
        print(f"competing: margin {causes[0]['kind']} / {causes[1]['kind']} = {causes[0]['gain_s'] / causes[1]['gain_s']:.2f}x")
    if not causes or causes[0]["kind"] != "work_inflation":
        fail(f"first cause is {causes[0]['kind'] if causes else None}, want work_inflation")
    d = causes[0]["details"]
    # Time off the CPU: the growth's, and the waits for threads switched out (all of it where the
    # run at 1 thread shared its CPU as much, another process busy on either CPU).
    off_cpu = d.get("preempted_s", 0) + d.get("descheduled_imbalance_s", 0)
    if not off_cpu > max(d.get("page_fault_s", 0), d.get("memory_or_cache_s", 0)):
        fail(f"time off the CPU is not the largest part of the inflation: {d}")
    if "off their CPU" not in causes[0]["hint"]:
        fail(f"the hint does not say the threads were off their CPU: {causes[0]['hint']}")
    imbalance = [p for p in causes if p["kind"] == "load_imbalance"]
    if imbalance and imbalance[0]["gain_s"] > 0.1 * lost:
        fail(f"load imbalance blamed for {imbalance[0]['gain_s']*1e3:.1f} ms of {lost*1e3:.0f} ms")
    if share < 0.8:
        fail(f"causes explain {share*100:.0f}% of the {lost*1e3:.0f} ms lost, want >= 80%")
    # The report says the runs at 2 threads were taken on a busy machine.
    busy = [n for n in report["notes"] if n["kind"] == "busy_machine"]
    if not busy or not any("at 2 threads" in i for i in busy[0]["items"]):
        fail(f"no note says the runs at 2 threads were taken on a busy machine: {report['notes']}")
    print(f"competing: {notes(report)[report['notes'].index(busy[0])]}")

if __name__ == "__main__":
    main(globals(), NEEDS_TWO_CPUS)
