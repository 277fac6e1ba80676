#!/bin/sh
# profview diff of two pvprf dumps of a known change: the workload's CPU
# split 5:3:2 in f5, f3 and f2 turned round to 2:3:5, so f5 loses 30
# points, f3 none and f2 gains 30 of the workload's time, which is what
# the three functions hold of the run time (the rest, some 10 %, is the
# kernel's, reading the CPU clock); each delta % within 3 points of that
# change of the run's shares, and the difference of the shares each
# session's own report gives (of the run time); every format written,
# csv and json parsed.  Then a pair of version 2 dumps where the change
# is in a shared library: modwork's 50:30:20 in libprfdmod.so's lib_five
# and lib_three and its own own_two turned to 20:48:32 (modwork swap),
# every function of every module compared, shares of the run time as
# the reports give them; and a version 1 dump's base, its run time too.
. "${top_srcdir:-.}/tests/prfd/prfd.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is needed"
WORK=$top_builddir/tests/prfd/work
PROFVIEW=${PROFVIEW:-$top_builddir/profview}
pv() { "$PROFVIEW" --db "$W/t.db" "$@"; }
plan 16

# ofrun A.csv B.csv CHANGE SYMBOL...: CHANGE points of the workload as
# points of the run time: scaled by the share of the run the symbols
# hold, the two reports' mean.
ofrun() {
	python3 - "$@" <<'PY'
import csv, sys
a, b, change = sys.argv[1], sys.argv[2], float(sys.argv[3])
share = [sum(float(r['percent']) for r in csv.DictReader(open(p))
    if r['section'] == 'flat' and r['symbol'] in sys.argv[4:])
    for p in (a, b)]
print('%.2f' % (change * (share[0] + share[1]) / 200))
PY
}

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
pv export -f csv 1 >"$W/a.csv" && pv export -f csv 2 >"$W/b.csv"
want() { case $1 in f5) echo -30 ;; f3) echo 0 ;; f2) echo 30 ;; esac; }
for f in f5 f3 f2; do
	d=$(awk -v f=$f '$1 == f { print $3 }' "$W/d.txt")
	w=$(ofrun "$W/a.csv" "$W/b.csv" "$(want $f)" f5 f3 f2)
	check "$f: delta ${d:-none} points, the change made $(want $f) of\
 the workload, $w of the run" near "${d:-1000}" "$w" 3
done
check "the functions are named module!function, on both sides" \
    sh -c '[ "$(awk '\''$2 ~ /^work!f[532]$/ && $4 == "" '\'' "$1" |
    wc -l)" -eq 3 ]' - "$W/d.txt"
# reports DIFF.csv A.csv B.csv [FUNCTION...]: the diff's rows (those
# named, else every one) have the samples of the two reports' flat rows
# and the difference of their shares of the run time ("of run %") as
# delta %, to 0.01 point.
reports() {
	python3 - "$@" <<'PY'
import csv, sys
def rep(p):
    h = {}
    for r in csv.DictReader(open(p)):
        if r['section'] == 'flat':
            k = r['symbol']
            if r['module'] and not k.startswith('('):
                k = r['module'].split('/')[-1] + '!' + k
            x = h.get(k, (0, 0.0))
            h[k] = (x[0] + int(r['hits']), x[1] + float(r['percent']))
    return h
a, b = rep(sys.argv[2]), rep(sys.argv[3])
only = sys.argv[4:]
bad = 0
n = 0
for r in csv.DictReader(open(sys.argv[1])):
    if r['section'] != 'functions':
        continue
    f = r['function']
    if only and f.split('!')[-1] not in only:
        continue
    n += 1
    x, y = a.get(f, (0, 0.0)), b.get(f, (0, 0.0))
    got = [int(r['samples_base']), int(r['samples_new']),
           int(r['samples_delta']), float(r['samples_delta_pct'])]
    if got[:3] != [x[0], y[0], y[0] - x[0]] or \
            abs(got[3] - (y[1] - x[1])) > 0.01:
        print('%s: diff %s, reports %s %s' % (f, got, x, y),
              file=sys.stderr)
        bad = 1
sys.exit(bad or not a or not b or n < max(len(only), 1))
PY
}
check "f5, f3, f2: samples and delta % are the reports' (of run %)" \
    reports "$W/d.csv" "$W/a.csv" "$W/b.csv" f5 f3 f2
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

# Version 2: the split moved between a library's functions.
MODWORK=$top_builddir/tests/prfd/modwork
"$PVPRF" record -F 4000 -o "$W/ma.prfd" -- "$MODWORK" 2 >/dev/null 2>&1
"$PVPRF" record -F 4000 -o "$W/mb.prfd" -- "$MODWORK" swap 2 \
    >/dev/null 2>&1
check "diff compares two version 2 dumps" \
    pv -f csv -o "$W/m.csv" diff "$W/ma.prfd" "$W/mb.prfd"
pv export -f csv 3 >"$W/ma.csv" && pv export -f csv 4 >"$W/mb.csv"
for f in libprfdmod.so!lib_five:-30 libprfdmod.so!lib_three:18 \
    modwork!own_two:12; do
	d=$(python3 -c '
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["section"] == "functions" and r["function"] == sys.argv[2]:
        print(r["samples_delta_pct"])' "$W/m.csv" "${f%:*}")
	w=$(ofrun "$W/ma.csv" "$W/mb.csv" "${f#*:}" lib_five lib_three \
	    own_two)
	check "${f%:*}: delta ${d:-none} points, the change made ${f#*:} of\
 the workload, $w of the run" near "${d:-1000}" "$w" 3
done
check "every module's functions: samples and delta % are the reports'" \
    reports "$W/m.csv" "$W/ma.csv" "$W/mb.csv"
# A version 1 dump (wordfreq's: its shared memory and kernel samples in
# counters, 123 of its 199 in the hit table) has its run as the base too.
WF=$top_srcdir/examples/wordfreq.prfd
pv -f csv diff "$WF" "$WF" >"$W/wf.csv" && pv export -f csv "$WF" >"$W/w.csv"
check "shares are of each dump's run time, the reports' (v2, v1)" python3 -c '
import csv, sys
def kv(p, sec):
    return {r["key"]: r["value"] for r in csv.DictReader(open(p))
        if r["section"] == sec}
bad = 0
for d, a, b in ((1, 2, 3), (4, 5, 5)):
    t = kv(sys.argv[d], "diff")
    ra, rb = kv(sys.argv[a], "prfd"), kv(sys.argv[b], "prfd")
    print("# base %s new %s, runs %s %s" % (
        t.get("functions_samples_total_base"),
        t.get("functions_samples_total_new"), ra.get("run"), rb.get("run")))
    bad |= t.get("functions_samples_total_base") != ra.get("run") or \
        t.get("functions_samples_total_new") != rb.get("run") or \
        "run" not in ra
sys.exit(bad)
' "$W/m.csv" "$W/ma.csv" "$W/mb.csv" "$W/wf.csv" "$W/w.csv"
finish
