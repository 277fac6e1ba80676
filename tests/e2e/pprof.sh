#!/bin/sh
# profview export -f pprof, read by the real reader: go tool pprof -top
# (Debian's golang-go) lists every function and the totals of profview's
# own report of the same session (tests/e2e/pprofcmp.py), for each kind
# that has the format: prf (exact, and estimated shares with their
# bounds), mon (sampled, and timed by the traps alone), prfd (a version 1
# dump, and a version 2 one pvprf makes here of a program with a shared
# library: every module a mapping with its path, build-id and load bias;
# an OS/2 one, without a period) and heap.
# The file is gzip, 0600, put in place as other exports are; a path
# that cannot be written, and a kind without the format, are refused.
: "${top_builddir:=.}" "${top_srcdir:=.}"
. "$top_srcdir/tests/tap.sh"

command -v go >/dev/null 2>&1 ||
    skip_all "go not found (Debian: golang-go; tools/setup.sh installs it)"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is needed"
command -v sqlite3 >/dev/null 2>&1 || skip_all "sqlite3 is needed"
build=$(cd "$top_builddir" && pwd)
src=$(cd "$top_srcdir" && pwd)
W=$(mktemp -d "${TMPDIR:-/tmp}/pprof-test.XXXXXX") || exit 1
# pvprf's daemon is this test's own (its runtime folder), ended by the
# pid in its lock.
mkdir -m 700 "$W/run"
XDG_RUNTIME_DIR=$W/run PVPRFD=$build/capture/pvprf/pvprfd
export XDG_RUNTIME_DIR PVPRFD
trap '[ ! -s "$W/run/pvprfd.lock" ] || kill "$(cat "$W/run/pvprfd.lock")"
    [ -n "${KEEP:-}" ] || rm -rf "$W"' EXIT
# go writes a build cache under HOME; nothing here may need the network.
HOME=$W GOCACHE=$W/gocache GOPATH=$W/go GOPROXY=off GOFLAGS= \
    GOTOOLCHAIN=local GOTELEMETRY=off
export HOME GOCACHE GOPATH GOPROXY GOFLAGS GOTOOLCHAIN GOTELEMETRY
pv() { "$build/profview" --db "$W/pv.db" "$@"; }
plan 18

# agree KIND NAME FILE: FILE's session (ingested if new) as pprof and as
# profview's json report; pprof -top against the report.
agree() {
	pv export -f pprof -o "$W/$2.pb.gz" "$3" 2>"$W/$2.err" &&
	    pv export -f json "$3" >"$W/$2.json" 2>>"$W/$2.err" &&
	    python3 "$src/tests/e2e/pprofcmp.py" "$1" "$W/$2.json" \
	    "$W/$2.pb.gz" || { cat "$W/$2.err" >&2; return 1; }
}

check "prf (W10.PRF, every sample in the hit table): pprof agrees" \
    agree prf w10 "$src/examples/W10.PRF"

# No hit table: a bucket two symbols share is split by bytes, each share
# an estimate, rounded to whole samples with its bounds as labels.  The
# bucket file as tests/tui/lib.sh's mkprf makes it, its symbols by SQL.
python3 - "$W/DEMO.PRF" <<'PY'
import struct, sys
n = 64
counts = [(i * 7) % 50 for i in range(n)]
counts[10] = 500
hdr = struct.pack('<9H', 54925, n, 1, 0x1000, 0x1000 + n, 0x0800, 12, 34, 5)
open(sys.argv[1], 'wb').write(hdr + struct.pack('<%dH' % n, *counts))
PY
id=$(pv ingest "$W/DEMO.PRF" | cut -f1)
sqlite3 "$W/pv.db" "INSERT INTO symbol(session, module, name, addr, size)
    VALUES ($id, 'MAIN', 'main', 65536, 80), ($id, 'MAIN', 'loop_fn', 65616,
    200), ($id, 'LIB', 'printf', 65816, 300)"
check "prf, shares split by bytes: pprof agrees within a sample each" \
    agree prf demo "$id"
go tool pprof -tags "$W/demo.pb.gz" >"$W/demo.tags" 2>&1
check "... and an estimate carries its bounds (pprof -tags)" sh -c \
    'grep -q "estimate: Total" "$1" && grep -q "hits_lo: Total" "$1" &&
	grep -q "hits_hi: Total" "$1"' sh "$W/demo.tags"

check "mon (wordfreq.mon, sampled): pprof agrees" \
    agree mon wordfreq-mon "$src/examples/wordfreq.mon"

