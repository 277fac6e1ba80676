#!/bin/sh
# pvtrace on C++ exceptions thrown through ten frames, caught, rethrown
# and caught again, with destructors calling traced functions while the
# stack unwinds: the unwinder sees the real return addresses, and the
# catch closes the frames it unwound (library functions' too, traced at
# the program's GOT slots: _Unwind_Resume, which unwinds from its
# caller, is left out).
. "${top_srcdir:-.}/tests/e2e/trace.sh"
need_valgrind
trace except "$TD/except"
"$TD/except" >"$W/except.native"
check "output unchanged" cmp -s "$W/except.native" "$W/except.out"
check "exit status 0" test "$(cat "$W/except.rc")" = 0
callgrind except "$TD/except"
compare except
u=$(awk '$1 == "stat" && $2 == "unwound" { print $3 }' "$W/except.mon")
c=$(field except _Z7throweri 1)
m=$(field except _Z6middlei 1)
# __cxa_throw and __cxa_rethrow, library functions, never return: the
# unwinding closes theirs too.
x=$(field except __cxa_throw 1)
r=$(field except __cxa_rethrow 1)
check "every thrower, middle, __cxa_throw and __cxa_rethrow frame closed"\
" by the unwinding ($u of $c + $m + $x + $r)" \
    test "$u" = "$((c + m + x + r))" -a "$x" = 30 -a "$r" = 30
a=$(awk '$1 == "stat" && $2 == "abandoned" { print $3 }' "$W/except.mon")
check "none found abandoned later ($a)" test "$a" = 0
finish
