#!/bin/sh
# Screen test: the heap map's leak lists (issue 22, point 1) and its
# first screen (point 5).  A snapshot with leaks opens with them marked and
# the Leaks list below, the status line saying so; one without, on the
# Live list (the stacks that hold the most bytes).  The lists are the
# CLI's (profview heap S leaks, live, bottom-up, top-down), and Enter
# marks a row's blocks on the map.  The tree snapshot is pvheap's of
# tests/data/heap/tree (38 lost blocks).
. "${top_srcdir:-.}/tests/tui/lib.sh"
unset PROFVIEW_HEAPMAP_FIRST

# rows HEAD N: the N lines under the column heads matching HEAD, with runs
# of blanks as one.
rows() {
	screen | grep -A "$2" -E "$1" | tail -n "$2" |
	    sed 's/^ *//; s/  */ /g; s/ *$//'
}
same() { printf '%s\n' "$1" > "$dir/want"; printf '%s\n' "$2" > "$dir/got"
	diff "$dir/want" "$dir/got" >&2; }
rows_match() { [ "$(rows "$2" "$3")" = "$1" ]; }
rows_are() { wait_until rows_match "$@" || same "$1" "$(rows "$2" "$3")"; }
HEAD='rank. state +blocks +bytes +allocated at'
# cli SHAPE... : the CLI's rows as the table shows them: rank, state,
# blocks, bytes and the stack cut where the 160-column pane cuts it.
cli() {
	"$PROFVIEW" --db "$dir/db" heap --csv 1 "$@" | python3 -c '
import csv, sys
for i, r in enumerate(list(csv.DictReader(sys.stdin))[:int(sys.argv[1])]):
    where = "  " * int(r["depth"]) + (r["stack"] or r["function"])
    line = "%d %s %s %s %s" % (i + 1, r["state"], r["blocks"], r["bytes"],
        where[:160 - 43])
    print(" ".join(line.split()))' "$N"
}

# A snapshot without leaks, for tests/tui/heapmap-demo: a root holds a
# list of three blocks, one from main, two from make.
printf 'program\tnoleak\nmodule\tapp\nregion\t0x1000\t0x2000\theap
type\t0\tNode\nframe\tmain\tapp.c\t9\nframe\tmake\tapp.c\t4
frame\tmain\tapp.c\t12\nsite\t0\t1\nsite\t1\t2
block\t0x1010\t100\t104\t0\t0\nblock\t0x1100\t40\t40\t0\t1
block\t0x1200\t40\t40\t0\t1\nroot\t0\thead\nredge\t0\t0\nedge\t0\t1
edge\t1\t2\n' > "$dir/noleak.heap"
heapdemo "$dir/noleak.heap"
$T resize-window -x 160 -y 30
wait_for "; no leaks: the stacks holding the most bytes below"
ok $? "no leaks: the status line says so"
wait_for "Live [i: keys here] 2: live blocks by allocation stack: 2 records, 3 blocks, 180 bytes" &&
    rows_are "1 still reachable 1 100 main (app.c:9)
2 still reachable 2 80 make (app.c:4) < main (app.c:12)" "$HEAD" 2
ok $? "no leaks: the Live list, most bytes first, nothing marked"
keys q
restored

build=$(cd "${top_builddir:-.}" && pwd)
PVHEAP=$build/capture/pvheap/pvheap
TREE=$build/tests/data/heap/tree
if ! [ -x "$PVHEAP" ] || ! [ -x "$TREE" ] || ! (cd "$dir" &&
    "$PVHEAP" -o tree.heap -- "$TREE" >/dev/null 2>&1) ||
    ! "$PROFVIEW" --db "$dir/db" ingest "$dir/tree.heap" >/dev/null; then
	for i in 1 2 3 4 5 6 7; do
		skip "stored session" "pvheap or the test program not built"
	done
	finish
fi
pvsize="160 40" start -- "$dir/tree.heap"
lost=$(sqlite3 "$dir/db" "SELECT (definite_blocks + indirect_blocks) ||
    ' lost blocks, ' || (definite_bytes + indirect_bytes) || ' bytes'
    FROM heap WHERE session = 1")
wait_for "loaded " && wait_for "; leaks: $lost, marked (c), by stack below"
ok $? "leaks: the status line says so ($lost)"
nlost=$(sqlite3 "$dir/db" "SELECT definite_blocks + indirect_blocks FROM
    heap WHERE session = 1")
wait_for -E "collectable $nlost \\(" && wait_for "Leaks [i: keys here] "
ok $? "leaks: marked on the map ($nlost collectable in the legend), the Leaks list below"
N=4
rows_are "$(cli leaks)" "$HEAD" $N
ok $? "Leaks: the CLI's loss records, most bytes first"
keys i Home Enter
wait_for -E "marked 1 objects: (definitely|indirectly) lost grow "
ok $? "Enter on a record: its block marked"
keys Tab
rows_are "$(cli leaks bottom-up)" "$HEAD" $N &&
    keys Home Enter && wait_for "marked $nlost objects: grow"
ok $? "LeaksBottomUp: grow, its records under it; Enter marks all $nlost"
keys Tab
rows_are "$(cli leaks top-down)" "$HEAD" $N
ok $? "LeaksTopDown: from _start in, as the CLI's"
keys Tab
rows_are "$(cli live)" "$HEAD" $N
ok $? "Live: every live block by stack, as the CLI's"
keys q q
finish
