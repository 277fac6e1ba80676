#!/bin/sh
# Screen test: C++ names in the heap map, on pvheap's snapshot of
# tests/data/heap/names.  Tab completes a variable demangled, alone or as
# module:variable; :select onlyanchoredby takes it so and as its symbol;
# a block of no type shows its allocation site as a site.  Counts come
# from the store.
. "${top_srcdir:-.}/tests/tui/lib.sh"
plan 8
build=$(cd "${top_builddir:-.}" && pwd)
PVHEAP=$build/capture/pvheap/pvheap
NAMES=$build/tests/data/heap/names
if ! [ -x "$PVHEAP" ] || ! [ -x "$NAMES" ] || ! (cd "$dir" &&
    "$PVHEAP" -q -o names.heap -- "$NAMES" >/dev/null 2>&1) ||
    ! "$PROFVIEW" --db "$dir/db" ingest "$dir/names.heap" >/dev/null; then
	for i in 1 2 3 4 5 6 7 8; do
		skip "names" "pvheap or the test program not built"
	done
	finish
fi
# What a root anchors, as profview heap counts it (its own test checks
# that against the program).
anchored() {
	"$PROFVIEW" --db "$dir/db" heap --csv 1 anchored-by "$1" | sed 1d |
	    wc -l | tr -d ' '
}
nb=$(pvsql "SELECT count(*) FROM heap_block WHERE session = 1")
pvsize="120 30"
start -- "$dir/names.heap"
wait_for "loaded $nb objects"

# The space Tab adds shows in the next line (tmux trims the screen's).
keys : "select onlyanchoredby g_sh" Tab
wait_for -E "^:select onlyanchoredby g_shapes\$"
ok $? "Tab completes g_sh to the variable g_shapes (_Z8g_shapesB5cxx11)"
keys Enter
wait_for "selected $(anchored g_shapes) objects: only anchored by g_shapes"
ok $? "... and :select onlyanchoredby g_shapes takes it"
keys : "select onlyanchoredby names:app::cu" Tab
wait_for -E "^:select onlyanchoredby names:app::current\$"
ok $? "Tab completes module:app::cu to names:app::current"
keys Enter
keys : "select onlyanchoredby _ZL7current" Enter
wait_for "selected $(anchored current) objects: only anchored by _ZL7current"
ok $? ":select onlyanchoredby takes a symbol (_ZL7current) too"
keys : "select onlyanchoredby focus" Enter
wait_for "error: focus: more than one variable has that name"
ok $? "focus, app::focus's and ui::focus's last name: neither, it says so"

# HeapInspector's Shape*: the class and those derived from it, by the
# program's DWARF (names.cc: Circle and geo::Square; no Shape of its own).
nd=$(pvsql "SELECT count(*) FROM heap_block b JOIN heap_type t ON t.session = 1
    AND t.idx = b.type WHERE b.session = 1 AND t.name IN ('Circle',
    'geo::Square')")
nt=$(sql "SELECT count(*) FROM heap_type WHERE session = 1 AND name IN
    ('Shape', 'Circle', 'geo::Square')")
keys : "mark Shape*" Enter
wait_for "marked Shape* ($nt types)" && wait_for "Shape* $nd ("
ok $? ":mark Shape*: Shape, Circle and geo::Square, $nd objects"

# The cursor's first object, libstdc++'s exception pool: of no type.
set -- $(pvsql "SELECT printf('0x%x', b.addr), t.name FROM heap_block b JOIN
    heap_type t ON t.session = 1 AND t.idx = b.type WHERE b.session = 1 AND
    b.idx = 0 AND t.kind = 'site'" | tr '|' ' ')
wait_for "cursor $1: (no type; site $2) ("
ok $? "the object pane: a block of no type, its site as a site ($2)"
keys q q
restored
ok $? "q q: the terminal restored"
finish
