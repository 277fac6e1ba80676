#!/usr/bin/env python3
"""PRF files and their HITS section, for the DOS end-to-end tests.

A reader of its own, written from profview-formats(5), so that the tests
do not rest on profview's reader.  Each command prints one line saying
what it found and exits 0 when the check holds, 1 when it does not.

  prfhits.py check FILE           HITS well-formed; the invariant holds
  prfhits.py none FILE            no HITS section: the file ends after the
                                  PV32 counts
  prfhits.py field FILE NAME,...  print fields, comma-separated: the
                                  HITS section's capacity count missed
                                  flags, entries (their hits), the
                                  header's grain siz num low high, the
                                  PV32 total
  prfhits.py buckets FILE         each bucket's count is the sum of the
                                  entries in it (a table that missed none)
  prfhits.py starts FILE LST      each entry is an instruction start in
                                  the NASM listing (-l) of the program
  prfhits.py hot FILE LST REGEX   the listing lines matching REGEX (the
                                  hot loops) are sampled, and each of their
                                  instructions is hotter than any other
"""

import re
import struct
import sys

PV32_FIXED = 24
HITS_FIXED = 20


class Bad(Exception):
    pass


def parse(path):
    """The PRF's fields; 'hits' is None when there is no HITS section."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 18:
        raise Bad("%s: %d bytes, shorter than the header" % (path, len(data)))
    (grain, num, siz, low, high, dos, h_io, h_dos,
     h_high) = struct.unpack_from("<9H", data, 0)
    p = dict(grain=grain, num=num, siz=siz, low=low, high=high, dos=dos,
             size=len(data))
    t = 18 + 2 * num
    if data[t:t + 4] != b"PV32":
        raise Bad("no PV32 trailer at offset %d" % t)
    if len(data) < t + PV32_FIXED + 4 * num:
        raise Bad("PV32 trailer cut off")
    ver, flags, total, io, dos32, high32 = struct.unpack_from(
        "<HHIIII", data, t + 4)
    p.update(pv32_version=ver, pv32_flags=flags, total=total, io=io,
             dos32=dos32, high32=high32)
    p["counts"] = list(struct.unpack_from("<%dI" % num, data,
                                          t + PV32_FIXED))
    h = t + PV32_FIXED + 4 * num
    p["hits_offset"] = h
    p["hits"] = None
    if len(data) == h:
        return p
    if data[h:h + 4] != b"HITS":
        raise Bad("offset %d: %r, not HITS" % (h, data[h:h + 4]))
    if len(data) < h + HITS_FIXED:
        raise Bad("offset %d: HITS cut off (%d bytes)" % (h, len(data) - h))
    length, ver, flags, cap, count, missed = struct.unpack_from(
        "<IHHHHI", data, h + 4)
    s = dict(length=length, version=ver, flags=flags, capacity=cap,
             count=count, missed=missed)
    if length != 12 + 8 * count:
        raise Bad("HITS length %d, count %d needs %d" % (length, count,
                                                        12 + 8 * count))
    if len(data) != h + 8 + length:
        raise Bad("HITS ends at %d, the file at %d" % (h + 8 + length,
                                                      len(data)))
    s["entries"] = [struct.unpack_from("<HHI", data, h + HITS_FIXED + 8 * i)
                    for i in range(count)]
    p["hits"] = s
    return p


def need_hits(p):
    if p["hits"] is None:
        raise Bad("no HITS section")
    return p["hits"]


def cmd_check(p):
    s = need_hits(p)
    if s["version"] != 1:
        raise Bad("HITS version %d" % s["version"])
    if s["count"] > s["capacity"]:
        raise Bad("count %d > capacity %d" % (s["count"], s["capacity"]))
    if s["flags"] & ~1:
        raise Bad("unknown flags %#x" % s["flags"])
    seen = set()
    for ip, cs, n in s["entries"]:
        if (cs, ip) in seen:
            raise Bad("%04X:%04X twice" % (cs, ip))
        seen.add((cs, ip))
        if n == 0:
            raise Bad("%04X:%04X with no hits" % (cs, ip))
        para = cs + (ip >> 4)
        if not p["low"] <= para < p["high"]:
            raise Bad("%04X:%04X outside the program (%04X-%04X)" % (
                cs, ip, p["low"], p["high"]))
    hits = sum(n for _, _, n in s["entries"])
    buckets = sum(p["counts"])
    if hits + s["missed"] != buckets:
        raise Bad("entries %d + missed %d != buckets %d" % (
            hits, s["missed"], buckets))
    if bool(s["flags"] & 1) != (s["missed"] > 0):
        raise Bad("flags %d but missed %d" % (s["flags"], s["missed"]))
    return ("%d entries of %d, %d hits + %d missed = the buckets' %d, "
            "flags %d" % (s["count"], s["capacity"], hits, s["missed"],
                          buckets, s["flags"]))


def cmd_none(p):
    if p["hits"] is not None:
        raise Bad("a HITS section at offset %d" % p["hits_offset"])
    return "%d bytes, ending with the PV32 counts" % p["size"]


def cmd_field(p, names):
    def one(name):
        if name in ("grain", "siz", "num", "low", "high", "total"):
            return str(p[name])
        s = need_hits(p)
        if name == "entries":
            return str(sum(n for _, _, n in s["entries"]))
        if name not in ("capacity", "count", "missed", "flags"):
            raise Bad("no field %s" % name)
        return str(s[name])
    return ",".join(one(n) for n in names.split(","))


def cmd_buckets(p):
    s = need_hits(p)
    if s["missed"]:
        raise Bad("%d missed: buckets hold more than the entries"
                  % s["missed"])
    sums = [0] * p["num"]
    for ip, cs, n in s["entries"]:
        sums[(cs + (ip >> 4) - p["low"]) // p["siz"]] += n
    bad = [i for i in range(p["num"]) if sums[i] != p["counts"][i]]
    if bad:
        i = bad[0]
        raise Bad("%d buckets differ, the first: %d holds %d, its "
                  "entries %d" % (len(bad), i, p["counts"][i], sums[i]))
    return "each of %d buckets is the sum of its entries" % p["num"]


LINE = re.compile(r"^\s*(\d+) ([0-9A-F]{8}) ((?:[0-9A-F]{2}|\[[0-9A-F]+\]|"
                  r"\([0-9A-F]+\))+)(<rep ([0-9A-F]+)h>)?(-?)\s*(.*)$")
DATA = {"db", "dw", "dd", "dq", "dt", "do", "dy", "dz", "incbin"}


def listing(path):
    """Instruction starts of the program's code, as offsets into the
    loaded image (a .COM's file, an .EXE's load module): {offset: line}.
    Only the section the image starts with and the one named .text count
    (an .EXE's header is a section of its own)."""
    starts = {}
    section = None
    cont = False
    with open(path, encoding="latin-1") as f:
        for text in f:
            text = text.rstrip("\n")
            m = LINE.match(text)
            if not m:
                src = re.sub(r"^\s*\d+\s+(<\d+>)?", "", text)
                d = re.match(r"\s*(?:section|segment)\s+(\S+)", src, re.I)
                if d:
                    section = d.group(1)
                continue
            off = int(m.group(2), 16)
            size = len(re.sub(r"[\[\]()]", "", m.group(3))) // 2
            reps = int(m.group(5), 16) if m.group(5) else 1
            src = re.sub(r"^<\d+>\s*", "", m.group(7))
            was_cont, cont = cont, m.group(6) == "-"
            if was_cont or section not in (None, ".text"):
                continue
            code = src.split(";")[0]
            words = set(re.split(r"[\s,]+", code.lower()))
            if words & DATA or not code.strip():
                continue
            if re.match(r"\s*align", code, re.I):
                continue  # padding, never run
            for k in range(reps):
                starts[off + k * size] = src.strip()
    return starts


def image_offset(p, ip, cs):
    """An entry's offset into the image, which starts at PSP+10h."""
    return cs * 16 + ip - (p["low"] + 0x10) * 16


def cmd_starts(p, lst):
    s = need_hits(p)
    starts = listing(lst)
    bad = ["%04X:%04X (image offset %X)" % (cs, ip, image_offset(p, ip, cs))
           for ip, cs, _ in s["entries"]
           if image_offset(p, ip, cs) not in starts]
    if bad:
        raise Bad("%d entries not at an instruction start: %s" % (
            len(bad), ", ".join(bad[:8])))
    return "%d entries, each at one of %d instruction starts" % (
        s["count"], len(starts))


def cmd_hot(p, lst, regex):
    s = need_hits(p)
    hot = {o for o, src in listing(lst).items() if re.search(regex, src)}
    if not hot:
        raise Bad("no listing line matches %r" % regex)
    got = {image_offset(p, ip, cs): n for ip, cs, n in s["entries"]}
    missing = sorted(hot - set(got))
    if missing:
        raise Bad("hot instructions never sampled: %s" % ", ".join(
            "%X" % o for o in missing))
    coldest = min(got[o] for o in hot)
    cold = [n for o, n in got.items() if o not in hot]
    hottest = max(cold, default=0)
    if hottest >= coldest:
        raise Bad("an instruction outside the loops has %d hits, a loop "
                  "instruction %d" % (hottest, coldest))
    return ("the %d loop instructions are the hottest: %d-%d hits each, "
            "others at most %d" % (len(hot), coldest,
                                   max(got[o] for o in hot), hottest))


def main(argv):
    cmds = {"check": (cmd_check, 0), "none": (cmd_none, 0),
            "field": (cmd_field, 1), "buckets": (cmd_buckets, 0),
            "starts": (cmd_starts, 1), "hot": (cmd_hot, 2)}
    if len(argv) < 3 or argv[1] not in cmds or \
            len(argv) != 3 + cmds[argv[1]][1]:
        sys.stderr.write(__doc__)
        return 2
    fn, _ = cmds[argv[1]]
    try:
        print(fn(parse(argv[2]), *argv[3:]))
    except (Bad, OSError, struct.error) as e:
        print(e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
