#!/bin/sh
# pvtrace on a stripped program: with no .symtab only the functions its
# .dynsym exports can be traced, and a program that exports none had an
# empty profile written, silently, with exit 0.  Now the plan says so
# for each such module, and a run with nothing to trace says why and
# exits 127 before the program runs, writing no profile.
. "${top_srcdir:-.}/tests/e2e/trace.sh"
command -v strip >/dev/null 2>&1 || skip_all "no strip (binutils)"
strip -o "$W/tiny-s" "$TD/tiny"
(cd "$W" && "$PVTRACE" -o s.mon -p s.pdt -- "$W/tiny-s" >s.out 2>s.err;
    echo $? >s.rc)
check "stripped run: exit 127 ($(cat "$W/s.rc"))" test "$(cat "$W/s.rc")" = 127
check "stripped run: says the module has no symbol table" \
    grep -q "tiny-s: no symbol table (stripped): only its exported functions (.dynsym) can be traced: 0 of them" \
    "$W/s.err"
check "stripped run: says nothing can be traced" \
    grep -q "no function of its own can be traced" "$W/s.err"
check "stripped run: no profile, the program not run" \
    test ! -e "$W/s.mon" -a ! -s "$W/s.out"
(cd "$W" && "$PVTRACE" plan -o p.pdt "$W/tiny-s" >p.out 2>p.err;
    echo $? >p.rc)
plan_said() {
	test "$(cat "$W/p.rc")" = 0 -a -s "$W/p.pdt" &&
	    grep -q "no symbol table (stripped)" "$W/p.err"
}
check "stripped plan: written, exit 0, with the same word" plan_said
# The same program unstripped: nothing said, traced.
trace full "$TD/tiny"
full_quiet() {
	test "$(cat "$W/full.rc")" = 0 -a -s "$W/full.mon" &&
	    ! grep -q "symbol table" "$W/full.err"
}
check "unstripped: traced, exit 0, no word of symbols" full_quiet
finish
