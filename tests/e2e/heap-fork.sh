#!/bin/sh
# fork: the parent writes PROG.heap, the child PROG.PID.heap, and each
# agrees with memcheck's leak summary of the same process.
. "${top_srcdir:-.}/tests/e2e/heap.sh"

heap_setup heap-fork valgrind
echo "1..9"
prog=$HEAPBIN/fork
direct fork "$prog"
pvheap fork -- "$prog"
memcheck fork "$prog"
check "output under pvheap as without" cmp -s "$W/fork.direct" "$W/fork.out"
check "exit status under pvheap $pv_rc, without $direct_rc" \
    test "$pv_rc" = "$direct_rc"
child=$(ls "$W" | sed -n 's/^fork\.\([0-9][0-9]*\)\.heap$/\1/p')
check "the child wrote fork.PID.heap ($child)" test -n "$child"
check "the parent wrote fork.heap" test -f "$W/fork.heap"
# valgrind's logs: the parent's pid is the child's "Parent PID".
parent_log=
child_log=
for log in "$W"/fork.vg.*; do
	pid=${log##*.}
	if grep -q "Parent PID: $pid\$" "$W"/fork.vg.* ; then
		parent_log=$log
	else
		child_log=$log
	fi
done
vg_summary "$parent_log" > "$W/vgp"
vg_summary "$child_log" > "$W/vgc"
pv_summary "$W/fork.heap" > "$W/pvp"
pv_summary "$W/fork.$child.heap" > "$W/pvc"
for k in collectable reachable; do
	check "parent: $k as memcheck's" same_kind $k "$W/pvp" "$W/vgp"
	check "child: $k as memcheck's" same_kind $k "$W/pvc" "$W/vgc"
done
check "child: possible as memcheck's" same_kind possible "$W/pvc" "$W/vgc"
