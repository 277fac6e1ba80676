#!/usr/bin/env python3
"""Write a Dos32Profile dump (profview-formats.5, PRFD FILES) of a run of
an ELF program that never happened: the slot is the program's executable
segment at a PIE load address, the hit table's addresses lie inside the
functions nm(1) names, in the shares --share gives, and the detail
counters are made from them.  A second slot without a module (an
anonymous mapping, addresses only) gets --anon hits.  Used by the prfd
tests until pvprf's own dumps can stand in; nm is the oracle of names.

gen.py PROG OUT [--width 4|8] [--no-ext] [--shift N] [--anon N]
       [--share five=500,three=300,...] [--path MODULE]
"""
import argparse
import struct
import subprocess
import sys

BASE = 0x555555554000   # where Linux puts a PIE without ASLR
ANON = 0x7f1234560000


def elf_exec_segment(data):
    """The executable PT_LOAD's page range, and the ELF type."""
    if data[:4] != b"\x7fELF" or data[4] != 2:
        sys.exit("gen.py: not a 64-bit ELF file")
    e_type, = struct.unpack_from("<H", data, 16)
    e_phoff, = struct.unpack_from("<Q", data, 32)
    e_phentsize, e_phnum = struct.unpack_from("<HH", data, 54)
    notes = []
    seg = None
    for i in range(e_phnum):
        off = e_phoff + i * e_phentsize
        p_type, p_flags, p_offset, p_vaddr, _, p_filesz, p_memsz, _ = \
            struct.unpack_from("<IIQQQQQQ", data, off)
        if p_type == 1 and p_flags & 1 and seg is None:
            lo = p_vaddr & ~0xfff
            hi = (p_vaddr + p_memsz + 0xfff) & ~0xfff
            seg = (lo, hi)
        if p_type == 4:
            notes.append(data[p_offset:p_offset + p_filesz])
    return e_type, seg, notes


def build_id(notes):
    for n in notes:
        at = 0
        while at + 12 <= len(n):
            namesz, descsz, ntype = struct.unpack_from("<III", n, at)
            name_at = at + 12
            desc_at = name_at + ((namesz + 3) & ~3)
            if ntype == 3 and n[name_at:name_at + namesz] == b"GNU\0":
                return n[desc_at:desc_at + descsz]
            at = desc_at + ((descsz + 3) & ~3)
    return b""


def nm_functions(prog):
    out = subprocess.run(["nm", "-S", "--defined-only", prog],
                         capture_output=True, text=True, check=True).stdout
    funcs = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[2] in "tT":
            funcs[f[3]] = (int(f[0], 16), int(f[1], 16))
    return funcs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("prog")
    ap.add_argument("out")
    ap.add_argument("--width", type=int, default=8, choices=(4, 8))
    ap.add_argument("--no-ext", action="store_true")
    ap.add_argument("--shift", type=int, default=4)
    ap.add_argument("--share", default="five=500,three=300,two=200")
    ap.add_argument("--anon", type=int, default=50)
    ap.add_argument("--path", help="the module path the dump names")
    a = ap.parse_args()

    data = open(a.prog, "rb").read()
    e_type, seg, notes = elf_exec_segment(data)
    bias = BASE if e_type == 3 else 0
    if a.width == 4:
        bias = 0x10000 if e_type == 3 else 0
    vaddr, size = seg[0] + bias, seg[1] - seg[0]
    anon = ANON if a.width == 8 else 0x7000000
    funcs = nm_functions(a.prog)

    hits = []
    for item in a.share.split(","):
        name, n = item.split("=")
        addr, fsize = funcs[name]
        for k in range(int(n)):
            # Spread over the function's bytes, deterministically.
            hits.append(bias + addr + (k * 7) % fsize)
    anon_hits = [anon + (k * 64) % 0x2000 for k in range(a.anon)]
    allhits = hits + anon_hits
    span = 1 << a.shift

    def counters(lo, n, hs):
        c = [0] * ((n + span - 1) // span)
        for h in hs:
            c[(h - lo) >> a.shift] += 1
        return c

    c0 = counters(vaddr, size, hits)
    c1 = counters(anon, 0x2000, anon_hits)
    w = a.width
    ul = "<I" if w == 4 else "<Q"
    idle, kernel, shrmem, unknown = 400, 60, 25, 5
    out = bytearray(b"PRFD" + struct.pack("<HBBIH", 1, w, 0, 4242, 1000))

    def rec(cmd, thrdno, va, body):
        out.extend(struct.pack("<BH", cmd, thrdno))
        out.extend(struct.pack(ul, va) + struct.pack(ul, len(body)))
        out.extend(body)

    def r0(idle, kernel, shrmem, unknown, hitcnt):
        return (struct.pack("<HH", 0x104, a.shift) +
                b"".join(struct.pack(ul, v) for v in
                         (idle, 0, kernel, shrmem, unknown, 4096, hitcnt,
                          0, 0)) +
                struct.pack("<HBHH", 1000, 0, 0, 0))

    rec(0, 0, 0, r0(idle, kernel, shrmem, unknown, len(allhits)))
    rec(0, 1, 0, r0(idle, kernel, shrmem, unknown, len(allhits)))
    slots = struct.pack("<B", 2)
    for va, n, cnt in ((vaddr, size, len(hits)), (anon, 0x2000, a.anon)):
        slots += b"".join(struct.pack(ul, v) for v in (va, n, 8, 0, cnt))
    rec(1, 0, 0, slots)
    rec(2, 0, 0, struct.pack(ul, len(allhits)) +
        b"".join(struct.pack(ul, h) for h in allhits))
    rec(3, 0, vaddr, struct.pack(ul, size) + struct.pack(ul, len(c0)) +
        b"".join(struct.pack(ul, v) for v in c0))
    rec(3, 0, anon, struct.pack(ul, 0x2000) + struct.pack(ul, len(c1)) +
        b"".join(struct.pack(ul, v) for v in c1))
    if not a.no_ext:
        bid = build_id(notes)
        path = (a.path or a.prog).encode()
        ents = bytearray()

        def ent(tag, body):
            ents.extend(struct.pack("<HHI", tag, 0, len(body)) + body)
        ent(1, struct.pack(ul, vaddr) + struct.pack(ul, size) +
            struct.pack("<B", len(bid)) + bid + path)
        ent(2, struct.pack("<II", 1, 4243))
        total = idle + kernel + shrmem + unknown + len(allhits)
        ent(3, struct.pack("<QQQ", 1000000, total, total * 1000000))
        ent(4, path + b"\0" + b"1000\0")
        rec(0xf0, 0, 0, bytes(ents))
    open(a.out, "wb").write(out)


main()
