#!/bin/sh
# Screen test: HeapInspector's module- and thread-centric views on
# pvheap's snapshot of tests/data/heap/threads (a worker thread's stack
# holds a chain of five blocks): Status, the Modules table's references
# and memory, the Imports table's importers, Tasks, ModuleLessObjects
# and :show moduleless, and the allocator's own blocks; each number
# against the store's rows, summed in SQL apart from profview.
. "${top_srcdir:-.}/tests/tui/lib.sh"
plan 3
build=$(cd "${top_builddir:-.}" && pwd)
PVHEAP=$build/capture/pvheap/pvheap
PROG=$build/tests/data/heap/threads
if ! [ -x "$PVHEAP" ] || ! [ -x "$PROG" ] || ! (cd "$dir" &&
    "$PVHEAP" -q -o threads.heap --signal USR2 -- "$PROG" >/dev/null \
    2>&1) || ! "$PROFVIEW" --db "$dir/db" ingest "$dir/threads.1.heap" \
    >/dev/null 2>&1
then
	for i in 1 2 3; do
		skip "threads" "pvheap or the test program not built"
	done
	finish
fi
HEAPR="kind IN ('heap', 'arena', 'mmap')"
# The gaps between blocks in each heap region, from its start to its end:
# over 16 bytes free, 16 or less chunk headers.
gaps=$(sql "WITH r AS (SELECT idx, lo, hi FROM heap_region
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
blk=$(sql "SELECT count(*) || ', ' || sum(size) || ' bytes asked for, ' ||
    sum(usable) || ' usable' FROM heap_block WHERE session = 1")
us=$(sql "SELECT sum(usable) FROM heap_block WHERE session = 1")
pvsize="150 60"
start -- "$dir/threads.1.heap"
wait_for "loaded $(sql "SELECT count(*) FROM heap_block WHERE session = 1") objects"

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
keys q
finish
