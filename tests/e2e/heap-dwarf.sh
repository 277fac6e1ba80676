#!/bin/sh
# Types and source lines from DWARF at ingest (ingest/heapdwarf.c), on
# tests/data/heap/typed (C: lists, a tree, arrays of pointers, a typedef,
# nested structs, an array of structs; void *, char * and a union that
# type nothing) and typedcc (C++: classes without vtables, a base class,
# a namespace).  The programs print each block's type as the source has
# it and where paths lead; memcheck's allocation stacks are the oracle
# of the sites' file:line.  Then the hostile side: a module rebuilt
# since the snapshot, one that is gone, one stripped of its DWARF.
. "${top_srcdir:-.}/tests/e2e/heap.sh"

heap_setup heap-dwarf valgrind
PV=${PROFVIEW:-$build/profview}
echo "1..20"

# ingest NAME: W/NAME.heap into W/NAME.db; its session, ingest's stderr
# in W/NAME.ing.
ingest()
{
	"$PV" --db "$W/$1.db" ingest "$W/$1.heap" 2> "$W/$1.ing" | cut -f1
}
# types NAME: "ADDR,TYPE,KIND" per block.
types()
{
	"$PV" --db "$W/$1.db" sql --csv "SELECT printf('%#x', b.addr),
	    t.name, t.kind FROM heap_block b LEFT JOIN heap_type t ON
	    t.session = b.session AND t.idx = b.type" | sed 1d
}
# typed_as NAME: every "type ADDR NAME" line the program printed holds.
typed_as()
{
	grep '^type ' "$W/$1.out" | while read -r _ a t; do
		grep -qxF "$a,$t,dwarf" "$W/$1.types" ||
		    { echo "# $a: want $t, got $(grep "^$a," "$W/$1.types")"
		    return 1; }
	done
}
# untyped NAME: no "untyped ADDR" line's block has a DWARF type (and
# there are such lines).
untyped()
{
	bad=$(grep '^untyped ' "$W/$1.out" | while read -r _ a; do
		grep "^$a,.*,dwarf\$" "$W/$1.types"; done)
	[ -z "$bad" ] || echo "# typed: $bad"
	[ -z "$bad" ] && grep -q '^untyped ' "$W/$1.out"
}
# traces NAME SESSION: every "trace PATH ADDR" the program printed.
traces()
{
	grep '^trace ' "$W/$1.out" | while read -r _ p a; do
		got=$("$PV" --db "$W/$1.db" heap --csv "$2" trace "$p" |
		    sed 1d | cut -d, -f3)
		[ "$(printf '%#x' "${got:-0}")" = "$a" ] ||
		    { echo "# trace $p: want $a, got '$got'"; return 1; }
	done
}
# lines FILE: memcheck's allocation stacks as their FILE:LINE frames.
vg_lines()
{
	cat "$W"/$1.vg.* | awk -v f="$2" '
	/are (still reachable|definitely lost|indirectly lost|possibly lost)/ {
		if (s != "") print s; s = ""; on = 1; next }
	on && /^==[0-9]*== *(at|by) / {
		if (match($0, "\\(" f ":[0-9]+\\)"))
			s = s substr($0, RSTART + 1, RLENGTH - 2) " "
		next }
	{ if (on && s != "") print s; on = 0; s = "" }
	END { if (s != "") print s }' | sort -u
}
pv_lines()
{
	"$PV" --db "$W/$1.db" sql --csv "SELECT replace(stack, char(10),
	    ' | ') FROM heap_site WHERE live_blocks > 0" | sed 1d |
	    awk -v f="$2" '
	{
		s = ""; t = $0
		while (match(t, "\\(" f ":[0-9]+\\)")) {
			s = s substr(t, RSTART + 1, RLENGTH - 2) " "
			t = substr(t, RSTART + RLENGTH)
		}
		if (s != "") print s
	}' | sort -u
}
# memcheck, with whole stacks (as deep as pvheap's).
memcheck_deep()
{
	name=$1
	shift
	valgrind --leak-check=full --show-leak-kinds=all --num-callers=64 \
	    --run-libc-freeres=no --run-cxx-freeres=no \
	    --log-file="$W/$name.vg.%p" "$@" > "$W/$name.vgout" 2>&1
}

pvheap typed -- "$HEAPBIN/typed"
check "typed ran ($pv_rc)" test "$pv_rc" = 0
s=$(ingest typed)
types typed > "$W/typed.types"
check "each block the C source types has that type, from DWARF" typed_as typed
check "blocks only void *, char * and a union reach are not typed" \
    untyped typed
check "every trace path leads where the program says" traces typed "$s"
check "a pointer that disagrees with a nearer one: counted, the nearer wins" \
    grep -q '1 typed pointers disagree with the nearer one' "$W/typed.ing"
check "trace: a missing member is named" sh -c "'$PV' --db '$W/typed.db' \
    heap $s trace typed:head.nope 2>&1 | grep -q 'struct node has no member nope'"
# HeapInspector's * is the type and those derived from it, never a
# prefix: C derives nothing, so struct node alone (not struct node *).
[ "$("$PV" --db "$W/typed.db" heap --csv "$s" by-type 'typed.struct node*' |
    sed 1d | cut -d, -f1 | sort | tr '\n' /)" = "struct node/" ]
