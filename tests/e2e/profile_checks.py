#!/usr/bin/env python3
"""End-to-end checks of what ompscope measures and where it places it: each region at its
directive's line (clang on libomp through OMPT, gcc and gfortran on libgomp through the
interposer) in profile, scale and trace alike, with the program's output unchanged; the record
kinds and the exact lock counts of the raw log; nested, oversubscribed and dying programs; a
program that sets its own team size; refused input; `ompscope doctor`.

Each scenario is one CTest test (tests/e2e/CMakeLists.txt).

usage: profile_checks.py SCENARIO --ompscope BIN --programs DIR --sources DIR --work DIR [--attempts N]"""
import json, os, re, shutil, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_common import environmental, expect_error, fail, load, main, notes, parallel_regions  # noqa: E402
from e2e_common import pragma_lines, process_log, region_at, run, walk_constructs  # noqa: E402

def check_profile(c, program, source, expected_line, instances, threads="2"):
    out = c.out("profile-" + program)
    direct = run([c.prog(program)], env={"OMP_NUM_THREADS": threads}, check_rc=0)
    p = run([c.bin, "profile", "-o", out, "--", c.prog(program)], env={"OMP_NUM_THREADS": threads}, check_rc=0)
    if p.stdout != direct.stdout:
        fail(f"program output changed under the tool:\n{direct.stdout!r}\nvs\n{p.stdout!r}")
    report = load(out)
    r = region_at(report, c.src(source), expected_line)
    if r["instances"] != instances:
        fail(f"{source}:{expected_line}: {r['instances']} instances, expected {instances}")
    if report["threads"] != [int(threads)]:
        fail(f"threads {report['threads']}, expected [{threads}]")
    per = r["per_thread"][threads]
    if len(per) != int(threads):
        fail(f"per-thread split has {len(per)} threads, expected {threads}")
    return report, p

def scenario_profile_clang(c):
    report, p = check_profile(c, "imbalanced_loop", "imbalanced_loop.c", 24, 10)
    if "imbalanced_loop.c:24" not in p.stderr:
        fail("the terminal summary does not name imbalanced_loop.c:24:\n" + p.stderr)
    # clang's outlined body names no function: the region's and its loop's are main's.
    r = region_at(report, c.src("imbalanced_loop.c"), 24)
    if r["function"] != "main":
        fail(f"the region at imbalanced_loop.c:24 is in function {r['function']!r}, expected 'main'")
    loops = [k for k in r.get("constructs", []) if k["kind"] == "loop"]
    if not loops or loops[0]["function"] != "main":
        fail(f"the loop's function is {[k['function'] for k in loops]}, expected ['main']")
    # The findings name the loop's line first, with its source beside it, in report.json and in the
    # terminal summary's opening lines.
    # The first finding that is the program's (time off the CPU that another process took is
    # skipped, as top_problem skips it).
    def own(f):
        r = next((x for x in report["regions"] if x["id"] == f["region"]), None)
        problems = [q for q in (r or {}).get("problems", []) if q["kind"] == f["kind"] and q["threads"] == f["threads"]]
        return not (problems and environmental(problems[0]))
    first = next((f for f in report.get("findings", []) if own(f)), None)
    if not first or first["file"] != r["file"] or first["line"] != 24 or "source" not in first:
        fail(f"the first finding is {first}, expected one at imbalanced_loop.c:24 with its source")
    if "#pragma omp parallel for schedule(static)" not in "".join(first["source"].get("lines", [])):
        fail(f"the first finding's source does not show the loop's directive: {first['source']}")
    summary = p.stderr.split("findings at", 1)[-1].splitlines()[:3]
    if "ompscope: " not in p.stderr.split("findings at", 1)[0] or not any(first["action"] in s for s in summary):
        fail("the terminal summary does not open with the first finding's action:\n" + p.stderr)
    # Re-rendering the saved report gives the same region in every format.
    out = os.path.join(c.work, "profile-imbalanced_loop")
    for fmt in ["text", "json", "csv", "html"]:
        q = run([c.bin, "report", out, "--format", fmt], check_rc=0)
        if "imbalanced_loop.c" not in q.stdout:
            fail(f"report --format {fmt} lacks the region")

def mapped_runtime(out):
    """The OpenMP runtime the measured process had mapped, as its capture recorded it."""
    meta = open(os.path.join(process_log(out), "meta.txt")).read()
    found = re.search(r"^runtime_library (.*)$", meta, re.M)
    modules = re.findall(r"^module \S+ \S+ \S+ (.*)$", meta, re.M)
    return (found.group(1) if found else None), modules

