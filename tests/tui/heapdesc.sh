#!/bin/sh
# Screen test: HeapInspector's Select Typedescriptor and Moduledescriptor
# on pvheap's snapshot of tests/data/heap/vtables (C++ classes with
# vtables and bases): the descriptor objects themselves (a class's
# vtable, a module's writable data), counted, and the Descriptors table
# describing them; :select instances keeps the objects of a type or
# module.  The vtables' addresses and sizes are nm's, the data's
# readelf's, both moved by the module's load address the snapshot
# recorded.
. "${top_srcdir:-.}/tests/tui/lib.sh"
N=14
plan $N
build=$(cd "${top_builddir:-.}" && pwd)
PVHEAP=$build/capture/pvheap/pvheap
VT=$build/tests/data/heap/vtables
if ! [ -x "$PVHEAP" ] || ! [ -x "$VT" ] || ! command -v nm >/dev/null ||
    ! command -v readelf >/dev/null ||
    ! (cd "$dir" && "$PVHEAP" -q -o vt.heap -- "$VT" >/dev/null 2>&1) ||
    ! "$PROFVIEW" --db "$dir/db" ingest "$dir/vt.heap" >/dev/null 2>&1
then
	i=0
	while [ $i -lt $N ]; do
		skip "descriptors" "pvheap, binutils or the test program not built"
		i=$((i + 1))
	done
	finish
fi
base=$(sql "SELECT base FROM heap_module WHERE session = 1 AND main")
# vtable CLASS: "ADDRESS SIZE" of its _ZTV symbol, as nm says, loaded.
vtable() {
	nm -S -C "$VT" | while read -r a z k name; do
		[ "$name" = "vtable for $1" ] &&
		    printf '%#x %d\n' $((base + 0x$a)) $((0x$z))
	done
}
# objects NAME: the snapshot's blocks of that type.
objects() {
	pvsql "SELECT count(*) FROM heap_block b JOIN heap_type t ON
	    t.session = b.session AND t.idx = b.type WHERE t.name = '$1'
	    AND b.session = 1"
}
# bytes CLASS...: the sum of their vtables' sizes.
bytes() {
	s=0
	for c; do
		s=$((s + $(vtable "$c" | cut -d' ' -f2)))
	done
	echo $s
}
# circle: open the snapshot, select Circle's vtable; "ADDRESS SIZE" in $1
# and $2.
circle() {
	start -- "$dir/vt.heap"
	wait_for "loaded $nb objects"
	set -- $(vtable Circle)
	keys :
	keys -l "select typedescriptor vtables.Circle"
	keys Enter
}
pvsize="160 40"
nb=$(pvsql "SELECT count(*) FROM heap_block WHERE session = 1")
circle
set -- $(vtable Circle)
wait_for "selected 1 typedescriptors ($2 B): type vtables.Circle" &&
    wait_for -E "^ *$1 +$2 +$(objects Circle)  vtable for Circle +vtables"
ok $? ":select typedescriptor vtables.Circle: its vtable, $2 bytes at $1 as nm's, its $(objects Circle) objects"
# The descriptors' own map below the heap's, labelled apart: the run of
# the module's vtables from Circle's (the lowest), Circle's 40 bytes
# selected (white, 231: a half block's top or bottom each cell) among
# the others (grey).
wait_for "not heap ("
strip=$(screen | awk '/^not heap / { print NR + 1; exit }')
cb=$(screen | sed -n 's/^not heap (\([0-9]*\) B a cell).*/\1/p')
sel=$(printf '%x' $(($1 & ~15)))
# The cells the vtable has a byte in, from the region's start, sel.
nc=$(( ($1 + $2 - 1 - ($1 & ~15)) / cb - ($1 - ($1 & ~15)) / cb + 1 ))
[ -n "$strip" ] && [ -n "$cb" ] &&
    screen | sed -n "${strip}p" | grep -q "^$sel " &&
    [ "$(cells | awk -v r="$strip" '$1 == r {
	n += ($3 == 231) + ($4 == 231) } END { print n + 0 }')" = "$nc" ] &&
    cells | awk -v r="$strip" '$1 == r && $2 > 14 && $3 != 231 &&
    $4 != 231 && $6 != " "' | grep -q .
