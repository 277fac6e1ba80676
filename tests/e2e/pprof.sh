#!/bin/sh
# profview export -f pprof, read by the real reader: go tool pprof -top
# (Debian's golang-go) lists every function and the totals of profview's
# own report of the same session (tests/e2e/pprofcmp.py), for each kind
# that has the format: prf (exact, and estimated shares with their
# bounds), mon (sampled, and timed by the traps alone), prfd and heap.
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
trap '[ -n "${KEEP:-}" ] || rm -rf "$W"' EXIT
# go writes a build cache under HOME; nothing here may need the network.
HOME=$W GOCACHE=$W/gocache GOPATH=$W/go GOPROXY=off GOFLAGS= \
    GOTOOLCHAIN=local GOTELEMETRY=off
export HOME GOCACHE GOPATH GOPROXY GOFLAGS GOTOOLCHAIN GOTELEMETRY
pv() { "$build/profview" --db "$W/pv.db" "$@"; }
plan 13

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
