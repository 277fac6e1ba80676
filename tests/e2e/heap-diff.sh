#!/bin/sh
# profview diff of two snapshots of one run with known changes between
# them (tests/data/heap/phases.c): by allocation stack, kept_a's 10
# blocks of 100 bytes then 13 (3 new), gone_b's 7 of 200 all freed (a
# row of the baseline only), new_c's 5 of 300 all new (a row of the new
# snapshot only) with 2 of them lost; every count exact, and the other
# stacks (the C library's) with nothing new or gone; csv, json, html and
# text.
. "${top_srcdir:-.}/tests/e2e/heap.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is needed"
heap_setup heap-diff
PROFVIEW=${PROFVIEW:-$build/profview}
pv() { "$PROFVIEW" --db "$W/t.db" "$@"; }
plan 8

usr2=$(python3 -c 'import signal; print(int(signal.SIGUSR2))')
pvheap x --signal USR2 --at-exit -- "$HEAPBIN/phases" "$W/x.1.heap" "$usr2"
check "a snapshot at the signal, one at exit" test "$pv_rc" = 0 -a \
    -s "$W/x.1.heap" -a -s "$W/x.heap"
check "diff ingests both snapshots and compares them" \
    pv -f csv -o "$W/d.csv" diff "$W/x.1.heap" "$W/x.heap"
# row FUNCTION: the diff's row of the stack whose innermost frame it is.
row() {
	python3 - "$W/d.csv" "$1" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r['section'] == 'stacks' and r['stack'].split(' < ')[0] == sys.argv[2]:
        print(' '.join(r[k] or '-' for k in ('only', 'live_blocks_base',
            'live_bytes_base', 'live_blocks_new', 'live_bytes_new',
            'collectable_blocks_base', 'collectable_blocks_new',
            'collectable_bytes_new', 'new_blocks', 'new_bytes',
            'gone_blocks', 'gone_bytes')))
PY
}
# only, live blocks and bytes base then new, collectable blocks base and
# new and bytes new, new blocks and bytes, gone blocks and bytes.
check "kept_a: 10 blocks, 1000 bytes, then 13 and 1300; 3 new, 300 bytes" \
    test "$(row kept_a)" = "- 10 1000 13 1300 0 0 0 3 300 0 0"
check "gone_b: 7 blocks, 1400 bytes, all gone; the baseline's only" \
    test "$(row gone_b)" = "baseline 7 1400 0 0 0 0 0 0 0 7 1400"
check "new_c: 5 blocks, 1500 bytes, all new, 2 collectable (600); new only" \
    test "$(row new_c)" = "new 0 0 5 1500 0 2 600 5 1500 0 0"
check "no other stack has a block new or gone" python3 -c '
import csv, sys
sys.exit(any(r["section"] == "stacks" and r["stack"].split(" < ")[0] not in
    ("kept_a", "gone_b", "new_c") and (float(r["new_blocks"]) or
    float(r["gone_blocks"])) for r in csv.DictReader(open(sys.argv[1]))))' \
    "$W/d.csv"
pv diff -f json 1 2 >"$W/d.json"
check "json: live bytes delta % of each side's total, gone_b first" \
    python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
h, s = d["diff"], d["stacks"]
tb, tn = h["stacks_live_bytes_total_base"], h["stacks_live_bytes_total_new"]
ok = all(abs(x["live_bytes_delta_pct"] - (100 * x["live_bytes_new"] / tn -
    100 * x["live_bytes_base"] / tb)) < 1e-3 for x in s)
sys.exit(not ok or not s[0]["stack"].startswith("gone_b <"))' "$W/d.json"
pv diff -f html 1 2 >"$W/d.html"
pv diff 1 2 >"$W/d.out"
check "html and text name the three stacks" sh -c '
for f in kept_a gone_b new_c; do
	grep -q "$f &lt; main\|$f < main" "$1" && grep -q "^ *$f < main" "$2" ||
	    exit 1
done' - "$W/d.html" "$W/d.out"
finish