ok $? "by-type typed.struct node*: struct node alone, C deriving nothing"
memcheck_deep typed "$HEAPBIN/typed"
vg_lines typed typed.c > "$W/vg.lines"
pv_lines typed typed.c > "$W/pv.lines"
check "allocation stacks' file:line as memcheck's ($(wc -l < "$W/vg.lines")
    stacks)" sh -c "test -s '$W/vg.lines' && cmp -s '$W/vg.lines' \
    '$W/pv.lines'"

pvheap typedcc -- "$HEAPBIN/typedcc"
check "typedcc ran ($pv_rc)" test "$pv_rc" = 0
s=$(ingest typedcc)
types typedcc > "$W/typedcc.types"
check "each C++ block has its class, namespace and all" typed_as typedcc
check "a derived object's words past its base type nothing" \
    untyped typedcc
check "C++ paths: members, a base's member, a namespace's variable" \
    traces typedcc "$s"
memcheck_deep typedcc "$HEAPBIN/typedcc"
vg_lines typedcc typedcc.cc > "$W/vgcc.lines"
pv_lines typedcc typedcc.cc > "$W/pvcc.lines"
check "C++ allocation stacks' file:line as memcheck's" sh -c \
    "test -s '$W/vgcc.lines' && cmp -s '$W/vgcc.lines' '$W/pvcc.lines'"

# A copy of the program, changed after the snapshot: another build-id.
cp "$HEAPBIN/typed" "$W/prog"
pvheap changed -- "$W/prog"
cp "$HEAPBIN/typedcc" "$W/prog"
s=$(ingest changed)
check "a rebuilt module: one warning naming it" sh -c "test \"\$(grep -c \
    'module $W/prog: not the file the snapshot saw' '$W/changed.ing')\" = 1"
check "... and no DWARF type or line from it, yet the session is there" \
    test -n "$s" -a "$("$PV" --db "$W/changed.db" sql --csv "SELECT
    count(*) FROM heap_type WHERE kind = 'dwarf'" | sed 1d)" = 0
# One that is gone.
rm -f "$W/prog"
cp "$HEAPBIN/typed" "$W/prog"
pvheap gone -- "$W/prog"
rm -f "$W/prog"
s=$(ingest gone)
check "a module no longer there: one warning naming it, no types" sh -c \
    "test -n '$s' && grep -q 'module $W/prog: no longer there' \
    '$W/gone.ing' && test \"\$('$PV' --db '$W/gone.db' sql --csv \"SELECT
    count(*) FROM heap_type WHERE kind = 'dwarf'\" | sed 1d)\" = 0"
# Stripped of its DWARF (the build-id stays): untyped, and quiet.
objcopy --strip-debug "$HEAPBIN/typed" "$W/prog"
pvheap stripped -- "$W/prog"
s=$(ingest stripped)
check "a stripped program: no types, no warning, no error" sh -c \
    "test -n '$s' && ! test -s '$W/stripped.ing' && test \"\$('$PV' --db \
    '$W/stripped.db' sql --csv \"SELECT count(*) FROM heap_type WHERE
    kind = 'dwarf'\" | sed 1d)\" = 0"
check "... and trace says DWARF is missing" sh -c "'$PV' --db \
    '$W/stripped.db' heap $s trace prog:head.next 2>&1 | grep -q \
    'no variable of that name in the DWARF'"

# A store whose heap tables are version 1 (before DWARF): the migration
# adds the columns and tables, and the old session stays readable.  Its
# sites are one table again, each with its stack's text (before version
# 4): their stacks come back the same from the frames made of them.
"$PV" --db "$W/old.db" ingest "$W/stripped.heap" > /dev/null 2>&1
sites="SELECT idx, function, pc, stack, allocs FROM heap_site
    WHERE session = 1 ORDER BY idx"
sqlite3 "$W/old.db" "$sites" > "$W/old.sites"
heap_store_v4 "$W/old.db" || echo "# could not make a version 4 store"
sqlite3 "$W/old.db" "CREATE TABLE heap_site_3 AS SELECT * FROM heap_site;
    DROP VIEW heap_site; DROP TABLE heap_allocsite; DROP TABLE heap_frame;
    DROP TABLE heap_stack; ALTER TABLE heap_site_3 RENAME TO heap_site;
    DROP TABLE heap_dtype; DROP TABLE heap_dfield;
    DROP TABLE heap_dvar; ALTER TABLE heap_site DROP COLUMN file;
    ALTER TABLE heap_site DROP COLUMN line;
    ALTER TABLE heap DROP COLUMN started_ns;
    UPDATE kind_schema SET version = 1 WHERE kind = 'heap'" ||
    echo "# could not make a version 1 store"
cp "$HEAPBIN/typed" "$W/prog"
s=$("$PV" --db "$W/old.db" ingest "$W/typed.heap" 2>/dev/null | cut -f1)
check "a version 1 store is migrated: a new session typed, the old one read" \
    sh -c "test -n '$s' && '$PV' --db '$W/old.db' heap --csv $s trace \
    typed:head | grep -q 'struct node' && '$PV' --db '$W/old.db' heap \
    --csv 1 by-type | grep -q '^(no type),'"
sqlite3 "$W/old.db" "$sites" > "$W/new.sites"
check "... its sites' stacks, functions and pcs as they were" sh -c \
    "grep -q 'main (prog)' '$W/old.sites' && cmp '$W/old.sites' \
    '$W/new.sites'"
