#!/bin/sh
# A snapshot on a signal, while a thread waits holding a list only its
# stack reaches: the list is reachable in pvheap's snapshot as in
# memcheck's leak check at the same moment.  (The bytes possibly lost
# are the new thread's DTV, which has an entry for each module with
# thread-local storage, and the agent brings two: their blocks agree.)
. "${top_srcdir:-.}/tests/e2e/heap.sh"

heap_setup heap-signal valgrind
echo "1..8"
prog=$HEAPBIN/threads
direct threads "$prog"
pvheap threads --signal USR2 -- "$prog"
memcheck threads "$prog"
check "output under pvheap as without" \
    cmp -s "$W/threads.direct" "$W/threads.out"
check "exit status under pvheap $pv_rc, without $direct_rc" \
    test "$pv_rc" = "$direct_rc"
check "the snapshot on the signal is threads.1.heap" \
    test -f "$W/threads.1.heap"
check "no snapshot at exit without --at-exit" test ! -f "$W/threads.heap"
vg_summary "$(ls "$W"/threads.vg.* | head -1)" 1 > "$W/vg"
pv_summary "$W/threads.1.heap" > "$W/pv"
for k in reachable collectable; do
	check "$k as in memcheck's check at that moment ($(grep "^$k " \
	    "$W/vg" | cut -d' ' -f2-) / $(grep "^$k " "$W/pv" |
	    cut -d' ' -f2-))" same_kind $k "$W/pv" "$W/vg"
done
check "the list is on the waiting thread's stack" \
    sh -c "'$HEAPSUM' '$W/threads.1.heap' -v | grep -q '^root \[stack\] .* -> [0-9]*+0'"
check "blocks possibly lost as memcheck's" test \
    "$(grep '^possible ' "$W/pv" | cut -d' ' -f3)" = \
    "$(grep '^possible ' "$W/vg" | cut -d' ' -f3)"
