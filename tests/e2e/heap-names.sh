#!/bin/sh
# C++ names as the source writes them (tests/data/heap/names): every
# variable whose symbol is mangled is shown as c++filt demangles it (less
# its ABI tag) and answers to that, to its symbol and to module:name;
# blocks are typed by a vtable or DWARF, and the others have no type, the
# function that allocated them named as their site, never as a type.
. "${top_srcdir:-.}/tests/e2e/heap.sh"

heap_setup heap-names
PV=${PROFVIEW:-$build/profview}
echo "1..11"
pvheap n -- "$HEAPBIN/names"
check "the program ran ($pv_rc)" test "$pv_rc" = 0
db="$W/pv.db"
id=$("$PV" --db "$db" ingest "$W/n.heap" | cut -f1)
q() { "$PV" --db "$db" heap --csv "$id" "$@" 2>"$W/err" | sed 1d; }
sql() { "$PV" --db "$db" sql --csv "$1" | sed 1d; }

# The oracle: binutils' c++filt on the symbols the store keeps.
sql "SELECT DISTINCT name FROM heap_root WHERE session = $id AND name
    LIKE '\_Z%' ESCAPE '\' ORDER BY 1" > "$W/syms"
check "the six mangled variables are roots ($(tr '\n' ' ' < "$W/syms"))" \
    test "$(wc -l < "$W/syms")" = 6
: > "$W/bad"
while read -r sym; do
	dem=$(c++filt "$sym" | sed 's/\[abi:[^]]*\]//g')
	q reachable "$sym" > "$W/by.sym"
	q reachable "$dem" > "$W/by.dem"
	q reachable "names:$dem" > "$W/by.full"
	if ! [ -s "$W/by.sym" ] || ! cmp -s "$W/by.sym" "$W/by.dem" ||
	    ! cmp -s "$W/by.sym" "$W/by.full"; then
		echo "$sym ($dem)" >> "$W/bad"
	fi
	a=$(sql "SELECT printf('%x', b.addr) FROM heap_root r JOIN heap_block
	    b ON b.session = r.session AND b.idx = r.dst WHERE r.session =
	    $id AND r.name = '$sym' LIMIT 1")
	q reached-from "0x$a" | grep -qxF "root,,,,names:$dem" ||
	    echo "reached-from 0x$a: not names:$dem" >> "$W/bad"
done < "$W/syms"
check "each by its name, its symbol, module:name; reached-from's name" sh -c \
    "cat '$W/bad' >&2; ! test -s '$W/bad'"
check "anchored-by g_shapes: the map, its nodes, their strings and shapes" \
    test "$(q anchored-by g_shapes | wc -l)" = 7
# Two variables are called current: the file's static is current, the
# namespace's app::current; a last name that two share would be neither.
cur=$(q anchored-by current | cut -d, -f6)
app=$(q anchored-by app::current | cut -d, -f6)
check "current: the file's static ($cur); app::current ($app)" \
    test "$cur" = Circle -a "$app" = geo::Square
check "main::cache, a function's static, by its last name too" \
    test "$(q anchored-by cache)" = "$(q anchored-by main::cache)"
err=$("$PV" --db "$db" heap "$id" reachable focus 2>&1 >/dev/null; echo $?)
check "focus, two namespaces' last name: neither, and it says so" test \
    "$err" = "profview: heap: focus: more than one variable has that name:\
 say module:focus, or a C++ one's whole name
1"

# Types: by-type has the vtables' and DWARF's, and one row for the rest.
sql "SELECT t.name FROM heap_block b JOIN heap_type t ON t.session =
    b.session AND t.idx = b.type WHERE b.session = $id AND t.kind IN
    ('vtable', 'dwarf') UNION SELECT '(no type)'" | sed 's/^"\(.*\)"$/\1/' |
    sort > "$W/want"
q by-type | sed 's/^"\(.*\)",[0-9,]*$/\1/; s/,[0-9,]*$//' | sort > "$W/got"
check "by-type: the vtables' and DWARF's types and (no type), no site" \
    diff "$W/want" "$W/got"
check "(no type): every block of a site or of none, its bytes" test \
    "$(q by-type | grep '^(no type),' | cut -d, -f2,3)" = "$(sql "SELECT
    count(*), sum(b.size) FROM heap_block b LEFT JOIN heap_type
    t ON t.session = b.session AND t.idx = b.type WHERE b.session = $id
    AND (t.kind IS NULL OR t.kind = 'site')")"
# Shape*: the classes derived from Shape, which names.cc makes Circle and
# geo::Square, by its DWARF; no Shape is allocated alone.
check "by-type Shape*: Circle and geo::Square, derived from Shape" test \
    "$(q by-type 'Shape*' | cut -d, -f1 | sort | tr '\n' /)" = \
    "Circle/geo::Square/"
raw=$(q anchored-by g_raw | cut -d, -f6)
site=$(sql "SELECT t.name || ' ' || t.kind FROM heap_root r JOIN heap_block
    b ON b.session = r.session AND b.idx = r.dst JOIN heap_type t ON
    t.session = b.session AND t.idx = b.type WHERE r.session = $id AND
    r.name = 'g_raw'")
check "g_raw's bytes (a void *): no type ($raw), its site: $site" \
    test "$raw" = '""' -a "$site" = "raw_bytes(unsigned long) site"
