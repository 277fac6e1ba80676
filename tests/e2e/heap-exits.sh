#!/bin/sh
# The ways a program ends: _exit (no destructors: the agent takes the
# snapshot in its _exit, where memcheck checks too), abort (no snapshot
# at exit, but every --every snapshot is whole and the last one stays;
# pvheap says so the way a shell does and exits 128 + 6), exec (the new
# program is traced and writes the file), and an unknown program (127).
. "${top_srcdir:-.}/tests/e2e/heap.sh"

heap_setup heap-exits valgrind
echo "1..13"
prog=$HEAPBIN/exits

direct x "$prog" _exit
pvheap x -- "$prog" _exit
memcheck x "$prog" _exit
check "_exit: status $pv_rc as without ($direct_rc)" \
    test "$pv_rc" = "$direct_rc"
check "_exit: output as without" cmp -s "$W/x.direct" "$W/x.out"
vg_summary "$(ls "$W"/x.vg.* | head -1)" > "$W/vg"
pv_summary "$W/x.heap" > "$W/pv"
check "_exit: collectable as memcheck's" same_kind collectable "$W/pv" \
    "$W/vg"
check "_exit: reachable as memcheck's" same_kind reachable "$W/pv" "$W/vg"

direct a "$prog" abort
pvheap a --every 0.05 -- "$prog" abort
check "abort: status $pv_rc, 134 as without ($direct_rc)" \
    test "$pv_rc" = 134 -a "$direct_rc" = 134
check "abort: pvheap says it like a shell" \
    grep -q "exits: Aborted" "$W/a.err"
check "abort: no snapshot at exit" test ! -f "$W/a.heap"
last=$(ls "$W" | sed -n 's/^a\.\([0-9][0-9]*\)\.heap$/\1/p' | sort -n |
    tail -1)
check "abort: periodic snapshots remain (the last is a.$last.heap)" \
    test -n "$last"
bad=0
for f in "$W"/a.*.heap; do
	"$HEAPSUM" "$f" > /dev/null 2>&1 || bad=1
done
check "abort: every one of them reads" test "$bad" = 0
check "abort: no half-written file is left" \
    sh -c "! ls '$W' | grep -q tmp"

pvheap e -- "$prog" exec
check "exec: the new program's status (5, from _exit)" test "$pv_rc" = 5
check "exec: the new program wrote e.heap" sh -c "'$HEAPSUM' '$W/e.heap' > /dev/null"

pvheap n -- "$W/no-such-program"
check "an unknown program: 127 as from a shell" test "$pv_rc" = 127
