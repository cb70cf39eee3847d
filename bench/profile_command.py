#!/usr/bin/env python3
"""What the whole `ompscope profile` command costs beside the bare program (issue 31: at most
1.05x for a 0.5 s program): interleaved pairs, the bare program bound as profile binds it, then
`ompscope profile -o DIR -- PROGRAM` (capture, analysis, report files), each pair's ratio and
difference; median and min over the pairs.

usage: bench/profile_command.py BUILD_DIR PAIRS PROGRAM [ARGS...]
  e.g. bench/profile_command.py build 9 build/tests/programs/wavefront_loop  (0.4 s at 2 threads)"""
import os, shutil, statistics, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from overhead import core_places  # noqa: E402  (one place per core, as scale and profile bind)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    build, pairs, program = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    ompscope = os.path.join(build, "bin", "ompscope")
    env = dict(os.environ, OMP_NUM_THREADS="2", OMP_PROC_BIND="close", OMP_PLACES=core_places(), NO_COLOR="1")
    out = tempfile.mkdtemp(prefix="ompscope-profile-command-")

    def timed(cmd):
        t = time.perf_counter()
        subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return time.perf_counter() - t

    bare, whole = [], []
    for i in range(pairs):
        d = os.path.join(out, f"p{i}")
        if i % 2:  # alternating which goes first
            w = timed([ompscope, "profile", "-o", d, "--"] + program)
            b = timed(program)
        else:
            b = timed(program)
            w = timed([ompscope, "profile", "-o", d, "--"] + program)
        bare.append(b)
        whole.append(w)
        shutil.rmtree(d, ignore_errors=True)
    ratios = [w / b for w, b in zip(whole, bare)]
    added = [w - b for w, b in zip(whole, bare)]
    print(f"{os.path.basename(program[0])}: bare median {statistics.median(bare)*1e3:.0f} ms (min {min(bare)*1e3:.0f}), "
          f"profile median {statistics.median(whole)*1e3:.0f} ms (min {min(whole)*1e3:.0f}); the command adds "
          f"median {statistics.median(added)*1e3:+.1f} ms (min {min(added)*1e3:+.1f}); ratio median "
          f"{statistics.median(ratios):.3f}x, min {min(ratios):.3f}x over {pairs} interleaved pairs")
    shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
