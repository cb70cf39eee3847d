#!/usr/bin/env python3
"""End-to-end checks that ompscope never harms the user's files (docs/safety.md, issue 23).

Each scenario is one CTest test: `safety_checks.py SCENARIO --ompscope BIN --programs DIR
--sources DIR --work DIR`. Each one failed on the ompscope before the change it checks.
"""
import os, shutil, stat, subprocess, sys, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_common  # noqa: E402
from e2e_common import fail  # noqa: E402

def run(cmd, timeout=120, **kw):
    """e2e_common.run with a limit: a command that hangs (a reader on a FIFO) fails the scenario."""
    return e2e_common.run(cmd, timeout=timeout, **kw)

def expect_refusal(cmd, what, contains=(), **kw):
    """One 'ompscope: ...' line on stderr and exit 2, nothing else."""
    p = run(cmd, **kw)
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    if p.returncode != 2 or len(lines) != 1 or not lines[0].startswith("ompscope: ") or "internal error" in lines[0]:
        fail(f"{what}: expected one 'ompscope: ...' line and exit 2, got exit {p.returncode}:\n{p.stderr}")
    for c in contains:
        if c not in lines[0]:
            fail(f"{what}: the line does not say {c!r}: {lines[0]}")
    print(f"{what}: {lines[0]}")
    return lines[0]

def tree(d):
    """Every path under d with its type, size and mtime: what 'untouched' means."""
    out = {}
    for root, dirs, files in os.walk(d):
        for n in dirs + files:
            p = os.path.join(root, n)
            s = os.lstat(p)
            out[os.path.relpath(p, d)] = (stat.S_IFMT(s.st_mode), s.st_size, s.st_mtime_ns)
    return out

class Ctx(e2e_common.Ctx):
    """e2e_common.Ctx over a work directory emptied first: every scenario starts from nothing."""
    def __init__(self, a):
        shutil.rmtree(a.work, ignore_errors=True)
        super().__init__(a)
    def path(self, *names): return os.path.join(self.work, *names)

def scenario_safety_output_dir(c):
    """Item 1: -o DIR is ompscope's only if ompscope made it. A project directory holding runs/
    and report.json of its own is refused untouched (it lost runs/sim/output.dat before); `-o ""`
    is refused (it wrote into the current directory); a new or empty directory gets the marker;
    a rerun into it replaces ompscope's files and keeps the user's."""
    program = c.prog("imbalanced_loop")
    env = {"OMP_NUM_THREADS": "2"}
    project = c.path("myproject")
    os.makedirs(os.path.join(project, "runs", "sim"))
    open(os.path.join(project, "runs", "sim", "output.dat"), "w").write("x\n")
    open(os.path.join(project, "report.json"), "w").write('{"mine": true}\n')
    before = tree(project)
    expect_refusal([c.bin, "profile", "-o", project, "--", program], "a user's directory", ("not empty",), env=env)
    if tree(project) != before:
        fail(f"the user's directory changed: {sorted(before)} -> {sorted(tree(project))}")
    expect_refusal([c.bin, "scale", "-t", "1", "-r", "1", "-o", project, "--", program], "scale into it", env=env)
    expect_refusal([c.bin, "trace", "-o", project, "--", program], "trace into it", env=env)
    if tree(project) != before:
        fail("the user's directory changed under scale or trace")

    cwd = c.path("cwd")
    os.makedirs(cwd)
    expect_refusal([c.bin, "profile", "-o", "", "--", program], '-o ""', ("empty",), env=env, cwd=cwd)
    if os.listdir(cwd):
        fail(f'-o "" wrote into the current directory: {os.listdir(cwd)}')

    out = c.path("new")
    p = run([c.bin, "profile", "-o", out, "--", program], env=env)
    if p.returncode != 0:
        fail(f"profile into a new directory: exit {p.returncode}\n{p.stderr}")
    marker = open(os.path.join(out, ".ompscope")).read()
    if not marker.startswith("ompscope ") or "profile" not in marker:
        fail(f"the marker does not name the tool, its version and what made it: {marker!r}")
    open(os.path.join(out, "notes.txt"), "w").write("mine\n")
    os.makedirs(os.path.join(out, "mine"))
    open(os.path.join(out, "mine", "data"), "w").write("mine\n")
    first = os.stat(os.path.join(out, "report.json")).st_mtime_ns
    time.sleep(0.05)
    p = run([c.bin, "profile", "-o", out, "--", program], env=env)
    if p.returncode != 0:
        fail(f"a rerun into ompscope's own directory: exit {p.returncode}\n{p.stderr}")
    if open(os.path.join(out, "notes.txt")).read() != "mine\n" or open(os.path.join(out, "mine", "data")).read() != "mine\n":
        fail("a rerun touched the user's files in ompscope's directory")
    if os.stat(os.path.join(out, "report.json")).st_mtime_ns == first:
        fail("a rerun did not replace report.json")

    empty = c.path("empty")
    os.makedirs(empty)
    p = run([c.bin, "profile", "-o", empty, "--", program], env=env)
    if p.returncode != 0 or not os.path.isfile(os.path.join(empty, ".ompscope")):
        fail(f"an empty directory is not adopted: exit {p.returncode}\n{p.stderr}")

