#!/bin/sh
# Screen test: HeapInspector's commands the other heap tests leave out, on
# pvheap's snapshot of tests/data/heap/typed: Index stepping a trace
# through an array (typed.c's table[16], every third set); values from
# what the program printed or what "profview heap trace" answers.
. "${top_srcdir:-.}/tests/tui/lib.sh"
plan 13
build=$(cd "${top_builddir:-.}" && pwd)
PVHEAP=$build/capture/pvheap/pvheap
TYPED=$build/tests/data/heap/typed
if ! [ -x "$PVHEAP" ] || ! [ -x "$TYPED" ] || ! (cd "$dir" &&
    "$PVHEAP" -q -o typed.heap -- "$TYPED" > typed.out 2>/dev/null) ||
    ! "$PROFVIEW" --db "$dir/db" ingest "$dir/typed.heap" >/dev/null 2>&1
then
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13; do
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
nb=$(pvsql "SELECT count(*) FROM heap_block WHERE session = 1")
nb2=
pvsize="140 30"
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

# :help NAME: a seed's name at length, what it is in C; profview.1's list
# of them (keytable's, from the same table) all open.
keys :
keys -l "help GCOnOff"
keys Enter
wait_for "profview: help for :GCOnOff" &&
    wait_for "HeapInspector.GCOnOff" && wait_for "No sense in C or C++"
ok $? ":help GCOnOff: no collector in C, it says so"
keys q
keys :
keys -l "help HeapInspector.ZoomOut"
keys Enter
wait_for -E "in profview +:zoomout \[N%\]" &&
    wait_for -E ":zoomout \[N%\] +heap map: the whole heap in view"
ok $? ":help HeapInspector.ZoomOut: the seed's, ours, and our command's line"
keys q
keys :
keys -l "help frob"
keys Enter
wait_for "error: :help frob: no command or seed name frob"
ok $? ":help of no name says so"
bad=
for seed in $(sed -n '/^The seed.s names in the heap map/,/^\.El/s/^\.It Li //p' \
    "${top_srcdir:-.}/man/profview.1"); do
	keys :
	keys -l "help $seed"
	keys Enter
	wait_for "profview: help for :$seed (q closes)" &&
	    wait_for -E "seed's name +$seed\$" || bad="$bad $seed"
	keys q
	wait_gone "profview: help for :$seed"
done
[ -z "$bad" ] && [ -n "$seed" ]
ok $? "every seed name profview.1 lists opens its help (the last: $seed)${bad:+; not:$bad}"

# Update on a stored snapshot, no program to ask: the newest file pvheap
# named for the same program in the same directory, if newer.
keys :
keys -l "update"
keys Enter
wait_for "update: no snapshot of typed newer than typed.heap in $dir; session 1 stays"
ok $? ":update with no newer snapshot says so"
(cd "$dir" && "$PVHEAP" -q -o typed.2.heap -- "$TYPED" >/dev/null 2>&1)
touch -d '1 minute' "$dir/typed.2.heap"
keys :
keys -l "update"
keys Enter
wait_for "update: session 2, another run of the program: not compared" &&
    nb2=$(pvsql "SELECT count(*) FROM heap_block WHERE session = 2") &&
    wait_for "profview: typed: heap map, $nb2 objects" &&
    [ "$(sql "SELECT source FROM session WHERE id = 2")" = "$dir/typed.2.heap" ]
ok $? ":update: typed.2.heap as session 2 ($nb2 objects), another run: no born or freed"
nm=$(sql "SELECT count(*) FROM heap_module WHERE session = 2 AND unloaded = 0")
pid=$(sql "SELECT pid FROM heap WHERE session = 2")
keys :
keys -l "updatemodules"
keys Enter
wait_for "$nm modules loaded in session 2; no earlier snapshot of this run (pid $pid) to compare"
ok $? ":updatemodules: $nm modules, no earlier snapshot of that run"
keys q q
finish
