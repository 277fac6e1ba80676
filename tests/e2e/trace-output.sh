#!/bin/sh
# pvtrace's files beside other users (outfile.c): a symlink planted at
# NAME.tmp is never written through, the profile and the plan are made
# 0600, and a FIFO named with -o is written in place and stays a FIFO,
# with -a too.
. "${top_srcdir:-.}/tests/e2e/trace.sh"
cd "$W" || exit 1
echo precious >victim
ln -s victim out.mon.tmp
ln -s victim out.pdt.tmp
"$PVTRACE" -o out.mon -p out.pdt -- "$TD/deep" 5 >out.out 2>out.err
check "pvtrace succeeds" test $? = 0
check "the victim behind the planted NAME.tmp links is untouched" \
    test "$(cat victim)" = precious
check "out.mon is a whole profile" test "$(sed 1q out.mon) $(tail -n 1 \
    out.mon)" = "pvtrace-mon 3 [end]"
check "out.mon is a file of its own, not a link" test -f out.mon -a \
    ! -L out.mon
check "out.mon is mode 600 ($(stat -c %a out.mon))" \
    test "$(stat -c %a out.mon)" = 600
check "out.pdt is mode 600 ($(stat -c %a out.pdt))" \
    test "$(stat -c %a out.pdt)" = 600

# A FIFO: read in the background (for 30 s at most: a pvtrace that put a
# file in its place would leave the reader waiting).
mkfifo fifo.mon
timeout 30 cat fifo.mon >fifo.got &
reader=$!
"$PVTRACE" -o fifo.mon -p out.pdt -- "$TD/deep" 5 >fifo.out 2>fifo.err
rc=$?
wait "$reader"
check "-o FIFO: pvtrace succeeds ($rc)" test "$rc" = 0
check "-o FIFO: the whole profile came through it" \
    test "$(sed 1q fifo.got) $(tail -n 1 fifo.got)" = "pvtrace-mon 3 [end]"
check "-o FIFO: down's 6 calls in it" test "$(awk '/^\[/ { s = $1 }
    s == "[functions]" && $12 == "down" { print $1 }' fifo.got)" = 6
check "-o FIFO: still a FIFO" test -p fifo.mon

# -a onto a FIFO: there is no profile in it to add to (reading it would
# wait for a writer that never comes): the run alone goes in.
timeout 30 cat fifo.mon >fifo-a.got &
reader=$!
# (-k: pvtrace passes SIGTERM to the program, which has ended by then.)
timeout -k 5 30 "$PVTRACE" -a -o fifo.mon -p out.pdt -- "$TD/deep" 5 \
    >fifo-a.out 2>fifo-a.err
rc=$?
wait "$reader"
check "-a onto a FIFO: pvtrace succeeds ($rc)" test "$rc" = 0
got="$(sed 1q fifo-a.got) $(grep -c '^runs 1$' fifo-a.got)"
check "-a onto a FIFO: one run's whole profile came through it" \
    test "$got $(tail -n 1 fifo-a.got)" = "pvtrace-mon 3 1 [end]"
check "-a onto a FIFO: still a FIFO" test -p fifo.mon
finish
