#!/bin/sh
# bench/heap: pvheap's cost per malloc+free pair beside heaptrack's and
# memcheck's on the same workload in the same run (budget: at most 0.25
# of heaptrack's overhead), and the time to snapshot a heap of 1M blocks
# and 4M pointers (budget: under a second).  Each figure is the median
# of 5 runs (memcheck: 1, on fewer pairs); the overhead is the tool's
# time per pair less the program's own.  Not run by make check.
set -u
: "${top_builddir:=.}"
b=$(cd "$top_builddir" && pwd)
churn=$b/bench/heap/churn
graph=$b/bench/heap/graph
pvheap=$b/capture/pvheap/pvheap
heapsum=$b/tests/e2e/heapsum
W=$(mktemp -d "${TMPDIR:-/tmp}/bench-heap.XXXXXX")
trap 'rm -rf "$W"' EXIT
N=${BENCH_HEAP_PAIRS:-2000000}
DEPTH=${BENCH_HEAP_DEPTH:-8}

median()
{
	sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# runs CMD...: five runs' ns/pair (the line that is only a number:
# heaptrack talks on stdout too), the median.
runs()
{
	for i in 1 2 3 4 5; do
		(cd "$W" && "$@" 2>/dev/null | grep -E '^[0-9.]+$' | tail -1)
	done | median
}

native=$(runs "$churn" "$N" "$DEPTH")
pv=$(runs "$pvheap" -q -o "$W/c.heap" -- "$churn" "$N" "$DEPTH")
if command -v heaptrack >/dev/null 2>&1; then
	ht=$(runs heaptrack -o "$W/ht" "$churn" "$N" "$DEPTH")
else
	ht=
fi
if command -v valgrind >/dev/null 2>&1; then
	mc=$(cd "$W" && valgrind -q --leak-check=no "$churn" $((N / 20)) \
	    "$DEPTH" 2>/dev/null | grep -E '^[0-9.]+$' | tail -1)
else
	mc=
fi
echo "malloc+free pairs ($N, $DEPTH calls deep): ns per pair"
printf '  %-22s %8s %10s\n' tool "per pair" overhead
printf '  %-22s %8.1f %10s\n' native "$native" -
printf '  %-22s %8.1f %10.1f\n' pvheap "$pv" "$(echo "$pv - $native" | bc)"
[ -n "$ht" ] && printf '  %-22s %8.1f %10.1f\n' "heaptrack" "$ht" \
    "$(echo "$ht - $native" | bc)"
[ -n "$mc" ] && printf '  %-22s %8.1f %10.1f\n' "memcheck (N/20 pairs)" \
    "$mc" "$(echo "$mc - $native" | bc)"
status=0
if [ -n "$ht" ]; then
	ratio=$(echo "scale=3; ($pv - $native) / ($ht - $native)" | bc)
	echo "  pvheap's overhead / heaptrack's: $ratio (budget 0.25)"
	[ "$(echo "$ratio <= 0.25" | bc)" = 1 ] || status=1
fi

# pvheap at the issue's minimum depth, 8 frames.
pv8=$(runs "$pvheap" -q --depth 8 -o "$W/c.heap" -- "$churn" "$N" "$DEPTH")
printf '  %-22s %8.1f %10.1f\n' "pvheap --depth 8" "$pv8" \
    "$(echo "$pv8 - $native" | bc)"

# A snapshot of 1M blocks and 4M pointers, taken at exit.
: > "$W/snap.txt"
: > "$W/total.txt"
for i in 1 2 3; do
	(cd "$W" && "$pvheap" -o "$W/g.heap" -- "$graph" 1000000 4000000 \
	    2>&1 >/dev/null) | sed -n 's/.*threads stopped \([0-9.]*\) ms/\1/p' \
	    >> "$W/snap.txt"
	"$heapsum" "$W/g.heap" -c | sed -n 's/^counter snapshot_ns //p' \
	    >> "$W/total.txt"
done
stop=$(median < "$W/snap.txt")
total=$(median < "$W/total.txt")
echo "snapshot of 1M blocks, 4M pointers: threads stopped $stop ms," \
    "written in $(echo "scale=1; $total / 1000000" | bc) ms" \
    "($(ls -l "$W/g.heap" | awk '{ print $5 }') bytes; budget 1000 ms stopped)"
[ "$(echo "$stop < 1000" | bc)" = 1 ] || status=1

# Its ingest (budget: 1M rows a second), with the DWARF types (the
# program is built with -g: every block is typed along the 4M pointers)
# and without (a copy stripped of its DWARF, snapshotted the same way).
if ! readelf -S "$graph" | grep -q '\.debug_info'; then
	# A stale build of it (the file is tracked): the figure would lie.
	echo "bench/heap: $graph has no DWARF: rebuild it (make" \
	    "bench/heap/graph after removing it)" >&2
	exit 1
fi
objcopy --strip-debug "$graph" "$W/graph-nodw"
(cd "$W" && "$pvheap" -q -o "$W/n.heap" -- "$W/graph-nodw" 1000000 \
    4000000 >/dev/null 2>&1)
# ingest FILE: five runs; W/wall and W/cpu get their seconds (user +
# system: what the ingest itself costs on a busy machine).
ingest_s()
{
	: > "$W/wall"
	: > "$W/cpu"
	for i in 1 2 3 4 5; do
		rm -f "$W/i.db" "$W/i.db-wal" "$W/i.db-shm"
		/usr/bin/time -f '%e %U %S' -o "$W/t" "$PROFVIEW" --db \
		    "$W/i.db" ingest "$1" >/dev/null 2>&1
		awk '{ print $1 }' "$W/t" >> "$W/wall"
		awk '{ print $2 + $3 }' "$W/t" >> "$W/cpu"
	done
}
ingest_s "$W/g.heap"
dw=$(median < "$W/wall")
dwc=$(median < "$W/cpu")
typed=$("$PROFVIEW" --db "$W/i.db" sql --csv "SELECT count(*) FROM
    heap_block b JOIN heap_type t ON t.session = b.session AND
    t.idx = b.type WHERE t.kind = 'dwarf'" 2>/dev/null | sed -n 2p)
ingest_s "$W/n.heap"
nodw=$(median < "$W/wall")
nodwc=$(median < "$W/cpu")
rows=$("$PROFVIEW" --db "$W/i.db" sql --csv "SELECT blocks +
    coalesce(ref_last - ref_first + 1, 0) + (SELECT count(*) FROM heap_root
    r WHERE r.session = h.session) AS n FROM heap h" 2>/dev/null | sed -n 2p)
echo "ingest of it ($rows rows), wall (CPU) seconds and rows/s:"
printf '  %-34s %6.2f (%5.2f) %9.0f\n' "with DWARF ($typed blocks typed)" \
    "$dw" "$dwc" "$(echo "$rows / $dw" | bc)"
printf '  %-34s %6.2f (%5.2f) %9.0f\n' "without (stripped)" "$nodw" \
    "$nodwc" "$(echo "$rows / $nodw" | bc)"
echo "  budget: 1000000 rows/s with DWARF"
[ "$(echo "$rows / $dw >= 1000000" | bc)" = 1 ] || status=1
exit $status
