#!/usr/bin/env python3
"""End-to-end checks of what ompscope does with the program's processes and with signals
(docs/safety.md, "Processes and signals"): `process_checks.py SCENARIO --ompscope BIN --programs DIR --sources
DIR --work DIR [--mpirun MPIRUN]`. Each scenario reproduces a case of issue 23 that went wrong
before: children that truncated each other's logs, signals that left the program running with
no report, a SIGKILL read as a corrupt log, a GCC-built program behind a wrapper not observed."""
import os, signal, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_common  # noqa: E402
from e2e_common import fail, load, notes, parallel_regions, pragma_lines, region_at, run  # noqa: E402

def processes(report):
    """The processes of a report that lists them (program.ranks with ranks_are 'processes')."""
    program = report["program"]
    if program.get("ranks_are") != "processes":
        fail(f"the report lists no processes: program has {sorted(program)}; notes {notes(report)}")
    return program["ranks"]

def check_children(c, name, out, p, pid_of_program=None):
    """spawns_children's report: its own process first, the two children after it, each with its
    command and its own region time; the program's exit status 3 passed through."""
    if p.returncode != 3:
        fail(f"{name}: ompscope exited {p.returncode}, expected the program's 3\n{p.stderr[-3000:]}")
    report = load(out)
    procs = processes(report)
    if len(procs) != 3 or [k["rank"] for k in procs] != [0, 1, 2]:
        fail(f"{name}: expected 3 processes, got {procs}")
    if procs[0]["command"].split()[0] != c.prog(name) or any(k["command"].split()[1] != "child" for k in procs[1:]):
        fail(f"{name}: the program's own process is not first, or the children's commands are wrong: "
             f"{[k['command'] for k in procs]}")
    if sorted(k["command"].split()[2] for k in procs[1:]) != ["0", "1"]:
        fail(f"{name}: the two children are not both listed: {[k['command'] for k in procs]}")
    if len({k["pid"] for k in procs}) != 3:
        fail(f"{name}: the processes' pids are not distinct: {procs}")
    src = c.src("spawns_children.c")
    region = region_at(report, src, pragma_lines(src)[0])
    # The figures are the program's own process's: 10 instances (5 before the children, 5 after).
    if region["instances"] != 10:
        fail(f"{name}: the program's region has {region['instances']} instances, expected its own 10 "
             f"(the children run it 20 times each)")
    times = {k["rank"]: k["time_s"] for k in region.get("ranks", [])}
    if sorted(times) != [0, 1, 2] or not all(times[k] for k in times):
        fail(f"{name}: the region's time is not given for each process: {region.get('ranks')}")
    # Each process's split: its parallel time is its time in this, its only region.
    for k in procs:
        for t, time_in_region in times[k["rank"]].items():
            if abs(k["parallel_s"][t] - time_in_region) > 1e-9:
                fail(f"{name}: process {k['rank']} at {t}: parallel {k['parallel_s'][t]} s, its region {time_in_region} s")
    # Beside the logs, the launch's clock points (launch.txt: what `report` of the logs counts from).
    logs = [d for d in os.listdir(os.path.join(out, "runs", report["runs"][0]["log"].split("/")[1])) if d != "launch.txt"]
    if len(logs) != 3 or not all(d.startswith("pid-") for d in logs):
        fail(f"{name}: the run's directory holds {logs} beside launch.txt, expected one pid-PID log per process")
    if pid_of_program is not None and procs[0]["pid"] != pid_of_program:
        fail(f"{name}: process 0 is pid {procs[0]['pid']}, not the program's {pid_of_program}")
    print(f"{name}: 3 processes; region time at each count, parent/children: "
          + ", ".join(f"{t}: {times[0][t]:.4f}/{times[1][t]:.4f}/{times[2][t]:.4f} s" for t in times[0]))
    return report

