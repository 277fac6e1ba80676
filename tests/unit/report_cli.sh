#!/bin/sh
# profview sql and export end to end on a store file: CSV and JSON query
# output, the example queries of profview.1, and export in every format,
# of a PRF and of an OVD session, in the one shape every kind has.
: "${PROFVIEW:?PROFVIEW must name the built binary}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pvcli.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
db="$tmp/t.db"
pv() { "$PROFVIEW" --db "$db" "$@"; }
. "${top_srcdir:-.}/tests/tap.sh"
if command -v python3 >/dev/null 2>&1; then
	json() { python3 -m json.tool "$1" >/dev/null; }
	py() { python3 -c "$@"; }
else
	json() { echo "# no python3: checking the JSON's first byte only"; \
	    head -c 1 "$1" | grep -q '[[{]'; }
	py() { echo "# no python3: not checked"; }
fi
plan 32

# FOO.PRF: PSP 1000h, 8 buckets of a paragraph: 10 0 5 0 0 20 0 3; 2 I/O,
# 7 DOS, 1 high.  Octal escapes: printf's only portable way to bytes.
printf '\215\326\010\000\001\000\000\020\010\020\160\000\002\000\007\000\001\000\012\000\000\000\005\000\000\000\000\000\024\000\000\000\003\000' \
    >"$tmp/FOO.PRF"

out=$(pv ingest "$tmp/FOO.PRF")
check "ingest prints the session id" test "$(echo "$out" | cut -f1-2)" = \
    "$(printf '1\tprf')"

check "sql refuses to write without --writable" \
    sh -c '! "$PROFVIEW" --db "$1" sql "DELETE FROM bucket" 2>/dev/null' \
    sh "$db"
pv --writable sql "INSERT INTO symbol(session, module, name, addr, size)
    VALUES (1, 'MAIN', 'start', 65536, 32), (1, 'MAIN', 'lo\"op, x', 65568,
    48), (1, NULL, '<script>&\"x''', 65616, 16)"
check "sql --writable inserts symbols" test "$(pv sql --csv \
    'SELECT count(*) AS n FROM symbol')" = "$(printf 'n\n3')"

pv sql --csv 'SELECT idx, hits FROM bucket WHERE session = 1 AND hits > 0
    ORDER BY hits DESC' >"$tmp/top.csv"
printf 'idx,hits\n5,20\n0,10\n2,5\n7,3\n' >"$tmp/top.expect"
check "sql --csv: header and rows" cmp -s "$tmp/top.csv" "$tmp/top.expect"

pv sql --json 'SELECT name, module, addr, size FROM symbol ORDER BY addr' \
    >"$tmp/sym.json"
check "sql --json parses" json "$tmp/sym.json"
check "sql --json: typed values, escaped strings, null" grep -q \
    '{"name": "<script>&\\"x'"'"'", "module": null, "addr": 65616, "size": 16}' \
    "$tmp/sym.json"

# The three example queries of profview.1, verbatim.
pv sql --csv "SELECT idx, printf('%05X', lo) AS lo, hits FROM bucket
    WHERE session = 1 ORDER BY hits DESC LIMIT 10" >"$tmp/q1"
check "man example 1: top buckets" test "$(sed -n 2p "$tmp/q1")" = "5,10050,20"
pv sql --csv "SELECT s.module, s.name, round(sum(b.hits *
    (min(b.hi, s.addr + s.size) - max(b.lo, s.addr)) * 1.0 / (b.hi - b.lo)),
    1) AS hits FROM symbol s JOIN bucket b ON b.session = s.session
    AND b.lo < s.addr + s.size AND b.hi > s.addr
    WHERE s.session = 1 GROUP BY s.rowid ORDER BY hits DESC" >"$tmp/q2"
printf 'module,name,hits\n,"<script>&""x'"'"'",20.0\nMAIN,start,10.0\nMAIN,"lo""op, x",5.0\n' \
    >"$tmp/q2.expect"
