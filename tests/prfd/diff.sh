#!/bin/sh
# profview diff of two pvprf dumps of a known change: the workload's CPU
# split 5:3:2 in f5, f3 and f2 turned round to 2:3:5, so f5 loses 30
# points, f3 none and f2 gains 30; each delta % within 3 points of that,
# and of the shares each session's own report gives (the hit table's
# samples of the three); every format written, csv and json parsed.
. "${top_srcdir:-.}/tests/prfd/prfd.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is needed"
WORK=$top_builddir/tests/prfd/work
PROFVIEW=${PROFVIEW:-$top_builddir/profview}
pv() { "$PROFVIEW" --db "$W/t.db" "$@"; }
plan 10

"$PVPRF" record -o "$W/a.prfd" -- "$WORK" split 2 0 >/dev/null 2>&1
"$PVPRF" record -o "$W/b.prfd" -- "$WORK" swap 2 0 >/dev/null 2>&1
check "diff ingests both dumps and compares them" \
    pv -f csv -o "$W/d.csv" diff "$W/a.prfd" "$W/b.prfd"
# name: work!f5 and the others, each with its delta % and both sides'.
python3 - "$W/d.csv" >"$W/d.txt" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r['section'] == 'functions' and r['function'].split('!')[-1] in (
            'f5', 'f3', 'f2'):
        print(r['function'].split('!')[-1], r['function'],
              r['samples_delta_pct'], r['only'])
PY
sed 's/^/# /' "$W/d.txt"
want() { case $1 in f5) echo -30 ;; f3) echo 0 ;; f2) echo 30 ;; esac; }
for f in f5 f3 f2; do
	d=$(awk -v f=$f '$1 == f { print $3 }' "$W/d.txt")
	check "$f: delta ${d:-none} points, the change made $(want $f)" \
	    near "${d:-1000}" "$(want $f)" 3
done
check "the functions are named module!function, on both sides" \
    sh -c '[ "$(awk '\''$2 ~ /^work!f[532]$/ && $4 == "" '\'' "$1" |
    wc -l)" -eq 3 ]' - "$W/d.txt"
# The shares each session's report gives, of its hit table's samples.
pv export -f csv 1 >"$W/a.csv" && pv export -f csv 2 >"$W/b.csv"
check "f5, f3, f2: samples and delta % are the flat profiles' (of hits %)" \
    python3 - "$W/d.csv" "$W/a.csv" "$W/b.csv" <<'PY'
import csv, sys
def rep(p):
    h = {}
    for r in csv.DictReader(open(p)):
        if r['section'] == 'flat':
            h[r['symbol']] = (int(r['hits']), float(r['percent']))
    return h
a, b = rep(sys.argv[2]), rep(sys.argv[3])
bad = 0
for r in csv.DictReader(open(sys.argv[1])):
    if r['section'] != 'functions':
        continue
    f = r['function'].split('!')[-1]
    if f not in ('f5', 'f3', 'f2'):
        continue
    x, y = a.get(f, (0, 0.0)), b.get(f, (0, 0.0))
    got = [int(r['samples_base']), int(r['samples_new']),
           int(r['samples_delta']), float(r['samples_delta_pct'])]
    if got[:3] != [x[0], y[0], y[0] - x[0]] or \
            abs(got[3] - (y[1] - x[1])) > 0.01:
        print('%s: diff %s, reports %s %s' % (f, got, x, y),
              file=sys.stderr)
        bad = 1
sys.exit(bad or not a or not b)
PY
check "rows sorted by |delta %|: f5 and f2 ahead of f3" python3 -c '
import csv, sys
r = [x["function"].split("!")[-1] for x in csv.DictReader(open(sys.argv[1]))
    if x["section"] == "functions"]
sys.exit(not (r.index("f3") > r.index("f5") and r.index("f3") > r.index("f2")))
' "$W/d.csv"
pv diff -f json 1 2 >"$W/d.json"
check "json parses, its rows the csv's" python3 -c '
import csv, json, sys
d = json.load(open(sys.argv[1]))
c = [x["function"] for x in csv.DictReader(open(sys.argv[2]))
    if x["section"] == "functions"]
sys.exit([x["function"] for x in d["functions"]] != c or
    d["diff"]["kind"] != "prfd")' "$W/d.json" "$W/d.csv"
pv diff -f html 1 2 >"$W/d.html"
check "html holds the functions" grep -q 'work!f5' "$W/d.html"
pv diff 1 2 >"$W/d.out"
check "text: a row per function with its delta %" \
    grep -Eq '^ +work!f5 +[0-9]+ +[0-9]+ +-[0-9]+ +-[0-9.]+$' "$W/d.out"
finish