def scenario_processes(c):
    """A program that fork+execs two OpenMP children at once (clang and gcc builds): each process
    writes its own log, the report covers all three with the program's own first, and the exit
    status 3 comes out (before: 'corrupt log: record N goes back in time', exit 2). A script that
    runs two programs in turn: neither log is overwritten, both are in the report."""
    env = {"OMP_NUM_THREADS": "2"}
    for name in ("spawns_children", "spawns_children_gcc"):
        out = c.out("children-" + name)
        p = run([c.bin, "profile", "-o", out, "--", c.prog(name)], env=env)
        check_children(c, name, out, p)
        if "3 processes ran OpenMP code" not in p.stderr:
            fail(f"{name}: the terminal report does not list the processes:\n{p.stderr[-3000:]}")
        out = c.out("children-scale-" + name)
        # libomp 14 aborts in a child forked after it started with a place list, as scale's
        # binding sets one (OMP_PLACES={0},{1}; docs/runtime-quirks.md): the bare program's fate.
        places = {} if name.endswith("_gcc") else {"OMP_PLACES": "threads"}
        p = run([c.bin, "scale", "-t", "1,2", "-r", "1", "-o", out, "--", c.prog(name)], env=places)
        report = check_children(c, name, out, p)
        if sorted(processes(report)[1]["time_s"]) != ["1", "2"]:
            fail(f"{name}: scale lists a child at counts {sorted(processes(report)[1]['time_s'])}, expected 1 and 2")
    # Two programs in turn from a script: the first no longer overwritten by the second.
    out = c.out("script")
    first, second = c.prog("imbalanced_loop"), c.prog("dies_midway_gcc")
    p = run([c.bin, "profile", "-o", out, "--", "/bin/sh", "-c", f"{first}; {second} exit3"], env=env)
    if p.returncode != 3:
        fail(f"script: ompscope exited {p.returncode}, expected the script's 3\n{p.stderr[-3000:]}")
    report = load(out)
    procs = processes(report)
    commands = [k["command"].split()[0] for k in procs]
    if sorted(commands) != sorted([first, second]):
        fail(f"script: the report's processes are {commands}, expected both programs")
    ranks = {}
    for source in ("imbalanced_loop.c", "dies_midway.c"):
        line = pragma_lines(c.src(source))[-1 if source == "imbalanced_loop.c" else 0]
        found = [r for r in parallel_regions(report) if r["file"].endswith(source) and abs(r["line"] - line) <= 2]
        listed = [n for n in report["notes"] if n["kind"] == "process_only_regions" and
                  any(f"{source}:" in i for i in n["items"])]
        if not found and not listed:
            fail(f"script: {source}'s region is neither in the report nor listed as another process's: "
                 f"{notes(report)}")
        ranks[source] = "report" if found else "note"
    print(f"script: processes {commands}; regions: {ranks}")

def scenario_mpi_singleton(c):
    """An Open MPI program started without a launcher (a singleton: MPI_Init forks its own
    daemon) runs under scale and under profile with OMP_PLACES={0},{1}, as it does bare (before:
    'free(): invalid size', then 'orte_init failed'). The daemon is no OpenMP process: the report
    holds the program alone."""
    prog = c.prog("hybrid")
    env = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1", "OMP_NUM_THREADS": "2",
           "OMP_PLACES": "{0},{1}"}
    run([prog], env=env, check_rc=0)
    out = c.out("singleton-profile")
    p = run([c.bin, "profile", "-o", out, "--", prog], env=env)
    if p.returncode != 0:
        fail(f"profile of an MPI singleton with OMP_PLACES={{0}},{{1}}: exit {p.returncode}\n{p.stderr[-3000:]}")
    region_at(load(out), c.src("hybrid.c"), pragma_lines(c.src("hybrid.c"))[0])
    out = c.out("singleton-scale")
    env.pop("OMP_PLACES")
    p = run([c.bin, "scale", "-t", "1,2", "-r", "1", "-o", out, "--", prog], env=env)
    if p.returncode != 0:
        fail(f"scale of an MPI singleton: exit {p.returncode}\n{p.stderr[-3000:]}")
    report = load(out)
    if [r["status"] for r in report["runs"]] != ["ok", "ok"] or report["program"].get("ranks_are") == "processes":
        fail(f"scale of an MPI singleton: runs {report['runs']}, processes {report['program'].get('ranks')}")

def scenario_mpi_singleton_accounting(c):
    """An MPI singleton (hybrid with a tiny loop: MPI_Init forks Open MPI's daemon at every count)
    run under scale as a user would: its MPI time outside regions (MPI_Init and MPI_Finalize
    included) is measured at each count, none of it is serial code, and its share of the program's
    time lost, mpi_s(2) - mpi_s(1)/2, is explained: what stays unexplained is the loss less the
    regions' and serial code's explained parts less MPI's (before, the MPI part stayed unexplained
    and serial code "bounded the speedup")."""
    env = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}
    # The C program built with clang (libomp, OMPT), the same with its MPI behind a library of its
    # own, and the Fortran one with gfortran (GNU
    # libgomp through the interposer, MPI through the mpif-h bindings), where an MPI Fortran
    # compiler built it.
    # hybrid_via_lib: MPI linked behind a library of the program's own, not by the program.
    programs = [("hybrid", ["1000"]), ("hybrid_via_lib", ["1000"])]
    if os.path.exists(c.prog("hybrid_fortran")):
        programs.append(("hybrid_fortran", []))
    for name, args in programs:
        check_singleton_accounting(c, name, args, env)