# Timed by the traps alone (--rate 0), with recursion, which pprof's cum
# counts once as profview does; times may be below zero.
cp "$build/tests/data/trace/recurse" "$W/" &&
    (cd "$W" && "$build/capture/pvtrace/pvtrace" --rate 0 -o "$W/rec.mon" \
    -- ./recurse >/dev/null 2>"$W/rec.trace")
check "mon (recurse under pvtrace --rate 0): pprof agrees" \
    agree mon rec "$W/rec.mon"

check "prfd (wordfreq.prfd): pprof agrees" \
    agree prfd wordfreq-prfd "$src/examples/wordfreq.prfd"

# Version 2: modwork's rounds of 5 and 3 ms in libprfdmod.so's lib_five
# and lib_three and 2 in its own own_two, the library's and libc's,
# the vDSO's and the kernel's samples each in a module of the dump.
if "$build/capture/pvprf/pvprf" record -o "$W/mod.prfd" -- \
    "$build/tests/prfd/modwork" 1 >/dev/null 2>"$W/mod.rec"; then
	check "prfd (version 2, modwork and its library): pprof agrees" \
	    agree prfd mod "$W/mod.prfd"
	go tool pprof -top -nodecount=100000 -nodefraction=0 \
	    -edgefraction=0 "$W/mod.pb.gz" >"$W/mod.top" 2>&1
	check "... lib_five and lib_three of libprfdmod.so in pprof -top, at\
 the report's counts" python3 -c '
import json, re, sys
r = json.load(open(sys.argv[1]))
top = {}
for line in open(sys.argv[2]):
    m = re.match(r"\s*(\d+)\s+\S+%\s+\S+%\s+\d+\s+\S+%\s+(.*)$", line)
    if m:
        top[m.group(2)] = int(m.group(1))
want = {f["symbol"]: f["hits"] for f in r["flat"]
    if f["module"] == "libprfdmod.so"}
bad = [(k, v, top.get(k)) for k, v in want.items() if top.get(k) != v]
for k, v, t in bad:
    print("# %s: report %d, pprof %s" % (k, v, t))
if want.get("lib_five", 0) == 0 or want.get("lib_three", 0) == 0:
    # Seen in two CIs of 2026-11-28/29, never here in 40 runs, some
    # under load: say what the report had (standard output: a CI log
    # keeps the TAP comments, not the test'"'"'s standard error).
    seen = {(str(f["module"]), str(f.get("symbol"))[:20])
        for f in r["flat"] if f["module"] != "modwork"}
    print("# no lib_five or lib_three in the report; besides modwork:",
        sorted(seen)[:20])
    mods = [(m.get("path"), m.get("samples"), m.get("symbols"),
        m.get("unresolved")) for m in r.get("modules", [])]
    print("# its modules:", mods[:10], "warnings:",
        r.get("warnings", [])[:5])
sys.exit(bad != [] or want.get("lib_five", 0) == 0 or
    want.get("lib_three", 0) == 0)' \
	    "$W/mod.json" "$W/mod.top"
else
	sed 's/^/# /' "$W/mod.rec"
	skip "prfd (version 2): pprof agrees" "pvprf record failed"
	skip "... the library's functions" "pvprf record failed"
fi

# The kernel's mapping (modwork sys: getppid(2) in a loop): pvprf
# records the kernel's text, _stext to _etext as /proc/kallsyms shows
# them, widened to its samples (where kallsyms shows no address, the
# samples' range alone), never 0-0: pprof's mapping has that range and
# every kernel location is in it.
if "$build/capture/pvprf/pvprf" record -o "$W/sys.prfd" -- \
    "$build/tests/prfd/modwork" sys 0.3 >/dev/null 2>"$W/sys.rec" &&
    sid=$(pv ingest "$W/sys.prfd" 2>/dev/null | cut -f1) &&
    [ "$(pv sql --csv "SELECT samples FROM prfd_module WHERE kernel AND
    session = ${sid:-0}" | tail -n +2)" -gt 0 ] 2>/dev/null; then
	check "prfd (kernel mode, modwork sys): pprof agrees" \
	    agree prfd sys "$W/sys.prfd"
	go tool pprof -raw "$W/sys.pb.gz" >"$W/sys.raw" 2>&1
	check "... the kernel's mapping is its text and samples, not 0-0" \
	    python3 -c '
import re, sys
maps, locs, part = {}, [], None
for line in open(sys.argv[1]):
    line = line.rstrip("\n")
    if line in ("Locations", "Mappings"):
        part = line
        continue
    m = re.match(r"\s*(\d+): 0x([0-9a-f]+)/0x([0-9a-f]+)/0x[0-9a-f]+"
        r" (\S*)", line)
    if part == "Mappings" and m:
        maps[m.group(4)] = (int(m.group(1)), int(m.group(2), 16),
            int(m.group(3), 16))
    m = re.match(r"\s*\d+: 0x([0-9a-f]+) M=(\d+) ", line)
    if part == "Locations" and m:
        locs.append((int(m.group(1), 16), int(m.group(2))))
