#!/bin/sh
# Screen test: HeapInspector's module- and thread-centric views on
# pvheap's snapshot of tests/data/heap/threads (a worker thread's stack
# holds a chain of five blocks): Status, the Modules table's references
# and memory, the Imports table's importers, Tasks, ModuleLessObjects
# and :show moduleless, and the allocator's own blocks; each number
# against the store's rows, summed in SQL apart from profview.
. "${top_srcdir:-.}/tests/tui/lib.sh"
plan 13
build=$(cd "${top_builddir:-.}" && pwd)
PVHEAP=$build/capture/pvheap/pvheap
PROG=$build/tests/data/heap/threads
if ! [ -x "$PVHEAP" ] || ! [ -x "$PROG" ] || ! (cd "$dir" &&
    "$PVHEAP" -q -o threads.heap --signal USR2 -- "$PROG" >/dev/null \
    2>&1) || ! "$PROFVIEW" --db "$dir/db" ingest "$dir/threads.1.heap" \
    >/dev/null 2>&1
then
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13; do
		skip "threads" "pvheap or the test program not built"
	done
	finish
fi
HEAPR="kind IN ('heap', 'arena', 'mmap')"
# The gaps between blocks in each heap region, from its start to its end:
# over 16 bytes free, 16 or less chunk headers.
gaps=$(pvsql "WITH r AS (SELECT idx, lo, hi FROM heap_region
    WHERE session = 1 AND $HEAPR),
  p AS (SELECT region, addr AS a, addr + usable AS e FROM heap_block
    WHERE session = 1 UNION ALL SELECT idx, hi, hi FROM r),
  g AS (SELECT a - COALESCE(MAX(e) OVER (PARTITION BY region ORDER BY a
    ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING),
    (SELECT lo FROM r WHERE idx = p.region)) AS gap FROM p)
  SELECT SUM(CASE WHEN gap > 16 THEN gap ELSE 0 END), SUM(gap > 16),
    SUM(CASE WHEN gap > 0 AND gap <= 16 THEN gap ELSE 0 END) FROM g")