def scenario_profile_gcc(c):
    """A GCC-built program is measured on its own runtime, GNU libgomp, with no option: the
    process maps libgomp (and no LLVM libomp), the report says so, and the region sits at its
    directive's line."""
    report, p = check_profile(c, "imbalanced_loop_gcc", "imbalanced_loop.c", 24, 10)
    if "GCC" not in p.stderr or not any("GCC" in n for n in notes(report)):
        fail("a GCC-built program must be announced once and its report must say what GCC hides")
    if not report["runtime"].startswith("GNU libgomp") or "interposed" not in report["runtime"]:
        fail(f"report runtime {report['runtime']!r}, expected GNU libgomp (interposed)")
    library, modules = mapped_runtime(os.path.join(c.work, "profile-imbalanced_loop_gcc"))
    if not library or not os.path.basename(library).startswith("libgomp.so"):
        fail(f"the process ran on {library!r}, expected GNU libgomp")
    if any(os.path.basename(m).startswith("libomp.so") for m in modules):
        fail(f"LLVM libomp was mapped into the GCC program: {modules}")
    # The region at its directive's line exactly; the dynamic loop (GOMP_loop_* calls) too.
    static_line, dynamic_line = pragma_lines(c.src("imbalanced_loop.c"))[1], pragma_lines(c.src("imbalanced_loop.c"))[0]
    region_at(report, c.src("imbalanced_loop.c"), static_line, 0)
    out = c.out("profile-imbalanced_loop_gcc-dynamic")
    run([c.bin, "profile", "-o", out, "--", c.prog("imbalanced_loop_gcc"), "dynamic"], env={"OMP_NUM_THREADS": "2"},
        check_rc=0)
    r = region_at(load(out), c.src("imbalanced_loop.c"), dynamic_line, 0)
    if r["instances"] != 10 or len(r["per_thread"]["2"]) != 2:
        fail(f"dynamic loop region: {r['instances']} instances, {len(r['per_thread']['2'])} threads")
    # --runtime llvm still runs it on LLVM libomp, and the report says which runtime it measured.
    out = c.out("profile-imbalanced_loop_gcc-llvm")
    run([c.bin, "profile", "--runtime", "llvm", "-o", out, "--", c.prog("imbalanced_loop_gcc")],
        env={"OMP_NUM_THREADS": "2"}, check_rc=0)
    swapped = load(out)
    library, _ = mapped_runtime(out)
    if swapped["runtime"].startswith("GNU") or not any("--runtime llvm" in n for n in notes(swapped)):
        fail(f"--runtime llvm: runtime {swapped['runtime']!r}, notes {swapped['notes']}")
    # ... and how the program's time there compares with its own runtime's, run bare.
    if not any(re.search(r"s measured on LLVM libomp .* s bare on the GNU libgomp", n) for n in notes(swapped)):
        fail(f"--runtime llvm: no note compares the two runtimes' times: {swapped['notes']}")

def scenario_gcc_constructs(c):
    """Every wrapped construct at once (tasks with a copy function and over-aligned arguments,
    dependences, nest locks, sections, named critical, ordered, taskgroup): the program prints
    what it prints bare, and its region, critical, lock and tasks are observed."""
    program = c.prog("gomp_constructs_gcc")
    direct = run([program], env={"OMP_NUM_THREADS": "2"}, check_rc=0)
    out = c.out("profile-gomp_constructs")
    p = run([c.bin, "profile", "-o", out, "--", program], env={"OMP_NUM_THREADS": "2"}, check_rc=0)
    if p.stdout != direct.stdout:
        fail(f"program output changed under the interposer:\n{direct.stdout!r}\nvs\n{p.stdout!r}")
    report = load(out)
    r = region_at(report, c.src("gomp_constructs.cpp"), pragma_lines(c.src("gomp_constructs.cpp"))[0], 0)
    if len(r["per_thread"]["2"]) != 2:
        fail(f"region observed on {len(r['per_thread']['2'])} threads, expected 2")
    if "not observed" in " ".join(notes(report)):
        fail(f"every construct of the program is covered, yet: {report['notes']}")

def scenario_gcc_uncovered(c):
    """A construct the interposer does not observe (taskloop): the program runs as it does bare,
    and the report names what was not observed."""
    program = c.prog("taskloop_uncovered_gcc")
    direct = run([program], env={"OMP_NUM_THREADS": "2"}, check_rc=0)
    out = c.out("profile-taskloop")
    p = run([c.bin, "profile", "-o", out, "--", program], env={"OMP_NUM_THREADS": "2"}, check_rc=0)
    if p.stdout != direct.stdout:
        fail(f"program output changed under the interposer:\n{direct.stdout!r}\nvs\n{p.stdout!r}")
    report = load(out)
    if not any(n.startswith("not observed") and "GOMP_taskloop (taskloop)" in n for n in notes(report)):
        fail(f"the report does not name the unobserved taskloop: {report['notes']}")

def scenario_trace_gcc(c):
    # One symbolizer for every command: the trace names a GCC-built region at the line profile does.
    out = c.out("trace-gcc")
    run([c.bin, "trace", "--format", "perfetto", "-o", out, "--", c.prog("imbalanced_loop_gcc")],
        env={"OMP_NUM_THREADS": "2"}, check_rc=0)
    names = {e.get("name", "") for e in json.load(open(os.path.join(out, "trace.json")))["traceEvents"]}
    parallel = sorted(n for n in names if n.startswith("parallel"))
    if not any(n.endswith("imbalanced_loop.c:24") for n in parallel):
        fail(f"the trace names the GCC-built region {parallel}, expected imbalanced_loop.c:24 as profile does")

def regions_by_line(report, source, threads):
    name = os.path.basename(source)
    return {r["line"]: r["instances"] for r in parallel_regions(report) if r["file"].endswith(name)}

