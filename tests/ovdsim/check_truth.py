#!/usr/bin/env python3
"""Simulated overlay runs through profview: ingest, then every report, each
compared with the simulator's ground truth.  Prints TAP."""
import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile

SRC = os.environ.get("top_srcdir", ".")
PROFVIEW = os.environ.get("PROFVIEW", "./profview")
SIM = os.path.join(SRC, "tests", "ovdsim", "ovdsim.py")
RUNS = [("ovrdemo", 1), ("thrash", 1), ("thrash", 7), ("retry", 1),
        ("retry", 3), ("setbuf", 2), ("midnight", 4), ("reprieves", 1),
        ("empty", 1)]

n = 0
failed = 0


def ok(cond, what):
    global n, failed
    n += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", n, what))
    if not cond:
        failed += 1
    return cond


def pv(db, *args, check=True):
    r = subprocess.run([PROFVIEW, "--db", db] + list(args),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and r.returncode != 0:
        raise RuntimeError("profview %s: %s" % (args, r.stderr.decode()))
    return r


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= 1e-6 * max(1.0, abs(b))


def load_list(s):
    """A report's load_list, "SSSS:LLLL ..." hex pairs, as tuples."""
    if not s:
        return None
    return sorted(tuple(int(x, 16) for x in p.split(":")) for p in s.split())


def compare(got, truth, nevents=None):
    """Mismatches between a JSON report and the truth, as strings."""
    bad = []
    tev = truth["events"][:nevents] if nevents is not None \
        else truth["events"]
    if len(got["events"]) != len(tev):
        return ["%d events, truth has %d" % (len(got["events"]), len(tev))]
    for g, t in zip(got["events"], tev):
        for k in ("seq", "ticks", "kind", "ovr_seg", "ovr_ofs", "heap_org",
                  "heap_end"):
            if g[k] != t[k]:
                bad.append("event %d %s %r != %r" % (t["seq"], k, g[k], t[k]))
        tl = sorted(map(tuple, t["loaded"])) if t["loaded"] else None
        gl = load_list(g["load_list"])
        if tl != gl:
            bad.append("event %d load list %r != %r" % (t["seq"], gl, tl))
    return bad


def compare_units(got, truth):
    bad = []
    tu = {u["stat_seg"]: u for u in truth["units"]}
    if len(got["units"]) != len(tu):
        return ["%d units, truth has %d" % (len(got["units"]), len(tu))]
    for g in got["units"]:
        t = tu[g["stat_seg"]]
        for k in ("loads", "reprieves", "resident_ticks", "code_size",
                  "file_ofs", "entry_pts"):
            if g[k] != t[k]:
                bad.append("unit %s %s %r != %r" % (t["name"], k, g[k], t[k]))
        if not close(g["mean_reload_ticks"], t["mean_reload_ticks"]):
            bad.append("unit %s mean_reload_ticks %r != %r" % (
                t["name"], g["mean_reload_ticks"], t["mean_reload_ticks"]))
        # A percentage, 0-100, with four decimals as every report has.
        if abs(g["resident_percent"] - 100 * t["resident_share"]) > 1e-4:
            bad.append("unit %s resident_percent %r != 100 * %r" % (
                t["name"], g["resident_percent"], t["resident_share"]))
        # Names come from the map once a map parser reads it.
        if not g["name"].startswith("seg ") and g["name"] != t["name"]:
            bad.append("unit name %r != %r" % (g["name"], t["name"]))
    return bad


def chrome_checks(doc, truth):
    bad = []
    evs = doc.get("traceEvents")
    if not isinstance(evs, list):
        return ["no traceEvents list"]
    units = truth["units"]
    names = [e for e in evs if e.get("ph") == "M" and
             e.get("name") == "thread_name"]
    if len(names) != len(units):
        bad.append("%d thread names for %d units" % (len(names), len(units)))
    inst = [e for e in evs if e.get("ph") == "i"]
    if len(inst) != len(truth["events"]):
        bad.append("%d instants for %d events" % (len(inst),
                                                  len(truth["events"])))
    for e in evs:
        if e["ph"] in ("X", "i"):
            if not (1 <= e["tid"] <= len(units)) or e["pid"] != 1 or \
                    not isinstance(e["ts"], (int, float)):
                bad.append("bad event %r" % e)
                break
        if e["ph"] == "X" and e["dur"] < 0:
            bad.append("negative dur %r" % e)
    tps = truth["ticks_per_second"]
    dur = {}
    for e in evs:
        if e["ph"] == "X":
            dur[e["tid"]] = dur.get(e["tid"], 0) + e["dur"]
    seg_of = {}
    for e in names:
        seg_of[e["tid"]] = e["args"]["name"]
    # Tracks are in stat_seg order, as the units are.
    for i, u in enumerate(sorted(units, key=lambda u: u["stat_seg"])):
        want = u["resident_ticks"] / tps * 1e6
        if abs(dur.get(i + 1, 0) - want) > 0.01 * (1 + len(truth["events"])):
            bad.append("unit %s resident %.3f us, truth %.3f" % (
                u["name"], dur.get(i + 1, 0), want))
    return bad


def run(tmp, scen, seed):
    stem = os.path.join(tmp, "%s%d" % (scen, seed))
    subprocess.run([sys.executable, SIM, scen, stem, "--seed", str(seed)],
                   check=True)
    truth = json.load(open(stem + ".json"))
    db = os.path.join(tmp, "store.db")
    r = pv(db, "ingest", stem + ".OVD")
    sid = r.stdout.decode().split("\t")[0]
    what = "%s seed %d" % (scen, seed)
    got = json.loads(pv(db, "export", "-f", "json", sid).stdout)
    bad = compare(got, truth)
    ok(not bad, "%s: events and load lists match the truth %s" % (
        what, "; ".join(bad[:3])))
    bad = compare_units(got, truth)
    ok(not bad, "%s: per-unit statistics match the truth %s" % (
        what, "; ".join(bad[:3])))
    ok(got["ovd"]["wraps"] == truth["wraps"] and
       got["ovd"]["truncated"] == 0,
       "%s: wraps %d, not truncated" % (what, got["ovd"]["wraps"]))

    r = pv(db, "export", "-f", "chrome", sid)
    v = subprocess.run([sys.executable, "-m", "json.tool"], input=r.stdout,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    ok(v.returncode == 0, "%s: chrome trace is JSON (json.tool) %s" % (
        what, v.stderr.decode().strip()))
    bad = chrome_checks(json.loads(r.stdout), truth)
    ok(not bad, "%s: chrome trace has a track per unit, spans and instants"
       " %s" % (what, "; ".join(bad[:3])))

    rows = list(csv.DictReader(io.StringIO(
        pv(db, "export", "-f", "csv", sid).stdout.decode(), newline="")))
    ev = [x for x in rows if x["section"] == "events"]
    un = [x for x in rows if x["section"] == "units"]
    good = len(ev) == len(truth["events"]) and \
        len(un) == len(truth["units"]) and \
        all(int(x["ticks"]) == t["ticks"] and x["kind"] == t["kind"]
            for x, t in zip(ev, truth["events"])) and \
        all(int(x["loads"]) == t["loads"] for x, t in
            zip(un, sorted(truth["units"], key=lambda u: u["stat_seg"])))
    ok(good, "%s: csv has a row per unit and per event" % what)

    text = pv(db, "export", "-f", "text", sid).stdout.decode()
    lines = [x for x in text.splitlines() if len(x.split()) > 2 and
             x.split()[2] in ("load", "reprieve")]
    ok(len(lines) == len(truth["events"]) and "Units" in text,
       "%s: text lists %d events" % (what, len(lines)))

    # Cut inside the last event: the complete ones stay, marked truncated.
    if truth["events"]:
        data = open(stem + ".OVD", "rb").read()
        cut = stem + "-cut.OVD"
        with open(cut, "wb") as f:
            f.write(data[:-3])
        r = pv(db, "ingest", cut)
        sid = r.stdout.decode().split("\t")[0]
        got = json.loads(pv(db, "export", "-f", "json", sid).stdout)
        bad = compare(got, truth, len(truth["events"]) - 1)
        ok(not bad and got["ovd"]["truncated"] == 1 and
           b"ends inside event" in r.stderr,
           "%s: cut file keeps the complete events %s" % (
               what, "; ".join(bad[:3])))


def main():
    tmp = tempfile.mkdtemp(prefix="ovdsim")
    try:
        for scen, seed in RUNS:
            try:
                run(tmp, scen, seed)
            except Exception as e:      # one broken run, not the rest
                ok(False, "%s seed %d: %s" % (scen, seed, e))
    finally:
        shutil.rmtree(tmp)
    print("1..%d" % n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
