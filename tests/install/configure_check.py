#!/usr/bin/env python3
"""A wrong path given to the configuration stops it with one sentence naming the option.

Configures the source tree (the system's default compilers, as a packager would) once per
wrong option: OMPSCOPE_OMPT_HEADER_DIR at a directory without omp-tools.h, OMPSCOPE_LLVM_ROOT at
a path that does not exist. Each configuration must fail, with one CMake error whose text is
the expected sentence (not another LLVM's header found instead, nor a failure on a missing file
later in the configuration).

configure_check.py SOURCE_DIR WORK_DIR
"""
import os, re, shutil, subprocess, sys

CASES = [
    ("OMPSCOPE_OMPT_HEADER_DIR", "{work}/no-header-here",
     "OMPSCOPE_OMPT_HEADER_DIR is {value}, which holds no omp-tools.h: give the directory of LLVM's "
     "omp-tools.h, or leave it unset to search for it."),
    ("OMPSCOPE_LLVM_ROOT", "{work}/no-such-llvm",
     "OMPSCOPE_LLVM_ROOT is {value}, which is not a directory: give the prefix of an LLVM installation "
     "(e.g. /usr/lib/llvm-19)."),
]

def main():
    source, work = sys.argv[1:3]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "no-header-here"))  # exists, but holds no omp-tools.h
    env = {k: v for k, v in os.environ.items() if k not in ("CC", "CXX", "OMPSCOPE_LLVM_ROOT", "OpenMP_ROOT")}
    failures = []
    for option, value, sentence in CASES:
        value = value.format(work=work)
        expected = sentence.format(value=value)
        build = os.path.join(work, "build-" + option)
        p = subprocess.run(["cmake", "-S", source, "-B", build, f"-D{option}={value}", "-DBUILD_TESTING=OFF"],
                           env=env, capture_output=True, text=True)
        # CMake wraps a message's lines; compare the words.
        words = " ".join(p.stderr.split())
        errors = p.stderr.count("CMake Error")
        if p.returncode == 0:
            failures.append(f"-D{option}={value}: the configuration succeeded")
        elif errors != 1 or " ".join(expected.split()) not in words:
            failures.append(f"-D{option}={value}: expected one error saying {expected!r}; "
                            f"{errors} CMake errors:\n{p.stderr[-3000:]}")
        else:
            print(f"ok: -D{option}={value}: {expected}")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0

if __name__ == "__main__":
    sys.exit(main())
