#!/usr/bin/env python3
"""Prints an ompscope event log as text, one record per line (a debugging aid).

usage: scripts/dump_log.py LOG_DIR   (a run's log directory: meta.txt and thread-NNNN.evt)

The record kinds are read from the project's own definition, src/common/event_record.h, so a
kind added there is named here without editing this script."""
import glob, os, re, struct, sys

HEADER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "common", "event_record.h")
RECORD = struct.Struct("<QQIIIHBB")  # struct Event: 32 bytes
FILE_HEADER_BYTES = 64               # struct LogFileHeader


def event_kinds(header_path):
    """The names of enum class EventKind, by value."""
    text = open(header_path).read()
    body = re.search(r"enum class EventKind\s*:\s*\w+\s*\{(.*?)\};", text, re.S).group(1)
    kinds, value = {}, -1
    for line in body.splitlines():
        m = re.match(r"\s*([A-Za-z_]\w*)\s*(?:=\s*(\d+))?\s*,?", line.split("//")[0])
        if not m:
            continue
        value = int(m.group(2)) if m.group(2) else value + 1
        kinds[value] = m.group(1)
    return kinds


def clock(meta_path):
    """Ticks at the run's start and ticks per microsecond, from meta.txt's clock points."""
    points = {}
    for line in open(meta_path):
        key, *rest = line.split()
        if key in ("clock_start", "clock_end") and len(rest) >= 2:
            points[key] = (int(rest[0]), int(rest[1]))
    t0, ns0 = points["clock_start"]
    if "clock_end" in points and points["clock_end"][1] > ns0:
        t1, ns1 = points["clock_end"]
        return t0, (t1 - t0) / (ns1 - ns0) * 1e3
    return t0, 1e3  # died before finalize: print ticks as if they were ns


def dump(path, kinds, t0, ticks_per_us):
    data = open(path, "rb").read()
    print(f"== {os.path.basename(path)}")
    for off in range(FILE_HEADER_BYTES, len(data) - RECORD.size + 1, RECORD.size):
        t, cp, i1, i2, arg, arg2, kind, detail = RECORD.unpack_from(data, off)
        if kind == 0:
            break
        name = kinds.get(kind, f"kind{kind}")
        print(f"{(t - t0) / ticks_per_us:12.3f}us {name:18} id={i1} id2={i2} arg={arg} arg2={arg2} d={detail} cp={cp:#x}")


def main():
    if len(sys.argv) != 2 or not os.path.isfile(os.path.join(sys.argv[1], "meta.txt")):
        sys.exit("usage: dump_log.py LOG_DIR (a directory holding meta.txt and thread-*.evt)")
    kinds = event_kinds(HEADER)
    t0, ticks_per_us = clock(os.path.join(sys.argv[1], "meta.txt"))
    for p in sorted(glob.glob(os.path.join(sys.argv[1], "thread-*.evt"))):
        dump(p, kinds, t0, ticks_per_us)


if __name__ == "__main__":
    main()