mid, lo, hi = maps.get("[kernel.kallsyms]", (0, 0, 0))
text = {}
try:
    for line in open("/proc/kallsyms"):
        a, _, name = line.split()[:3]
        if name in ("_stext", "_etext"):
            text[name] = int(a, 16)
except OSError:
    pass
bad = []
if not 1 << 63 <= lo < hi:
    bad.append("the kernel mapped at %#x-%#x" % (lo, hi))
if text.get("_stext") and text.get("_etext") and not (
        lo <= text["_stext"] and hi >= text["_etext"]):
    bad.append("%#x-%#x is not the text %#x-%#x" % (lo, hi,
        text["_stext"], text["_etext"]))
out = [a for a, m in locs if m == mid and not lo <= a < hi]
n = sum(1 for a, m in locs if m == mid)
if out or n == 0:
    bad.append("%d of %d kernel locations outside" % (len(out), n))
print("# kernel %#x-%#x, %d locations" % (lo, hi, n))
for b in bad:
    print(b, file=sys.stderr)
sys.exit(bad != [])' "$W/sys.raw"
else
	sed 's/^/# /' "$W/sys.rec"
	skip "prfd (kernel mode): pprof agrees" "no kernel samples (paranoid)"
	skip "... the kernel's mapping" "no kernel samples"
fi

# OS/2's dump (tests/data/prfd/gen.py --no-ext): no extension record, so
# no period and no times, addresses only.
python3 "$src/tests/data/prfd/gen.py" "$build/tests/prfd/modwork" \
    "$W/os2.prfd" --no-ext --width 4 --share own_two=100,main=20 >&2
check "prfd (OS/2's, no period): pprof agrees, samples and no times" \
    agree prfd os2 "$W/os2.prfd"

check "heap (wordfreq.heap): pprof agrees" \
    agree heap wordfreq-heap "$src/examples/wordfreq.heap"

check "the file is gzip and 0600" sh -c \
    'test "$(od -An -tx1 -N2 "$1" | tr -d " ")" = 1f8b &&
	test "$(stat -c %a "$1")" = 600' sh "$W/w10.pb.gz"

# A symlink at the output is replaced, never written through.
echo keep >"$W/victim"
ln -s "$W/victim" "$W/link"
pv export -f pprof -o "$W/link" "$src/examples/W10.PRF" 2>"$W/link.err"
check "-o at a symlink replaces the link, not the file it names" sh -c \
    'test "$(cat "$1")" = keep && test ! -L "$2" && test -s "$2"' sh \
    "$W/victim" "$W/link"

pv export -f pprof -o "$W/nowhere/p.pb.gz" "$src/examples/W10.PRF" \
    2>"$W/nowhere.err"
rc=$?
check "-o in a folder that is not there: exit 1, said, nothing made" sh -c \
    'test "$1" = 1 && grep -q "nowhere/p.pb.gz: No such file" "$2" &&
	test ! -e "$3"' sh "$rc" "$W/nowhere.err" "$W/nowhere"
pv export -f pprof -o "$W" "$src/examples/W10.PRF" 2>"$W/dir.err"
rc=$?
check "-o naming a folder: exit 1, said" sh -c \
    'test "$1" = 1 && grep -q "Is a directory" "$2"' sh "$rc" "$W/dir.err"

pv export -f pprof -o "$W/ovd.pb.gz" "$src/examples/OVRDEMO-simulated.OVD" \
    2>"$W/ovd.err"
rc=$?
check "an overlay log has no pprof form: exit 1, said, nothing made" sh -c \
    'test "$1" = 1 && grep -q "no pprof report for kind ovd" "$2" &&
	test ! -e "$3"' sh "$rc" "$W/ovd.err" "$W/ovd.pb.gz"
# gzip's rule: compressed data is not written to a terminal.
if command -v script >/dev/null 2>&1; then
	script -qec "'$build/profview' --db '$W/pv.db' export -f pprof 1" \
	    /dev/null >"$W/tty.out" 2>&1
	rc=$?
	check "to a terminal: exit 1, said, no gzip written" sh -c \
	    'test "$1" = 1 && grep -q "name a file with -o" "$2" &&
		! grep -q "$(printf "\037\213")" "$2"' sh "$rc" "$W/tty.out"
else
	skip "to a terminal: refused" "no script(1) for a terminal"
fi
finish