free=${gaps%%|*}; ngaps=$(echo "$gaps" | cut -d'|' -f2); hdr=${gaps##*|}
nr=$(sql "SELECT count(*) FROM heap_region WHERE session = 1 AND $HEAPR")
rb=$(sql "SELECT sum(hi - lo) FROM heap_region WHERE session = 1 AND $HEAPR")
blk=$(pvsql "SELECT count(*) || ', ' || sum(size) || ' bytes asked for, ' ||
    sum(usable) || ' usable' FROM heap_block WHERE session = 1")
us=$(pvsql "SELECT sum(usable) FROM heap_block WHERE session = 1")
pvsize="150 60"
start -- "$dir/threads.1.heap"
wait_for "loaded $(pvsql "SELECT count(*) FROM heap_block WHERE session = 1") objects"

# Status: the heap's bytes, each as the rows sum, and the settings.
keys :
keys -l "status"
keys Enter
wait_for "Status shown" && keys i && wait_for "[heapinfo]" &&
    wait_for -E " 2 +heap regions +$nr, $rb bytes" &&
    wait_for -E " 3 +objects +$blk" &&
    wait_for -E " 4 +remain free +$free bytes in $ngaps gaps between objects" &&
    wait_for -E " 5 +chunk headers +$hdr bytes in gaps of 16 bytes or less" &&
    [ $((us + free + hdr)) = "$rb" ]
ok $? "Status: $nr regions of $rb bytes = $us usable + $free free + $hdr headers"
wait_for -E "Remain +off" && keys Escape && wait_for "[heapmap]"
keys :
keys -l "remain on"
keys Enter
wait_for "remain on" && keys i && wait_for "[heapinfo]" &&
    wait_for -E "Remain +on: 0 objects born since hidden"
ok $? "Status: Remain on, nothing born since"
keys Escape
wait_for "[heapmap]"
keys :
keys -l "status"
keys Enter
wait_for "Status hidden" && wait_gone "remain free"
ok $? ":status again hides it"

# Tasks: each thread's stack region, the pointers from its stack and its
# registers (heap_root's rows in those regions) and the blocks only they
# reach: a recursive walk of heap_ref from each owner's roots in SQL (a
# module's data, a thread's stack and registers, other memory).
pvsql "WITH RECURSIVE reach(o, blk) AS (
    SELECT CASE WHEN g.module IS NOT NULL THEN 'm' || g.module
      WHEN g.kind IN ('stack', 'registers') THEN 't' || g.tid
      ELSE 'r' || g.idx END, r.dst FROM heap_root r
      JOIN heap_region g ON g.session = 1 AND g.idx = r.region
     WHERE r.session = 1
    UNION SELECT reach.o, f.dst FROM reach
      JOIN heap_ref f ON f.session = 1 AND f.src = reach.blk),
  own AS (SELECT blk, min(o) AS o FROM reach GROUP BY blk
    HAVING count(DISTINCT o) = 1),
  anc AS (SELECT o, count(*) AS n, sum(b.usable) AS u FROM own
      JOIN heap_block b ON b.session = 1 AND b.idx = own.blk GROUP BY o)
  SELECT t.tid, printf('%#x', t.lo), printf('%#x', t.hi), t.hi - t.lo,
    (SELECT count(*) FROM heap_root r WHERE r.session = 1 AND
      r.region = t.idx),
    CASE WHEN x.idx IS NULL THEN 'not read' ELSE (SELECT count(*)
      FROM heap_root r WHERE r.session = 1 AND r.region = x.idx) END,
    coalesce(anc.n, 0), coalesce(anc.u, 0)
    FROM heap_region t LEFT JOIN heap_region x ON x.session = 1 AND
      x.kind = 'registers' AND x.tid = t.tid
    LEFT JOIN anc ON anc.o = 't' || t.tid
   WHERE t.session = 1 AND t.kind = 'stack' ORDER BY t.tid" |
    tr '|' ' ' > "$dir/tasks"
nt=$(wc -l < "$dir/tasks")
keys BTab BTab
wait_for "info: Tasks" && keys i && wait_for "keys to Tasks" &&
    screen | grep -A "$nt" -E 'thread.? +stack from' | tail -n "$nt" |
    sed 's/^ *//; s/  */ /g; s/ *$//' > "$dir/gottasks" &&
    diff "$dir/tasks" "$dir/gottasks" >&2
ok $? "Tasks: $nt threads' stacks, stack and register pointers, anchors as SQL finds them"
set -- $(sort -k7,7nr "$dir/tasks" | head -1)
keys '>' '>' '>' '>' '>' '>'
wait_for "Tasks sorted by anchors, descending" && keys Home Enter &&
wait_for "marked $7 objects: anchored by thread $1"
ok $? "Enter on thread $1: the $7 blocks ($8 bytes) only it anchors"

# ModuleLessObjects: the blocks no module's data reaches (a recursive walk
# from the roots in modules' regions), by address, and of them those no
# root at all reaches.
pvsql "WITH RECURSIVE m(blk) AS (SELECT r.dst FROM heap_root r
      JOIN heap_region g ON g.session = 1 AND g.idx = r.region
     WHERE r.session = 1 AND g.module IS NOT NULL
    UNION SELECT f.dst FROM m JOIN heap_ref f ON f.session = 1 AND
      f.src = m.blk),
  a(blk) AS (SELECT dst FROM heap_root WHERE session = 1
    UNION SELECT f.dst FROM a JOIN heap_ref f ON f.session = 1 AND
      f.src = a.blk)
  SELECT printf('%#x', addr), usable, idx NOT IN a FROM heap_block
   WHERE session = 1 AND idx NOT IN m ORDER BY addr" | tr '|' ' ' \
    > "$dir/mless"
