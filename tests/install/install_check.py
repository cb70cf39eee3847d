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

    # Debian's layout, from the same build: prefix /usr, a multiarch libdir, staged in DESTDIR.
    destdir = os.path.join(work, "destdir")
    run(["cmake", "-S", source, "-B", build, "-DCMAKE_INSTALL_PREFIX=/usr",
         "-DCMAKE_INSTALL_LIBDIR=lib/x86_64-linux-gnu"], env)
    run(["cmake", "--build", build, "--target", "ompscope", "-j", jobs], env)
    run(["cmake", "--install", build, "--component", "ompscope"], dict(env, DESTDIR=destdir))
    check_installed(source, work, os.path.join(destdir, "usr"), os.path.join("lib", "x86_64-linux-gnu"), version, env)

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
