#!/usr/bin/env python3
"""A packager's build and install, then a profile with the installed ompscope.

Configures the source tree as an HPC site or a distribution would: the system's default
compilers (GCC here; CC and CXX unset), CMAKE_INSTALL_LIBDIR=lib64 (the RHEL-family layout)
and no tests. Builds only what the `ompscope` install component needs (the CLI, the tool
libraries, the doctor's probe), installs it to a fresh prefix, and profiles a GCC-built OpenMP
program (on GNU libgomp, through the installed interposer) with the installed CLI: the loop's
region must be observed, 10 instances of it.
`ompscope --version` must carry the project's version and `doctor` must find the tool library
in lib64 and say where it looked.

Then the same build is configured again as Debian packages it (prefix /usr,
CMAKE_INSTALL_LIBDIR=lib/x86_64-linux-gnu), rebuilt (the CLI's path to its libraries changes)
and installed under a staging root (DESTDIR), as a package build does: the installed CLI must
find its libraries in usr/lib/x86_64-linux-gnu beside it and profile the same program.

install_check.py SOURCE_DIR WORK_DIR VERSION
"""
import json, os, re, shutil, subprocess, sys, time

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def run(cmd, env, **kw):
    print("+", " ".join(cmd), flush=True)
    start = time.monotonic()
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, **kw)
    print(f"  ({time.monotonic() - start:.0f} s)", flush=True)
    if p.returncode != 0:
        fail(f"{' '.join(cmd)} exited {p.returncode}\nstdout:\n{p.stdout[-4000:]}\nstderr:\n{p.stderr[-4000:]}")
    return p

def main():
    source, work, version = sys.argv[1:4]
    shutil.rmtree(work, ignore_errors=True)
    build, prefix = os.path.join(work, "build"), os.path.join(work, "prefix")
    env = {k: v for k, v in os.environ.items() if k not in ("CC", "CXX", "CFLAGS", "CXXFLAGS", "LDFLAGS")}
    env.pop("LD_LIBRARY_PATH", None)
    env["NO_COLOR"] = "1"

    gen = ["-G", "Ninja"] if shutil.which("ninja") else []
    p = run(["cmake", "-S", source, "-B", build, *gen, "-DCMAKE_BUILD_TYPE=Release",
             f"-DCMAKE_INSTALL_PREFIX={prefix}", "-DCMAKE_INSTALL_LIBDIR=lib64", "-DBUILD_TESTING=OFF"], env)
    if "The CXX compiler identification is GNU" not in p.stdout:
        fail("the default C++ compiler is not GCC here; this test is about building with it:\n" + p.stdout)
    jobs = str(os.cpu_count() or 1)
    run(["cmake", "--build", build, "--target", "ompscope", "-j", jobs], env)
    run(["cmake", "--install", build, "--component", "ompscope"], env)

    check_installed(source, work, prefix, "lib64", version, env)
    check_bench_calibrate(work, build, prefix, env, jobs)

    # Debian's layout, from the same build: prefix /usr, a multiarch libdir, staged in DESTDIR.
    destdir = os.path.join(work, "destdir")
    run(["cmake", "-S", source, "-B", build, "-DCMAKE_INSTALL_PREFIX=/usr",
         "-DCMAKE_INSTALL_LIBDIR=lib/x86_64-linux-gnu"], env)
    run(["cmake", "--build", build, "--target", "ompscope", "-j", jobs], env)
    run(["cmake", "--install", build, "--component", "ompscope"], dict(env, DESTDIR=destdir))
    check_installed(source, work, os.path.join(destdir, "usr"), os.path.join("lib", "x86_64-linux-gnu"), version, env)

    # The plain lib layout, from the same build.
    lib_prefix = os.path.join(work, "prefix-lib")
    run(["cmake", "-S", source, "-B", build, f"-DCMAKE_INSTALL_PREFIX={lib_prefix}", "-DCMAKE_INSTALL_LIBDIR=lib"], env)
    run(["cmake", "--build", build, "--target", "ompscope", "-j", jobs], env)
    run(["cmake", "--install", build, "--component", "ompscope"], env)
    check_installed(source, work, lib_prefix, "lib", version, env)

def check_consumer(source, work, prefix, libdir, version, env):
    """find_package(ompscope) in a small project with CMAKE_PREFIX_PATH=<prefix> alone: the
    package is found, its version, ompscope::tool and the tool library in PREFIX/LIBDIR."""
    consumer = os.path.join(work, "consumer-" + libdir.replace(os.sep, "-"))
    shutil.rmtree(consumer, ignore_errors=True)
    clean = {k: v for k, v in env.items() if k not in ("CMAKE_PREFIX_PATH", "ompscope_DIR")}
    run(["cmake", "-S", os.path.join(source, "tests", "install", "consumer"), "-B", consumer,
         f"-DCMAKE_PREFIX_PATH={prefix}"], clean)
    run(["cmake", "--build", consumer], clean)
    found_version, tool, package = open(os.path.join(consumer, "found.txt")).read().split("\n")[:3]
    expected_tool = os.path.realpath(os.path.join(prefix, libdir, "libompscope.so"))
    if found_version != version or os.path.realpath(tool) != expected_tool:
        fail(f"find_package(ompscope) with CMAKE_PREFIX_PATH={prefix} found version {found_version!r}, tool "
             f"{tool!r} (in {package}); expected {version} and {expected_tool}")
    print(f"ok: find_package(ompscope) {found_version} through CMAKE_PREFIX_PATH ({libdir}): {package}")

