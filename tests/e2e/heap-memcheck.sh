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
	# memcheck scans stacks and registers conservatively: a stale word
	# that happens to point into a lost block makes it "possibly lost"
	# in one run and not the next (aligned's 300 KiB block, once in a
	# CI run, never here in dozens).  The oracle runs again once when
	# it disagrees; pvheap's own answer is never rerun.
	if ! { same_kind collectable "$W/$p.pvsum" "$W/$p.vgsum" &&
	    same_kind possible "$W/$p.pvsum" "$W/$p.vgsum" &&
	    same_kind reachable "$W/$p.pvsum" "$W/$p.vgsum"; }; then
		echo "# $p: memcheck's first run: $(tr '\n' ' ' <"$W/$p.vgsum")"
		rm -f "$W/$p".vg.*
		memcheck "$p" "$prog"
		vg_summary "$(ls "$W/$p".vg.* | head -1)" > "$W/$p.vgsum"
	fi
	compare "$p" "$W/$p.pvsum" "$W/$p.vgsum"
done
