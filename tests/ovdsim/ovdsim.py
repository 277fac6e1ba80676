#!/usr/bin/env python3
"""ovdsim: simulate the Turbo Pascal overlay manager and write what OVRACT
would have logged (NAME.OVD), with the ground truth beside it (NAME.json)
and a Turbo Pascal style map (NAME.MAP).

The model: the overlay buffer is a ring of paragraphs [OvrHeapOrg,
OvrHeapEnd).  A unit called while not in the buffer is loaded at the head;
when it does not fit before the buffer's end the head wraps to the start,
and the oldest units in the way are freed from the tail.  OvrSetRetry
makes the oldest units, as far as the retry size reaches from the tail, a
probation area: the first call to a unit on probation is a reprieve (and
logged), and a reprieved unit about to be freed is moved to the head
instead.  OvrSetBuf/OvrClearBuf empty the buffer; the next event carries an
Overlay Buffer Change record.

Standard library only.  Usage:
    ovdsim.py SCENARIO OUTSTEM [--events N] [--seed S]
scenarios: ovrdemo thrash retry setbuf midnight reprieves empty random
"""
import json
import random
import struct
import sys

DAY = 0x1800B0
TICKS_PER_S = 18.2065


class Unit:
    def __init__(self, name, stat_seg, file_ofs, code_size, fixup_size,
                 entry_pts, procs):
        self.name = name
        self.stat_seg = stat_seg
        self.file_ofs = file_ofs
        self.code_size = code_size
        self.fixup_size = fixup_size
        self.entry_pts = entry_pts
        self.procs = procs          # [(name, offset)]

    @property
    def paras(self):
        return (self.code_size + 15) // 16


class Manager:
    """The overlay manager and OVRACT's logging of it."""

    def __init__(self, units, org, end, retry=0, start=0, bios=False):
        self.units = units
        self.org, self.end = org, end
        self.retry = retry          # paragraphs of probation area
        self.loaded = []            # [(unit, seg)], oldest first
        self.head = org
        self.reprieved = set()
        self.now = start            # clock ticks
        self.bios = bios            # log the BIOS count (wraps at midnight)
        self.events = []
        self.logged_buf = None
        self.stream = None          # a file: write events, keep none
        self.count = 0

    def setbuf(self, org, end):
        self.loaded = []
        self.reprieved = set()
        self.org, self.end, self.head = org, end, org

    def resident(self, u):
        return any(x is u for x, _ in self.loaded)

    def probation(self):
        """Units in the probation area: the oldest, within retry paras."""
        out, used = [], 0
        for u, _ in self.loaded:
            used += u.paras
            if used > self.retry:
                break
            out.append(u)
        return out

    def place(self, u):
        """Put u at the head, freeing (or moving reprieved) tail units."""
        while True:
            pos = self.head
            if pos + u.paras > self.end:
                pos = self.org
            lo, hi = pos, pos + u.paras
            if not any(s < hi and lo < s + x.paras for x, s in self.loaded):
                self.loaded.append((u, pos))
                self.head = hi
                return
            victim, _ = self.loaded.pop(0)
            if victim in self.reprieved:
                self.reprieved.discard(victim)
                self.place(victim)

    def call(self, u, proc, dt):
        self.now += dt
        ofs = dict(u.procs)[proc]
        if self.resident(u):
            if u in self.probation() and u not in self.reprieved:
                self.reprieved.add(u)
                self.log(u, ofs, None)
            return
        self.place(u)
        self.log(u, ofs, [(x.stat_seg, s) for x, s in self.loaded])

    def log(self, u, ofs, loadlist):
        buf = (self.org, self.end)
        t = self.now % DAY if self.bios else self.now
        self.count += 1
        if self.stream is not None:
            w = [struct.pack("<i", t)]
            if buf != self.logged_buf:
                w.append(struct.pack("<HHH", 0xFFFF, buf[0], buf[1]))
            w.append(struct.pack("<HH", u.stat_seg, ofs))
            for s, l in loadlist or ():
                w.append(struct.pack("<HH", s, l))
            w.append(b"\0\0")
            self.stream.write(b"".join(w))
            self.logged_buf = buf
            return
        self.events.append({
            "seq": len(self.events), "raw_time": t, "ticks": self.now,
            "kind": "reprieve" if loadlist is None else "load",
            "ovr_seg": u.stat_seg, "ovr_ofs": ofs,
            "heap_org": buf[0], "heap_end": buf[1],
            "buffer_change": buf != self.logged_buf,
            "loaded": loadlist})
        self.logged_buf = buf