check "man example 2: flat profile by a join, CSV quoting" \
    cmp -s "$tmp/q2" "$tmp/q2.expect"
# BAR.PRF: the same with two stray bytes after the buckets, a warning.
{ cat "$tmp/FOO.PRF"; printf 'xx'; } >"$tmp/BAR.PRF"
pv ingest "$tmp/BAR.PRF" >/dev/null 2>&1
pv sql --csv "SELECT s.id, s.source, count(*) AS warnings FROM session s
    JOIN warning w ON w.session = s.id GROUP BY s.id" >"$tmp/q3"
check "man example 3: sessions with warnings" test "$(sed 1d "$tmp/q3" |
    sed 's/,.*\//,/')" = "2,BAR.PRF,1"

check "export -f html -o OUT" pv export -f html -o "$tmp/r.html" 1
check "html: the name is escaped, no script" sh -c \
    'grep -q "&lt;script&gt;&amp;&quot;x&#39;" "$1" && ! grep -q "<script" "$1"' \
    sh "$tmp/r.html"
pv export -f json 1 >"$tmp/r.json"
check "export -f json parses" json "$tmp/r.json"
pv export -f csv "$tmp/FOO.PRF" >"$tmp/r.csv"
check "export -f csv FILE reuses the session" \
    test "$(grep -c '^buckets,' "$tmp/r.csv")" -eq 8
pv export 1 >"$tmp/r.txt"
check "export (text): flat profile line" grep -q \
    '^    41\.67            41\.67  20\.0  1000:0050   10050    16          <script>&"x'"'"'$' \
    "$tmp/r.txt"

pv export -o "$tmp/none.txt" 99 2>"$tmp/err"
check "export of a missing session fails with 1" test $? -eq 1
check "... says why and leaves no file" sh -c \
    'grep -q "no session 99" "$1" && ! test -e "$2"' sh "$tmp/err" \
    "$tmp/none.txt"
pv export -f nope 1 2>/dev/null
check "an unknown format is a usage error (2)" test $? -eq 2

pv export -f chrome 1 2>"$tmp/err" >"$tmp/none.json"
check "chrome of a PRF session fails with 1" test $? -eq 1
check "... naming the formats prf exports, writing nothing" sh -c \
    'grep -q "kind prf (it exports text, csv, json, html, pprof)" "$1" &&
    ! test -s "$2"' sh "$tmp/err" "$tmp/none.json"

# OVRDEMO: an overlay log and its map; every kind exports through the
# same model, in the same shape.
ovd=$(pv ingest "$top_srcdir/examples/OVRDEMO-simulated.OVD" | cut -f1)
pv export -f chrome "$ovd" >"$tmp/o.chrome"
nstay=$(pv sql --csv "SELECT count(*) FROM ovr_loaded WHERE session = $ovd" |
    sed 1d)
nev=$(pv sql --csv "SELECT count(*) FROM ovr_event WHERE session = $ovd" |
    sed 1d)
check "chrome of an OVD session: one X per stay ($nstay), one instant per \
event ($nev)" py '
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
ph = [e["ph"] for e in ev]
sys.exit(not (ph.count("X") == int(sys.argv[2]) and
    ph.count("i") == int(sys.argv[3])))' "$tmp/o.chrome" "$nstay" "$nev"
pv export -f html "$ovd" >"$tmp/o.html"
check "an OVD session has an html report" grep -q '<h2>Units (2 overlaid)' \
    "$tmp/o.html"
pv export -f json 1 >"$tmp/p.json"
pv export -f json "$ovd" >"$tmp/o.json"
check "prf and ovd json: session, then the kind, with warnings" py '
import json, sys
p, o = (json.load(open(f)) for f in sys.argv[1:3])
sys.exit(not (list(p)[:2] == ["session", "prf"] and
    list(o)[:2] == ["session", "ovd"] and "warnings" in p and
    "warnings" in o and list(p["session"]) == list(o["session"])))' \
    "$tmp/p.json" "$tmp/o.json"
