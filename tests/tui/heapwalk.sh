#!/bin/sh
# Screen test: the heap map's searches over the graph (r, R, the roots
# pane, :select onlyanchoredby) that take long on a large heap.  They go
# on in the loop's slices with their progress shown, the keys still
# answered, and Esc (or ^C) cancelling them.  PROFVIEW_HEAPMAP_WALK=1
# makes a search walk one pointer a slice, so a heap of 200k blocks in a
# chain is slow here as a million-block heap is for real; the counts the
# searches end with come from the chain's shape, not from the screen.
. "${top_srcdir:-.}/tests/tui/lib.sh"
DEMO=${top_builddir:-.}/tests/tui/heapmap-demo
if asan_build "$DEMO"; then
	skip_all "a 200k-block demo is minutes under ASan+UBSan"
fi
plan 14
N=200000

# A chain backwards: block i points to block i - 1, the root to the last
# one; so the first block (under the cursor at Home) is reached from all.
python3 - "$dir/chain.heap" "$N" <<'PY'
import sys
path, n = sys.argv[1], int(sys.argv[2])
H = 0x555555560000
out = open(path, 'w')
w = out.write
w('program\tchain\nmodule\tchain\ntype\t0\tlink\n')
w('frame\tmain\tchain.c\t1\nsite\t0\t1\n')
w('region\t%#x\t%#x\tmain heap\n' % (H, H + 32 * n + 4096))
for i in range(n):
    w('block\t%#x\t24\t24\t0\t0\n' % (H + 16 + 32 * i))
w('root\t0\tchain:tail\nredge\t0\t%d\n' % (n - 1))
for i in range(1, n):
    w('edge\t%d\t%d\n' % (i, i - 1))
out.close()
PY

# heapdemo's browser inherits this (through tmux's server).
export PROFVIEW_HEAPMAP_WALK=1
heapdemo "$dir/chain.heap"
wait_long "heap graph made" && wait_for "chain.c"
ok $? "the chain of $N blocks is mapped and its graph made"

# Enter selects the first block; R begins a search of all N.
keys Enter
wait_for "selected 0x555555560010"
keys R
wait_for -E "ReachedFrom: [0-9]+ objects so far, [0-9]+ ms \(Esc cancels\)"
ok $? "R on a long search: its progress, and Esc named"
# The keys are answered while it runs.
keys Right
wait_for -E "cells on|in view"
# The key's message shows until the next progress redraw (a tenth of a
# second while the search runs): the count from that redraw on.
wait_for -E "ReachedFrom: [0-9]+ objects so far|ReachedFrom 0x555555560010: $N objects in"
before=$(screen | grep -o 'ReachedFrom: [0-9]*' | head -1)
# Still going, further on; or (a fast machine) already done.  Waited
# for, not slept for: on a loaded machine the next progress redraw may
# be well over its tenth of a second away.
further() {
	after=$(screen | grep -o 'ReachedFrom: [0-9]*' | head -1)
	{ [ -n "$before" ] && [ -n "$after" ] &&
	    [ "${before#*: }" -lt "${after#*: }" ]; } ||
	    screen | grep -q "ReachedFrom 0x555555560010: $N objects in"
}
wait_until further
ok $? "it goes on between keys (${before:-?}, then ${after:-done})"
# R again turns it off, the search dropped.  The next block selected,
# R and Esc at once (Esc is read within termkey's wait, a few thousand
# pointers into a new search) cancel the search for it.
keys R
wait_for "ReachedFrom off"
keys l Enter
wait_for "selected 0x555555560030"
keys R Escape
wait_for -E "ReachedFrom cancelled after [0-9]+ objects"
ok $? "Esc cancels it"
screen | grep -q "reached from"
[ $? -ne 0 ]
ok $? "a cancelled search marks nothing: no 'reached from' in the legend"
screen | grep -q "so far"
[ $? -ne 0 ]
ok $? "and its progress is gone"

# Again, to the end: every block but the first reaches the second.
keys R
wait_long -E "ReachedFrom 0x555555560030: $((N - 1)) objects in [0-9]+ ms"
ok $? "left alone it ends: the second block and the $((N - 2)) after it"
wait_for -E "reached from [0-9]+ \(.*\) of $((N - 2)) "
ok $? "the legend counts the $((N - 2)) blocks that reach it"

# The roots tables (the last before the leak lists) take the same
# search's answer.
keys BTab BTab BTab BTab BTab BTab BTab BTab BTab BTab
wait_for "1 roots in 1 modules reach 0x555555560030: chain"
ok $? "the roots pane: the one root, from the search made for R"

# OnlyAnchoredBy block 100 searches from the root down to it, all but
# the first 101 blocks, and ends with those 101.  ^C stops it as Esc does,
# and profview stays.
keys R
wait_for "ReachedFrom off"
b100=$(printf '%#x' $((0x555555560010 + 32 * 100)))
keys : "select onlyanchoredby $b100" Enter
# The signal once the search is under way, not before the browser has
# read the command (a loaded machine may take a while to).
wait_for -E "OnlyAnchoredBy: [0-9]+ objects so far"
kill -INT "$(cat "$dir/pid")"
wait_for "interrupted"
ok $? "^C cancels it and the browser stays"
screen | grep -q "only anchored by"
[ $? -ne 0 ]
ok $? "a cancelled :select selects nothing"
keys : "select onlyanchoredby $b100" Enter
wait_for -E "OnlyAnchoredBy: [0-9]+ objects so far"
ok $? ":select onlyanchoredby on a long search shows its progress"
wait_long "selected 101 objects: only anchored by $b100"
ok $? "left alone: blocks 0 to 100, which only block 100 anchors"
keys Q
restored
ok $? "q: the terminal restored"
finish