def make_units(n, rng, first_seg=0x40, sizes=None):
    units, seg, fofs = [], first_seg, 0x200
    for i in range(n):
        size = sizes[i] if sizes else rng.randrange(0x180, 0x1400, 16)
        nproc = 1 + i % 4
        procs = [("UNIT%d.PROC%d" % (i + 1, k), 5 * k) for k in range(nproc)]
        units.append(Unit("UNIT%d" % (i + 1), seg, fofs, size, 16 * nproc,
                          nproc, procs))
        # The stub: 32-byte header plus 5 bytes per entry point.
        seg += (32 + 5 * nproc + 15) // 16 + 1
        fofs += size + 16 * nproc
    return units


def write_ovd_head(f, prefix_seg, units):
    w = [struct.pack("<HH", 1, prefix_seg)]
    for u in units:
        w.append(struct.pack("<HIHHH", u.stat_seg, u.file_ofs, u.code_size,
                             u.fixup_size, u.entry_pts))
    w.append(b"\0\0")
    f.write(b"".join(w))


def write_ovd(path, prefix_seg, units, events):
    w = []
    for e in events:
        w.append(struct.pack("<i", e["raw_time"] - (1 << 32)
                             if e["raw_time"] >= 1 << 31 else e["raw_time"]))
        if e["buffer_change"]:
            w.append(struct.pack("<HHH", 0xFFFF, e["heap_org"],
                                 e["heap_end"]))
        w.append(struct.pack("<HH", e["ovr_seg"], e["ovr_ofs"]))
        for s, l in e["loaded"] or ():
            w.append(struct.pack("<HH", s, l))
        w.append(b"\0\0")
    with open(path, "wb") as f:
        write_ovd_head(f, prefix_seg, units)
        f.write(b"".join(w))


def write_map(path, program, units):
    """A Turbo Pascal 5 map: segments, then publics by value."""
    lines = ["", " Start  Stop   Length Name               Class", "",
             " 00000H 0003FH 00040H %-18s CODE" % program]
    for u in units:
        n = (32 + 5 * u.entry_pts + 15) // 16 * 16
        lines.append(" %05XH %05XH %05XH %-18s CODE" % (
            u.stat_seg * 16, u.stat_seg * 16 + n - 1, n, u.name))
    lines += ["", "  Address         Publics by Value", ""]
    for u in units:
        for name, ofs in u.procs:
            lines.append(" %04X:%04X       %s" % (u.stat_seg, ofs,
                                                  name.split(".")[1]))
    lines += ["", "Program entry point at 0000:0000", ""]
    with open(path, "w", newline="\r\n") as f:
        f.write("\n".join(lines))


def truth(units, events):
    """Per-unit statistics, computed from the event list alone."""
    stats = {u.stat_seg: {"loads": 0, "reprieves": 0, "resident_ticks": 0,
                          "load_ticks": []} for u in units}
    current = []
    for i, e in enumerate(events):
        st = stats[e["ovr_seg"]]
        if e["kind"] == "load":
            st["loads"] += 1
            st["load_ticks"].append(e["ticks"])
            current = [s for s, _ in e["loaded"]]
        else:
            st["reprieves"] += 1
        if i + 1 < len(events):
            for s in current:
                stats[s]["resident_ticks"] += events[i + 1]["ticks"] - \
                    e["ticks"]
    span = events[-1]["ticks"] - events[0]["ticks"] if events else 0
    out = []
    for u in units:
        st = stats[u.stat_seg]
        lt = st.pop("load_ticks")
        st["mean_reload_ticks"] = ((lt[-1] - lt[0]) / (len(lt) - 1)
                                   if len(lt) > 1 else None)
        st["resident_share"] = st["resident_ticks"] / span if span else 0.0
        out.append(dict(stat_seg=u.stat_seg, name=u.name,
                        file_ofs=u.file_ofs, code_size=u.code_size,
                        fixup_size=u.fixup_size, entry_pts=u.entry_pts,
                        **st))
    return out, span