def check_singleton_accounting(c, name, args, env):
    out = c.out("singleton-accounting-" + name)
    p = run([c.bin, "scale", "-t", "1,2", "-r", "1", "-o", out, "--", c.prog(name)] + args, env=env)
    if p.returncode != 0:
        fail(f"scale of an MPI singleton ({name}): exit {p.returncode}\n{p.stderr[-3000:]}")
    report = load(out)
    program = report["program"]
    mpi, serial, time_s = program.get("mpi_s", {}), program["serial_s"], program["time_s"]
    lost, unexplained = program["time_lost_s"]["2"], program["unexplained_s"]["2"]
    mpi_lost = max(0.0, mpi.get("2", 0) - mpi.get("1", 0) / 2)
    top = [r for r in report["regions"] if not r.get("nested") and "2" in r["time_lost_s"]]
    regions = sum(max(0.0, r["time_lost_s"]["2"]) - r["unexplained_s"]["2"] for r in top)
    # Regions faster than ideal give time back (docs/lost-time.md): lost = explained − given back + unexplained.
    given_back = sum(max(0.0, -r["time_lost_s"]["2"]) for r in top)
    print(f"{name} singleton: time {time_s}, MPI {mpi}, serial {serial}; lost at 2 threads {lost*1e3:.1f} ms: regions and "
          f"serial code explain {regions*1e3:.1f} ms, MPI {mpi_lost*1e3:.1f} ms, regions faster than ideal gave back "
          f"{given_back*1e3:.1f} ms, unexplained {unexplained*1e3:.1f} ms")
    if set(mpi) != {"1", "2"} or min(mpi.values()) < 0.02:
        fail(f"{name} singleton: MPI time {mpi}, want MPI_Init's daemon start (>= 20 ms) at both counts")
    for t in ("1", "2"):
        if serial[t] + mpi[t] > time_s[t] + 1e-6:
            fail(f"{name} singleton at {t}: serial {serial[t]} + MPI {mpi[t]} exceed the run {time_s[t]}: MPI counted as serial")
    if mpi_lost <= 0.001:
        fail(f"{name} singleton: MPI's loss {mpi_lost}: nothing to account for")
    want = max(0.0, lost - regions - mpi_lost + given_back)
    if abs(unexplained - want) > 1e-6:
        fail(f"{name} singleton: {unexplained*1e3:.1f} ms unexplained of {lost*1e3:.1f} ms lost, want "
             f"{want*1e3:.1f}: MPI's {mpi_lost*1e3:.1f} ms are not in the accounting")
    if abs(lost - (regions + mpi_lost - program["given_back_s"]["2"] + unexplained)) > 1e-6:
        fail(f"{name} singleton: the loss {lost} is not explained {regions + mpi_lost} - given back "
             f"{program['given_back_s']['2']} + unexplained {unexplained}")

def start(c, out, args, command=("profile",), run_dir="run-r0"):
    """ompscope profile (or `command`) of `spawns_children wait 20` in the background; returns it
    once the program ran its regions and waits, with the program's pid (its log's directory name)."""
    p = subprocess.Popen([c.bin, *command, "-o", out, "--", c.prog("spawns_children"), "wait", "20"] + args,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=dict(os.environ, OMP_NUM_THREADS="2", NO_COLOR="1"))
    line = p.stdout.readline()
    if not line.startswith("waiting"):
        p.kill()
        fail(f"the program did not start: {line!r} {p.stderr.read()}")
    runs = os.path.join(out, "runs", run_dir)
    pids = [int(d[4:]) for d in os.listdir(runs) if d.startswith("pid-")]
    if not pids and os.path.exists(os.path.join(runs, "meta.txt")):  # a log of the layout before
        pids = [int(l.split()[1]) for l in open(os.path.join(runs, "meta.txt")) if l.startswith("pid ")]
    if len(pids) != 1:
        p.kill()
        fail(f"expected one process log in {runs}: {os.listdir(runs)}")
    return p, pids[0]

