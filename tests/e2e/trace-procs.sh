#!/bin/sh
# pvtrace on a forked child (its calls counted once, in it), exit() from
# five calls deep, and a function that sleeps 200 ms beside one that
# spins: the sleeper has its sleep in real time and next to nothing in
# CPU time.  (The bounds are loose on purpose: a test never times.)
. "${top_srcdir:-.}/tests/e2e/trace.sh"
need_valgrind
trace procs "$TD/procs"
"$TD/procs" >"$W/procs.native"
check "output unchanged" cmp -s "$W/procs.native" "$W/procs.out"
callgrind procs "$TD/procs"
compare procs
p=$(awk '$1 == "stat" && $2 == "processes" { print $3 }' "$W/procs.mon")
check "two processes traced ($p)" test "$p" = 2
r=$(field procs sleeper 3)
c=$(field procs sleeper 5)
check "sleeper: real $r ns >= the 200 ms it slept" le 200000000 "$r"
check "sleeper: real $r ns < 10 s" le "$r" 10000000000
check "sleeper: CPU $c ns < 20 ms" le "$c" 20000000
# The spinner calls nothing: a leaf, whose light probe measures no time
# (its trap times are its caller's); the sampler's CPU time is its.
check "spinner is a leaf: its probe measured no time" awk '/^\[/ { s = $1 }
    s == "[functions]" && $12 == "spinner" { f = 1; ok = $8 == "leaf" &&
    $2 == 0 && $3 == 0 } END { exit !(f && ok) }' "$W/procs.mon"
q=$(pvsql procs "SELECT how || ' ' || self_ns || ' ' || calls FROM func
    WHERE name = 'spinner'")
check "profview keeps it as a leaf: $q" test "$q" = "leaf 0 1"
r=$(field procs main 3)
c=$(python3 "$top_srcdir/tests/e2e/tracesamp.py" "$W/procs.mon" |
    awk '$1 == "spinner" { print $2 }')
check "spinner: sampled CPU $c ns > 0 and <= main's real $r" \
    sh -c "[ ${c:-0} -gt 0 ] && [ ${c:-0} -le $((r + r / 100 + 1000000)) ]"
e=$(awk '$1 == "stat" && $2 == "exit_closed" { print $3 }' "$W/procs.mon")
check "exit closed main and leave x6, _exit the child's main ($e)" \
    test "$e" = 8
finish
