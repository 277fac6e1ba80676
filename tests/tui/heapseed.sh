#!/bin/sh
# Screen test: HeapInspector's commands the other heap tests leave out, on
# pvheap's snapshot of tests/data/heap/typed: Index stepping a trace
# through an array (typed.c's table[16], every third set); values from
# what the program printed or what "profview heap trace" answers.
. "${top_srcdir:-.}/tests/tui/lib.sh"
plan 6
build=$(cd "${top_builddir:-.}" && pwd)
PVHEAP=$build/capture/pvheap/pvheap
TYPED=$build/tests/data/heap/typed
if ! [ -x "$PVHEAP" ] || ! [ -x "$TYPED" ] || ! (cd "$dir" &&
    "$PVHEAP" -q -o typed.heap -- "$TYPED" > typed.out 2>/dev/null) ||
    ! "$PROFVIEW" --db "$dir/db" ingest "$dir/typed.heap" >/dev/null 2>&1
then
	for i in 1 2 3 4 5 6; do
		skip "typed" "pvheap or the test program not built"
	done
	finish
fi
# trace PATH: where it points, as the CLI's trace says.
trace() {
	printf '%#x' "$("$PROFVIEW" --db "$dir/db" heap --csv 1 trace "$1" |
	    sed 1d | cut -d, -f3)"
}
t3=$(sed -n 's/^trace typed:table\[3\] //p' "$dir/typed.out")
nb=$(sql "SELECT count(*) FROM heap_block WHERE session = 1")
start -- "$dir/typed.heap"
wait_for "loaded $nb objects"

# Index: [index] in a trace path is its value; a change traces again.
keys :
keys -l "index 3"
keys Enter
wait_for "index 3"
keys :
keys -l "select trace typed:table[index]"
keys Enter
wait_for "selected 1 objects: trace typed:table[3] = $t3"
ok $? ":index 3, :select trace typed:table[index]: table[3] = $t3, as typed printed"
keys :
keys -l "index next"
keys Enter
wait_for "selected 0 objects: trace typed:table[4]"
ok $? ":index next: traced again at 4, NULL in typed.c"
t6=$(trace 'typed:table[6]')
keys :
keys -l "index 6"
keys Enter
wait_for "selected 1 objects: trace typed:table[6] = $t6"
ok $? ":index 6: table[6] = $t6"
keys :
keys -l "index previous"
keys Enter
wait_for "selected 0 objects: trace typed:table[5]"
keys :
keys -l "index using"
keys Enter
wait_for "index 5, used by :select trace typed:table[index]"
ok $? ":index using: the trace that uses it"
keys :
keys -l "index reset"
keys Enter
wait_for "selected 1 objects: trace typed:table[0] = $(trace 'typed:table[0]')"
ok $? ":index reset: 0, table[0]"
keys :
keys -l "select off"
keys Enter
keys :
keys -l "index using"
keys Enter
wait_for "index 0; no selection uses it"
ok $? "another :select forgets the path"
keys q q
finish