def kill_ompscope_then_program(c, out, command, run_dir):
    """ompscope (`command`) SIGKILLed while the program waits, then the program stopped by
    SIGTERM: no report.json is left, only the runs' logs. Returns the program's pid."""
    p, pid = start(c, out, [], command, run_dir)
    p.kill()
    p.communicate(timeout=60)
    os.kill(pid, signal.SIGTERM)
    for _ in range(600):
        if not os.path.exists(f"/proc/{pid}"):
            break
        time.sleep(0.05)
    if os.path.exists(os.path.join(out, "report.json")):
        fail(f"a killed {command[0]} left a report.json")
    return pid

def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie no one reaped yet is gone too.
    with open(f"/proc/{pid}/stat") as f:
        return f.read().split(")")[-1].split()[0] != "Z"

def scenario_signals(c):
    """SIGTERM, SIGINT, SIGHUP and SIGQUIT sent to ompscope (what `timeout` or a batch system's
    limit sends) are passed on to the program: ompscope waits for it, writes the report of what
    was captured, names the signal and exits 128+signal, and the program does not run on (before:
    ompscope ended at once, no report, the program ran on). A program SIGKILLed before its first
    chunk reached the disk reads as 'nothing captured before SIGKILL', exit 137 (before: 'truncated
    log (shorter than its header)', exit 2), and `report DIR` reads every directory left, with a
    report or not."""
    src = c.src("spawns_children.c")
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT):
        out = c.out(f"signal-{sig.name}")
        p, pid = start(c, out, [])
        started = time.monotonic()
        p.send_signal(sig)
        _, err = p.communicate(timeout=60)
        waited = time.monotonic() - started
        if p.returncode != 128 + sig.value:
            fail(f"{sig.name}: ompscope exited {p.returncode}, expected {128 + sig.value}\n{err}")
        if f"ended by {sig.name}" not in err:
            fail(f"{sig.name}: ompscope does not say which signal ended it:\n{err}")
        if alive(pid):
            os.kill(pid, signal.SIGKILL)
            fail(f"{sig.name}: the program (pid {pid}) runs on after ompscope ended")
        report = load(out)
        region = region_at(report, src, pragma_lines(src)[0])
        if region["instances"] != 5 or f"SIG{sig.name[3:]}" not in report["runs"][0]["status"]:
            fail(f"{sig.name}: report of {region['instances']} instances, run status {report['runs'][0]['status']!r}")
        print(f"{sig.name}: exit {p.returncode} after {waited:.2f} s (the program sleeps 20 s), 5 instances reported")

    # SIGKILL to the program before its first chunk reached the disk.
    out = c.out("sigkill")
    p, pid = start(c, out, [])
    os.kill(pid, signal.SIGKILL)
    _, err = p.communicate(timeout=60)
    if p.returncode != 137 or "nothing captured before SIGKILL" not in err or "truncated" in err:
        fail(f"SIGKILL: exit {p.returncode}, expected 137 with 'nothing captured before SIGKILL':\n{err}")
    q = run([c.bin, "report", out], check_rc=0)
    if "nothing captured before SIGKILL" not in q.stdout:
        fail(f"report of the SIGKILL run does not say so:\n{q.stdout}")

    # ompscope itself killed (SIGKILL: no report.json), the program then stopped by SIGTERM: the
    # directory reads as the runs' logs; its program log, and the log of the one run, alike.
    out = c.out("ompscope-killed")
    pid = kill_ompscope_then_program(c, out, ("profile",), "run-r0")
    for d in (out, os.path.join(out, "runs", "run-r0"), os.path.join(out, "runs", "run-r0", f"pid-{pid}")):
        q = run([c.bin, "report", "--format", "json", d], check_rc=0)
        if f"spawns_children.c" not in q.stdout:
            fail(f"report {d}: the region is not there:\n{q.stdout[:2000]}")
    # scale ended by SIGTERM in its first run (1 thread): the signal passed on, no further run
    # started, the report of the run that was cut short; then a scale SIGKILLed in its first run
    # (the program stopped after it): `report DIR` reads the directory it left.
    out = c.out("scale-sigterm")
    p, pid = start(c, out, [], ("scale", "-t", "1,2", "-r", "1"), "t1-r0")
    p.send_signal(signal.SIGTERM)
    _, err = p.communicate(timeout=60)
    if p.returncode != 128 + signal.SIGTERM.value or "ended by SIGTERM" not in err or alive(pid):
        fail(f"scale under SIGTERM: exit {p.returncode}, program alive {alive(pid)}\n{err[-3000:]}")
    report = load(out)
    if [r["threads_requested"] for r in report["runs"]] != [1] or "SIGTERM" not in report["runs"][0]["status"]:
        fail(f"scale under SIGTERM: runs {report['runs']}, expected the one run at 1 thread, ended by SIGTERM")
    region = region_at(report, src, pragma_lines(src)[0])
    if region["instances"] != 5:
        fail(f"scale under SIGTERM: {region['instances']} instances of the region, expected 5")
    out = c.out("scale-killed")
    kill_ompscope_then_program(c, out, ("scale", "-t", "1,2", "-r", "1"), "t1-r0")
    for d in (out, os.path.join(out, "runs", "t1-r0")):
        q = run([c.bin, "report", "--format", "json", d], check_rc=0)
        if "spawns_children.c" not in q.stdout:
            fail(f"report {d} of a killed scale: the region is not there:\n{q.stdout[:2000]}")
    print("scale: SIGTERM in its first run gives exit 143 and that run's report; a killed scale's directory reads")
    # A trace's directory (no report.json) reads too.
    out = c.out("trace")
    run([c.bin, "trace", "-o", out, "--", c.prog("imbalanced_loop")], env={"OMP_NUM_THREADS": "2"}, check_rc=0)
    q = run([c.bin, "report", out], check_rc=0)
    if "imbalanced_loop.c" not in q.stdout:
        fail(f"report of a trace's directory lacks the region:\n{q.stdout[:2000]}")