def check_region_identity(c, program, source, expected):
    """Each region at its own directive line with its own instance count, in profile, scale and
    trace alike. `expected`: {line: instances}."""
    env = {"OMP_NUM_THREADS": "2"}
    out = c.out("identity-profile-" + program)
    run([c.bin, "profile", "-o", out, "--", c.prog(program)], env=env, check_rc=0)
    got = regions_by_line(load(out), c.src(source), "2")
    if got != expected:
        fail(f"profile of {program}: regions {got}, expected {expected} (line: instances)")
    out = c.out("identity-scale-" + program)
    run([c.bin, "scale", "-t", "1,2", "-o", out, "--", c.prog(program)], check_rc=0)
    got = regions_by_line(load(out), c.src(source), "2")
    if got != expected:
        fail(f"scale of {program}: regions {got}, expected {expected}")
    out = c.out("identity-trace-" + program)
    run([c.bin, "trace", "--format", "perfetto", "-o", out, "--", c.prog(program)], env=env, check_rc=0)
    events = json.load(open(os.path.join(out, "trace.json")))["traceEvents"]
    name = os.path.basename(source)
    lines = {}
    for e in events:
        m = re.match(rf"parallel .*{re.escape(name)}:(\d+)$", e.get("name", ""))
        if m and e.get("ph") in ("X", "B") and e.get("tid") == 1:  # the initial thread: every instance once
            lines[int(m.group(1))] = lines.get(int(m.group(1)), 0) + 1
    if lines != expected:
        fail(f"trace of {program}: parallel slices {lines} on the initial thread, expected {expected}")

def scenario_region_identity(c):
    # clang -O2 merges the forks of the if/else branches into one call, and ends each of the three
    # functions in `jmp __kmpc_fork_call`: one fork return address for three regions. gcc -O2
    # merges two of the if/else forks and tail-calls GOMP_parallel.
    for program in ["if_else_regions", "tail_called_regions"]:
        pragmas = pragma_lines(c.src(program + ".c"))
        for build in [program, program + "_gcc"]:
            check_region_identity(c, build, program + ".c", dict(zip(pragmas, [10, 20, 30])))
    # gfortran: each region at its `!$omp parallel do` line, not at the statement after it.
    directives = [i + 1 for i, l in enumerate(open(c.src("after_region.f90"))) if l.startswith("!$omp parallel")]
    check_region_identity(c, "after_region_fortran", "after_region.f90", dict(zip(directives, [10, 20])))

def scenario_record_kinds(c):
    # Only kinds some analysis reads are recorded, and scripts/dump_log.py names every kind from
    # src/common/event_record.h, a light-task batch included.
    dump = os.path.join(c.sources, "..", "..", "scripts", "dump_log.py")
    read = {"ThreadBegin", "ParallelBegin", "ParallelEnd", "ImplicitTaskBegin", "ImplicitTaskEnd", "WorkBegin",
            "WorkEnd", "SyncBegin", "SyncEnd", "MutexAcquire", "MutexAcquired", "MutexReleased", "NestLockNext",
            "TaskCreate", "TaskSchedule", "MaskedBegin", "MaskedEnd", "LightTasks", "LockOps", "ThreadUsage",
            "HwCounters", "TaskDependences", "TaskDependence", "SerialUsage", "SerialWaits", "Sample", "SampleFrames",
            "ToolControl", "TaskLevels"}
    seen = set()
    for program in ["fine_tasks", "many_barriers", "shared_lock", "many_barriers_gcc", "shared_lock_gcc"]:
        out = c.out("kinds-" + program)
        run([c.bin, "profile", "-o", out, "--", c.prog(program)], env={"OMP_NUM_THREADS": "2"}, check_rc=0)
        p = run(["/usr/bin/python3", dump, process_log(out)], check_rc=0)
        kinds = {line.split()[1] for line in p.stdout.splitlines() if not line.startswith("==")}
        seen |= kinds
        if kinds - read:
            fail(f"{program}: recorded kinds no analysis reads: {sorted(kinds - read)}")
        check_hardware_counters(program, out, kinds)
    if "LightTasks" not in seen:
        fail("fine_tasks left no light-task batch to print")
    if "TaskLevels" not in seen:
        fail("fine_tasks left no count of its tasks by level to print")

