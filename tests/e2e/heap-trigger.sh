#!/bin/sh
# Snapshots on a timer, a signal or a request beside the one at exit:
# the exit snapshot does not wait for the agent's own thread (it blocks
# every signal and never parked: two seconds of stall per exit, counted
# as a thread unstopped); every --signal received is a snapshot, even
# six sent at once by a program that then ends at once, or one that cuts
# a usleep() short after which the program ends.
. "${top_srcdir:-.}/tests/e2e/heap.sh"

heap_setup heap-trigger
echo "1..9"
prog=$HEAPBIN/exits

for t in "--every 100" "--signal USR2" "--socket $W/sock"; do
	start=$(date +%s%N)
	pvheap x --at-exit $t -- "$prog"
	ms=$((($(date +%s%N) - start) / 1000000))
	check "${t%% *} beside the exit snapshot: $ms ms, not 2 s" \
	    test "$pv_rc" = 0 -a "$ms" -lt 1000
	check "... no thread left unstopped" sh -c "'$HEAPSUM' '$W/x.heap' \
	    -c | grep -qx 'counter threads_unstopped 0'"
done

usr2=$(python3 -c 'import signal; print(int(signal.SIGUSR2))')
pvheap r --signal USR2 -- "$prog" raise 6 "$usr2"
got=$(ls "$W" | grep -c '^r\.[1-6]\.heap$')
check "six signals and an exit at once: six snapshots ($got)" test "$got" = 6
bad=0
for f in "$W"/r.*.heap; do
	"$HEAPSUM" "$f" > /dev/null 2>&1 || bad=1
done
check "... each of them reads" test "$bad" = 0

(cd "$W" && exec "$PVHEAP" -q -o "$W/z.heap" --signal USR2 -- "$prog" \
    sleep) > "$W/z.out" 2> "$W/z.err" &
pid=$!
i=0
while ! grep -q sleeping "$W/z.out" && [ $i -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
kill -USR2 $pid
wait $pid
check "a signal in usleep(), the program ends: its snapshot is there" \
    sh -c "'$HEAPSUM' '$W/z.1.heap' > /dev/null"