nl=$(wc -l < "$dir/mless")
ml=$(awk '{ b += $2; l += $3 } END { print NR " objects, " b " bytes, no module'"'"'s data reaches; " NR - l " held by stacks or other memory, " l " by nothing (lost)" }' "$dir/mless")
mb=$(awk '{ b += $2 } END { print b }' "$dir/mless")
keys Escape
wait_for "[heapmap]"
keys :
keys -l "show moduleless"
keys Enter
wait_for "Moduleless on: $nl objects no module's data reaches, marked" &&
    wait_for "ModuleLessObjects [i: keys here] $nl: $ml" &&
    wait_for -E "moduleless $nl \\($mb B\\) of $nl"
ok $? ":show moduleless: $ml, marked on the map"
keys i
wait_for "keys to ModuleLessObjects" &&
    screen | grep -A "$nl" -E 'address.? +usable +thread' | tail -n "$nl" |
    awk '{ print $1, $2, ($0 ~ /nothing \(lost\)/) }' > "$dir/gotmless" &&
    diff "$dir/mless" "$dir/gotmless" >&2
ok $? "ModuleLessObjects: each block by address, the lost ones said so"
keys Escape
wait_for "[heapmap]"
keys :
keys -l "show moduleless"
keys Enter
wait_for "Moduleless off" && wait_gone "ModuleLessObjects"
ok $? ":show moduleless again: unmarked, the table hidden"
keys q
restored

# The Modules table's references and memory, on typed.c's snapshot (its
# globals and libc's point into the heap): each module's pointers from
# its data (heap_root's rows in its regions), the blocks only its roots
# reach (a recursive walk of heap_ref in SQL) with their usable bytes,
# and code + data + those.
if ! (cd "$dir" && "$PVHEAP" -q -o typed.heap -- "$build/tests/data/heap/typed" \
    >/dev/null 2>&1) || ! "$PROFVIEW" --db "$dir/db" ingest "$dir/typed.heap" \
    >/dev/null 2>&1; then
	for i in 1 2 3 4 5; do
		skip "typed" "pvheap or the test program not built"
	done
	finish
fi
BASE="replace(m.path, rtrim(m.path, replace(m.path, '/', '')), '')"
pvsql "WITH RECURSIVE reach(o, blk) AS (
    SELECT coalesce(g.module, -1 - g.idx), r.dst FROM heap_root r
      JOIN heap_region g ON g.session = 2 AND g.idx = r.region
     WHERE r.session = 2
    UNION SELECT reach.o, f.dst FROM reach
      JOIN heap_ref f ON f.session = 2 AND f.src = reach.blk),
  own AS (SELECT blk, min(o) AS o FROM reach GROUP BY blk
    HAVING count(DISTINCT o) = 1),
  anc AS (SELECT o, count(*) AS n, sum(b.usable) AS u FROM own
      JOIN heap_block b ON b.session = 2 AND b.idx = own.blk GROUP BY o),
  refs AS (SELECT g.module AS m, count(*) AS n FROM heap_root r
      JOIN heap_region g ON g.session = 2 AND g.idx = r.region
     WHERE r.session = 2 GROUP BY g.module)
  SELECT $BASE, coalesce(refs.n, 0), coalesce(anc.n, 0),
    coalesce(anc.u, 0), m.code_size + m.data_size + coalesce(anc.u, 0)
    FROM heap_module m LEFT JOIN refs ON refs.m = m.idx
    LEFT JOIN anc ON anc.o = m.idx WHERE m.session = 2 AND m.unloaded = 0
   ORDER BY 1" | tr '|' ' ' > "$dir/refs"
nm=$(wc -l < "$dir/refs")
start -- "$dir/typed.heap"
wait_for "loaded $(pvsql "SELECT count(*) FROM heap_block WHERE session = 2") objects" &&
    keys Tab && wait_for "info: Modules" && keys i &&
    wait_for "keys to Modules" &&
    keys '<' '<' '>' '>' '>' '>' '>' '>' '>' &&
    wait_for "Modules sorted by module, ascending" &&
    screen | grep -A "$nm" -E 'objects.? +bytes.? +code' | tail -n "$nm" |
    awk '{ print $8, $9, $10, $11, $12 }' > "$dir/gotrefs" &&
    diff "$dir/refs" "$dir/gotrefs" >&2