ok $? "the vtables' run drawn apart below the heap (not heap, from $sel), Circle's $2 bytes selected ($nc half cells of $cb B) among the others"
keys i
keys Enter
wait_for "marked $(objects Circle) objects: the objects of Circle"
ok $? "Enter on the vtable's row marks its class's $(objects Circle) objects"
keys i

# Shape's derived classes with live objects (Shape's own vtable, an
# abstract class's, no object points at: the snapshot has it not).
# Box<long> is one too, but the DWARF spells its class Box<long int>,
# which * (the derivation by the DWARF's names) does not find.
b=$(bytes Circle Square geo::Polygon "Box<int>" Both)
keys :
keys -l "select typedescriptor .Shape*"
keys Enter
wait_for "selected 5 typedescriptors ($b B): type .Shape*" &&
    wait_for "vtable for Both" && ! screen | grep -q "vtable for Wide"
ok $? ":select typedescriptor .Shape*: the 5 vtables of its derived classes, $b bytes as nm's, not Wide's"

b=$(bytes Circle Square geo::Polygon "Box<int>" "Box<long>" Both Wide)
keys :
keys -l "select typedescriptor vtables."
keys Enter
wait_for "selected 7 typedescriptors ($b B): type vtables."
ok $? ":select typedescriptor vtables.: the module's 7 vtables, $b bytes"

set -- $(vtable Wide)
keys :
keys -l "select typedescriptor .Wide"
keys Enter
wait_for "selected 1 typedescriptors ($2 B): type .Wide" &&
    wait_for -E "^ *$1 +$2 +$(objects Wide)  vtable for Wide"
ok $? ":select typedescriptor .Wide: any module's, $2 bytes at $1"