def scenario_usage_readings(c):
    # docs/lost-time.md, "Readings that measured themselves": a region instance that reads the
    # kernel's accounting reads the stretch before each of its first 64 barriers, then one in the
    # power of two that spaces the readings 100 us apart at the last 16 barriers' pace, at most 1 in 256
    # (capture/thread_usage.h), under either runtime. A pair at each of many_barriers' 100 000 barriers, 0.6 us apart, made it 5x
    # slower and was most of what its barriers seemed to cost.
    dump = os.path.join(c.sources, "..", "..", "scripts", "dump_log.py")
    for program in ["many_barriers", "many_barriers_gcc"]:
        out = c.out("usage-" + program)
        run([c.bin, "profile", "-o", out, "--", c.prog(program)], env={"OMP_NUM_THREADS": "2"}, check_rc=0)
        p = run(["/usr/bin/python3", dump, process_log(out)], check_rc=0)
        thread, first, last, begins, ends, barriers = None, {}, {}, {}, {}, {}
        for line in p.stdout.splitlines():
            if line.startswith("=="):
                thread = line.split()[1]
                continue
            words = line.split()
            t = float(words[0].rstrip("us"))
            first.setdefault(thread, t)
            last[thread] = t
            if words[1] == "ThreadUsage":
                edges = begins if "d=0" in words else ends
                edges[thread] = edges.get(thread, 0) + 1
            elif words[1] == "SyncBegin":
                barriers[thread] = barriers.get(thread, 0) + 1
        for th in barriers:
            span_us = last[th] - first[th]
            begun = begins.get(th, 0)
            # The first 64, then one per 100 us of the run or one in 256 barriers, the more (each
            # window of 16 barriers read at the pace of the one before it: 16 more at most).
            most = 64 + barriers[th] / 256 + span_us / 100 + 16 + 2
            print(f"{program} {th}: {barriers[th]} barriers, {begun} stretches begun, {ends.get(th, 0)} ended "
                  f"(at most {most:.0f}), one per {barriers[th] / max(begun, 1):.0f} barriers")
            if begun > most:
                fail(f"{program} {th}: {begun} stretches begun for {barriers[th]} barriers in {span_us:.0f} us")
            if abs(begun - ends.get(th, 0)) > 1 or begun < min(barriers[th], 64):
                fail(f"{program} {th}: {begun} stretches begun, {ends.get(th, 0)} ended: the first 64 are read")
            # How sparse depends on the pace the run had: on a loaded machine (ctest -j 2 beside
            # other runs) libgomp's barriers took 600 us each, and every one was read, as it should.

def check_hardware_counters(program, out, kinds):
    # docs/lost-time.md, "Hardware counters": the OMPT tool opens them or says why not once in
    # meta.txt, and the report then says so in one note, in JSON, text and HTML; never an error.
    # The libgomp interposer does the same (one recorder under both: capture/recorder.h). On a VM
    # without a PMU the first holds.
    with open(os.path.join(process_log(out), "meta.txt")) as f:
        said = [line.split(None, 1)[1].strip() for line in f if line.startswith("hw_counters ")]
    report = load(out)
    notes = [n for n in report.get("notes", []) if n.get("kind") == "hardware_counters"]
    with open(os.path.join(out, "report.txt")) as f:
        text = f.read()
    with open(os.path.join(out, "report.html")) as f:
        html = f.read()
    if len(said) != 1:
        fail(f"{program}: meta.txt says {len(said)} times whether hardware counters opened: {said}")
    if said[0].startswith("none "):
        reason = said[0][len("none "):]
        line = f"no usable hardware counters ({reason}): IPC and cache misses not measured"
        if len(notes) != 1 or notes[0]["text"] != line:
            fail(f"{program}: expected the one note {line!r}, got {notes}")
        if text.count("no usable hardware counters") != 1 or line not in text:
            fail(f"{program}: report.txt says it {text.count('no usable hardware counters')} times, expected once")
        if html.count("no usable hardware counters") != 1:
            fail(f"{program}: report.html says it {html.count('no usable hardware counters')} times, expected once")
        if "HwCounters" in kinds:
            fail(f"{program}: counter records although none opened")
    elif notes or "HwCounters" not in kinds:
        fail(f"{program}: counters opened ({said[0]}) but {len(notes)} notes and no HwCounters record")

def scenario_lock_counts(c):
    """Lock sampling counts every operation exactly on both capture paths (OMPT on libomp, the
    interposer on libgomp): per thread, the recorded acquisitions' weights and the LockOps
    counts add up to the 15 000 operations tests/programs/lock_counts.c takes outside light
    region instances, every recorded acquisition of a lock is released by its own thread (the
    program releases two locks out of order), and the program prints what it prints bare."""
    dump = os.path.join(c.sources, "..", "..", "scripts", "dump_log.py")
    for program in ["lock_counts", "lock_counts_gcc"]:
        direct = run([c.prog(program)], check_rc=0)
        out = c.out("counts-" + program)
        p = run([c.bin, "profile", "-o", out, "--", c.prog(program)], env={"OMP_NUM_THREADS": "2"}, check_rc=0)
        if p.stdout != direct.stdout:
            fail(f"{program}: output changed under the tool: {direct.stdout!r} vs {p.stdout!r}")
        text = run(["/usr/bin/python3", dump, process_log(out)], check_rc=0).stdout
        counted = {}
        for thread in text.split("== ")[1:]:
            lines = thread.splitlines()
            ops, held = 0, {}
            for line in lines[1:]:
                f = line.split()
                fields = dict(x.split("=", 1) for x in f[2:])
                lock = (fields["id"], fields["id2"])
                if f[1] == "MutexAcquired":
                    ops += int(fields["arg"])
                    held[lock] = held.get(lock, 0) + 1
                elif f[1] == "MutexReleased":
                    if held.get(lock, 0) == 0:
                        fail(f"{program} {lines[0]}: a release of {lock} with no recorded acquisition before it")
                    held[lock] -= 1
                elif f[1] == "LockOps":
                    ops += int(fields["arg"])
            if any(held.values()):
                fail(f"{program} {lines[0]}: recorded acquisitions never released: {held}")
            if ops:
                counted[lines[0]] = ops
        if sorted(counted.values()) != [15000, 15000]:
            fail(f"{program}: lock operations counted per thread {counted}, expected 15000 on each of 2 threads")