def scenario_wrappers(c):
    """A program behind a wrapper (a shell's exec, a shell that forks, env, time, numactl, taskset) is observed on the
    runtime it loads, libgomp (GCC) or libomp (clang) alike (before, for the GCC build: 'not
    observed: the program is not linked with an OpenMP runtime', six times); --runtime llvm
    still runs the GCC build on libomp."""
    src = c.src("imbalanced_loop.c")
    line = pragma_lines(src)[-1]
    cases = [("gcc exec", ["/bin/bash", "-c", f"exec {c.prog('imbalanced_loop_gcc')}"], "GNU libgomp", []),
             ("gcc sh", ["/bin/sh", "-c", f"{c.prog('imbalanced_loop_gcc')} && true"], "GNU libgomp", []),
             ("gcc env", ["/usr/bin/env", "X=1", c.prog("imbalanced_loop_gcc")], "GNU libgomp", []),
             ("gcc time", ["/usr/bin/time", "-p", c.prog("imbalanced_loop_gcc")], "GNU libgomp", []),
             ("gcc numactl", ["/usr/bin/numactl", "--localalloc", c.prog("imbalanced_loop_gcc")], "GNU libgomp", []),
             ("gcc taskset", ["/usr/bin/taskset", "-c", "0-1023", c.prog("imbalanced_loop_gcc")], "GNU libgomp", []),
             ("clang exec", ["/bin/bash", "-c", f"exec {c.prog('imbalanced_loop')}"], "LLVM", []),
             ("clang numactl", ["/usr/bin/numactl", "--localalloc", c.prog("imbalanced_loop")], "LLVM", []),
             ("gcc on llvm", ["/bin/bash", "-c", f"exec {c.prog('imbalanced_loop_gcc')}"], "LLVM", ["--runtime", "llvm"])]
    for what, command, runtime, options in cases:
        out = c.out("wrapper-" + what.replace(" ", "-"))
        p = run([c.bin, "scale", "-t", "1,2", "-r", "1", "-o", out] + options + ["--"] + command)
        if p.returncode != 0 or "not observed" in p.stderr:
            fail(f"{what}: exit {p.returncode}\n{p.stderr[-3000:]}")
        report = load(out)
        if not all(r["observed"] for r in report["runs"]):
            fail(f"{what}: runs not observed: {report['runs']}")
        region = region_at(report, src, line)
        if sorted(region["time_s"]) != ["1", "2"] or region["instances"] != 10:
            fail(f"{what}: the loop at {line}: {region['instances']} instances at {sorted(region['time_s'])}")
        if runtime not in report["runtime"]:
            fail(f"{what}: measured on {report['runtime']!r}, expected {runtime}")
        print(f"{what}: observed on {report['runtime']}")

if __name__ == "__main__":
    e2e_common.main(globals(), options=[("--mpirun", {})])