# Vtables no live object uses: every _ZTV symbol of the C++ library
# (stripped: its dynamic symbols), defined and sized, once an address.
lib=$(sql "SELECT path FROM heap_module WHERE session = 1 AND
    path LIKE '%/libstdc++.so%'")
libname=${lib##*/}
libvt() {
	readelf --dyn-syms -W "$lib" | awk '$8 ~ /^_ZTV/ && $7 != "UND" &&
	    $3 > 0 { print $2, $3 }' | sort -u
}
nlib=$(libvt | wc -l)
blib=$(libvt | awk '{ s += $2 } END { printf "%.1f KiB", s / 1024 }')
keys :
keys -l "select typedescriptor $libname."
keys Enter
wait_for "selected $nlib typedescriptors ($blib): type $libname."
ok $? ":select typedescriptor $libname.: its $nlib vtables ($blib), as readelf's dynamic symbols"
# "." alone, both sides empty: every vtable of every module read (the
# agent's and the vDSO's are not), each from its symbol table if it has
# one, else its dynamic one.
modvt() {
	if readelf -SW "$1" | grep -q ' \.symtab '; then t=.symtab
	else t=.dynsym; fi
	readelf -sW "$1" | awk -v t="'$t'" '/^Symbol table/ { on = $3 == t }
	    on && $8 ~ /^_ZTV/ && $7 != "UND" && $3 > 0 { print $2 }' |
	    sort -u | wc -l
}
nall=0
for m in $(sql "SELECT path FROM heap_module WHERE session = 1 AND
    path LIKE '/%' AND path NOT LIKE '%/libpvheap.so'"); do
	nall=$((nall + $(modvt "$m")))
done
keys :
keys -l "select typedescriptor ."
keys Enter
wait_for "selected $nall typedescriptors ("
ok $? ":select typedescriptor .: all $nall vtables of the modules, as readelf's"
set -- $(readelf --dyn-syms -W "$lib" | awk '$8 ~ /^_ZTVSt9bad_alloc(@|$)/ {
    print $2, $3; exit }')
bad=$(printf '%#x' $(($(sql "SELECT base FROM heap_module WHERE session = 1
    AND path = '$lib'") + 0x$1)))
keys :
keys -l "select typedescriptor .std::bad_alloc"
keys Enter
wait_for "selected 1 typedescriptors ($2 B): type .std::bad_alloc" &&
    wait_for -E "^ *$bad +$2 +0  vtable for std::bad_alloc +$(echo "$libname" |
    sed 's/[+.]/\\&/g')\$"
ok $? ":select typedescriptor .std::bad_alloc: a vtable no object uses, $2 bytes at $bad, 0 objects"

# The writable data: from the end of the relro part to the segment's,
# in pages.
set -- $(readelf -lW "$VT" | awk '$1 == "GNU_RELRO" { print $3, $6 }')
r=$(($1 + $2))
set -- $(readelf -lW "$VT" | awk '$1 == "LOAD" && $7 ~ /W/ { print $3, $6 }')
e=$(($1 + $2))
lo=$(((r + 4095) / 4096 * 4096))
set -- $(printf '%#x' $((base + lo))) $(((e + 4095) / 4096 * 4096 - lo))
roots=$(sql "SELECT count(*) FROM heap_root r JOIN heap_region g ON
    g.session = r.session AND g.idx = r.region WHERE r.session = 1 AND
    g.kind = 'data' AND g.module = 0")
keys :
keys -l "select module vtables"
keys Enter
wait_for "selected 1 moduledescriptors (4.0 KiB): module vtables" &&
    wait_for -E "^ *$1 +$2 +$roots  data \(writable\) +vtables" &&
    screen | grep -A1 "^not heap " | grep -q "^${1#0x} "
ok $? ":select module vtables: its data, $2 bytes at $1 as readelf's, $roots pointers to the heap, drawn below the heap"
# What its globals reach: the blocks its data's roots point at, and on.
reach=$("$PROFVIEW" --db "$dir/db" sql --csv "WITH RECURSIVE r(b) AS
    (SELECT dst FROM heap_root WHERE session = 1 AND region IN
    (SELECT idx FROM heap_region WHERE session = 1 AND module = 0 AND
    kind = 'data') UNION SELECT f.dst FROM heap_ref f JOIN r
    ON f.src = r.b WHERE f.session = 1) SELECT count(*) FROM r" | sed 1d)
keys i
keys Enter
wait_for "marked $reach objects: reached from vtables's variables"
ok $? "Enter on the data's row marks the $reach objects its globals reach"
keys i

keys :
keys -l "select instances typedescriptor vtables.Circle"
keys Enter
wait_for "selected $(objects Circle) objects: type vtables.Circle"
ok $? ":select instances typedescriptor: the $(objects Circle) Circles, as before"
keys :
keys -l "select instances module vtables"
keys Enter
ni=$(pvsql "SELECT count(*) FROM heap_block b JOIN heap_type t ON
    t.session = b.session AND t.idx = b.type WHERE t.module = 0
    AND b.session = 1")
wait_for "selected $ni objects: module vtables"
ok $? ":select instances module vtables: its types' $ni objects"
keys q
wait_file "$dir/status"

# A session ingested before vtable sizes were kept: said, not 0.
sql "UPDATE heap_type SET vtable_size = NULL WHERE session = 1;
    DELETE FROM heap_vtable WHERE session = 1"
circle
set -- $(vtable Circle)
wait_for "selected 1 typedescriptors (0 B; sizes not known" &&
    wait_for -E "^ *$1 +\? +$(objects Circle)  vtable for Circle"
ok $? "sizes an older ingest did not keep: ? and said so"
keys q
finish
