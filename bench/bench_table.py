#!/usr/bin/env python3
"""Repeatability of `ompscope bench`: several runs' JSON files in, one Markdown table out. Each
cell is the median of the runs' medians / the smallest of them / the coefficient of variation
of the medians, in µs. This is the table of BENCHMARKS.md ("Construct micro-benchmarks").

usage: for n in 1 2 3 4 5; do build/bin/ompscope bench -o run-$n.json; done
       bench/bench_table.py run-*.json
"""
import argparse, collections, json, statistics

COLUMNS = [(runtime, method, metric) for runtime in ("llvm", "gnu")
           for method, metric in (("epcc", "overhead"), ("direct", "min_cost"), ("direct", "avg_cost"))]
HEADERS = {"epcc": "epcc", "min_cost": "dir.min", "avg_cost": "dir.avg"}


def cell(medians):
    if not medians:
        return "—"
    mid = statistics.median(medians)
    cv = statistics.stdev(medians) / abs(statistics.mean(medians)) if len(medians) > 1 and statistics.mean(medians) else 0
    return f"{mid * 1e6:.3f} / {min(medians) * 1e6:.3f} / {cv * 100:.0f}%"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", help="JSON files written by `ompscope bench -o`")
    args = parser.parse_args()
    medians = collections.defaultdict(list)
    order = []
    for path in args.runs:
        with open(path) as f:
            for r in json.load(f)["results"]:
                row = (r["construct"], r["threads"])
                if row not in order:
                    order.append(row)
                medians[row + (r["runtime"], r["method"], r["metric"])].append(r["statistics"]["median"])
    print("| construct | t | " + " | ".join(f"{rt.upper() if rt == 'gnu' else 'LLVM'} {HEADERS[m if m == 'epcc' else k]}"
                                        for rt, m, k in COLUMNS) + " |")
    print("|---|--:|" + "--:|" * len(COLUMNS))
    constructs = list(dict.fromkeys(c for c, _ in order))
    previous = None
    for construct, threads in sorted(order, key=lambda row: (constructs.index(row[0]), row[1])):
        name = construct if construct != previous else ""
        previous = construct
        print(f"| {name} | {threads} | " + " | ".join(cell(medians[(construct, threads) + c]) for c in COLUMNS) + " |")
    print(f"\n{len(args.runs)} runs.")


if __name__ == "__main__":
    main()