check "ovd percentages are 0-100" py '
import json, sys
u = json.load(open(sys.argv[1]))["units"]
sys.exit(not (abs(sum(x["resident_percent"] for x in u) - 100) < 0.01))' \
    "$tmp/o.json"
pv export -f csv 1 | head -1 | cut -d, -f1 >"$tmp/p.first"
pv export -f csv "$ovd" | head -1 | cut -d, -f1 >"$tmp/o.first"
check "prf and ovd csv: the first column is the section" sh -c \
    'test "$(cat "$1")" = section && cmp -s "$1" "$2"' sh "$tmp/p.first" \
    "$tmp/o.first"

# One escaper per format: the same name comes out the same in both kinds.
pv --writable sql "UPDATE symbol SET name = 'Gr' || char(252) || 'n'
    WHERE session = 1 AND name = 'start';
    UPDATE ovr_unit SET name = 'Gr' || char(252) || 'n' WHERE session = $ovd
    AND stat_seg = (SELECT min(stat_seg) FROM ovr_unit WHERE session = $ovd)"
pv export -f json 1 >"$tmp/p.json"
pv export -f json "$ovd" >"$tmp/o.json"
gruen=$(printf '"name": "Gr\303\274n"')
check "a name with u-umlaut is written alike in prf and ovd json" sh -c \
    'grep -qF "$1" "$2" && grep -qF "$1" "$3"' sh "$gruen" "$tmp/p.json" \
    "$tmp/o.json"

# Hostile unit names: quotes, commas, newlines, ESC, bytes not UTF-8.
pv --writable sql "UPDATE ovr_unit SET name = CASE stat_seg
    WHEN (SELECT min(stat_seg) FROM ovr_unit WHERE session = $ovd)
    THEN 'q\"u,o' || char(10) || 'te'
    ELSE CAST(x'1b5b324a626164ffc080' AS TEXT) END WHERE session = $ovd"
pv export -f csv "$ovd" >"$tmp/h.csv"
check "hostile names: csv rows keep their shape and the name" py '
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="", errors="replace")))
sys.exit(not (all(len(r) == len(rows[0]) for r in rows) and
    sum(r[rows[0].index("name")] == "q\"u,o\nte" for r in rows) == 1))' \
    "$tmp/h.csv"
pv export -f json "$ovd" >"$tmp/h.json"
pv export -f chrome "$ovd" >"$tmp/h.chrome"
both_json() { json "$1" && json "$2"; }
check "hostile names: json and chrome parse" both_json "$tmp/h.json" \
    "$tmp/h.chrome"
pv export -f html "$ovd" >"$tmp/h.html"
check "hostile names: html escapes them, no ESC, valid UTF-8" py '
import sys
b = open(sys.argv[1], "rb").read()
b.decode("utf-8")
sys.exit(not (b"\x1b" not in b and b"q&quot;u,o" in b and
    b"q\"u" not in b))' "$tmp/h.html"

# A session's report says a missing value as a person reads it: a dash,
# <spontaneous> for a call edge with no caller (gprof's word), never a
# literal NULL read as a name; query results keep SQL's NULL.
mon=$(pv ingest "${top_srcdir:-.}/tests/data/calls.mon" | cut -f1)
pv export "$mon" >"$tmp/m.txt"
check "text report: no literal NULL" sh -c '! grep -qw NULL "$1"' sh \
    "$tmp/m.txt"
check "text report: the edge into main has caller <spontaneous>" grep -q \
    '^  <spontaneous>  *main  ' "$tmp/m.txt"
pv export -f html "$mon" >"$tmp/m.html"
check "html report: &lt;spontaneous&gt;, no NULL" sh -c \
    'grep -q "class=\"null\">&lt;spontaneous&gt;<" "$1" &&
    ! grep -qw NULL "$1"' sh "$tmp/m.html"
check "query results keep NULL" test "$(pv sql 'SELECT NULL AS x' |
    sed -n 3p)" = NULL