def scenario_nested(c):
    out = c.out("nested")
    run([c.bin, "profile", "-o", out, "--", c.prog("nested")], env={"OMP_NUM_THREADS": "2"}, check_rc=0)
    report = load(out)
    outer_line, inner_line = pragma_lines(c.src("nested.c"))
    outer = region_at(report, c.src("nested.c"), outer_line, 0)
    # clang -O2 tail-calls the inner fork from the outer's outlined body, so no return address
    # into user code exists (libomp 14 reports one inside itself): the inner region is named by
    # the region it is nested in.
    inner = [r for r in parallel_regions(report) if r.get("nested")]
    if len(inner) != 1:
        fail(f"expected one nested region, got {len(inner)}")
    inner = inner[0]
    if not re.search(rf"nested in .*nested\.c:{outer_line}\b", inner["function"]):
        fail(f"inner region named {inner['function']!r}, expected it to name nested.c:{outer_line}")
    if outer["instances"] != 3 or inner["instances"] != 6 or not inner.get("nested"):
        fail(f"nested: outer x{outer['instances']} (3), inner x{inner['instances']} (6), nested={inner.get('nested')}")

def scenario_oversubscribed(c):
    report, p = check_profile(c, "imbalanced_loop", "imbalanced_loop.c", 24, 10, threads="64")
    if 64 not in report["oversubscribed_threads"] or "oversubscribed" not in p.stderr:
        fail("64 threads on this machine must be labelled oversubscribed")

def scenario_dies(c):
    for how, rc in [("abort", 128 + 6), ("segv", 128 + 11), ("exit3", 3)]:
        for program in ["dies_midway", "dies_midway_gcc"]:
            out = c.out(f"dies-{program}-{how}")
            p = run([c.bin, "profile", "-o", out, "--", c.prog(program), how], env={"OMP_NUM_THREADS": "2"})
            if p.returncode != rc:
                fail(f"{program} {how}: ompscope exited {p.returncode}, expected the program's {rc}\n{p.stderr}")
            if "captured until then" not in p.stderr:
                fail(f"{program} {how}: the failure is not explained:\n{p.stderr}")
            report = load(out)
            r = region_at(report, c.src("dies_midway.c"), pragma_lines(c.src("dies_midway.c"))[0])
            if r["instances"] != 5:
                fail(f"{program} {how}: {r['instances']} instances survived, expected 5")
            run_status = report["runs"][0]["status"]
            if how != "exit3" and "killed" not in run_status:
                fail(f"run status {run_status!r} does not say the program was killed")

def scenario_scale_one_count_fails(c):
    out = c.out("scale-fails-at-2")
    p = run([c.bin, "scale", "-t", "1,2", "-r", "1", "-o", out, "--", c.prog("dies_midway"), "exit3-at-2"])
    if p.returncode != 3:
        fail(f"scale exited {p.returncode}, expected the failing run's status 3\n{p.stderr}")
    report = load(out)
    status = {r["threads"]: r["status"] for r in report["runs"]}
    if status.get(1) != "ok" or not status.get(2, "").startswith("exit 3"):
        fail(f"run statuses {status}: the failure must be shown per run")
    r = region_at(report, c.src("dies_midway.c"), pragma_lines(c.src("dies_midway.c"))[0])
    if set(r["time_s"]) != {"1", "2"}:
        fail(f"the region must be reported at both counts, got {sorted(r['time_s'])}")
    if "at 2 threads the program exit 3" not in p.stderr:
        fail("the terminal does not say which count failed:\n" + p.stderr)

