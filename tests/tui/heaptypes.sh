#!/bin/sh
# Screen test: HeapInspector's type-centric viewers on pvheap's snapshot
# of tests/data/heap/vtables (C++ classes with vtables and bases):
# TypeHierarchy, ObjectsByType's Named and Classes, ModuleReachableTypes.
# Sizes from gdb's sizeof, counts from the stored snapshot and the
# program's source.
. "${top_srcdir:-.}/tests/tui/lib.sh"
N=15
plan $N
build=$(cd "${top_builddir:-.}" && pwd)
PVHEAP=$build/capture/pvheap/pvheap
VT=$build/tests/data/heap/vtables
CC=$build/tests/data/heap/typedcc
if ! [ -x "$PVHEAP" ] || ! [ -x "$VT" ] || ! [ -x "$CC" ] ||
    ! command -v gdb >/dev/null ||
    ! (cd "$dir" && "$PVHEAP" -q -o vt.heap -- "$VT" >/dev/null 2>&1 &&
    "$PVHEAP" -q -o cc.heap -- "$CC" >/dev/null 2>&1) ||
    ! "$PROFVIEW" --db "$dir/db" ingest "$dir/vt.heap" >/dev/null 2>&1 ||
    ! "$PROFVIEW" --db "$dir/db" ingest "$dir/cc.heap" >/dev/null 2>&1
then
	i=0
	while [ $i -lt $N ]; do
		skip "vtables" "pvheap, gdb or the test program not built"
		i=$((i + 1))
	done
	finish
