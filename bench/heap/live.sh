#!/bin/sh
# bench/heap/live.sh: a million live blocks at a peer's cost (issue 25).
# bench/heap/graph holds BENCH_LIVE_BLOCKS (1M) blocks of 48 bytes and
# twice as many pointers between them; in one run it is started plain,
# under pvheap without a snapshot (--signal USR2, never sent: the block
# table alone), under pvheap with its snapshot at exit, and under
# heaptrack.  Printed: each run's peak RSS (/usr/bin/time's maximum
# resident set, the largest process of the run) and what it adds to
# the plain run's per live block; the snapshot's bytes per block; the
# median of BENCH_LIVE_RUNS (7) ingests of the snapshot beside the
# median of as many heaptrack_print reports on heaptrack's own capture,
# taken in turns;
# the map's first frame and its load on the stored session, from
# PROFVIEW_TRACE under tmux.  Budgets (issue 25): table <= 64 B/block,
# snapshot <= 32 B/block, ingest <= 3x heaptrack_print.  Exit status 1
# when one is missed.  Not run by make check.
set -eu
: "${top_builddir:=.}"
b=$(cd "$top_builddir" && pwd)
graph=$b/bench/heap/graph
pvheap=$b/capture/pvheap/pvheap
PROFVIEW=${PROFVIEW:-$b/profview}
N=${BENCH_LIVE_BLOCKS:-1000000}
E=$((2 * N))
RUNS=${BENCH_LIVE_RUNS:-7}
W=$(mktemp -d "${TMPDIR:-/tmp}/bench-live.XXXXXX")
sock=pvlive$$
export TMUX_TMPDIR="$W"
cleanup() {
	tmux -L "$sock" kill-server 2>/dev/null || true
	rm -rf "$W"
}
trap cleanup EXIT INT TERM

median()
{
	sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# rss CMD...: the run's peak RSS in KiB, run in W.
rss()
{
	(cd "$W" && /usr/bin/time -f '%M' -o "$W/rss" "$@" >/dev/null 2>&1)
	cat "$W/rss"
}

# run NAME CMD...: one run of CMD, its wall and CPU (user + system)
# seconds appended to W/NAME.wall and W/NAME.cpu; a clean store first.
run()
{
	n=$1
	shift
	rm -f "$W/i.db" "$W/i.db-wal" "$W/i.db-shm"
	/usr/bin/time -f '%e %U %S' -o "$W/t" "$@" >/dev/null 2>&1
	awk '{ print $1 }' "$W/t" >> "$W/$n.wall"
	awk '{ print $2 + $3 }' "$W/t" >> "$W/$n.cpu"
}

per_block()	# per_block KIB: bytes over the plain run, per block
{
	echo "scale=1; ($1 - $plain) * 1024 / $N" | bc
}

plain=$(rss "$graph" "$N" "$E")
table=$(rss "$pvheap" -q --signal USR2 -o "$W/none.heap" -- "$graph" "$N" "$E")
snap=$(rss "$pvheap" -q -o "$W/g.heap" -- "$graph" "$N" "$E")
bytes=$(wc -c < "$W/g.heap")
ht=
if command -v heaptrack >/dev/null 2>&1; then
	ht=$(rss heaptrack -o "$W/ht" "$graph" "$N" "$E")
fi
echo "$N live blocks of 48 bytes, $E pointers between them and $N more to"
echo "them from one array (bench/heap/graph; with the array and stdio's buffer,"
echo "the snapshot holds $((N + 2)) blocks and $((E + N)) pointers):"
echo "  peak RSS, KiB, and bytes over the plain run per live block"
printf '  %-34s %9s %9s\n' run "peak KiB" "B/block"
printf '  %-34s %9s %9s\n' plain "$plain" -
printf '  %-34s %9s %9s\n' "pvheap, no snapshot (the table)" "$table" \
    "$(per_block "$table")"
printf '  %-34s %9s %9s\n' "pvheap, snapshot at exit" "$snap" \
    "$(per_block "$snap")"
[ -n "$ht" ] && printf '  %-34s %9s %9s\n' heaptrack "$ht" \
    "$(per_block "$ht")"
status=0
[ "$(echo "($table - $plain) * 1024 / $N <= 64" | bc)" = 1 ] || status=1
echo "snapshot: $bytes bytes, $(echo "scale=1; $bytes / $N" | bc)" \
    "bytes a block (budget 32)"
[ "$(echo "$bytes / $N <= 32" | bc)" = 1 ] || status=1
# heaptrack's capture beside it: a compressed log of the allocations,
# which holds no pointer and no contents (a million alike compress to
# almost nothing).
htf=$(ls "$W"/ht.* 2>/dev/null | head -1 || true)
[ -n "$htf" ] && echo "heaptrack's capture: $(wc -c < "$htf") bytes" \
    "(its allocations' log, zstd; no pointers)"

# The ingests and heaptrack_print's reports taken in turns: this
# machine's speed drifts by a third over seconds (a virtual machine's
# neighbours), and runs of one then runs of the other compared two
# speeds as often as two programs.
: > "$W/pv.wall"; : > "$W/pv.cpu"; : > "$W/hp.wall"; : > "$W/hp.cpu"
i=0
while [ $i -lt "$RUNS" ]; do
	run pv "$PROFVIEW" --db "$W/i.db" ingest "$W/g.heap"
	[ -n "$htf" ] && run hp heaptrack_print "$htf"
	i=$((i + 1))
done
echo "ingest, median of $RUNS taken in turns: wall (CPU) seconds"
pvc=$(median < "$W/pv.cpu")
printf '  %-34s %6.2f (%5.2f)\n' "profview ingest" \
    "$(median < "$W/pv.wall")" "$pvc"
if [ -n "$htf" ]; then
	hpc=$(median < "$W/hp.cpu")
	printf '  %-34s %6.2f (%5.2f)\n' "heaptrack_print, its capture" \
	    "$(median < "$W/hp.wall")" "$hpc"
	ratio=$(echo "scale=2; $pvc / $hpc" | bc)
	echo "  ingest / heaptrack_print, CPU: $ratio (budget 3)"
	[ "$(echo "$pvc <= 3 * $hpc" | bc)" = 1 ] || status=1
fi

# The map on the stored session: its first frame and its load.
"$PROFVIEW" --db "$W/i.db" ingest "$W/g.heap" >/dev/null 2>&1
cat > "$W/run.sh" <<EOF
PROFVIEW_TRACE="$W/trace" XDG_STATE_HOME="$W/state" exec "$PROFVIEW" --db "$W/i.db" browse 1
EOF
tmux -L "$sock" new-session -d -x 160 -y 50 "sh $W/run.sh"
i=0
until grep -q '^work_done heapmap' "$W/trace" 2>/dev/null; do
	i=$((i + 1))
	[ $i -gt 12000 ] && { echo "bench/heap/live.sh: the map did not" \
	    "load" >&2; exit 1; }
	sleep 0.01
done
tmux -L "$sock" send-keys Q
awk '/^first_frame_us/ { ff = $2 }
/^work_done heapmap/ && !l { ld = $3; l = 1 }
END { printf "map: first frame %.1f ms, loaded %.0f ms after it\n",
    ff / 1000, ld / 1000 }' "$W/trace"
exit $status