def scenario_bad_input(c):
    expect_error([c.bin, "profile", "-o", c.out("missing"), "--", "/no/such/program"], "missing program")
    # The binary copied away from its lib/: the runs would load no tool. Refused before any run,
    # never an empty report.
    moved = c.out("moved-bin")
    os.makedirs(moved)
    shutil.copy(c.bin, moved)
    for command in ("profile", "scale"):
        line = expect_error([os.path.join(moved, "ompscope"), command, "-o", c.out("moved-" + command), "--",
                             c.prog("imbalanced_loop")], f"{command} with no tool library")
        if "tool library" not in line or "libompscope.so" not in line:
            fail(f"{command} with no tool library: the line does not name it: {line}")
        if os.path.exists(os.path.join(c.out("moved-" + command), "report.json")):
            fail(f"{command} with no tool library wrote a report")
    expect_error([c.bin, "report", c.out("not-a-report")], "report of a missing directory")
    os.makedirs(c.out("empty-dir"))
    expect_error([c.bin, "report", os.path.join(c.work, "empty-dir")], "report of a directory without report.json")
    bad = c.out("bad-json")
    os.makedirs(bad)
    open(os.path.join(bad, "report.json"), "w").write('{"tool": "ompscope", "regions": [')
    expect_error([c.bin, "report", bad], "corrupt report.json")
    expect_error([c.bin, "diff", bad, bad], "diff of a corrupt report.json")
    expect_error([c.bin, "diff", c.out("not-a-report"), bad], "diff of a missing directory")
    # A raw log directory can be analysed directly; damaged ones are refused, never crash.
    good = c.out("log-source")
    run([c.bin, "profile", "-o", good, "--", c.prog("imbalanced_loop")], env={"OMP_NUM_THREADS": "2"}, check_rc=0)
    log = process_log(good)
    q = run([c.bin, "report", log], check_rc=0)
    if "imbalanced_loop.c:24" not in q.stdout:
        fail("report of a raw log directory lacks the region:\n" + q.stdout)
    def damaged(name, damage):
        d = c.out(name)
        shutil.copytree(log, d)
        damage(d)
        return expect_error([c.bin, "report", d], name)
    def truncate(d):
        f = os.path.join(d, "thread-0000.evt")
        os.truncate(f, os.path.getsize(f) - 7)
    def corrupt(d):
        f = os.path.join(d, "thread-0001.evt")
        data = bytearray(open(f, "rb").read())
        data[64 + 32 * 3 + 30] = 250  # an event kind that does not exist
        open(f, "wb").write(data)
    def magic(d):
        f = os.path.join(d, "thread-0000.evt")
        data = bytearray(open(f, "rb").read())
        data[0:8] = b"NOTALOG!"
        open(f, "wb").write(data)
    def meta(d):
        open(os.path.join(d, "meta.txt"), "w").write("ompscope-log 1\nclock_start x y\n")
    if "truncated" not in damaged("truncated-log", truncate): fail("truncation not named")
    if "corrupt" not in damaged("corrupt-log", corrupt): fail("corruption not named")
    damaged("bad-magic-log", magic)
    if "meta.txt:2" not in damaged("bad-meta-log", meta): fail("meta error must name the line")

def scenario_own_thread_counts(c):
    """A program that sets its own team size (-t N, else 2 whatever OMP_NUM_THREADS says): runs
    are labelled by the team that ran, the counts asked for beside it; runs asked for 1 and 2
    that both ran 2 give one count and no efficiency; `-t {threads}` passes each count to it."""
    for program in ["own_threads", "own_threads_gcc"]:
        out = c.out("own-" + program)
        p = run([c.bin, "scale", "-t", "1,2", "-r", "1", "-o", out, "--", c.prog(program)], check_rc=0)
        report = load(out)
        ran = [(r["threads_requested"], r["threads"], r["threads_measured"]) for r in report["runs"]]
        print(f"{program}: (asked for, ran, measured) per run: {ran}; report threads {report['threads']}")
        if ran != [(1, 2, True), (2, 2, True)] or report["threads"] != [2]:
            fail(f"{program}: runs {ran}, threads {report['threads']}: want both runs to have run 2 threads")
        said = [n for n in report["notes"] if n["kind"] == "threads_differ"]
        if not said or "asked for 1 thread, 2 ran" not in said[0]["text"] or "no speedup or efficiency" not in said[0]["text"]:
            fail(f"{program}: no note says the team differed from the count asked for: {report['notes']}")
        if report["program"]["speedup"] or set(report["program"]["efficiency"]) - {"2"}:
            fail(f"{program}: an efficiency from one team measured twice: {report['program']}")
        if "asked for 1 thread, 2 ran" not in p.stderr:
            fail(f"{program}: the text report does not say so:\n{p.stderr}")
        if "asked for 1 thread, 2 ran" not in open(os.path.join(out, "report.html")).read():
            fail(f"{program}: the HTML report does not say so")
        for args in (["-t", "{threads}"], ["--threads={threads}"]):
            out = c.out("own-args-" + program)
            p = run([c.bin, "scale", "-t", "1,2", "-r", "1", "-o", out, "--", c.prog(program)] + args, check_rc=0)
            report = load(out)
            ran = [(r["threads_requested"], r["threads"]) for r in report["runs"]]
            if ran != [(1, 1), (2, 2)] or report["threads"] != [1, 2]:
                fail(f"{program} {' '.join(args)}: runs {ran}: want the count passed in its arguments")
            if any(n["kind"] == "threads_differ" for n in report["notes"]) or "2" not in report["program"]["efficiency"]:
                fail(f"{program} {' '.join(args)}: notes {report['notes']}, efficiency {report['program']['efficiency']}")
            if report["command"][-len(args):] != args:
                fail(f"{program}: the report's command should keep the placeholder: {report['command']}")

