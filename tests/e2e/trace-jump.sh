#!/bin/sh
# pvtrace on longjmp and siglongjmp out of recursion 500 deep: the frames
# jumped over are closed when the jump happens ("virtual unlinks"), and
# the counts and times after each landing are right.
. "${top_srcdir:-.}/tests/e2e/trace.sh"
need_valgrind
trace jump "$TD/jump"
"$TD/jump" >"$W/jump.native"
check "output unchanged" cmp -s "$W/jump.native" "$W/jump.out"
callgrind jump "$TD/jump"
compare jump
u=$(header jump "stat unwound" | awk '{ print $2 }')
u=$(awk '$1 == "stat" && $2 == "unwound" { print $3 }' "$W/jump.mon")
d=$(field jump deep 1)
check "every deep frame closed by its jump ($u of $d)" test "$u" = "$d"
a=$(awk '$1 == "stat" && $2 == "abandoned" { print $3 }' "$W/jump.mon")
check "none found abandoned later ($a)" test "$a" = 0
t=$(field jump deep 3)
r=$(field jump round_trip 3)
e=$(field jump deep 7)
re=$(field jump round_trip 7)
# Two estimates: within their uncertainties together (trace-recurse.sh).
check "deep's self+children ($t) <= round_trip's ($r, +/- $e + $re)" \
    le "$t" "$r" "$((e + re))"
finish
