#!/bin/sh
# The heap graph's leak kinds against valgrind memcheck's on the same
# heap: bench/heap-shape.h's shape (20000 blocks of 48 bytes, four slots
# each, a fifth of the pointers interior, one block in 64 never pointed
# to, 1000 global anchors) built for real by tests/unit/heapprog and
# searched by memcheck at exit, and given as a graph to
# analyze_heap_states by tests/unit/heapshape.  Blocks and bytes of each
# kind must be equal.
: "${top_builddir:=.}"
if ! command -v valgrind >/dev/null; then
	echo "1..0 # SKIP valgrind not found"
	exit 0
fi
if [ "${PROFVIEW_CHECK_PASS:-}" = sanitizer ]; then
	echo "1..0 # SKIP valgrind runs in the plain pass"
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pvheapmc.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
echo 1..4
valgrind --leak-check=full --show-leak-kinds=none \
    "$top_builddir/tests/unit/heapprog" >/dev/null 2>"$tmp/mc" ||
    { echo "Bail out! valgrind failed"; sed 's/^/# /' "$tmp/mc"; exit 1; }
"$top_builddir/tests/unit/heapshape" >"$tmp/ours" ||
    { echo "Bail out! heapshape failed"; exit 1; }
n=0
for kind in "definitely lost" "indirectly lost" "possibly lost" \
    "still reachable"; do
	n=$((n + 1))
	# memcheck: "   definitely lost: 1,650,384 bytes in 34,383 blocks"
	theirs=$(sed -n "s/^==[0-9]*== *$kind: \([0-9,]*\) bytes in \([0-9,]*\) blocks.*/\1 \2/p" "$tmp/mc" | tr -d ,)
	ours=$(sed -n "s/^$kind: \([0-9]*\) bytes in \([0-9]*\) blocks/\1 \2/p" "$tmp/ours")
	if [ -n "$ours" ] && [ "$ours" = "$theirs" ]; then
		echo "ok $n - $kind: $ours (bytes, blocks) as memcheck says"
	else
		echo "not ok $n - $kind: ours '$ours', memcheck '$theirs'"
	fi
done