def scenario_fork_shapes(c):
    """A region ending in an explicit barrier (clang and gcc -O2 tail-call the barrier from the
    body): every region and construct is located in the program, at its directive line, clang and
    gcc alike; none in ompscope's own sources (before: gcc's barrier at gomp_interposer.cpp:205,
    clang's at no place)."""
    source = c.src("barrier_at_end.c")
    region_line = pragma_lines(source)[0]
    barrier_line = next(i + 1 for i, l in enumerate(open(source)) if "#pragma omp barrier" in l)
    for program in ["barrier_at_end", "barrier_at_end_gcc"]:
        out = c.out("shapes-" + program)
        run([c.bin, "profile", "-o", out, "--", c.prog(program)], env={"OMP_NUM_THREADS": "2"}, check_rc=0)
        report = load(out)
        region = region_at(report, source, region_line)
        places = [(k["kind"], os.path.basename(k["file"]), k["line"]) for k, _ in walk_constructs(region["constructs"])]
        print(f"{program}: region at {os.path.basename(region['file'])}:{region['line']}, constructs {places}")
        for r in parallel_regions(report):
            for k, _ in walk_constructs(r["constructs"]):
                if k["file"] and not k["file"].endswith("barrier_at_end.c"):
                    fail(f"{program}: a {k['kind']} located at {k['file']}:{k['line']}, outside the program")
        barriers = [p for p in places if p[0] == "barrier"]
        # Both compilers tail-call the barrier (clang: its return address is libomp's): it is the
        # body's, placed at the directive's line.
        if not barriers or any(abs(line - region_line) > 1 for _, _, line in barriers):
            fail(f"{program}: barriers at {barriers}, want line {region_line} (the barrier's own: {barrier_line})")

def scenario_fork_shapes_atomic(c):
    """Regions whose fork hides the directive (fork_shapes.c): a function ending in a plain
    parallel region with only an atomic inside, called from a loop (clang -O2 tail-calls the fork,
    and the body calls no runtime entry point: it was placed at its caller's line); a region in a
    static inline helper; a region whose body inlines a helper. Each is located at its own
    directive line, with its own instance count, clang and gcc alike."""
    source = c.src("fork_shapes.c")
    lines = pragma_lines(source)
    want = {lines[0]: 40, lines[1]: 20, lines[2]: 20}  # tally, scale_all, the region in main
    for program in ["fork_shapes", "fork_shapes_gcc"]:
        out = c.out("atomic-" + program)
        run([c.bin, "profile", "-o", out, "--", c.prog(program)], env={"OMP_NUM_THREADS": "2"}, check_rc=0)
        got = {r["line"]: r["instances"] for r in parallel_regions(load(out)) if r["file"].endswith("fork_shapes.c")}
        places = sorted((os.path.basename(r["file"]), r["line"], r["instances"]) for r in parallel_regions(load(out)))
        print(f"{program}: regions (file, line, instances) {places}; directives at {sorted(want)}")
        if got != want:
            fail(f"{program}: regions at {got} (line: instances), want {want}")

def scenario_doctor(c):
    """`ompscope doctor` answers "the tool shows nothing": OMPT is active on the bundled probe,
    the clock and the thread placement are named, and the exit status says all is well. On a
    program with no OpenMP runtime it says so and fails."""
    p = run([c.bin, "doctor"], check_rc=0)
    for expected in ("OMPT active", "events from", "thread placement", "OMP_PLACES={", "everything needed"):
        if expected not in p.stdout:
            fail(f"doctor does not say '{expected}':\n{p.stdout}")
    if "invariant TSC" not in p.stdout and "CLOCK_MONOTONIC" not in p.stdout:
        fail(f"doctor names no clock:\n{p.stdout}")
    if re.search(r"^probe \d+", p.stdout, re.M):
        fail(f"doctor prints its probe's own output:\n{p.stdout}")
    p = run([c.bin, "doctor", "--", "/bin/true"], check_rc=1)
    if "FAIL" not in p.stdout or "not dynamically linked with an OpenMP runtime" not in p.stdout:
        fail(f"doctor on a program without OpenMP does not say what is missing:\n{p.stdout}")

