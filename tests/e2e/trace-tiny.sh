#!/bin/sh
# pvtrace on functions of 1 to 4 bytes, too short for a jump: the plan
# jumps over the fill after them, or traps them (int3), never leaves
# them out, and every call counts.
. "${top_srcdir:-.}/tests/e2e/trace.sh"
need_valgrind
# The default plan jumps where the alignment fill after a function
# leaves room (one, two, three); --no-padding traps all four.
callgrind tiny "$TD/tiny"
trace tiny "$TD/tiny"
"$TD/tiny" >"$W/tiny.native"
check "output unchanged" cmp -s "$W/tiny.native" "$W/tiny.out"
for f in one two three; do
	check "$f jumps over the fill after it, a leaf" \
	    grep -q "^fn 0 0x[0-9a-f]* [1-3] jump 5 .* pl $f " "$W/tiny.pdt"
done
check "four (no fill after it) is trapped" \
    grep -q "^fn 0 0x[0-9a-f]* 4 trap .* four " "$W/tiny.pdt"
compare tiny
# (__libc_start_main's GOT slot, flag g, is left out too: not a function
# of the program's.)
check "no function left out but _start" test "$(grep ' out ' \
    "$W/tiny.pdt" | grep -vc ' - - g ')" = 1
(cd "$W" && "$PVTRACE" plan --no-padding -o traps.pdt "$TD/tiny" \
    >traps.plan)
trace traps "$TD/tiny"
for f in one two three four; do
	check "--no-padding: $f is trapped" \
	    grep -q "^fn 0 0x[0-9a-f]* [1-4] trap .* $f " "$W/traps.pdt"
done
for f in "$W"/cg.tiny.*; do
	cp "$f" "$W/cg.traps.${f##*/cg.tiny.}"
done
compare traps
finish
