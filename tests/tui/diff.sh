#!/bin/sh
# Screen test: the diff view, opened by :compare ID from a session's view,
# on the examples' two simulated overlay logs (OVRDEMO, the baseline, and
# TUNING, which adds UNIT3-5).  Expected numbers come from profview diff
# -f csv of the same two sessions, never from the screen; the keys: sort,
# measure, search, Enter into the new session (its timeline, once loaded,
# searched for the unit) and b into the baseline, and :export; then Enter
# on a heap snapshot's stack, which the heap map, once loaded, marks.
. "${top_srcdir:-.}/tests/tui/lib.sh"
plan 17
src=${top_srcdir:-.}
"$PROFVIEW" --db "$dir/db" ingest "$src/examples/OVRDEMO-simulated.OVD" \
    "$src/examples/TUNING-simulated.OVD" >/dev/null || exit 1
"$PROFVIEW" --db "$dir/db" diff -f csv 1 2 >"$dir/d.csv" || exit 1
# row UNIT MEASURE: "UNIT ONLY BASE NEW DELTA DELTA%" as the view shows it.
row() {
	python3 - "$dir/d.csv" "$1" "$2" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r['section'] == 'units' and r['unit'] == sys.argv[2]:
        m = sys.argv[3]
        print(r['unit'], 'new' if r['only'] == 'new' else '-',
              r[m + '_base'], r[m + '_new'], r[m + '_delta'],
              '%.2f' % float(r[m + '_delta_pct']))
PY
}
# on_screen UNIT MEASURE: the row's line, its only column "-" when blank.
on_screen() {
	screen | awk -v u="$1" '$1 == u {
		if (NF == 5) $1 = $1 " -"; else $1 = $1
		print
	}' | head -1
}
shows() { [ "$(on_screen "$1")" = "$(row "$1" "$2")" ]; }

start -- browse 2
wait_for "profview: TUNING-simulated: overlay timeline"
ok $? "browse 2 opens the new log's timeline"
keys ':compare 1' Enter
wait_for "profview: diff: Overlay units, loads by |delta %|; 1 OVRDEMO"
ok $? ":compare 1 opens the diff view, session 1 the baseline"
wait_until shows UNIT1 loads && wait_until shows UNIT4 loads
ok $? "rows as profview diff gives them: $(row UNIT1 loads)"
first=$(python3 -c '
import csv, sys
print([r["unit"] for r in csv.DictReader(open(sys.argv[1]))
    if r["section"] == "units"][0])' "$dir/d.csv")
wait_until sh -c "$T capture-pane -p | sed -n 3p | grep -q '^$first '"
ok $? "the largest |delta %| first ($first), as the report"
wait_for -E "^UNIT3 +new "
ok $? "a unit only the new log has is marked new"
keys s
wait_for "loads by |delta|;" && wait_until sh -c \
    "$T capture-pane -p | sed -n 3p | grep -q '^UNIT3 '"
ok $? "s sorts by |delta|: UNIT3's 30 more loads first"
keys m
wait_for "Overlay units, discards by |delta|" && wait_until shows UNIT2 discards
ok $? "m shows the next measure, discards: $(row UNIT2 discards)"
keys / UNIT4 Enter
wait_for "/UNIT4: 1/1"
ok $? "/ searches the rows"
keys Enter
wait_for "profview: TUNING-simulated: overlay timeline"
ok $? "Enter opens the row's session, the new one for a new unit"
n4=$("$PROFVIEW" --db "$dir/db" sql --csv "SELECT count(*) FROM ovr_event e
    JOIN ovr_unit u ON u.session = e.session AND u.stat_seg = e.ovr_seg
    WHERE e.session = 2 AND u.name = 'UNIT4'" | tail -1)
wait_for "/UNIT4: 1/$n4" && wait_for -E "^event [0-9]+: .* of UNIT4 "
ok $? "the timeline, once loaded, searched for the unit: its $n4 events"
keys q
wait_for "profview: diff: Overlay units" && keys / UNIT1 Enter &&
    wait_for "/UNIT1: 1/1" && keys b
wait_for "profview: OVRDEMO-simulated: overlay timeline"
ok $? "b opens the baseline session"
keys q
wait_for "profview: diff: Overlay units"
keys ":export csv $dir/x.csv" Enter
wait_file "$dir/x.csv" && wait_for "wrote $dir/x.csv"
ok $? ":export writes the diff"
check ":export's csv is profview diff's" cmp -s "$dir/x.csv" "$dir/d.csv"
keys ':compare 1' Enter
wait_for "error: :compare works in a session's view, not in the diff view"
ok $? ":compare where there is no session says so"
keys q
wait_for "profview: TUNING-simulated: overlay timeline" &&
    keys ':diff 1' Enter && wait_for "profview: diff: Overlay units"
ok $? ":diff is :compare's other name"

# The heap map loads in the background too: Enter on a stack marks its
# objects once the graph is made, as many as the diff's live blocks,
# and puts the Live table's cursor on its row.
"$PROFVIEW" --db "$dir/db" ingest "$src/examples/wordfreq.heap" >/dev/null ||
    exit 1
"$PROFVIEW" --db "$dir/db" diff -f csv 3 3 >"$dir/h.csv" || exit 1
stack="wf_alloc < lookup < count_words < main"
blocks=$(python3 - "$dir/h.csv" "$stack" <<'PY'
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r['section'] == 'stacks' and r['stack'].startswith(sys.argv[2] + ' '):
        print(r['live_blocks_new'])
PY
)
start -- browse 3
wait_for "profview: wordfreq" && keys ':diff 3' Enter &&
    wait_for "profview: diff: " && keys / "$stack" Enter &&
    wait_for "/$stack: 1/1" && keys Enter
wait_for "marked $blocks objects: stack $stack"
ok $? "Enter on a heap stack marks its $blocks live objects once loaded"
# The Live table's first record of the stack, as profview heap live lists
# them: Enter there marks that record's objects.
first=$("$PROFVIEW" --db "$dir/db" heap --csv 3 live | python3 -c '
import csv, re, sys
for r in csv.DictReader(sys.stdin):
    if re.sub(r" \([^)]*:[0-9]+\)", "", r["stack"]).startswith(sys.argv[1] +
        " "):
        print(r["blocks"], r["state"])
        break' "$stack")
keys Enter
wait_for "marked ${first%% *} objects: ${first#* } wf_alloc"
ok $? "with the Live table's keys, its cursor on the stack's first row ($first)"
finish