def scenario_analysis_pages(c):
    """The analysis takes its memory in 2 MiB pages where the kernel gives them on request
    (common/allocator.h): `report` of a 400 k-event log faults a page far less often than once
    per 4 KiB of its peak. On a VM whose page fault costs 10 us those faults were most of its
    time (7 300 faults for a 33 MB peak; 480 for 39 MB in 2 MiB pages). `scale`'s threads that
    read its runs' logs beside the main one too (7 200 faults of its own for 4 logs, 600 with
    every thread's first segment committed at once). Skipped where the kernel
    gives none (transparent huge pages "never") or the node reserves huge pages for its jobs."""
    def setting(path):
        return open(path).read().strip() if os.path.exists(path) else "[never]"
    thp, defrag = (setting(f"/sys/kernel/mm/transparent_hugepage/{name}") for name in ("enabled", "defrag"))
    reserved = setting("/proc/sys/vm/nr_hugepages")
    # defrag "never": a huge page only where one happens to be free, else 4 KiB pages.
    if "[never]" in thp or "[never]" in defrag or reserved != "0":
        print(f"SKIP: transparent huge pages {thp} (defrag {defrag}), reserved huge pages {reserved}")
        sys.exit(77)
    out = c.out("barriers")
    run([c.bin, "profile", "-o", out, "--", c.prog("many_barriers")], env={"OMP_NUM_THREADS": "2"}, check_rc=0)
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        os.execv(c.bin, [c.bin, "report", os.path.join(out, "runs", "run-r0")])
    _, status, usage = os.wait4(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        fail(f"report exited {os.waitstatus_to_exitcode(status)}")
    small_pages = usage.ru_maxrss / 4  # the peak (KiB) in 4 KiB pages
    print(f"report: {usage.ru_minflt} page faults for a {usage.ru_maxrss / 1024:.1f} MB peak, "
          f"{usage.ru_minflt / small_pages:.2f} per 4 KiB (bound 0.4, margin x{0.4 * small_pages / usage.ru_minflt:.1f})")
    if not usage.ru_minflt < 0.4 * small_pages:
        fail(f"report took {usage.ru_minflt} page faults for {small_pages:.0f} pages of 4 KiB at its peak: "
             "its memory came in 4 KiB pages")
    # scale reads its runs' logs on a thread beside the main one: that thread's memory too (mimalloc
    # committed a thread's first segment in 4 KiB pages: 6 600 faults on its first log). Its own
    # faults, not its runs': read from /proc while it is a zombie (waitid WNOWAIT), before reaping.
    out = c.out("scale")
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        os.execve(c.bin, [c.bin, "scale", "-t", "1,2", "-r", "2", "-o", out, "--", c.prog("many_barriers")],
                  dict(os.environ))
    os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
    own_faults = int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[7])  # minflt: field 10
    _, status, usage = os.wait4(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        fail(f"scale exited {os.waitstatus_to_exitcode(status)}")
    # Four logs of ~13 MB: each read in 2 MiB pages costs tens of faults; in 4 KiB pages, thousands.
    bound = 4000
    print(f"scale: {own_faults} page faults of its own reading 4 logs on 2 threads (bound {bound}, "
          f"margin x{bound / max(own_faults, 1):.1f})")
    if own_faults >= bound:
        fail(f"scale took {own_faults} page faults of its own reading 4 logs: a reading thread's memory came in "
             "4 KiB pages")

def scenario_rebuilt_from_logs(c):
    """`ompscope report` of a run's logs (DIR/runs/RUN, or its process's pid-PID) counts the program
    as the command that ran it did: from the launch, the serial code before the runtime's first
    fork included (serial_phase: ~0.2 s of serial work, then one short region). Without the run's
    saved launch (an older run) it counts from the runtime's start, and says nothing false about it;
    a launch record ompscope did not write is refused in one line."""
    out = c.out("profile-serial_phase")
    run([c.bin, "profile", "-o", out, "--", c.prog("serial_phase")], check_rc=0, env=dict(os.environ, OMP_NUM_THREADS="2"))
    report = load(out)
    saved = report["program"]
    # Its serial work ran before its first OpenMP call: the hint says so, as no sample can place it.
    (before,) = saved.get("serial_before_runtime_s", {"-": 0}).values()
    code = [p for r in report["regions"] for p in r["problems"] if p["kind"] == "serial_code"]
    print(f"serial code before the runtime started: {before * 1e3:.2f} ms; hint: {code[0]['hint'] if code else None!r}")
    if not code or "before the program's first OpenMP call" not in code[0]["hint"] or before < 0.02:
        fail(f"serial_phase's serial work ran before its first OpenMP call ({before} s), and the hint does not say so")
    run_dir = os.path.join(out, "runs", "run-r0")
    launch = os.path.join(run_dir, "launch.txt")
    if not open(launch).read().startswith("ompscope-launch 1\n"):
        fail(f"{launch} is not a launch record")
    def rebuilt(path):
        r = json.loads(run([c.bin, "report", "--format", "json", path], check_rc=0).stdout)["program"]
        (t, serial), = zip(r["time_s"].values(), r["serial_s"].values())
        if r.get("serial_before_runtime_s") != saved.get("serial_before_runtime_s") and os.path.exists(launch):
            fail(f"report {path}: serial code before the runtime {r.get('serial_before_runtime_s')}, "
                 f"the profile's {saved.get('serial_before_runtime_s')}")
        return t, serial
    (t_saved, serial_saved), = zip(saved["time_s"].values(), saved["serial_s"].values())
    for path in (run_dir, process_log(out)):
        t, serial = rebuilt(path)
        print(f"{os.path.relpath(path, out)}: program {t * 1e3:.2f} ms, serial {serial * 1e3:.2f} ms; "
              f"profile's {t_saved * 1e3:.2f} ms, {serial_saved * 1e3:.2f} ms")
        if abs(t - t_saved) > 1e-9 * t_saved or abs(serial - serial_saved) > 1e-9 * t_saved:
            fail(f"report {path}: program {t} s, serial {serial} s; the profile said {t_saved} s, {serial_saved} s")
    # The serial phase precedes the runtime's start: without the launch it is not in the run.
    os.rename(launch, launch + ".kept")
    t, serial = rebuilt(run_dir)
    print(f"without the launch: program {t * 1e3:.2f} ms, serial {serial * 1e3:.2f} ms "
          f"(the serial phase {(serial_saved - serial) * 1e3:.2f} ms before the runtime started)")
    if not serial_saved - serial > 0.5 * serial_saved:
        fail(f"without its launch the run's serial code is {serial} s, with it {serial_saved} s: serial_phase's "
             "serial work no longer runs before the runtime starts?")
    with open(launch, "w") as f:
        f.write("ompscope-launch 1\nprogram_pid twelve\n")
    line = expect_error([c.bin, "report", run_dir], "a launch record ompscope did not write")
    if "launch.txt" not in line:
        fail(f"the error does not name the file: {line}")

if __name__ == "__main__":
    main(globals())
