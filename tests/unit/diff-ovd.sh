#!/bin/sh
# profview diff of two overlay logs (the examples' simulated OVRDEMO and
# TUNING, which share UNIT1 and UNIT2): every unit's loads, discards,
# reprieves and time resident, and their deltas of shares, against each
# session's own report (a discard counted there from the events: a load
# of a unit not in the last event's load list), in csv, json and html.
: "${PROFVIEW:?PROFVIEW must name the built binary}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pvdiff.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
pv() { "$PROFVIEW" --db "$tmp/t.db" "$@"; }
top=${top_srcdir:-.}
. "$top/tests/tap.sh"
command -v python3 >/dev/null 2>&1 || skip_all "no python3"
plan 9
a=$top/examples/OVRDEMO-simulated.OVD
b=$top/examples/TUNING-simulated.OVD

check "diff ingests both files and compares them" \
    pv -f csv -o "$tmp/d.csv" diff "$a" "$b"
pv export -f csv 1 >"$tmp/a.csv" && pv export -f csv 2 >"$tmp/b.csv"
span=ovd:last_ticks:value-ovd:first_ticks:value
for m in loads reprieves resident_ticks; do
	total=sum
	[ $m = resident_ticks ] && total=$span
	check "$m: base, new, delta and delta % are the reports'" \
	    python3 "$top/tests/unit/diffcheck.py" "$tmp/d.csv" units unit \
	    $m "$tmp/a.csv" "$tmp/b.csv" units name $m $total $total
done
# Discards, from the events: loads, less one for a unit still loaded.
discards() {
	python3 - "$1" <<'PY'
import csv, sys
ev = [r for r in csv.DictReader(open(sys.argv[1])) if r['section'] == 'events']
last = {x.split(':')[0] for x in ev[-1]['load_list'].split()} if ev else set()
n = {}
for r in ev:
    if r['kind'] == 'load':
        n[r['unit']] = n.get(r['unit'], 0) + 1
seg = {r['unit']: '%04X' % int(r['ovr_seg']) for r in ev}
print('section,name,discards')
for u, k in n.items():
    print('discards,%s,%d' % (u, k - (seg[u] in last)))
PY
}
discards "$tmp/a.csv" >"$tmp/da.csv" && discards "$tmp/b.csv" >"$tmp/db.csv"
check "discards: loads whose residency ended in the log" \
    python3 "$top/tests/unit/diffcheck.py" "$tmp/d.csv" units unit \
    discards "$tmp/da.csv" "$tmp/db.csv" discards name discards sum sum
check "rows are sorted by |delta %| of loads" python3 -c '
import csv, sys
r = [x for x in csv.DictReader(open(sys.argv[1])) if x["section"] == "units"]
d = [abs(float(x["loads_delta_pct"])) for x in r]
sys.exit(d != sorted(d, reverse=True) or len(r) != 5)' "$tmp/d.csv"
pv diff -f json 1 2 >"$tmp/d.json"
check "json: the same rows, units only the new log has marked new" \
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
u = {x["unit"]: x for x in d["units"]}
sys.exit(d["diff"]["kind"] != "ovd" or sorted(u) != ["UNIT%d" % i
    for i in range(1, 6)] or u["UNIT1"]["only"] is not None or
    any(u["UNIT%d" % i]["only"] != "new" for i in (3, 4, 5)))' "$tmp/d.json"
pv diff -f html 1 2 >"$tmp/d.html"
check "html: a table with a row per unit" python3 -c '
import sys
h = open(sys.argv[1]).read()
sys.exit(h.count("<tr") < 6 or "UNIT5" not in h)' "$tmp/d.html"
out=$(pv diff 1 2)
check "text: the new-only units marked" sh -c \
    'echo "$1" | grep -Eq "^ +UNIT3 +new +0 +30 +30 "' - "$out"
finish