fi
sizeof() {
	gdb -batch -ex "print sizeof($1)" "${2:-$VT}" 2>/dev/null |
	    sed -n 's/^\$1 = //p'
}
# methods NAME [PROGRAM]: the methods gdb's ptype lists (declared ones:
# in vtables.cc all virtual).
methods() {
	gdb -batch -ex "ptype $1" "${2:-$VT}" 2>/dev/null | grep -c '('
}
# objects NAME [SESSION]: the snapshot's blocks of that type.
objects() {
	pvsql "SELECT count(*) FROM heap_block b JOIN heap_type t ON
	    t.session = b.session AND t.idx = b.type WHERE t.name = '$1'
	    AND b.session = ${2:-1}"
}
nb=$(pvsql "SELECT count(*) FROM heap_block WHERE session = 1")
ncls=$(sql "SELECT count(DISTINCT name) FROM heap_dtype WHERE session = 1
    AND kind = 'struct' AND name NOT LIKE '?%'")
pvsize="160 40"
start -- "$dir/vt.heap"
wait_for "loaded $nb objects"

keys :
keys -l "typehierarchy"
keys Enter
wait_for "TypeHierarchy: $ncls classes" &&
    wait_for -E "^ +$(objects Circle) +[0-9]+ +$(sizeof Circle) +0  yes +$(methods Circle) +0  Circle +Shape\$" &&
    wait_for -E "  yes +[0-9]+ +0  Both +Shape, Named\$"
ok $? ":typehierarchy: the $ncls classes of the DWARF; Circle $(sizeof Circle) bytes as gdb's sizeof, $(methods Circle) virtual method as gdb's ptype, derived from Shape; Both from two"
keys i
keys End
wait_for -E "^ +0 +0 +$(sizeof Shape) +1  yes +$(methods Shape) +6  Shape *\$"
ok $? "Shape: $(sizeof Shape) bytes, 1 pointer (next), a vtable, $(methods Shape) virtual methods, 6 classes derived from it"
keys Home
keys Down Down Down
keys Enter
wait_for "marked $(objects Circle) objects: class Circle"
ok $? "Enter on Circle marks its $(objects Circle) objects"
keys Escape
wait_for "[heapmap]"

ncl=$(pvsql "SELECT count(DISTINCT t.name) FROM heap_block b JOIN heap_type t
    ON t.session = b.session AND t.idx = b.type WHERE b.session = 1 AND
    t.name IN (SELECT name FROM heap_dtype WHERE session = 1 AND
    kind = 'struct')")
keys :
keys -l "objectsbytype classes"
keys Enter
wait_for "ObjectsByType: $ncl types of classes with a vtable" &&
    ! screen | grep -q "(no type)"
ok $? ":objectsbytype classes: the $ncl types of polymorphic classes, no untyped blocks"
nnamed=$(pvsql "SELECT count(DISTINCT t.idx) FROM heap_block b JOIN heap_type t
    ON t.session = b.session AND t.idx = b.type WHERE b.session = 1 AND
    t.kind != 'site'")
keys :
keys -l "objectsbytype named"
keys Enter
wait_for "ObjectsByType: $nnamed named types"
ok $? ":objectsbytype named: the $nnamed types that are no allocation site's"
keys :
keys -l "objectsbytype"
keys Enter
wait_for "(no type)"
ok $? ":objectsbytype: every type again"

# vtables' globals: shapes (Circle, Square, geo::Polygon, Box<int>), named
# (a Both), squares (new Square[3], a cookie first: untyped), wide (Wide).
keys :
keys -l "modulereachabletypes vtab"
keys Tab
keys Enter
wait_for "ModuleReachableTypes vtables: 7 types" &&
    wait_for "7 objects of 7 types reached from vtables's"
ok $? ":modulereachabletypes vtab, Tab: vtables; the 7 objects its 4 globals reach, each of its type"
keys i
keys / C i r c l e Enter
keys Enter
wait_for "marked 1 objects: type Circle reached from the module"
ok $? "Enter on Circle: the one in the list, not the one leaked"
keys Escape
wait_for "[heapmap]"
# Finalizers: every object of a class with a destructor (all of
# vtables.cc's have a virtual one), its leak state the mark bit.
nfin=$(pvsql "SELECT count(*) FROM heap_block b JOIN heap_type t ON
    t.session = b.session AND t.idx = b.type WHERE b.session = 1 AND
    t.name IN (SELECT name FROM heap_dtype WHERE session = 1 AND
    kind = 'struct')")
nlost=$(pvsql "SELECT count(*) FROM heap_block b JOIN heap_type t ON
    t.session = b.session AND t.idx = b.type WHERE b.session = 1 AND
    b.state != 'reachable' AND t.name IN (SELECT name FROM heap_dtype
    WHERE session = 1 AND kind = 'struct')")
keys :
keys -l "finalizers"
keys Enter
wait_for "Finalizers: $nfin objects with a destructor" &&
    wait_for "$nfin objects of classes with a destructor, $nlost no root reaches"
ok $? ":finalizers: the $nfin objects of classes with a destructor, $nlost lost"
keys i
keys / W i d e Enter
wait_for -E "^ *0x[0-9a-f]+ +$(sizeof Wide) +(still reachable|definitely lost) +Wide +~Wide\(\)\$" &&
    wait_for -E "^ *0x[0-9a-f]+ +$(sizeof Circle) +(still reachable|definitely lost) +Circle +implicit, a base's\$"
ok $? "Wide's own ~Wide(), Circle's implicit one (Shape's runs)"
keys Tab
wait_for "info: Modules"
keys BTab
wait_for "info: Finalizers" && keys BTab && wait_for "info: ModuleReachableTypes"
ok $? "Tab: once made, the three tables are after Live, Finalizers last"
keys Escape
wait_for "[heapmap]"
keys :
keys -l "modulereachabletypes nosuch"
keys Enter
wait_for "error: no module nosuch"
ok $? ":modulereachabletypes of no module says so"
keys q q
wait_for "profview exited"

# typedcc: classes with no virtual function, so no vtable, and pointers.
nb=$(pvsql "SELECT count(*) FROM heap_block WHERE session = 2")
start -- browse 2
wait_for "loaded $nb objects"
keys :
keys -l "typehierarchy"
keys Enter
wait_for -E "^ +$(objects Rect 2) +[0-9]+ +$(sizeof Rect "$CC") +2  no +0 +0  Rect +Shape\$"
ok $? "typedcc's Rect: $(sizeof Rect "$CC") bytes, 2 pointers of its own (corner, next), no vtable, from Shape"
keys :
keys -l "typehierarchy classes"
keys Enter
wait_for "TypeHierarchy: 0 classes with a vtable" &&
    wait_for "TypeHierarchy [i: keys here] 0: polymorphic"
ok $? ":typehierarchy classes: none in typedcc, which has no virtual function"
keys :
keys -l "finalizers"
keys Enter
wait_for "Finalizers: 0 objects with a destructor"
ok $? ":finalizers: none in typedcc, which declares no destructor"
keys q q
finish
