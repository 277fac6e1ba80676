#!/bin/sh
# profview diff of two pvtrace profiles of a known change: split's CPU
# time 5:3:2 in f5, f3 and f2, then turned round to 2:3:5, so f5 loses 30
# points of the run's CPU time, f3 none and f2 gains 30.  Each function's
# self+children CPU delta % within 3 points of that, by the samples (the
# table the diff shows first, the times the calls view shows) and by the
# traps, and each call path's by the traps (the clock's shares, which
# other work on the machine moves, are printed); calls and every time of
# every function against each profile's own report; csv, json and
# text.
: "${PROFVIEW:?PROFVIEW must name the built binary}"
. "${top_srcdir:-.}/tests/e2e/trace.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is needed"
pv() { "$PROFVIEW" --db "$W/t.db" "$@"; }
dc="$top_srcdir/tests/unit/diffcheck.py"
# near A B POINTS: |A - B| <= POINTS.
near() { awk -v a="$1" -v b="$2" -v p="$3" \
    'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= p) }'; }

trace a "$TD/split" split 1
trace b "$TD/split" swap 1
check "both runs traced" test "$(cat "$W/a.rc") $(cat "$W/b.rc")" = "0 0"
check "diff ingests both profiles and compares them" \
    pv -f csv -o "$W/d.csv" diff "$W/a.mon" "$W/b.mon"
# f  function-or-path  its delta % of self+children
python3 - "$W/d.csv" >"$W/d.txt" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    k = r.get('function') or r.get('path')
    if r['section'] == 'functions' and k in ('f5', 'f3', 'f2'):
        print(k, 'function', r['total_cpu_ns_delta_pct'],
              r['total_ns_delta_pct'])
    if r['section'] == 'samples' and k in ('f5', 'f3', 'f2'):
        print(k, 'sampled', r['total_cpu_ns_delta_pct'],
              r['total_real_ns_delta_pct'])
    if r['section'] == 'paths' and k in ('main;f5', 'main;f3', 'main;f2'):
        print(k[5:], 'path', r['total_cpu_ns_delta_pct'],
              r['total_ns_delta_pct'])
PY
sed 's/^/# CPU, clock: /' "$W/d.txt"
want() { case $1 in f5) echo -30 ;; f3) echo 0 ;; f2) echo 30 ;; esac; }
for f in f5 f3 f2; do
	for how in sampled function path; do
		d=$(awk -v f=$f -v h=$how '$1 == f && $2 == h { print $3 }' \
		    "$W/d.txt")
		case $how in
		sampled) by="from the samples" ;;
		*) by="by $how, at the traps" ;;
		esac
		check "$f: self+children CPU delta $by, ${d:-none} points,\
 the change made $(want $f)" near "${d:-1000}" "$(want $f)" 3
	done
done
pv export -f csv 1 >"$W/a.csv" && pv export -f csv 2 >"$W/b.csv"
# What self+children shares are of: the top paths' time (no parent).
top() {
	python3 -c '
import csv, sys
print(sum(int(r[sys.argv[2]]) for r in csv.DictReader(open(sys.argv[1]))
    if r["section"] == "paths" and r["parent"] == ""))' "$1" "$2"
}
for m in calls self_ns total_ns self_cpu_ns total_cpu_ns; do
	ta=sum tb=sum
	case $m in total*)
		ta=$(top "$W/a.csv" $m) tb=$(top "$W/b.csv" $m) ;;
	esac
	check "every function's $m: base, new, delta, delta % the reports'" \
	    python3 "$dc" "$W/d.csv" functions function $m "$W/a.csv" \
	    "$W/b.csv" functions function $m "$ta" "$tb"
done
# The samples' shares are of the program's time, the probe's excluded.
for m in self_cpu_ns total_cpu_ns; do
	check "every sampled function's $m: base, new, delta, delta % the\
 reports'" python3 "$dc" "$W/d.csv" samples function $m "$W/a.csv" \
	    "$W/b.csv" samples function $m mon:program_cpu_ns:value \
	    mon:program_cpu_ns:value
done
pv diff -f json 1 2 >"$W/d.json"
check "json: the three tables, paths named from the top" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
p = {x["path"] for x in d["paths"]}
sys.exit(d["diff"]["kind"] != "mon" or not {"main;f5", "main;f2"} <= p or
    not any(x["function"] == "f3" for x in d["functions"]) or
    not any(x["function"] == "f3" for x in d["samples"]))' "$W/d.json"
pv diff 1 2 >"$W/d.out"
check "text: times in ms for people" grep -q 'self+children delta ms' \
    "$W/d.out"
finish
