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
pvheap=$b/capture/oberon/pvheap
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
exit $status
