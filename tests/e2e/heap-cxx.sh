#!/bin/sh
# C++: blocks whose word 0 is a vtable pointer are typed by their class,
# named as the source names it (namespaces and templates included); the
# others by their allocation site's function.
. "${top_srcdir:-.}/tests/e2e/heap.sh"

heap_setup heap-cxx
echo "1..4"
pvheap vt -- "$HEAPBIN/vtables"
check "the program ran ($pv_rc)" test "$pv_rc" = 0
"$HEAPSUM" "$W/vt.heap" -v > "$W/sum"
grep '^block' "$W/sum" | sed 's/.* type=\([^ ]*\) .*/\1/' | sort -u > "$W/types"
for c in Circle Square geo::Polygon 'Box<int>' 'Box<long>' Both Wide; do
	echo "$c"
done | sort > "$W/want"
check "every class of the source is a type" sh -c \
    "comm -13 '$W/types' '$W/want' | grep -q . && exit 1 || exit 0"
check "two Circles: one kept, one leaked" test "$(grep -c 'type=Circle ' \
    "$W/sum")" = 2
check "new Circle[2] (a count in word 0) is typed by its site" \
    grep -q '^block [0-9]* definite .* 56 type=leak() ' "$W/sum"