def scenario(name, rng, nevents, stream=None):
    """(units, manager): the scenario's script has driven the manager."""
    if name == "ovrdemo":
        # Turbo Pascal's OVRDEMO: two overlaid units taking turns in a
        # buffer that holds only one of them.
        units = make_units(2, rng, sizes=[0x3A0, 0x3C0])
        m = Manager(units, 0x2000, 0x2000 + 0x3C, start=120)
        for i in range(40):
            u = units[i % 2]
            m.call(u, u.procs[0][0], 2 + i % 3)
        return units, m
    if name == "thrash":
        units = make_units(8, rng)
        m = Manager(units, 0x3000, 0x3000 + 0x300)
        for i in range(nevents or 400):
            u = rng.choice(units)
            m.call(u, rng.choice(u.procs)[0], rng.randrange(0, 6))
        return units, m
    if name == "retry":
        units = make_units(6, rng, sizes=[0x800] * 6)
        m = Manager(units, 0x3000, 0x3000 + 0x180, retry=0x100)
        for i in range(nevents or 600):
            # A skewed working set so that reprieves happen.
            u = units[min(int(rng.expovariate(0.7)), 5)]
            m.call(u, rng.choice(u.procs)[0], rng.randrange(1, 4))
        return units, m
    if name == "setbuf":
        units = make_units(5, rng, sizes=[0x600] * 5)
        m = Manager(units, 0x3000, 0x3000 + 0x100, retry=0x60)
        for i in range(300):
            if i == 100:
                m.setbuf(0x3000, 0x3000 + 0x200)
            if i == 200:
                m.setbuf(0x3400, 0x3400 + 0x80)
            u = rng.choice(units)
            m.call(u, rng.choice(u.procs)[0], rng.randrange(1, 5))
        return units, m
    if name == "midnight":
        units = make_units(4, rng)
        m = Manager(units, 0x3000, 0x3000 + 0x200, start=DAY - 400,
                    bios=True)
        for i in range(200):
            u = rng.choice(units)
            m.call(u, rng.choice(u.procs)[0], rng.randrange(1, 9))
        return units, m
    if name == "reprieves":
        # After the first loads everything fits and everything is on
        # probation: a run of reprieves, one per probation period.
        units = make_units(3, rng, sizes=[0x200] * 3)
        m = Manager(units, 0x3000, 0x3000 + 0x60, retry=0x60)
        for u in units:
            m.call(u, u.procs[0][0], 1)
        for i in range(30):
            u = units[i % 3]
            m.reprieved.discard(u)      # probation begins again
            m.call(u, u.procs[0][0], 3)
        return units, m
    if name == "empty":
        units = make_units(3, rng)
        return units, Manager(units, 0x3000, 0x3100)
    if name == "random":
        units = make_units(12, rng)
        m = Manager(units, 0x3000, 0x3000 + 0x500, retry=0x100)
        m.stream = stream
        weights = [1.0 / (i + 1) for i in range(12)]
        picks = rng.choices(units, weights, k=nevents * 4)
        i = 0
        while m.count < nevents:
            u = picks[i % len(picks)]
            i += 1
            m.call(u, u.procs[0][0], 1)
        return units, m
    raise SystemExit("ovdsim: unknown scenario %s" % name)


def main(argv):
    args, opts = [], {"--events": 0, "--seed": 1}
    it = iter(argv[1:])
    for a in it:
        if a in opts:
            opts[a] = int(next(it))
        else:
            args.append(a)
    if len(args) != 2:
        sys.stderr.write(__doc__)
        return 2
    name, stem = args
    rng = random.Random(opts["--seed"])
    prefix_seg = 0x1A2B
    program = stem.rsplit("/", 1)[-1].upper()
    if name == "random" and opts["--events"] > 100000:
        # A benchmark file: streamed, without ground truth.
        with open(stem + ".OVD", "wb") as f:
            units = make_units(12, random.Random(opts["--seed"]))
            write_ovd_head(f, prefix_seg, units)
            scenario(name, rng, opts["--events"], f)
        write_map(stem + ".MAP", program, units)
        return 0
    units, m = scenario(name, rng, opts["--events"])
    write_ovd(stem + ".OVD", prefix_seg, units, m.events)
    write_map(stem + ".MAP", program, units)
    stats, span = truth(units, m.events)
    doc = {"simulated": True, "scenario": name, "seed": opts["--seed"],
           "version": 1, "prefix_seg": prefix_seg,
           "ticks_per_second": TICKS_PER_S, "span_ticks": span,
           "wraps": sum(1 for a, b in zip(m.events, m.events[1:])
                        if b["raw_time"] < a["raw_time"]),
           "units": stats,
           "events": [{k: e[k] for k in ("seq", "ticks", "kind", "ovr_seg",
                                         "ovr_ofs", "heap_org", "heap_end",
                                         "loaded")} for e in m.events]}
    with open(stem + ".json", "w") as f:
        json.dump(doc, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
