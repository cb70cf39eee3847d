#!/usr/bin/env python3
"""How long `ompscope scale` takes beyond its runs: the command's wall time less the runs' own
(report.json's runs[].wall_s), repeated. The analysis of the runs, their reports and the models
are what is left (issue 31: at most 0.1 s).

usage: scale_beyond_runs.py OMPSCOPE OUT_DIR ROUNDS PROGRAM [ARGS...]
  e.g. bench/scale_beyond_runs.py build/bin/ompscope /tmp/beyond 3 build/tests/programs/fib_tasks 25
The runs are those of `scale -t 1,2 -r 3`, recording every task (OMPSCOPE_SAMPLING=off: the
worst case, every task graph replayed whole); SAMPLING=default in the environment keeps the
adaptive sampling a user gets."""
import json, os, subprocess, sys, time

def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    ompscope, out, rounds, program = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    env = dict(os.environ)
    if os.environ.get("SAMPLING", "off") == "off":
        env["OMPSCOPE_SAMPLING"] = "off"
    beyond = []
    for _ in range(rounds):
        start = time.monotonic()
        subprocess.run([ompscope, "scale", "-t", "1,2", "-r", "3", "-o", out, "--"] + program, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        total = time.monotonic() - start
        runs = sum(r["wall_s"] for r in json.load(open(os.path.join(out, "report.json")))["runs"])
        beyond.append(total - runs)
        print(f"scale {total:.2f} s, its runs {runs:.2f} s, beyond them {total - runs:.2f} s")
    print(f"beyond the runs: min {min(beyond):.2f} s, median {sorted(beyond)[len(beyond) // 2]:.2f} s")

if __name__ == "__main__":
    main()