def check_bench_calibrate(work, build, prefix, env, jobs):
    """`bench --calibrate` on the GCC install: without the bench component, one line naming it
    (exit 2); with it (ompscope-bench-gnu only: GCC builds no LLVM bench), it caches libgomp's
    costs."""
    ompscope = os.path.join(prefix, "bin", "ompscope")
    cache = os.path.join(work, "cache")
    shutil.rmtree(cache, ignore_errors=True)
    bench_env = dict(env, XDG_CACHE_HOME=cache)
    p = subprocess.run([ompscope, "bench", "--calibrate"], env=bench_env, capture_output=True, text=True)
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    if p.returncode != 2 or len(lines) != 1 or "--component bench" not in lines[0]:
        fail(f"bench --calibrate without the bench programs: exit {p.returncode}, expected 2 and one line naming "
             f"the bench component:\n{p.stderr}")
    run(["cmake", "--build", build, "--target", "ompscope_bench_gnu", "-j", jobs], env)
    run(["cmake", "--install", build, "--component", "bench"], env)
    # A calibration measured while other processes used the CPUs is refused, not cached (exit 2,
    # "the machine was busy"): that is the command's design, and the CI's own builds beside this
    # test made it so once (11% of the CPUs). Tried again, as the e2e tests retry on a shared
    # machine; refused every time, the caching is not judged.
    for attempt in range(1, 4):
        p = subprocess.run([ompscope, "bench", "--calibrate"], env=bench_env, capture_output=True, text=True)
        if p.returncode != 2 or "the machine was busy" not in p.stderr:
            break
        print(f"bench --calibrate, attempt {attempt} of 3: refused on a busy machine:\n{p.stderr.strip()}", flush=True)
    else:
        print("ok (not judged): bench --calibrate refused every calibration on this busy machine")
        return
    if p.returncode != 0:
        fail(f"bench --calibrate exited {p.returncode}\nstdout:\n{p.stdout[-4000:]}\nstderr:\n{p.stderr[-4000:]}")
    cached = json.load(open(os.path.join(cache, "ompscope", "bench.json")))
    libraries = [e.get("library", "") for e in cached.get("entries", [])]
    if not any("libgomp" in l for l in libraries):
        fail(f"bench --calibrate cached no libgomp figure: {cached}")
    print("ok: bench --calibrate on the GCC install cached", libraries)

def check_installed(source, work, prefix, libdir, version, env):
    """The tool libraries in PREFIX/LIBDIR only, --version, doctor, and a profile of a GCC-built loop."""
    tool = os.path.join(prefix, libdir, "libompscope.so")
    for lib in (tool, os.path.join(prefix, libdir, "libompscope_gomp.so")):
        if not os.path.exists(lib):
            fail(f"{lib} was not installed; the prefix holds: {sorted(os.listdir(prefix))}")
    if libdir != "lib" and os.path.exists(os.path.join(prefix, "lib", "libompscope.so")):
        fail(f"libompscope.so was installed to lib/ as well as {libdir}/")
    ompscope = os.path.join(prefix, "bin", "ompscope")

    v = run([ompscope, "--version"], env).stdout
    if version not in v:
        fail(f"ompscope --version prints {v!r}, without the version {version}")

    d = run([ompscope, "doctor"], env).stdout
    if f"ok    {tool}" not in d or os.path.join(prefix, libdir) not in d:
        fail(f"doctor does not find the tool library in {libdir}, or does not say where it looked:\n" + d)
    # The probe's own output is not doctor's; OMPT is tried for real (on libomp's GOMP layer: the
    # GCC-built probe runs on libgomp, which has none), and the interposer on libgomp.
    if re.search(r"^probe \d+", d, re.M) or "OMPT active" not in d or "observed through the interposer" not in d:
        fail("doctor prints the probe's output, or does not observe the probe on both runtimes:\n" + d)

    check_consumer(source, work, prefix, libdir, version, env)

    program = os.path.join(work, "imbalanced_loop")
    if not os.path.exists(program):
        run(["cc", "-fopenmp", "-O2", "-g", os.path.join(source, "tests", "programs", "imbalanced_loop.c"),
             "-o", program], env)
    out = os.path.join(work, "profile-" + libdir.replace(os.sep, "-"))
    run([ompscope, "profile", "-o", out, "--", program], dict(env, OMP_NUM_THREADS="2"))
    report = json.load(open(os.path.join(out, "report.json")))
    regions = [r for r in report["regions"] if r.get("kind") == "parallel" and r.get("file", "").endswith("imbalanced_loop.c")]
    if len(regions) != 1 or regions[0]["instances"] != 10:
        fail(f"the ompscope installed with {libdir} did not observe imbalanced_loop.c's region 10 times: " +
             json.dumps(report.get("regions"))[:2000])
    print(f"ok: built with GCC, installed to {prefix} ({libdir}), region observed", regions[0]["instances"], "times")

if __name__ == "__main__":
    main()
