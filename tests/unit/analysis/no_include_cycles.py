#!/usr/bin/env python3
"""No include cycle between the files of one folder of src/ (issue 29): a file's module is its
name without extension (x.h and x.cpp are one), and module A depends on B where either of A's
files includes "folder/B.h". A cycle (scalability.cpp including task_diagnoses.h, whose .cpp
included scalability.h) means no part of it can be read, tested or moved without the others.

usage: no_include_cycles.py SRC_DIR FOLDER...   (exit 1 and each cycle named where there is one)"""
import os, re, sys

INCLUDE = re.compile(r'^#include "([a-z_]+)/([A-Za-z0-9_]+)\.h"', re.M)

def module_graph(src, folder):
    graph = {}
    for name in os.listdir(os.path.join(src, folder)):
        stem, ext = os.path.splitext(name)
        if ext not in (".h", ".cpp", ".c"):
            continue
        text = open(os.path.join(src, folder, name), encoding="utf-8", errors="replace").read()
        deps = graph.setdefault(stem, set())
        for inc_folder, inc_stem in INCLUDE.findall(text):
            if inc_folder == folder and inc_stem != stem:
                deps.add(inc_stem)
    return graph

def cycles(graph):
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]
    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found

def main():
    if len(sys.argv) < 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    # The finder itself must find the cycle this test was written for, else passing means nothing.
    known = {"scalability": {"task_diagnoses", "construct_report"}, "task_diagnoses": {"scalability"},
             "construct_report": {"scalability"}, "timeline": set()}
    if cycles(known) != [["construct_report", "scalability", "task_diagnoses"]]:
        print("self-check failed: the cycle finder missed a known cycle", file=sys.stderr)
        return 1
    src, failed = sys.argv[1], False
    for folder in sys.argv[2:]:
        graph = module_graph(src, folder)
        if len(graph) < 3:
            print(f"{folder}: only {len(graph)} modules under {src}/{folder}: wrong directory?", file=sys.stderr)
            return 1
        for c in cycles(graph):
            failed = True
            edges = [f"{a} -> {b}" for a in c for b in sorted(graph[a]) if b in c]
            print(f"{folder}/: include cycle between {', '.join(c)} ({'; '.join(edges)})")
        print(f"{folder}/: {len(graph)} modules, {sum(len(d) for d in graph.values())} includes between them")
    return 1 if failed else 0

if __name__ == "__main__":
    sys.exit(main())
