#!/usr/bin/env python3
"""Prints an ompscope event log as text, one record per line (a debugging aid)."""
import struct, sys, os, glob
KINDS = ["None","ThreadBegin","ThreadEnd","ParallelBegin","ParallelEnd","ImplicitTaskBegin","ImplicitTaskEnd",
 "WorkBegin","WorkEnd","Dispatch","SyncBegin","SyncEnd","SyncWaitBegin","SyncWaitEnd","MutexAcquire",
 "MutexAcquired","MutexReleased","NestLockNext","LockInit","LockDestroy","TaskCreate","TaskSchedule",
 "MaskedBegin","MaskedEnd"]
def dump(path, t0):
    data = open(path, "rb").read()
    print(f"== {os.path.basename(path)}")
    for off in range(64, len(data) - 31, 32):
        t, cp, i1, i2, arg, arg2, kind, detail = struct.unpack_from("<QQIIIHBB", data, off)
        if kind == 0: break
        print(f"{(t - t0)/2.596e3:12.3f}us {KINDS[kind]:18} id={i1} id2={i2} arg={arg} arg2={arg2} d={detail} cp={cp:#x}")
d = sys.argv[1]
t0 = int([l for l in open(os.path.join(d, "meta.txt")) if l.startswith("clock_start")][0].split()[1])
for p in sorted(glob.glob(os.path.join(d, "thread-*.evt"))):
    dump(p, t0)