ok $? "Modules: refs, anchors, anchored bytes, total of $nm modules as heap_root and heap_ref have them"
keys '>' '>' && wait_for "Modules sorted by anchors, descending" &&
    top=$(sort -k3,3nr "$dir/refs" | head -1) &&
    screen | grep -A 1 -E 'objects.? +bytes.? +code' | tail -n 1 |
    awk '{ print $8, $9, $10, $11, $12 }' | grep -qx "$top"
ok $? "sorted by anchors: $top first"

# The Imports table's importers: the modules whose DT_NEEDED entries
# heap_import resolved to each, each once, in the modules' order.
BI="replace(i.path, rtrim(i.path, replace(i.path, '/', '')), '')"
sql "SELECT $BASE, coalesce((SELECT group_concat(n, ', ') FROM
    (SELECT DISTINCT i.idx, $BI AS n FROM heap_import x
       JOIN heap_module i ON i.session = 2 AND i.idx = x.module
      WHERE x.session = 2 AND x.target = m.idx AND x.module != m.idx
      ORDER BY i.idx)), '') FROM heap_module m
  WHERE m.session = 2 AND m.unloaded = 0 ORDER BY 1" > "$dir/importers"
keys Tab Tab Tab
wait_for "info: Imports" && wait_for "and through them" &&
    screen | awk '/direct +indirect +module/ { c = index($0, "imported by")
	next } c && $3 != "" { s = substr($0, c); sub(/ +$/, "", s)
	print $3 "|" s }' | head -n "$(wc -l < "$dir/importers")" \
	> "$dir/gotimp" && diff "$dir/importers" "$dir/gotimp" >&2
ok $? "Imports: each module's importers as heap_import resolves them"

# Default blocks: those whose allocation site (the innermost function that
# called the allocator: a site type) is in libc.so or ld.so, but for the
# functions that allocate for their caller (typed.c's strdup'd strings).
FOR_CALLER="'strdup', '__strdup', 'strndup', '__strndup', 'wcsdup',
    'asprintf', 'vasprintf', '__vasprintf_internal', 'getline', 'getdelim',
    '__getdelim', 'realpath', 'open_memstream', 'open_wmemstream',
    'scandir', 'scandir64', 'backtrace_symbols', 'get_current_dir_name',
    'getcwd', 'tempnam', 'canonicalize_file_name'"
set -- $(pvsql "SELECT count(*), sum(b.usable) FROM heap_block b
    JOIN heap_type t ON t.session = 2 AND t.idx = b.type
    JOIN heap_module m ON m.session = 2 AND m.idx = t.module
   WHERE b.session = 2 AND t.kind = 'site' AND ($BASE LIKE 'libc.so%' OR
    $BASE LIKE 'ld-linux%' OR $BASE LIKE 'ld.so%') AND
    t.name NOT IN ($FOR_CALLER)" | tr '|' ' ')
nd=$1 db=$2
sz=$(awk -v b="$db" 'BEGIN { if (b < 1024) printf "%d B", b;
    else printf "%.1f KiB", b / 1024 }')
all=$(pvsql "SELECT count(*) FROM heap_block WHERE session = 2")
keys Escape
wait_for "[heapmap]"
keys :
keys -l "show colorizedefaultblocks"
keys Enter
wait_for "ColorizeDefaultBlocks on: $nd objects, $db bytes, that libc or ld.so allocated" &&
    wait_for "libc's own $nd ($sz) of $nd ($sz)" &&
    wait_for "unmarked $((all - nd)) ("
ok $? ":show colorizedefaultblocks: $nd blocks ($db bytes) libc or ld.so allocated, coloured apart"
keys :
keys -l "show defaultblocks"
keys Enter
wait_for "DefaultBlocks off: $nd objects, $db bytes, that libc or ld.so allocated not drawn" &&
    wait_gone "libc's own" && wait_for "unmarked $((all - nd)) ("
ok $? ":show defaultblocks: the $nd left out of the map"
keys q
finish
