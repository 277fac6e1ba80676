#!/bin/sh
# The heap test programs under pvheap and under valgrind memcheck: the
# bytes and blocks collectable (memcheck's definitely + indirectly lost),
# possible (possibly lost) and reachable must be the same, and pvheap must
# leave the program's output and exit status as they are.
. "${top_srcdir:-.}/tests/e2e/heap.sh"

heap_setup heap-memcheck valgrind
progs="list tree cycles interior realloc aligned vtables"
echo "1..$(( $(echo $progs | wc -w) * 5 ))"
for p in $progs; do
	prog=$HEAPBIN/$p
	direct "$p" "$prog"
	pvheap "$p" -- "$prog"
	memcheck "$p" "$prog"
	check "$p: output under pvheap as without" \
	    cmp -s "$W/$p.direct" "$W/$p.out"
	check "$p: exit status under pvheap $pv_rc, without $direct_rc" \
	    test "$pv_rc" = "$direct_rc"
	vg_summary "$(ls "$W/$p".vg.* | head -1)" > "$W/$p.vgsum"
	if ! pv_summary "$W/$p.heap" > "$W/$p.pvsum" 2> "$W/$p.pverr"; then
		for i in 1 2 3; do
			ok 1 "$p: snapshot: $(cat "$W/$p.pverr" "$W/$p.err")"
		done
		continue
	fi
	compare "$p" "$W/$p.pvsum" "$W/$p.vgsum"
done
