#!/bin/sh
# pvtrace on functions of 1 to 4 bytes, too short for a jump: the plan
# traps them (int3) instead of leaving them out, and every call counts.
. "${top_srcdir:-.}/tests/e2e/trace.sh"
need_valgrind
trace tiny "$TD/tiny"
"$TD/tiny" >"$W/tiny.native"
check "output unchanged" cmp -s "$W/tiny.native" "$W/tiny.out"
for f in one two three four; do
	check "$f is trapped" grep -q "^fn 0 0x[0-9a-f]* [1-4] trap .* $f " \
	    "$W/tiny.pdt"
done
callgrind tiny "$TD/tiny"
compare tiny "$TD/tiny"
check "no function left out but _start" test "$(grep -c ' out ' \
    "$W/tiny.pdt")" = 1
finish
