#!/bin/sh
# Screen test: the heap map's leak lists (issue 22, point 1) on a pvheap
# snapshot of tests/data/heap/tree: Leaks, LeaksBottomUp, LeaksTopDown
# and Live are the CLI's (profview heap S leaks, bottom-up, top-down,
# live), and Enter marks a row's blocks on the map.
. "${top_srcdir:-.}/tests/tui/lib.sh"

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

build=$(cd "${top_builddir:-.}" && pwd)
PVHEAP=$build/capture/pvheap/pvheap
TREE=$build/tests/data/heap/tree
if ! [ -x "$PVHEAP" ] || ! [ -x "$TREE" ] || ! (cd "$dir" &&
    "$PVHEAP" -o tree.heap -- "$TREE" >/dev/null 2>&1) ||
    ! "$PROFVIEW" --db "$dir/db" ingest "$dir/tree.heap" >/dev/null; then
	for i in 1 2 3 4 5 6; do
		skip "stored session" "pvheap or the test program not built"
	done
	finish
fi
pvsize="160 40" start -- "$dir/tree.heap"
nlost=$(sqlite3 "$dir/db" "SELECT definite_blocks + indirect_blocks FROM
    heap WHERE session = 1")
wait_for "loaded " &&
    keys Tab Tab Tab Tab Tab Tab Tab Tab Tab && wait_for "info: Leaks" &&
    wait_for "Leaks [i: keys here] $nlost: lost blocks by allocation stack: $nlost records"
ok $? "Tab to Leaks: its $nlost records"
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
