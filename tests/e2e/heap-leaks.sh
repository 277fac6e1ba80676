#!/bin/sh
# profview heap S leaks and live against memcheck's loss records
# (--leak-resolution=high: one record per allocation stack and state) on
# programs with known leaks: tree (indirectly lost subtrees), vtables
# (C++, new'd objects lost), and two real programs from Debian: perl,
# which leaves its interpreter lost at exit, and mawk (a possibly lost
# block).  Both sides take whole stacks (pvheap --depth 64, memcheck
# --num-callers 65 with its allocator's frame), so that merging by stack
# is the same on both.  The trees over the records add up to them.
. "${top_srcdir:-.}/tests/e2e/heap.sh"

heap_setup heap-leaks valgrind
PV=${PROFVIEW:-$build/profview}
LOSSREC="$top_srcdir/tests/e2e/heap-lossrec.py"
db="$W/pv.db"

# run NAME PROG [ARGS]: under memcheck (W/NAME.vg) and pvheap, ingested;
# W/NAME.json is its live records.
run()
{
	name=$1
	shift
	valgrind --leak-check=full --show-leak-kinds=all \
	    --leak-resolution=high --num-callers=65 --read-inline-info=no \
	    --run-libc-freeres=no --run-cxx-freeres=no \
	    --log-file="$W/$name.vg" "$@" > /dev/null 2>&1
	pvheap "$name" --depth 64 -- "$@"
	id=$("$PV" --db "$db" ingest "$W/$name.heap" | cut -f1)
	"$PV" --db "$db" heap --json "$id" live > "$W/$name.json"
}

# same NAME DESC [STATE...]: the records of those states are memcheck's.
same()
{
	name=$1
	desc=$2
	shift 2
	check "$name: $desc" sh -c 'l=$1 f=$2; shift 2
	    python3 "$l" "$f.vg" "$f.json" "$@" > "$f.cmp"' sh "$LOSSREC" \
	    "$W/$name" "$@"
}

run tree "$HEAPBIN/tree"
same tree "every record, reachable, definitely and indirectly lost"
"$PV" --db "$db" heap --json "$id" leaks > "$W/tree.leaks"
check "tree: leaks is live's lost records, most bytes first" python3 -c '
import json, sys
live = json.load(open(sys.argv[1])); lost = json.load(open(sys.argv[2]))
want = [r for r in live if r["state"] != "still reachable"]
assert lost == want and lost, (len(lost), len(want))
assert all(a["bytes"] >= b["bytes"] for a, b in zip(lost, lost[1:]))
assert {r["collectable"] for r in lost} == {1}' "$W/tree.json" "$W/tree.leaks"
"$PV" --db "$db" export -f json "$id" > "$W/tree.export"
for f in text csv html; do
	"$PV" --db "$db" export -f $f "$id" > "$W/tree.export.$f"
done
check "tree: the report's leaks, in every format, are the question's" \
    sh -c 'python3 -c "
import json, sys
assert json.load(open(sys.argv[1]))[\"leaks\"] == json.load(open(sys.argv[2]))
" "$1" "$2" && grep -q "^Leaks by allocation stack" "$3" &&
    [ "$(grep -c "^leaks,,,,[0-9]*,[0-9]*,.*lost," "$4")" = \
    "$(python3 -c "import json, sys; print(len(json.load(open(sys.argv[1]))))" \
    "$2")" ] && grep -q "Leaks by allocation stack" "$5"' sh \
    "$W/tree.export" "$W/tree.leaks" "$W/tree.export.text" \
    "$W/tree.export.csv" "$W/tree.export.html"
for shape in bottom-up top-down; do
	"$PV" --db "$db" heap --csv "$id" live $shape > "$W/tree.$shape"
done
check "tree: bottom-up's functions and top-down's outermost frames add up to the records" \
    python3 -c '
import csv, json, sys
live = json.load(open(sys.argv[1]))
want = (sum(r["blocks"] for r in live), sum(r["bytes"] for r in live))
for f in sys.argv[2:]:
    top = [r for r in csv.DictReader(open(f)) if r["depth"] == "0"]
    got = (sum(int(r["blocks"]) for r in top), sum(int(r["bytes"]) for r in top))
    assert got == want, (f, got, want)' "$W/tree.json" "$W/tree.bottom-up" \
    "$W/tree.top-down"
check "tree: bottom-up has grow with its records under it, top-down starts at _start" \
    sh -c 'grep -q "^0,,,[0-9]*,[0-9]*,grow," "$1" &&
    grep -q "^1,indirectly lost,1,1,24,grow," "$1" &&
    sed -n 2p "$2" | grep -q "^0,,,.*,_start "' sh \
    "$W/tree.bottom-up" "$W/tree.top-down"

run vtables "$HEAPBIN/vtables"
same vtables "every record of the C++ program's"

if command -v perl > /dev/null 2>&1; then
	# Its hashes seeded alike under both.  Its possibly lost and
	# reachable records hold its copy of the environment, which
	# valgrind and pvheap each add their own variables to.
	PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0 run perl perl -e 1
	same perl "definitely and indirectly lost records" \
	    "definitely lost" "indirectly lost"
	check "perl: leaks has them, with file:line or module for each frame" \
	    sh -c '"$1" --db "$2" heap --csv "$3" leaks | grep -q \
	    "^0,definitely lost,1,[0-9]*,[0-9]*,[^,]*,.* (perl) < "' sh \
	    "$PV" "$db" "$id"
else
	skip "perl: its records" "perl not installed"
	skip "perl: leaks" "perl not installed"
fi
if command -v mawk > /dev/null 2>&1; then
	run mawk mawk 'BEGIN { for (i = 0; i < 100; i++) a[i] = i "x";
	    n = split("a b c", b); s = sprintf("%d", n); gsub(/a/, "b", s) }'
	same mawk "every record, possibly lost and reachable"
else
	skip "mawk: its records" "mawk not installed"
fi
finish
