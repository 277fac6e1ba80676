#!/bin/sh
# pvtrace on four threads (a shadow stack and call tree each), one ending
# in pthread_exit, and a qsort comparator called back from the C library.
. "${top_srcdir:-.}/tests/e2e/trace.sh"
need_valgrind
trace threads "$TD/threads"
"$TD/threads" >"$W/threads.native"
check "output unchanged" cmp -s "$W/threads.native" "$W/threads.out"
callgrind threads "$TD/threads"
compare threads
t=$(awk '$1 == "stat" && $2 == "threads" { print $3 }' "$W/threads.mon")
check "five threads traced ($t)" test "$t" = 5
e=$(awk '$1 == "stat" && $2 == "exit_closed" { print $3 }' "$W/threads.mon")
check "pthread_exit closed thread_main and bail ($e frames)" test "$e" = 2
finish
