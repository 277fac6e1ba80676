#!/usr/bin/env python3
"""Per-function shares of a pvprf dump file, for tests/prfd/truth.sh.

    prfdfn.py DUMP PROG [PERF-SCRIPT]

Reads the dump file on its own (a second reader of the format), takes
PROG's function symbols from nm, and prints one line per figure:

    detail FUNC SHARE   from the detail counters (a counter belongs to the
                        function its segment starts in)
    hit FUNC SHARE      from the hit table
    slot FUNC SHARE     from the slots, where a slot is one function
    perf FUNC SHARE     from `perf script -F pid,ip` output, the dump's pid
    global NAME SHARE   idle, kernel, shrmem, unknown, slots of all samples

SHARE is in percent of the samples in the functions f5, f3 and f2 (or of
all samples, for global).
"""
import struct
import subprocess
import sys

FUNCS = ("f5", "f3", "f2")


def ulongs(b, off, n, w):
    return [int.from_bytes(b[off + i * w:off + (i + 1) * w], "little")
            for i in range(n)]


def read_dump(path):
    b = open(path, "rb").read()
    assert b[:4] == b"PRFD", "magic"
    ver, w = struct.unpack_from("<HB", b, 4)
    assert ver in (1, 2) and w in (4, 8), "version/width"
    pid, = struct.unpack_from("<I", b, 8)
    off = 14
    recs = []
    while off < len(b):
        cmd, thr = struct.unpack_from("<BH", b, off)
        va, sz = ulongs(b, off + 3, 2, w)
        off += 3 + 2 * w
        assert off + sz <= len(b), "us_bufsz"
        recs.append((cmd, thr, va, b[off:off + sz]))
        off += sz
    return w, pid, recs


def symbols(prog):
    out = subprocess.run(["nm", "-S", "--defined-only", prog],
                         capture_output=True, text=True, check=True).stdout
    syms = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[3] in FUNCS:
            syms[f[3]] = (int(f[0], 16), int(f[1], 16))
    return syms


def which(syms, a):
    for name, (lo, size) in syms.items():
        if lo <= a < lo + size:
            return name
    return None


def shares(counts):
    tot = sum(counts.get(f, 0) for f in FUNCS)
    return {f: (100.0 * counts.get(f, 0) / tot if tot else 0) for f in FUNCS}


def main():
    w, pid, recs = read_dump(sys.argv[1])
    syms = symbols(sys.argv[2])
    g = None
    det, hit, slot = {}, {}, {}
    shift = 0
    insl = 0
    for cmd, thr, va, buf in recs:
        if cmd == 0 and thr == 0:
            flags, shift = struct.unpack_from("<HH", buf, 0)
            g = ulongs(buf, 4, 9, w)
        elif cmd == 1:
            for i in range(buf[0]):
                v = ulongs(buf, 1 + i * 5 * w, 5, w)
                insl += v[4]
                name = which(syms, v[0])
                if name is not None and v[1] == syms[name][1]:
                    slot[name] = slot.get(name, 0) + v[4]
        elif cmd == 2:
            n = ulongs(buf, 0, 1, w)[0]
            for a in ulongs(buf, w, n, w):
                name = which(syms, a)
                if name:
                    hit[name] = hit.get(name, 0) + 1
        elif cmd == 3:
            size, n = ulongs(buf, 0, 2, w)
            for i, c in enumerate(ulongs(buf, 2 * w, n, w)):
                name = which(syms, va + (i << shift))
                if name and c:
                    det[name] = det.get(name, 0) + c
    for kind, counts in (("detail", det), ("hit", hit), ("slot", slot)):
        if counts:
            for f, s in shares(counts).items():
                print("%s %s %.2f" % (kind, f, s))
    if len(sys.argv) > 3:
        perf = {}
        for line in open(sys.argv[3]):
            f = line.split()
            if len(f) >= 2 and f[0] == str(pid):
                name = which(syms, int(f[1], 16))
                if name:
                    perf[name] = perf.get(name, 0) + 1
        for f, s in shares(perf).items():
            print("perf %s %.2f" % (f, s))
    total = g[0] + g[1] + g[2] + g[3] + g[4] + insl
    for name, v in (("idle", g[0]), ("kernel", g[2]), ("shrmem", g[3]),
                    ("unknown", g[4]), ("slots", insl)):
        print("global %s %.2f" % (name, 100.0 * v / total if total else 0))


main()