def scenario_safety_lock(c):
    """Item 2: one run at a time per DIR. While a profile runs, a second one into the same DIR
    is refused in one line naming the first one's pid, and touches nothing; the first one's
    report comes out whole. Before, the second deleted the first one's runs/ mid-write."""
    out = c.path("shared")
    first = subprocess.Popen([c.bin, "profile", "-o", out, "--", "sleep", "8"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while not os.path.isdir(os.path.join(out, "runs")):
        if first.poll() is not None or time.time() > deadline:
            fail(f"the first run did not start: {first.communicate()}")
        time.sleep(0.01)
    before = tree(out)
    line = expect_refusal([c.bin, "profile", "-o", out, "--", c.prog("imbalanced_loop")], "a second run",
                          (str(first.pid),), env={"OMP_NUM_THREADS": "2"})
    if first.poll() is not None:
        fail("the first run had ended before the second was refused: the check proves nothing")
    if tree(out) != before:
        fail(f"the refused run touched the directory: {sorted(before)} -> {sorted(tree(out))}")
    stdout, stderr = first.communicate(timeout=60)
    if first.returncode != 0 or not os.path.isfile(os.path.join(out, "report.json")):
        fail(f"the first run: exit {first.returncode}\n{stderr}")
    # Once it ended, the directory is free again.
    p = run([c.bin, "profile", "-o", out, "--", c.prog("imbalanced_loop")], env={"OMP_NUM_THREADS": "2"})
    if p.returncode != 0:
        fail(f"the directory stays locked after the run: exit {p.returncode}\n{p.stderr}")

def scenario_safety_rank_claim(c):
    """The ranks of one job claim DIR together (`mpiexec -np 2 ompscope profile -o DIR`): a rank
    that found DIR without the marker, and then not empty, because another rank made it between
    the two checks, is not refused. A clean-clone CI's libomp 19 stage met it once (e2e_mpi_time:
    "is not empty and ompscope did not make it"). Rank 1 is held between its two checks (the
    hold_opendir shim, preloaded into it) until rank 0 has made the marker, so the interleaving
    happens every time."""
    out = c.path("job")
    os.makedirs(out)  # made by a rank, its marker not written yet: what rank 1 finds first
    marker = os.path.join(out, ".ompscope")
    waiting = c.path("rank-1-held")  # outside DIR, which must hold nothing of the test's
    shim = os.path.join(c.programs, "libhold_opendir.so")
    program = c.prog("many_regions")
    def rank_env(rank, **more):
        env = dict(os.environ, OMPI_COMM_WORLD_RANK=str(rank), OMPI_COMM_WORLD_SIZE="2",
                   OMPI_COMM_WORLD_LOCAL_RANK=str(rank), OMP_NUM_THREADS="1")
        env.update(more)
        return env
    held = subprocess.Popen([c.bin, "profile", "-o", out, "--", program], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            env=rank_env(1, LD_PRELOAD=shim, OMPSCOPE_TEST_HOLD_OPENDIR=out,
                                         OMPSCOPE_TEST_HOLD_UNTIL=marker, OMPSCOPE_TEST_HOLD_SIGNAL=waiting))
    deadline = time.time() + 60
    while not os.path.exists(waiting):
        if held.poll() is not None or time.time() > deadline:
            fail(f"rank 1 never looked into the directory: {held.communicate()}")
        time.sleep(0.01)
    if os.path.exists(marker):
        fail("the marker was there before rank 0 ran: the check proves nothing")
    first = subprocess.run([c.bin, "profile", "-o", out, "--", program], capture_output=True, text=True,
                           env=rank_env(0), timeout=120)
    stdout, stderr = held.communicate(timeout=120)
    for rank, rc, err in ((0, first.returncode, first.stderr), (1, held.returncode, stderr)):
        if rc != 0 or "did not make it" in err:
            fail(f"rank {rank}: exit {rc}\n{err}")
    for rank in (0, 1):
        if not os.path.isfile(os.path.join(out, f"rank-{rank}", "report.json")):
            fail(f"rank {rank} wrote no report: {sorted(tree(out))}")
    print("rank 1, held between its checks while rank 0 made the directory's marker: claimed it too")

def scenario_safety_symlinks(c):
    """Item 3: a planted symlink is never followed. Symlinks where ompscope wrote its
    temporaries (report.*.partial before) and its files point at a victim file, which must keep
    its content; doctor's directory is a new mkdtemp one, never a predictable name whose
    contents it removed (/tmp/ompscope-doctor-<pid> before)."""
    env = {"OMP_NUM_THREADS": "2"}
    out = c.path("out")
    p = run([c.bin, "profile", "-o", out, "--", c.prog("imbalanced_loop")], env=env)
    if p.returncode != 0:
        fail(f"profile: exit {p.returncode}\n{p.stderr}")
    victims = []
    for name in ["report.json", "report.txt", "report.csv", "report.html", "stacks.folded"]:
        victim = c.path(f"victim-{name}")
        open(victim, "w").write("precious\n")
        victims.append(victim)
        os.symlink(victim, os.path.join(out, name + ".partial"))
        victim2 = c.path(f"victim2-{name}")
        open(victim2, "w").write("precious\n")
        victims.append(victim2)
        os.remove(os.path.join(out, name))
        os.symlink(victim2, os.path.join(out, name))
    p = run([c.bin, "profile", "-o", out, "--", c.prog("imbalanced_loop")], env=env)
    for v in victims:
        if open(v).read() != "precious\n":
            fail(f"ompscope wrote through a planted symlink into {v}")
    if p.returncode != 0:
        fail(f"profile over planted symlinks: exit {p.returncode}\n{p.stderr}")
    for name in ["report.json", "report.html"]:
        if os.path.islink(os.path.join(out, name)) or not os.path.isfile(os.path.join(out, name)):
            fail(f"{name} is not a new regular file")

    # trace's files too.
    tout = c.path("trace")
    run([c.bin, "trace", "-o", tout, "--", c.prog("imbalanced_loop")], env=env)
    victim = c.path("victim-trace")
    open(victim, "w").write("precious\n")
    os.remove(os.path.join(tout, "trace.json"))
    os.symlink(victim, os.path.join(tout, "trace.json"))
    p = run([c.bin, "trace", "-o", tout, "--", c.prog("imbalanced_loop")], env=env)
    if open(victim).read() != "precious\n":
        fail("trace wrote through a planted trace.json symlink")
    if p.returncode != 0 or os.path.islink(os.path.join(tout, "trace.json")):
        fail(f"trace over a planted symlink: exit {p.returncode}\n{p.stderr}")

    # doctor: a directory planted at the name it would have used for this pid is left alone.
    tmp = c.path("tmp")
    os.makedirs(tmp)
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(w)
        os.read(r, 1)
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
        os.execve(c.bin, [c.bin, "doctor"], dict(os.environ, TMPDIR=tmp))
    os.close(r)
    planted = os.path.join(tmp, f"ompscope-doctor-{pid}")
    os.makedirs(planted)
    open(os.path.join(planted, "precious.txt"), "w").write("precious\n")
    os.write(w, b"x")
    os.close(w)
    _, status = os.waitpid(pid, 0)
    if not os.path.isfile(os.path.join(planted, "precious.txt")):
        fail("doctor removed a directory planted at its predictable temporary name")
    left = [n for n in os.listdir(tmp) if n != os.path.basename(planted)]
    if left:
        fail(f"doctor left its temporary directory behind: {left}")

def scenario_safety_own_output(c):
    """Item 6: ompscope's own output errors never end it or change the exit status: with stderr
    full (/dev/full) or closed, profile exits with the program's status (abort, 134, before),
    and the program's stdout is unchanged; `report` with stdout full says so in one line, exit 2."""
    program = c.prog("dies_midway")
    env = dict(os.environ, OMP_NUM_THREADS="2", NO_COLOR="1")
    direct = subprocess.run([program, "exit3"], env=env, capture_output=True, text=True)
    if direct.returncode != 3:
        fail(f"dies_midway exit3 exited {direct.returncode}")
    for how in ["full", "closed"]:
        for args, rc in [([program, "exit3"], 3), ([c.prog("imbalanced_loop")], 0)]:
            out = c.path(f"{how}-{rc}")
            kw = {"stderr": open("/dev/full", "w")} if how == "full" else \
                 {"stderr": subprocess.DEVNULL, "preexec_fn": lambda: os.close(2)}
            p = subprocess.run([c.bin, "profile", "-o", out, "--"] + args, env=env, stdout=subprocess.PIPE,
                               text=True, timeout=120, **kw)
            if p.returncode != rc:
                fail(f"stderr {how}, {' '.join(args)}: ompscope exited {p.returncode}, expected the "
                     f"program's {rc}")
            if rc == 3 and p.stdout != direct.stdout:
                fail(f"stderr {how}: the program's stdout changed:\n{direct.stdout!r}\nvs\n{p.stdout!r}")
            if not os.path.isfile(os.path.join(out, "report.json")):
                fail(f"stderr {how}: no report written")
            # Nothing ompscope meant for stderr landed in its files (a closed fd 2 is reused by open()).
            if how == "closed" and "report written" in open(os.path.join(out, "report.json"), errors="replace").read():
                fail("a message meant for stderr went into report.json")
    # scale too (its progress lines are written between runs).
    p = subprocess.run([c.bin, "scale", "-t", "1,2", "-r", "1", "-o", c.path("scale-full"), "--", program, "exit3"],
                       env=env, stdout=subprocess.DEVNULL, stderr=open("/dev/full", "w"), timeout=300)
    if p.returncode != 3:
        fail(f"scale with stderr full exited {p.returncode}, expected the program's 3")
    p = subprocess.run([c.bin, "report", c.path("full-0")], env=env, stdout=open("/dev/full", "w"),
                       stderr=subprocess.PIPE, text=True, timeout=60)
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    if p.returncode != 2 or len(lines) != 1 or "stdout" not in lines[0] or "internal error" in lines[0]:
        fail(f"report with stdout full: exit {p.returncode}, expected 2 with one line naming stdout:\n{p.stderr}")
    p = subprocess.run([c.bin, "report", c.path("full-0")], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True, timeout=60, preexec_fn=lambda: os.close(1))
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    if p.returncode != 2 or len(lines) != 1 or "stdout" not in lines[0]:
        fail(f"report with stdout closed: exit {p.returncode}, expected 2 with one line naming stdout:\n{p.stderr}")

def scenario_safety_readers(c):
    """Item 7: readers refuse anything but a regular file (a FIFO hung `report` before) and JSON
    nested deeper than a fixed limit (100 000 nested arrays in a valid report.json crashed
    `report` and `model`, SIGSEGV), in one line with exit 2; so are the command line's own errors
    (CLI11's were two lines without the tool's name)."""
    env = {"OMP_NUM_THREADS": "2"}
    expect_refusal([c.bin], "no command", ("subcommand", "ompscope --help"))
    expect_refusal([c.bin, "scale", "-t", "x", "--", c.prog("imbalanced_loop")], "a thread count that is no number",
                   ("--threads", "ompscope scale --help"))
    expect_refusal([c.bin, "profile", "--no-such-option", "--", c.prog("imbalanced_loop")], "an unknown option",
                   ("--no-such-option", "ompscope profile --help"))
    expect_refusal([c.bin, "report"], "report without its directory", ("required", "ompscope report --help"))
    out = c.path("out")
    p = run([c.bin, "scale", "-t", "1,2", "-r", "1", "-o", out, "--", c.prog("imbalanced_loop")], env=env)
    if p.returncode != 0:
        fail(f"scale: exit {p.returncode}\n{p.stderr}")
    text = open(os.path.join(out, "report.json")).read()
    if '"details": {' not in text:
        fail("the report has no details to nest into")
    depth = 100000
    deep_dir = c.path("deep")
    os.makedirs(deep_dir)
    open(os.path.join(deep_dir, "report.json"), "w").write(
        text.replace('"details": {', '"details": {"deep": ' + "[" * depth + "]" * depth + ", ", 1))
    expect_refusal([c.bin, "report", deep_dir], "report of deeply nested JSON", ("nested",))
    expect_refusal([c.bin, "report", deep_dir, "--format", "json"], "report --format json of it", ("nested",))
    expect_refusal([c.bin, "model", deep_dir], "model of deeply nested JSON", ("nested",))
    expect_refusal([c.bin, "model", os.path.join(deep_dir, "report.json")], "model of the file", ("nested",))

    fifo_dir = c.path("fifo")
    os.makedirs(fifo_dir)
    os.mkfifo(os.path.join(fifo_dir, "report.json"))
    for cmd, what in [([c.bin, "report", fifo_dir], "report of a FIFO report.json"),
                      ([c.bin, "report", os.path.join(fifo_dir, "report.json")], "report of a FIFO"),
                      ([c.bin, "model", fifo_dir], "model of a FIFO report.json"),
                      ([c.bin, "model", os.path.join(fifo_dir, "report.json")], "model of a FIFO")]:
        expect_refusal(cmd, what, ("not a regular file",), timeout=20)
    # A raw log whose meta.txt is a FIFO.
    log = c.path("log")
    run_dir = os.path.join(out, "runs", "t2-r0")  # one pid-PID log per process (docs/safety.md)
    shutil.copytree(os.path.join(run_dir, next(d for d in os.listdir(run_dir) if d.startswith("pid-"))), log)
    os.remove(os.path.join(log, "meta.txt"))
    os.mkfifo(os.path.join(log, "meta.txt"))
    expect_refusal([c.bin, "report", log], "report of a log with a FIFO meta.txt", ("not a regular file",), timeout=20)
    # The bench cache: a FIFO there is ignored with a note, never waited on.
    cache = c.path("cache")
    os.makedirs(os.path.join(cache, "ompscope"))
    os.mkfifo(os.path.join(cache, "ompscope", "bench.json"))
    p = run([c.bin, "profile", "-o", c.path("with-fifo-cache"), "--", c.prog("imbalanced_loop")],
            env=dict(env, XDG_CACHE_HOME=cache), timeout=60)
    if p.returncode != 0 or "not a regular file" not in p.stderr:
        fail(f"a FIFO bench cache: exit {p.returncode}, expected 0 with a note\n{p.stderr}")

if __name__ == "__main__":
    e2e_common.main(globals(), context=Ctx)
